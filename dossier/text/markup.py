"""Markdown bodies: finding [[links]] and [@source "quote"] citations, and rendering to safe HTML."""

from __future__ import annotations

import bisect
import functools
import re
import sys
import xml.etree.ElementTree as etree
from dataclasses import dataclass
from typing import Callable, Protocol

import markdown
import nh3
from markdown.inlinepatterns import InlineProcessor
from markdown.treeprocessors import InlineProcessor as InlineProcessor_
from markdown.util import AtomicString

from ..model.problems import Problem
from ..model.schema import Citation
from .smarty import HELD, HELD_AT, QuickSmarty, educate, smarty_patterns

LINK = re.compile(r"\[\[([^\[\]|\n]*)(?:\|([^\[\]\n]*))?\]\]")
CITATION = re.compile(r'\[@([^\s\]"]*)\s+"((?:[^"\\]++|\\.)*+)"((?:\s+(?:sole|show))*)\s*\]')  # possessive: the quote ends at its first unescaped '"' 
CITATION_START = re.compile(r"\[@")
CLAIM, SUPPORT = "\ue001{}\ue002", "\ue003{}\ue004"  # where a claim starts, and where its support is shown (claims.mark_claims)
MARKS = re.compile(CITATION.pattern + "|" + CLAIM.format(r"(\d+)") + "|" + SUPPORT.format(r"(\d+)"))  # what render() writes in itself
HELD_RUN = re.compile("\ue010\\d+\ue011(?:\\s*\ue010\\d+\ue011)*")  # marks with only white space between them: a sentence's citations and support
REPEAT = "\ue020"  # before a link's target: the record is linked already in this section, so its label shows as plain text
ESCAPED = re.compile(r"\\(.)")
LIST_ITEM = re.compile(r"\s*(?:[-*+]|\d+[.)])\s")
ALLOWED_TAGS = {
    "a", "abbr", "b", "blockquote", "br", "cite", "code", "del", "dd", "div", "dl", "dt", "em", "figcaption",
    "figure", "h2", "h3", "h4", "h5", "h6", "hr", "i", "ins", "kbd", "li", "mark", "ol", "p", "pre", "q", "s",
    "small", "span", "strong", "sub", "sup", "table", "tbody", "td", "th", "thead", "tr", "ul",
}
ALLOWED_ATTRIBUTES = {
    "*": {"id", "class", "title", "lang", "dir"},
    "a": {"href", "aria-label", "aria-describedby", "role", "data-untranslated"},
    "abbr": {"title"}, "td": {"colspan", "rowspan"}, "th": {"colspan", "rowspan", "scope"},
    "ol": {"start"}, "span": {"role", "tabindex", "aria-label", "aria-describedby", "aria-hidden", "data-pagefind-ignore"},
}


@dataclass(frozen=True)
class LinkRef:
    """A [[target|label]] link in a body, with its file line and column."""

    target: str
    label: str | None
    line: int
    column: int = 0


def line_at(text: str, offset: int, first_line: int) -> int:
    """Return the file line of an offset into a body that starts at first_line."""
    return first_line + text.count("\n", 0, offset)


def column_at(text: str, offset: int) -> int:
    """Return the column (from 1) of an offset into a body: a body's lines start at its file's."""
    return offset - text.rfind("\n", 0, offset)


def malformed(text: str, start: int) -> str:
    """Return a malformed citation as written: from its '[@' to its closing ']' (or the end of its
    line, or the next citation, where it has none), so that it is echoed whole."""
    end = len(text)
    for stop in ("\n", "[@"):
        found = text.find(stop, start + 2)
        if found >= 0:
            end = min(end, found)
    closing = text.find("]", start, end)
    return text[start: closing + 1 if closing >= 0 else end].rstrip()


def has_flag(match: re.Match, flag: str) -> bool:
    """Tell whether a citation match carries a flag: `sole` (only a derivative has the passage)
    or `show` (print the quoted passage inline before its marker)."""
    return flag in (match[3] or "").split()


def unescape_quote(raw: str) -> str:
    """Undo backslash escapes in a quoted passage: \\" becomes "."""
    return ESCAPED.sub(r"\1", raw) if "\\" in raw else raw


