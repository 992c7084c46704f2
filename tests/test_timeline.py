"""Timeline filters and the SVG axis: one page per filter, marks drawn at each date's precision."""

from __future__ import annotations

import re
from urllib.parse import urljoin

import pytest

from dossier.pipeline import build, load
from dossier.render.pages import Renderer
from dossier.render.axis import axis_svg, lanes
from dossier.render.timeline import timeline_filters

EVENTS = {  # a filter page for every record of an event (default: more than 5), to see what filter pages hold
    "content/site.yaml": "title: Test dossier\nlanguage: en\ntimeline: {filter_pages_over: 0}\n",
    "content/events/day.md": "---\ntitle: A day\ndate: 2019-02-23\npeople: [jorge-torres]\nplaces: [cucuta]\ntags: [aid]\nsummary: S.\n---\n",
    "content/events/month.md": "---\ntitle: A month\ndate: 2019-03\ntags: [aid, numbers]\nsummary: S.\n---\n",
    "content/events/rough.md": "---\ntitle: Roughly April\ndate: 2019-04~\nsummary: S.\n---\n",
    "content/events/span.md": "---\ntitle: A span\ndate: 2019-02-23/2019-02-25\npeople: [jorge-torres]\nsummary: S.\n---\n",
}


@pytest.fixture(scope="module")
def timeline_site(tmp_path_factory):
    from conftest import write_site

    root = write_site(tmp_path_factory.mktemp("timeline"), EVENTS)
    build(root, root / "site")
    return root


def test_every_person_place_group_and_tag_with_events_has_a_filter_page(timeline_site):
    site, _ = load(timeline_site)
    filters = timeline_filters(site)
    assert [f.key for f in filters["people"]] == ["people:jorge-torres"]
    assert [f.key for f in filters["places"]] == ["places:cucuta"]
    assert [f.key for f in filters["tags"]] == ["tags:aid", "tags:numbers"]
    assert filters["people"][0].events == ("aid-convoy", "day", "span")
    for group in filters.values():
        for active in group:
            assert (timeline_site / "site" / active.url / "index.html").is_file(), active.url


def test_a_filter_page_lists_only_its_events_and_says_so(timeline_site):
    html = (timeline_site / "site/timeline/tags/aid/index.html").read_text(encoding="utf-8")
    assert re.findall(r'<li id="([a-z-]+)" data-people', html) == ["day", "month"]
    assert "<h1 id=\"timeline-title\">Timeline: events tagged aid</h1>" in html
    assert "Showing 2 events, tagged aid." in html
    assert 'class="filters"' not in html and 'data-filter="people:' not in html  # the list of every filter is on the full timeline only
    assert 'The <a href="../../../timeline/">full timeline</a> lists a filter' in html


def test_the_full_timeline_carries_what_filtering_in_place_needs(timeline_site):
    html = (timeline_site / "site/timeline/index.html").read_text(encoding="utf-8")
    assert 'data-all-events' in html and 'src="../static/timeline.js"' in html
    assert '<li id="day" data-people="jorge-torres" data-groups="" data-places="cucuta" data-tags="aid">' in html
    assert '<a class="permalink" href="#day">' in html
    assert '<a href="#year-2019">2019</a>: <a href="#month-2019-02">Feb</a>' in html


def test_the_axis_draws_a_point_for_a_day_a_bar_for_a_month_or_range_and_blurs_approximate_dates(timeline_site):
    html = (timeline_site / "site/timeline/index.html").read_text(encoding="utf-8")
    marks = {event: classes for classes, event in re.findall(r'<g class="([a-z ]+)" data-event="([a-z-]+)"', html)}
    assert marks == {"aid-convoy": "mark point", "day": "mark point", "span": "mark bar", "month": "mark bar", "rough": "mark bar fuzzy"}
    filtered = (timeline_site / "site/timeline/people/jorge-torres/index.html").read_text(encoding="utf-8")
    filtered_marks = re.findall(r'<a href="#([a-z-]+)" aria-label="[^"]+"><g class="([a-z ]+)" data-event="\1"', filtered.split('axis-tall')[0])
    assert filtered_marks == [("aid-convoy", "mark point"), ("day", "mark point"), ("span", "mark bar")]  # its own events only


