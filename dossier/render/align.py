"""A derivative set beside its original: both texts split into paragraphs and aligned by the build.

Paragraphs are aligned by dynamic programming over a similarity score (the share of folded words
the two sides have in common), in order, where one paragraph of either text may match two
consecutive ones of the other (a paragraph split or merged) and any paragraph may stay unmatched.
Lines a republisher inserted never match: they stand as unmatched rows where they occur.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from markupsafe import Markup, escape

from ..text.passages import TYPOGRAPHIC, passage_id
from ..model.schema import folded

WORD = re.compile(r"\w+(?:'\w+)*")
MATCH_FLOOR = 0.12  # a pair of paragraphs sharing less than this is no better than leaving both unmatched
STEPS = ((1, 1), (1, 2), (2, 1), (1, 0), (0, 1))  # paragraphs taken from (original, derivative) at each step
BAND = 40  # how far (in paragraphs) from the diagonal a match may lie: wider than any text's insertions


@dataclass(frozen=True)
class Paragraph:
    """One paragraph (a non-empty line) of a stored text, with where it lies in the text."""

    number: int  # 1-based, counting every non-empty line
    start: int
    end: int
    text: str
    inserted: bool = False


@dataclass
class Row:
    """One row of the aligned page: the original's paragraphs beside the derivative's."""

    original: list[Paragraph] = field(default_factory=list)
    derivative: list[Paragraph] = field(default_factory=list)

    @property
    def matched(self) -> bool:
        """Tell whether both sides hold a paragraph."""
        return bool(self.original and self.derivative)

    @property
    def inserted(self) -> bool:
        """Tell whether the row is a line a republisher inserted."""
        return any(p.inserted for p in self.original + self.derivative)


def paragraphs(text: str, inserted_lines: list[str] | tuple[str, ...] = ()) -> list[Paragraph]:
    """Split a stored text into its non-empty lines, marking those a republisher inserted."""
    found: list[Paragraph] = []
    offset = 0
    for line in text.split("\n"):
        start, end = offset, offset + len(line)
        offset = end + 1
        if line.strip():
            inserted = any(line.lstrip().startswith(prefix) for prefix in inserted_lines)
            found.append(Paragraph(len(found) + 1, start, end, line, inserted))
    return found


def fold(word: str) -> str:
    """Return a word as compared: no case, accents or typographic apostrophes."""
    return folded(word.translate(TYPOGRAPHIC))


def words(text: str) -> list[str]:
    """Return the folded words of a text, in order."""
    return [fold(w) for w in WORD.findall(text.translate(TYPOGRAPHIC))]


def similarity(left: str, right: str) -> float:
    """Return the share of distinct words two texts have in common (Dice's coefficient, 0 to 1)."""
    return dice(set(words(left)), set(words(right)))


def dice(a: set[str], b: set[str]) -> float:
    """Return Dice's coefficient of two sets of words."""
    return 2 * len(a & b) / (len(a) + len(b)) if a and b else 0.0


def overlap(left: str, right: str) -> int:
    """Return the percentage of the words of both sides that the other side also has."""
    a, b = words(left), words(right)
    if not a and not b:
        return 0
    sa, sb = set(a), set(b)
    return round(100 * (sum(w in sb for w in a) + sum(w in sa for w in b)) / (len(a) + len(b)))


def align(original: list[Paragraph], derivative: list[Paragraph]) -> list[Row]:
    """Align two lists of paragraphs in order, maximising the summed similarity of matched groups.
    Only pairs within BAND paragraphs of the diagonal are weighed, so that long texts take linear time."""
    n, m = len(original), len(derivative)
    ours, theirs = word_sets(original), word_sets(derivative)
    best: dict[tuple[int, int], float] = {(0, 0): 0.0}
    back: dict[tuple[int, int], tuple[int, int]] = {}
    reach = BAND + (m // n + 1 if n else m)  # wider where the derivative has many paragraphs to each of the original's
    for i in range(n + 1):
        centre = i * m // n if n else 0
        for j in range(max(0, centre - reach), min(m, centre + reach) + 1):
            here = best.get((i, j))
            if here is None:
                continue
            for di, dj in STEPS:
                if i + di > n or j + dj > m:
                    continue
                gain = 0.0
                if di and dj:
                    left, right = ours[di - 1][i], theirs[dj - 1][j]
                    if left is None or right is None:  # a republisher's line never matches
                        continue
                    # Dice's coefficient falls when an unrelated paragraph joins a group: a merge or
                    # split wins only where the second paragraph shares words with the other side.
                    gain = dice(left, right) - MATCH_FLOOR
                    if gain <= 0:
                        continue
                step = (i + di, j + dj)
                if here + gain > best.get(step, float("-inf")):
                    best[step], back[step] = here + gain, (di, dj)
    rows: list[Row] = []
    i, j = n, m
    while i or j:
        di, dj = back[(i, j)]
        rows.append(Row(original[i - di:i], derivative[j - dj:j]))
        i, j = i - di, j - dj
    return rows[::-1]


def word_sets(found: list[Paragraph]) -> tuple[list[set[str] | None], list[set[str] | None]]:
    """Return the word set of each paragraph and of each paragraph with the next; None where an inserted line is in it."""
    single = [None if p.inserted else set(words(p.text)) for p in found]
    pairs = [a | b if a is not None and b is not None else None for a, b in zip(single, single[1:])]
    return single, pairs


def marked(text: str, other: str) -> list[tuple[str, bool]]:
    """Split a text into pieces, each with whether it is a word the other text lacks."""
    theirs = set(words(other))
    pieces: list[tuple[str, bool]] = []
    offset = 0
    for match in WORD.finditer(text.translate(TYPOGRAPHIC)):  # the same length as text: offsets hold
        if fold(match.group()) in theirs:
            continue
        if match.start() > offset:
            pieces.append((text[offset:match.start()], False))
        pieces.append((text[match.start():match.end()], True))
        offset = match.end()
    if offset < len(text):
        pieces.append((text[offset:], False))
    return pieces


# The aligned page's view data, read through the site a page reads (reads.SiteReads).


@dataclass
class Side:
    """One side of a row as the page shows it: its paragraphs, words the other side lacks marked."""

    paragraphs: list[Paragraph]
    html: list[Markup]


@dataclass
class AlignedRow:
    """A row of the aligned page: both sides, their overlap, and the conflicts quoting a passage in it."""

    original: Side
    derivative: Side
    overlap: int | None  # percentage; None when a side is empty
    inserted: bool
    conflicts: list[Any]


def aligned_url(source_id: str) -> str:
    """Return the address of a derivative's page beside its original."""
    return f"sources/{source_id}/aligned/"


def has_aligned_page(site: Any, source: Any) -> bool:
    """Tell whether a source gets a page beside its original: it derives from a source the site has."""
    return bool(source.derived_from) and source.derived_from in site.records["sources"]


def aligned_rows(site: Any, derivative: Any) -> list[AlignedRow]:
    """Return the rows of a derivative's page beside its original, each flagged with the conflicts
    that quote a passage of either side of it."""
    original = site.records["sources"][derivative.derived_from]
    left = paragraphs(site.seed_of(original).text, original.inserted_lines)
    right = paragraphs(site.seed_of(derivative).text, derivative.inserted_lines)
    quoted = conflict_spans(site, {original.id, derivative.id})
    rows = []
    for row in align(left, right):
        a, b = " ".join(p.text for p in row.original), " ".join(p.text for p in row.derivative)
        held = {(original.id, p.start, p.end) for p in row.original} | {(derivative.id, p.start, p.end) for p in row.derivative}
        flags = [conflict for conflict, spans in quoted if any(inside(span, held) for span in spans)]
        rows.append(AlignedRow(side(row.original, b), side(row.derivative, a), overlap(a, b) if row.matched else None, row.inserted, flags))
    return rows


def inside(span: tuple[str, int, int], paragraphs: set[tuple[str, int, int]]) -> bool:
    """Tell whether a passage (source, start, end) overlaps one of these paragraphs (source, start, end)."""
    source, start, end = span
    return any(source == held and start < stop and begin < end for held, begin, stop in paragraphs)


def side(found: list[Paragraph], other: str) -> Side:
    """Return one side of a row, marking the words the other side lacks (none when it is empty)."""
    html = []
    for paragraph in found:
        pieces = marked(paragraph.text, other) if other and not paragraph.inserted else [(paragraph.text, False)]
        html.append(Markup("").join(Markup('<mark class="only">{}</mark>').format(text) if lacks else escape(text) for text, lacks in pieces))
    return Side(found, html)


def conflict_spans(site: Any, sources: set[str]) -> list[tuple[Any, list[tuple[str, int, int]]]]:
    """Return each conflict with where its claims' passages lie in these sources, by id."""
    found = []
    for cid in sorted(site.records["conflicts"]):
        conflict = site.records["conflicts"][cid]
        spans = []
        for claim in conflict.claims:
            if claim.source in sources:
                passage = site.passages.get(claim.source, {}).get(passage_id(claim.quote))
                if passage is not None:
                    spans.append((claim.source, passage.start, passage.end))
        if spans:
            found.append((conflict, spans))
    return found
