"""The site as another language shows it (dossier/model/language_view.py): the values a translation
gives, those it leaves out marked as in the first language (lang and a visible note), bare numbers in
the page's language, a source's headline in its own language, the site's own name, description and
tag names per language (content/site.yaml), and the claims pages of each language listing its claims."""

from __future__ import annotations

import json
import re
import pickle
from pathlib import Path

import pytest

from conftest import BASE_FILES
from test_i18n_site import TWO, problems_of, read
from dossier.model.language_view import InLanguage, Untranslated, number_in, plain
from dossier.pipeline import build

MARKED = '<span class="untranslated" data-untranslated="en inglés"><span lang="en">{}</span></span>'
SITE = ("title: Test dossier\ndescription: A test.\nlanguage: en\nlanguages: [en, es]\n"
        "translations:\n  es:\n    title: Expediente de prueba\n    description: Una prueba.\n    tags: {aid: ayuda}\n")
PERSON = BASE_FILES["content/people/jorge-torres.md"].replace("summary: A sergeant.\n", "summary: A sergeant.\nroles: [sergeant, driver]\nstatus: Deserted\n")
EVENT = BASE_FILES["content/events/aid-convoy.md"].replace("summary: The convoy.\n", (
    "summary: The convoy.\ndate_note: The AP says Saturday.\ntags: [aid, border]\nfigures:\n"
    "  - {label: Deaths, value: four, source: ap, quote: across the bridge}\n"
    "  - {label: Fled, value: '1,410', source: ap, quote: Torres said}\n"
    "  - {label: Wounded, value: '300', source: ap, quote: drove an armoured truck}\n"))
FILES = {
    "content/site.yaml": SITE,
    "content/people/jorge-torres.md": PERSON,
    "content/people/jorge-torres.es.md": "---\nsummary: Un sargento.\nroles: [sargento, conductor]\n---\nTorres condujo.[@ap \"drove an armoured truck across the bridge\"]\n",
    "content/people/woman.md": "---\nname: Woman hit by a truck\nanonymous: true\nsummary: A woman.\n---\nShe was hit.[@ap \"across the bridge\"]\n",
    "content/events/aid-convoy.md": EVENT,
    "content/events/aid-convoy.es.md": "---\ntitle: Convoy de ayuda\nsummary: El convoy.\nfigures: [{label: Muertos, value: cuatro}, {label: Huidos}, {}]\n---\nTorres habló.[@ap \"We're going to change history\"]\n",
}


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    from conftest import write_site

    root = write_site(tmp_path_factory.mktemp("view"), FILES)
    out = root / "site"
    build(root, out)
    return out


def test_a_value_the_translation_leaves_out_is_shown_in_the_first_language_and_marked(site):
    person = read(site, "es/people/jorge-torres/index.html")
    assert "sargento; conductor" in person and f"<dd>{MARKED.format('Deserted')}" in person  # status: no translation given
    assert f'<p class="lede">{MARKED.format("A sergeant.")}</p>' not in person and '<p class="lede">Un sargento.</p>' in person
    place = read(site, "es/places/cucuta/index.html")  # no translation at all: its summary marked, its name (a proper name) as it is
    assert f'<p class="lede">{MARKED.format("A border city.")}</p>' in place and "<h1>Cúcuta</h1>" in place
    woman = read(site, "es/people/woman/index.html")  # an anonymous person's name is a description
    assert f"<h1>{MARKED.format('Woman hit by a truck')}</h1>" in woman
    assert "<title>Woman hit by a truck · Expediente de prueba</title>" in woman  # a page's title is text: no mark
    english = read(site, "people/jorge-torres/index.html")
    assert "untranslated" not in english and "<dd>Deserted" in english


def test_figures_show_their_translated_words_and_bare_numbers_as_the_page_language_writes_them(site):
    event = read(site, "es/events/aid-convoy/index.html")
    assert '<p class="figure-value">cuatro' in event and '<p class="figure-label">Muertos</p>' in event
    assert '<p class="figure-value">1.410' in event and '<p class="figure-value">300' in event  # bare numbers, in Spanish
    assert f'<p class="figure-label">{MARKED.format("Wounded")}</p>' in event  # a label left out
    english = read(site, "events/aid-convoy/index.html")
    assert '<p class="figure-value">1,410' in english and '<p class="figure-label">Deaths</p>' in english


