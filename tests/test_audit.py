"""Editorial checks: warnings by default, errors under --strict; the real content passes strictly."""

from __future__ import annotations

import re

from conftest import PROJECT

from dossier.check.names import names_in_text
from dossier.cli import main
from dossier.pipeline import check


def warnings_of(capsys, root) -> tuple[int, list[str]]:
    """Return the exit code of a strict check, and the warnings a plain check prints (--strict prints them as errors)."""
    code = main(["check", "--strict", "--source", str(root)])
    capsys.readouterr()
    main(["check", "--source", str(root)])
    return code, [line for line in capsys.readouterr().err.splitlines() if ": warning: " in line]


ADVICE = "cite a passage ([@source-id \"quote\"]), or mark the paragraph as the site's own words with <!-- editorial --> on the line before it"


def test_a_sentence_without_a_citation_is_flagged_at_its_line_and_column(make_site, capsys):
    root = make_site({"content/places/cucuta.md": (
        "---\nname: Cúcuta\nsummary: S.\n---\nA city.[@ap \"across the bridge\"] It has a bridge.\n\n## Heading\n\nAn uncited claim.\n\n"
        "- item cited[@ap \"across the bridge\"]\n- item uncited\n")})
    code, warnings = warnings_of(capsys, root)
    assert code == 1
    assert warnings == [
        f"content/places/cucuta.md:5:34: warning: sentence cites no source (“It has a bridge.”): {ADVICE}",
        f"content/places/cucuta.md:9:1: warning: sentence cites no source (“An uncited claim.”): {ADVICE}",
        f"content/places/cucuta.md:12:3: warning: sentence cites no source (“item uncited”): {ADVICE}",
    ]


def test_a_strict_run_says_what_failed(make_site, capsys):
    root = make_site({"content/places/cucuta.md": "---\nname: Cúcuta\nsummary: S.\n---\nA city.[@ap \"across the bridge\"] It has a bridge.\n"})
    assert main(["check", "--strict", "--source", str(root)]) == 1
    assert capsys.readouterr().err.splitlines() == [
        f"content/places/cucuta.md:5:34: error: sentence cites no source (“It has a bridge.”): {ADVICE}",
        "1 error: 1 uncited sentence; --strict makes warnings errors",
    ]
    assert main(["check", "--source", str(root)]) == 0
    assert capsys.readouterr().err.splitlines()[-1] == "1 warning: 1 uncited sentence"


def test_a_paragraph_marked_editorial_need_not_cite(make_site, capsys):
    body = ("How this page was made: by hand.\n\n<!-- editorial -->\nOur method. It is ours.\n\nA claim.[@ap \"across the bridge\"]\n\n"
            "<!-- editorial -->\n- a list item of our own\n- another, unmarked\n")
    root = make_site({
        "content/pages/about.md": "---\ntitle: About\n---\n" + body,
        "content/pages/about.es.md": "---\ntitle: Acerca\n---\n<!-- editorial -->\nNuestro método.\n\nSin cita.\n",
        "content/site.yaml": "title: T\nlanguages: [en, es]\n",
    })
    _, warnings = warnings_of(capsys, root)
    assert warnings == [
        f"content/pages/about.es.md:7:1: warning: sentence cites no source (“Sin cita.”): {ADVICE}",
        f"content/pages/about.md:4:1: warning: sentence cites no source (“How this page was made: by hand.”): {ADVICE}",
        f"content/pages/about.md:13:3: warning: sentence cites no source (“another, unmarked”): {ADVICE}",
    ]
    main(["build", "--source", str(root)])
    assert "editorial" not in (root / "site/about/index.html").read_text(encoding="utf-8")  # the mark is not published


def test_a_claim_supported_only_by_a_derivative_is_flagged_unless_marked_sole(make_site, capsys):
    root = make_site({
        "content/sources/ap-copy.yaml": "title: Copy\noutlet: X\nlanguage: en\nseed: ap.txt\nderived_from: ap\n",
        "content/places/cucuta.md": "---\nname: Cúcuta\nsummary: S.\n---\nOnly the copy.[@ap-copy \"across the bridge\"]\n\nBoth.[@ap-copy \"across the bridge\"][@ap \"across the bridge\"]\n\nMarked.[@ap-copy \"across the bridge\" sole]\n",
    })
    code, warnings = warnings_of(capsys, root)
    assert warnings == ["content/places/cucuta.md:5:15: warning: paragraph is supported only by the derivative source 'ap-copy': cite the original ('ap'), or add `sole` if only the derivative has it"]


