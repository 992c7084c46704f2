"""The site in two languages (dossier/i18n.py, render.py): pages per language with hreflang, lang and a
switcher to the same record, translations of a record's prose with the facts shared, the untranslated
notice, quotes marked with their source's language, exports per language, the interface catalog complete,
and incremental rebuilds of translated files equal to cold builds."""

from __future__ import annotations

import dataclasses
import json
import re
from pathlib import Path

import pytest
from babel.messages.extract import extract_from_dir
from babel.messages.frontend import parse_mapping_cfg
from babel.messages.pofile import read_po

from conftest import BASE_FILES, PROJECT
from test_oracle import Oracle
from dossier.model.extract import reader_words
from dossier.model.i18n import DECLARED, LOCALE
from dossier.model.record_types import BUILT_IN
from dossier.check.coverage import untranslated
from dossier.pipeline import build, check, load
from dossier.model.problems import ContentError

TWO = {"content/site.yaml": "title: Test dossier\nlanguage: en\nlanguages: [en, es]\n"}
TORRES_ES = "---\nsummary: Un sargento.\n---\nTorres condujo un camión.[@ap \"drove an armoured truck across the bridge\"] Ver [[aid-convoy]].\n"


def read(site: Path, path: str) -> str:
    return (site / path).read_text(encoding="utf-8")


def problems_of(root: Path) -> list[str]:
    with pytest.raises(ContentError) as caught:
        check(root, strict=True)
    return [str(p) for p in caught.value.problems]


def test_one_language_makes_no_folder_no_alternates_and_no_switcher(make_site, tmp_path):
    out = tmp_path / "site"
    build(make_site(), out)
    assert not (out / "es").exists()
    page = read(out, "people/jorge-torres/index.html")
    assert '<html lang="en">' in page and "hreflang" not in page and "language-switch" not in page and "interface-strings" not in page
    assert not read(out, "data/site.json").startswith('{\n"language"')


def test_two_languages_give_each_page_in_both_with_alternates_and_a_switcher_to_the_same_record(make_site, tmp_path):
    out = tmp_path / "site"
    build(make_site({**TWO, "content/people/jorge-torres.es.md": TORRES_ES}), out)
    english, spanish = read(out, "people/jorge-torres/index.html"), read(out, "es/people/jorge-torres/index.html")
    assert '<html lang="en">' in english and '<html lang="es">' in spanish and "<body data-interface-strings='" in spanish
    for page, back in ((english, "../../"), (spanish, "../../../")):
        assert f'<link rel="alternate" hreflang="en" href="{back}people/jorge-torres/">' in page
        assert f'<link rel="alternate" hreflang="es" href="{back}es/people/jorge-torres/">' in page
        assert f'<link rel="alternate" hreflang="x-default" href="{back}people/jorge-torres/">' in page
    assert '<a href="../../es/people/jorge-torres/" hreflang="es" lang="es">Español</a>' in english
    assert '<a href="../../../people/jorge-torres/" hreflang="en" lang="en">English</a>' in spanish
    # the Spanish page: its interface and its record's prose in Spanish, its links in Spanish, shared files shared
    assert "Un sargento." in spanish and "Torres condujo un camión." in spanish and "Ir al contenido" in spanish
    assert 'href="../../events/aid-convoy/"' in spanish and 'href="../../../static/style.css"' in spanish
    assert 'data-pagefind="../../../pagefind/pagefind.js"' in spanish
    assert "23 de febrero de 2019" in read(out, "es/events/aid-convoy/index.html")
    assert "todavía no está traducida" not in spanish
    # each language its own search page, exports and feed, saying their language, and its page for a missing address
    assert (out / "es/search/index.html").is_file() and (out / "es/404.html").is_file()
    assert json.loads(read(out, "es/data/site.json"))["language"] == "es"
    assert json.loads(read(out, "data/site.json"))["language"] == "en"
    assert 'xml:lang="es"' in read(out, "es/feed.xml") and "23 de febrero de 2019. The convoy." in read(out, "es/feed.xml")
    assert json.loads(read(out, "es/data/timeline.json"))["language"] == "es"


def test_a_page_without_a_translation_falls_back_with_a_notice_in_the_readers_language(make_site, tmp_path):
    out = tmp_path / "site"
    build(make_site(TWO), out)
    page = read(out, "es/places/cucuta/index.html")
    assert ('<p class="untranslated-notice" role="note">Esta página todavía no está traducida: su texto se muestra en el original, '
            "en inglés.</p>") in page
    assert ('<p class="lede"><span class="untranslated" data-untranslated="en inglés"><span lang="en">A border city.</span></span></p>' in page
            and '<div lang="en"><p><span class="claim" id="claim-1"></span>A city.' in page)
    assert "untranslated-notice" not in read(out, "places/cucuta/index.html")


