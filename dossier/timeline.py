"""The timeline's reading aids: filters by person, group, place and tag, and the inline SVG axis."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Callable

from markupsafe import Markup, escape

from .dates import Day
from .link import Site
from .model import facet_fields
from .schema import Event

MONTH_LETTERS = "JFMAMJJASOND"
MONTH_ABBREVIATIONS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

# Axis geometry, in SVG user units (the SVG scales to the page width).
WIDTH, MARGIN, GAP, MIN_YEAR = 720.0, 8.0, 18.0, 44.0
LANE, TOP, AXIS_HEIGHT, POINT_R = 13.0, 6.0, 34.0, 4.5


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
        values = spec.target if collection == "events" else collection
        title = site.model[values].title if values in site.model else spec.name.capitalize()  # type: ignore[index]
        found.append(Facet(name, title, spec.facet, collection, spec.name, spec.target if collection == "events" else None))
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

    @property
    def url(self) -> str:
        """Return the URL of the generated page for this filter."""
        return f"timeline/{self.facet}/{self.value}/"

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
                    found.append(Filter(facet.name, rid, record.label, tuple(events), facet.preposition))
        elif facet.collection != "events":  # a project type naming events: each record's
            for rid, record in site.records[facet.collection].items():
                events = sorted((eid for eid in getattr(record, facet.field, None) or [] if eid in order), key=order.__getitem__)
                if events:
                    found.append(Filter(facet.name, rid, record.label, tuple(dict.fromkeys(events)), facet.preposition))
        else:  # tags
            tags: dict[str, list[str]] = {}
            for eid in site.timeline:
                for tag in facet.values_of(site, eid):
                    tags.setdefault(tag, []).append(eid)
            found += [Filter(facet.name, tag, tag, tuple(events), facet.preposition) for tag, events in tags.items()]
    for facet in result:
        result[facet].sort(key=lambda f: (f.label.casefold(), f.value))
    return result


def filter_for(site: Site, name: str, value: str) -> Filter:
    """Return one filter of the timeline, its events worked out from the site given (a page's
    SiteReads, so that the page depends on what it lists)."""
    facet = next(f for f in facets(site) if f.name == name)
    if facet.target is not None:
        events = site.referrers.get((facet.target, value), {}).get(("events", facet.field), [])
        label = site.records[facet.target][value].label
    elif facet.collection != "events":
        record = site.records[facet.collection][value]
        order = {eid: index for index, eid in enumerate(site.timeline)}
        events = list(dict.fromkeys(sorted((eid for eid in getattr(record, facet.field, None) or [] if eid in order), key=order.__getitem__)))
        label = record.label
    else:
        events, label = tagged(site, facet.field, value), value
    return Filter(facet.name, value, label, tuple(events), facet.preposition)


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


def date_bounds(event: Event) -> tuple[Day, Day]:
    """Return the first and last day an event's date can mean (an open end counts as its known end)."""
    first = event.date.first_day() or event.date.last_day()
    last = event.date.last_day() or event.date.first_day()
    assert first is not None and last is not None
    return first, last


def mark_shape(event: Event) -> str:
    """Return how the axis draws an event: 'point' for a day, 'bar' for anything longer."""
    return "point" if event.date.precision == "day" else "bar"


@dataclass(frozen=True)
class Segment:
    """The stretch of the axis given to one year."""

    year: int
    x: float
    width: float

    def at(self, day: Day) -> float:
        """Return the x position of the start of a day in this year."""
        start = Day(self.year, 1, 1)
        days = (Day(self.year + 1, 1, 1) - start).days
        return self.x + self.width * (day - start).days / days


def segments(events: list[Event]) -> list[Segment]:
    """Lay out one segment per year that holds an event's start or end; busy years get more room."""
    detail: dict[int, int] = {}
    for event in events:
        first, last = date_bounds(event)
        for year in {first.year, last.year}:
            detail.setdefault(year, 0)
            if (last - first).days < 300:
                detail[year] += 1
    years = sorted(detail)
    gaps = sum(GAP if b - a > 1 else 2 for a, b in zip(years, years[1:]))
    spare = WIDTH - 2 * MARGIN - gaps - MIN_YEAR * len(years)
    total = sum(detail.values()) or 1
    result, x = [], MARGIN
    for index, year in enumerate(years):
        if index:
            x += GAP if year - years[index - 1] > 1 else 2
        width = MIN_YEAR + spare * detail[year] / total
        result.append(Segment(year, x, width))
        x += width
    return result