def test_a_source_cited_nowhere_is_flagged(make_site, capsys):
    root = make_site({"content/sources/unused.yaml": "title: U\noutlet: X\nlanguage: en\nseed: ap.txt\n"})
    code, warnings = warnings_of(capsys, root)
    assert warnings == ["content/sources/unused.yaml:1: warning: source 'unused' is cited nowhere"]


NAME_ADVICE = "add a person (or an alias), list it under not_people in content/site.yaml, or scope the check there (name_check)"


def test_a_name_in_the_articles_that_no_record_covers_is_flagged(make_site, capsys):
    from conftest import SEED

    root = make_site({"seeds/ap.txt": SEED + "The officer Víctor Bautista spoke, and Jarle, 33, agreed in Cúcuta.\n"})
    code, warnings = warnings_of(capsys, root)
    assert code == 0  # advisory: a warning even under --strict, unless the project says otherwise
    assert warnings == [
        f"seeds/ap.txt:4: warning: 'Jarle' is named here but no record covers it: {NAME_ADVICE}",
        f"seeds/ap.txt:4: warning: 'Víctor Bautista' is named here but no record covers it: {NAME_ADVICE}",
    ]
    (root / "content/site.yaml").write_text("title: T\nname_check: {strict: true}\n", encoding="utf-8")
    assert main(["check", "--strict", "--source", str(root)]) == 1
    assert capsys.readouterr().err.splitlines()[-1] == "2 errors: 2 names no record covers; --strict makes warnings errors"
    (root / "content/site.yaml").write_text("title: T\nnot_people: [Victor Bautista, Jarle]\nname_check: {strict: true}\n", encoding="utf-8")
    assert warnings_of(capsys, root) == (0, [])


def test_the_name_check_can_be_turned_off_or_skip_a_source(make_site, capsys):
    from conftest import SEED

    files = {"seeds/ap.txt": SEED + "Víctor Bautista spoke.\n", "seeds/other.txt": "Ana Zapata wrote it.\n",
             "content/sources/other.yaml": "title: O\noutlet: X\nlanguage: en\nseed: other.txt\n",
             "content/places/cucuta.md": "---\nname: Cúcuta\nsummary: S.\n---\nA city.[@ap \"across the bridge\"][@other \"Ana Zapata wrote it.\"]\n"}
    named = lambda warnings: [w.split("'")[1] for w in warnings if "is named here" in w]  # noqa: E731
    root = make_site(files)
    assert named(warnings_of(capsys, root)[1]) == ["Víctor Bautista", "Ana Zapata"]
    (root / "content/site.yaml").write_text("title: T\nname_check:\n  skip: [ap, otherr]\n", encoding="utf-8")
    _, warnings = warnings_of(capsys, root)
    assert named(warnings) == ["Ana Zapata"]
    assert "content/site.yaml:3: warning: 'otherr' in name_check.skip is not a source (did you mean 'other'?)" in warnings
    (root / "content/site.yaml").write_text("title: T\nname_check: {enabled: false}\n", encoding="utf-8")
    assert warnings_of(capsys, root) == (0, [])


def test_a_plain_run_prints_the_first_names_and_a_count(make_site, capsys):
    from conftest import SEED

    names = ["Ana Abad", "Berta Bravo", "Carla Cano", "Dora Diaz", "Eva Estrada", "Fina Fuentes", "Gala Gil"]
    root = make_site({"seeds/ap.txt": SEED + "".join(f"{name} spoke.\n" for name in names)})
    assert main(["check", "--source", str(root)]) == 0
    err = capsys.readouterr().err.splitlines()
    assert [line.split("'")[1] for line in err[:-2]] == names[:5]
    assert err[-2:] == ["… and 2 more names no record covers: `dossier check --names` lists every one; name_check in content/site.yaml "
                        "turns the check off or skips a source's text", "7 warnings: 7 names no record covers"]
    for options in (["--names"], ["--strict"]):
        assert main(["check", *options, "--source", str(root)]) == 0
        assert [line.split("'")[1] for line in capsys.readouterr().err.splitlines()[:-1]] == names


