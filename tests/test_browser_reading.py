"""Reading in a real browser: a source page puts its article first, with compact "cited by" notes
beside each passage; provenance notes are a tap, hover or disclosure away from the reading text."""

from __future__ import annotations

import re

import pytest

from test_browser import documentary, served  # noqa: F401 (fixtures)

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
    toc = page.locator('nav[aria-label="Contents"]')  # one list of contents, not two
    assert toc.count() == 1 and toc.bounding_box()["y"] < 600 and page.locator("nav.page-toc").count() == 0
    for link in toc.locator("a").all():
        target = link.get_attribute("href")
        assert target.startswith("#") and page.locator(target).count() == 1, target


SHOWN_PROVENANCE = """() => {  // the text of the main column a reader sees, notes left out unless shown
    const hidden = el => { const r = el.getBoundingClientRect(); return r.width <= 1 || r.height <= 1 || !el.checkVisibility(); };
    const walker = document.createTreeWalker(document.querySelector('main'), NodeFilter.SHOW_TEXT);
    const seen = [];
    for (let t = walker.nextNode(); t; t = walker.nextNode()) if (t.textContent.trim() && !hidden(t.parentElement) && !t.parentElement.closest('.provenance-full')) seen.push(t.textContent);
    return seen.join(' ');
}"""


@pytest.mark.parametrize("address, crowding", [
    ("timeline/", "(inferred)"), ("people/jesus-parra/", "(year inferred)"), ("people/emmanuel-nunez/", "(year inferred)"), ("people/jorge-torres/", "(date inferred)"),
    ("events/angel-crosses/", "says Angel chose to 'leave the country on Feb. 28', without a year"), ("sources/ap-desertion-translation/", "This is the date of the translated version"),
])
def test_provenance_notes_are_a_tap_away_and_stay_in_the_text(page, served, address, crowding):
    page.set_viewport_size({"width": 1280, "height": 900})
    page.goto(served + address)
    assert crowding not in page.evaluate(SHOWN_PROVENANCE)
    marker = page.locator("main .prov-mark").first
    note = page.locator("main .prov-note").first
    assert marker.is_visible() and marker.text_content().strip() in ("inferred", "year inferred", "date inferred")
    assert page.evaluate("""n => { const s = getComputedStyle(n); return s.display !== 'none' && s.visibility !== 'hidden' && !n.closest('[aria-hidden=true]'); }""", note.element_handle())
    assert note.bounding_box() is None or note.bounding_box()["width"] <= 1  # in the text for screen readers, out of sight
    marker.click()
    assert note.bounding_box()["width"] > 50 and note.is_visible()
    page.keyboard.press("Escape")
    assert note.bounding_box()["width"] <= 1


def test_an_event_gives_its_date_note_in_full_with_its_sources(page, served):
    page.goto(served + "events/angel-crosses/")
    full = page.locator("#date-note")
    assert full.is_visible() and "says Angel chose to 'leave the country on Feb. 28', without a year" in full.text_content()
    assert page.evaluate("document.querySelector('#date-note').compareDocumentPosition(document.querySelector('.references')) & Node.DOCUMENT_POSITION_FOLLOWING")


def test_also_written_leaves_out_the_name_itself(page, served):
    page.goto(served + "people/jorge-torres/")
    assert page.locator(".infobox dt", has_text="Also written").count() == 0


def test_the_timeline_reads_in_order_known_months_first_then_the_year_s_unknown_month(page, served):
    page.goto(served + "timeline/")
    headings = page.eval_on_selector_all("h3[id^='month-']", "hs => hs.map(h => h.id)")
    for year in ("2018", "2019"):
        months = [h for h in headings if h.startswith(f"month-{year}-")]
        known = [h for h in months if not h.endswith("unknown")]
        assert months == known + [h for h in months if h.endswith("unknown")], year  # the unknown month last
        assert known == sorted(known), year
    assert "month-2018-unknown" in headings and "month-2019-05" in headings
    # The events spanning May to December sit in May, where they start, and say how far they run.
    assert "May–December 2019" in page.locator("#month-2019-05").locator("xpath=following-sibling::*[1]").inner_text()
    links = page.eval_on_selector_all(".timeline-tools a[href^='#month-']", "as => as.map(a => a.getAttribute('href').slice(1))")
    assert links == headings  # a link for each month group, in the page's order


def test_the_people_index_groups_people_by_their_part_and_sorts_by_surname(page, served):
    import unicodedata

    page.goto(served + "people/")
    groups = page.eval_on_selector_all("main h2[id^='part-']", "hs => hs.map(h => [h.id, h.innerText])")
    assert [g[0] for g in groups][:3] == ["part-defector", "part-official", "part-journalist"] and groups[-1][0] == "part-anonymous"
    assert all(text.rstrip().endswith(")") for _, text in groups)  # each heading gives its count
    defectors = page.locator("#part-defector").locator("xpath=following-sibling::ul[1]").locator("li > a").all_inner_texts()

    def surname(name: str) -> str:
        return unicodedata.normalize("NFD", name.split()[-1]).encode("ascii", "ignore").decode().casefold()

    assert len(defectors) > 5 and defectors == sorted(defectors, key=surname)


