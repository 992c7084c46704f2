"""A long page's table of contents, made from its h2 headings once the page is rendered, since the
headings come from the template and the body alike (a body's headings get ids here)."""

from __future__ import annotations

import html
import re

from markupsafe import Markup

from ..model.slug import fold_id

MARKER = "<!-- contents -->"  # where a template wants the contents
MIN_HEADINGS = 3  # a page with fewer sections is short enough without
HEADING = re.compile(r"<h2(?P<attrs>[^>]*)>(?P<inner>.*?)</h2>", re.S)
ID = re.compile(r'\bid="([^"]*)"')
TAG = re.compile(r"<[^>]+>")


def contents_marker() -> Markup:
    """Return the marker a template puts where the page's contents go."""
    return Markup(MARKER)


def add_contents(page: str, title: str = "Contents") -> str:
    """Put a list of the main content's h2 headings where the template marked it, giving every heading
    without an id one made from its text; a page with fewer than MIN_HEADINGS gets none."""
    if MARKER not in page:
        return page
    before, _, rest = page.partition(MARKER)
    main, end, after = rest.partition("</main>")
    taken: set[str] = set()  # the ids given here
    entries: list[tuple[str, str]] = []

    def used(anchor: str) -> bool:  # a search for one id, not a list of the page's (a millisecond for a record page)
        return anchor in taken or f'id="{anchor}"' in page and re.search(r'\bid="' + re.escape(anchor) + '"', page) is not None

    def named(match: re.Match) -> str:
        attrs, inner = match["attrs"], match["inner"]
        text = TAG.sub("", inner).strip()
        found = ID.search(attrs)
        anchor = found[1] if found else ""
        if not found:
            base = fold_id(html.unescape(text)) or "section"
            anchor, number = base, 2
            while used(anchor):
                anchor, number = f"{base}-{number}", number + 1
            taken.add(anchor)
            attrs = f' id="{anchor}"{attrs}'
        entries.append((anchor, text))
        return f"<h2{attrs}>{inner}</h2>"

    main = HEADING.sub(named, main)
    if len(entries) < MIN_HEADINGS:
        return before + main + end + after
    items = "".join(f'<li><a href="#{anchor}">{text}</a></li>' for anchor, text in entries)
    nav = f'<nav class="contents" aria-label="{title}" data-pagefind-ignore><p class="contents-title">{title}</p><ol>{items}</ol></nav>'
    return before + nav + main + end + after
