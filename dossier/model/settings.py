"""The settings a project gives in content/site.yaml for what the theme and the checks would otherwise
take from one documentary: the people index's groups, the home page's headings, the name check.

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


def in_language(words: dict | None, lang: str, first: str) -> str:
    """Return a `words` value in a language: its own text, else the one given for every language,
    else the site's first language's, else any; '' for none."""
    if not words:
        return ""
    for key in (lang, "", first):
        if words.get(key):
            return words[key]
    return next(iter(words.values()), "")
