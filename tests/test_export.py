"""Exports and metadata: TimelineJS JSON, events CSV, Atom feed, sitemap, JSON-LD, Open Graph, canonical URLs."""

from __future__ import annotations

import csv
import io
import json
import re
import xml.etree.ElementTree as etree

import pytest

from dossier.pipeline import build

ATOM = "{http://www.w3.org/2005/Atom}"
EXTRA = {
    "content/events/later.md": "---\ntitle: Later\ndate: 2019-03~/2019-04\ntags: [numbers]\nsummary: Later on.\n---\n",
}


@pytest.fixture(scope="module")
def sites(tmp_path_factory):
    """The same small project built without and with a base URL."""
    from conftest import write_site

    root = write_site(tmp_path_factory.mktemp("export"), EXTRA)
    build(root, root / "plain")
    build(root, root / "public", base_url="https://example.org/dossier/")
    return root / "plain", root / "public"


def json_ld(html: str) -> dict:
    return json.loads(re.search(r'<script type="application/ld\+json">\n(.*?)\n</script>', html, re.S).group(1))


def test_timeline_json_is_in_the_timelinejs3_format(sites):
    data = json.loads((sites[0] / "data/timeline.json").read_text(encoding="utf-8"))
    assert data["title"]["text"]["headline"] == "Test dossier"
    assert data["events"] == [
        {"unique_id": "aid-convoy", "start_date": {"year": 2019, "month": 2, "day": 23}, "display_date": "23 February 2019",
         "text": {"headline": "Aid convoy", "text": "The convoy."}},
        {"unique_id": "later", "start_date": {"year": 2019, "month": 3}, "display_date": "c. March 2019 – April 2019",
         "text": {"headline": "Later", "text": "Later on."}, "end_date": {"year": 2019, "month": 4}, "group": "numbers"},
    ]
    public = json.loads((sites[1] / "data/timeline.json").read_text(encoding="utf-8"))
    assert public["events"][0]["text"]["text"] == 'The convoy. <a href="https://example.org/dossier/events/aid-convoy/">Read more</a>'


def test_events_csv_has_one_row_per_event_in_date_order(sites):
    rows = list(csv.DictReader(io.StringIO((sites[0] / "data/events.csv").read_text(encoding="utf-8"))))
    assert [row["id"] for row in rows] == ["aid-convoy", "later"]
    assert rows[0] | {"summary": ""} == {
        "id": "aid-convoy", "title": "Aid convoy", "date": "2019-02-23", "display_date": "23 February 2019", "start": "2019-02-23",
        "end": "2019-02-23", "approximate": "no", "date_basis": "stated", "date_note": "", "people": "jorge-torres", "places": "cucuta",
        "groups": "", "tags": "", "sources": "ap", "summary": "", "url": "events/aid-convoy/",
    }
    assert rows[1]["approximate"] == "yes" and rows[1]["end"] == "2019-04-30"


def test_the_atom_feed_has_one_entry_per_event_latest_first(sites):
    feed = etree.parse(sites[0] / "feed.xml").getroot()
    entries = feed.findall(f"{ATOM}entry")
    assert [e.findtext(f"{ATOM}title") for e in entries] == ["Later", "Aid convoy"]
    assert entries[1].find(f"{ATOM}link").get("href") == "events/aid-convoy/"
    assert entries[1].findtext(f"{ATOM}updated") == "2019-02-23T00:00:00Z"
    assert entries[1].findtext(f"{ATOM}id").startswith("urn:uuid:")
    assert feed.findtext(f"{ATOM}updated") == "2019-04-30T00:00:00Z" and feed.find(f"{ATOM}author/{ATOM}name").text == "Test dossier"
    public = etree.parse(sites[1] / "feed.xml").getroot()
    assert public.findall(f"{ATOM}entry")[1].findtext(f"{ATOM}id") == "https://example.org/dossier/events/aid-convoy/"
    assert public.find(f"{ATOM}link[@rel='self']").get("href") == "https://example.org/dossier/feed.xml"


def test_a_sitemap_needs_a_base_url(sites):
    assert not (sites[0] / "sitemap.xml").exists()
    locations = [loc.text for loc in etree.parse(sites[1] / "sitemap.xml").getroot().iter("{http://www.sitemaps.org/schemas/sitemap/0.9}loc")]
    assert "https://example.org/dossier/" in locations and "https://example.org/dossier/people/jorge-torres/" in locations
    assert not any(loc.endswith("404.html") for loc in locations)


