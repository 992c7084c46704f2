"""The built site in a real browser: search, timeline filters with and without JavaScript, the portable
build from file://, axe-core on every page type, and the Nu Html Checker over the whole real site.
"""

from __future__ import annotations

import contextlib
import functools
import json
import http.server
import os
import re
import shutil
import subprocess
import threading
from pathlib import Path
from typing import Iterator

import pytest

from conftest import PROJECT, copy_project
from dossier.search import parts as search_parts
from dossier.pipeline import build, load

VNU = PROJECT / "node_modules/vnu-jar/build/dist/vnu.jar"


class QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args) -> None:  # keep test output clean
        pass

    def send_error(self, code, message=None, explain=None) -> None:
        """Answer a missing address with the site's own 404.html, as GitHub Pages does."""
        root = Path(self.directory)
        top = root / self.path.lstrip("/").split("/")[0] / "404.html"
        page = top if top.is_file() else root / "404.html"
        if code != 404 or not page.is_file():
            return super().send_error(code, message, explain)
        body = page.read_bytes()
        self.send_response(404)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)


@contextlib.contextmanager
def serving(site: Path, *, at_root: bool = False) -> Iterator[str]:
    """Serve a built site over HTTP under a subpath (its folder's name), or at the root; yield its address."""
    handler = functools.partial(QuietHandler, directory=str(site if at_root else site.parent))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_port}/" + ("" if at_root else f"{site.name}/")
    server.shutdown()
    server.server_close()


@pytest.fixture(scope="session")
def served(real_site: Path):
    """Serve the real site over HTTP under a subpath (/site/) for the session; yield its address."""
    with serving(real_site) as address:
        yield address


@pytest.fixture(scope="session")
def parted_site(tmp_path_factory) -> Path:
    """Build the real documentary with its search index in parts, as a large site's is."""
    out = tmp_path_factory.mktemp("parted") / "site"
    saved, search_parts.PART_PAGES = search_parts.PART_PAGES, 16
    try:
        build(PROJECT, out)
    finally:
        search_parts.PART_PAGES = saved
    return out


@pytest.fixture(scope="session")
def portable_site(tmp_path_factory) -> Path:
    """Build the real documentary once in portable mode."""
    out = tmp_path_factory.mktemp("portable") / "site"
    build(PROJECT, out, portable=True)
    return out


@pytest.fixture(scope="session")
def documentary():
    """The real documentary, linked."""
    site, _ = load(PROJECT)
    return site


def visible_events(page) -> list[str]:
    """Return the ids of the timeline items shown, sorted."""
    return sorted(page.eval_on_selector_all(".timeline > li", "items => items.filter(i => i.offsetParent !== null).map(i => i.id)"))


def lede_phrase(site_folder: Path, person: str) -> str:
    """Return six words from the middle of a person's summary, as a reader might remember them."""
    html = (site_folder / "people" / person / "index.html").read_text(encoding="utf-8")
    words = re.sub(r"<[^>]+>", "", re.search(r'<p class="lede">(.*?)</p>', html, re.S).group(1)).split()
    return " ".join(re.sub(r"[^\w'-]", "", w) for w in words[3:9])


def test_search_finds_a_person_by_a_phrase_from_their_page(page, served, real_site):
    phrase = lede_phrase(real_site, "jesus-parra")
    page.goto(served + "events/aid-convoy-blocked/")
    page.fill("#site-search-query", phrase)
    page.press("#site-search-query", "Enter")
    page.wait_for_url(re.compile(r"/search/\?q="))
    page.wait_for_function("q => document.getElementById('search-status').textContent.includes(q) && !document.getElementById('search-status').textContent.startsWith('Searching')", arg=phrase)
    found = page.locator("#search-results li:has(a[href$='/people/jesus-parra/'])")
    assert found.locator(".result-type").text_content() == "Person"
    assert found.locator(".excerpt mark").count() > 0
    found.locator("a").click()
    page.wait_for_url(served + "people/jesus-parra/")
    assert page.console_errors == []


