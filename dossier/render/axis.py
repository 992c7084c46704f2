"""The timeline's axis in SVG: across the column on a wide screen, down the screen on a phone (where
a year across 390 px would leave a month a few pixels), and reduced on the home page. Every event is a
mark: a dot for a known day, a bar for a month, season or range, blurred if approximate; a mark is a
link to its event, named by its date and title."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from typing import Callable

from markupsafe import Markup, escape

from ..model.dates import Day
from ..model.i18n import AXIS_NAME, display_date, month_abbreviation, month_letter, translations
from ..check.link import Site
from ..model.schema import Event
from .timeline import Filter, event_of, facet_values


# Geometry in SVG user units. The wide axis scales to the column's width; the tall one is drawn at
# its size (one unit a pixel), so that its labels keep their size on a phone.
WIDTH, MARGIN, GAP, MIN_YEAR = 720.0, 8.0, 18.0, 44.0
LANE, TOP, AXIS_HEIGHT, POINT_R = 13.0, 6.0, 34.0, 4.5
TALL_WIDTH, TALL_LENGTH, TALL_MIN_YEAR = 320.0, 560.0, 30.0
RULE_X, TALL_LANE, TALL_R = 78.0, 15.0, 6.0
GLANCE_WIDTH, GLANCE_MIN_YEAR = 336.0, 34.0

# The blur of approximate marks, shared by every axis and the legend, in an SVG that is always shown
# (a filter inside an SVG that is not displayed draws nothing).
DEFS = Markup(
    '<svg class="axis-defs" width="0" height="0" aria-hidden="true" focusable="false"><defs>'
    '<filter id="fuzzy" x="-50%" y="-100%" width="200%" height="300%"><feGaussianBlur stdDeviation="1.6"/></filter></defs></svg>'
)


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
    """The stretch of the axis given to one year: where it starts along the axis, and its length."""

    year: int
    x: float
    width: float
    start: int = field(init=False)  # the number of the year's first day (Day.toordinal)
    days: int = field(init=False)  # and how many days it has: a timeline page places each event's ends twice

    def __post_init__(self) -> None:
        object.__setattr__(self, "start", Day(self.year, 1, 1).toordinal())
        object.__setattr__(self, "days", Day(self.year + 1, 1, 1).toordinal() - self.start)

    def at(self, day: dt.date | Day) -> float:
        """Return the position of the start of a day in this year."""
        return self.x + self.width * (day.toordinal() - self.start) / self.days


def segments(bounds: list[tuple[Day, Day]], length: float = WIDTH, min_year: float = MIN_YEAR) -> list[Segment]:
    """Lay out one segment per year that holds an event's start or end (bounds: each event's first
    and last day, see date_bounds); busy years get more room."""
    detail: dict[int, int] = {}
    for first, last in bounds:
        for year in {first.year, last.year}:
            detail.setdefault(year, 0)
            if (last - first).days < 300:
                detail[year] += 1
    years = sorted(detail)
    gaps = sum(GAP if b - a > 1 else 2 for a, b in zip(years, years[1:]))
    spare = length - 2 * MARGIN - gaps - min_year * len(years)
    total = sum(detail.values()) or 1
    result, x = [], MARGIN
    for index, year in enumerate(years):
        if index:
            x += GAP if year - years[index - 1] > 1 else 2
        width = min_year + spare * detail[year] / total
        result.append(Segment(year, x, width))
        x += width
    return result


def lanes(spans: list[tuple[float, float]]) -> list[int]:
    """Give each (start, end) span the lowest lane where it overlaps nothing, so that clusters stack up."""
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


def place(events: list[Event], length: float, min_year: float, radius: float) -> tuple[list[Segment], list[tuple[float, float]], list[int]]:
    """Return the years' segments, each event's span along the axis and the lane it stacks in."""
    bounds = [date_bounds(event) for event in events]
    layout = {s.year: s for s in segments(bounds, length, min_year)}
    spans = []
    for event, (first, last) in zip(events, bounds):
        start, end = layout[first.year].at(first), layout[last.year].at(last + dt.timedelta(days=1))
        if mark_shape(event) == "point":
            spans.append(((start + end) / 2 - radius, (start + end) / 2 + radius))
        else:
            spans.append((start, max(end, start + 4)))
    order = sorted(range(len(events)), key=lambda i: (spans[i][0], i))
    lane_of = dict(zip(order, lanes([spans[i] for i in order])))
    return list(layout.values()), spans, [lane_of[i] for i in range(len(events))]


def mark(site: Site, event: Event, shape: str, *, linked: bool = True, lang: str = "en", known: dict[str, tuple[str, str, str]] | None = None) -> str:
    """Return one event's mark: its shape, titled with its date and title, as a link to its entry
    with its filters' data attributes; or (not linked) the shape alone, as the home page draws it.
    known: the name, classes and attributes of the events already drawn on the page (both axes draw each)."""
    found = known.get(event.id) if known is not None else None
    if found is None:
        name = f"{escape(display_date(event.date, lang))}: {escape(str(event.title))}"  # as text: a title left untranslated is marked only in the page's text
        classes = " ".join(["mark", mark_shape(event)] + (["fuzzy"] if event.date.approximate else []))
        attributes = " ".join(f'{key}="{value}"' for key, value in facet_values(site, event).items()) if linked else ""
        found = (name, classes, attributes)
        if known is not None:
            known[event.id] = found
    name, classes, attributes = found
    if not linked:
        return f'<g class="{classes}"><title>{name}</title>{shape}</g>'
    return f'<a href="#{event.id}" aria-label="{name}"><g class="{classes}" data-event="{event.id}" {attributes}><title>{name}</title>{shape}</g></a>'


def events_of(site: Site, active: Filter | None, listed: list[str] | None = None) -> list[Event]:
    return [event_of(site, eid) for eid in (listed if listed is not None else active.events if active else site.timeline)]


def axis_figure(site: Site, active: Filter | None, rel: Callable[[str], str], listed: list[str] | None = None, lang: str = "en") -> Markup:
    """Return the timeline's axis across and down (of the events listed, on one page of a large
    timeline), with the blur they share; the stylesheet shows one (in a language)."""
    if not events_of(site, active, listed):
        return Markup("")
    known: dict[str, tuple[str, str, str]] = {}  # each event's mark, but for its shape, worked out once for both axes
    return Markup("\n").join([DEFS, axis_svg(site, active, rel, listed, lang, known), tall_svg(site, active, listed, lang, known)])


def axis_svg(site: Site, active: Filter | None, rel: Callable[[str], str], listed: list[str] | None = None, lang: str = "en",
             known: dict[str, tuple[str, str, str]] | None = None) -> Markup:
    """Draw the timeline's events (or one filter's) across a time axis that scales to the column."""
    events = events_of(site, active, listed)
    if not events:
        return Markup("")
    layout, spans, lane_of = place(events, WIDTH, MIN_YEAR, POINT_R)
    depth = max(lane_of) + 1
    height = TOP + depth * LANE + AXIS_HEIGHT
    baseline = TOP + depth * LANE + 4
    parts = [f'<svg class="axis axis-wide" viewBox="0 0 {WIDTH:g} {height:g}" width="{WIDTH:g}" height="{height:g}" '
             f'role="group" aria-label="{escape(translations(lang).gettext(AXIS_NAME))}">']
    parts += axis_scale(layout, baseline, lang)
    for index, event in enumerate(events):
        x0, x1 = spans[index]
        y = TOP + (depth - 1 - lane_of[index]) * LANE + LANE / 2
        if mark_shape(event) == "point":
            shape = f'<circle cx="{(x0 + x1) / 2:.1f}" cy="{y:.1f}" r="{POINT_R:g}"/>'
        else:
            shape = f'<rect x="{x0:.1f}" y="{y - 3.5:.1f}" width="{x1 - x0:.1f}" height="7" rx="3.5"/>'
        parts.append(mark(site, event, shape, lang=lang, known=known))
    parts.append("</svg>")
    return Markup("\n".join(parts))


def axis_scale(layout: list[Segment], baseline: float, lang: str = "en") -> list[str]:
    """Draw the wide axis's line, year labels, month ticks and breaks between distant years."""
    parts = []
    for index, segment in enumerate(layout):
        right = segment.x + segment.width
        parts.append(f'<line class="rule" x1="{segment.x:.1f}" y1="{baseline:.1f}" x2="{right:.1f}" y2="{baseline:.1f}"/>')
        month_width = segment.width / 12
        if month_width >= 9:
            for month in range(1, 13):
                x = segment.at(Day(segment.year, month, 1))
                parts.append(f'<line class="tick" x1="{x:.1f}" y1="{baseline - 3:.1f}" x2="{x:.1f}" y2="{baseline + 3:.1f}"/>')
                label = month_abbreviation(month, lang) if month_width >= 28 else month_letter(month, lang)
                parts.append(f'<text class="month" data-month="{segment.year}-{month:02d}" x="{x + month_width / 2:.1f}" y="{baseline + 13:.1f}">{label}</text>')
        year_y = baseline + (27 if month_width >= 9 else 14)
        parts.append(f'<text class="year" x="{segment.x + segment.width / 2:.1f}" y="{year_y:.1f}">{segment.year}</text>')
        if index + 1 < len(layout) and layout[index + 1].year - segment.year > 1:
            middle = (right + layout[index + 1].x) / 2
            parts.append(f'<path class="break" d="M{middle - 4:.1f} {baseline + 5:.1f} l4 -10 M{middle:.1f} {baseline + 5:.1f} l4 -10"/>')
    return parts


