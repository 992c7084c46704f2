"""A record's image in a real browser, on the example documentary `init` writes: it shows, its alt text
and credit are there, the size a phone loads is the small one, and the page does not move as it loads."""

from __future__ import annotations

import time

import pytest

from dossier.cli import main
from test_browser import serving

LAYOUT_SHIFT = """() => new Promise(resolve => {
  let total = 0;
  new PerformanceObserver(list => { for (const entry of list.getEntries()) if (!entry.hadRecentInput) total += entry.value; })
    .observe({type: 'layout-shift', buffered: true});
  setTimeout(() => resolve(total), 300);
})"""


@pytest.fixture(scope="module")
def example_site(tmp_path_factory):
    """The example documentary, built and served."""
    folder = tmp_path_factory.mktemp("example") / "ferry"
    assert main(["init", str(folder)]) == 0
    assert main(["build", "--source", str(folder)]) == 0
    with serving(folder / "site") as address:
        yield address


@pytest.mark.parametrize("width, loaded", [(1280, "ferry-960w.png"), (390, "ferry-480w.png")])
def test_the_image_shows_with_its_alt_text_and_credit_and_keeps_its_place_while_it_loads(browser, example_site, width, loaded):
    context = browser.new_context(viewport={"width": width, "height": 800}, device_scale_factor=1)
    page = context.new_page()

    def slowly(route):  # the image arrives late, as on a slow line: the page must keep its place meanwhile
        time.sleep(0.6)
        route.continue_()

    page.route("**/media/*", slowly)
    page.goto(example_site + "events/ferry-stops/", wait_until="domcontentloaded")
    image = page.locator("figure.record-image img")
    before = image.bounding_box()
    text_before = page.locator(".record .body").bounding_box()
    page.wait_for_function("() => document.querySelector('figure.record-image img').complete")
    after = image.bounding_box()
    assert before["height"] > 100 and abs(before["height"] - after["height"]) < 0.5 and abs(before["width"] - after["width"]) < 0.5
    assert abs(page.locator(".record .body").bounding_box()["y"] - text_before["y"]) < 0.5
    assert page.evaluate(LAYOUT_SHIFT) == 0
    shown = page.evaluate("""() => { const img = document.querySelector('figure.record-image img');
        return [img.naturalWidth > 0, img.alt, img.currentSrc.split('/').pop(), Math.round(img.getBoundingClientRect().width / img.getBoundingClientRect().height * 100)]; }""")
    assert shown == [True, "A drawing of a small white ferry on a blue river, and a wooden pier closed off by a barrier.", loaded, 150]
    caption = page.locator("figure.record-image figcaption").inner_text()
    assert "Drawn for this example with Pillow" in caption and "licence: CC0 1.0 (public domain)" in caption and "not a photograph" in caption
    context.close()


def test_the_page_with_an_image_passes_axe(page, example_site):
    from axe_playwright_python.sync_playwright import Axe

    page.goto(example_site + "events/ferry-stops/")
    violations = Axe().run(page).response["violations"]
    assert [(v["id"], v["impact"]) for v in violations if v["impact"] in ("serious", "critical")] == []
