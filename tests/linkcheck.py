"""A small checker over a built site: every internal link and fragment resolves, nothing external loads."""

from __future__ import annotations

from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urlsplit

RESOURCE_ATTRIBUTES = {("link", "href"), ("script", "src"), ("img", "src"), ("iframe", "src"), ("source", "src"), ("video", "src"), ("audio", "src")}


class PageParser(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.links: list[str] = []
        self.resources: list[str] = []
        self.ids: set[str] = set()

    def handle_starttag(self, tag, attrs):
        values = dict(attrs)
        if "id" in values:
            self.ids.add(values["id"])
        if tag == "a" and "href" in values:
            self.links.append(values["href"])
        for (t, attribute) in RESOURCE_ATTRIBUTES:
            if tag == t and values.get(attribute):
                self.resources.append(values[attribute])


def parse(path: Path) -> PageParser:
    parser = PageParser()
    parser.feed(path.read_text(encoding="utf-8"))
    return parser


def target_file(site: Path, page: Path, href: str) -> Path | None:
    path = unquote(urlsplit(href).path)
    if path.startswith("/"):
        return None  # rooted links break under a subpath: reported by the caller
    folder = site if page.name == "404.html" else page.parent  # a page for missing addresses links from the site's root (its <base>)
    target = (folder / path).resolve() if path else page
    if target.is_dir():
        target = target / "index.html"
    return target


def check_site(site: Path) -> list[str]:
    """Return every broken internal link, rooted link and external resource in a built site."""
    site = site.resolve()
    pages = {p: parse(p) for p in sorted(site.rglob("*.html"))}
    problems = []
    for page, parsed in pages.items():
        name = page.relative_to(site).as_posix()
        for resource in parsed.resources:
            if urlsplit(resource).scheme or resource.startswith("//"):
                problems.append(f"{name}: loads an external resource {resource}")
        for href in parsed.links:
            parts = urlsplit(href)
            if parts.scheme in ("http", "https", "mailto"):
                continue
            if href.startswith("/"):
                problems.append(f"{name}: rooted link {href} breaks under a subpath")
                continue
            target = target_file(site, page, href)
            if target is None or not target.is_file() or not target.is_relative_to(site):
                problems.append(f"{name}: broken link {href}")
                continue
            if parts.fragment and not parts.fragment.startswith(":~:") and target in pages and parts.fragment not in pages[target].ids:
                problems.append(f"{name}: link {href} names a missing fragment")
    return problems