def test_search_results_show_each_page_type(page, served):
    page.goto(served + "search/?q=Torres")
    page.wait_for_function("() => document.getElementById('search-status').textContent.includes('results for')")
    types = set(page.locator("#search-results .result-type").all_text_contents())
    assert {"Person", "Event", "Source"} <= types


def found_pages(page, address: str, query: str) -> list[str]:
    """Return every page the search page lists for a query, by its path in the site (served as /site/), sorted."""
    page.goto(address + "search/?q=" + query)
    page.wait_for_function("() => /results? for|Nothing found/.test(document.getElementById('search-status').textContent)")
    while page.locator("#search-more").is_visible():  # every result, not only the first page of them
        page.click("#search-more")
    return sorted(href.split("/site/", 1)[1] for href in page.eval_on_selector_all("#search-results li a", "links => links.map(a => a.href)"))


def test_search_finds_the_same_pages_when_the_index_comes_in_parts(page, served, parted_site):
    found = functools.partial(found_pages, page)
    parts = json.loads((parted_site / "pagefind/parts.json").read_text(encoding="utf-8"))["parts"]
    assert len(parts) >= 3
    with serving(parted_site) as parted:
        for query in ("Torres", "bridge"):
            whole = found(served, query)
            assert 3 <= len(whole) < 40, (query, whole)  # all of them shown (the conflicts name Torres too), so that the lists compare
            got = found(parted, query)
            assert got == whole, (query, len(got), len(whole), sorted(set(got) - set(whole)), sorted(set(whole) - set(got)))
            assert len({search_parts.part_of(url + "index.html", len(parts) + 1) for url in whole}) >= 2  # found in several parts
    assert page.console_errors == []


def test_search_after_an_edit_finds_what_a_whole_index_finds(page, tmp_path, monkeypatch):
    monkeypatch.setattr(search_parts, "PART_PAGES", 16)
    root = copy_project(tmp_path / "project")
    site, cold = tmp_path / "edited/site", tmp_path / "cold/site"
    build(root, site)
    person = root / "content/people/jorge-torres.md"
    text = person.read_text(encoding="utf-8")
    assert "Torres was a sergeant" in text and "Those losses, he said, were what made him decide" in text
    # a word new to the site that starts with one the old parts know ("there"): they search for that instead; and a word the page loses
    person.write_text(text.replace("Torres was a sergeant", "Torres was a theremin sergeant", 1).replace("Those losses, he said, were what made him decide", "They, he said, were what made him decide", 1), encoding="utf-8")
    build(root, site)
    delta = json.loads((site / "pagefind/parts.json").read_text(encoding="utf-8"))["delta"]
    assert delta["added"] == ["theremin"] and "people/jorge-torres/index.html" in delta["replaces"]
    build(root, cold, use_cache=False)
    assert "delta" not in json.loads((cold / "pagefind/parts.json").read_text(encoding="utf-8"))
    with serving(site) as edited, serving(cold) as whole:
        for query in ("theremin", "theremin Torres", "Torres theremin", "therem", "losses", "losses Torres", "sergeant", "Torres"):
            expected = found_pages(page, whole, query)
            assert found_pages(page, edited, query) == expected, query
            if query.startswith("therem"):
                assert expected == ["people/jorge-torres/"], query  # the English pages: the Spanish index is searched from a Spanish page
    assert page.console_errors == []


