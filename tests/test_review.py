"""The review sheet and recorded reviews: each sentence beside the whole quote it cites and the
article's sentence around it, reviews written into the front matter, and what changed since."""

from __future__ import annotations

import json
import re
from pathlib import Path

import jsonschema
import yaml

from dossier.cli import main
from dossier.pipeline import build, check, load
from dossier.editors.review import record_sheet, seed_context, with_review, without_review
from dossier.text.passages import SeedText

TORRES = "content/people/jorge-torres.md"
COPY = {  # a republication of the AP story, and a person citing the story and the copy
    "seeds/ap-copy.txt": "Sgt. Jorge Torres drove an armoured truck across the bridge.\n",
    "content/sources/ap-copy.yaml": "title: AP copy\noutlet: A republisher\nlanguage: en\nseed: ap-copy.txt\nderived_from: ap\n",
    "content/people/jorge-torres.md": (
        "---\nname: Jorge Torres  # as the AP writes it\naliases: [Jorge Torres]\nsummary: A sergeant.\n---\n"
        'Torres drove a truck.[@ap "drove an armoured truck"][@ap-copy "drove an armoured truck"] He crossed.[@ap-copy "across the bridge"]\n\n'
        'He spoke.[@ap "going to change history"]\n'
    ),
}


def review(root: Path, *args: str) -> int:
    return main(["review", "--source", str(root), *args])


def test_the_sheet_sets_each_sentence_beside_the_whole_quote_and_the_sentence_around_it(make_site, capsys):
    root = make_site()
    assert review(root, TORRES) == 0
    out = capsys.readouterr().out
    assert f"{TORRES}: Jorge Torres: never reviewed" in out
    assert f"  {TORRES}:8: Torres drove a truck.\n    single source (ap)\n" in out
    assert "    [ap] “drove an armoured truck across the bridge”\n" in out
    # The article's whole sentence, "Sgt." not taken for its end, with the quote marked in it.
    assert "      line 1: …Sgt. Jorge Torres »drove an armoured truck across the bridge«.…\n" in out
    assert f"  {TORRES}:8: See Aid convoy.\n    cites no source\n" in out  # a link shows its record's name


def test_seed_context_extends_a_quote_to_the_sentences_it_lies_in():
    seed = SeedText("First one. Sgt. Ana said it, and U.S. officials agreed. Last one.\nNext line.")
    context = seed_context(seed, "said it")
    assert (context.before, context.quote, context.after, context.line) == ("Sgt. Ana ", "said it", ", and U.S. officials agreed.", 1)
    assert seed_context(seed, "agreed. Last").after == " one."  # a quote across two sentences takes both
    assert seed_context(seed, "not there") is None


def test_one_source_and_its_translation_count_once_and_a_copy_alone_is_flagged(make_site, capsys):
    root = make_site(COPY)
    assert review(root, TORRES) == 0
    out = capsys.readouterr().out
    assert ":6: Torres drove a truck.\n    single source (ap)\n" in out  # the story and its copy: one source, never two
    assert ":6: He crossed.\n    rests only on ap-copy (derived from ap)\n" in out


def test_a_recorded_review_is_one_line_of_front_matter_and_the_rest_of_the_file_is_kept(make_site, capsys):
    root = make_site(COPY)
    before = (root / TORRES).read_text(encoding="utf-8")
    assert review(root, "--record", "--by", "Ana Ruiz", "--on", "2026-12-01", TORRES) == 0
    assert capsys.readouterr().out == f"recorded the review of {TORRES}\n"
    after = (root / TORRES).read_text(encoding="utf-8")
    entry = re.search(r"^reviewed: .*$", after, re.MULTILINE).group()
    assert re.fullmatch(r'reviewed: \{by: "Ana Ruiz", date: 2026-12-01, digest: [0-9a-f]{12}, sentences: \[[0-9a-f]{8}, [0-9a-f]{8}, [0-9a-f]{8}\]\}', entry)
    assert after.replace(entry + "\n", "") == before  # the comment and the order of the keys are kept
    check(root)  # the build accepts it
    site, _ = load(root)
    record = site.records["people"]["jorge-torres"]
    sheet = record_sheet(site, root, record)
    assert record.reviewed.by == "Ana Ruiz" and record.reviewed.digest == sheet.digest and sheet.state == "unchanged"
    # Recording again replaces the entry: one review, the latest.
    assert review(root, "--record", "--by", "Luis Henao", "--on", "2026-12-02", TORRES) == 0
    again = (root / TORRES).read_text(encoding="utf-8")
    assert again.count("reviewed:") == 1 and 'by: "Luis Henao", date: 2026-12-02' in again
    assert review(root, TORRES) == 0
    assert f"{TORRES}: Jorge Torres: reviewed by Luis Henao on 2026-12-02, unchanged" in capsys.readouterr().out