@pytest.mark.parametrize("text, written_in, lang, shown", [
    ("1,410", "en", "es", "1.410"), ("300", "en", "es", "300"), ("20,000", "en", "es", "20.000"), ("1.5", "en", "es", "1,5"),
    ("1,410", "en", "en", "1,410"), ("1,4,10", "en", "es", "1,4,10"),  # not a number as English writes one: as it is
])
def test_a_bare_number_is_written_as_the_language_writes_numbers(text, written_in, lang, shown):
    assert number_in(text, written_in, lang) == shown


def test_the_site_name_description_and_tags_are_the_languages_own(site):
    spanish, english = read(site, "es/events/aid-convoy/index.html"), read(site, "events/aid-convoy/index.html")
    assert '<a class="site-title" href="../../">Expediente de prueba</a>' in spanish and "<title>Convoy de ayuda · Expediente de prueba</title>" in spanish
    assert '<meta property="og:site_name" content="Expediente de prueba">' in spanish and "Expediente de prueba — Una prueba." in spanish
    assert '<a class="site-title" href="../../">Test dossier</a>' in english and "Test dossier — A test." in english
    assert '<a href="../../timeline/tags/aid/">ayuda</a>' in spanish  # the tag's name; its address stays
    assert f'<a href="../../timeline/tags/border/">{MARKED.format("border")}</a>' in spanish  # a tag without a name in Spanish
    timeline = read(site, "es/timeline/index.html")
    assert 'data-phrase="con la etiqueta ayuda">ayuda</a>' in timeline and 'data-phrase="con la etiqueta border">' in timeline  # attributes as text
    assert "<title>Cronología: eventos con la etiqueta ayuda · Expediente de prueba</title>" in read(site, "es/timeline/tags/aid/index.html")
    feed = read(site, "es/feed.xml")
    assert "<title>Expediente de prueba</title>" in feed and "<subtitle>Una prueba.</subtitle>" in feed
    assert json.loads(read(site, "es/data/timeline.json"))["title"]["text"] == {"headline": "Expediente de prueba", "text": "Una prueba."}
    ld = spanish.split('<script type="application/ld+json">\n')[1].split("\n</script>")[0]
    assert '"isPartOf":{"@type":"WebSite","name":"Expediente de prueba"}' in ld and '"keywords":"ayuda, border"' in ld and "<span" not in ld


def test_a_sources_headline_is_marked_with_its_language_on_another_languages_pages(site):
    spanish = read(site, "es/people/jorge-torres/index.html")
    assert '<a href="../../sources/ap/"><span lang="en">AP story</span></a>, <span lang="en">The Associated Press</span>.' in spanish
    assert '<span class="preview-source"> — <span lang="en">The Associated Press</span></span>' in spanish
    assert '<a href="../sources/ap/">AP story</a>, The Associated Press.' in read(site, "people/jorge-torres/index.html").replace("../../", "../")


def test_a_body_link_to_a_record_whose_name_is_left_untranslated_is_marked(make_site, tmp_path):
    files = {**FILES, "content/people/jorge-torres.es.md": "---\nsummary: Un sargento.\n---\nVer [[woman]] y [[cucuta]].[@ap \"drove an armoured truck across the bridge\"]\n"}
    out = tmp_path / "site"
    build(make_site(files), out)
    spanish = read(out, "es/people/jorge-torres/index.html")
    assert '<a class="untranslated" data-untranslated="en inglés" href="../../people/woman/" lang="en">Woman hit by a truck</a>' in spanish
    assert '<a href="../../places/cucuta/">Cúcuta</a>' in spanish


def test_the_claims_pages_of_each_language_list_its_claims_and_link_to_its_pages(site):
    spanish, english = read(site, "es/claims/1-source/index.html"), read(site, "claims/1-source/index.html")
    assert '<li>Torres condujo. <a href="../../people/jorge-torres/#claim-1">Jorge Torres</a></li>' in spanish
    assert f'<li>{MARKED.format("She was hit.")} <a href="../../people/woman/#claim-1">{MARKED.format("Woman hit by a truck")}</a></li>' in spanish
    assert '<li>Torres drove a truck. <a href="../../people/jorge-torres/#claim-1">Jorge Torres</a></li>' in english
    assert "Torres condujo." not in english


def test_a_value_in_another_language_pickles_and_prints_as_plain_text_where_asked():
    value = Untranslated("Deserted", "en", "en inglés")
    again = pickle.loads(pickle.dumps(value))
    assert (again, again.lang, again.note, type(again)) == ("Deserted", "en", "en inglés", Untranslated)
    assert str(InLanguage("<b>", "en").__html__()) == '<span lang="en">&lt;b&gt;</span>'
    assert type(plain(value)) is str and plain(value) == "Deserted" and plain(3) == 3