def test_a_sentence_never_leaves_a_bare_marker_where_it_needs_the_quoted_words(page, served):
    page.goto(served + "people/female-soldier/")
    text = page.locator("main .body").inner_text()
    for word in ("into", "has", "says", "reads", "said"):
        assert f" {word} [" not in text, word  # "into [6]": a marker standing in for the words
    assert "And I fight, why?" in text


def test_a_person_page_lists_the_same_words_once(page, served):
    page.goto(served + "people/jorge-torres/")
    quoted = page.eval_on_selector_all("main .body .shown-quote > q, main .own-words blockquote", "qs => qs.map(q => q.innerText.trim())")
    assert quoted and len(quoted) == len(set(quoted))


SUPPORT_GEOMETRY = """() => {  // each count of sources, and the words of its paragraph that it covers
    const boxes = [];
    for (const marker of document.querySelectorAll('main .support')) {
        const mine = marker.getBoundingClientRect();
        const walker = document.createTreeWalker(marker.closest('p, li'), NodeFilter.SHOW_TEXT);
        const covered = [];
        for (let t = walker.nextNode(); t; t = walker.nextNode()) {
            if (!t.textContent.trim() || t.parentElement.closest('.support, .preview')) continue;
            const range = document.createRange();
            range.selectNodeContents(t);
            for (const r of range.getClientRects())
                if (r.left < mine.right - 1 && mine.left < r.right - 1 && r.top < mine.bottom - 1 && mine.top < r.bottom - 1) covered.push(t.textContent.slice(0, 30));
        }
        boxes.push({right: mine.right, width: mine.width, covered: covered});
    }
    return {boxes: boxes, wide: document.documentElement.scrollWidth};
}"""


MARKER_DESCRIPTIONS = """() => [...document.querySelectorAll('main .body sup.citation > a')]
    .map(a => document.getElementById(a.getAttribute('aria-describedby')).textContent)"""
SHOWN_SUPPORT = "() => [...document.querySelectorAll('main .support')].filter(s => s.getClientRects().length).map(s => s.className)"


def test_a_sentence_s_support_is_in_its_markers_and_prints_after_it_only_where_it_tells_something(page, served):
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(served + "people/jorge-torres/")
    counts = page.locator("main .support").count()
    shown = page.evaluate(SHOWN_SUPPORT)
    assert counts >= 20 and len(shown) < counts / 2  # not a count after every sentence
    assert shown and all(kind in ("support several", "support derivative") for kind in shown)  # two sources or more, or a derivative alone
    descriptions = page.evaluate(MARKER_DESCRIPTIONS)  # what a screen reader hears on each marker, and what its preview shows
    assert len(descriptions) >= counts
    assert all(re.search(r"(one independent source supports|\d independent sources support|only a derivative source, a translation or copy, supports) this sentence$", d)
               for d in descriptions), descriptions
    # The reference list's switch prints every sentence's count, for the page and the next one; none covers a word.
    page.click(".support-switch button")
    assert page.get_attribute(".support-switch button", "aria-pressed") == "true" and len(page.evaluate(SHOWN_SUPPORT)) == counts
    geometry = page.evaluate(SUPPORT_GEOMETRY)
    assert geometry["wide"] <= 390 and [box for box in geometry["boxes"] if box["covered"] or box["right"] > 390] == []
    page.goto(served + "events/aid-convoy-blocked/")
    assert len(page.evaluate(SHOWN_SUPPORT)) == page.locator("main .support").count()
    page.click(".support-switch button")
    assert page.get_attribute(".support-switch button", "aria-pressed") == "false"
    # To the eye a short count; to a screen reader, after the sentence's last marker, the same in words.
    page.goto(served + "people/jorge-torres/")
    first = page.locator("main .support.several, main .support.derivative").first
    short, words = first.locator("[aria-hidden=true]").inner_text(), first.locator(".visually-hidden").inner_text().strip()
    assert re.fullmatch(r"\d sources|derivative only", short) and first.bounding_box()["width"] < 80
    assert re.fullmatch(r"\((\d independent sources support|only a derivative source, a translation or copy, supports) this sentence\)", words)
    # Tab goes from a citation marker to the next marker or link: neither a count nor a preview's passage is a stop of its own.
    page.locator("sup.citation >> nth=2 >> a >> nth=0").focus()
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.closest('.support, .preview')") is None


@pytest.mark.parametrize("address", ["", "people/jorge-torres/", "conflicts/weapons/"])
def test_a_sentence_s_anchor_takes_no_room_in_its_text(page, served, address):
    page.set_viewport_size({"width": 1280, "height": 900})
    page.goto(served + address)
    widths = page.eval_on_selector_all("main span.claim", "spans => spans.map(s => s.getBoundingClientRect().width)")
    assert widths and max(widths) <= 1  # an empty anchor: no box, border or padding before a sentence


