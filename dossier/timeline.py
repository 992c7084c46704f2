"""The timeline's filters by person, group, place and tag (its SVG axis is in axis.py)."""

from __future__ import annotations

from dataclasses import dataclass

from .link import Site
from .model import facet_fields
from .schema import Event


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
