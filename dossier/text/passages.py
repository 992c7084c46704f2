"""Finding cited passages in stored source texts.

Quotes match a seed after normalising only white space, typographic quote marks and dashes;
positions map back to the original text so that source pages can highlight the passage.
"""

from __future__ import annotations

import bisect
import difflib
import functools
import hashlib
import re
from array import array
from dataclasses import dataclass, field

TYPOGRAPHIC = str.maketrans({
    "\u2018": "'", "\u2019": "'", "\u201a": "'", "\u201b": "'", "\u2032": "'",
    "\u201c": '"', "\u201d": '"', "\u201e": '"', "\u201f": '"', "\u2033": '"',
    "\u2010": "-", "\u2011": "-", "\u2012": "-", "\u2013": "-", "\u2014": "-", "\u2015": "-", "\u2212": "-",
})
SPACE = re.compile(r"\s+")
NON_SPACE = re.compile(r"\S+")
SENTENCE = re.compile(r"\S.*?(?:[.!?…]+[\"'”’)\]]*(?=\s|$)|$)")  # up to a full stop (and any closing quotes) or the line's end
WORD = re.compile(r"\w+")
FOUND_AT_MOST = 5


@functools.lru_cache(maxsize=4096)  # a quote is normalised to be found, then soon after for its anchor
def normalize(text: str) -> str:
    """Fold typographic quotes and dashes to ASCII and collapse white space."""
    return SPACE.sub(" ", text.translate(TYPOGRAPHIC)).strip()


@functools.lru_cache(maxsize=16384)  # a page asks for each of its passages' several times
def passage_id(quote: str) -> str:
    """Return a stable anchor id for a passage: 'passage-' and a short hash of its normal form."""
    return "passage-" + hashlib.sha1(normalize(quote).encode("utf-8")).hexdigest()[:10]


