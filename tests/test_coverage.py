"""How whole a site's other languages are (dossier/check/coverage.py): `check` counts each language's
translated pages, `require_translations: true` makes each page that shows the first language's text
a warning (an error under --strict), and the language switcher says where the other page is not
translated. Each message whole."""

from __future__ import annotations

import pytest

from conftest import BASE_FILES
from test_cli import run
from test_i18n_site import TWO, read
from dossier.check.coverage import untranslated
from dossier.pipeline import build, load

TORRES = BASE_FILES["content/people/jorge-torres.md"].replace("summary: A sergeant.\n", "summary: A sergeant.\nroles: [sergeant]\nstatus: Deserted\n").replace(
    "evidence: {places:", "evidence: {roles: {sergeant: \"[@ap \\\"Sgt. Jorge Torres\\\"]\"}, status: \"[@ap \\\"Torres said\\\"]\", places:")
TRANSLATED = {
    "content/people/jorge-torres.md": TORRES,
    "content/people/jorge-torres.es.md": "---\nsummary: Un sargento.\nroles: [sargento]\nstatus: Desertó\n---\nTorres condujo.[@ap \"drove an armoured truck across the bridge\"]\n",
    "content/events/aid-convoy.es.md": "---\ntitle: Convoy\nsummary: El convoy.\n---\nTorres habló.[@ap \"We're going to change history\"]\n",
    "content/places/cucuta.es.md": "---\nsummary: Una ciudad fronteriza.\n---\nUna ciudad.[@ap \"across the bridge\"]\n",
    "content/sources/ap.es.yaml": "notes: ''\n",
}
REQUIRED = {"content/site.yaml": "title: Test dossier\nlanguage: en\nlanguages: [en, es]\nrequire_translations: true\n"}


def test_check_counts_each_languages_translated_pages(make_site, capsys):
    code, out, _ = run(capsys, "check", "--source", str(make_site({**TWO, **TRANSLATED})))
    assert code == 0 and out.splitlines() == ["es: 16 of 16 pages translated", "check passed: every reference resolved and every quote found in its source"]
    root = make_site({**TWO, **TRANSLATED, "content/places/cucuta.es.md": None, "content/people/jorge-torres.es.md": "---\nsummary: Un sargento.\n---\n"})
    code, out, _ = run(capsys, "check", "--source", str(root))
    assert code == 0 and out.splitlines()[0] == "es: 14 of 16 pages translated; 2 show en text (require_translations: true in content/site.yaml lists them)"


def test_required_translations_warn_of_each_page_that_shows_the_first_languages_text(make_site, capsys):
    root = make_site({**REQUIRED, **TRANSLATED, "content/places/cucuta.es.md": None,
                      "content/people/jorge-torres.es.md": "---\nsummary: Un sargento.\n---\n", "content/sources/ap.yaml": BASE_FILES["content/sources/ap.yaml"] + "notes: On the AP.[@ap \"Torres said\"]\n"})
    code, out, err = run(capsys, "check", "--source", str(root))
    assert code == 0
    assert err.splitlines() + out.splitlines() == [
        "content/people/jorge-torres.es.md:1: warning: the translation into Spanish (es) leaves out the body, roles and status: its page in es/ shows them in English",
        "content/places/cucuta.md:1: warning: no translation into Spanish (es): its page in es/ shows it in English; write content/places/cucuta.es.md",
        "content/sources/ap.es.yaml:1: warning: the translation into Spanish (es) leaves out the notes: its page in es/ shows it in English",
        "3 warnings: 3 pages not translated",
        "es: 13 of 16 pages translated; 3 show en text (listed as warnings)",
        "check passed: every reference resolved and every quote found in its source",
    ]
    code, _, err = run(capsys, "check", "--strict", "--source", str(root))
    assert code == 1 and "content/places/cucuta.md:1: error: no translation into Spanish (es)" in err  # --strict fails on them
    assert err.splitlines()[-1] == "3 errors: 3 pages not translated; --strict makes warnings errors"


def test_a_translated_site_that_requires_its_translations_passes_strict(make_site, capsys):
    code, out, _ = run(capsys, "check", "--strict", "--source", str(make_site({**REQUIRED, **TRANSLATED})))
    assert code == 0 and out.startswith("es: 16 of 16 pages translated\n")


def test_the_switcher_says_where_the_other_languages_page_is_not_translated(make_site, tmp_path):
    out = tmp_path / "site"
    build(make_site({**TWO, **TRANSLATED, "content/places/cucuta.es.md": "---\nkind: ciudad\n---\n"}), out)
    assert '<a href="../../es/places/cucuta/" hreflang="es" lang="es">Español (sin traducir)</a>' in read(out, "places/cucuta/index.html")
    assert '<a href="../../es/people/jorge-torres/" hreflang="es" lang="es">Español</a>' in read(out, "people/jorge-torres/index.html")
    assert '<a href="../../../places/cucuta/" hreflang="en" lang="en">English</a>' in read(out, "es/places/cucuta/index.html")


@pytest.mark.parametrize("files, left", [
    ({}, []),
    ({"content/events/aid-convoy.es.md": "---\ntitle: Convoy\n---\nTorres habló.[@ap \"We're going to change history\"]\n"}, ["summary"]),
    ({"content/events/aid-convoy.es.md": None}, ["body", "title", "summary"]),
])
def test_what_a_page_of_another_language_shows_in_the_first(make_site, files, left):
    site, _ = load(make_site({**TWO, **TRANSLATED, **files}))
    assert [(record.id, what) for record, what in untranslated(site)["es"]] == ([("aid-convoy", left)] if left else [])