def test_events_that_overlap_stack_in_lanes_and_others_share_the_lowest():
    assert lanes([(0, 10), (5, 15), (12, 20), (30, 40)]) == [0, 1, 0, 0]


def test_a_site_without_events_has_no_axis(make_site):
    root = make_site({"content/events/aid-convoy.md": None})
    site, _ = load(root)
    assert axis_svg(site, None, lambda url: url) == ""


def rendered_entries(renderer: Renderer) -> tuple[list[str], dict[str, str]]:
    """Render a site's timeline pages, noting each event whose entry the entry's template renders."""
    rendered: list[str] = []
    template = renderer.env.get_template("timeline_event.html")
    original = template.render
    template.render = lambda **values: rendered.append(values["event"].id) or original(**values)  # type: ignore[method-assign]
    pages = {path: render().decode("utf-8") for path, render in renderer.pages().items() if path.startswith("timeline/")}
    return rendered, pages


def test_an_events_entry_is_rendered_once_for_every_page_that_lists_it(timeline_site):
    site, _ = load(timeline_site)
    rendered, pages = rendered_entries(Renderer(site, timeline_site / "templates"))
    listed = sum(len(re.findall(r'<li id="[a-z-]+" data-people', html)) for html in pages.values())
    assert sorted(rendered) == sorted(site.timeline)  # the filter pages' permalinks are filled in by each page
    assert listed > len(rendered)
    assert (timeline_site / "site/timeline/tags/aid/index.html").read_text(encoding="utf-8") == pages["timeline/tags/aid/index.html"]
    assert '<a class="permalink" href="../../../timeline/#day">' in pages["timeline/tags/aid/index.html"]
    assert '<a class="permalink" href="#day">' in pages["timeline/index.html"]


ENTRY = '<li id="{{ event.id }}">{{ "on a filter page" if filtered else "in full" }}</li>\n'


@pytest.mark.parametrize("templates", [{"timeline_event.html": ENTRY}, {"timeline_event.html": '{% include "entry.html" %}', "entry.html": ENTRY}],
                         ids=["itself", "through-an-include"])
def test_a_project_entry_template_that_reads_filtered_is_rendered_again_for_the_filter_pages(timeline_site, tmp_path, templates):
    site, _ = load(timeline_site)
    for name, text in templates.items():
        (tmp_path / name).write_text(text, encoding="utf-8")
    rendered, pages = rendered_entries(Renderer(site, tmp_path))
    # Each event once on the full timeline and once for all the filter pages, which lie at the same depth.
    assert sorted(rendered) == sorted([*site.timeline, *{e for f in timeline_filters(site).values() for a in f for e in a.events}])
    assert '<li id="day">on a filter page</li>' in pages["timeline/tags/aid/index.html"]
    assert '<li id="day">in full</li>' in pages["timeline/index.html"]


SPANS = {
    "content/events/bare-year.md": "---\ntitle: Some time in 2019\ndate: 2019\ntags: [aid]\nsummary: S.\n---\n",
    "content/events/long.md": "---\ntitle: Adrift\ndate: 2019-05/2019-12\ntags: [aid]\nsummary: S.\n---\n",
    "content/events/born.md": "---\ntitle: Born\ndate: 2019-02-28/2019-04-06\ntags: [aid]\nsummary: S.\n---\n",
    "content/events/late.md": "---\ntitle: Late\ndate: 2019-12-01\ntags: [aid]\nsummary: S.\n---\n",
    "content/events/march.md": "---\ntitle: March\ndate: 2019-03\ntags: [aid]\nsummary: S.\n---\n",
}


def month_headings(html: str) -> list[tuple[str, str]]:
    return re.findall(r'<h3 id="(month-[0-9a-z-]+)">([^<]*)</h3>', html)


