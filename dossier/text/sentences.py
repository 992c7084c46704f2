"""Sentences: a Markdown body split into its sentences, each with the citations attached to it.

A citation belongs to the sentence it stands in or right after ("… the bridge.[@ap "…"]"). A full stop
inside a citation's quote, after an abbreviation ("Sgt.", "U.S.") or before a small letter ends no
sentence. The claims (claims.py) and the evidence derived from cited prose (evidence.py) both read
bodies this way.
"""

from __future__ import annotations

import functools
import hashlib
import re
import sys
from array import array
from dataclasses import dataclass, field
from typing import Callable, Iterator

from .markup import CITATION, LINK, LIST_ITEM, paragraphs, unescape_quote

MASK = "\ue000"  # stands in for each character of a citation while sentences are found: its quote may hold full stops
SENTENCE_END = re.compile(r"[.!?…]++[\"'”’)\]]*+(?:\s*+" + MASK + r"++)*+(?=\s|$)")  # possessive: runs of citations never backtrack
ABBREVIATION = re.compile(r"(?:(?:^|\b)[A-Z]|\b(?:Sgt|Lt|Col|Gen|Capt|Maj|Cpl|Pvt|Mr|Mrs|Ms|Dr|St|Jr|Sr|No|vs|etc|e\.g|i\.e|U\.S|U\.N))\.$")
LEADING = re.compile(r"(?:\s|>|\||" + LIST_ITEM.pattern[3:] + r")*")  # white space, a quote's '>', a table's '|' and a list item's bullet
EMPHASIS = re.compile(r"(\*{1,2}|_{1,2})(\S(?:.*?\S)?)\1")
SPACE = re.compile(r"\s+")


@dataclass(frozen=True, slots=True)  # many: one per citation of every body
class ClaimCitation:
    """A citation attached to a sentence."""

    source: str
    quote: str


@dataclass(frozen=True, slots=True)  # many: every sentence of every body, kept (sentences_of)
class Sentence:
    """A sentence of a body: the sources it cites, its file line, where it lies in the body, and its
    plain text and citations, read from the body when asked."""

    body: str = field(repr=False)  # the whole body it is part of: a sentence keeps no copy of its own text
    sources: tuple[str, ...]  # the source each of its citations names, in order: one tuple for each such list (shared_sources)
    line: int
    start: int  # offset in the body of its first word
    end: int  # offset in the body just after its last citation (or its last character)
    label: Callable[[str], str] | None = field(default=None, compare=False, repr=False)  # see plain()

    @property
    def markdown(self) -> str:
        """Return the sentence as written, citations and all."""
        return self.body[self.start:self.end]

    @property
    def citations(self) -> tuple[ClaimCitation, ...]:
        """Return its citations, read again from its text: a kept sentence holds only their sources
        (at 10,000 records 245,000 citations and their quotes, which the claims never read)."""
        return tuple(ClaimCitation(sys.intern(m[1]), unescape_quote(m[2])) for m in CITATION.finditer(self.markdown))

    @property
    def text(self) -> str:
        """Return the sentence as plain words."""
        return plain(self.markdown, self.label)

    @property
    def digest(self) -> str:
        """Return 8 hex digits standing for the sentence as written, citations and all (white space aside)."""
        return hashlib.sha256(SPACE.sub(" ", self.markdown).strip().encode("utf-8")).hexdigest()[:8]


def masked(text: str) -> str:
    """Return text with every citation's characters replaced by MASK (same length, same offsets)."""
    return CITATION.sub(lambda m: MASK * (m.end() - m.start()), text)


def plain(text: str, label: Callable[[str], str] | None = None) -> str:
    """Return a piece of Markdown as plain words: no citations, links as their labels (label(target)
    gives a link's text where it has none; else the target's id), no emphasis marks."""
    if "[@" in text:  # each pattern only where it can match: every claim of a site goes through here
        text = CITATION.sub("", text)
    if "[[" in text:
        text = LINK.sub(lambda m: (m[2] or (label(m[1].strip()) if label else m[1].rpartition("/")[2])).strip(), text)
    if "*" in text or "_" in text:
        text = EMPHASIS.sub(r"\2", text)
    return " ".join(text.split())  # white space collapsed, as str.split() and \s both read it


