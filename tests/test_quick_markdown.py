"""The quick inline and smarty processors render exactly what Python-Markdown's own ones render."""

from __future__ import annotations

import random
import re
from importlib import metadata

from conftest import PROJECT

from dossier.text import markup
from dossier.render.claims import mark_claims
from dossier.text.markup import BodyRenderer, QuickInline


class Resolver:
    def link(self, target: str, label: str | None) -> tuple[str, str]:
        return "x/", label or target

    def cite(self, source: str, quotes: list[str], typeset) -> str:
        return "<sup>" + "".join(f"<q>{typeset(quote)}</q>" for quote in quotes) + f"{typeset(' — Outlet' + chr(39) + 's')}</sup>"

    def claim(self, number: int) -> str:
        return f'<span id="claim-{number}"></span>'

    def support(self, number: int) -> str:
        return f"<span>{number}</span>"


def stock_renderer(monkeypatch) -> BodyRenderer:
    """Return a renderer that uses Markdown's own inline and smarty processors."""
    with monkeypatch.context() as patch:
        patch.setattr(markup, "QuickSmarty", lambda md, stock: stock)
        patch.setattr(markup.QuickInline, "usable", staticmethod(lambda: False))
        return BodyRenderer()


PIECES = ["'", '"', "-", "--", "---", "...", ".", " ", "\n", "\n\n", "a", "s", "1", "80s", "(", ")", "[", "]", "&nbsp;", "&amp;", "&#39;",
          "–", "*", "**", "_", "__", "`c`", "\\'", '\\"', "\\*", "> ", "- ", "1. ", "[[x]]", "[[x|y's]]", ' [@s "q\'s"] ', ' [@s "a" show] ',
          "<em>", "</em>", "<span>", "![a](b)", "[a](http://x)", "[a][b]", "<http://a.b>", "<a@b.c>", "  \n", "<<", ">>", ",", "!", "?"]


def test_quick_processors_match_markdowns_own(monkeypatch):
    quick, stock = BodyRenderer(), stock_renderer(monkeypatch)
    assert isinstance(quick.md.treeprocessors["smarty"], markup.QuickSmarty)
    rng = random.Random(4)
    texts = ["".join(rng.choice(PIECES) for _ in range(rng.randint(1, 30))) for _ in range(2000)]
    texts += [path.read_text(encoding="utf-8").split("\n---\n", 1)[-1] for path in sorted(PROJECT.glob("content/*/*.md"))]
    for text in texts:
        assert quick.render(text, Resolver()) == stock.render(text, Resolver()), text


def test_a_quotation_after_a_claims_anchor_opens_as_it_would_at_the_start_of_a_text():
    # Claims and citations stand in Markdown as placeholders; smarty must read each as the boundary
    # the element it stands for would be: a quote right after a claim's anchor opens (“), never closes.
    body = '"We have time," he said.[@s "q\'s -- x"] "Next," she said.[@s "r"]'
    marked, _ = mark_claims(body)
    html = BodyRenderer().render(marked, Resolver())
    assert html == ('<p><span id="claim-1"></span>“We have time,” he said.<sup><q>q’s – x</q> — Outlet’s</sup><span>1</span>'
                    '<span id="claim-2"></span> “Next,” she said.<sup><q>r</q> — Outlet’s</sup><span>2</span></p>')


def pinned(name: str) -> str:
    """Return the version pyproject.toml pins a dependency to."""
    text = (PROJECT / "pyproject.toml").read_text(encoding="utf-8")
    return re.search(rf'"{name}==([^"]+)"', text).group(1)


def test_markdown_is_the_pinned_version_whose_internals_the_fast_path_overrides():
    assert metadata.version("markdown") == pinned("markdown"), (
        "QuickInline overrides InlineProcessor's _InlineProcessor__handleInline and __applyPattern: "
        "check markup.py against this Markdown, then change the pin in pyproject.toml")
    assert QuickInline.usable()