def test_the_digest_covers_the_text_and_the_cited_passages_not_the_review_itself(make_site):
    root = make_site()
    site, _ = load(root)
    first = record_sheet(site, root, site.records["people"]["jorge-torres"]).digest
    (root / "seeds/ap.txt").write_text((root / "seeds/ap.txt").read_text().replace("the bridge.", "the bridge today."), encoding="utf-8")
    site, _ = load(root)
    assert record_sheet(site, root, site.records["people"]["jorge-torres"]).digest != first  # the article's sentence changed
    text = "---\nname: X\nreviewed: {by: A, date: 2026-01-01, digest: 0123456789ab}\nsummary: Y\n---\nBody.\n"
    assert without_review(text, False) == "---\nname: X\nsummary: Y\n---\nBody.\n"
    assert with_review("title: T\nnotes: |\n  Some notes.\n", "reviewed: {by: A}", True) == "title: T\nnotes: |\n  Some notes.\nreviewed: {by: A}\n"
    assert yaml.safe_load(with_review("title: T\nnotes: |\n  Some notes.\n", "reviewed: {by: A}", True))["notes"] == "Some notes.\n"


def test_an_edited_sentence_is_marked_changed_and_status_fails(make_site, capsys):
    root = make_site(COPY)
    assert review(root, "--record", "--by", "Ana Ruiz", "--on", "2026-12-01", TORRES, "content/places/cucuta.md") == 0
    assert review(root, "--status", TORRES, "content/places/cucuta.md") == 0
    assert "2 of 2 records reviewed and unchanged since" in capsys.readouterr().out
    path = root / TORRES
    path.write_text(path.read_text(encoding="utf-8").replace("He spoke.", "He spoke at length."), encoding="utf-8")
    assert review(root, "--status") == 1
    out = capsys.readouterr().out
    assert f"{TORRES}: reviewed by Ana Ruiz on 2026-12-01; changed since the review: 1 sentence\n" in out
    assert "content/events/aid-convoy.md: never reviewed\n" in out
    assert out.endswith("1 of 5 records reviewed and unchanged since; 3 never reviewed, 1 changed since their review\n")
    assert review(root, "--changed") == 0
    sheet = capsys.readouterr().out
    assert sheet.startswith(f"{TORRES}: Jorge Torres: reviewed by Ana Ruiz on 2026-12-01; changed since the review: 1 sentence")
    assert ":9: He spoke at length.  [changed]\n" in sheet and ":7: Torres drove a truck.\n" in sheet  # only the edited one is marked
    assert "cucuta" not in sheet  # unchanged records are left out


def test_the_html_sheet_links_each_record(make_site, tmp_path, capsys):
    root = make_site(COPY)
    out = tmp_path / "sheet.html"
    assert review(root, "--html", str(out)) == 0
    page = out.read_text(encoding="utf-8")
    assert '<a href="#people-jorge-torres">content/people/jorge-torres.md</a>' in page and '<details class="record" id="people-jorge-torres" open>' in page
    assert "…Sgt. Jorge Torres <mark>drove an armoured truck</mark> across the bridge.…" in page


def reviewed_but_one(make_site, capsys) -> Path:
    """A project whose records are all reviewed, then one of them changed and one record added."""
    root = make_site({**COPY, "content/sources/ap.yaml": BASE_AP + "notes: The story, at https://example.org/" + "a" * 120 + " (a long address).[@ap \"Torres said\"]\n"})
    paths = [TORRES, "content/events/aid-convoy.md", "content/places/cucuta.md", "content/sources/ap.yaml", "content/sources/ap-copy.yaml"]
    assert review(root, "--record", "--by", "Ana Ruiz", "--on", "2026-12-01", *paths) == 0
    path = root / "content/places/cucuta.md"
    path.write_text(path.read_text(encoding="utf-8").replace("A city.", "A border city."), encoding="utf-8")
    (root / "content/places/villa.md").write_text("---\nname: Villa\nsummary: A neighbourhood.\n---\nA place.[@ap \"across the bridge\"]\n", encoding="utf-8")
    capsys.readouterr()
    return root


BASE_AP = "title: AP story\noutlet: The Associated Press\nlanguage: en\nseed: ap.txt\ninserted_lines: ['WATCH:']\n"


