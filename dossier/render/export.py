"""Exports and web metadata: TimelineJS JSON, events CSV, Atom feed, sitemap, schema.org JSON-LD.

Everything here is pure: it takes the linked Site and returns bytes or markup for the renderer.
"""

from __future__ import annotations

import csv
import io
import json
import uuid
import xml.etree.ElementTree as etree
from typing import Any, Iterable, Iterator

from markupsafe import Markup, escape

from ..model.dates import Point
from ..model.i18n import display_date, translations
from ..check.link import Site
from .reads import SiteReads, token, unwrap
from ..model.schema import Event, Person, Record, Source

ATOM = "http://www.w3.org/2005/Atom"
SITEMAP = "http://www.sitemaps.org/schemas/sitemap/0.9"


def absolute(site: Site, url: str) -> str | None:
    """Return the public address of a site URL when a base URL is configured, else None."""
    base = site.config.base_url
    if not base:
        return None
    return base.rstrip("/") + "/" + url


def event_of(site: Site, eid: str) -> Event:
    """Return the event with this id."""
    event = site.records["events"][eid]
    assert isinstance(event, Event)
    return event


def event_sources(site: Site, event: Event) -> list[str]:
    """Return the ids of the sources an event's page cites, sorted."""
    return sorted({c.source for c in site.citations.get(("events", event.id), [])})


def records_json(lists: dict[str, Iterable[dict[str, Any]]], language: str | None = None) -> bytes:
    """Return a JSON object of named lists of records, each record on a line of its own: readable,
    diffable line by line, and encoded one record at a time into one buffer (a large site's export
    never exists as one tree of Python objects, nor as its lines and their join: 80 MB at 10,000
    records, for 35 MB of export)."""
    out = io.BytesIO()
    out.write(b"{\n" + (f"\"language\": {json.dumps(language)},\n".encode() if language else b""))
    for number, (name, records) in enumerate(lists.items()):
        out.write(json.dumps(name).encode() + b": [")
        separator = b"\n"
        for record in records:  # each as bytes: a str of two or four bytes a character, then encoded, took more again
            out.write(separator + json.dumps(record, ensure_ascii=False).encode("utf-8"))
            separator = b",\n"
        out.write(b"\n]" + (b",\n" if number < len(lists) - 1 else b"\n"))
    out.write(b"}\n")
    return out.getvalue()  # the buffer itself, not a copy


def timelinejs_date(point: Point) -> dict[str, int]:
    """Return a TimelineJS3 date object at the point's precision (seasons and decades give their first month or year)."""
    first = point.earliest()
    date = {"year": first.year}
    if point.precision in ("day", "month", "season"):
        date["month"] = first.month
    if point.precision == "day":
        date["day"] = first.day
    return date


def timeline_json(site: Site, lang: str | None = None, prefix: str = "") -> bytes:
    """Return data/timeline.json in the TimelineJS3 JSON format, so the timeline can be embedded; in a
    language of a site of several (lang, with its pages under prefix), saying which."""
    events = []
    for eid in site.timeline:
        event = event_of(site, eid)
        start = event.date.start or event.date.end
        assert start is not None
        # TimelineJS shows headline and text as HTML: what content wrote goes in escaped.
        text = str(escape(str(event.summary)))  # str(): a summary left untranslated goes in as text (its mark is the pages')
        link = absolute(site, prefix + event.page_url)
        if link:
            text += f' <a href="{escape(link)}">{escape(translations(lang or "en").gettext("Read more"))}</a>'
        entry: dict[str, Any] = {
            "unique_id": event.id,
            "start_date": timelinejs_date(start),
            "display_date": str(escape(display_date(event.date, lang or "en"))),
            "text": {"headline": str(escape(str(event.title))), "text": text},
        }
        if event.date.is_interval and event.date.end:
            entry["end_date"] = timelinejs_date(event.date.end)
        if event.tags:
            entry["group"] = event.tags[0]
        events.append(entry)
    data = {"title": {"text": {"headline": str(escape(str(site.config.title))), "text": str(escape(str(site.config.description or "")))}}, "events": events}
    if lang:
        data = {"language": lang, **data}
    return (json.dumps(data, ensure_ascii=False, indent=1) + "\n").encode("utf-8")


def events_csv(site: Site, lang: str | None = None, prefix: str = "") -> bytes:
    """Return data/events.csv: one row per event in date order, lists joined with '; '."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(["id", "title", "date", "display_date", "start", "end", "approximate", "date_basis", "date_note",
                     "people", "places", "groups", "tags", "sources", "summary", "url"])
    for eid in site.timeline:
        event = event_of(site, eid)
        first, last = event.date.earliest(), event.date.latest()
        writer.writerow([
            event.id, event.title, event.date.text, display_date(event.date, lang or "en"), first.isoformat() if first else "",
            last.isoformat() if last else "", "yes" if event.date.approximate else "no", event.date_basis, event.date_note or "",
            "; ".join(event.people), "; ".join(event.places), "; ".join(event.groups), "; ".join(event.tags),
            "; ".join(event_sources(site, event)), event.summary, absolute(site, prefix + event.page_url) or event.page_url,
        ])
    return buffer.getvalue().encode("utf-8")


def entry_updated(event: Event) -> str:
    """Return an event's Atom time stamp: the last day its date can mean (builds stay reproducible)."""
    last = event.date.latest() or event.date.earliest()
    assert last is not None
    return f"{last.isoformat()}T00:00:00Z"


