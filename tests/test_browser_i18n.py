"""The Spanish site in a real browser: the language switcher keeps the reader on the same record,
Spanish search finds Spanish words, the page for a missing address speaks the language of the address,
and the Spanish pages pass axe."""

from __future__ import annotations

import pytest

from test_browser import PAGE_TYPES, based_site, served, serving  # noqa: F401 (fixtures)

STATUS = "document.getElementById('search-status').textContent"


@pytest.mark.parametrize("start, other", [("people/jorge-torres/", "es/people/jorge-torres/"), ("es/people/jorge-torres/", "people/jorge-torres/")])
def test_the_language_switcher_lands_on_the_same_person(page, served, start, other):
    page.goto(served + start)
    name = page.inner_text("h1")
    page.click(".language-switch a")
    page.wait_for_url(served + other)
    assert page.inner_text("h1") == name == "Jorge Torres"
    assert page.evaluate("document.documentElement.lang") == ("es" if other.startswith("es/") else "en")
    assert page.console_errors == []


def test_spanish_search_finds_desertores_in_spanish_pages(page, served):
    page.goto(served + "es/search/?q=desertores")
    page.wait_for_function(f"() => / resultados? para «desertores»/.test({STATUS})")
    assert page.inner_text("#search-status").endswith("resultados para «desertores».")
    links = page.eval_on_selector_all("#search-results > li .result-title a", "links => links.map(a => a.href)")
    assert links and all("/site/es/" in link for link in links)  # the Spanish index only
    assert any(link.endswith("/es/events/defectors-left-adrift/") for link in links)
    page.goto(served + "search/?q=desertores")  # the English page searches the English index only
    page.wait_for_function(f"() => /results? for “desertores”/.test({STATUS})")
    links = page.eval_on_selector_all("#search-results > li .result-title a", "links => links.map(a => a.href)")
    assert links and not any("/site/es/" in link for link in links)


@pytest.mark.parametrize("kind", ["home", "person", "event", "source", "timeline", "people index", "search", "place"])
def test_spanish_pages_pass_axe(browser, served, kind):
    from axe_playwright_python.sync_playwright import Axe

    address = PAGE_TYPES[kind]
    context = browser.new_context()
    page = context.new_page()
    page.goto(served + "es/" + address)
    assert page.evaluate("document.documentElement.lang") == "es"
    violations = Axe().run(page).response["violations"]
    assert [(v["id"], [n["target"] for n in v["nodes"]][:3]) for v in violations if v["impact"] in ("serious", "critical")] == []
    context.close()


@pytest.mark.parametrize("build_kind", ["relative, under a subpath", "relative, at the root", "with a base URL"])
def test_the_not_found_page_speaks_the_language_of_the_address_asked_for(page, real_site, based_site, build_kind):
    site = based_site if build_kind == "with a base URL" else real_site
    with serving(site, at_root=build_kind.endswith("root")) as address:
        for missing, lang, heading, title in [("es/people/nobody/", "es", "Página no encontrada", "Página no encontrada · Desertores a la deriva"),
                                              ("es/a/b/c", "es", "Página no encontrada", "Página no encontrada · Desertores a la deriva"),
                                              ("es/404.html", "es", "Página no encontrada", "Página no encontrada · Desertores a la deriva"),
                                              ("people/nobody/", "en", "Page not found", "Page not found · Defectors adrift")]:
            response = page.goto(address + missing)
            assert response.status == (200 if missing.endswith("404.html") else 404)
            assert (page.evaluate("document.documentElement.lang"), page.inner_text("h1"), page.title()) == (lang, heading, title), missing
            assert page.inner_text(".site-title") == ("Desertores a la deriva" if lang == "es" else "Defectors adrift")
            assert page.evaluate("getComputedStyle(document.querySelector('main')).maxWidth") == "1120px", missing  # the stylesheet applied
            assert page.evaluate("document.querySelector('.skip-link').href") == address + missing + "#main"
            assert page.evaluate("document.querySelectorAll('h1').length") == 1  # one language's version shows
        page.goto(address + "es/people/nobody/")
        page.click("main >> text=página de inicio")
        page.wait_for_url(address + "es/")
        assert page.evaluate("document.documentElement.lang") == "es" and page.inner_text("h1") == "Desertores a la deriva"
        page.goto(address + "es/people/nobody/")  # the header's search, in Spanish, searches the Spanish pages
        page.fill("#site-search-query", "desertores")
        page.wait_for_function("() => /resultados? para «desertores»/.test(document.querySelector('.site-search').innerText)")


