"""A page's footnotes: the citation markers in its text and the reference list they lead to.

The reference list has one entry per source, numbered in the order a reader meets the sources (the
infobox's evidence first, then the body), and under each source every passage the page cites from
it, lettered, each with a link back to every marker that cites it (as Wikipedia's named references
do: "1 a b c"). A run of citations after a sentence shows one marker per source, "[1][2]", whose
preview holds each passage it stands for, linked to its place in the article, and the sentence's
support: what a reader needs to check the sentence, one hover, focus or tap away.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable

from markupsafe import Markup, escape

from ..text.markup import element, escape_text, inner_quotes
from ..text.passages import passage_id, text_fragment
from ..model.schema import Source


@dataclass
class QuoteNote:
    """One passage of a source that a page cites, with the markers that cite it."""

    index: int  # from 1, within its source's entry: shown as a letter
    quote: str
    anchor: str  # the passage's anchor on the source page
    uses: list[str] = field(default_factory=list)  # ids of the markers that cite it

    @property
    def letter(self) -> str:
        """Return the passage's letter in its source's entry: a, b, ... z, aa, ab, ..."""
        return letter(self.index)


@dataclass
class Reference:
    """One entry of a page's reference list: a source and the passages the page cites from it."""

    number: int
    source: Source
    quotes: list[QuoteNote] = field(default_factory=list)
    markers: int = 0  # markers of this source placed so far

    @property
    def note_id(self) -> str:
        """Return the id of the source's entry in the reference list."""
        return f"cite-note-{self.number}"


def letter(index: int) -> str:
    """Return the letters of the index-th item of a list (from 1): a ... z, aa, ab ... zz, aaa ..."""
    letters = ""
    while index > 0:
        index, rest = divmod(index - 1, 26)
        letters = "abcdefghijklmnopqrstuvwxyz"[rest] + letters
    return letters


class Footnotes:
    """The references a page's citations collect, and the HTML of their markers."""

    def __init__(self, lang: str) -> None:
        self.lang = lang
        self.references: list[Reference] = []
        self.by_source: dict[str, Reference] = {}
        self.by_passage: dict[tuple[str, str], QuoteNote] = {}

    def note(self, source: Source, quote: str) -> tuple[Reference, QuoteNote]:
        """Return a passage's entry and note, numbering the source and lettering the passage on first use."""
        reference = self.by_source.get(source.id)
        if reference is None:
            reference = self.by_source[source.id] = Reference(len(self.references) + 1, source)
            self.references.append(reference)
        key = (source.id, passage_id(quote))
        quote_note = self.by_passage.get(key)
        if quote_note is None:
            quote_note = self.by_passage[key] = QuoteNote(len(reference.quotes) + 1, quote, key[1])
            reference.quotes.append(quote_note)
        return reference, quote_note

    def marker(self, source: Source, quotes: list[str], passage_url: Callable[[str], str], typeset: Callable[[str], str],
               support: str | None = None) -> str:
        """Return the HTML of one source's marker for the passages given (cited together, in this
        order): '[1]', linking to the first passage's note, with a preview of every passage, each
        linked to its place in the article (passage_url(anchor)), and the sentence's support in words."""
        notes = list({id(n): n for n in (self.note(source, quote)[1] for quote in quotes)}.values())  # each passage once
        reference = self.by_source[source.id]
        reference.markers += 1
        marker_id = f"cite-ref-{reference.number}-{reference.markers}"
        for quote_note in notes:
            quote_note.uses.append(marker_id)
        # Written as element() writes them (attributes in name order, values escaped), without its calls: a page has dozens.
        span = "<span>" if source.language == self.lang else f'<span lang="{escape_text(source.language, attribute=True)}">'
        passages = " ".join(  # marks as text: the marker's description reads them
            f'<a class="preview-passage" href="{escape_text(passage_url(n.anchor), attribute=True)}" tabindex="-1">'
            f'{span}{escape_text(typeset(f"“{inner_quotes(n.quote)}”"))}</span></a>'
            for n in notes)
        outlet = escape_text(typeset(str(source.outlet)))
        if getattr(source.outlet, "lang", self.lang) != self.lang:  # an outlet's name in its source's language (language_view.py)
            outlet = element("span", {"lang": source.outlet.lang}, outlet)  # type: ignore[attr-defined]
        preview = f'{passages}<span class="preview-source"> — {outlet}</span>'
        if support:
            preview += f' <span class="preview-support">{escape_text(support)}</span>'
        marker = escape_text(marker_id, attribute=True)
        return (f'<sup class="citation" id="{marker}"><a aria-describedby="{marker}-preview" href="#{reference.note_id}-{notes[0].index}">'
                f'[{reference.number}]</a><span class="preview" id="{marker}-preview">{preview}</span></sup>')

    def to_cache(self) -> list[tuple]:
        """Return the references as plain values, for the body cache."""
        return [(r.number, r.source.id, r.markers, [(n.index, n.quote, n.anchor, list(n.uses)) for n in r.quotes]) for r in self.references]

    def from_cache(self, cached: list[tuple], sources: dict) -> None:
        """Take the references back from the body cache (see to_cache)."""
        self.references = [Reference(number, sources[source_id], [QuoteNote(index, quote, anchor, list(uses)) for index, quote, anchor, uses in notes], markers)
                           for number, source_id, markers, notes in cached]
        self.by_source = {r.source.id: r for r in self.references}
        self.by_passage = {(r.source.id, n.anchor): n for r in self.references for n in r.quotes}


