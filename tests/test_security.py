"""Nothing injected: hostile Markdown and front matter cannot put script into the published site.

The OWASP XSS filter-evasion cases (tests/data/owasp_xss.txt) go through the sanitiser alone, then
through whole person pages (body, every front-matter string, link labels, cited passages) and the
other record types; every built page is parsed and inspected by tests/htmlsafety.py.
"""

from __future__ import annotations

import html
import json
import xml.etree.ElementTree as ElementTree
from html.parser import HTMLParser
from pathlib import Path

import pytest
from htmlsafety import VECTORS, inspect_html, unsafe

from dossier.text.markup import BodyRenderer, sanitize
from dossier.pipeline import build

HOSTILE = '"><script>alert(1)</script> </script><script>alert(2)</script> \'><img src=x onerror=alert(3)> ]]><x/><!-- {{ 7*7 }} &amp;'


def test_the_vector_list_is_representative():
    assert len(VECTORS) >= 40
    text = "\n".join(VECTORS).lower()
    for family in ["<script", "onerror", "javascript:", "&#x6a", "&#0000106", "data:", "vbscript:", "<iframe", "<object", "<embed", "<style", "style=", "xlink:href", "<svg", "<noscript", "](javascript:"]:
        assert family in text, family


@pytest.mark.parametrize("vector", VECTORS)
def test_the_sanitiser_removes_every_owasp_vector(vector):
    markdown = BodyRenderer().md
    assert unsafe(sanitize(markdown.reset().convert(vector))) == []
    assert unsafe(sanitize(vector)) == []


def test_the_inspector_catches_the_vectors_when_nothing_sanitises():
    """Guards the guard: unsanitised, most raw vectors are flagged (the rest need Markdown or old browsers)."""
    flagged = [vector for vector in VECTORS if unsafe(vector)]
    assert len(flagged) >= 0.8 * len(VECTORS)


@pytest.mark.parametrize("url", [
    "javascript:alert(1)", "JaVaScRiPt:alert(1)", " javascript:alert(1)", "java\tscript:alert(1)",
    "&#106;avascript:alert(1)", "&#x6A;avascript:alert(1)", "&#0000106avascript:alert(1)", "javascript&colon;alert(1)",
    "java&#x09;script:alert(1)", "&#x20;javascript:alert(1)", "data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==",
    "DATA:text/html,<script>alert(1)</script>", "vbscript:msgbox(1)",
])
def test_script_and_data_urls_are_dropped_even_entity_encoded(url):
    html = sanitize(f'<a href="{url}">x</a><img src="{url}"><a href="https://example.org/">ok</a>')
    assert unsafe(html) == []
    assert html.count("href=") == 1 and 'href="https://example.org/"' in html


def test_ordinary_markup_survives_sanitising():
    html = sanitize('<p><a href="../x/" title="t">a</a> <em>b</em> <sup class="citation" id="cite-ref-1-1">1</sup></p><table><tr><td colspan="2">c</td></tr></table>')
    assert html == '<p><a href="../x/" title="t">a</a> <em>b</em> <sup class="citation" id="cite-ref-1-1">1</sup></p><table><tbody><tr><td colspan="2">c</td></tr></tbody></table>'


def yaml_text(text: str) -> str:
    """Quote any text as a YAML double-quoted scalar (JSON strings are valid YAML)."""
    return json.dumps(text)


def quote_text(text: str) -> str:
    """Escape text for a [@source "quote"] citation."""
    return text.replace("\\", "\\\\").replace('"', '\\"')