def test_person_event_and_source_pages_carry_schema_org_json_ld_with_citations(sites):
    person = json_ld((sites[0] / "people/jorge-torres/index.html").read_text(encoding="utf-8"))
    subject, page = person["@graph"]
    assert subject["@type"] == "Person" and subject["name"] == "Jorge Torres" and subject["@id"] == "./#subject"
    assert page["@type"] == "ProfilePage" and page["about"] == {"@id": "./#subject"}
    assert page["citation"] == [{"@type": "NewsArticle", "headline": "AP story", "inLanguage": "en",
                                 "publisher": {"@type": "Organization", "name": "The Associated Press"}}]
    event = json_ld((sites[1] / "events/later/index.html").read_text(encoding="utf-8"))["@graph"][0]
    assert event == {"@type": "Event", "name": "Later", "description": "Later on.", "startDate": "2019-03", "endDate": "2019-04",
                     "keywords": "numbers", "@id": "https://example.org/dossier/events/later/#subject"}
    source = json_ld((sites[0] / "sources/ap/index.html").read_text(encoding="utf-8"))["@graph"][0]
    assert source["@type"] == "NewsArticle" and source["headline"] == "AP story"
    assert "application/ld+json" not in (sites[0] / "timeline/index.html").read_text(encoding="utf-8")


def test_open_graph_always_and_canonical_urls_only_with_a_base_url(sites):
    plain = (sites[0] / "people/jorge-torres/index.html").read_text(encoding="utf-8")
    assert '<meta property="og:type" content="profile">' in plain and '<meta property="og:title" content="Jorge Torres · Test dossier">' in plain
    assert 'rel="canonical"' not in plain and "og:url" not in plain
    public = (sites[1] / "people/jorge-torres/index.html").read_text(encoding="utf-8")
    assert '<link rel="canonical" href="https://example.org/dossier/people/jorge-torres/">' in public
    assert '<meta property="og:url" content="https://example.org/dossier/people/jorge-torres/">' in public


def test_the_base_url_option_must_be_a_web_address(make_site, capsys):
    from dossier.cli import main

    assert main(["build", "--source", str(make_site()), "--base-url", "example.org"]) == 2
    assert capsys.readouterr().err == "dossier: error: --base-url must start with https:// or http://, not 'example.org'\n"


def test_the_pages_workflow_builds_with_make_and_deploys_the_site_folder():
    import yaml

    from conftest import PROJECT

    workflow = yaml.safe_load((PROJECT / ".github/workflows/pages.yml").read_text(encoding="utf-8"))
    steps = workflow["jobs"]["build"]["steps"]
    assert any(step.get("run", "").startswith("make build") for step in steps)
    upload = next(step for step in steps if step.get("uses") == "actions/upload-pages-artifact@v3")
    assert upload["with"] == {"path": "site/"} and upload["if"] == "github.event_name != 'pull_request'"
    assert workflow["jobs"]["deploy"]["steps"][0]["uses"].startswith("actions/deploy-pages@")
    assert workflow["jobs"]["deploy"]["if"] == "github.event_name != 'pull_request'"  # a pull request is checked and built, not deployed


def test_records_json_puts_each_record_on_a_line_of_its_own():
    from dossier.render.export import records_json

    lists = {"people": [{"id": "a", "name": "Ana «Ñ»"}, {"id": "b", "quote": "line\nbreak, \"quoted\""}], "events": [], "sources": [{"id": "s"}]}
    text = records_json({name: iter(records) for name, records in lists.items()}).decode("utf-8")
    assert json.loads(text) == lists
    lines = text.splitlines()
    assert lines[0] == "{" and lines[-1] == "}" and text.endswith("}\n")
    assert [json.loads(line.rstrip(",")) for line in lines if line.startswith("{\"")] == [*lists["people"], *lists["sources"]]


def test_records_json_holds_little_more_than_the_export_while_encoding_it():
    """A large site's export is written into one buffer: its lines, kept and then joined, held the
    export twice over (80 MB for 35 MB at 10,000 records)."""
    import tracemalloc

    from dossier.render.export import records_json

    records = ({"id": f"record-{number}", "quote": "a passage of some forty words " * 8} for number in range(20000))
    tracemalloc.start()
    try:
        data = records_json({"citations": records}, "es")
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert len(data) > 4_000_000 and data.startswith(b'{\n"language": "es",\n"citations": [\n{"id": "record-0"')
    assert peak < 1.5 * len(data), f"encoding a {len(data):,}-byte export held {peak:,} bytes"
