"""Reading in a real browser: a source page puts its article first, with compact "cited by" notes
beside each passage; provenance notes are a tap, hover or disclosure away from the reading text."""

from __future__ import annotations

import pytest

from test_browser import served  # noqa: F401 (fixture)

SOURCES = ("sources/ap-desertion-translation/", "sources/ap-desertion/", "sources/wapo-military/", "sources/npr-adrift/")

ARTICLE_GEOMETRY = """() => {
    const first = document.querySelector('.article > p:not(.note), .article > aside.inserted');
    const top = el => el.getBoundingClientRect().top + scrollY;
    const tall = [];
    for (const block of document.querySelectorAll('.article .cited-by')) {
        const passage = block.previousElementSibling;
        if (block.getBoundingClientRect().height > passage.getBoundingClientRect().height)
            tall.push([passage.textContent.slice(0, 40), Math.round(block.getBoundingClientRect().height), Math.round(passage.getBoundingClientRect().height)]);
    }
    return {first: top(first), tall: tall, blocks: document.querySelectorAll('.article .cited-by').length};
}"""


@pytest.mark.parametrize("source", SOURCES)
def test_a_source_page_starts_with_its_article_and_keeps_cited_by_small(browser, served, source):
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    page.goto(served + source)
    shown = page.evaluate(ARTICLE_GEOMETRY)
    assert shown["first"] < 1200, shown["first"]
    assert shown["blocks"] > 0 and shown["tall"] == []
    opened = page.locator(".article .cited-by").first
    opened.locator("summary").click()  # the list of citing pages opens on demand
    assert opened.locator("a").first.is_visible()
    context.close()


def test_the_table_of_contents_at_the_top_reaches_each_part_of_a_source_page(page, served):
    page.set_viewport_size({"width": 1280, "height": 900})
    page.goto(served + "sources/ap-desertion-translation/")
    toc = page.locator("nav.page-toc")
    assert toc.count() == 1 and toc.bounding_box()["y"] < 600
    for link in toc.locator("a").all():
        target = link.get_attribute("href")
        assert target.startswith("#") and page.locator(target).count() == 1, target