def test_the_sheet_puts_what_needs_a_review_first_each_record_folded_alone(make_site, tmp_path, capsys):
    root = reviewed_but_one(make_site, capsys)
    assert review(root) == 0
    heads = [line.split(": ")[0] for line in capsys.readouterr().out.splitlines() if line.startswith("content/")]
    assert heads == ["content/places/villa.md", "content/places/cucuta.md", "content/events/aid-convoy.md", TORRES,
                     "content/sources/ap-copy.yaml", "content/sources/ap.yaml"]  # never reviewed, changed, then the rest in path order
    assert review(root, "--status") == 1
    assert capsys.readouterr().out.splitlines()[:2] == ["content/places/villa.md: never reviewed",
                                                        "content/places/cucuta.md: reviewed by Ana Ruiz on 2026-12-01; changed since the review: 1 sentence"]
    out = tmp_path / "sheet.html"
    assert review(root, "--html", str(out)) == 0
    page = out.read_text(encoding="utf-8")
    sections = re.findall(r'<details class="record" id="([^"]+)"( open)?>', page)
    assert sections == [("places-villa", " open"), ("places-cucuta", " open"), ("events-aid-convoy", ""), ("people-jorge-torres", ""),
                        ("sources-ap-copy", ""), ("sources-ap", "")]
    assert page.index("Needs a review (2)") < page.index('href="#places-villa"') < page.index("Reviewed and unchanged (4)") < page.index('href="#sources-ap"')


def test_the_html_sheet_reads_at_a_phones_width_and_a_link_opens_its_record(make_site, tmp_path, capsys, page):
    root = reviewed_but_one(make_site, capsys)
    out = tmp_path / "sheet.html"
    assert review(root, "--html", str(out)) == 0
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(out.as_uri() + "#sources-ap")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390  # the long address wraps
    assert page.evaluate("document.getElementById('sources-ap').open") is True  # folded, opened by the link
    assert page.evaluate("document.getElementById('people-jorge-torres').open") is False
    page.click('a[href="#people-jorge-torres"]')
    page.wait_for_function("document.getElementById('people-jorge-torres').open", timeout=5000)  # opened on hashchange, an event later


def test_review_refuses_what_it_cannot_do(make_site, capsys):
    root = make_site()
    assert review(root, "--record", TORRES) == 2
    assert "--record needs --by NAME" in capsys.readouterr().err
    assert review(root, "--record", "--by", "Ana") == 2  # never every record at once
    assert review(root, "content/people/nobody.md") == 2
    assert "content/people/nobody.md is not a record's content file" in capsys.readouterr().err


def test_a_review_entry_fits_the_schema_and_a_wrong_one_is_refused(make_site, tmp_path, capsys):
    root = make_site()
    assert review(root, "--record", "--by", "Ana", "--on", "2026-12-01", TORRES, "content/sources/ap.yaml") == 0
    assert main(["schema", "--source", str(root), "--out", str(tmp_path / "schemas")]) == 0
    for path, schema in ((TORRES, "person"), ("content/sources/ap.yaml", "source")):
        text = (root / path).read_text(encoding="utf-8")
        meta = yaml.safe_load(text.split("---\n")[1] if path.endswith(".md") else text)
        meta["reviewed"]["date"] = meta["reviewed"]["date"].isoformat()  # as an editor's language server reads it
        jsonschema.validate(meta, json.loads((tmp_path / "schemas" / f"{schema}.schema.json").read_text()))
    bad = (root / TORRES).read_text(encoding="utf-8").replace("date: 2026-12-01", "date: someday")
    (root / TORRES).write_text(bad, encoding="utf-8")
    assert main(["check", "--source", str(root)]) == 1
    assert "content/people/jorge-torres.md:7: error: 'reviewed.date': 'someday' is not a date" in capsys.readouterr().err


def test_the_preview_serves_the_sheet_and_a_build_never_writes_it(make_site, tmp_path):
    from test_serve import serving

    root = make_site(COPY)
    build(root, tmp_path / "site")
    assert not [p for p in (tmp_path / "site").rglob("*") if "review" in p.relative_to(tmp_path).as_posix().lower()]
    with serving(root) as server:
        status, page = server.get("/_review/")
        assert status == 200 and b"<title>Review sheet (preview only)</title>" in page
        assert b'<a href="#people-jorge-torres">content/people/jorge-torres.md</a>: never reviewed' in page
        assert b"rests only on ap-copy (derived from ap)" in page
        assert server.get("/_review")[0] == 302
        assert not (server.folder / "_review").exists()


