"""The timeline's filters by person, group, place and tag, and its pages by year and month on a large
site (its SVG axis is in axis.py)."""

from __future__ import annotations

import re
import weakref
from dataclasses import dataclass
from typing import Any, Iterable, Sequence

import jinja2
from jinja2 import meta
from markupsafe import Markup, escape

from ..model.dates import MONTHS, month_key
from ..check.link import Site
from ..model.record_types import facet_fields, facet_title
from ..model.schema import Event, Record
from ..model.settings import filter_pages_over
from .context import PageContext
from ..timings import layer


@dataclass(frozen=True)
class Facet:
    """A way to filter the timeline, declared by a field: events' people, places, groups and tags,
    or a project type's field that names events."""

    name: str  # 'people', 'tags', or a project type's collection
    title: str  # 'People'
    preposition: str  # 'involving', 'at', 'tagged'
    collection: str  # 'events' for a field of events; else the project type declaring the field
    field: str
    target: str | None  # the collection of the values, for a field of events naming records

    def values_of(self, site: Site, eid: str) -> list[str]:
        """Return the values an event has in this facet: the ids or tags it is filtered under."""
        if self.collection == "events":
            return list(getattr(site.records["events"][eid], self.field, None) or [])
        return site.referrers.get(("events", eid), {}).get((self.collection, self.field), [])


_FACETS: list = [None, []]  # the model the facets were last worked out for, and them


def facets(site: Site) -> list[Facet]:
    """Return the timeline's facets in the order the timeline lists them."""
    if _FACETS[0] is site.model:
        return _FACETS[1]
    found = []
    for name, collection, spec in facet_fields(site.model):
        found.append(Facet(name, facet_title(site.model, collection, spec), spec.facet, collection, spec.name, spec.target if collection == "events" else None))
    _FACETS[:] = [site.model, found]
    return found


@dataclass(frozen=True)
class Filter:
    """One filter state of the timeline: the events of a person, group, place, tag or other facet."""

    facet: str  # a Facet's name
    value: str  # a record id or a tag
    label: str
    events: tuple[str, ...]
    preposition: str = "involving"
    record_url: str | None = None  # a record's filter without a page of its own (too few events): the record's page, which lists them

    @property
    def url(self) -> str:
        """Return the URL of the generated page for this filter (if it has one: see `paged`)."""
        return f"timeline/{self.facet}/{self.value}/"

    @property
    def paged(self) -> bool:
        """Tell whether the filter has a timeline page of its own (every tag's; a record's with more
        events than site.yaml's timeline.filter_pages_over)."""
        return self.record_url is None

    @property
    def link(self) -> str:
        """Return where a link to the filter goes without JavaScript: its page, else its record's."""
        return self.url if self.record_url is None else self.record_url

    @property
    def key(self) -> str:
        """Return the filter's name in data attributes: 'people:jorge-torres'."""
        return f"{self.facet}:{self.value}"

    @property
    def phrase(self) -> str:
        """Return how a heading names the filter: 'involving Jorge Torres', 'tagged aid'."""
        return f"{self.preposition} {self.label}"


def timeline_filters(site: Site) -> dict[str, list[Filter]]:
    """Return every filter with at least one event, by facet, sorted by label."""
    result: dict[str, list[Filter]] = {}
    order = {eid: index for index, eid in enumerate(site.timeline)}
    for facet in facets(site):
        found = result[facet.name] = []
        if facet.target is not None:  # a field of events naming records: their events
            for rid, record in site.records[facet.target].items():
                events = site.referrers.get((facet.target, rid), {}).get(("events", facet.field), [])
                if events:
                    found.append(Filter(facet.name, rid, record.label, tuple(events), facet.preposition, own_page(record, events, site.config)))
        elif facet.collection != "events":  # a project type naming events: each record's
            for rid, record in site.records[facet.collection].items():
                events = sorted((eid for eid in getattr(record, facet.field, None) or [] if eid in order), key=order.__getitem__)
                events = list(dict.fromkeys(events))
                if events:
                    found.append(Filter(facet.name, rid, record.label, tuple(events), facet.preposition, own_page(record, events, site.config)))
        else:  # tags
            tags: dict[str, list[str]] = {}
            for eid in site.timeline:
                for tag in facet.values_of(site, eid):
                    tags.setdefault(tag, []).append(eid)
            names = site.config.tag_names  # in another language: each tag's name there
            found += [Filter(facet.name, tag, names.get(tag, tag), tuple(events), facet.preposition) for tag, events in tags.items()]
    for name in result:
        result[name].sort(key=lambda f: (f.label.casefold(), f.value))
    return result


