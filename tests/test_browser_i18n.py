"""The Spanish site in a real browser: the language switcher keeps the reader on the same record,
Spanish search finds Spanish words, and the Spanish pages pass axe."""

from __future__ import annotations

import pytest

from test_browser import PAGE_TYPES, served  # noqa: F401 (fixtures)

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