def hostile_files() -> dict[str, str]:
    """A project whose every person page carries one OWASP vector in every place text can go."""
    seed = "\n".join(VECTORS + [HOSTILE]) + "\n"
    files = {
        "content/site.yaml": f"title: {yaml_text('</title><script>alert(1)</script>' + HOSTILE)}\ndescription: {yaml_text(HOSTILE)}\nlanguage: en\nbase_url: {yaml_text('https://example.org/x/?q=' + HOSTILE.replace(' ', '+'))}\n",
        "seeds/hostile.txt": seed,
        "content/sources/hostile.yaml": (
            f"title: {yaml_text(HOSTILE)}\noutlet: {yaml_text(HOSTILE)}\nbyline: [{yaml_text(HOSTILE)}]\nlanguage: en\nseed: hostile.txt\n"
            f"url: {yaml_text('https://example.org/a?b=' + HOSTILE.replace(' ', '+'))}\nnotes: {yaml_text(HOSTILE + chr(10) * 2 + VECTORS[0])}\n"
        ),
        "content/events/hostile-event.md": (
            f"---\ntitle: {yaml_text(HOSTILE)}\ndate: 2019-02-23\ndate_note: {yaml_text(HOSTILE)}\npeople: [xss-000]\nsummary: {yaml_text(HOSTILE)}\n"
            f"figures:\n  - {{label: {yaml_text(HOSTILE)}, value: {yaml_text(HOSTILE)}, source: hostile, quote: {yaml_text(HOSTILE)}}}\n---\n{HOSTILE}\n"
        ),
        "content/places/hostile-place.md": f"---\nname: {yaml_text(HOSTILE)}\naliases: [{yaml_text(HOSTILE)}]\nkind: {yaml_text(HOSTILE)}\nsummary: {yaml_text(HOSTILE)}\n---\n{HOSTILE}\n",
        "content/groups/hostile-group.md": f"---\nname: {yaml_text(HOSTILE)}\nkind: {yaml_text(HOSTILE)}\nsummary: {yaml_text(HOSTILE)}\n---\n{HOSTILE}\n",
        "content/pages/about.md": f"---\ntitle: {yaml_text(HOSTILE)}\nsummary: {yaml_text(HOSTILE)}\n---\n{HOSTILE}\n",
    }
    for number, vector in enumerate(VECTORS):
        label = vector.replace("[", "(").replace("]", ")").replace("\n", " ")
        files[f"content/people/xss-{number:03d}.md"] = (
            f"---\nname: {yaml_text(vector)}\naliases: [{yaml_text(vector)}]\nsummary: {yaml_text(vector)}\nroles: [{yaml_text(vector)}]\n"
            f"affiliations: [hostile-group]\nplaces: [hostile-place]\nstatus: {yaml_text(vector)}\n"
            f"age: {{years: 30, as_of: '2019', source: hostile, quote: {yaml_text(vector)}}}\n---\n"
            f"{vector}\n\nCited.[@hostile \"{quote_text(vector)}\"] See [[hostile-event|{label}]].\n\n> {vector}\n\n- {vector}\n"
        )
    return files


