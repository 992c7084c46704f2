"""How much of a derivative source's text it shares word for word with its original."""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass

from ..text.passages import TYPOGRAPHIC

RUN = 5  # the fewest words in a row that count as shared text


@dataclass(frozen=True)
class Overlap:
    """Shared word runs between a derivative and its original, counted in words."""

    shared: int  # words of the derivative inside shared runs (the same count holds for the original)
    derivative_words: int
    original_words: int
    runs: int
    longest: int

    @property
    def derivative_share(self) -> int:
        """Return the percentage of the derivative's words that are shared."""
        return round(100 * self.shared / self.derivative_words) if self.derivative_words else 0

    @property
    def original_share(self) -> int:
        """Return the percentage of the original's words that are shared."""
        return round(100 * self.shared / self.original_words) if self.original_words else 0


def tokens(text: str) -> list[str]:
    """Split a text into lower-case words, folding typographic quotes."""
    return re.findall(r"\w+(?:'\w+)?", text.translate(TYPOGRAPHIC).casefold())


def overlap(derivative: str, original: str) -> Overlap:
    """Count the words the two texts share in runs of at least RUN words, in order."""
    ours, theirs = tokens(derivative), tokens(original)
    matcher = difflib.SequenceMatcher(None, ours, theirs, autojunk=False)
    runs = [block.size for block in matcher.get_matching_blocks() if block.size >= RUN]
    return Overlap(sum(runs), len(ours), len(theirs), len(runs), max(runs, default=0))