def sentence_spans(text: str) -> Iterator[tuple[int, int]]:
    """Yield the (start, end) of each sentence of a paragraph, an end taking in the citations after it."""
    hidden = masked(text)
    start = 0
    for match in SENTENCE_END.finditer(hidden):
        following = hidden[match.end():].lstrip()
        if following and following[0].islower():
            continue  # "e.g. a town": no sentence starts with a small letter
        if match.group() == "." and ABBREVIATION.search(hidden[max(0, match.start() - 5): match.end()]):
            continue  # "Sgt. Jorge Torres", "U.S. officials"
        yield skip_space(hidden, start), match.end()
        start = match.end()
    if hidden[start:].strip():
        yield skip_space(hidden, start), len(text)


def skip_space(text: str, start: int) -> int:
    """Return the offset of the first character at or after start that is not white space."""
    return len(text) - len(text[start:].lstrip()) if text[start:].strip() else start


def sentences(body: str, first_line: int, label: Callable[[str], str] | None = None) -> list[Sentence]:
    """Return every sentence of a Markdown body (headings left out), with its citations and file line
    (label: see plain())."""
    found: list[Sentence] = []
    lines = body.split("\n")
    line_offsets = [0]
    for text_line in lines:
        line_offsets.append(line_offsets[-1] + len(text_line) + 1)
    for line, paragraph in paragraphs(body, first_line):
        offset = line_offsets[line - first_line]
        for start, end in sentence_spans(paragraph):
            lead = LEADING.match(paragraph, start).end()  # type: ignore[union-attr]  # a pattern of a repeated group matches everywhere
            if lead >= end:
                continue
            piece = paragraph[lead:end]  # the body's own text from offset + lead to offset + end: a paragraph is its lines joined
            cited = shared_sources(tuple(m[1] for m in CITATION.finditer(piece)))
            if cited or piece.strip(" \t\n*_"):  # not emphasis marks alone
                found.append(Sentence(body, cited, line + paragraph.count("\n", 0, lead), offset + lead, offset + end, label))
    return found


def shared_sources(sources: tuple[str, ...]) -> tuple[str, ...]:
    """Return the one tuple kept for a list of cited sources, each id interned: 186,000 sentences
    at 10,000 records cite a few hundred such lists."""
    found = _SOURCES.get(sources)
    if found is None:
        found = _SOURCES[sources] = tuple(sys.intern(source) for source in sources)
    return found


_SOURCES: dict[tuple[str, ...], tuple[str, ...]] = {}


class KeptSentences:
    """The sentences of a body as sentences_of keeps them: the line and offsets of each in one array
    of numbers and the sources each cites, a Sentence made for each only while they are read (a
    large site keeps every body's: 186,000 sentences at 10,000 records)."""

    __slots__ = ("body", "spans", "sources")

    def __init__(self, body: str, found: list[Sentence]) -> None:
        self.body = body
        self.spans = array("I", (number for s in found for number in (s.line, s.start, s.end)))
        self.sources = tuple(s.sources for s in found)

    def __len__(self) -> int:
        return len(self.sources)

    def __iter__(self) -> Iterator[Sentence]:
        body, spans = self.body, self.spans
        for index, sources in enumerate(self.sources):
            yield Sentence(body, sources, spans[3 * index], spans[3 * index + 1], spans[3 * index + 2])


@functools.lru_cache(maxsize=1 << 15)
def sentences_of(body: str) -> KeptSentences:
    """Return the sentences of a body, its lines counted from 1: a body is split once, for the
    audit's uncited sentences, its claims and its page's claim anchors alike."""
    return KeptSentences(body, sentences(body, 1))