def test_timeline_filters_narrow_the_list_without_javascript(browser, served, documentary):
    context = browser.new_context(java_script_enabled=False)
    page = context.new_page()
    page.goto(served + "timeline/")
    assert len(visible_events(page)) == len(documentary.timeline)
    page.click(".filters summary:has-text('People')")
    page.click(".filters a[data-filter='people:juan-guaido']")
    page.wait_for_url(served + "timeline/people/juan-guaido/")
    assert visible_events(page) == sorted(documentary.events_of[("people", "juan-guaido")])
    assert page.inner_text("h1") == "Timeline: events involving Juan Guaidó"
    page.click("#filter-reset")
    page.wait_for_url(served + "timeline/")
    assert len(visible_events(page)) == len(documentary.timeline)
    page.click(".filters summary:has-text('People')")
    page.click(".filters a[data-filter='people:jorge-torres']")  # three events: no filter page, his own page lists them
    page.wait_for_url(served + "people/jorge-torres/")
    listed = page.eval_on_selector_all("#timeline-heading + .event-list a", "links => links.map(a => a.getAttribute('href'))")
    assert sorted(href.strip("/").split("/")[-1] for href in listed) == sorted(documentary.events_of[("people", "jorge-torres")])
    context.close()


def test_timeline_filters_narrow_the_list_in_place_with_javascript(page, served, documentary):
    page.goto(served + "timeline/")
    page.evaluate("window.notReloaded = true")
    page.click(".filters summary:has-text('Tags')")
    page.click(".filters a[data-filter='tags:defection']")
    page.wait_for_url(served + "timeline/tags/defection/")
    expected = sorted(eid for eid in documentary.timeline if "defection" in documentary.records["events"][eid].tags)
    assert page.evaluate("window.notReloaded") is True
    assert visible_events(page) == expected
    assert page.inner_text("h1") == "Timeline: events tagged defection"
    assert page.title().startswith("Timeline: events tagged defection · ")
    assert page.inner_text("#filter-count") == f"Showing {len(expected)} events, tagged defection."
    assert page.locator(".axis-wide .mark:not(.dim)").count() == len(expected)
    page.go_back()
    page.wait_for_url(served + "timeline/")
    assert len(visible_events(page)) == len(documentary.timeline)
    page.go_forward()
    page.wait_for_url(served + "timeline/tags/defection/")
    assert visible_events(page) == expected
    page.click(f"#{expected[0]} .what a")  # links written for timeline/ still work at the filter's address
    page.wait_for_url(served + f"events/{expected[0]}/")
    page.goto(served + "timeline/")  # a person of three events has no filter page: the address is the timeline's with the filter
    page.evaluate("window.notReloaded = true")
    page.click(".filters summary:has-text('People')")
    page.click(".filters a[data-filter='people:jorge-torres']")
    page.wait_for_url(served + "timeline/?filter=people:jorge-torres")
    assert page.evaluate("window.notReloaded") is True
    assert visible_events(page) == sorted(documentary.events_of[("people", "jorge-torres")])
    page.reload()
    assert visible_events(page) == sorted(documentary.events_of[("people", "jorge-torres")])
    assert page.inner_text("h1") == "Timeline: events involving Jorge Torres"
    page.go_back()
    page.wait_for_url(served + "timeline/")
    assert len(visible_events(page)) == len(documentary.timeline)
    assert page.console_errors == []


def test_a_citation_marker_previews_its_passage_on_focus_without_script(browser, served):
    context = browser.new_context(java_script_enabled=False)
    page = context.new_page()
    page.goto(served + "people/jorge-torres/")
    marker = page.locator("sup.citation").first
    preview = marker.locator(".preview")
    assert not preview.is_visible()
    page.focus("sup.citation >> nth=0 >> a >> nth=0")
    assert preview.is_visible()
    description = page.evaluate("id => document.getElementById(id).textContent", marker.locator("a").first.get_attribute("aria-describedby"))
    assert description == preview.text_content() and " — " in description  # the passages, then their outlet and the sentence's support
    assert description.startswith("“") and description.endswith("this sentence")
    context.close()


