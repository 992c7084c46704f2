"""The portable build's search: browsers refuse to load Pagefind's modules from file://, so a
portable build also carries `search/fallback.js`, the same text as a plain script."""

from __future__ import annotations

import json
import re
from html.parser import HTMLParser

# What search leaves out of a page, by class, besides what the templates mark data-pagefind-ignore: a
# page's own text is indexed, not the other pages it lists (their titles and summaries, indexed on
# their own pages), nor the passages of its reference list (indexed on their source's page), nor its
# citation markers and their previews. At 10,000 records this is about two fifths of what every page
# held for Pagefind: it indexes in about a fifth less CPU time and half the memory.
NOT_INDEXED = ("citation", "reference-list", "event-list", "link-list")
NOT_INDEXED_SET = frozenset(NOT_INDEXED)  # the classes search leaves out, as Pagefind is told to
LANGUAGE = re.compile(rb'<html lang="([^"]+)"')  # the page's language, as Pagefind reads it


class _BodyText(HTMLParser):
    """Collect the searchable text of a page: its data-pagefind-body element, less ignored parts."""

    VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}

    def __init__(self) -> None:
        super().__init__()
        self.depth = 0  # elements open inside the body element (0: outside it)
        self.ignored_at = 0  # depth at which an ignored element opened (0: none)
        self.title: list[str] = []
        self.in_title = False
        self.type = ""
        self.text: list[str] = []

    def handle_starttag(self, tag: str, attrs: list) -> None:
        values = dict(attrs)
        meta = values.get("data-pagefind-meta") or ""
        if meta.startswith("type:"):
            self.type = meta[5:]
        if tag in self.VOID:
            return
        if self.depth == 0 and "data-pagefind-body" in values:
            self.depth = 1
            return
        if self.depth:
            self.depth += 1
            ignored = "data-pagefind-ignore" in values or tag in ("script", "style", "svg") or not NOT_INDEXED_SET.isdisjoint((values.get("class") or "").split())
            if not self.ignored_at and ignored:
                self.ignored_at = self.depth
            if tag == "h1" and not self.title:
                self.in_title = True

    def handle_endtag(self, tag: str) -> None:
        if tag in self.VOID or not self.depth:
            return
        if self.ignored_at == self.depth:
            self.ignored_at = 0
        if tag == "h1":
            self.in_title = False
        self.depth -= 1

    def handle_data(self, data: str) -> None:
        if self.depth and not self.ignored_at:
            self.text.append(data)
            if self.in_title:
                self.title.append(data)


def fallback_index(files: dict[str, bytes]) -> bytes:
    """Return search/fallback.js: the title, type, text and language of every indexed page, for use
    from file:// (a page searches the pages of its own language, as Pagefind's index per language does)."""
    pages = []
    for path in sorted(files):
        if not path.endswith(".html"):
            continue
        parser = _BodyText()
        parser.feed(files[path].decode("utf-8"))
        if not parser.text:
            continue
        url = path[: -len("index.html")] if path.endswith("index.html") else path
        text = " ".join(" ".join(parser.text).split())
        lang = LANGUAGE.search(files[path])
        pages.append({"url": url, "title": " ".join("".join(parser.title).split()), "type": parser.type, "text": text,
                      "lang": lang.group(1).decode() if lang else ""})
    data = json.dumps(pages, ensure_ascii=False, separators=(",", ":")).replace("</", "<\\/")
    return ("// Search data for pages opened from disk, where Pagefind cannot load.\nwindow.dossierSearchPages = " + data + ";\n").encode("utf-8")
