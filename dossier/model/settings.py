"""The settings a project gives in content/site.yaml for what the theme and the checks would otherwise
take from one documentary: the people index's groups, the home page's headings, the name check,
the timeline's filter pages.

A heading is a text, or the text in each language of the site (`{en: ..., es: ...}`): a `words`
field, held as {language: text} ('' for a text given once for every language).
"""

from __future__ import annotations

from dataclasses import dataclass

from .schema import spec


@dataclass(frozen=True, kw_only=True)
class PeopleGroup:
    """One group of the people index: the `part` that puts a person in it, and its heading."""

    part: str = spec("text", required=True, doc="what a person's `part` says to be in this group: a lowercase word such as 'official'")
    heading: dict = spec("words", required=True, doc="the group's heading, or its heading in each language: {en: Officials, es: Funcionarios}")


@dataclass(frozen=True, kw_only=True)
class HomeHeadings:
    """The headings of the home page's story at a glance."""

    figures: dict | None = spec("words", doc="above the figures events mark `headline: true` (default: Key figures, source by source)")
    featured: dict | None = spec("words", doc="above the people the home page features (default: At the centre of the story)")


@dataclass(frozen=True, kw_only=True)
class NameCheck:
    """The name check: capitalised phrases of the stored texts that no record's name or alias covers."""

    enabled: bool = spec("bool", default=True, doc="false: no name check")
    skip: list[str] = spec("ids:sources", default=[], doc="sources whose stored texts are not read for names")
    strict: bool = spec("bool", default=False, doc="true: `check --strict` fails on a name no record covers (by default a warning even then)")


# A record (a person, place, group, or a project type's record naming events) gets a timeline page of
# its events of its own only where it has more events than this: its own page already lists them, and
# at 10,000 records most have a few (there: 4,528 people's filter pages at 0, 1,680 at 3, 394 at 5).
FILTER_PAGES_OVER = 5


@dataclass(frozen=True, kw_only=True)
class TimelineSettings:
    """The timeline's filter pages."""

    filter_pages_over: int = spec("int", default=FILTER_PAGES_OVER, doc="a record has a timeline filter page of its own only with more events than this "
                                  "(0: every record with an event); the others' filters link to the record's page, which lists its events")


def filter_pages_over(config: object) -> int:
    """Return how many events a record needs more than for a timeline filter page of its own."""
    settings = getattr(config, "timeline", None)
    return FILTER_PAGES_OVER if settings is None else settings.filter_pages_over


def in_language(words: dict | None, lang: str, first: str) -> str:
    """Return a `words` value in a language: its own text, else the one given for every language,
    else the site's first language's, else any; '' for none."""
    if not words:
        return ""
    for key in (lang, "", first):
        if words.get(key):
            return words[key]
    return next(iter(words.values()), "")