def test_the_portable_build_navigates_from_file(page, portable_site, documentary):
    for html in portable_site.rglob("*.html"):
        for href in re.findall(r'<a [^>]*href="([^"]*)"', html.read_text(encoding="utf-8")):
            if not href.startswith(("http:", "https:", "#")):
                path = href.split("#")[0]
                assert path and not path.endswith("/") and "." in path.rsplit("/", 1)[-1], f"{html}: {href}"
    page.goto((portable_site / "index.html").as_uri())
    page.click("nav[aria-label=Main] >> text=People")
    page.wait_for_url(re.compile(r"/people/index\.html$"))
    page.click("main >> text=Jorge Torres")
    page.wait_for_url(re.compile(r"/people/jorge-torres/index\.html$"))
    assert page.evaluate("getComputedStyle(document.querySelector('.infobox')).float") == "right"  # the stylesheet loaded
    page.goto((portable_site / "people/juan-guaido/index.html").as_uri())
    page.click("main >> text=on the full timeline")
    page.wait_for_url(re.compile(r"/timeline/people/juan-guaido/index\.html$"))
    assert visible_events(page) == sorted(documentary.events_of[("people", "juan-guaido")])
    page.click("#filter-reset")
    page.wait_for_url(re.compile(r"/timeline/index\.html$"))
    page.click(".filters summary:has-text('Places')")
    page.click(".filters a[data-filter='places:cucuta']")  # in place where the browser allows it, else by loading the page
    page.wait_for_url(re.compile(r"/timeline/places/cucuta/index\.html$"))
    assert visible_events(page) == sorted(documentary.events_of[("places", "cucuta")])


def test_search_works_from_disk_in_the_portable_build(page, portable_site):
    phrase = lede_phrase(portable_site, "jesus-parra")
    page.goto((portable_site / "people/jorge-torres/index.html").as_uri())
    page.fill("#site-search-query", phrase)
    page.press("#site-search-query", "Enter")
    page.wait_for_url(re.compile(r"/search/index\.html\?q="))
    page.wait_for_function("q => document.getElementById('search-status').textContent.includes(q + '”.')", arg=phrase)
    found = page.locator("#search-results li:has(a[href$='/people/jesus-parra/index.html'])")
    assert found.locator(".result-type").text_content() == "Person"
    found.locator("a").click()
    page.wait_for_url(re.compile(r"/people/jesus-parra/index\.html$"))


PAGE_TYPES = {
    "home": "", "person": "people/jorge-torres/", "anonymous person": "people/female-soldier/", "event": "events/defector-count-april/",
    "place": "places/cucuta/", "group": "groups/venezuelan-national-guard/", "source": "sources/ap-desertion/",
    "source passage": "sources/wapo-military/#passage-2f467b6361",
    "derivative source": "sources/ap-desertion-translation/", "page": "about/", "people index": "people/", "events index": "events/",
    "sources index": "sources/", "aligned derivative": "sources/ap-desertion-translation/aligned/", "conflict": "conflicts/weapons/",
    "conflicts index": "conflicts/", "claims by support": "claims/1-source/", "timeline": "timeline/", "timeline filter": "timeline/tags/defection/", "search": "search/?q=Torres",
    "not found": "404.html", "not found, nested": "people/nobody/",
}


# Every page type in the light scheme and the dark.
AXE_CASES = [(kind, scheme) for scheme in ("light", "dark") for kind in PAGE_TYPES]


@pytest.mark.parametrize("kind, scheme", AXE_CASES)
def test_every_page_type_passes_axe_and_starts_with_the_skip_link(browser, served, kind, scheme):
    from axe_playwright_python.sync_playwright import Axe

    context = browser.new_context(color_scheme=scheme)
    page = context.new_page()
    page.goto(served + PAGE_TYPES[kind])
    if "#" not in PAGE_TYPES[kind]:  # at a fragment, Tab starts from the fragment, as it should
        page.keyboard.press("Tab")
        assert page.evaluate("document.activeElement.className") == "skip-link"
    if kind == "search":
        page.wait_for_function("() => document.getElementById('search-status').textContent.includes('results for')")
        page.locator("#site-search-query").press_sequentially("Cúcuta")  # with the header box's list of results open
        page.wait_for_function("() => document.getElementById('site-search-query').getAttribute('aria-expanded') === 'true'")
        page.keyboard.press("ArrowDown")
    if kind == "person":
        page.focus("sup.citation >> nth=0 >> a >> nth=0")  # with a citation preview open
    violations = Axe().run(page).response["violations"]
    serious = [(v["id"], [n["target"] for n in v["nodes"]][:3]) for v in violations if v["impact"] in ("serious", "critical")]
    assert serious == []
    context.close()