def test_the_claims_pages_link_each_claim_to_its_sentence(page, served):
    page.goto(served + "claims/")
    page.get_by_role("link", name="2 independent sources").click()
    link = page.locator("ol.claims a").first
    target = link.get_attribute("href").split("#")[1]
    link.click()
    assert page.evaluate("location.hash") == "#" + target and page.locator("#" + target).count() == 1


INFOBOX_OVERFLOW = """() => ({wide: document.documentElement.scrollWidth,
    past: [...document.querySelectorAll('main .infobox *')].filter(e => e.getBoundingClientRect().right > e.closest('.infobox').getBoundingClientRect().right + 1)
          .map(e => e.tagName + ' ' + e.textContent.slice(0, 40))})"""


def test_a_source_s_long_address_stays_inside_its_box_at_390_px(page, served, documentary):
    page.set_viewport_size({"width": 390, "height": 844})
    for source in documentary.records["sources"]:  # the Post's address is one word of 140 characters
        page.goto(served + f"sources/{source}/")
        shown = page.evaluate(INFOBOX_OVERFLOW)
        assert shown == {"wide": 390, "past": []}, source


# The record pages of each kind, in both languages: at a phone's width the title, the lede and the infobox
# come one after the other and never overlap; at a desk's the infobox stands beside them.
RECORD_PAGES = ["people/jorge-torres/", "events/aid-convoy-blocked/", "places/cucuta/", "groups/venezuelan-national-guard/",
                "sources/ap-desertion/"]  # a conflict page has no infobox
HEAD_GEOMETRY = """() => {
    const box = s => { const el = document.querySelector(s); if (!el) return null; const r = el.getBoundingClientRect();
        return {top: r.top + scrollY, bottom: r.bottom + scrollY, left: r.left, right: r.right}; };
    const body = document.querySelector('main .body > p, main .article > p:not(.note)');
    return {title: box('main h1'), lede: box('main header .lede'), infobox: box('main .infobox'),  // a source has no lede
            body: body ? body.getBoundingClientRect().top + scrollY : null, wide: document.documentElement.scrollWidth};
}"""


def overlapping(a: dict, b: dict) -> bool:
    return a["top"] < b["bottom"] - 0.5 and b["top"] < a["bottom"] - 0.5 and a["left"] < b["right"] - 0.5 and b["left"] < a["right"] - 0.5


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("prefix", ["", "es/"], ids=["en", "es"])
def test_title_lede_and_infobox_never_overlap_and_come_in_reading_order(browser, served, prefix, scheme):
    for width in (390, 1280):
        context = browser.new_context(viewport={"width": width, "height": 844}, color_scheme=scheme)
        page = context.new_page()
        for address in RECORD_PAGES:
            page.goto(served + prefix + address)
            shown = page.evaluate(HEAD_GEOMETRY)
            where = f"{prefix}{address} at {width} px"
            assert shown["wide"] <= width, where
            title, infobox = shown["title"], shown["infobox"]
            lede = shown["lede"] or title  # a source page has no lede
            assert infobox is not None, where
            assert not overlapping(title, infobox) and not overlapping(lede, infobox), (where, shown)
            if width == 390:  # one after the other: the story's first words on the first screen
                assert (lede is title or title["bottom"] <= lede["top"] + 0.5) and lede["bottom"] <= infobox["top"] + 0.5, (where, shown)
                assert lede["top"] < 844 and (shown["body"] is None or shown["body"] > infobox["bottom"]), where
            else:  # the infobox beside the title and lede, level with the title
                assert infobox["left"] >= max(title["right"], lede["right"]) - 0.5 and abs(infobox["top"] - title["top"]) < 60, (where, shown)
        context.close()


def test_one_step_from_any_sentence_to_its_passage_and_support(browser, served):
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    page.goto(served + "events/aid-convoy-blocked/")
    markers = page.locator("main .body sup.citation")
    assert markers.count() >= 10
    for number in range(markers.count()):  # every marker: the passages it stands for and its sentence's support, on hover
        marker = markers.nth(number)
        marker.locator("a").first.hover()
        preview = marker.locator(".preview")
        assert preview.is_visible(), number
        assert preview.locator(".preview-passage").count() >= 1 and "this sentence" in preview.locator(".preview-support").inner_text()
    page.mouse.move(0, 0)
    marker = markers.nth(1)
    marker.locator("a").first.focus()  # the keyboard opens it too
    assert marker.locator(".preview").is_visible()
    marker.locator("a").first.hover()
    passage = marker.locator(".preview-passage").first
    quote = passage.inner_text().strip("“”")
    passage.click(position={"x": 8, "y": 8})  # and one click goes to the passage in its article, highlighted
    page.wait_for_url(re.compile(r"/sources/[a-z-]+/#passage-"))
    page.wait_for_timeout(100)
    highlighted = page.eval_on_selector_all("mark.target", "marks => marks.map(m => m.textContent).join('')")
    assert " ".join(highlighted.split()) == " ".join(quote.split())
    context.close()