def tall_svg(site: Site, active: Filter | None, listed: list[str] | None = None, lang: str = "en",
             known: dict[str, tuple[str, str, str]] | None = None) -> Markup:
    """Draw the same events down a time axis for a phone: years and months labelled on the left at
    full size, marks stacked to the right of the line, each big enough to tap."""
    events = events_of(site, active, listed)
    layout, spans, lane_of = place(events, TALL_LENGTH, TALL_MIN_YEAR, TALL_R)
    width = max(TALL_WIDTH, RULE_X + 8 + (max(lane_of) + 1) * TALL_LANE + 4)
    parts = [f'<svg class="axis axis-tall" viewBox="0 0 {width:g} {TALL_LENGTH:g}" width="{width:g}" height="{TALL_LENGTH:g}" '
             f'role="group" aria-label="{escape(translations(lang).gettext(AXIS_NAME))}">']
    for index, segment in enumerate(layout):
        end = segment.x + segment.width
        parts.append(f'<line class="rule" x1="{RULE_X:g}" y1="{segment.x:.1f}" x2="{RULE_X:g}" y2="{end:.1f}"/>')
        parts.append(f'<text class="year" x="4" y="{segment.x + 12:.1f}">{segment.year}</text>')
        month_length = segment.width / 12
        for month in range(1, 13) if month_length >= 15 else ():
            y = segment.at(Day(segment.year, month, 1))
            parts.append(f'<line class="tick" x1="{RULE_X - 4:g}" y1="{y:.1f}" x2="{RULE_X + 4:g}" y2="{y:.1f}"/>')
            parts.append(f'<text class="month" data-month="{segment.year}-{month:02d}" x="{RULE_X - 8:g}" y="{y + month_length / 2 + 4.5:.1f}">{month_abbreviation(month, lang)}</text>')
        if index + 1 < len(layout) and layout[index + 1].year - segment.year > 1:
            middle = (end + layout[index + 1].x) / 2
            parts.append(f'<path class="break" d="M{RULE_X - 5:g} {middle - 1:.1f} l10 -4 M{RULE_X - 5:g} {middle + 3:.1f} l10 -4"/>')
    for index, event in enumerate(events):
        y0, y1 = spans[index]
        x = RULE_X + 8 + lane_of[index] * TALL_LANE + TALL_LANE / 2
        if mark_shape(event) == "point":
            shape = f'<circle cx="{x:.1f}" cy="{(y0 + y1) / 2:.1f}" r="{TALL_R:g}"/>'
        else:
            shape = f'<rect x="{x - 4:.1f}" y="{y0:.1f}" width="8" height="{y1 - y0:.1f}" rx="4"/>'
        parts.append(mark(site, event, shape, lang=lang, known=known))
    parts.append("</svg>")
    return Markup("\n".join(parts))