def test_the_nu_html_checker_finds_no_error_on_the_real_site(real_site):
    java = shutil.which("java")
    if not java or not VNU.is_file():
        message = "the Nu Html Checker needs Java and `npm install --no-save vnu-jar@26` (run .ci/run)"
        if os.environ.get("CI") == "true":
            pytest.fail(message)
        pytest.skip(message)
    command = [java, "-Xss4m", "-XX:TieredStopAtLevel=1", "-jar", str(VNU), "--errors-only", "--skip-non-html", str(real_site)]
    result = subprocess.run(command, capture_output=True, text=True, timeout=300, check=False)
    assert (result.returncode, result.stdout + result.stderr) == (0, "")


# Reading: the cited passage, the 404 page at any address, quotation marks, citation markers and previews.

HIGHLIGHTED = """() => {
    const cited = getComputedStyle(document.querySelector('.article .note mark')).backgroundColor;
    const marked = el => { const s = getComputedStyle(el);
        return s.outlineStyle !== 'none' || !['rgba(0, 0, 0, 0)', cited].includes(s.backgroundColor); };
    const found = [...document.querySelectorAll('.article > p *, .article > aside *')].filter(marked);
    const outermost = found.filter(el => !found.some(other => other !== el && other.contains(el)));
    return {text: outermost.map(el => el.textContent).join(''), top: outermost.length ? outermost[0].getBoundingClientRect().top : null,
            em: parseFloat(getComputedStyle(document.body).fontSize)};
}"""


def test_following_a_reference_highlights_exactly_its_passage_below_the_window_top(page, served):
    page.goto(served + "events/aid-convoy-blocked/")
    passage = page.locator(".reference-quotes a[href*='sources/wapo-military/#passage-']").filter(has_text="Tachira River").first
    quote = passage.locator("q").text_content()
    passage.click(position={"x": 8, "y": 8})  # on its first words: the middle of a link across two lines can fall between them
    page.wait_for_url(re.compile(r"/sources/wapo-military/#passage-"))
    page.wait_for_timeout(100)
    shown = page.evaluate(HIGHLIGHTED)
    assert shown["text"] == quote  # the cited passage, and no other passage of its paragraph
    assert shown["top"] >= 2 * shown["em"]  # not flush against the top of the window
    page.goto(served + "sources/wapo-military/")  # no passage targeted: none stands out
    assert page.evaluate(HIGHLIGHTED)["text"] == ""


@pytest.fixture(scope="session")
def based_site(tmp_path_factory) -> Path:
    """Build the real documentary with a base URL whose path is the subpath it is served under."""
    out = tmp_path_factory.mktemp("based") / "site"
    build(PROJECT, out, base_url="https://example.org/site/")
    return out


@pytest.mark.parametrize("build_kind", ["relative, under a subpath", "relative, at the root", "with a base URL"])
def test_the_not_found_page_is_styled_and_leads_home_at_any_address(page, real_site, based_site, build_kind):
    site = based_site if build_kind == "with a base URL" else real_site
    with serving(site, at_root=build_kind.endswith("root")) as address:
        for missing in ("people/nobody/", "a/b/c", "404.html"):
            response = page.goto(address + missing)
            assert response.status == (200 if missing == "404.html" else 404)
            assert page.inner_text("h1") == "Page not found"
            assert page.evaluate("getComputedStyle(document.querySelector('main')).maxWidth") == "1120px", missing  # the stylesheet applied
            assert page.evaluate("document.querySelector('.skip-link').href") == address + missing + "#main"
            page.click("main >> text=home page")
            page.wait_for_url(address)
            assert page.locator("link[rel=alternate][type='application/atom+xml']").count() == 1 and page.inner_text("h1") != "Page not found"
            assert page.evaluate("getComputedStyle(document.querySelector('main')).maxWidth") == "1120px"


