"""The command line end to end on tiny sites: what it builds, and every error message, whole."""

from __future__ import annotations

import json

import pytest

from conftest import BASE_FILES
from dossier.cli import main


def run(capsys, *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_build_writes_pages_and_reports_them(make_site, capsys):
    root = make_site()
    code, out, err = run(capsys, "build", "--source", str(root))
    assert code == 0, err
    assert out.startswith(f"built {root / 'site'}: ") and " files (1 event, 1 person, 1 place, 1 source) in " in out
    for page in ["index.html", "people/jorge-torres/index.html", "events/aid-convoy/index.html", "places/cucuta/index.html",
                 "sources/ap/index.html", "timeline/index.html", "people/index.html", "404.html", "data/site.json", "static/style.css"]:
        assert (root / "site" / page).is_file(), page


def test_check_writes_nothing(make_site, capsys):
    root = make_site()
    code, out, _ = run(capsys, "check", "--source", str(root))
    assert code == 0 and "check passed" in out
    assert not (root / "site").exists()


ERROR_CASES = {
    "field typo": (
        {"content/people/jorge-torres.md": "---\nnmae: Jorge Torres\nname: Jorge Torres\nsummary: S.\n---\nText.[@ap \"across the bridge\"]\n"},
        ["content/people/jorge-torres.md:2: error: unknown field 'nmae' in a person (did you mean 'name'?)"],
    ),
    "wrong type": (
        {"content/people/jorge-torres.md": "---\nname: [Jorge, Torres]\nsummary: S.\n---\n"},
        ["content/people/jorge-torres.md:2: error: 'name' should be text, not a list"],
    ),
    "missing required field": (
        {"content/places/cucuta.md": "---\nname: Cúcuta\n---\n"},
        ["content/places/cucuta.md:1: error: a place needs 'summary' (one plain sentence)"],
    ),
    "required field left empty": (
        {"content/places/cucuta.md": "---\nname: Cúcuta\naliases: []\nsummary: \"\"\n---\n"},
        ["content/places/cucuta.md:4: error: a place needs 'summary' (one plain sentence)"],
    ),
    "impossible date": (
        {"content/events/aid-convoy.md": "---\ntitle: A\ndate: 2019-02-30\nsummary: S.\n---\n"},
        ["content/events/aid-convoy.md:3: error: 'date': '2019-02-30' is not a real day: February 2019 has 28 days"],
    ),
    "yes/no trap": (
        {"content/places/cucuta.md": "---\nname: no\nsummary: S.\n---\n"},
        ["content/places/cucuta.md:2: error: 'name' should be text, not true/false (false); quote it if you meant the word"],
    ),
    "inferred date without a note": (
        {"content/events/aid-convoy.md": "---\ntitle: A\ndate: 2019-02\ndate_basis: inferred\nsummary: S.\n---\n"},
        ["content/events/aid-convoy.md:4: error: an inferred date needs a 'date_note' saying how it was established"],
    ),
    "unknown link": (
        {"content/places/cucuta.md": "---\nname: Cúcuta\nsummary: S.\n---\nSee [[jorge-tores]].\n"},
        ["content/places/cucuta.md:5:5: error: unknown link '[[jorge-tores]]' (did you mean 'jorge-torres'?)"],
    ),
    "unknown link with collection": (
        {"content/places/cucuta.md": "---\nname: Cúcuta\nsummary: S.\n---\n\nSee [[events/jorge-torres]].\n"},
        ["content/places/cucuta.md:6:5: error: unknown link '[[events/jorge-torres]]': no events record 'jorge-torres'"],
    ),
    "unknown person in front matter": (
        {"content/events/aid-convoy.md": "---\ntitle: A\ndate: 2019\npeople:\n  - jorge-torres\n  - jose-gomes\nsummary: S.\n---\n"},
        ["content/events/aid-convoy.md:6: error: unknown person 'jose-gomes' in 'people' (did you mean 'jorge-torres'?)"],
    ),
    "unknown place": (
        {"content/people/jorge-torres.md": "---\nname: J\nsummary: S.\nplaces: [cucta]\n---\n"},
        ["content/people/jorge-torres.md:4: error: unknown place 'cucta' in 'places' (did you mean 'cucuta'?)"],
    ),
    "unknown source": (
        {"content/places/cucuta.md": "---\nname: Cúcuta\nsummary: S.\n---\nA city.[@apx \"across the bridge\"]\n"},
        ["content/places/cucuta.md:5:8: error: unknown source 'apx' (did you mean 'ap'?)"],
    ),
    "quote not in its source": (
        {"content/places/cucuta.md": "---\nname: Cúcuta\nsummary: S.\n---\nA city.\n\nTorres drove.[@ap \"drove an armored truck across the bridge\"]\n"},
        ['content/places/cucuta.md:7:14: error: quote not found in source \'ap\' (seeds/ap.txt): "drove an armored truck across the bridge"; closest passage: "drove an [armored→armoured] truck across the bridge."'],
    ),
    "missing seed": (
        {"content/sources/ap.yaml": "title: AP\noutlet: AP\nlanguage: en\nseed: ap-story.txt\n"},
        ["content/sources/ap.yaml:4: error: seed file 'seeds/ap-story.txt' does not exist (did you mean 'ap.txt'?)"],
    ),
    "derived_from cycle": (
        {
            "content/sources/a.yaml": "title: A\noutlet: X\nlanguage: en\nseed: ap.txt\nderived_from: b\n",
            "content/sources/b.yaml": "title: B\noutlet: X\nlanguage: en\nseed: ap.txt\nderived_from: a\n",
        },
        ["content/sources/a.yaml:5: error: derived_from forms a cycle: a → b → a",
         "content/sources/b.yaml:5: error: derived_from forms a cycle: b → a → b"],
    ),
    "invalid id": (
        {"content/people/José Gómez.md": "---\nname: José Gómez\nsummary: S.\n---\n"},
        ["content/people/José Gómez.md:1: error: 'José Gómez' is not a valid id; ids are lowercase ASCII words joined by hyphens: rename the file to 'jose-gomez'"],
    ),
    "two files, one id": (
        {"content/sources/ap.yml": "title: AP\noutlet: AP\nlanguage: en\nseed: ap.txt\n"},
        ["content/sources/ap.yml:1: error: id 'ap' is already used by content/sources/ap.yaml"],
    ),
    "page that would share a generated URL": (
        {"content/pages/timeline.md": "---\ntitle: Timeline\n---\n"},
        ["content/pages/timeline.md:1: error: page id 'timeline' would share the URL 'timeline/' with a generated page; rename the file"],
    ),
    "invalid YAML": (
        {"content/places/cucuta.md": "---\nname: Cúcuta\nsummary: [a\n---\n"},
        ["content/places/cucuta.md:3:10: error: invalid YAML: this '[' is never closed with ']'"],
    ),
    "unclosed list before another key": (
        {"content/places/cucuta.md": "---\nname: Cúcuta\naliases: [Cucuta, San José de Cúcuta\nsummary: S.\n---\n"},
        ["content/places/cucuta.md:3:10: error: invalid YAML: this '[' is never closed with ']'"],
    ),
    "unclosed mapping": (
        {"content/people/jorge-torres.md": "---\nname: J\nsummary: S.\nage: {years: 27, as_of: 2019\n---\n"},
        ["content/people/jorge-torres.md:4:6: error: invalid YAML: this '{' is never closed with '}'"],
    ),
    "colon inside an unquoted value": (
        {"content/places/cucuta.md": "---\nname: Cúcuta\nsummary: A city: the biggest on the border.\n---\n"},
        ["content/places/cucuta.md:3:16: error: invalid YAML: a colon and a space inside a value; quote the value: summary: \"A city: the biggest on the border.\""],
    ),
    "front matter never closed": (
        {"content/places/cucuta.md": "---\nname: Cúcuta\nsummary: S.\n"},
        ["content/places/cucuta.md:1: error: front matter opened on line 1 is never closed with a '---' line"],
    ),
    "empty front matter": (
        {"content/places/cucuta.md": "---\n---\nBody.\n"},
        ["content/places/cucuta.md:1: error: empty front matter; give at least the required fields"],
    ),
    "empty file": (
        {"content/places/cucuta.md": ""},
        ["content/places/cucuta.md:1: error: empty file; it needs front matter between '---' lines, then a Markdown body"],
    ),
    "tabs in YAML": (
        {"content/places/cucuta.md": "---\nname: Cúcuta\nsummary: S.\naliases:\n\t- Cucuta\n---\n"},
        ["content/places/cucuta.md:5:1: error: tab used for indentation; YAML needs spaces"],
    ),
    "duplicate key": (
        {"content/places/cucuta.md": "---\nname: Cúcuta\nsummary: S.\nname: Cucuta\n---\n"},
        ["content/places/cucuta.md:4:1: error: duplicate key 'name' (first given on line 2)"],
    ),
    "not UTF-8": (
        {"content/places/cucuta.md": b"---\nname: C\xfacuta\nsummary: S.\n---\n"},
        ["content/places/cucuta.md:2: error: not UTF-8 text (byte 0xfa at offset 11); save the file as UTF-8"],
    ),
    "file too large": (
        {"content/places/cucuta.md": "---\nname: C\nsummary: S.\n---\n" + "x" * 1_000_001},
        ["content/places/cucuta.md: error: file is 1,000,029 bytes; the limit is 1,000,000 bytes"],
    ),
    "malformed citation": (
        {"content/places/cucuta.md": "---\nname: C\nsummary: S.\n---\nA city.[@ap across the bridge]\n"},
        ["content/places/cucuta.md:5:8: error: malformed citation '[@ap across the bridge]': write [@source-id \"verbatim quote\"]"],
    ),
    "long malformed citation, echoed whole": (
        {"content/places/cucuta.md": "---\nname: C\nsummary: S.\n---\nA city. As he said,[@ap \u201cdrove an armoured truck across the bridge\u201d] and left.\n"},
        ["content/places/cucuta.md:5:20: error: malformed citation '[@ap \u201cdrove an armoured truck across the bridge\u201d]': write [@source-id \"verbatim quote\"]"],
    ),
    "malformed citation never closed, echoed to its line's end": (
        {"content/places/cucuta.md": "---\nname: C\nsummary: S.\n---\nA city.[@ap \"drove an armoured truck across the bridge and over the river\n"},
        ["content/places/cucuta.md:5:8: error: malformed citation '[@ap \"drove an armoured truck across the bridge and over the river': write [@source-id \"verbatim quote\"]"],
    ),
    "unknown place in an event": (
        {"content/events/aid-convoy.md": "---\ntitle: A\ndate: 2019\nplaces: [cucta]\nsummary: S.\n---\n"},
        ["content/events/aid-convoy.md:4: error: unknown place 'cucta' in 'places' (did you mean 'cucuta'?)"],
    ),
    "unknown group in an event": (
        {"content/events/aid-convoy.md": "---\ntitle: A\ndate: 2019\ngroups:\n  - national-guard\nsummary: S.\n---\n"},
        ["content/events/aid-convoy.md:5: error: unknown group 'national-guard' in 'groups'"],
    ),
    "unknown group in affiliations": (
        {"content/people/jorge-torres.md": "---\nname: J\nsummary: S.\naffiliations: [national-guard]\n---\n"},
        ["content/people/jorge-torres.md:4: error: unknown group 'national-guard' in 'affiliations'"],
    ),
    "unknown place in located_in": (
        {"content/places/cucuta.md": "---\nname: C\nsummary: S.\nlocated_in: colombia\n---\n"},
        ["content/places/cucuta.md:4: error: unknown place 'colombia' in 'located_in'"],
    ),
    "unknown group in part_of": (
        {"content/groups/guard.md": "---\nname: G\nsummary: S.\npart_of: army\n---\n"},
        ["content/groups/guard.md:4: error: unknown group 'army' in 'part_of'"],
    ),
    "unknown source of an age": (
        {"content/people/jorge-torres.md": "---\nname: J\nsummary: S.\nage:\n  years: 27\n  as_of: 2019\n  source: apx\n  quote: across the bridge\n---\n"},
        ["content/people/jorge-torres.md:7:11: error: unknown source 'apx' (did you mean 'ap'?)"],
    ),
    "unknown source of a figure": (
        {"content/events/aid-convoy.md": "---\ntitle: A\ndate: 2019\nsummary: S.\nfigures:\n  - label: Trucks\n    value: '1'\n    source: apx\n    quote: across the bridge\n---\n"},
        ["content/events/aid-convoy.md:8:13: error: unknown source 'apx' (did you mean 'ap'?)"],
    ),
    "unknown source in derived_from": (
        {"content/sources/ap-es.yaml": "title: B\noutlet: X\nlanguage: es\nseed: ap.txt\nderived_from: apx\n"},
        ["content/sources/ap-es.yaml:5: error: unknown source 'apx' in 'derived_from' (did you mean 'ap'?)"],
    ),
    "age quote not in its source": (
        {"content/people/jorge-torres.md": "---\nname: J\nsummary: S.\nage:\n  years: 27\n  as_of: 2019\n  source: ap\n  quote: Torres, 27\n---\n"},
        ['content/people/jorge-torres.md:8:10: error: quote not found in source \'ap\' (seeds/ap.txt): "Torres, 27"; closest passage: "Torres [27→drove]"'],
    ),
    "figure quote not in its source": (
        {"content/events/aid-convoy.md": "---\ntitle: A\ndate: 2019\nsummary: S.\nfigures:\n  - label: Trucks\n    value: '1'\n    source: ap\n    quote: drove two trucks\n---\n"},
        ['content/events/aid-convoy.md:9:12: error: quote not found in source \'ap\' (seeds/ap.txt): "drove two trucks"; no similar passage'],
    ),
    "quote over two lines not in its source": (
        {"content/places/cucuta.md": "---\nname: C\nsummary: S.\n---\nA city.[@ap \"drove a truck\nacross\"]\n"},
        ['content/places/cucuta.md:5:8: error: quote not found in source \'ap\' (seeds/ap.txt): "drove a truck\\nacross"; closest passage: "drove [a→an armoured] truck across"'],
    ),
    "seed not UTF-8": (
        {"seeds/ap.txt": b"Sgt. Jorge Torres drove an armoured truck across the bridge.\nCaf\xe9\n"},
        ["seeds/ap.txt:2: error: not UTF-8 text (byte 0xe9 at offset 64); save the file as UTF-8"],
    ),
    "seed too large": (
        {"seeds/ap.txt": "x" * 5_000_001},
        ["seeds/ap.txt: error: file is 5,000,001 bytes; the limit is 5,000,000 bytes"],
    ),
    "source file not UTF-8": (
        {"content/sources/ap.yaml": b"title: AP \x93story\x94\noutlet: AP\nlanguage: en\nseed: ap.txt\n"},
        ["content/sources/ap.yaml:1: error: not UTF-8 text (byte 0x93 at offset 10); save the file as UTF-8"],
    ),
    "empty source file": (
        {"content/sources/ap.yaml": "\n"},
        ["content/sources/ap.yaml:1: error: empty file; it needs the required fields"],
    ),
    "source file not a mapping": (
        {"content/sources/ap.yaml": "- title: AP\n"},
        ["content/sources/ap.yaml:1: error: expected a mapping of fields, not a list"],
    ),
    "missing front matter": (
        {"content/places/cucuta.md": "name: C\nsummary: S.\n"},
        ["content/places/cucuta.md:1: error: missing front matter: the file must begin with a '---' line"],
    ),
    "front matter not a mapping": (
        {"content/places/cucuta.md": "---\n- name: C\n---\n"},
        ["content/places/cucuta.md:2: error: front matter must be a mapping of fields, not a list"],
    ),
    "control character in YAML": (
        {"content/places/cucuta.md": "---\nname: C\x1b[31m\nsummary: S.\n---\n"},
        ["content/places/cucuta.md:2:8: error: invalid YAML: character U+001B is not allowed (control characters are not allowed); remove it"],
    ),
    "self-referencing YAML alias": (
        {"content/places/cucuta.md": "---\nname: C\nsummary: S.\naliases: &a [*a]\n---\n"},
        ["content/places/cucuta.md:4: error: YAML aliases (*name) are not supported; write the value out in full"],
    ),
    "exponential YAML aliases (billion laughs)": (
        {"content/places/cucuta.md": "---\nname: C\nsummary: S.\n" + "a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n" + "".join(f"a{i}: &a{i} [{', '.join([f'*a{i - 1}'] * 10)}]\n" for i in range(1, 12)) + "aliases: *a11\n---\n"},
        ["content/places/cucuta.md:5: error: YAML aliases (*name) are not supported; write the value out in full"],
    ),
    "list as a field name": (
        {"content/places/cucuta.md": "---\nname: C\nsummary: S.\n? [kind, type]\n: city\n---\n"},
        ["content/places/cucuta.md:4:3: error: a field name must be plain text, not a list"],
    ),
    "year zero": (
        {"content/events/aid-convoy.md": "---\ntitle: A\ndate: -0000-02-23\nsummary: S.\n---\n"},
        ["content/events/aid-convoy.md:3: error: 'date': '-0000-02-23': there is no year -0000; write 0000"],
    ),
    "empty link": (
        {"content/places/cucuta.md": "---\nname: C\nsummary: S.\n---\nSee [[ ]].\n"},
        ["content/places/cucuta.md:5:5: error: empty link [[ ]]: write [[id]] or [[id|label]]"],
    ),
    "ambiguous link": (
        {"content/groups/cucuta.md": "---\nname: C\nsummary: S.\n---\n", "content/places/cucuta.md": "---\nname: C\nsummary: S.\n---\nSee [[cucuta]].\n"},
        ["content/places/cucuta.md:5:5: error: ambiguous link '[[cucuta]]': write [[places/cucuta]] or [[groups/cucuta]]"],
    ),
    "link to an unknown collection": (
        {"content/places/cucuta.md": "---\nname: C\nsummary: S.\n---\nSee [[persons/jorge-torres]].\n"},
        ["content/places/cucuta.md:5:5: error: unknown link '[[persons/jorge-torres]]': 'persons' is not one of people, events, places, groups, conflicts, sources, pages"],
    ),
    "citation with an empty quote": (
        {"content/places/cucuta.md": "---\nname: C\nsummary: S.\n---\nA city.[@ap \"\"]\n"},
        ["content/places/cucuta.md:5:8: error: citation of 'ap' has an empty quote"],
    ),
    "citation naming no source": (
        {"content/places/cucuta.md": "---\nname: C\nsummary: S.\n---\nA city.[@ \"across the bridge\"]\n"},
        ['content/places/cucuta.md:5:8: error: citation names no source: write [@source-id "quote"]'],
    ),
    "page that would share a collection URL": (
        {"content/pages/people.md": "---\ntitle: People\n---\n"},
        ["content/pages/people.md:1: error: page id 'people' would share the URL 'people/' with a generated page; rename the file"],
    ),
    "script URL in a source": (
        {"content/sources/ap.yaml": "title: AP story\noutlet: AP\nlanguage: en\nseed: ap.txt\nurl: javascript:alert(1)\n"},
        ["content/sources/ap.yaml:5: error: 'url' should be an http(s) address, not 'javascript:alert(1)'"],
    ),
    "site settings typo": (
        {"content/site.yaml": "title: T\nlanguge: en\n"},
        ["content/site.yaml:2: error: unknown field 'languge' in the site settings (did you mean 'language'?)"],
    ),
    "explicit YAML tag": (
        {"content/places/cucuta.md": "---\nname: C\nsummary: !!timestamp soon\n---\n"},
        ["content/places/cucuta.md:3:10: error: YAML tag '!!timestamp' is not supported; write the value without it (quote it to make it text)"],
    ),
    "line separator in YAML": (
        {"content/places/cucuta.md": "---\nname: C\nsummary: One\u2028two.\n---\n"},
        ["content/places/cucuta.md:3:13: error: invisible line separator character (U+2028); replace it with a space or a new line"],
    ),
    "date in other digits": (
        {"content/events/aid-convoy.md": "---\ntitle: A\ndate: \u0662\u0660\u0661\u0669\nsummary: S.\n---\n"},
        ["content/events/aid-convoy.md:3: error: 'date': '٢٠١٩' is not a date; write YYYY, YYYY-MM or YYYY-MM-DD, optionally ending in ~ (approximate) or ? (uncertain)"],
    ),
}


@pytest.mark.parametrize("case", sorted(ERROR_CASES))
def test_each_content_error_is_one_whole_line_and_exit_1(make_site, capsys, case):
    files, expected = ERROR_CASES[case]
    root = make_site(files)
    code, out, err = run(capsys, "build", "--source", str(root))
    lines = err.strip().split("\n")
    errors = [line for line in lines if ": error: " in line]
    assert errors == expected
    assert lines[-1].startswith(f"{len(expected)} error")
    assert code == 1 and "Traceback" not in err and not (root / "site").exists()


def test_a_schema_error_hides_no_link_reference_or_citation_error_of_the_same_file(make_site, capsys):
    root = make_site({"content/events/aid-convoy.md": (
        "---\ntitle: Aid convoy\ndate: 2019-02-30\nplaces: [nowhere]\nsummary: The convoy.\n---\n"
        'Torres spoke.[@ap "not in the story"] See [[nobody]].\n'
    )})
    code, _, err = run(capsys, "check", "--source", str(root))
    assert code == 1
    assert err.splitlines() == [
        "content/events/aid-convoy.md:3: error: 'date': '2019-02-30' is not a real day: February 2019 has 28 days",
        "content/events/aid-convoy.md:4: error: unknown place 'nowhere' in 'places'",
        "content/events/aid-convoy.md:7:14: error: quote not found in source 'ap' (seeds/ap.txt): \"not in the story\"; no similar passage",
        "content/events/aid-convoy.md:7:43: error: unknown link '[[nobody]]'",
        "4 errors, 0 warnings",
    ]


def test_every_problem_of_a_run_is_reported_at_once_and_sorted(make_site, capsys):
    root = make_site({
        "content/places/cucuta.md": "---\nname: C\nsummary: S.\nbogus: 1\n---\nSee [[nobody]].\n",
        "content/people/jorge-torres.md": "---\nname: J\nsummary: S.\n---\nSee [[nowhere]].\n",
    })
    code, _, err = run(capsys, "check", "--source", str(root))
    assert code == 1
    assert err.splitlines() == [
        "content/people/jorge-torres.md:5:5: error: unknown link '[[nowhere]]'",
        "content/places/cucuta.md:4: error: unknown field 'bogus' in a place",
        "content/places/cucuta.md:6:5: error: unknown link '[[nobody]]'",  # a file's own errors hide none of its others
        "3 errors, 0 warnings",
    ]


def test_bom_and_crlf_files_build(make_site, capsys):
    root = make_site({"content/places/cucuta.md": "\ufeff---\r\nname: Cúcuta\r\nsummary: S.\r\n---\r\nA city.[@ap \"across the bridge\"]\r\n".encode("utf-8")})
    code, _, err = run(capsys, "build", "--source", str(root))
    assert code == 0, err
    assert "<h1>Cúcuta</h1>" in (root / "site/places/cucuta/index.html").read_text(encoding="utf-8")


def test_a_failed_build_leaves_the_previous_site_untouched(make_site, capsys):
    root = make_site()
    assert run(capsys, "build", "--source", str(root))[0] == 0
    before = {p: p.read_bytes() for p in (root / "site").rglob("*") if p.is_file()}
    (root / "content/places/cucuta.md").write_text("---\nname: C\n---\n", encoding="utf-8")
    assert run(capsys, "build", "--source", str(root))[0] == 1
    after = {p: p.read_bytes() for p in (root / "site").rglob("*") if p.is_file()}
    assert after == before


@pytest.mark.parametrize("out", ["content", "seeds", "templates", ".", "content/people"])
def test_the_build_refuses_to_write_over_project_folders(make_site, capsys, out):
    root = make_site({"templates/.keep": ""})
    code, _, err = run(capsys, "build", "--source", str(root), "--out", str(root / out))
    assert code == 2 and "dossier: error: refusing to write the site to" in err
    assert (root / "content/people/jorge-torres.md").is_file()


def test_the_build_refuses_a_folder_it_did_not_make(make_site, tmp_path, capsys):
    root = make_site()
    other = tmp_path / "documents"
    other.mkdir()
    (other / "thesis.txt").write_text("precious", encoding="utf-8")
    code, _, err = run(capsys, "build", "--source", str(root), "--out", str(other))
    assert code == 2 and err == f"dossier: error: refusing to write the site to {other}: the folder is not empty and was not made by dossier\n"
    assert (other / "thesis.txt").read_text(encoding="utf-8") == "precious"
    assert run(capsys, "build", "--source", str(root), "--out", str(tmp_path / "fresh"))[0] == 0
    assert run(capsys, "build", "--source", str(root), "--out", str(tmp_path / "fresh"))[0] == 0  # its own folder: fine


def test_usage_errors_exit_2(capsys):
    with pytest.raises(SystemExit) as exit_info:
        main(["frobnicate"])
    assert exit_info.value.code == 2


def test_two_builds_are_byte_identical(make_site, tmp_path, capsys):
    root = make_site()
    run(capsys, "build", "--source", str(root), "--out", str(tmp_path / "a"))
    run(capsys, "build", "--source", str(root), "--out", str(tmp_path / "b"))
    files_a = {p.relative_to(tmp_path / "a"): p.read_bytes() for p in (tmp_path / "a").rglob("*") if p.is_file()}
    files_b = {p.relative_to(tmp_path / "b"): p.read_bytes() for p in (tmp_path / "b").rglob("*") if p.is_file()}
    assert files_a == files_b and len(files_a) > 10


def test_new_scaffolds_a_file_that_names_every_field(make_site, capsys):
    root = make_site()
    code, out, _ = run(capsys, "new", "person", "José Gómez", "--source", str(root))
    path = root / "content/people/jose-gomez.md"
    assert code == 0 and out == f"created {path}\nwrote {root / 'schemas'}: the JSON Schema of each record type, for editors\n"
    text = path.read_text(encoding="utf-8")
    for name in ["name: \"José Gómez\"", "aliases: []", "anonymous: false", "summary:", "roles:", "affiliations:", "places:", "age:", "status:", "sort_name:"]:
        assert name in text
    assert "\ndate_basis" not in text and "\npart:  # the person's group on the people index: one of the parts content/site.yaml declares" in text
    assert run(capsys, "new", "person", "José Gómez", "--source", str(root))[0] == 2


@pytest.mark.parametrize("name, rid", [("Łódź", "lodz"), ("Đorđe Petrović", "dorde-petrovic"), ("Straße", "strasse"), ("Юлия Навальная", "iuliia-navalnaia")])
def test_new_makes_an_id_from_a_name_in_any_alphabet(make_site, capsys, name, rid):
    root = make_site()
    assert run(capsys, "new", "person", name, "--source", str(root))[0] == 0
    assert (root / f"content/people/{rid}.md").is_file()


def test_site_json_has_the_public_shape(make_site, capsys):
    root = make_site()
    run(capsys, "build", "--source", str(root))
    data = json.loads((root / "site/data/site.json").read_text(encoding="utf-8"))
    assert data["people"] == [{"id": "jorge-torres", "name": "Jorge Torres", "aliases": ["Jorge Torres"], "anonymous": False, "summary": "A sergeant.", "url": "people/jorge-torres/"}]
    assert data["events"] == [{"id": "aid-convoy", "title": "Aid convoy", "date": "2019-02-23", "start": "2019-02-23", "end": "2019-02-23", "approximate": False, "summary": "The convoy.", "people": ["jorge-torres"], "url": "events/aid-convoy/"}]
    assert data["sources"][0] == {"id": "ap", "title": "AP story", "outlet": "The Associated Press", "byline": [], "published": None, "url": None, "seed": "ap.txt", "derived_from": None, "language": "en"}
    assert {"page": "people/jorge-torres/", "source": "ap", "quote": "drove an armoured truck across the bridge"} in data["citations"]


def test_quote_prints_citations_ready_to_paste(make_site, capsys):
    root = make_site()
    code, out, err = run(capsys, "quote", "ap", "change history", "--source", str(root))
    assert code == 0, err
    assert out.splitlines()[0] == 'seeds/ap.txt:2: [@ap "“We’re going to change history,” Torres said."]'
    assert run(capsys, "quote", "apx", "history", "--source", str(root))[:3:2] == (2, "dossier: error: no source 'apx' in content/sources/ (did you mean 'ap'?)\n")
    code, out, err = run(capsys, "quote", "ap", "zebra crossing", "--source", str(root))
    assert code == 1 and err == "dossier: no passage of seeds/ap.txt has those words\n"


def test_quote_offers_no_line_a_republisher_inserted(make_site, capsys):
    root = make_site()
    code, out, err = run(capsys, "quote", "ap", "something promotional", "--source", str(root))
    assert (code, out) == (1, "") and err == "dossier: no passage of seeds/ap.txt has those words\n"


def test_a_quote_from_an_inserted_line_is_an_error_at_its_line_and_column(make_site, capsys):
    body = 'Torres drove a truck.[@ap "drove an armoured truck across the bridge"] He promoted it.[@ap "something promotional"]\n'
    root = make_site({"content/people/jorge-torres.md": BASE_FILES["content/people/jorge-torres.md"].rsplit("---\n", 1)[0] + "---\n" + body})
    code, out, err = run(capsys, "check", "--source", str(root))
    assert code == 1
    assert err.splitlines()[0] == ('content/people/jorge-torres.md:8:87: error: quote "something promotional" is in seeds/ap.txt:3, a line the '
                                   "republisher inserted (inserted_lines: 'WATCH:' in content/sources/ap.yaml), not the story: cite the story's own text")


def test_words_of_an_inserted_line_may_be_cited_where_the_story_has_them_too(make_site, capsys):
    seed = "Torres said the crisis has no end in sight.\nWATCH: No end in sight in the crisis\n"
    body = 'Torres saw no end.[@ap "no end in sight"]\n'
    root = make_site({"seeds/ap.txt": seed, "content/people/jorge-torres.md": "---\nname: Jorge Torres\nsummary: A sergeant.\n---\n" + body,
                      "content/events/aid-convoy.md": None, "content/places/cucuta.md": None})
    code, out, err = run(capsys, "check", "--source", str(root))
    assert code == 0, err


def test_version_names_the_installed_release(capsys):
    import tomllib

    from conftest import PROJECT

    released = tomllib.loads((PROJECT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["version"]
    with pytest.raises(SystemExit) as stopped:
        main(["--version"])
    assert stopped.value.code == 0 and capsys.readouterr().out == f"dossier {released}\n"


def test_commands_find_the_project_from_any_folder_inside_it(make_site, capsys, monkeypatch):
    root = make_site({"content/places/cucuta.md": "---\nname: Cúcuta\nsummary: S.\n---\nSee [[nowhere]].[@ap \"across the bridge\"]\n"})
    monkeypatch.chdir(root / "content/people")
    code, out, err = run(capsys, "check")
    assert code == 1  # the project two folders up, its paths shown from here, as git shows them
    assert err.splitlines()[0] == "../places/cucuta.md:5:5: error: unknown link '[[nowhere]]'"
    code, out, err = run(capsys, "quote", "ap", "change history")
    assert code == 0 and out.splitlines()[0].startswith("../../seeds/ap.txt:2: [@ap ")
    code, out, err = run(capsys, "new", "person", "Ana Ruiz")
    assert code == 0 and (root / "content/people/ana-ruiz.md").is_file() and not (root / "content/people/content").exists()
    monkeypatch.chdir(root)
    assert "content/places/cucuta.md:5:5: error: unknown link '[[nowhere]]'" in run(capsys, "check")[2].splitlines()


def test_new_takes_the_id_it_is_given(make_site, capsys):
    root = make_site()
    name = "Jorge Luis Torres Ramírez, sergeant of the Venezuelan National Guard's Táchira command"
    code, out, err = run(capsys, "new", "person", name, "--id", "jorge-luis-torres", "--source", str(root))
    assert code == 0, err
    assert 'name: "' + name + '"' in (root / "content/people/jorge-luis-torres.md").read_text(encoding="utf-8")
    code, out, err = run(capsys, "new", "person", name, "--id", "Jorge Torres", "--source", str(root))
    assert code == 2 and err == ("dossier: error: --id should be an id such as 'jorge-torres': lowercase ASCII words joined by hyphens, "
                                 "not 'Jorge Torres'\n")


def test_counts_in_messages_take_the_number_their_noun_needs():
    from dossier.model.problems import counted

    assert [counted(n, "person", "people") for n in (0, 1, 2)] == ["0 people", "1 person", "2 people"]
    assert [counted(n, "file") for n in (1, 3)] == ["1 file", "3 files"]
    assert counted(1, "uncited sentence") == "1 uncited sentence" and counted(2, "name no record covers") == "2 names no record covers"
