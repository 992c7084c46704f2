"""How the real site reads in a browser at a desk's width and a phone's: the timeline axis, the page's
columns and left edge, the table of contents, and the home page's story at a glance."""

from __future__ import annotations

import pytest
import yaml

from dossier.model.dates import month_key
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
    context = browser.new_context(viewport=PHONE, has_touch=True, is_mobile=True)
    page = context.new_page()
    page.goto(served + "timeline/")
    page.locator(f"svg.axis-tall a[href='{focused}']").tap()  # and a tap
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


LEFT_EDGES = """() => ['.site-title', 'main h1', '.site-footer p'].map(s => document.querySelector(s).getBoundingClientRect().left)"""


@pytest.mark.parametrize("size", [PHONE, DESK], ids=["phone", "desk"])
def test_header_main_and_footer_start_at_one_left_edge(browser, served, size):  # noqa: F811
    context = browser.new_context(viewport=size)
    page = context.new_page()
    for address in ("", "people/jorge-torres/", "timeline/", "about/"):
        page.goto(served + address)
        title, heading, footer = page.evaluate(LEFT_EDGES)
        assert abs(title - heading) <= 1 and abs(footer - heading) <= 1, (address, title, heading, footer)
    context.close()


# The reading column in characters, and the side column's box against it.
COLUMNS = """() => {
    const probe = document.createElement('span'); probe.style.cssText = 'display:inline-block;width:10ch';
    document.querySelector('main .body p').append(probe);
    const ch = probe.getBoundingClientRect().width / 10; probe.remove();
    const text = document.querySelector('main .body p').getBoundingClientRect();
    const side = [...document.querySelectorAll('main .infobox, main nav[aria-label=Contents], main .side')]
        .map(el => el.getBoundingClientRect()).filter(r => r.width > 0);
    return {measure: text.width / ch, textRight: text.right, textLeft: text.left,
            sideLeft: Math.min(...side.map(r => r.left)), sideRight: Math.max(...side.map(r => r.right))};
}"""


def test_on_a_wide_screen_prose_keeps_a_reading_measure_with_its_side_material_beside_it(browser, served):  # noqa: F811
    context = browser.new_context(viewport=DESK)
    page = context.new_page()
    for address in ("", "people/jorge-torres/", "events/aid-convoy-blocked/", "about/"):
        page.goto(served + address)
        shown = page.evaluate(COLUMNS)
        assert 60 <= shown["measure"] <= 80, (address, shown)
        assert shown["sideLeft"] >= shown["textRight"], (address, shown)  # beside the text, not under it
        assert shown["sideRight"] - shown["textLeft"] >= 0.8 * DESK["width"], (address, shown)  # the width used
    context.close()


CONTENTS = """() => {
    const nav = document.querySelector('main nav[aria-label=Contents]');
    return nav && {links: [...nav.querySelectorAll('a')].map(a => a.getAttribute('href')),
        headings: [...document.querySelectorAll('main h2')].map(h => '#' + h.id),
        box: nav.getBoundingClientRect().toJSON(), text: document.querySelector('main .body, main .article').getBoundingClientRect().toJSON()};
}"""


@pytest.mark.parametrize("address", ["people/jorge-torres/", "events/aid-convoy-blocked/", "sources/ap-desertion/", "about/"])
def test_a_long_page_has_contents_listing_every_h2_beside_the_text_or_above_it_on_a_phone(browser, served, address):  # noqa: F811
    context = browser.new_context(viewport=DESK)
    page = context.new_page()
    page.goto(served + address)
    contents = page.evaluate(CONTENTS)
    assert contents is not None, "no contents"
    assert contents["links"] == contents["headings"] and "#" not in contents["headings"]
    assert contents["box"]["left"] >= contents["text"]["right"]  # beside the text
    for link in contents["links"]:
        page.click(f"main nav[aria-label=Contents] a[href='{link}']")
        page.wait_for_function("id => location.hash === id", arg=link)
        top = page.evaluate("id => document.getElementById(id.slice(1)).getBoundingClientRect().top", link)
        assert -1 <= top <= 40 or page.evaluate("innerHeight + scrollY >= document.documentElement.scrollHeight - 1"), (link, top)
    page.set_viewport_size(PHONE)
    page.goto(served + address)
    contents = page.evaluate(CONTENTS)
    assert contents["box"]["bottom"] <= contents["text"]["top"] and contents["box"]["width"] > 300  # above the text
    context.close()


def front_matter(path) -> dict:
    return yaml.safe_load(path.read_text(encoding="utf-8").split("---")[1])


GLANCE = """() => {
    const body = document.querySelector('main .body').getBoundingClientRect();
    const cards = [...document.querySelectorAll('main .key-figures li')];
    const axis = document.querySelector('main .glance a.glance-axis');
    return {
        figures: cards.map(li => ({value: li.querySelector('.figure-value').textContent.trim(), label: li.querySelector('.figure-label').textContent.trim(),
            outlet: li.querySelector('.figure-source a').textContent.trim(), href: li.querySelector('.figure-source a').href})),
        firstTop: cards.length ? cards[0].getBoundingClientRect().top : null, bodyTop: body.top,
        axis: axis && {href: axis.href, marks: axis.querySelectorAll('svg .mark').length, top: axis.getBoundingClientRect().top},
        people: [...document.querySelectorAll('main .glance-people a')].map(a => a.href),
    };
}"""


@pytest.mark.parametrize("size", [PHONE, DESK], ids=["phone", "desk"])
def test_the_home_page_leads_with_the_key_figures_of_the_events_their_sources_the_timeline_and_its_people(browser, served, documentary, size):  # noqa: F811
    from conftest import PROJECT
    from dossier.text.passages import passage_id

    expected = sorted(
        (f["value"], f["label"], f["source"], f["quote"])
        for path in (PROJECT / "content/events").glob("*.md") for f in front_matter(path).get("figures", []) if f.get("headline"))
    assert len(expected) >= 3
    context = browser.new_context(viewport=size)
    page = context.new_page()
    page.goto(served)
    shown = page.evaluate(GLANCE)
    by_value = {(v, label): (s, q) for v, label, s, q in expected}
    assert sorted((f["value"], f["label"]) for f in shown["figures"]) == sorted((v, label) for v, label, _, _ in expected)
    for figure in shown["figures"]:
        source, quote = by_value[(figure["value"], figure["label"])]
        assert figure["outlet"] == front_matter_yaml(PROJECT / f"content/sources/{source}.yaml")["outlet"]
        assert figure["href"] == served + f"sources/{source}/#{passage_id(quote)}"
    assert shown["firstTop"] < shown["bodyTop"] and shown["firstTop"] < size["height"]  # it leads
    assert shown["axis"] == {"href": served + "timeline/", "marks": len(documentary.timeline), "top": shown["axis"]["top"]}
    featured = front_matter(PROJECT / "content/pages/home.md")["featured"]
    assert shown["people"] == [served + f"people/{pid}/" for pid in featured]
    for figure in shown["figures"]:  # each link lands on its passage, highlighted
        page.goto(figure["href"])
        source, quote = by_value[(figure["value"], figure["label"])]
        assert page.evaluate("id => document.getElementById(id) !== null", passage_id(quote))
    context.close()


def front_matter_yaml(path) -> dict:
    return yaml.safe_load(path.read_text(encoding="utf-8"))