QUOTATIONS = """() => {
    const mark = (style, i) => { const found = (style.quotes || '').match(/"[^"]*"/g); return found && found.length === 4 ? JSON.parse(found[i]) : '(' + style.quotes + ')'; };
    const quoted = [...document.querySelectorAll('q')].map(q => mark(getComputedStyle(q), 0) + q.textContent + mark(getComputedStyle(q), 1));
    const blocks = [...document.querySelectorAll('.own-words blockquote p')].map(p =>
        JSON.parse(getComputedStyle(p, '::before').content) + p.textContent + JSON.parse(getComputedStyle(p, '::after').content));
    return quoted.concat(blocks);
}"""


def test_a_quotation_inside_a_quotation_takes_single_marks(page, served):
    shown = {}
    for address in ("events/guaido-all-options/", "sources/ap-desertion-translation/", "people/jorge-torres/"):
        page.goto(served + address)
        shown[address] = page.evaluate(QUOTATIONS)
        inner = [text for text in shown[address] if re.search('[“”"]', text[1:-1]) or text[0] + text[-1] != "“”"]
        assert inner == [], address  # “ ” outside, ‘ ’ (and apostrophes) inside, no straight marks
    assert any("consider ‘all options’ to resolve" in text for text in shown["events/guaido-all-options/"])
    assert "“consider ‘all solutions’”" in shown["sources/ap-desertion-translation/"]  # stored with straight quotes
    assert "“We’re going to change history,’ Torres said. ‘We are history.”" in shown["people/jorge-torres/"]


MARKERS_AWAY_FROM_THEIR_WORD = """() => {
    const lastCharacter = node => {  // the rectangle of the last visible character of a node, or null after a space
        if (node.nodeType === 1 && node.matches('sup.citation')) return node.querySelector('a').getBoundingClientRect();
        let text = node.nodeType === 3 ? node : null;
        if (node.nodeType === 1) {
            const walker = document.createTreeWalker(node, NodeFilter.SHOW_TEXT);
            for (let t = walker.nextNode(); t; t = walker.nextNode()) if (t.textContent && !t.parentElement.closest('.preview')) text = t;
        }
        if (!text || !text.textContent || /\\s$/.test(text.textContent)) return null;
        const range = document.createRange();
        range.setStart(text, text.textContent.length - 1);
        range.setEnd(text, text.textContent.length);
        const rects = range.getClientRects();
        return rects[rects.length - 1] || null;
    };
    const away = [];
    for (const sup of document.querySelectorAll('main sup.citation')) {
        const before = sup.previousSibling && lastCharacter(sup.previousSibling);
        const mine = sup.querySelector('a').getClientRects()[0];
        if (before && mine && (mine.top >= before.bottom || mine.bottom <= before.top))
            away.push(sup.querySelector('a').textContent + ' after ' + JSON.stringify((sup.previousSibling.textContent || '').slice(-12)));
    }
    return away;
}"""


def test_citation_markers_stay_on_the_line_of_the_word_they_follow(browser, served):
    context = browser.new_context(viewport={"width": 390, "height": 844})
    page = context.new_page()
    for address in ("", "people/jorge-torres/", "events/aid-convoy-blocked/", "events/guaido-all-options/"):
        page.goto(served + address)
        for width in range(330, 431, 4):  # 390 px and the widths of other phones, so that many lines end near a marker
            page.set_viewport_size({"width": width, "height": 844})
            assert page.evaluate(MARKERS_AWAY_FROM_THEIR_WORD) == [], (address, width)
    context.close()


