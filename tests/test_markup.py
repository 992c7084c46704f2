"""Links and citations in Markdown bodies: scanning with file lines, and rendering."""

from __future__ import annotations

import re

from dossier.text.markup import scan


def test_scan_finds_links_and_citations_with_their_file_lines():
    body = 'See [[jorge-torres|Torres]].\n\nHe said so.[@ap "We\\"re here" sole]\n[@ap "x" show] [@ap "y" sole show]\n'
    links, citations, problems = scan(body, 10, "p.md")
    assert [(l.target, l.label, l.line) for l in links] == [("jorge-torres", "Torres", 10)]
    assert [(c.source, c.quote, c.line, c.sole) for c in citations] == [("ap", 'We"re here', 12, True), ("ap", "x", 13, False), ("ap", "y", 13, True)]
    assert problems == []


def test_a_shown_citation_prints_its_passage_before_the_marker(make_site, capsys):
    from dossier.cli import main

    root = make_site({"content/places/cucuta.md": '---\nname: Cúcuta\nsummary: S.\n---\nThe AP writes [@ap "across the bridge" show], and cites it.[@ap "across the bridge"]\n'})
    assert main(["build", "--source", str(root)]) == 0
    html = (root / "site/places/cucuta/index.html").read_text(encoding="utf-8")
    shown = re.search(r'<span class="shown-quote"><q>across the bridge</q><sup class="citation" id="cite-ref-1-1">', html)
    assert shown, html
    assert 'id="cite-ref-1-2"' in html  # the same passage keeps its number, with a second backlink