def test_quotes_keep_their_source_language_marked(make_site, tmp_path):
    out = tmp_path / "site"
    build(make_site({**TWO, "content/people/jorge-torres.es.md": TORRES_ES}), out)
    spanish = read(out, "es/people/jorge-torres/index.html")
    assert '<span lang="en">“drove an armoured truck across the bridge”</span>' in spanish  # the preview of the marker
    assert re.search(r'<a class="reference-passage" href="[^"]*"><q lang="en">drove an armoured truck across the bridge</q></a>', spanish)  # the reference list
    assert '<q lang="en">' not in read(out, "people/jorge-torres/index.html")  # an English page quoting English


@pytest.mark.parametrize("files, expected", [
    ({"content/people/jorge-torres.es.md": "---\nsummary: Un sargento.\nplaces: [cucuta]\n---\n"},
     "content/people/jorge-torres.es.md:3: error: structured facts are shared: remove 'places' from the translation (it translates images, name, roles, status, summary and the body)"),
    ({"content/events/aid-convoy.es.md": "---\ntitle: Convoy\ndate: 2019-02-24\n---\n"},
     "content/events/aid-convoy.es.md:3: error: structured facts are shared: remove 'date' from the translation (it translates date_note, figures, images, summary, title and the body)"),
    ({"content/people/jorge-torres.es.md": "---\nsummary: Un sargento.\nroles: [sargento, conductor]\n---\n"},
     "content/people/jorge-torres.es.md:3: error: 'roles' has 2 items but content/people/jorge-torres.md has 0: translate each item, in the same order"),
    ({"content/events/aid-convoy.es.md": "---\ntitle: Convoy\nfigures: [{label: Muertos, source: ap}]\n---\n"},
     "content/events/aid-convoy.es.md:3: error: 'source' is the record's own: a translated item of 'figures' gives only label and value"),
    ({"content/people/jorge-torres.es.md": "---\nsumary: Un sargento.\n---\n"},
     "content/people/jorge-torres.es.md:2: error: unknown field 'sumary' in a translation (it translates images, name, roles, status, summary and the body)"),
    ({"content/people/nobody.es.md": "---\nsummary: Nadie.\n---\n"},
     "content/people/nobody.es.md:1: error: a translation of 'nobody', but content/people/ has no such record"),
    ({"content/people/jorge-torres.fr.md": "---\nsummary: Un sergent.\n---\n"},
     "content/people/jorge-torres.fr.md:1: error: 'fr' is not a language dossier has an interface in (en, es): name the file jorge-torres.<language>.md"),
    ({"content/people/jorge-torres.es.md": "---\nsummary: Un sargento.\n---\nCondujo.[@ap \"a quote that is not there\"]\n"},
     "content/people/jorge-torres.es.md:4"),
    ({"content/site.yaml": "title: Test dossier\nlanguages: [en, fr]\n"},
     "content/site.yaml:2: error: dossier has no interface in 'fr'; languages may be en, es"),
])
def test_bad_translations_are_reported_at_their_line(make_site, files, expected):
    found = problems_of(make_site({**TWO, **files}))
    assert any(problem.startswith(expected) for problem in found), found


def test_a_record_that_fails_to_parse_yields_its_own_error_and_none_about_its_translation(make_site):
    torres = BASE_FILES["content/people/jorge-torres.md"].replace("places: [cucuta]", "places: [cucuta")  # a `[` never closed
    found = problems_of(make_site({**TWO, "content/people/jorge-torres.md": torres, "content/people/jorge-torres.es.md": TORRES_ES}))
    assert [p for p in found if "jorge-torres" in p.partition(":")[0]] == [
        "content/people/jorge-torres.md:5:9: error: invalid YAML: this '[' is never closed with ']'"], found


def test_the_documentary_translates_every_person_and_event_and_its_home_and_about_pages():
    for collection in ("people", "events"):
        originals = {p.name[:-3] for p in (PROJECT / "content" / collection).glob("*.md") if p.suffixes == [".md"]}
        translated = {p.name[:-6] for p in (PROJECT / "content" / collection).glob("*.es.md")}
        assert originals == translated, collection
    for name in ("home", "about"):
        assert (PROJECT / f"content/pages/{name}.es.md").is_file()


def interface_messages() -> list:
    """Extract the interface strings as `make messages-extract` does (babel.cfg)."""
    with open(PROJECT / "babel.cfg", encoding="utf-8") as file:
        method_map, options_map = parse_mapping_cfg(file)
    keywords = {"_": None, "gettext": None, "ngettext": (1, 2), "N_": None}
    return [message for _, _, message, _, _ in extract_from_dir(str(PROJECT), method_map, options_map, keywords=keywords)]


