"""The dependency graph: which output files an edit must re-render.

Each page records what it reads of the site as it renders (reads.py). An edit re-renders the
record's own page, and every page whose reads hold a token the edit changes: the record's name or
title, its other fields, the members of its collection when it comes or goes, and each entry of the
derived lists (backlinks, events and referrers of a record, citations, "cited by" lists, passages,
derivatives, the timeline's order) that differs between the site before and after the edit.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Collection, Iterable

from ..check.link import Key, Site
from ..model.i18n import language_prefixes, site_languages
from ..render.reads import Token, token
from ..render.pages import output_path
from ..model.dates import month_key
from ..model.schema import Record
from ..render.timeline import homes
from .inputs import digest
from .pagereads import PageReads

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


def labels(record: Record | None) -> tuple:
    """Return what links to a record show, in every language: its name or title, and its translations' titles."""
    if record is None:
        return (None,)
    return (record.label, *sorted((lang, t.label) for lang, t in record.translations.items()))


def body_of(record: Record | None) -> tuple | None:
    """Return what only the record's own page shows: its body, or a source's notes."""
    if record is None:
        return None
    return (record.body, getattr(record, "notes", None), *sorted((lang, t.body) for lang, t in record.translations.items()))


def cited(site: Site, key: Key) -> list[tuple[str, str, bool]]:
    """Return the (source, quote, sole) passages a record cites, ignoring their lines, once for each
    citation: data/site.json lists a passage cited twice (in the body and as evidence) twice."""
    return sorted((c.source, c.quote, c.sole) for c in site.citations.get(key, []))


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
        label=membership or labels(before) != labels(after),
        body=body_of(before) != body_of(after),
        links=set(old.links.get(key, [])) != set(new.links.get(key, [])),
        citations=cited(old, key) != cited(new, key),
        membership=membership,
    )


def pages_of(sites: Iterable[Site], keys: Iterable[Key]) -> set[str]:
    """Return the output paths of these records' pages, in every language, in whichever site has them."""
    paths = set()
    for key in keys:
        for site in sites:
            record = record_of(site, key)
            if record is not None:
                paths |= {output_path(prefix + record.page_url) for prefix in language_prefixes(site.config)}
    return paths


def candidates(old: Site, new: Site, key: Key) -> dict[str, set]:
    """Return the entries of each derived list that an edit of one record may change."""
    before, after = record_of(old, key), record_of(new, key)
    named: set = set()
    derived_from: set = set()
    for site, record in ((old, before), (new, after)):
        if record is not None:
            named |= {(spec.target, rid) for spec in site.model[key[0]].references for rid in spec.ids(record)}
            if getattr(record, "derived_from", None):
                derived_from.add(record.derived_from)  # type: ignore[attr-defined]
    sources = {c.source for site in (old, new) for c in site.citations.get(key, [])}
    return {
        "mentioned_by": set(old.links.get(key, [])) | set(new.links.get(key, [])), "citations": {key},
        "events_of": named, "referrers": named, "cited_by": sources, "passages": sources,
        "derivatives": derived_from | ({key[1]} if key[0] == "sources" else set()),
    }


def entry(site: Site, name: str, key: object) -> object:
    """Return what a page shows of one entry of a derived list (citations without their file lines)."""
    value = getattr(site, name).get(key)
    if name == "citations" and value is not None:
        return [(c.source, c.quote, c.sole) for c in value]
    return value


def changed_tokens(old: Site, new: Site, c: Change) -> set[Token]:
    """Return the tokens (see reads.py) that an edit of one record changes."""
    key = c.key
    tokens: set[Token] = set()
    if c.membership:
        tokens |= {token("members", key[0]), token("label", key), token("record", key)}
    elif c.meta:
        tokens.add(token("record", key))
        if c.label:
            tokens.add(token("label", key))
    for name, keys in candidates(old, new, key).items():
        differ = {k for k in keys if entry(old, name, k) != entry(new, name, k)}
        tokens |= {token(name, k) for k in differ} | ({token(name, "*")} if differ else set())
    if key[0] == "events" and (c.meta or c.membership):  # its tags: the tag pages that list it
        for field in (f for f in new.model["events"].fields if f.type == "slugs"):
            values = {v for record in (record_of(old, key), record_of(new, key)) if record is not None for v in getattr(record, field.name)}
            tokens |= {token("tagged", (field.name, v)) for v in values}
    if old.timeline != new.timeline:
        tokens.add(token("timeline", "*"))
    if key[0] == "events" and (c.membership or c.meta and moved(old, new, key)):  # the page of the timeline that lists each event
        tokens.add(token("timeline_months", "*"))
        before, after = homes(old), homes(new)
        tokens |= {token("timeline_home", eid) for eid in before.keys() | after.keys() if before.get(eid) != after.get(eid)}
    return tokens


def moved(old: Site, new: Site, key: Key) -> bool:
    """Tell whether an event now starts in another month: the only edit of an event that can move
    events between the pages of a large timeline, besides adding or removing one."""
    before, after = record_of(old, key), record_of(new, key)
    return before is None or after is None or month_key(before.date) != month_key(after.date)  # type: ignore[attr-defined]


def affected(old: Site, new: Site, keys: Iterable[Key], pages: Collection[str], reads: PageReads) -> tuple[set[str], bool] | None:
    """Return the pages an edit of these records must re-render, and whether the data exports must
    be remade; or EVERYTHING. pages holds the output paths of the new site's pages; reads, what
    each page read when last rendered (a page without reads is rendered again)."""
    changes = [change(old, new, key) for key in keys]
    if any(c.key[0] == "site" and (c.meta or c.body) for c in changes):
        return EVERYTHING  # the settings show on every page
    tokens: set[Token] = set()
    paths: set[str] = set()
    exports = False
    for c in changes:
        if c.key[0] not in new.model or not (c.meta or c.body or c.links or c.citations):
            continue
        paths |= pages_of([old, new], [c.key])
        tokens |= changed_tokens(old, new, c)
        exports = exports or c.meta or c.citations
    paths |= {path for path in pages if path not in reads} | reads.reading(tokens)
    return {path for path in paths if path in pages}, exports


def pages_in(pages: Iterable[str], config: object, languages: set[str]) -> set[str]:
    """Return the pages an edit of these languages' catalogs changes: on a site in one of them, every
    page, since each page of a site in several languages names the others in their own words (the
    switcher's note, the versions the page for a missing address carries); on a site in none, none."""
    return set(pages) if languages & set(site_languages(config)) else set()


def claims_digest(shown: tuple | bytes) -> bytes:
    """Return a digest of what a claims page shows, to keep on disk with the session."""
    return shown if isinstance(shown, bytes) else digest(repr(shown).encode("utf-8"))


def same_claims(before: tuple | bytes | None, now: tuple | bytes) -> bool:
    """Tell whether a claims page shows what it showed (before: as shown, or its digest after a reload)."""
    return before == now if not isinstance(before, bytes) else before == claims_digest(now)