def filter_for(site: Site, name: str, value: str) -> Filter:
    """Return one filter of the timeline, its events worked out from the site given (a page's
    SiteReads, so that the page depends on what it lists)."""
    facet = next(f for f in facets(site) if f.name == name)
    if facet.target is not None:
        events = site.referrers.get((facet.target, value), {}).get(("events", facet.field), [])
        record = site.records[facet.target][value]
    elif facet.collection != "events":
        record = site.records[facet.collection][value]
        order = {eid: index for index, eid in enumerate(site.timeline)}
        events = list(dict.fromkeys(sorted((eid for eid in getattr(record, facet.field, None) or [] if eid in order), key=order.__getitem__)))
    else:
        events = tagged(site, facet.field, value)
        return Filter(facet.name, value, site.config.tag_names.get(value, value), tuple(events), facet.preposition)
    return Filter(facet.name, value, record.label, tuple(events), facet.preposition, own_page(record, events, filter_pages_over(site.config)))


def has_filter_page(config: object, events: Sequence[object]) -> bool:
    """Tell whether a record of these events has a timeline filter page of its own: with more
    events than site.yaml's timeline.filter_pages_over (a person's page asks, to link to it)."""
    return len(events) > filter_pages_over(config)


def own_page(record: Record, events: Sequence[str], config: object) -> str | None:
    """Return None where a record's filter has a timeline page of its own (has_filter_page), else
    the record's page, where its filter's links go without JavaScript."""
    return None if has_filter_page(config, events) else record.page_url


def tagged(site: Site, field: str, value: str) -> list[str]:
    """Return the events whose field (their tags) holds a value, in date order."""
    if hasattr(site, "tagged"):  # a page's SiteReads: noted as one read
        return site.tagged(field, value)
    return [eid for eid in site.timeline if value in (getattr(site.records["events"][eid], field, None) or [])]


def event_of(site: Site, eid: str) -> Event:
    """Return the event with this id."""
    event = site.records["events"][eid]
    assert isinstance(event, Event)
    return event


def facet_values(site: Site, event: Event) -> dict[str, str]:
    """Return an event's data attributes for filtering in place: {'data-people': 'a b', ...}."""
    return {f"data-{facet.name}": " ".join(facet.values_of(site, event.id)) for facet in facets(site)}


# A timeline view (every event, or one filter's) listing more events than this is split: an overview
# of its years, a page per year, and a year with more than this is itself an overview of a page per
# month. About 2.5 kB an event with its mark on the axis: a page stays well under 1 MB. A timeline
# the size of a documentary's stays one page.
PAGE_EVENTS = 200


@dataclass(frozen=True)
class Part:
    """One page of a timeline view: the whole view (no year), a year, or a month of a year (month 0:
    the year's events whose month is not known)."""

    year: int | None = None
    month: int | None = None

    @property
    def suffix(self) -> str:
        """Return the page's address below the view's: '', '2019/', '2019/03/', '2019/month-not-known/'."""
        if self.year is None:
            return ""
        if self.month is None:
            return f"{self.year}/"
        return f"{self.year}/{self.month:02d}/" if self.month else f"{self.year}/month-not-known/"

    @property
    def heading(self) -> str:
        """Return how the page's heading names it: '', '2019', 'March 2019', '2019, month not known'."""
        if self.year is None:
            return ""
        if self.month is None:
            return str(self.year)
        return f"{MONTHS[self.month]} {self.year}" if self.month else f"{self.year}, month not known"


def split(site: Site, events: Sequence[str]) -> dict[Part, list[str] | None]:
    """Return the pages of a timeline view of these events (in date order), each with the events it
    lists, or None for an overview: {Part(): events} when they fit one page."""
    if len(events) <= PAGE_EVENTS:
        return {Part(): list(events)}
    years: dict[int, dict[int, list[str]]] = {}
    for eid in events:
        year, month = month_key(site.records["events"][eid].date)  # type: ignore[attr-defined]
        years.setdefault(year, {}).setdefault(month or 0, []).append(eid)
    parts: dict[Part, list[str] | None] = {Part(): None}
    for year, months in sorted(years.items()):
        if sum(len(ids) for ids in months.values()) <= PAGE_EVENTS:
            parts[Part(year)] = [eid for month in month_order(months) for eid in months[month]]
            continue
        parts[Part(year)] = None
        parts.update((Part(year, month), months[month]) for month in month_order(months))
    return parts


def month_order(months: dict[int, list[str]]) -> list[int]:
    """Return a year's months in the order the timeline lists them: the month not known last."""
    return sorted(months, key=lambda month: month or 13)


@dataclass(frozen=True)
class Row:
    """A line of a timeline overview: a year or month, its events' count, and its page (or, for a
    year split by month, its months)."""

    part: Part
    count: int
    url: str
    months: tuple[Row, ...] = ()


