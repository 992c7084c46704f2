"""The quick inline and smarty processors render exactly what Python-Markdown's own ones render."""

from __future__ import annotations

import random
import xml.etree.ElementTree as etree

from conftest import PROJECT

from dossier import markup
from dossier.markup import BodyRenderer


class Resolver:
    def link(self, target: str, label: str | None) -> tuple[str, str]:
        return "x/", label or target

    def cite(self, source: str, quote: str) -> etree.Element:
        marker = etree.Element("sup")
        etree.SubElement(marker, "q").text = quote
        marker[0].tail = " — Outlet's"
        return marker


def stock_renderer(monkeypatch) -> BodyRenderer:
    """Return a renderer that uses Markdown's own inline and smarty processors."""
    with monkeypatch.context() as patch:
        patch.setattr(markup, "QuickSmarty", lambda md, stock: stock)
        patch.setattr(markup.QuickInline, "usable", staticmethod(lambda: False))
        return BodyRenderer()


PIECES = ["'", '"', "-", "--", "---", "...", ".", " ", "\n", "\n\n", "a", "s", "1", "80s", "(", ")", "[", "]", "&nbsp;", "&amp;", "&#39;",
          "–", "*", "**", "_", "__", "`c`", "\\'", '\\"', "\\*", "> ", "- ", "1. ", "[[x]]", "[[x|y's]]", '[@s "q\'s"]', '[@s "a" show]',
          "<em>", "</em>", "<span>", "![a](b)", "[a](http://x)", "[a][b]", "<http://a.b>", "<a@b.c>", "  \n", "<<", ">>", ",", "!", "?"]


def test_quick_processors_match_markdowns_own(monkeypatch):
    quick, stock = BodyRenderer(), stock_renderer(monkeypatch)
    assert isinstance(quick.md.treeprocessors["smarty"], markup.QuickSmarty)
    rng = random.Random(4)
    texts = ["".join(rng.choice(PIECES) for _ in range(rng.randint(1, 30))) for _ in range(2000)]
    texts += [path.read_text(encoding="utf-8").split("\n---\n", 1)[-1] for path in sorted(PROJECT.glob("content/*/*.md"))]
    for text in texts:
        assert quick.render(text, Resolver()) == stock.render(text, Resolver()), text