def feed_id(site: Site, url: str) -> str:
    """Return a permanent Atom id: the public address, or a name-based UUID without a base URL."""
    return absolute(site, url) or uuid.uuid5(uuid.NAMESPACE_URL, f"dossier:{site.config.title}:{url}").urn


def atom_feed(site: Site, lang: str | None = None, prefix: str = "") -> bytes:
    """Return feed.xml: an Atom feed with one entry per event, latest first (in a language of a site of several: its own feed)."""
    etree.register_namespace("", ATOM)
    feed = etree.Element(f"{{{ATOM}}}feed", {"{http://www.w3.org/XML/1998/namespace}lang": lang or site.config.language})

    def add(parent: etree.Element, tag: str, text: str | None = None, **attributes: str) -> etree.Element:
        element = etree.SubElement(parent, f"{{{ATOM}}}{tag}", attributes)
        element.text = text
        return element

    events = [event_of(site, eid) for eid in reversed(site.timeline)]
    add(feed, "title", site.config.title)
    if site.config.description:
        add(feed, "subtitle", site.config.description)
    add(feed, "id", feed_id(site, prefix))
    add(feed, "updated", max((entry_updated(e) for e in events), default="1970-01-01T00:00:00Z"))
    add(feed, "link", href=absolute(site, prefix) or "./")
    if site.config.base_url:
        add(feed, "link", rel="self", href=absolute(site, prefix + "feed.xml") or "")
    author = add(feed, "author")
    add(author, "name", site.config.title)
    add(feed, "generator", "dossier")
    for event in events:
        entry = add(feed, "entry")
        add(entry, "title", event.title)
        add(entry, "id", feed_id(site, prefix + event.page_url))
        add(entry, "updated", entry_updated(event))
        add(entry, "link", href=absolute(site, prefix + event.page_url) or event.page_url)
        # As escaped HTML, so that a reader that renders summaries as HTML still shows markup-like text as text.
        add(entry, "summary", str(escape(f"{display_date(event.date, lang or 'en')}. {event.summary}")), type="html")
        for tag in event.tags:
            add(entry, "category", term=tag)
    etree.indent(feed)
    return b'<?xml version="1.0" encoding="utf-8"?>\n' + etree.tostring(feed, encoding="utf-8", xml_declaration=False) + b"\n"


def sitemap(site: Site, paths: list[str]) -> bytes | None:
    """Return sitemap.xml listing every page, or None without a base URL (a sitemap needs full addresses)."""
    if not site.config.base_url:
        return None
    etree.register_namespace("", SITEMAP)
    urlset = etree.Element(f"{{{SITEMAP}}}urlset")
    for path in sorted(paths):
        if not path.endswith(".html") or path.endswith("404.html"):  # every language's page for a missing address
            continue
        url = path[: -len("index.html")] if path.endswith("index.html") else path
        location = etree.SubElement(etree.SubElement(urlset, f"{{{SITEMAP}}}url"), f"{{{SITEMAP}}}loc")
        location.text = absolute(site, url)
    etree.indent(urlset)
    return b'<?xml version="1.0" encoding="utf-8"?>\n' + etree.tostring(urlset, encoding="utf-8") + b"\n"


def exports(site: Site, paths: list[str], lang: str | None = None, prefix: str = "") -> dict[str, bytes]:
    """Return every export file by output path; paths are the pages already rendered (for the sitemap).
    A site of several languages has its exports in each (lang), the first's at the root and every
    other's under its prefix ('es/'), each saying its language; one sitemap lists every page."""
    files = {"data/site.json": site_json(site, lang), "data/timeline.json": timeline_json(site, lang, prefix),
             "data/events.csv": events_csv(site, lang, prefix), "feed.xml": atom_feed(site, lang, prefix)}
    files = {prefix + path: data for path, data in files.items()}
    map_ = sitemap(site, paths) if not prefix else None
    if map_ is not None:
        files["sitemap.xml"] = map_
    return files


def article(site: Site, source: Source) -> dict[str, Any]:
    """Return a source as a schema.org NewsArticle."""
    node: dict[str, Any] = {"@type": "NewsArticle", "headline": source.title, "inLanguage": source.language,
                            "publisher": {"@type": "Organization", "name": source.outlet}}
    if source.byline:
        node["author"] = [{"@type": "Person", "name": name} for name in source.byline]
    if source.published and source.published.start and not source.published.is_interval:
        node["datePublished"] = source.published.start.iso()
    if source.url:
        node["url"] = source.url
    if source.derived_from and source.derived_from in site.records["sources"]:
        original = site.records["sources"][source.derived_from]
        assert isinstance(original, Source)
        node["isBasedOn"] = article(site, original)
    return node