class _Headings(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.h1: list[str] = []
        self._in = False

    def handle_starttag(self, tag, attrs):
        if tag == "h1":
            self._in = True
            self.h1.append("")

    def handle_endtag(self, tag):
        if tag == "h1":
            self._in = False

    def handle_data(self, data):
        if self._in:
            self.h1[-1] += data


@pytest.fixture(scope="module")
def hostile_site(tmp_path_factory) -> Path:
    from conftest import write_site

    root = write_site(tmp_path_factory.mktemp("hostile"), hostile_files(), base=False)
    build(root, root / "site")
    return root / "site"


def test_no_owasp_vector_survives_in_any_built_page(hostile_site):
    pages = sorted(hostile_site.rglob("*.html"))
    assert len(pages) > len(VECTORS)
    findings = {page.relative_to(hostile_site).as_posix(): unsafe(page.read_text(encoding="utf-8")) for page in pages}
    assert {page: found for page, found in findings.items() if found} == {}


def test_front_matter_is_shown_as_text_not_markup(hostile_site):
    for number, vector in enumerate(VECTORS):
        headings = _Headings()
        headings.feed((hostile_site / f"people/xss-{number:03d}/index.html").read_text(encoding="utf-8"))
        assert headings.h1 == [vector.strip()], vector
    for page in ["places/hostile-place/index.html", "groups/hostile-group/index.html", "events/hostile-event/index.html"]:
        headings = _Headings()
        headings.feed((hostile_site / page).read_text(encoding="utf-8"))
        assert headings.h1 == [HOSTILE], page


def test_the_json_export_round_trips_hostile_strings(hostile_site):
    data = json.loads((hostile_site / "data/site.json").read_text(encoding="utf-8"))
    assert sorted(person["name"] for person in data["people"]) == sorted(vector.strip() for vector in VECTORS)
    assert data["sources"][0]["title"] == HOSTILE


def test_the_timelinejs_export_carries_front_matter_as_escaped_html(hostile_site):
    """TimelineJS shows headline and text as HTML, so they must arrive escaped."""
    data = json.loads((hostile_site / "data/timeline.json").read_text(encoding="utf-8"))
    fields = [data["title"]["text"]["headline"], data["title"]["text"]["text"]]
    for event in data["events"]:
        fields += [event["text"]["headline"], event["text"]["text"], event["display_date"]]
    assert [field for field in fields if unsafe(field) or "<script" in field.lower()] == []
    event = next(e for e in data["events"] if e["unique_id"] == "hostile-event")
    assert html.unescape(event["text"]["headline"]) == HOSTILE


def structured_data(site: Path) -> list[tuple[str, str]]:
    """Return (page, raw JSON-LD) for every JSON-LD block of the site."""
    return [(page.relative_to(site).as_posix(), raw) for page in sorted(site.rglob("*.html")) for raw in inspect_html(page.read_text(encoding="utf-8"))[1]]


def feeds(site: Path) -> list[Path]:
    """Return the site's feed files (Atom or RSS), if it has any."""
    return sorted(p for p in site.rglob("*") if p.suffix in (".xml", ".atom", ".rss") and p.is_file())


def feed_problems(feed: Path) -> list[str]:
    """Parse a feed as XML and inspect every piece of HTML it carries."""
    try:
        tree = ElementTree.parse(feed)
    except ElementTree.ParseError as error:
        return [f"{feed.name} is not well-formed XML: {error}"]
    problems = []
    for element in tree.iter():
        name = element.tag.rpartition("}")[2]
        atom = element.tag.startswith("{http://www.w3.org/2005/Atom}")
        is_html = element.get("type") in ("html", "text/html") if atom else name in ("description", "encoded")
        if is_html and element.text:
            problems += [f"{feed.name} <{name}>: {finding}" for finding in unsafe(element.text)]
        if element.get("type") == "xhtml":
            problems += [f"{feed.name} <{name}>: {finding}" for finding in unsafe(ElementTree.tostring(element, encoding="unicode"))]
    return problems


def test_json_ld_stays_inside_its_script_element_and_keeps_hostile_strings(hostile_site):
    blocks = structured_data(hostile_site)
    if not blocks:
        pytest.skip("the site has no JSON-LD yet")
    for page, raw in blocks:
        assert "</" not in raw and "<!--" not in raw, page
        json.loads(raw)
    person = [json.loads(raw) for page, raw in blocks if page == "people/xss-000/index.html"]
    assert VECTORS[0] in json.dumps(person, ensure_ascii=False)


def test_feeds_are_well_formed_and_carry_no_script(hostile_site):
    found = feeds(hostile_site)
    if not found:
        pytest.skip("the site has no feed yet")
    assert [problem for feed in found for problem in feed_problems(feed)] == []
    assert any(HOSTILE in "".join(ElementTree.parse(feed).getroot().itertext()) for feed in found)


def test_the_real_site_has_valid_json_ld_and_feeds_and_nothing_unsafe(real_site):
    findings, blocks = {}, []
    for page in sorted(real_site.rglob("*.html")):
        found, json_ld = inspect_html(page.read_text(encoding="utf-8"))
        findings[page.relative_to(real_site).as_posix()] = found
        blocks += json_ld
    assert {page: found for page, found in findings.items() if found} == {}
    for raw in blocks:
        assert "</" not in raw and "<!--" not in raw
        json.loads(raw)
    assert [problem for feed in feeds(real_site) for problem in feed_problems(feed)] == []
