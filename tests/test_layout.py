"""How the real site reads in a browser at a desk's width and a phone's: the timeline axis, the page's
columns and left edge, the table of contents, and the home page's story at a glance."""

from __future__ import annotations

import pytest

from dossier.dates import month_key
from test_browser import documentary, served  # noqa: F401  (fixtures)

PHONE, DESK = {"width": 390, "height": 844}, {"width": 1280, "height": 800}

# The axis shown at this width: its box, whether it scrolls sideways, its month labels that can be
# seen (inside the window and the axis's own box) by data-month, and its labels' rendered sizes.
SHOWN_AXIS = """() => {
    const svg = [...document.querySelectorAll('svg.axis')].find(s => s.getBoundingClientRect().width > 0);
    if (!svg) return null;
    const box = svg.parentElement.getBoundingClientRect();
    const scale = svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;
    const seen = el => { const r = el.getBoundingClientRect();
        return r.width > 0 && r.left >= Math.max(0, box.left) - 0.5 && r.right <= Math.min(innerWidth, box.right) + 0.5; };
    const labels = [...svg.querySelectorAll('text.month, text.year')];
    return {
        width: svg.getBoundingClientRect().width,
        scrolls: svg.parentElement.scrollWidth > svg.parentElement.clientWidth + 1 || document.documentElement.scrollWidth > innerWidth,
        months: [...svg.querySelectorAll('text.month')].filter(seen).map(t => t.dataset.month).filter(Boolean),
        smallest: Math.min(...labels.map(t => parseFloat(getComputedStyle(t).fontSize) * scale)),
    };
}"""


def busiest_year(documentary) -> int:  # noqa: F811
    years = [month_key(documentary.records["events"][eid].date)[0] for eid in documentary.timeline]
    return max(set(years), key=years.count)


@pytest.mark.parametrize("size", [PHONE, DESK], ids=["phone", "desk"])
def test_the_timeline_axis_fits_the_window_with_readable_labels_and_every_month_of_the_busiest_year(browser, served, documentary, size):  # noqa: F811
    context = browser.new_context(viewport=size)
    page = context.new_page()
    page.goto(served + "timeline/")
    shown = page.evaluate(SHOWN_AXIS)
    year = busiest_year(documentary)
    assert shown is not None and not shown["scrolls"]
    assert shown["months"] == [f"{year}-{month:02d}" for month in range(1, 13)]
    assert shown["smallest"] >= 12
    if size is DESK:
        assert shown["width"] >= 700  # across the column, as before
    context.close()


def test_on_a_phone_tab_reaches_the_axis_marks_and_each_names_its_event(browser, served, documentary):  # noqa: F811
    context = browser.new_context(viewport=PHONE)
    page = context.new_page()
    page.goto(served + "timeline/")
    for _ in range(60):
        page.keyboard.press("Tab")
        focused = page.evaluate("""() => { const a = document.activeElement, svg = a.closest('svg.axis');
            return svg && svg.getBoundingClientRect().width > 0 ? a.getAttribute('href') : null; }""")
        if focused:
            break
    assert focused and focused.startswith("#"), "Tab never reached a mark of the axis shown"
    event = documentary.records["events"][focused[1:]]
    name = f"{event.date.display()}: {event.title}"
    assert page.get_by_role("link", name=name, exact=True).evaluate_all("links => links.some(a => a === document.activeElement)")
    page.keyboard.press("Enter")
    page.wait_for_function("id => location.hash === '#' + id", arg=event.id)
    context.close()


@pytest.mark.parametrize("kind", ["timeline/", "", "people/jorge-torres/", "sources/ap-desertion/"])
@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_on_a_phone_every_page_type_of_its_own_layout_passes_axe(browser, served, kind, scheme):  # noqa: F811
    from axe_playwright_python.sync_playwright import Axe

    context = browser.new_context(viewport=PHONE, color_scheme=scheme)
    page = context.new_page()
    page.goto(served + kind)
    violations = Axe().run(page).response["violations"]
    assert [(v["id"], [n["target"] for n in v["nodes"]][:3]) for v in violations if v["impact"] in ("serious", "critical")] == []
    context.close()
