"""The words of the pages search indexes, counted page by page as a session makes them, so that a
site in parts is indexed with every word of the site (parts.VOCABULARY_PAGE) without reading its
pages again.
"""

from __future__ import annotations

import html
import re
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterable

from .pagetext import search_text

SEARCHABLE = b"data-pagefind-body"  # what marks a page whose text is indexed
TAG = re.compile(r"<[^>]*>")
WORD = re.compile(r"[^\W_]+(?:['’.\-][^\W_]+)*")
JOINER = re.compile(r"['’.\-]")


def words_of(page: bytes) -> set[str]:
    """Return the words of a page (more than search indexes, never fewer): each run of letters and
    digits, and runs joined by apostrophes, hyphens or dots both as they are and run together.
    Only what follows the first element search indexes is read: Pagefind indexes nothing before it."""
    marked = page.find(SEARCHABLE)
    if marked >= 0:
        page = page[page.find(b">", marked) + 1:]
    text = html.unescape(TAG.sub(" ", page.decode("utf-8", "replace"))).lower()
    found = set(WORD.findall(text))
    for word in [word for word in found if JOINER.search(word)]:
        found.add(JOINER.sub("", word))
        found.update(JOINER.split(word))
    return found


def text_words(page: bytes) -> set[str]:
    """Return the words of the text a page gives search (pagetext.search_text): what the vocabulary
    counts, the words Pagefind indexes and a few more (see words_of), never fewer."""
    text = search_text(page)
    return words_of(text) if text is not None else set()


@dataclass
class PageWords:
    """The pages last made whose text search indexes, and in how many of them each word is."""

    searchable: set[str] = field(default_factory=set)  # the pages written last whose text search indexes
    counts: Counter[str] = field(default_factory=Counter)  # each word of those pages: in how many of them
    changes: Counter[str] = field(default_factory=Counter)  # what the pages made since the last settle() change in it

    def note(self, path: str, data: bytes, previous: Path | None) -> bytes | None:
        """Remember whether a new or changed page holds text for search to index, and count the words
        of that text, less those of the page it replaces (read from previous; without previous, they
        stay counted); return the text as Pagefind is given it (pagetext.py), None if there is none."""
        if path in self.searchable and previous is not None:
            self.changes.subtract(text_words((previous / path).read_bytes()))
        text = search_text(data) if SEARCHABLE in data else None
        if text is not None:
            self.searchable.add(path)
            self.changes.update(words_of(text))
        else:
            self.searchable.discard(path)
        return text

    def settle(self, pages: Iterable[str], previous: Path | None) -> set[str]:
        """Take the word counts of the pages made, and of the searchable pages no longer among pages
        (read from previous), into counts; forget the gone pages and return them."""
        gone = self.searchable.difference(pages)
        for path in gone if previous is not None else ():
            self.changes.subtract(text_words((previous / path).read_bytes()))  # type: ignore[operator]  # previous is not None here
        self.searchable -= gone
        self.counts.update(self.changes)
        for word in self.changes:  # only the words of these pages can have dropped to none
            if self.counts[word] <= 0:
                del self.counts[word]
        self.changes = Counter()
        return gone

    def forget(self) -> None:
        """Forget every page: all are to be made again."""
        self.searchable, self.counts = set(), Counter()
