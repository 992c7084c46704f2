"""What Pagefind is given of a page: its searchable element alone, less what search leaves out.

Pagefind parses every byte of the pages it indexes, though it indexes only the element marked
`data-pagefind-body`, less the elements marked `data-pagefind-ignore` or of a class search leaves
out (render/fallback.py NOT_INDEXED). A record page's reference list, its citations' previews, its
head and its navigation are three fifths of its bytes: Pagefind takes about half the CPU time on a
copy that holds only what it indexes (measured on 620 pages of the 10,000-record benchmark: 0.9 s
against 2.0 s). search_text() makes that copy by cutting the page's own HTML at its tags, with no
parser: the pages are the templates', so their elements are well formed.

It also drops the attributes search has no use for (UNUSED) and the tags of inline elements
(INLINE). Pagefind keeps each element with an id as an anchor, for results within a page, which
the search page does not show (a record page marks each of its claims with one, a source page each
passage), and parses every other attribute and tag. Without them it indexes the same words, and
takes a fourth less CPU time: 21.9 s against 16.6 s for the 16 parts of the 10,000-record benchmark
run one after another (medians of three, old and new in turn), for 0.7 s more here. Their
fragments differ only in the anchors; on this documentary's source pages, the text also loses the
spaces Pagefind put at each passage's anchor ('" But that' is now '"But that', as the article has it).
"""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import threading
from pathlib import Path

from ..render.fallback import NOT_INDEXED

BODY = b"data-pagefind-body"
LANGUAGE = re.compile(rb'<html lang="([^"]+)"')
# What marks, in its start tag, an element that search leaves out: the ignore mark, or one of the
# classes, each after a space. Two patterns that start with a literal are found three times faster than one.
LEFT_OUT = (re.compile(rb"data-pagefind-ignore(?=[\s=>])"),
            re.compile(rb'class="(?:[^"]*\s)?(?:' + b"|".join(re.escape(name.encode()) for name in NOT_INDEXED) + rb')(?=[\s"])'))
SPACE = frozenset(b" \t\n\r\f")
TAG = re.compile(rb"<([a-z][a-z0-9]*)\b")
VOID = frozenset(b"area base br col embed hr img input link meta source track wbr".split())
# The attributes search has no use for, in a start tag (what follows holds a ">" before any "<"):
# Pagefind reads data-pagefind-* (and the html element's lang), and would keep each id as an anchor.
UNUSED = re.compile(rb'\s(?:id|class|href|title|role|rel|tabindex|aria-[a-z]+|data-(?!pagefind-)[a-z-]+)="[^"]*"(?=[^<]*>)')
# Inline elements' tags, which break no word: Pagefind reads the same text without them. Left in
# place where one of them carries an attribute of Pagefind's (a template's data-pagefind-filter, say).
INLINE_NAMES = rb"(?:a|abbr|b|cite|em|i|small|span|strong|sub|sup|time)"
INLINE = re.compile(rb"</?" + INLINE_NAMES + rb"(?:\s[^>]*)?>")
PAGEFIND_INLINE = re.compile(rb"<" + INLINE_NAMES + rb"\s[^>]*data-pagefind")
HEAD = b'<!doctype html>\n<html lang="%s"><head><meta charset="utf-8"></head><body>\n'


END_TAGS: dict[bytes, re.Pattern[bytes]] = {}  # by tag name: its start and end tags (see element_end)


def element_end(page: bytes, tag: bytes, start: int) -> int:
    """Return where the element whose start tag ends at start closes (after its end tag), counting
    the elements of the same name nested in it; the page's end if it never does."""
    if tag in VOID:
        return start
    pattern = END_TAGS.get(tag) or END_TAGS.setdefault(tag, re.compile(rb"<(/?)" + tag + rb"[\s>/]"))
    depth = 1
    for found in pattern.finditer(page, start):
        depth += -1 if found[1] else 1
        if depth == 0:
            close = page.find(b">", found.start())
            return len(page) if close < 0 else close + 1
    return len(page)


def search_text(page: bytes) -> bytes | None:
    """Return the page as Pagefind needs it (its language and its searchable element, less what
    search leaves out), or None for a page search does not index."""
    marked = page.find(BODY)
    if marked < 0:
        return None
    start = page.rfind(b"<", 0, marked)
    tag = re.match(rb"<([a-z][a-z0-9]*)", page[start:start + 20])
    if tag is None:
        return None
    end = element_end(page, tag[1], page.find(b">", marked) + 1)
    kept: list[bytes] = []
    at = start
    for mark in sorted(found.start() for pattern in LEFT_OUT for found in pattern.finditer(page, start, end) if page[found.start() - 1] in SPACE):
        opening = page.rfind(b"<", 0, mark)
        if opening < at or page.find(b">", opening) < mark:
            continue  # inside an element already left out, or not in a tag
        tag = TAG.match(page, opening)
        if tag is None:
            continue  # in an end tag or a comment
        kept.append(page[at:opening])
        at = element_end(page, tag[1], page.find(b">", mark) + 1)
    kept.append(page[at:end])
    language = LANGUAGE.search(page)
    text = UNUSED.sub(b"", b"".join(kept))
    if not PAGEFIND_INLINE.search(text):
        text = INLINE.sub(b"", text)
    return HEAD % (language[1] if language else b"en") + text + b"\n</body></html>\n"


def removal_of_texts(folder: Path) -> threading.Thread:
    """Start deleting a part's folder of texts (see texts_in_order) in a thread of its own: the
    thread that runs Pagefind goes on to the next part."""
    remover = threading.Thread(target=shutil.rmtree, args=(folder,), kwargs={"ignore_errors": True})
    remover.start()
    return remover


def texts_in_order(texts: Path, paths: list[str], shared: list[str], folder: Path) -> None:
    """Move the texts of a part's pages from texts into folder (link those of shared pages, which
    every part indexes), making its folders in the order of their paths. Pagefind indexes pages in
    the order it finds them, and a file system lists a folder in an order of its own: in memory
    (tmpfs) the order its entries were made, on ext4 a hash of their names. Texts written in any
    order by the rendering processes, or made later for pages carried over, would otherwise make
    an index of other bytes wherever a folder lists what it holds as it was made."""
    shutil.rmtree(folder, ignore_errors=True)
    base, target = str(texts), str(folder)
    for path in sorted(paths + shared):
        os.makedirs(os.path.join(target, os.path.dirname(path)), exist_ok=True)
        try:
            (os.link if path in shared else os.rename)(os.path.join(base, path), os.path.join(target, path))
        except FileNotFoundError:  # a page with nothing to search: Pagefind finds no text for it, as before
            continue
        if path not in shared and path.count("/") > 1:  # 'people/x/index.html': its folder is its own, now empty
            with contextlib.suppress(OSError):
                os.rmdir(os.path.join(base, os.path.dirname(path)))