SHOWN_PREVIEWS = """() => [...document.querySelectorAll('.citation .preview')].filter(p => p.offsetParent !== null || getComputedStyle(p).display !== 'none')
    .map(p => { const r = p.getBoundingClientRect(); return {id: p.id, top: r.top, bottom: r.bottom, left: r.left, right: r.right}; })"""


REFERENCE_LIST = "(() => { const r = document.querySelector('.references ol').getBoundingClientRect(); return {top: r.top, bottom: r.bottom, left: r.left, right: r.right}; })()"


def overlaps(box: dict, other: dict) -> bool:
    return box["top"] < other["bottom"] and other["top"] < box["bottom"] and box["left"] < other["right"] and other["left"] < box["right"]


def test_on_a_phone_a_tap_on_a_marker_shows_and_hides_its_preview_and_never_covers_the_references(browser, served):
    context = browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True)
    page = context.new_page()
    page.goto(served + "people/jorge-torres/")
    marker = page.locator("main sup.citation >> nth=0 >> a >> nth=0")
    marker.scroll_into_view_if_needed()
    scrolled = page.evaluate("scrollY")
    marker.tap()
    shown = page.evaluate(SHOWN_PREVIEWS)
    assert [p["id"] for p in shown] == ["cite-ref-1-1-preview"]
    assert page.evaluate("[location.hash, scrollY]") == ["", scrolled]  # no jump to the reference list
    assert shown[0]["top"] >= 0 and shown[0]["bottom"] <= 844 and shown[0]["left"] >= 0 and shown[0]["right"] <= 390
    marker.tap()
    assert page.evaluate(SHOWN_PREVIEWS) == []
    marker.tap()
    page.locator("h1").tap()  # a tap elsewhere closes it too
    assert page.evaluate(SHOWN_PREVIEWS) == []
    page.focus("main sup.citation >> nth=0 >> a >> nth=0")  # following the marker's link from the keyboard
    page.keyboard.press("Enter")
    page.wait_for_function("location.hash === '#cite-note-1-1'")
    assert [p for p in page.evaluate(SHOWN_PREVIEWS) if overlaps(p, page.evaluate(REFERENCE_LIST))] == []
    context.close()
    context = browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True, java_script_enabled=False)
    page = context.new_page()
    page.goto(served + "people/jorge-torres/")
    page.locator("main sup.citation >> nth=0 >> a >> nth=0").tap()  # without script, a tap follows the link
    page.wait_for_function("location.hash === '#cite-note-1-1'")
    assert [p for p in page.evaluate(SHOWN_PREVIEWS) if overlaps(p, page.evaluate(REFERENCE_LIST))] == []
    context.close()


def test_a_citation_preview_near_the_bottom_of_the_window_stays_inside_it(page, served):
    page.set_viewport_size({"width": 1280, "height": 800})
    page.goto(served + "people/jorge-torres/")
    marker = page.evaluate("""() => {  // a marker far enough down the page to be scrolled to the window's bottom edge
        const sup = [...document.querySelectorAll('main .body sup.citation, main p sup.citation')].find(s => s.getBoundingClientRect().top > innerHeight);
        window.scrollBy(0, sup.getBoundingClientRect().bottom - (innerHeight - 24));
        return sup.id;
    }""")
    for how in ("hover", "focus"):
        page.mouse.move(1, 1)
        page.evaluate("document.activeElement && document.activeElement.blur()")
        getattr(page, how)(f"#{marker} a")
        shown = page.evaluate(SHOWN_PREVIEWS)
        assert [p["id"] for p in shown] == [f"{marker}-preview"], how
        assert shown[0]["top"] >= 0 and shown[0]["bottom"] <= 800, (how, shown[0])