def test_without_script_the_not_found_page_shows_its_own_language(browser, based_site):
    context = browser.new_context(java_script_enabled=False)
    page = context.new_page()
    with serving(based_site) as address:
        page.goto(address + "es/people/nobody/")  # a host that serves the site's one 404.html
        assert page.inner_text("h1") == "Page not found"
        page.goto(address + "es/404.html")  # a host that serves the nearest 404.html above the address
        assert page.inner_text("h1") == "Página no encontrada"
        page.click("main >> text=página de inicio")
        page.wait_for_url(address + "es/")
    context.close()


def test_a_spanish_pages_scripts_write_counts_as_spanish_writes_numbers(page, served):
    say = "gettext('%(count)s results for “%(query)s”.', {count: 1410, query: 'x'})"
    page.goto(served + "es/search/")
    assert page.evaluate(say) == "1.410 resultados para «x»."
    page.goto(served + "search/")
    assert page.evaluate(say) == "1410 results for “x”."  # English, as its templates write counts


# The text a Spanish page shows as its own: every text node and label whose nearest language is the
# page's, leaving out quoted passages (<q>, <blockquote>, a source's words between “ ” in prose) and
# whatever is marked as another language (a source's headline, a value left untranslated).
OWN_TEXT = """() => {
    const lang = document.documentElement.lang, found = [];
    const own = node => { const el = node.nodeType === 1 ? node : node.parentElement;
        return el.closest('[lang]').getAttribute('lang') === lang && !el.closest('q, blockquote, script, style, code'); };
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    while (walker.nextNode()) if (own(walker.currentNode)) found.push(walker.currentNode.textContent);
    for (const el of document.querySelectorAll('[aria-label], [title], [placeholder], [alt]'))
        if (own(el)) for (const name of ['aria-label', 'title', 'placeholder', 'alt']) if (el.hasAttribute(name)) found.push(el.getAttribute(name));
    return [document.title, ...found].join('\\n').replace(/“[^”]*”/g, ' ');
}"""


@pytest.fixture(scope="module")
def english_strings() -> list[str]:
    """Return the English site's own words: each interface string's words (the catalog's, less what its
    Spanish keeps, such as 'TimelineJS'), and each value a Spanish page shows in its own words."""
    import re

    from babel.messages.pofile import read_po

    from conftest import PROJECT
    from dossier.model.i18n import LOCALE
    from dossier.model.language_view import bare_number, translatable_fields
    from dossier.pipeline import load

    with open(LOCALE / "es/LC_MESSAGES/dossier.po", "rb") as file:
        catalog = read_po(file, locale="es")
    found = set()
    for message in catalog:
        ids = message.id if isinstance(message.id, tuple) else (message.id,)
        spanish = " ".join(message.string if isinstance(message.string, tuple) else (message.string,))
        for text in filter(None, ids):
            for piece in re.split(r"%\(\w+\)[sd]|<[^>]+>|[“”()«»:;,.—–]", text):
                piece = piece.strip()
                if len(piece) >= 4 and re.search("[a-z]{2}", piece) and piece not in spanish:
                    found.add(piece)
    site, _ = load(PROJECT)  # each English value a reader sees, but a name, a bare number, and one its translation gives unchanged
    for kind, records in site.records.items():
        for record in records.values():
            translation = record.translations.get("es")
            given = translation.values if translation is not None else {}
            for spec in translatable_fields(site.model, kind):
                if spec.name in ("name", "outlet") and not getattr(record, "anonymous", False):
                    continue
                own, theirs = getattr(record, spec.name, None), given.get(spec.name)
                if isinstance(own, list) and own and not isinstance(own[0], str):  # figures, claims: each item's words
                    values = [(getattr(item, key), (words or {}).get(key)) for item, words in zip(own, theirs or [None] * len(own))
                              for key in ("label", "value", "says") if hasattr(item, key)]
                else:
                    values = list(zip(own, theirs or [None] * len(own))) if isinstance(own, list) else [(own, theirs)]
                found |= {value for value, spanish in values if value and value != spanish and not bare_number(value)}
    found |= {site.config.title, site.config.description}
    return sorted(found, key=len, reverse=True)


@pytest.mark.parametrize("address", ["es/people/jorge-torres/", "es/events/aid-convoy-blocked/", "es/places/cucuta/", "es/sources/ap-desertion/"])
def test_a_spanish_page_shows_no_english_interface_text_or_value_of_its_own(page, served, english_strings, address):
    import re

    assert len(english_strings) > 500  # the catalog's strings and the documentary's values
    page.goto(served + address)
    text = page.evaluate(OWN_TEXT)
    assert "Jorge Torres" in text or "Cúcuta" in text or "Convoy" in text or "Fuente" in text  # the page's own text was read
    leaks = [english for english in english_strings if re.search(r"(?<!\w)" + re.escape(english) + r"(?!\w)", text)]
    assert leaks == []