def lanes(spans: list[tuple[float, float]]) -> list[int]:
    """Give each (x0, x1) span the lowest lane where it overlaps nothing, so that clusters stack up."""
    ends: list[float] = []
    result = []
    for x0, x1 in spans:
        lane = next((i for i, end in enumerate(ends) if end + 2 <= x0), len(ends))
        if lane == len(ends):
            ends.append(x1)
        else:
            ends[lane] = x1
        result.append(lane)
    return result


def axis_svg(site: Site, active: Filter | None, rel: Callable[[str], str]) -> Markup:
    """Draw the timeline's events (or one filter's) on a time axis: a dot for a day, a bar for a
    month or range, blurred if approximate. Each mark links to its event in the list below."""
    events = [event_of(site, eid) for eid in (active.events if active else site.timeline)]
    if not events:
        return Markup("")
    layout = {s.year: s for s in segments(events)}
    spans = []
    for event in events:
        first, last = date_bounds(event)
        x0, x1 = layout[first.year].at(first), layout[last.year].at(last + dt.timedelta(days=1))
        if mark_shape(event) == "point":
            middle = (x0 + x1) / 2
            spans.append((middle - POINT_R, middle + POINT_R))
        else:
            spans.append((x0, max(x1, x0 + 4)))
    order = sorted(range(len(events)), key=lambda i: (spans[i][0], i))
    lane_of = dict(zip(order, lanes([spans[i] for i in order])))
    depth = max(lane_of.values()) + 1
    height = TOP + depth * LANE + AXIS_HEIGHT
    baseline = TOP + depth * LANE + 4
    parts = [
        f'<svg class="axis" viewBox="0 0 {WIDTH:g} {height:g}" width="{WIDTH:g}" height="{height:g}" aria-hidden="true" focusable="false">',
        '<defs><filter id="fuzzy" x="-50%" y="-100%" width="200%" height="300%"><feGaussianBlur stdDeviation="1.6"/></filter></defs>',
    ]
    parts += axis_scale(list(layout.values()), baseline)
    for index, event in enumerate(events):
        x0, x1 = spans[index]
        y = TOP + (depth - 1 - lane_of[index]) * LANE + LANE / 2
        classes = ["mark", mark_shape(event)] + (["fuzzy"] if event.date.approximate else [])
        if mark_shape(event) == "point":
            shape = f'<circle cx="{(x0 + x1) / 2:.1f}" cy="{y:.1f}" r="{POINT_R:g}"/>'
        else:
            shape = f'<rect x="{x0:.1f}" y="{y - 3.5:.1f}" width="{x1 - x0:.1f}" height="7" rx="3.5"/>'
        title = f"<title>{escape(event.date.display())}: {escape(event.title)}</title>"
        attributes = " ".join(f'{name}="{value}"' for name, value in facet_values(site, event).items())
        parts.append(f'<a href="#{event.id}" tabindex="-1"><g class="{" ".join(classes)}" data-event="{event.id}" {attributes}>{title}{shape}</g></a>')
    parts.append("</svg>")
    return Markup("\n".join(parts))


def axis_scale(layout: list[Segment], baseline: float) -> list[str]:
    """Draw the axis line, year labels, month ticks and breaks between distant years."""
    parts = []
    for index, segment in enumerate(layout):
        right = segment.x + segment.width
        parts.append(f'<line class="rule" x1="{segment.x:.1f}" y1="{baseline:.1f}" x2="{right:.1f}" y2="{baseline:.1f}"/>')
        month_width = segment.width / 12
        if month_width >= 9:
            for month in range(1, 13):
                x = segment.at(Day(segment.year, month, 1))
                parts.append(f'<line class="tick" x1="{x:.1f}" y1="{baseline - 3:.1f}" x2="{x:.1f}" y2="{baseline + 3:.1f}"/>')
                label = MONTH_ABBREVIATIONS[month - 1] if month_width >= 28 else MONTH_LETTERS[month - 1]
                parts.append(f'<text class="month" x="{x + month_width / 2:.1f}" y="{baseline + 13:.1f}">{label}</text>')
        year_y = baseline + (27 if month_width >= 9 else 14)
        parts.append(f'<text class="year" x="{segment.x + segment.width / 2:.1f}" y="{year_y:.1f}">{segment.year}</text>')
        if index + 1 < len(layout) and layout[index + 1].year - segment.year > 1:
            middle = (right + layout[index + 1].x) / 2
            parts.append(f'<path class="break" d="M{middle - 4:.1f} {baseline + 5:.1f} l4 -10 M{middle:.1f} {baseline + 5:.1f} l4 -10"/>')
    return parts