def test_names_in_text_finds_full_names_and_name_age_forms():
    names = [name for _, name in names_in_text("When Guaido met Juan Andrés Mejía, Angel, 24, said so.\nBrazilian Vice President Hamilton Mourão spoke.")]
    assert names == ["Juan Andrés Mejía", "Angel", "Brazilian Vice President Hamilton Mourão"]


def test_names_are_found_and_matched_in_every_alphabet(make_site, capsys):
    from conftest import SEED

    names = [name for _, name in names_in_text("Юлия Навальная met Łukasz Żółć and Νίκος Παππάς; WATCH: NEWS")]
    assert names == ["Юлия Навальная", "Łukasz Żółć", "Νίκος Παππάς"]
    root = make_site({"seeds/ap.txt": SEED + "Юлия Навальная and Łukasz Żółć spoke.\n"})
    _, warnings = warnings_of(capsys, root)
    assert [w.split(": warning: ")[1].split(" is named")[0] for w in warnings] == ["'Łukasz Żółć'", "'Юлия Навальная'"]
    (root / "content/site.yaml").write_text("title: T\nnot_people: [Юлия Навальная, Lukasz Zolc]\n", encoding="utf-8")
    assert warnings_of(capsys, root) == (0, [])  # Zolc covers Żółć: both fold to the same id


def test_without_strict_warnings_do_not_fail(make_site, capsys):
    root = make_site({"content/sources/unused.yaml": "title: U\noutlet: X\nlanguage: en\nseed: ap.txt\n"})
    assert main(["check", "--source", str(root)]) == 0
    assert "1 warning" in capsys.readouterr().err


UNCITED_FACT = " has no evidence: "  # the documentary's facts are being cited (evidence.py): until then, these warnings are expected


def test_the_real_content_passes_the_strict_check():
    assert [p for p in check(PROJECT) if UNCITED_FACT not in p.message] == []  # strictly: no warning but those


def test_every_person_the_real_articles_name_resolves_to_a_record(tmp_path, capsys):
    from conftest import copy_project

    project = copy_project(tmp_path / "p")
    code, warnings = warnings_of(capsys, project)
    assert [w for w in warnings if UNCITED_FACT not in w] == []
    record = project / "content/people/victor-bautista.md"
    text = record.read_text(encoding="utf-8")
    text = re.sub(r"(?m)^name: .*$", "name: Border director", text)
    text = re.sub(r"(?m)^aliases: .*$", "aliases: []", text)
    record.write_text(text, encoding="utf-8")
    code, warnings = warnings_of(capsys, project)
    assert code == 1 and any("'Víctor Bautista' is named here but no record covers it" in w for w in warnings)


def test_the_incremental_auditor_agrees_with_a_full_audit_after_each_edit(make_site):
    from dossier.check.audit import Auditor, audit
    from dossier.incremental.session import Session

    root = make_site({"content/sources/ap-copy.yaml": "title: Copy\noutlet: X\nlanguage: en\nseed: ap.txt\nderived_from: ap\n"})
    session = Session(root, defer_audit=True)
    session.load()
    auditor = Auditor()
    person, source, copy = root / "content/people/jorge-torres.md", root / "content/sources/ap-copy.yaml", "ap-copy"
    edits = [
        (person, "Torres drove a truck.", "Torres drove a truck.\n\nAn uncited claim."),  # a record's paragraphs
        (person, '[@ap "drove an armoured', f'[@{copy} "drove an armoured'),  # now only the copy supports it
        (source, "derived_from: ap\n", ""),  # the copy is no longer a derivative: that warning goes
        (person, "name: Jorge Torres\naliases: [Jorge Torres]", "name: Jorge Ruiz\naliases: [Jorge Ruiz]"),  # a name in the article is uncovered
    ]
    assert sorted(auditor.audit(session.site)) == sorted(audit(session.site))
    for path, old, new in edits:
        assert old in path.read_text(encoding="utf-8")
        path.write_text(path.read_text(encoding="utf-8").replace(old, new), encoding="utf-8")
        session.update([path.relative_to(root).as_posix()])
        expected = sorted(audit(session.site))
        assert expected, "each edit leaves something to warn about"
        assert sorted(auditor.audit(session.site)) == expected
    # The same record objects, but a source becomes a derivative again: their paragraphs are audited again.
    import dataclasses

    site = session.site
    sources = {**site.records["sources"], copy: dataclasses.replace(site.records["sources"][copy], derived_from="ap")}
    again = dataclasses.replace(site, records={**site.records, "sources": sources})
    assert sorted(auditor.audit(again)) == sorted(audit(again)) != sorted(audit(site))


