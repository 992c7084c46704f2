"""The dependency graph: which output files an edit must re-render.

A record's page shows the record in full; other pages show only its front matter (a name in a
link, a title in a list, an outlet in a reference) or what its body links to and cites (backlinks,
"cited by" lists, highlighted passages). So an edit that changes only the prose of a body
re-renders one page, and each further kind of change adds the pages that show it. The rules
read the site before and after the edit, so that a link or an event that goes away re-renders the
page it used to appear on.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Collection, Iterable

from .link import Key, Site
from .render import output_path
from .schema import Record
from .timeline import facets

EVERYTHING = None  # affected() returns this when every output must be rendered again
BODY_FIELDS = {"body", "body_line", "lines", "notes"}  # what only the record's own page shows


@dataclass(frozen=True)
class Change:
    """How one record differs between two versions of the site."""

    key: Key
    meta: bool  # front matter that other pages show; always true when the record came or went
    label: bool  # the name or title that links to it show
    body: bool  # its body (a source's notes)
    links: bool  # the records its body links to
    citations: bool  # the passages it cites
    membership: bool  # the record came or went


def front_matter(record: Record | None) -> tuple | None:
    """Return what other pages may show of a record: every field but its body."""
    if record is None:
        return None
    return tuple(getattr(record, f.name) for f in fields(record) if f.name not in BODY_FIELDS)


def body_of(record: Record | None) -> tuple | None:
    """Return what only the record's own page shows: its body, or a source's notes."""
    if record is None:
        return None
    return (record.body, getattr(record, "notes", None))


def cited(site: Site, key: Key) -> set[tuple[str, str, bool]]:
    """Return the (source, quote, sole) passages a record cites, ignoring their lines."""
    return {(c.source, c.quote, c.sole) for c in site.citations.get(key, [])}


def record_of(site: Site, key: Key) -> Record | None:
    """Return the record with this key, or None if the site has none."""
    return site.records.get(key[0], {}).get(key[1])


def change(old: Site, new: Site, key: Key) -> Change:
    """Compare one record between two versions of the site."""
    before, after = record_of(old, key), record_of(new, key)
    membership = (before is None) != (after is None)
    return Change(
        key,
        meta=membership or front_matter(before) != front_matter(after),
        label=membership or getattr(before, "label", None) != getattr(after, "label", None),
        body=body_of(before) != body_of(after),
        links=set(old.links.get(key, [])) != set(new.links.get(key, [])),
        citations=cited(old, key) != cited(new, key),
        membership=membership,
    )


def shown_on(site: Site, key: Key) -> set[Key]:
    """Return the records whose pages show this record's front matter (its name, title, dates...)."""
    kind, rid = key
    record = record_of(site, key)
    keys = set(site.mentioned_by.get(key, [])) | set(site.links.get(key, []))  # body links both ways
    keys |= {("sources", c.source) for c in site.citations.get(key, [])}  # "cited by" lists
    for (collection, _), ids in site.referrers.get(key, {}).items():  # pages listing who names it: "Members", "Places in X"
        keys |= {(collection, rid2) for rid2 in ids}
    if isinstance(record, Record):  # the pages of the records its fields name, which list it back
        for spec in site.model[kind].references:
            keys |= {(spec.target, rid2) for rid2 in spec.ids(record)}  # type: ignore[misc]
    if kind == "sources":  # references name the source, and a derivative's references name its original
        for sid in [rid] + site.derivatives.get(rid, []):
            keys |= set(site.cited_by.get(sid, []))
            keys.add(("sources", sid))
    keys.discard(key)
    return keys


def pages_of(sites: Iterable[Site], keys: Iterable[Key]) -> set[str]:
    """Return the output paths of these records' pages, in whichever site has them."""
    paths = set()
    for key in keys:
        for site in sites:
            record = record_of(site, key)
            if record is not None:
                paths.add(output_path(record.page_url))
    return paths


def timeline_pages(site: Site, change: Change) -> set[str] | None:
    """Return the timeline pages a change shows on, or None for all of them. An event shows on the
    full timeline and on the filter pages of its people, groups, places and tags; a person's,
    group's or place's name shows there too, beside each of its events; a source's outlet, beside
    every event that cites it."""
    kind = change.key[0]
    if kind == "sources":
        return None if change.meta else set()
    if kind == "events":
        events = [change.key[1]] if change.meta or change.citations else []
    else:
        events = site.events_of.get(change.key, []) if change.label else []
    if change.meta and kind != "events" and any(facet.collection == kind for facet in facets(site)):
        return None  # a project type whose records name events: their entries' filters change everywhere
    paths = {"timeline/index.html"} if events else set()
    for facet in facets(site):
        for eid in events:
            paths |= {f"timeline/{facet.name}/{value}/index.html" for value in facet.values_of(site, eid)}
    return paths


def other_pages(old: Site, new: Site, pages: Iterable[str]) -> set[str]:
    """Return the pages the graph knows nothing about (none yet): they are rendered after every edit."""
    known = {"index.html", "search/index.html", "404.html"} | {f"{kind}/index.html" for kind in new.model}

    def is_record_page(path: str) -> bool:
        parts = path.split("/")
        if len(parts) == 3 and parts[2] == "index.html":
            return any(parts[1] in site.records.get(parts[0], {}) for site in (old, new))
        return len(parts) == 2 and parts[1] == "index.html" and any(parts[0] in site.records.get("pages", {}) for site in (old, new))

    return {path for path in pages if path not in known and not path.startswith("timeline/") and not is_record_page(path)}


def affected(old: Site, new: Site, keys: Iterable[Key], pages: Collection[str], others: set[str] | None = None) -> tuple[set[str], bool] | None:
    """Return the pages an edit of these records must re-render, and whether the data exports must
    be remade; or EVERYTHING. pages holds the output paths of the new site's pages; others, those
    of them that other_pages() names (worked out here if not given)."""
    changes = [change(old, new, key) for key in keys]
    if any(c.key[0] == "site" and (c.meta or c.body) for c in changes):
        return EVERYTHING
    if any(c.key == ("pages", "about") and c.membership for c in changes):
        return EVERYTHING  # every page's navigation links to the about page
    shown: set[Key] = set()
    paths: set[str] = set()
    exports = False
    for c in changes:
        if c.key[0] not in new.model or not (c.meta or c.body or c.links or c.citations):
            continue
        paths |= pages_of([old, new], [c.key])
        if c.meta:
            shown |= shown_on(old, c.key) | shown_on(new, c.key)
            paths.add(f"{c.key[0]}/index.html")
            if new.model[c.key[0]].on_home:
                paths.add("index.html")
        if c.links:
            shown |= set(old.links.get(c.key, [])) ^ set(new.links.get(c.key, []))
        if c.citations:
            shown |= {("sources", source) for source, _, _ in cited(old, c.key) ^ cited(new, c.key)}
        on_timeline = [timeline_pages(site, c) for site in (old, new)]
        if None in on_timeline:
            paths |= {path for path in pages if path.startswith("timeline/")}
        else:
            paths = paths.union(*on_timeline)
        exports = exports or c.meta or c.citations
    paths |= pages_of([old, new], shown)
    paths |= other_pages(old, new, pages) if others is None else others
    return {path for path in paths if path in pages}, exports
