"""The home page's story at a glance: the key figures the events' sources give (each figure an event
marks `headline: true`), each with its source and the address of its passage; a reduced picture of
the timeline; and the people the home page's front matter features."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from markupsafe import Markup

from .axis import date_bounds, glance_svg
from ..check.link import Site
from ..text.passages import passage_id
from ..model.schema import Event, Figure, Record, Source


@dataclass(frozen=True)
class KeyFigure:
    """One key figure: what it counts, the event it belongs to, and the source that gives it."""

    figure: Figure
    event: Event
    source: Source

    @property
    def passage_url(self) -> str:
        """Return the address of the passage giving the figure, on its source's page."""
        return f"{self.source.page_url}#{passage_id(self.figure.quote)}"


@dataclass(frozen=True)
class Glance:
    """What the home page shows before its text."""

    figures: list[KeyFigure]
    axis: Markup
    events: int
    years: tuple[int, int] | None  # the first and last year of the timeline
    people: list[Any]  # Person records


def key_figures(site: Site) -> list[KeyFigure]:
    """Return the figures events mark as headline, in timeline order."""
    found = []
    for eid in site.timeline:
        event = site.records["events"][eid]
        assert isinstance(event, Event)
        for figure in event.figures:
            if figure.headline:
                source = site.records["sources"][figure.source]
                assert isinstance(source, Source)
                found.append(KeyFigure(figure, event, source))
    return found


def at_a_glance(site: Site, home: Record | None, lang: str = "en") -> Glance:
    """Return the home page's view data: key figures, the reduced timeline and the featured people."""
    bounds = [date_bounds(site.records["events"][eid]) for eid in site.timeline]  # type: ignore[arg-type]
    years = (min(first.year for first, _ in bounds), max(last.year for _, last in bounds)) if bounds else None
    people = [site.records["people"][pid] for pid in getattr(home, "featured", None) or []]
    return Glance(key_figures(site), glance_svg(site, lang), len(bounds), years, people)