@dataclass
class SeedText:
    """A seed's text with its normal form and a map from normal positions to original ones."""

    text: str
    normal: str = field(default="", compare=False)
    # Where each run of non-space characters starts, in the normal form and in the text: two
    # machine integers per word (not Python objects: a large project has many seeds).
    run_starts: array = field(default_factory=lambda: array("q"), repr=False, compare=False)
    run_origins: array = field(default_factory=lambda: array("q"), repr=False, compare=False)

    def __post_init__(self) -> None:
        folded = self.text.translate(TYPOGRAPHIC)
        pieces: list[str] = []
        offset = 0
        for match in NON_SPACE.finditer(folded):
            self.run_starts.append(offset)
            self.run_origins.append(match.start())
            pieces.append(match.group())
            offset += match.end() - match.start()
            if match.end() < len(folded):  # the run's trailing white space becomes one space
                pieces.append(" ")
                offset += 1
        self.normal = "".join(pieces)

    def origin(self, position: int) -> int:
        """Return the index in the text of a position in the normal form."""
        run = bisect.bisect_right(self.run_starts, position) - 1
        return self.run_origins[run] + position - self.run_starts[run]

    def locate(self, quote: str, outside: tuple[tuple[int, int], ...] = ()) -> tuple[int, int] | None:
        """Return the (start, end) in the original text of the quote's first occurrence that overlaps
        none of the spans given (the lines a republisher inserted), or None if there is none."""
        wanted = normalize(quote)
        if not wanted:
            return None
        start = self.normal.find(wanted)
        while start >= 0:
            span = self.origin(start), self.origin(start + len(wanted) - 1) + 1
            if not any(left < span[1] and span[0] < right for left, right in outside):
                return span
            start = self.normal.find(wanted, start + 1)
        return None

    def closest(self, quote: str) -> str | None:
        """Return the passage most like the quote, for error messages; None if nothing is close. The
        passage is aligned to the quote word by word: it starts at the text's word matching the
        quote's first (or standing where it would), never earlier than the sentence that word is in."""
        wanted = normalize(quote)
        matcher = difflib.SequenceMatcher(None, self.normal, wanted, autojunk=False)
        match = matcher.find_longest_match(0, len(self.normal), 0, len(wanted))
        if match.size < min(8, max(3, len(wanted) // 2)):
            return None
        low = max(0, match.a - match.b - len(wanted))  # room on both sides for words of other lengths
        high = min(len(self.normal), match.a + len(wanted) - match.b + len(wanted))
        low = self.normal.rfind(" ", 0, low) + 1 if low else 0
        high = self.normal.find(" ", high) if self.normal.find(" ", high) >= 0 else len(self.normal)
        region = self.normal[low:high].split()
        mine = wanted.split()
        words = difflib.SequenceMatcher(None, [word_key(w) for w in mine], [word_key(w) for w in region], autojunk=False)
        anchor = words.find_longest_match(0, len(mine), 0, len(region))
        if not anchor.size:
            return None
        first, last = anchor, anchor  # the quote's blocks of words found in order around the longest, each near where the quote puts it
        for block in words.get_matching_blocks():
            if not block.size or block == anchor:
                continue
            if block.a < first.a and block.b < first.b and first.b - (block.b + block.size) <= first.a - (block.a + block.size) + 2:
                first = block
            elif block.a >= last.a + last.size and block.b >= last.b + last.size and block.b - (last.b + last.size) <= block.a - (last.a + last.size) + 2:
                last = block
        start, end = first.b, last.b + last.size
        budget = len(" ".join(mine[:first.a]))  # the quote's words before its first found: about as many letters of the text's, within the sentence
        while budget > 0 and start > 0 and not ends_sentence(region[start - 1]):
            budget -= len(region[start - 1]) + 1
            start -= 1
            if budget < -2 and start < first.b - 1:  # one word always stands for what the quote has there
                start += 1
                break
        budget = len(" ".join(mine[last.a + last.size:]))  # and after its last found, up to the sentence's end
        while budget > 0 and end < len(region) and not ends_sentence(region[end - 1]):
            budget -= len(region[end]) + 1
            end += 1
            if budget < -2 and end > last.b + last.size + 1:
                end -= 1
                break
        return " ".join(region[start:end])

    def find(self, words: str, skip: tuple[str, ...] = ()) -> list[tuple[int, str]]:
        """Return the sentences of the text that hold the words, as (line, sentence), closest first
        (the words as written, then most of the words, then the sentence's place), at most five;
        none from a line that starts with one of the prefixes to skip (lines a republisher inserted)."""
        wanted = normalize(words).lower()
        wanted_words = set(WORD.findall(wanted))
        scored = []
        for number, line in enumerate(self.text.split("\n"), start=1):
            if skip and line.lstrip().startswith(skip):
                continue
            for sentence in SENTENCE.findall(line):
                folded = normalize(sentence).lower()
                shared = len(wanted_words & set(WORD.findall(folded))) / max(1, len(wanted_words))
                if wanted in folded or shared >= 0.5:
                    scored.append((wanted not in folded, -shared, number, sentence.strip()))
        return [(number, sentence) for _, _, number, sentence in sorted(scored)[:FOUND_AT_MOST]]


@functools.lru_cache(maxsize=256)
def inserted_spans(text: str, prefixes: tuple[str, ...]) -> tuple[tuple[int, int], ...]:
    """Return the (start, end) of each line of a stored text that a republisher inserted: those that
    begin with one of the prefixes a source names (`inserted_lines`, such as 'WATCH:')."""
    spans, offset = [], 0
    for line in text.split("\n"):
        if prefixes and line.lstrip().startswith(prefixes):
            spans.append((offset, offset + len(line)))
        offset += len(line) + 1
    return tuple(spans)


def ends_sentence(word: str) -> bool:
    """Tell whether a word of a stored text ends its sentence ('bridge.', 'history."')."""
    return word.rstrip("\"'”’)]").endswith((".", "!", "?", "…"))


def word_key(word: str) -> str:
    """Return a word as passages are compared word by word: without case or punctuation."""
    return "".join(WORD.findall(word.lower()))


def mark_differences(quote: str, passage: str) -> str:
    """Return the passage with each run of words that differs from the quote marked [quote's→passage's]
    (words compared without case or punctuation): "began to [scrape→scratch] the door"."""
    mine, theirs = normalize(quote).split(" "), normalize(passage).split(" ")
    matcher = difflib.SequenceMatcher(None, [word_key(w) for w in mine], [word_key(w) for w in theirs], autojunk=False)
    shown = []
    for operation, i1, i2, j1, j2 in matcher.get_opcodes():
        if operation == "equal":
            shown += theirs[j1:j2]
        else:
            shown.append(f"[{' '.join(mine[i1:i2])}→{' '.join(theirs[j1:j2])}]")
    return " ".join(shown)


def citation(source_id: str, passage: str) -> str:
    """Return a citation of a passage, ready to paste: [@source "passage"], its straight double quotes escaped."""
    return f'[@{source_id} "' + passage.replace("\\", "\\\\").replace('"', '\\"') + '"]'


def text_fragment(quote: str) -> str:
    """Return a URL text fragment ('#:~:text=…') that points a browser at the quote."""
    words = normalize(quote).split(" ")

    def encode(part: str) -> str:
        from urllib.parse import quote as percent
        return percent(part, safe="").replace("-", "%2D")

    if len(words) > 10:
        return "#:~:text=" + encode(" ".join(words[:4])) + "," + encode(" ".join(words[-4:]))
    return "#:~:text=" + encode(" ".join(words))