def escaped(value: Any) -> str:
    """Return a value escaped as markupsafe.escape escapes it, as a str: for a str, without making a
    Markup (a page's reference list escapes about 260 values)."""
    if value.__class__ is str:
        return value.replace("&", "&amp;").replace(">", "&gt;").replace("<", "&lt;").replace("'", "&#39;").replace('"', "&#34;")
    return str(escape(value))


def reference_list(references: list[Reference], site: Any, rel: Callable[[str], str], lang: str,
                   gettext: Callable[[str], str], published: Callable[[Source], Markup]) -> Markup:
    """Return the items of a page's reference list: each source with its passages, lettered, each
    with its links back to the markers that cite it (the references macro's list, written here as
    a template would write it: a page has dozens of passages, which a template's loop makes slowly)."""
    back, again, original_passage = (Markup(gettext(text)) for text in ("Back to the text", "Back to use %(use)s of this passage", "Passage in the original"))
    items = []
    for ref in references:
        source = ref.source
        entry = [f'  <li id="{escaped(ref.note_id)}"><span class="reference-source"><a href="{escaped(rel(source.page_url))}">{escaped(source.title)}</a>, {escaped(source.outlet)}']
        if source.published:
            entry.append(f", {published(source)}")
        if source.derived_from:
            derivative = Markup(gettext("a derivative of %(original)s")) % {"original": site.records["sources"][source.derived_from].title}
            entry.append(f' <span class="derivative">({derivative})</span>')
        entry.append('.</span>\n    <ol class="reference-quotes">\n')
        lang_attribute = f' lang="{escaped(source.language)}"' if source.language != lang else ""
        for note in ref.quotes:
            entry.append(f'      <li id="{escaped(ref.note_id)}-{escaped(note.index)}">')
            if note.uses:
                entry.append(f'<a class="backlink" data-pagefind-ignore href="#{escaped(note.uses[0])}" aria-label="{back}, {escaped(note.letter)}">{escaped(note.letter)}</a>')
                entry.extend(f' <a class="backlink more" data-pagefind-ignore href="#{escaped(use)}" aria-label="{again % {"use": number}}">{number}</a>'
                             for number, use in enumerate(note.uses[1:], start=2))
            else:
                entry.append(f'<span class="backlink">{escaped(note.letter)}</span>')
            entry.append(f'        <a class="reference-passage" href="{escaped(rel(source.page_url + "#" + note.anchor))}"><q{lang_attribute}>{escaped(inner_quotes(note.quote))}</q></a>')
            if source.url:
                entry.append(f' <a class="original" data-pagefind-ignore href="{escaped(source.url)}{escaped(text_fragment(note.quote))}">{original_passage}</a>')
            entry.append("</li>\n")
        entry.append("    </ol>\n  </li>\n")
        items.append("".join(entry))
    return Markup("".join(items))
