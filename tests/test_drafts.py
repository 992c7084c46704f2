"""Drafts: a file `new` writes builds as written. It is a draft: shown in the preview under a
banner, checked with warnings, left out of `build` unless --drafts."""

from __future__ import annotations

import re

from dossier.cli import main
from dossier.incremental.session import Session

DRAFT = "---\ndraft: true\nname: Ana Ruiz\nsummary: A corporal.\n---\nRuiz crossed.[@ap \"across the bridge\"]\n"
LINKS_TO_DRAFT = "---\nname: Cúcuta\nsummary: A border city.\n---\nA city.[@ap \"across the bridge\"] See [[ana-ruiz]].\n"


def run(capsys, *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_new_then_check_gives_warnings_only(make_site, capsys):
    root = make_site()
    assert run(capsys, "new", "person", "José Gómez", "--source", str(root))[0] == 0
    text = (root / "content/people/jose-gomez.md").read_text(encoding="utf-8")
    summary_line = text.split("\n").index(next(line for line in text.split("\n") if line.startswith("summary:"))) + 1
    code, out, err = run(capsys, "check", "--strict", "--source", str(root))
    assert code == 0, err
    problems = [line for line in err.splitlines() if ": warning: " in line or ": error: " in line]
    assert problems and all(line.startswith("content/people/jose-gomez.md:") and ": warning: " in line for line in problems), err
    assert f"content/people/jose-gomez.md:{summary_line}: warning: a person needs 'summary' (one plain sentence) (draft)" in problems
    assert "check passed" in out


def test_a_passing_check_says_which_drafts_it_left_out(make_site, capsys):
    root = make_site({"content/people/ana-ruiz.md": DRAFT})
    code, out, _ = run(capsys, "check", "--strict", "--source", str(root))
    assert code == 0 and out.splitlines() == [
        "check passed: every reference resolved and every quote found in its source",
        "left out 1 draft (content/people/ana-ruiz.md): `check --drafts` checks it too",
    ]
    code, out, _ = run(capsys, "check", "--drafts", "--source", str(root))
    assert code == 0 and out.splitlines() == ["check passed: every reference resolved and every quote found in its source"]


def test_a_new_file_cites_nothing_that_does_not_exist(make_site, capsys):
    root = make_site()
    run(capsys, "new", "person", "José Gómez", "--source", str(root))
    path = root / "content/people/jose-gomez.md"
    text = path.read_text(encoding="utf-8")
    assert "[@" not in text and "<!--" in text
    path.write_text(text.replace('summary: ""', "summary: A soldier.").replace("draft: true", "draft: false"), encoding="utf-8")
    code, _, err = run(capsys, "check", "--source", str(root))
    assert code == 0 and ": error: " not in err, err


def test_build_leaves_a_draft_out_and_build_drafts_puts_it_in(make_site, capsys, tmp_path):
    root = make_site({"content/people/ana-ruiz.md": DRAFT})
    code, out, err = run(capsys, "build", "--source", str(root))
    assert code == 0, err
    assert not (root / "site/people/ana-ruiz").exists()
    assert "ana-ruiz" not in (root / "site/people/index.html").read_text(encoding="utf-8")
    assert "ana-ruiz" not in (root / "site/data/site.json").read_text(encoding="utf-8")
    code, out, err = run(capsys, "build", "--drafts", "--source", str(root), "--out", str(tmp_path / "drafts"))
    assert code == 0, err
    page = (tmp_path / "drafts/people/ana-ruiz/index.html").read_text(encoding="utf-8")
    assert "Draft: not published" in page
    assert "Draft: not published" not in (tmp_path / "drafts/people/jorge-torres/index.html").read_text(encoding="utf-8")


def test_a_link_to_a_draft_is_an_error_under_build(make_site, capsys, tmp_path):
    root = make_site({"content/people/ana-ruiz.md": DRAFT, "content/places/cucuta.md": LINKS_TO_DRAFT})
    code, _, err = run(capsys, "build", "--source", str(root))
    assert code == 1
    assert "content/places/cucuta.md:5:38: error: links to 'ana-ruiz', a draft (content/people/ana-ruiz.md) that build leaves out: finish it and remove 'draft: true', or build with --drafts" in err
    assert run(capsys, "build", "--drafts", "--source", str(root), "--out", str(tmp_path / "drafts"))[0] == 0


def test_the_preview_shows_a_draft_with_a_banner_and_warns_of_links_to_it(make_site):
    root = make_site({"content/people/ana-ruiz.md": DRAFT, "content/places/cucuta.md": LINKS_TO_DRAFT})
    session = Session(root, drafts="preview")
    session.load()
    outcome = session.render()
    assert not outcome.errors, outcome.errors
    assert "Draft: not published" in outcome.files["people/ana-ruiz/index.html"].decode()
    assert [str(p) for p in outcome.problems if p.path == "content/places/cucuta.md"] == [
        "content/places/cucuta.md:5:38: warning: links to 'ana-ruiz', a draft (content/people/ana-ruiz.md) that build leaves out: finish it and remove 'draft: true', or build with --drafts"]


def test_a_draft_with_problems_of_its_own_is_left_out_of_the_preview_with_warnings(make_site):
    broken = DRAFT.replace('"across the bridge"', '"across the river"')
    root = make_site({"content/people/ana-ruiz.md": broken})
    session = Session(root, drafts="preview")
    session.load()
    outcome = session.render()
    assert not outcome.errors, outcome.errors
    assert "people/ana-ruiz/index.html" not in outcome.files
    assert any(re.match(r"content/people/ana-ruiz\.md:6:\d+: warning: quote not found", str(p)) for p in outcome.problems)


def test_the_preview_opened_from_a_build_shows_its_drafts(make_site, capsys, tmp_path):
    from dossier.serve.preview import Preview

    root = make_site({"content/people/ana-ruiz.md": DRAFT})
    assert run(capsys, "build", "--source", str(root))[0] == 0  # site/ without the draft
    preview = Preview(root, tmp_path / "preview")
    (tmp_path / "preview").mkdir()
    preview.start()
    try:
        assert "Draft: not published" in (tmp_path / "preview/people/ana-ruiz/index.html").read_text(encoding="utf-8")
    finally:
        preview.stop()


def test_the_drafts_a_session_knows_follow_each_edit(make_site):
    # The preview keeps the set of drafts as files are read, rather than looking at every file on
    # each save: a file that becomes a draft, stops being one, is broken, or goes, is followed.
    root = make_site({"content/people/ana-ruiz.md": DRAFT})
    session = Session(root, drafts="preview")
    session.load()
    ana, torres = root / "content/people/ana-ruiz.md", root / "content/people/jorge-torres.md"
    steps = [
        (ana, None, {("people", "ana-ruiz")}),
        (torres, torres.read_text(encoding="utf-8").replace("---\nname:", "---\ndraft: true\nname:", 1), {("people", "ana-ruiz"), ("people", "jorge-torres")}),
        (ana, DRAFT.replace("draft: true\n", ""), {("people", "jorge-torres")}),
        (torres, "---\ndraft: true\nname: [broken\n---\n", set()),  # unreadable YAML: it cannot say it is a draft
        (torres, None, set()),
    ]
    for number, (path, text, expected) in enumerate(steps):
        if text is None and number:
            path.unlink()
        elif text is not None:
            path.write_text(text, encoding="utf-8")
        session.update([path.relative_to(root).as_posix()])
        fresh = Session(root, drafts="preview")
        fresh.load()
        assert set(session.drafts) == set(fresh.drafts) == expected, number