def test_a_marker_standing_in_for_the_words_a_sentence_needs_is_flagged(make_site, capsys):
    cite = '[@ap "across the bridge"]'
    root = make_site({
        "content/places/cucuta.md": (
            f"---\nname: Cúcuta\nsummary: S.\n---\nThe translation turns it into {cite}, where the original has {cite}.\n\n"
            f"The sign reads {cite}\n\n- On the bridge: {cite}\n- Shown: [@ap \"across the bridge\" show]\n\n"
            f"He said so.{cite} It is said{cite} and she has{cite}, and the words “{cite}”.\n\n"
            f"The original has [@ap \"across the bridge\" show], and “quoted”{cite}\n"
        ),
        "content/sources/ap.yaml": "title: AP\noutlet: The Associated Press\nlanguage: en\nseed: ap.txt\nnotes: |\n  The story says\n  [@ap \"across the bridge\"].\n",
    })
    code, warnings = warnings_of(capsys, root)
    assert code == 1
    hint = ": add `show` to print the passage before its marker ([@source \"quote\" show]), or rephrase"
    assert warnings == [
        f"content/places/cucuta.md:5:31: warning: a citation marker stands in for the words after 'into'{hint}",
        f"content/places/cucuta.md:5:81: warning: a citation marker stands in for the words after 'has'{hint}",
        f"content/places/cucuta.md:7:16: warning: a citation marker stands in for the words after 'reads'{hint}",
        f"content/places/cucuta.md:9:18: warning: a citation marker stands in for the words after ':'{hint}",
        f"content/places/cucuta.md:12:48: warning: a citation marker stands in for the words after 'said'{hint}",
        f"content/places/cucuta.md:12:85: warning: a citation marker stands in for the words after 'has'{hint}",
        f"content/places/cucuta.md:12:127: warning: a citation marker stands in for the words after '“'{hint}",
        f"content/sources/ap.yaml:7: warning: a citation marker stands in for the words after 'says'{hint}",  # a YAML block: its columns are not the file's
    ]
    assert main(["check", "--source", str(root)]) == 0  # a warning, not an error, without --strict


def test_a_cold_build_audits_while_its_workers_render_and_a_strict_one_before_it_renders(make_site, monkeypatch):
    import multiprocessing
    import os

    import pytest

    from dossier.check.audit import Auditor
    from dossier.incremental import pool
    from dossier.model.problems import ContentError
    from dossier.pipeline import build

    people = {f"content/people/person-{n:03}.md": f"---\nname: Person {n}\nsummary: S.\n---\nThey drove.[@ap \"across the bridge\"]\n" for n in range(pool.PARALLEL_FROM)}
    root = make_site({**people, "content/people/person-000.md": "---\nname: Person 0\nsummary: S.\n---\nThey drove.[@ap \"across the bridge\"] Not cited.\n"})
    done: list[str] = []  # in this process: the audit, and its share of the pages
    audit, render_chunks, parent = Auditor.audit, pool.render_chunks, os.getpid()
    monkeypatch.setattr(Auditor, "audit", lambda self, site: done.append("audit" + " while a worker renders" * bool(multiprocessing.active_children())) or audit(self, site))

    def rendering(*args):  # this process's share, a chunk at a time
        if os.getpid() == parent and "render" not in done:
            done.append("render")
        return render_chunks(*args)

    monkeypatch.setattr(pool, "render_chunks", rendering)
    with pytest.raises(ContentError):
        build(root, root / "strict", strict=True, workers=2)
    assert done == ["audit"] and not (root / "strict").exists()  # before anything is rendered
    done.clear()
    report = build(root, root / "site", workers=2)
    assert done == ["audit while a worker renders", "render"]
    assert [p.message.split(" (")[0] for p in report.warnings] == ["sentence cites no source"]
    person = root / "content/people/person-001.md"
    person.write_text(person.read_text(encoding="utf-8").replace("drove.[", "drove. Also not cited.["), encoding="utf-8")
    page = (root / "site/people/person-001/index.html").read_bytes()
    with pytest.raises(ContentError) as failed:  # from the saved session, which audits as it links again
        build(root, root / "site", strict=True, workers=2)
    assert sorted(p.path for p in failed.value.problems) == ["content/people/person-000.md", "content/people/person-001.md"]
    assert (root / "site/people/person-001/index.html").read_bytes() == page