def glance_svg(site: Site, lang: str = "en") -> Markup:
    """Draw the whole timeline small, for the home page: marks and years only, at one unit a pixel,
    hidden from assistive technology (the link around it says what it is)."""
    events = events_of(site, None)
    if not events:
        return Markup("")
    layout, spans, lane_of = place(events, GLANCE_WIDTH, GLANCE_MIN_YEAR, 3.0)
    depth = max(lane_of) + 1
    baseline = 4 + depth * 7 + 3
    parts = [DEFS, f'<svg class="axis axis-glance" viewBox="0 0 {GLANCE_WIDTH:g} {baseline + 16:g}" width="{GLANCE_WIDTH:g}" '
             f'height="{baseline + 16:g}" aria-hidden="true" focusable="false">']
    for segment in layout:
        parts.append(f'<line class="rule" x1="{segment.x:.1f}" y1="{baseline:g}" x2="{segment.x + segment.width:.1f}" y2="{baseline:g}"/>')
        parts.append(f'<text class="year" x="{segment.x + segment.width / 2:.1f}" y="{baseline + 14:g}">{segment.year}</text>')
    for index, event in enumerate(events):
        x0, x1 = spans[index]
        y = 4 + (depth - 1 - lane_of[index]) * 7 + 3.5
        shape = (f'<circle cx="{(x0 + x1) / 2:.1f}" cy="{y:.1f}" r="3"/>' if mark_shape(event) == "point"
                 else f'<rect x="{x0:.1f}" y="{y - 2.5:.1f}" width="{x1 - x0:.1f}" height="5" rx="2.5"/>')
        parts.append(mark(site, event, shape, linked=False, lang=lang))
    parts.append("</svg>")
    return Markup("\n".join(parts))
