"""A large site's index in parts: which part indexes each page, where each part's bundle goes, the
delta of the pages changed since the parts were indexed, and what the last index's parts.json says.
"""

from __future__ import annotations

import gzip
import hashlib
import json
import zlib
from dataclasses import dataclass
from pathlib import Path
from typing import Iterable, Iterator

BUNDLE = "pagefind"  # where the index goes in the site
# Pagefind holds every word it indexes in memory (about 0.3 MB a page of ours) until it writes the
# index: a large site is indexed in parts of at most about this many pages, which the search page
# loads together. Only the parts whose pages changed are indexed again.
PART_PAGES = 1000
# Pagefind quietly matches nothing once a glob is about 300,000 characters long (measured with 1.5.2):
# parts are also made small enough that the paths of one stay well below that.
PART_CHARACTERS = 100_000
# Where a word is in none of a part's pages, Pagefind searches that part for the longest start of it
# that is ("to" for "torres"): each part also indexes a page holding every word of the site, which
# the search page leaves out of its results, so that a part answers as the whole index would.
VOCABULARY_PAGE = "pagefind-vocabulary/index.html"
# Once a site is in parts, a build indexes the pages new, changed or gone since the parts were last
# all indexed (accumulated over builds) into one small extra bundle, the delta, and carries every part
# over, while those pages are at most PART_PAGES // DELTA_SHARE. The delta is indexed whole at each
# build and the search page loads the list of pages it replaces, so it must stay small beside a part:
# a quarter of one costs about a quarter of one part's run, and beyond that, indexing the parts holding
# those pages again costs little more and leaves no delta. A site in one part is indexed whole, as
# before: it has no vocabulary page, and a run over one part is what a delta would save little on.
DELTA = "delta"  # the delta's folder in the bundle
DELTA_SHARE = 4


def delta_takes(pages: set[str]) -> bool:
    """Tell whether the delta may index these pages, rather than the parts that hold them (see DELTA)."""
    return len(pages) <= PART_PAGES // DELTA_SHARE


def split(pages: Iterable[str], part_pages: int | None = None) -> list[list[str]]:
    """Split the searchable pages into parts of about part_pages at most: a power of two of them,
    each page in the part its path hashes to, so that the same page stays in the same part."""
    pages = sorted(pages)
    limit = part_pages or PART_PAGES
    characters = sum(len(path) + 1 for path in pages)
    count = 1
    while count * limit < len(pages) or count * PART_CHARACTERS < characters:
        count *= 2
    while True:
        parts: list[list[str]] = [[] for _ in range(count)]
        for path in pages:
            parts[part_of(path, count)].append(path)
        if count == 1 or all(parts):  # Pagefind cannot index an empty part
            return parts
        count //= 2


def part_of(path: str, count: int) -> int:
    """Return the number of the part that indexes a page, out of count parts."""
    return zlib.crc32(path.encode("utf-8")) % count


DELTA_PART = -1  # the delta's number among the parts


def part_folder(number: int) -> str:
    """Return where a part's (or the delta's) bundle goes in the site: the first is the one the search page loads."""
    return BUNDLE if number == 0 else f"{BUNDLE}/{DELTA}" if number == DELTA_PART else f"{BUNDLE}/parts/{number}"


@dataclass
class Delta:
    """The pages indexed since the parts were, in a bundle of their own (see DELTA)."""

    pages: list[str]  # the pages it indexes: those new or changed since the parts were indexed
    replaces: list[str]  # those and the pages gone since: the search page drops the parts' copies
    base: set[str]  # the words the parts were indexed with
    added: list[str]  # the site's words that are not among those
    carried: bool = False  # no page changed since the previous delta: it is carried over


def previous_listing(site: Path) -> dict:
    """Return the parts.json of a built site's search bundle if every part (and delta) it lists is
    there ({}: none, or not one that can be brought up to date)."""
    try:
        listing = json.loads((site / BUNDLE / "parts.json").read_text(encoding="utf-8"))
        folders = list(listing["parts"]) + ([listing[DELTA]["folder"]] if DELTA in listing else [])
        complete = all((site / BUNDLE / name / "pagefind.js").is_file() for name in folders)
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return {}
    return listing if complete else {}


def words_digest(words: set[str]) -> str:
    """Return the digest of a set of words, as parts.json keeps it."""
    return hashlib.sha256(" ".join(sorted(words)).encode("utf-8")).hexdigest()[:20]


def base_words(bundle: Path, listing: dict) -> set[str] | None:
    """Return the words the parts of a bundle were indexed with, read back from the first part's
    vocabulary page (None: it is not there, or does not hold the words parts.json says)."""
    try:
        text = gzip.decompress((bundle / "fragment" / f"{listing['vocabulary']}.pf_fragment").read_bytes()).decode("utf-8")
        words = set(json.loads(text[text.index("{"):])["content"].split())
    except (OSError, ValueError, KeyError, TypeError, EOFError):
        return None
    return words if words_digest(words) == listing.get("words") else None


def fragments(bundle: Path) -> Iterator[tuple[str, dict]]:
    """Yield the name and data of each page fragment of one bundle (its result id and what it shows)."""
    for fragment in sorted((bundle / "fragment").glob("*.pf_fragment")):
        text = gzip.decompress(fragment.read_bytes()).decode("utf-8")
        yield fragment.name.removesuffix(".pf_fragment"), json.loads(text[text.index("{"):])