OPENING_STRAIGHT = re.compile(r"""(^|[\s(\[—–])["']""")


@functools.lru_cache(maxsize=16384)  # a page shows each passage in a marker's preview and in its reference list
def inner_quotes(quote: str) -> str:
    """Return a passage as it reads inside quotation marks: its own double quotes become single
    (“all options” → ‘all options’), and straight quotes and apostrophes become curly ones."""
    quote = OPENING_STRAIGHT.sub(r"\1‘", quote)
    return quote.replace('"', "’").replace("'", "’").replace("“", "‘").replace("”", "’")


def lines_at(text: str, offsets: list[int], first_line: int) -> list[int]:
    """Return the file lines of ascending offsets into a body, counting each newline once."""
    lines, line, previous = [], first_line, 0
    for offset in offsets:
        line += text.count("\n", previous, offset)
        previous = offset
        lines.append(line)
    return lines


def scan(body: str, first_line: int, path: str) -> tuple[list[LinkRef], list[Citation], list[Problem]]:
    """Find every link and citation in a Markdown body, with file lines; report malformed ones."""
    citations: list[Citation] = []
    problems: list[Problem] = []
    matches = list(CITATION.finditer(body))
    starts, ends = [m.start() for m in matches], [m.end() for m in matches]  # what citations cover: a quote may contain '[[' or '[@', as rendering allows

    def quoted(offset: int) -> bool:
        index = bisect.bisect_right(starts, offset) - 1
        return index >= 0 and offset < ends[index]

    for match, line in zip(matches, lines_at(body, starts, first_line)):
        quote = unescape_quote(match[2])
        column = column_at(body, match.start())
        if not match[1]:
            problems.append(Problem(path, line, column, "error", "citation names no source: write [@source-id \"quote\"]"))
        elif not quote.strip():
            problems.append(Problem(path, line, column, "error", f"citation of '{match[1]}' has an empty quote"))
        else:
            # A source's id, as a link's target below, is one string object however often cited (sys.intern):
            # at 10,000 records, 245,000 citations name 200 sources.
            citations.append(Citation(source=sys.intern(match[1]), quote=quote, line=line, sole=has_flag(match, "sole"), column=column))
    found = [m for m in LINK.finditer(body) if not quoted(m.start())]
    links = [LinkRef(sys.intern(m[1].strip()), (m[2] or "").strip() or None, line, column_at(body, m.start()))
             for m, line in zip(found, lines_at(body, [m.start() for m in found], first_line))]
    for match in CITATION_START.finditer(body):
        if not quoted(match.start()):
            line = line_at(body, match.start(), first_line)
            problems.append(Problem(path, line, column_at(body, match.start()), "error",
                                    f"malformed citation '{malformed(body, match.start())}': write [@source-id \"verbatim quote\"]"))
    for link in links:
        if not link.target:
            problems.append(Problem(path, link.line, link.column, "error", "empty link [[ ]]: write [[id]] or [[id|label]]"))
    return [link for link in links if link.target], citations, problems


class Resolver(Protocol):
    """What rendering needs from the page being built."""

    def link(self, target: str, label: str | None) -> tuple[str, str]: ...  # (href, text)

    def cite(self, source: str, quotes: list[str], typeset: Callable[[str], str]) -> str: ...  # the HTML of one source's marker for the passages cited together; typeset: smarty's quotes and dashes for its text

    def claim(self, number: int) -> str: ...  # the anchor of a claim, as HTML

    def support(self, number: int) -> str: ...  # a claim's count of independent sources, as HTML


class _LinkPattern(InlineProcessor):
    def __init__(self, pattern: str, renderer: BodyRenderer):
        super().__init__(pattern)
        self.renderer = renderer

    def handleMatch(self, m, data):  # noqa: N802 (Markdown's API)
        target = m.group(1).strip()
        href, text = self.renderer.resolver.link(target.lstrip(REPEAT), (m.group(2) or "").strip() or None)
        if target.startswith(REPEAT):
            return text, m.start(0), m.end(0)  # plain text, which smarty treats as the text around it
        element = etree.Element("a", {"href": href})
        if getattr(text, "lang", None):  # a record's name in another language than the page's (model/language_view.py)
            element.set("lang", text.lang)
            if getattr(text, "note", ""):  # left untranslated: marked as a template shows it
                element.set("class", "untranslated")
                element.set("data-untranslated", text.note)
        element.text = AtomicString(text)
        return element, m.start(0), m.end(0)


