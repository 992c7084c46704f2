"""The derivative beside its original, and conflicting accounts, in a real browser: two columns side by
side on a wide screen, stacked (original first) on a phone, and every conflict flag reached by Tab."""

from __future__ import annotations

import pytest

from test_browser import served  # noqa: F401 (fixture)

ALIGNED = "sources/ap-desertion-translation/aligned/"

GEOMETRY = """() => [...document.querySelectorAll('.aligned-row')].filter(row => !row.classList.contains('inserted-row'))
    .filter(row => row.querySelectorAll('.aligned-side p:not(.aligned-where)').length > 0)
    .map(row => [...row.querySelectorAll('.aligned-side')].map(side => {
        const box = side.getBoundingClientRect();
        return {left: box.left, right: box.right, top: box.top + scrollY, bottom: box.bottom + scrollY};
    }))"""


def boxes(browser, address: str, width: int) -> tuple[list, int]:
    context = browser.new_context(viewport={"width": width, "height": 900})
    page = context.new_page()
    page.goto(address)
    rows = page.evaluate(GEOMETRY)
    scroll = page.evaluate("document.documentElement.scrollWidth")
    context.close()
    return rows, scroll


def test_at_1280_px_the_original_and_the_translation_sit_side_by_side(browser, served):
    rows, scroll = boxes(browser, served + ALIGNED, 1280)
    assert len(rows) > 30 and scroll <= 1280
    for original, translation in rows:
        assert original["right"] <= translation["left"]  # side by side, no overlap
        assert abs(original["top"] - translation["top"]) < 1  # on the same line
        assert original["right"] - original["left"] > 300 and translation["right"] - translation["left"] > 300


def test_at_390_px_the_original_comes_first_and_the_translation_under_it(browser, served):
    rows, scroll = boxes(browser, served + ALIGNED, 390)
    assert scroll <= 390  # nothing scrolls sideways
    for original, translation in rows:
        assert original["bottom"] <= translation["top"]  # stacked, the original first
        assert original["right"] <= 390 and translation["right"] <= 390


def test_conflict_flags_are_reached_by_keyboard_and_open_the_conflict(page, served):
    page.goto(served + ALIGNED)
    flags = page.locator(".conflict-flag")
    assert flags.count() >= 6
    first = flags.first.get_attribute("href")
    for _ in range(60):
        page.keyboard.press("Tab")
        if page.evaluate("document.activeElement.classList.contains('conflict-flag')"):
            break
    else:
        pytest.fail("no conflict flag reached with Tab")
    assert page.evaluate("document.activeElement.getAttribute('href')") == first
    page.keyboard.press("Enter")
    page.wait_for_url("**/conflicts/**")
    assert page.locator(".claim-card").count() >= 2


def test_the_claims_of_a_conflict_sit_side_by_side_and_stack_on_a_phone(browser, served):
    for width, side_by_side in ((1280, True), (390, False)):
        context = browser.new_context(viewport={"width": width, "height": 900})
        page = context.new_page()
        page.goto(served + "conflicts/woman-injury/")
        first, second = (page.locator(".claim-card").nth(i).bounding_box() for i in range(2))
        assert (first["x"] + first["width"] <= second["x"] and first["y"] == second["y"]) is side_by_side, width
        if not side_by_side:
            assert first["y"] + first["height"] <= second["y"]
        context.close()