def test_a_span_is_placed_at_its_first_month_and_unknown_months_come_last(make_site):
    root = make_site(SPANS)
    build(root, root / "site")
    for page in ("timeline/", "timeline/tags/aid/"):
        html = (root / "site" / page / "index.html").read_text(encoding="utf-8")
        expected = [("month-2019-02", "February 2019"), ("month-2019-03", "March 2019"), ("month-2019-05", "May 2019"),
                    ("month-2019-12", "December 2019"), ("month-2019-unknown", "2019, month not known")]
        shown = month_headings(html)
        assert shown == expected, page
        entries = re.findall(r'<li id="([a-z-]+)" data-people', html)
        assert entries.index("born") < entries.index("march") < entries.index("long") < entries.index("late") < entries.index("bare-year"), page
        long_entry = html[html.index('<li id="long"'):]
        assert "May–December 2019</time>" in long_entry[:400]
        nav = re.search(r'<nav class="year-nav".*?</nav>', html, re.S).group(0)
        links = re.findall(r'href="#(month-2019-[0-9a-z]+)"', nav)
        assert links == [h[0] for h in shown], page  # every group with a heading, in order


def test_a_large_timeline_is_split_by_year_then_month_and_every_event_is_reachable_without_javascript(make_site, monkeypatch):
    monkeypatch.setattr("dossier.render.timeline.PAGE_EVENTS", 3)
    root = make_site({**EVENTS, **SPANS, "content/events/old.md": "---\ntitle: Old\ndate: 2013-05-02\ntags: [aid]\nsummary: S.\n---\n"})
    build(root, root / "site")
    site = root / "site"
    overview = (site / "timeline/index.html").read_text(encoding="utf-8")
    assert "data-all-events" not in overview and '<li id="' not in overview and 'class="axis' not in overview
    assert re.findall(r'<li><a href="../timeline/([0-9]+/)">([0-9]+)</a> <span class="count">([0-9]+) events?</span>', overview) == [
        ("2013/", "2013", "1"), ("2019/", "2019", "10")]
    assert '<a href="../timeline/people/">People</a>' in overview  # the filters, a page per facet
    # From the overview, the links to years and months reach every event once, without JavaScript.
    found, queue, seen = [], ["timeline/"], {"timeline/"}
    while queue:
        url = queue.pop(0)
        html = (site / url / "index.html").read_text(encoding="utf-8")
        found += re.findall(r'<li id="([a-z-]+)" data-people', html)
        for link in re.findall(r'<a href="([./]*timeline/[0-9][0-9a-z/-]*/)"', html):
            target = urljoin("/" + url, link).lstrip("/")
            if target not in seen:
                seen.add(target)
                queue.append(target)
    assert sorted(found) == sorted(load(root)[0].timeline)
    march = (site / "timeline/2019/03/index.html").read_text(encoding="utf-8")
    assert "<h1 id=\"timeline-title\">Timeline: March 2019</h1>" in march and "Showing 2 of the 11 events: March 2019." in march
    assert re.findall(r'<li id="([a-z-]+)" data-people', march) == ["march", "month"]
    assert '<a href="../../../timeline/2019/02/" rel="prev">← February 2019</a>' in march and '<a href="../../../timeline/2019/04/" rel="next">April 2019 →</a>' in march
    assert '<a href="#march" aria-label=' in march  # its axis draws its own events
    # An event's page and its entry on a filter's pages link to the page of the timeline that lists it.
    assert '<a href="../../timeline/2019/03/#march">on the timeline</a>' in (site / "events/march/index.html").read_text(encoding="utf-8")
    tag = (site / "timeline/tags/aid/2019/03/index.html").read_text(encoding="utf-8")  # a filter's page of its own is split too
    assert '<a class="permalink" href="../../../../../timeline/2019/03/#march">' in tag
    assert (site / "timeline/2013/index.html").is_file() and not (site / "timeline/2013/05").exists()  # a small year is one page
    assert "jorge-torres/" in (site / "timeline/people/index.html").read_text(encoding="utf-8")


def test_a_timeline_of_a_documentarys_size_stays_one_page(timeline_site):
    assert not (timeline_site / "site/timeline/2019").exists()


@pytest.fixture(scope="module")
def large_site(tmp_path_factory):
    """The benchmark's generated project of 1,000 entities."""
    import subprocess
    import sys
    from pathlib import Path

    root = tmp_path_factory.mktemp("large") / "large"
    generate = Path(__file__).resolve().parent.parent / "benchmarks/generate.py"
    subprocess.run([sys.executable, str(generate), "1000", str(root)], check=True, capture_output=True)
    return root