class QuickInline(InlineProcessor_):
    """Markdown's inline processor, skipping each pattern on texts that lack the characters every
    match of it needs (most texts have no backtick, no '<', no '&', no image): the same result,
    without a Python call per pattern per text. Used only where Markdown's internals are as expected."""

    TRIGGERS = {
        "dossier-link": ("[[",), "backtick": ("`",), "escape": ("\\",),
        "reference": ("[",), "link": ("[",), "short_reference": ("[",), "image_link": ("![",),
        "image_reference": ("![",), "short_image_ref": ("![",), "autolink": ("<",), "automail": ("<",),
        "html": ("<",), "entity": ("&",), "linebreak": ("  \n",),
    }

    def __init__(self, md: markdown.Markdown):
        super().__init__(md)
        self.triggers: list[str | tuple[str, ...] | None] = [None] * len(self.inlinePatterns)
        for name, needed in self.TRIGGERS.items():
            if name in self.inlinePatterns:
                self.triggers[self.inlinePatterns.get_index_for_name(name)] = needed[0] if len(needed) == 1 else needed
        if "em_strong" in self.inlinePatterns:
            delimiters = self.inlinePatterns["em_strong"]
            self.triggers[self.inlinePatterns.get_index_for_name("em_strong")] = tuple(getattr(delimiters, "tokens", None) or ()) or None

    @staticmethod
    def usable() -> bool:
        """Tell whether this Markdown has the internals QuickInline relies on."""
        return all(hasattr(InlineProcessor_, name) for name in ("_InlineProcessor__handleInline", "_InlineProcessor__applyPattern"))

    def _InlineProcessor__handleInline(self, data: str, patternIndex: int = 0) -> str:  # noqa: N802, N803 (Markdown's)
        if isinstance(data, AtomicString):
            return data
        start, patterns, triggers = 0, self.inlinePatterns, self.triggers
        while patternIndex < len(patterns):
            needed = triggers[patternIndex]
            if needed is not None and (needed not in data if isinstance(needed, str) else not any(part in data for part in needed)):
                patternIndex, start = patternIndex + 1, 0  # cannot match: as if it had been tried
                continue
            data, matched, start = self._InlineProcessor__applyPattern(patterns[patternIndex], data, patternIndex, start)  # type: ignore[attr-defined]
            if not matched:
                patternIndex += 1
        return data


def escape_text(text: str, attribute: bool = False) -> str:
    """Escape text (or an attribute's value) as the sanitiser writes it (sanitize): the body's markers
    must read as if it had written them."""
    text = text.replace("&", "&amp;").replace("\xa0", "&nbsp;")
    return text.replace('"', "&quot;") if attribute else text.replace("<", "&lt;").replace(">", "&gt;")


def element(tag: str, attributes: dict[str, str], inner: str = "") -> str:
    """Return an element's HTML as the sanitiser writes it: attributes in name order, values escaped."""
    written = "".join(f' {name}="{escape_text(value, attribute=True)}"' for name, value in sorted(attributes.items()))
    return f"<{tag}{written}>{inner}</{tag}>"


