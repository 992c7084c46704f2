"""Smarty's curly quotes, dashes and ellipses, applied as Python-Markdown's smarty extension applies
them but without its per-pattern overhead (markup.BodyRenderer uses it where Markdown's internals are
as expected; tests/test_quick_markdown.py checks it against smarty's own output)."""

from __future__ import annotations

import html
import re
import xml.etree.ElementTree as etree

import markdown
from markdown.treeprocessors import Treeprocessor
from markdown.util import AtomicString

HELD, HELD_AT = "\ue010{}\ue011", re.compile("\ue010(\\d+)\ue011")  # a mark's place while Markdown runs


class QuickSmarty(Treeprocessor):
    """Smarty's curly quotes, dashes and ellipses, applied exactly as its own inline processor applies
    them (each of its patterns in turn over each text, every match set aside so that later patterns
    skip it) but without that processor's per-pattern overhead, which costs as much as the rest of
    Markdown. It takes the patterns from smarty itself, and writes the characters that smarty's
    entities become once the HTML is sanitised."""

    def __init__(self, md: markdown.Markdown, stock: Treeprocessor):
        super().__init__(md)
        self.patterns = smarty_patterns(stock)

    def run(self, root: etree.Element) -> None:
        for element in root.iter():
            for child in element:
                if child.text and not isinstance(child.text, AtomicString):
                    child.text = self.educate(child.text)
                if child.tail and not isinstance(child.tail, AtomicString):
                    child.tail = self.educate(child.tail)

    def educate(self, text: str) -> str:
        """Return a text with smarty's substitutions made."""
        return educate(text, self.patterns)


SmartyPatterns = list[tuple[re.Pattern, list]]
SMARTY_PLACEHOLDER = re.compile("\x02klzzwxh:(\\d+)\x03")


def smarty_patterns(stock: Treeprocessor) -> SmartyPatterns:
    """Return the patterns of smarty's own inline processor, with the characters its entities stand for."""
    return [(pattern.compiled_re, [html.unescape(part) if isinstance(part, str) else part for part in pattern.replace])
            for pattern in stock.inlinePatterns]  # type: ignore[attr-defined]


def educate(text: str, patterns: SmartyPatterns) -> str:
    """Return a text with smarty's curly quotes, dashes and ellipses, as smarty makes them. A
    citation's or claim's place (HELD) parts the text as the element it stands for would."""
    if HELD[0] in text:
        pieces = HELD_AT.split(text)  # text, a place's number, text, ...
        return "".join(HELD.format(piece) if index % 2 else educate(piece, patterns) for index, piece in enumerate(pieces))
    if "'" not in text and '"' not in text and "--" not in text and "..." not in text:
        return text  # every pattern needs one of these
    found: list[str] = []
    for regex, replace in patterns:
        match = regex.search(text)
        while match:
            found.append("".join(match.group(part) if isinstance(part, int) else part for part in replace))
            placeholder = f"\x02klzzwxh:{len(found) - 1:04d}\x03"
            text = text[: match.start()] + placeholder + text[match.end():]
            match = regex.search(text, match.start() + len(placeholder))
    return SMARTY_PLACEHOLDER.sub(lambda m: found[int(m.group(1))], text) if found else text