_ARTICLES: dict[int, tuple[Source, tuple, str]] = {}  # by source: the source, the chain of its originals, its article as JSON


def article_json(site: Site, source: Source) -> str:
    """Return a source's article (article()) as JSON text, written once for every page that cites it.
    A page that takes it written reads what writing it reads: the source and its originals (reads.py)."""
    source = unwrap(source)
    records = (site.site if isinstance(site, SiteReads) else site).records["sources"]
    chain: list[Any] = []
    seen, derived_from = {source.id}, source.derived_from
    while derived_from and derived_from in records and derived_from not in seen:  # as article() follows them
        chain.append(records[derived_from])
        seen.add(derived_from)
        derived_from = getattr(records[derived_from], "derived_from", None)
    found = _ARTICLES.get(id(source))
    if found is not None and found[0] is source and len(found[1]) == len(chain) and all(a is b for a, b in zip(found[1], chain)):
        reads = getattr(site, "reads", None)
        if reads is not None:
            reads.update(token(kind, ("sources", record.id)) for record in (source, *chain) for kind in ("label", "record"))
            if source.derived_from:
                reads.add(token("members", "sources"))
        return found[2]
    if len(_ARTICLES) > 4 * len(records) + 64:  # sources replaced by edits: forget the old ones
        _ARTICLES.clear()
    shown = site.records["sources"][source.id] if isinstance(site, SiteReads) else source  # read as the page reads it
    text = json.dumps(article(site, shown), ensure_ascii=False, separators=(",", ":"))
    _ARTICLES[id(source)] = (source, tuple(chain), text)
    return text


def subject(site: Site, record: Record) -> dict[str, Any] | None:
    """Return what a page is about as a schema.org node: a Person, an Event or a NewsArticle."""
    def names(collection: str, ids: list[str]) -> list[str]:
        return [site.records[collection][i].label for i in ids if i in site.records[collection]]

    if isinstance(record, Person):
        node: dict[str, Any] = {"@type": "Person", "name": record.name, "description": record.summary}
        if record.aliases:
            node["alternateName"] = record.aliases
        if record.roles:
            node["jobTitle"] = record.roles
        if record.affiliations:
            node["affiliation"] = [{"@type": "Organization", "name": name} for name in names("groups", record.affiliations)]
        return node
    if isinstance(record, Event):
        node = {"@type": "Event", "name": record.title, "description": record.summary}
        if record.date.start:
            node["startDate"] = record.date.start.iso()
        if record.date.end and record.date.is_interval:
            node["endDate"] = record.date.end.iso()
        if record.places:
            node["location"] = [{"@type": "Place", "name": name} for name in names("places", record.places)]
        if record.people:
            node["about"] = [{"@type": "Person", "name": name} for name in names("people", record.people)]
        if record.tags:
            node["keywords"] = ", ".join(site.config.tag_names.get(tag, tag) for tag in record.tags)
        return node
    if isinstance(record, Source):
        return article(site, record)
    return None


def json_ld(site: Site, record: Record | None, url: str) -> Markup:
    """Return the page's schema.org JSON-LD script: its subject, and the page with the articles it cites."""
    node = subject(site, record) if record is not None else None
    if record is None or node is None:
        return Markup("")
    page_id = absolute(site, url) or "./"
    node["@id"] = page_id + "#subject"
    cited = sorted({c.source for c in site.citations.get((record.collection, record.id), [])})
    page: dict[str, Any] = {"@type": "ProfilePage" if isinstance(record, Person) else "WebPage", "@id": page_id, "name": record.label,
            "about": {"@id": node["@id"]}, "isPartOf": {"@type": "WebSite", "name": site.config.title}}
    text = json.dumps({"@context": "https://schema.org", "@graph": [node, page]}, ensure_ascii=False, separators=(",", ":"))
    if cited:  # the page's last key, as json.dumps would write it, from each article's text written once for every page
        sources = site.records["sources"]
        articles = ",".join(article_json(site, source) for sid in cited if isinstance(source := sources.get(sid), Source))
        text = text[:-3] + ',"citation":[' + articles + "]}]}"
    text = text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")
    return Markup(f'<script type="application/ld+json">\n{text}\n</script>')


def site_json(site: Site, lang: str | None = None) -> bytes:
    """Return the public data export: each exported record type's records (events in date order),
    then every verified citation; one record a line."""
    def records(collection: str) -> Iterator[dict]:
        rtype = site.model[collection]
        ids = site.timeline if collection == "events" else sorted(site.records[collection])
        for rid in ids:
            yield rtype.export(site, site.records[collection][rid])  # type: ignore[misc]

    def citations() -> Iterator[dict]:
        for key in sorted(site.citations):
            for c in site.citations[key]:
                yield {"page": site.get(key).page_url, "source": c.source, "quote": c.quote}

    exported = [c for c, t in site.model.items() if t.export is not None and not t.custom]
    exported += [c for c, t in site.model.items() if t.export is not None and t.custom]
    lists: dict[str, Iterable[dict]] = {c: records(c) for c in exported}
    return records_json({**lists, "citations": citations()}, lang)
