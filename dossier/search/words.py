"""The words of a page, as search indexes them: what the session counts of the pages it makes, so
that a site in parts is indexed with every word of the site (see parts.VOCABULARY_PAGE).
"""

from __future__ import annotations

import html
import re

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