def loaded(root):
    from dossier.incremental.session import Session

    session = Session(root)
    session.load()
    return session


def test_no_page_of_a_large_generated_site_is_over_1_mb(large_site):
    """At 1,000 entities (the benchmark's project) a single timeline page would hold 1.2 MB (12 MB at
    10,000); split, a timeline page lists at most PAGE_EVENTS events however large the site."""
    session = loaded(large_site)
    paths, _ = session.output.plan(session.site, session.root / "templates")
    # The pages that grow with the site: the timeline's and the lists (a record's page holds its own content).
    sizes = {path: len(session.output.pages[path]()) for path in paths if path.startswith("timeline/") or path.count("/") < 2}
    assert max(sizes.values()) < 1_000_000, max(sizes, key=sizes.get)
    assert sizes["timeline/index.html"] < 100_000  # the overview: years, months, counts
    lists = {path: size for path, size in sizes.items() if not path.startswith("timeline/")}
    assert max(lists.values()) < 100_000, max(lists, key=lists.get)  # they grow with the site: ten times as many records, ten times the size


def test_a_cold_builds_timeline_entries_are_rendered_before_its_pages_and_only_once(large_site):
    """The rendering processes share the entries rendered before they fork (render_entries_once): no
    timeline page renders one of its own, and each page is what it would be without them."""
    from dossier.render.timeline import render_entries_once

    session, plain = loaded(large_site), loaded(large_site)
    paths, _ = session.output.plan(session.site, session.root / "templates")
    plain.output.plan(plain.site, plain.root / "templates")
    timeline = [path for path in paths if path.startswith("timeline/")]
    render_entries_once(session.output.renderer, timeline, session.output.pages)
    entries = dict(session.output.renderer.timeline_entries)
    assert {filtered for _, filtered, _ in entries} == {False}  # one for every page: the package's template does not read filtered
    for path in timeline:
        assert session.output.pages[path]() == plain.output.pages[path](), path
    assert session.output.renderer.timeline_entries == entries  # none rendered again by a page
    plain.output.renderer.forget()
    render_entries_once(plain.output.renderer, timeline[1:], plain.output.pages)
    assert plain.output.renderer.timeline_entries == {}  # for all the pages of a timeline only (a cold build), never for a few


def test_a_record_of_few_events_has_no_filter_page_and_no_link_to_one(tmp_path):
    from conftest import write_site
    from linkcheck import check_site

    # Jorge Torres is in three events (the base project's convoy, the day and the span), Cúcuta in two:
    # over filter_pages_over: 2 the one has a filter page, the other not; by default (5) neither has.
    for name, timeline, paged in (("two", "timeline: {filter_pages_over: 2}\n", {"people:jorge-torres"}), ("default", "", set())):
        root = write_site(tmp_path / name, {**EVENTS, "content/site.yaml": "title: Test dossier\nlanguage: en\n" + timeline})
        build(root, root / "site")
        site = root / "site"
        filters = {f.key: f for group in timeline_filters(load(root)[0]).values() for f in group}
        assert {key for key, f in filters.items() if f.paged and not key.startswith("tags:")} == paged
        assert (site / "timeline/people/jorge-torres/index.html").is_file() == bool(paged)
        assert not (site / "timeline/places/cucuta").exists()
        full = (site / "timeline/index.html").read_text(encoding="utf-8")
        person = (site / "people/jorge-torres/index.html").read_text(encoding="utf-8")
        if paged:
            assert 'href="../timeline/people/jorge-torres/" data-filter="people:jorge-torres" data-phrase="involving Jorge Torres">' in full
            assert 'href="../../timeline/people/jorge-torres/">Jorge Torres on the full timeline</a>' in person
        else:  # without JavaScript the filter goes to the page that lists the events; with it, it filters in place
            assert 'href="../people/jorge-torres/" data-filter="people:jorge-torres" data-phrase="involving Jorge Torres" data-record>' in full
            assert "on the full timeline" not in person
        assert 'href="../places/cucuta/" data-filter="places:cucuta" data-phrase="at Cúcuta" data-record>' in full
        assert (site / "timeline/tags/aid/index.html").is_file()  # a tag has no page of its own: it keeps its filter page
        assert check_site(site) == []
