"""The real documentary, built end to end: links, citations and cross-links all resolve."""

from __future__ import annotations

import json
import re

from conftest import PROJECT
from linkcheck import check_site

from dossier.pipeline import load
from dossier.passages import SeedText


def test_every_internal_link_and_fragment_resolves_and_nothing_loads_from_elsewhere(real_site):
    assert check_site(real_site) == []


def test_the_link_checker_catches_what_it_should(tmp_path):
    (tmp_path / "a").mkdir()
    (tmp_path / "a/index.html").write_text('<a href="../b/">x</a><a href="#nope">y</a><a href="/a/">z</a><script src="https://x.test/s.js"></script>', encoding="utf-8")
    assert check_site(tmp_path) == [
        "a/index.html: loads an external resource https://x.test/s.js",
        "a/index.html: broken link ../b/",
        "a/index.html: link #nope names a missing fragment",
        "a/index.html: rooted link /a/ breaks under a subpath",
    ]


def test_every_exported_citation_is_verbatim_in_its_seed(real_site):
    data = json.loads((real_site / "data/site.json").read_text(encoding="utf-8"))
    seeds = {s["id"]: SeedText((PROJECT / "seeds" / s["seed"]).read_text(encoding="utf-8")) for s in data["sources"]}
    assert data["citations"], "the real content cites nothing"
    for citation in data["citations"]:
        assert seeds[citation["source"]].locate(citation["quote"]) is not None, citation


def test_seeds_are_the_shared_articles_byte_for_byte():
    shared = PROJECT.parent / "shared" / "seeds"
    if not shared.is_dir():
        return
    ours = sorted(p.read_bytes() for p in (PROJECT / "seeds").iterdir())
    theirs = sorted(p.read_bytes() for p in shared.iterdir())
    assert ours == theirs


def test_the_required_records_exist_and_cross_link(real_site):
    site, problems = load(PROJECT)
    assert [p for p in problems if p.severity == "error"] == []
    for pid in ["jorge-torres", "jose-gomez", "jesus-parra", "juan-guaido"]:
        assert pid in site.records["people"]
    assert site.records["events"]["aid-convoy-blocked"].date.text == "2019-02-23"
    person = (real_site / "people/jorge-torres/index.html").read_text(encoding="utf-8")
    assert 'href="../../events/aid-convoy-blocked/"' in person
    event = (real_site / "events/aid-convoy-blocked/index.html").read_text(encoding="utf-8")
    assert 'href="../../people/jorge-torres/"' in event
    source = (real_site / "sources/ap-desertion/index.html").read_text(encoding="utf-8")
    assert re.search(r'<summary>Cited by \d+ pages?</summary>\s*<ul>.*href="../../people/jorge-torres/"', source)


def test_citation_markers_link_to_references_that_link_to_the_passage(real_site):
    html = (real_site / "people/jorge-torres/index.html").read_text(encoding="utf-8")
    marker = re.search(r'<sup class="citation" id="cite-ref-1-1"><a [^>]*href="#cite-note-1"', html)
    assert marker
    note = re.search(r'<li id="cite-note-1">(.*?)</li>', html, re.S).group(1)
    assert 'href="#cite-ref-1-1"' in note
    passage = re.search(r'href="../../sources/([a-z-]+)/#(passage-[0-9a-f]{10})"', note)
    source_html = (real_site / "sources" / passage.group(1) / "index.html").read_text(encoding="utf-8")
    assert f'id="{passage.group(2)}"' in source_html


def test_timeline_lists_every_event_grouped_by_year_and_month_in_date_order(real_site):
    from dossier.render import timeline_groups

    site, _ = load(PROJECT)
    html = (real_site / "timeline/index.html").read_text(encoding="utf-8")
    groups = timeline_groups(site)
    shown = [event.id for _, months in groups for _, events in months for event in events]
    assert sorted(shown) == sorted(site.records["events"])
    positions = [html.index(f'<li id="{eid}" ') for eid in shown]
    assert positions == sorted(positions)
    assert [year for year, _ in groups] == sorted(year for year, _ in groups)
    for _, months in groups:
        keys = [-1 if month is None else month for month, _ in months]
        assert keys == sorted(keys)
        for _, events in months:
            assert [e.date.sort_key() for e in events] == sorted(e.date.sort_key() for e in events)