class BodyRenderer:
    """Render Markdown bodies to sanitised HTML, resolving links and citations through a Resolver."""

    def __init__(self) -> None:
        self.resolver: Resolver | None = None
        self.md = markdown.Markdown(extensions=["smarty", "sane_lists", "tables"], output_format="html")
        # Before Markdown's own link and escape patterns, so that brackets and quotes stay intact.
        self.md.inlinePatterns.register(_LinkPattern(LINK.pattern, self), "dossier-link", 199)
        self.smarty = smarty_patterns(self.md.treeprocessors["smarty"])
        self.md.treeprocessors.register(QuickSmarty(self.md, self.md.treeprocessors["smarty"]), "smarty", 6)
        if QuickInline.usable():
            self.md.treeprocessors.register(QuickInline(self.md), "inline", 20)

    def render(self, body: str, resolver: Resolver) -> str:
        """Return the body as HTML with links resolved, citations numbered and raw HTML sanitised.

        Citations and claim marks stand in Markdown as placeholders, each a few characters that no
        Markdown syntax reads, and are written in after sanitising, in the order they come: an element
        made inside Markdown costs several times as much, and they are dossier's own HTML."""
        held: list[re.Match] = []

        def hold(match: re.Match) -> str:
            held.append(match)
            return HELD.format(len(held) - 1)

        self.resolver = resolver
        try:
            html = sanitize(self.md.reset().convert(unlink_repeats(MARKS.sub(hold, body))))
            return HELD_RUN.sub(lambda run: self.place_run([held[int(n)] for n in HELD_AT.findall(run[0])], HELD_AT.split(run[0])[2::2], resolver), html) if held else html
        finally:
            self.resolver = None

    def place_run(self, marks: list[re.Match], spaces: list[str], resolver: Resolver) -> str:
        """Return the HTML of a run of marks (spaces: the white space after each but the last): each
        claim's anchor and support where it stands, and the citations between them as one marker per
        source, in the order the sources come (a citation whose quote is shown stands alone)."""
        pieces: list[str] = []
        pending: dict[str, list[str]] = {}  # source -> the passages cited since the last claim or support mark
        typeset = lambda text: educate(text, self.smarty)  # noqa: E731

        def flush() -> None:
            pieces.extend(resolver.cite(source, quotes, typeset) for source, quotes in pending.items())
            pending.clear()

        for mark, space in zip(marks, ["", *spaces]):
            if mark[4] or mark[5]:
                flush()
                pieces.append(space + (resolver.claim(int(mark[4])) if mark[4] else resolver.support(int(mark[5]))))
            elif has_flag(mark, "show"):
                flush()
                quote = unescape_quote(mark[2])
                pieces.append(space + element("span", {"class": "shown-quote"}, element("q", {}, escape_text(inner_quotes(quote))) + resolver.cite(mark[1], [quote], typeset)))
            else:
                pending.setdefault(mark[1], []).append(unescape_quote(mark[2]))
        flush()
        return "".join(pieces)


def unlink_repeats(body: str) -> str:
    """Mark each [[link]] to a record that an earlier link of the same section (since the last
    heading) names, so that it shows as plain text: a record is linked where it first appears."""
    seen: set[str] = set()

    def once(match: re.Match) -> str:
        target = match[1].strip()
        if target in seen:
            return "[[" + REPEAT + match[0][2:]
        seen.add(target)
        return match[0]

    lines = body.split("\n")
    for number, line in enumerate(lines):
        if line.lstrip().startswith("#"):
            seen.clear()
        elif "[[" in line:
            lines[number] = LINK.sub(once, line)
    return "\n".join(lines)


def sanitize(html: str) -> str:
    """Keep only allowed tags, attributes and URL schemes (no script, handlers, javascript: or data:)."""
    return nh3.clean(html, tags=ALLOWED_TAGS, attributes=ALLOWED_ATTRIBUTES, url_schemes={"http", "https", "mailto"}, link_rel=None, strip_comments=True)


def paragraphs(body: str, first_line: int) -> list[tuple[int, str]]:
    """Split a body into prose paragraphs (skipping headings, rules and blank lines) with their first lines."""
    result: list[tuple[int, str]] = []
    block: list[str] = []
    start = first_line
    for offset, line in enumerate(body.split("\n") + [""]):
        stripped = line.strip()
        if not stripped or stripped.startswith("#") or re.fullmatch(r"[-*_]{3,}|<!--.*-->", stripped):
            if block:
                result.append((start, "\n".join(block)))
            block = []
            continue
        if block and LIST_ITEM.match(line):
            result.append((start, "\n".join(block)))
            block = []
        if not block:
            start = first_line + offset
        block.append(line)
    return result