def test_every_interface_string_and_every_page_of_the_documentary_has_a_spanish_translation():
    with open(LOCALE / "es/LC_MESSAGES/dossier.po", "rb") as file:
        catalog = read_po(file, locale="es")
    extracted = interface_messages()
    assert len(extracted) > 150
    missing = []
    for message in extracted:
        entry = catalog.get(message)
        strings = entry.string if entry and isinstance(entry.string, tuple) else (entry.string if entry else "",)
        if not all(strings):
            missing.append(message)
    # and no Spanish page of this documentary shows English text of its own: a body, a summary, a role, a figure's label...
    site, _ = load(PROJECT)
    missing += [f"{record.path}: {', '.join(left)}" for record, left in untranslated(site)["es"]]
    assert missing == []


def test_every_word_the_model_shows_readers_is_extracted_from_the_model_itself():
    extracted = set(interface_messages())
    words = reader_words()
    for rtype in BUILT_IN.values():
        assert {rtype.title, rtype.singular} <= set(words), rtype.collection
        for spec in rtype.fields:
            assert not spec.inverse or spec.inverse in words, spec.name
            assert not spec.facet or spec.facet in words, spec.name
    assert {"Tags", "public copy", "Conflicting accounts", "Places in {name}"} <= set(words)
    assert set(words) <= extracted  # babel.cfg runs the model's extractor
    assert not set(words) & set(DECLARED)  # none restated by hand in i18n.py


def test_a_heading_added_to_the_model_reaches_the_catalog_without_being_written_twice(monkeypatch):
    from dossier.model import record_types

    people = record_types.BUILT_IN["people"]
    fields = tuple(dataclasses.replace(spec, inverse="Witnesses") if spec.name == "places" else spec for spec in people.fields)
    monkeypatch.setitem(record_types.BUILT_IN, "people", dataclasses.replace(people, fields=fields))
    assert "Witnesses" in interface_messages()


def test_edits_of_translations_rebuild_as_a_cold_build_does(make_site, tmp_path):
    oracle = Oracle(make_site({**TWO, "content/people/jorge-torres.es.md": TORRES_ES,
                               "content/pages/about.md": "---\ntitle: About\n---\nAbout [[jorge-torres]].[@ap \"Torres said\"]\n"}), tmp_path)
    oracle.edit("content/people/jorge-torres.es.md", "Un sargento.", "Un sargento de la Guardia.", "a translated summary")
    oracle.edit("content/people/jorge-torres.es.md", "Torres condujo", "Jorge Torres condujo", "a translated body")
    oracle.edit("content/events/aid-convoy.es.md", None, "---\ntitle: Convoy de ayuda\nsummary: El convoy.\n---\n", "a translation added")
    oracle.edit("content/events/aid-convoy.es.md", "Convoy de ayuda", "El convoy de ayuda", "a translated title, shown where others link")
    oracle.edit("content/people/jorge-torres.md", "A sergeant.", "A National Guard sergeant.", "the original of a translated record")
    oracle.edit("content/places/cucuta.md", "A city.", "A border city.", "the body of an untranslated record, shown on its Spanish page too")
    oracle.edit("content/people/jorge-torres.es.md", None, None, "a translation deleted")
    oracle.edit("content/site.yaml", "languages: \\[en, es\\]", "languages: [en]", "a language dropped")


def test_a_translation_gives_the_values_a_reader_sees_and_the_facts_stay_shared(make_site, tmp_path):
    files = {
        **TWO,
        "content/people/jorge-torres.md": BASE_FILES["content/people/jorge-torres.md"].replace("summary: A sergeant.\n", "summary: A sergeant.\nroles: [sergeant, driver]\nstatus: Deserted\n"),
        "content/people/jorge-torres.es.md": "---\nsummary: Un sargento.\nroles: [sargento, conductor]\nstatus: Desertó\n---\n",
        "content/events/aid-convoy.md": BASE_FILES["content/events/aid-convoy.md"].replace(
            "summary: The convoy.\n", "summary: The convoy.\nfigures: [{label: Deaths, value: four, source: ap, quote: across the bridge}]\n"),
        "content/events/aid-convoy.es.md": "---\ntitle: Convoy\nfigures: [{label: Muertos, value: cuatro}]\n---\n",
        "content/sources/ap.es.yaml": 'notes: "Una nota sobre la fuente.[@ap \\"across the bridge\\"]"\n',
    }
    out = tmp_path / "site"
    build(make_site(files), out)
    person, event, source = (read(out, f"es/{page}/index.html") for page in ("people/jorge-torres", "events/aid-convoy", "sources/ap"))
    assert "sargento; conductor" in person and "Desertó" in person and "sergeant" not in person.split("<main")[1]
    assert "Muertos" in event and "cuatro" in event and "Deaths" not in event
    assert "Una nota sobre la fuente." in source
    english = read(out, "events/aid-convoy/index.html")
    assert "Deaths" in english and "Muertos" not in english