def test_the_sheet_shows_each_structured_fact_with_its_evidence_or_its_lack(make_site, capsys):
    root = make_site({
        "content/people/ana.md": (
            "---\nname: Ana\nsummary: A nurse.\nroles: [nurse, sergeant]\nplaces: [cucuta]\n"
            "evidence: {roles: {nurse: '[@ap \"Torres said\"]'}}\n---\n"
            'Ana worked in [[cucuta]].[@ap "across the bridge"]\n'
        ),
    })
    assert review(root, "content/people/ana.md") == 0
    out = capsys.readouterr().out
    assert "content/people/ana.md:4: fact roles: nurse\n    cited under evidence\n    [ap] “Torres said”\n" in out
    assert "content/people/ana.md:4: fact roles: sergeant\n    no evidence\n" in out
    assert "content/people/ana.md:5: fact places: cucuta\n    derived from its sentence: Ana worked in cucuta.\n" in out
    assert "front matter" not in out  # the evidence is shown once, under its fact


TRANSLATED = {**COPY, "content/site.yaml": "title: Test dossier\nlanguage: en\nlanguages: [en, es]\n",
              "content/people/jorge-torres.es.md": "---\nsummary: Un sargento.\n---\nTorres condujo un camión.[@ap \"drove an armoured truck\"]\n",
              "content/sources/ap.es.yaml": "notes: |\n  Sobre la AP.[@ap \"Torres said\"]\n"}
TORRES_ES = "content/people/jorge-torres.es.md"


def test_a_translation_is_on_the_sheet_and_changes_when_its_original_does(make_site, capsys):
    root = make_site(TRANSLATED)
    assert review(root, TORRES_ES, "content/sources/ap.es.yaml") == 0
    out = capsys.readouterr().out
    assert f"{TORRES_ES}: Jorge Torres (es): never reviewed\n\n  {TORRES_ES}:4: Torres condujo un camión.\n    single source (ap)\n" in out
    assert "content/sources/ap.es.yaml: AP story (es): never reviewed\n\n  content/sources/ap.es.yaml:2: Sobre la AP.\n" in out
    assert review(root, "--record", "--by", "Ana Ruiz", "--on", "2026-12-01", TORRES_ES, "content/sources/ap.es.yaml") == 0
    capsys.readouterr()
    entry = re.search(r"^reviewed: .*$", (root / TORRES_ES).read_text(encoding="utf-8"), re.MULTILINE).group()
    site, _ = load(root)
    original = record_sheet(site, root, site.records["people"]["jorge-torres"]).digest
    assert re.fullmatch(r'reviewed: \{by: "Ana Ruiz", date: 2026-12-01, digest: [0-9a-f]{12}, sentences: \[[0-9a-f]{8}\], original: ' + original + r"\}", entry)
    check(root)  # the build accepts a translation's review, in Markdown and in YAML
    assert review(root, "--status", TORRES_ES, "content/sources/ap.es.yaml") == 0
    assert capsys.readouterr().out == "2 of 2 records reviewed and unchanged since; 0 never reviewed, 0 changed since their review\n"
    path = root / TORRES  # the English original changes: the translation may no longer say what it says
    path.write_text(path.read_text(encoding="utf-8").replace("He spoke.", "He spoke at length."), encoding="utf-8")
    assert review(root, "--status") == 1
    out = capsys.readouterr().out
    assert f"{TORRES_ES}: reviewed by Ana Ruiz on 2026-12-01; changed since the review: its original ({TORRES})\n" in out
    assert "content/sources/ap.es.yaml" not in out and out.endswith("1 of 7 records reviewed and unchanged since; 5 never reviewed, 1 changed since their review\n")
    path = root / TORRES_ES  # and the translation itself too
    path.write_text(path.read_text(encoding="utf-8").replace("un camión", "un camión blindado"), encoding="utf-8")
    assert review(root, "--changed", TORRES_ES) == 0
    assert capsys.readouterr().out.startswith(f"{TORRES_ES}: Jorge Torres (es): reviewed by Ana Ruiz on 2026-12-01; changed since the review: 1 sentence, its original ({TORRES})\n")


def test_the_html_sheet_gives_a_translation_its_own_part(make_site, tmp_path, capsys):
    root = make_site(TRANSLATED)
    out = tmp_path / "sheet.html"
    assert review(root, "--html", str(out)) == 0
    page = out.read_text(encoding="utf-8")
    assert '<details class="record" id="people-jorge-torres-es" open><summary><h2>Jorge Torres (es) <small>content/people/jorge-torres.es.md</small></h2>' in page
    assert '<details class="record" id="people-jorge-torres" open><summary><h2>Jorge Torres <small>content/people/jorge-torres.md</small></h2>' in page