def overview(parts: dict[Part, list[str] | None], part: Part, base: str) -> list[Row]:
    """Return the rows of an overview page of a split view: every year (each with its months where
    it is split), or one year's months."""
    def row(leaf: Part) -> Row:
        below = [p for p in parts if p.year == leaf.year and p.month is not None] if leaf.month is None else []
        months = tuple(row(p) for p in below)
        count = sum(r.count for r in months) if months else len(parts[leaf] or ())
        return Row(leaf, count, base + leaf.suffix, months)

    if part.year is None:
        return [row(p) for p in parts if p.year is not None and p.month is None]
    return [row(p) for p in parts if p.year == part.year and p.month is not None]


def neighbours(parts: dict[Part, list[str] | None], part: Part) -> tuple[Part | None, Part | None]:
    """Return the pages that list events before and after this one's, if any."""
    leaves = [p for p, events in parts.items() if events is not None]
    if part not in leaves:
        return None, None
    index = leaves.index(part)
    return (leaves[index - 1] if index else None), (leaves[index + 1] if index + 1 < len(leaves) else None)


def homes(site: Site) -> dict[str, str]:
    """Return the address of the timeline page that lists each event: 'timeline/', or its year's or
    month's page on a large site."""
    found = {}
    for part, events in split(site, site.timeline).items():
        for eid in events or ():
            found[eid] = "timeline/" + part.suffix
    return found


def timeline_page(site: Site, active: Filter | None, part: Part, parts: dict[Part, list[str] | None]) -> dict[str, object]:
    """Return what a timeline page shows besides its filter: its part of the view, the events it
    lists (None on an overview), the overview's rows, the view's address and size, and the pages
    before and after it; parts is the view's split()."""
    base = active.url if active else "timeline/"
    events = active.events if active else site.timeline
    listed = parts[part]
    before, after = neighbours(parts, part)
    return {"part": part, "listed": listed, "rows": overview(parts, part, base) if listed is None else [], "base": base,
            "total": len(events), "paged": len(parts) > 1, "before": before, "after": after}


ON_FILTER_PAGES, END_FILTER_PAGES = "\ue002", "\ue003"  # around what an entry shows on filter pages only (see on_filter_pages)
FILTER_PAGES_ONLY = re.compile(f"{ON_FILTER_PAGES}[^{END_FILTER_PAGES}]*{END_FILTER_PAGES}")
asked: weakref.WeakKeyDictionary[jinja2.Environment, bool] = weakref.WeakKeyDictionary()


def on_filter_pages(text: str) -> Markup:
    """Return text (escaped) as a timeline entry shows it on filter pages only: the entry then renders
    once for every page, and each page keeps or drops the text (see entry_on)."""
    return Markup(f"{ON_FILTER_PAGES}{escape(text)}{END_FILTER_PAGES}")


def entry_on(html: str, filtered: bool) -> str:
    """Return a timeline entry's HTML as a filter page shows it (filtered) or as the other pages do."""
    if ON_FILTER_PAGES not in html:
        return html
    if filtered:
        return html.replace(ON_FILTER_PAGES, "").replace(END_FILTER_PAGES, "")
    return FILTER_PAGES_ONLY.sub("", html)


def asks_filtered(env: jinja2.Environment) -> bool:
    """Tell whether a timeline entry's template reads `filtered` (or may, through a template it
    names), so that the filter pages need entries of their own; the package's uses on_filter_pages."""
    if env not in asked:
        assert env.loader is not None
        source = env.loader.get_source(env, "timeline_event.html")[0]
        tree = env.parse(source)
        asked[env] = "filtered" in meta.find_undeclared_variables(tree) or any(True for _ in meta.find_referenced_templates(tree))
    return asked[env]


def render_entries_once(renderer: Any, paths: Iterable[str], every_page: Iterable[str]) -> None:
    """Render the entries of the timelines whose pages are all about to be rendered (a cold build),
    before the pages are shared out among processes: each process would otherwise render again
    most entries for the pages it takes (at 10,000 records, 5 of the timeline's 14.5 s of CPU).
    renderer.timeline_entry keeps each entry, as the filter pages show it and as the others do."""
    paths, every_page = set(paths), set(every_page)
    for lang in renderer.languages:
        folder = renderer.prefix(lang) + "timeline/"
        wanted = {path for path in paths if path.startswith(folder)}
        if not wanted or wanted != {path for path in every_page if path.startswith(folder)}:
            continue
        site = renderer.site_in(lang)
        page = PageContext(site, "timeline/", portable=renderer.portable, lang=lang, prefix=renderer.prefix(lang))
        filter_pages = any(not path[len(folder):].split("/")[0].isdigit() and path != folder + "index.html" for path in wanted)
        with layer("timeline"):
            for eid in site.timeline:
                for filtered in (False, True)[: 1 + filter_pages]:
                    renderer.timeline_entry(page, site.records["events"][eid], filtered)