@pytest.mark.parametrize("translations, expected", [
    ("translations: {es: {title: Uno, subtitle: Dos}}", "content/site.yaml:5: error: unknown field 'subtitle' in translations.es (it translates title, description and tags)"),
    ("translations: {fr: {title: Un}}", "content/site.yaml:5: error: 'translations' gives 'fr', a language dossier has no interface in; languages may be en, es"),
    ("translations: {es: [title]}", "content/site.yaml:5: error: 'translations.es' should be a mapping of title, description and tags, not a list"),
    ("translations: {es: {title: [Uno]}}", "content/site.yaml:5: error: 'translations.es.title' should be text, not a list"),
    ("translations: {es: {tags: [ayuda]}}", "content/site.yaml:5: error: 'translations.es.tags' should be a mapping of each tag to its name: {aid: ayuda}"),
    ("translations: {es: {tags: {Aid: ayuda}}}", "content/site.yaml:5: error: 'translations.es.tags' names 'Aid', which is not a tag: tags are lowercase words joined by hyphens, such as 'aid'"),
    ("translations: {es: {tags: {aid: 3}}}", "content/site.yaml:5: error: 'translations.es.tags.aid' should be the tag's name, not a number"),
    ("translations: [es]", "content/site.yaml:5: error: 'translations' should be a mapping of languages, each with its title, description and tags: translations: {es: {title: …}}"),
])
def test_bad_site_translations_are_reported_at_their_line(make_site, translations, expected):
    found = problems_of(make_site({"content/site.yaml": f"title: Test dossier\ndescription: A test.\nlanguage: en\nlanguages: [en, es]\n{translations}\n"}))
    assert expected in found, found


def test_site_translations_into_a_language_the_site_does_not_have_are_refused(make_site):
    found = problems_of(make_site({"content/site.yaml": "title: Test dossier\nlanguage: en\ntranslations: {es: {title: Uno}}\n"}))
    assert "content/site.yaml:3: error: 'translations' gives 'es', which is not one of the site's other languages (it has none): add it to 'languages', after the first" in found
    found = problems_of(make_site({**TWO, "content/site.yaml": "title: Test dossier\nlanguages: [en, es]\ntranslations: {en: {title: One}}\n"}))
    assert "content/site.yaml:3: error: 'translations' gives 'en', which is not one of the site's other languages (es): add it to 'languages', after the first" in found


def test_counts_in_generated_text_are_written_as_the_page_language_writes_numbers():
    from dossier.render import theme
    from dossier.render.environment import template_environment

    count = "{% trans n=c, count=c | number %}{{ count }} claim{% pluralize n %}{{ count }} claims{% endtrans %}"
    assert template_environment(theme.template_folders(None), "es", "en").from_string(count).render(c=1410) == "1.410 afirmaciones"
    assert template_environment(theme.template_folders(None), "es", "en").from_string(count).render(c=1) == "1 afirmación"
    assert template_environment(theme.template_folders(None), "en", "en").from_string(count).render(c=1410) == "1410 claims"  # as English always wrote counts
    # and every count the templates print goes through the filter (a count selects the plural through n)
    unformatted = []
    for template in sorted(theme.PACKAGE_TEMPLATES.glob("*.html")):
        for values in re.findall(r"\{% trans ([^%]*)%\}", template.read_text(encoding="utf-8")):
            unformatted += [f"{template.name}: {name}" for name, value in re.findall(r"(\w+)=([^,]+(?:\([^)]*\))?)", values)
                            if name in ("count", "shown", "total", "words", "longest") and "| number" not in value]
    assert unformatted == []


def test_an_event_date_notes_marker_and_a_sources_language_are_in_the_pages_language(site):
    event = read(site, "es/events/aid-convoy/index.html")
    assert '<button type="button" class="prov-mark">nota</button>' in event and '>note</button>' not in event
    assert f'<span class="prov-note"> ({MARKED.format("The AP says Saturday.")})</span>' in event  # the note, left untranslated
    assert '<button type="button" class="prov-mark">note</button>' in read(site, "events/aid-convoy/index.html")
    source = read(site, "es/sources/ap/index.html")
    assert "<dt>Idioma</dt> <dd>Inglés</dd>" in source and "<dt>Language</dt> <dd>English</dd>" in read(site, "sources/ap/index.html")
