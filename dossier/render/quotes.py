"""A person's own words: the passages their page cites that the source prints as their direct speech.

A cited passage counts when it starts inside quotation marks in its paragraph and the attribution
next to the quotation ('…,” Torres said', 'said Sgt. Jorge Torres', 'the female soldier said')
puts a speech verb within a few words of the person's surname, or of the description that names
an anonymous person. Attributions by pronoun alone ('he said') are not followed: a quote is left
out rather than given to the wrong person. A passage the page already prints in full (cited with
`show`), or words another listed passage already holds, are not listed again.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

from ..check.link import Site
from ..text.markup import CITATION, has_flag, unescape_quote
from ..text.passages import passage_id
from ..model.schema import Person, Source

SPEECH_VERBS = {
    "said", "says", "say", "told", "tells", "asked", "asks", "added", "adds", "recalled", "recalls", "explained",
    "explains", "cried", "acknowledged", "acknowledges", "agreed", "agrees", "warned", "warns", "insisted", "insists",
}
CONNECTORS = {"who", "working", "hit", "of", "interviewed", "by", "in", "on", "at", "for", "with", "hosting", "that"}
WINDOW = 12  # words of attribution read on each side of a quotation
NEAR = 4  # how close the verb and the name must be, in words


@dataclass(frozen=True)
class OwnQuote:
    """A passage a person's page cites that the source prints as the person's words."""

    source: Source
    quote: str
    anchor: str  # the passage's anchor on the source page


def fold(text: str) -> str:
    """Lower-case text and drop accents, for matching names."""
    return "".join(c for c in unicodedata.normalize("NFD", text) if unicodedata.category(c) != "Mn").casefold()


def words(text: str) -> list[str]:
    """Split text into folded words."""
    return re.findall(r"[a-z0-9]+(?:['’][a-z]+)?", fold(text))


def name_words(person: Person) -> set[str]:
    """Return the words an attribution uses for a person: surnames, or an anonymous person's description."""
    if person.anonymous:
        head = []
        for word in words(person.name):
            if word in CONNECTORS:
                break
            head.append(word)
        return {w for w in head if len(w) >= 3}
    return {words(name)[-1] for name in [person.name, *person.aliases] if words(name)}


def quotation_around(text: str, start: int) -> tuple[int, int] | None:
    """Return the (opening, closing) mark offsets of the quotation that contains start, within its paragraph."""
    if text[start: start + 1] in ("“", '"'):
        start += 1  # the cited passage begins with the opening mark itself
    first = text.rfind("\n", 0, start) + 1
    last = text.find("\n", start)
    last = len(text) if last < 0 else last
    opened = None
    for match in re.finditer(r"[“”\"]", text[first:last]):
        offset, mark = first + match.start(), match.group()
        if mark == "“" or (mark == '"' and opened is None):
            opened = offset
        elif opened is not None:
            if opened < start <= offset:
                return opened, offset
            opened = None
    if opened is not None and opened < start:
        return opened, last
    return None


def attributions(text: str, opening: int, closing: int) -> list[list[str]]:
    """Return the words just after a quotation and just before it, up to the nearest other quotation."""
    first = text.rfind("\n", 0, opening) + 1
    last = text.find("\n", closing)
    last = len(text) if last < 0 else last
    after = re.split(r"[“\"]", text[closing + 1: last], maxsplit=1)[0]
    before = re.split(r"[”\"]", text[first:opening])[-1]
    return [words(after)[:WINDOW], words(before)[-WINDOW:]]


def attributed_to(window: list[str], names: set[str]) -> bool:
    """Tell whether a speech verb stands within a few words of one of the names."""
    verbs = [i for i, word in enumerate(window) if word in SPEECH_VERBS]
    named = [i for i, word in enumerate(window) if word in names]
    return any(abs(v - n) <= NEAR for v in verbs for n in named)


def shown_spans(site: Site, person: Person) -> dict[str, list[tuple[int, int]]]:
    """Return, by source id, where in its stored text each passage lies that the person's page prints in full (`show`)."""
    spans: dict[str, list[tuple[int, int]]] = {}
    for match in CITATION.finditer(person.body):
        source = site.records["sources"].get(match[1])
        if has_flag(match, "show") and isinstance(source, Source) and source.seed in site.seeds:
            span = site.seed_of(source).locate(unescape_quote(match[2]))
            if span:
                spans.setdefault(source.id, []).append(span)
    return spans


def shows_quotes(person: Person) -> bool:
    """Tell whether a person's page prints any passage in full (`show`)."""
    return any(has_flag(match, "show") for match in CITATION.finditer(person.body))


def own_quotes(site: Site, person: Person) -> list[OwnQuote]:
    """Return the passages cited on a person's page that the sources print as the person's own words,
    less those whose words the page already prints in full or an earlier passage of the list holds."""
    names = name_words(person)
    found: dict[tuple[str, str], OwnQuote] = {}
    taken = shown_spans(site, person)
    for citation in site.citations.get(("people", person.id), []):
        source = site.records["sources"].get(citation.source)
        if not isinstance(source, Source) or source.seed not in site.seeds:
            continue
        text = site.seed_of(source).text
        passage = site.passages.get(source.id, {}).get(passage_id(citation.quote))  # where linking found it
        span = (passage.start, passage.end) if passage is not None else None
        quotation = quotation_around(text, span[0]) if span else None
        if span and any(start < span[1] and span[0] < end for start, end in taken.get(source.id, [])):
            continue  # its words are on the page already
        if quotation and any(attributed_to(window, names) for window in attributions(text, *quotation)):
            anchor = passage_id(citation.quote)
            found.setdefault((source.id, anchor), OwnQuote(source, citation.quote, anchor))
            taken.setdefault(source.id, []).append(span)  # type: ignore[arg-type]
    return list(found.values())
