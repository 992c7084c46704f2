"""One page as it renders: its address and links, the citation markers and numbered reference list
its citations collect, its claims' anchors and counts of sources, and what of the site its body read.
The body renderer (markup.BodyRenderer) calls back into it for each link, citation and claim.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable

from markupsafe import Markup

from ..check.link import Site
from .claims import support_level, support_words
from ..text.markup import element, escape_text, inner_quotes
from ..text.passages import passage_id
from .reads import link_read, link_target, token
from ..model.schema import Source


@dataclass
class Reference:
    """One entry of a page's numbered reference list."""

    number: int
    source: Source
    quote: str
    anchor: str  # the passage's anchor on the source page
    uses: list[str] = field(default_factory=list)  # ids of the markers that cite it


SHARED = ("static/", "pagefind/")  # one copy for every language of the site; all else is per language


def relative(from_url: str, to_url: str, *, portable: bool = False) -> str:
    """Return a link from one page URL to another, both relative to the site root."""
    prefix = "../" * from_url.count("/")
    path, hash_, fragment = to_url.partition("#")
    if portable and (path == "" or path.endswith("/")):
        path += "index.html"
    target = (prefix + path) or "./"
    return target + hash_ + fragment


class PageContext:
    """Per-page state: where the page is, the references its citations collect, and what of the
    site its body's HTML read (reads: what a cached body depends on, see Renderer.body_html)."""

    def __init__(self, site: Site, url: str, *, portable: bool, lang: str = "en", prefix: str = ""):
        self.site = site
        self.url = url  # as in the site's first language: a page of another is at prefix + url
        self.portable = portable
        self.lang = lang
        self.prefix = prefix  # '' in the site's first language, 'es/' in Spanish
        self.references: list[Reference] = []
        self._by_passage: dict[tuple[str, str], Reference] = {}
        self.reads: dict[tuple[str, str], Any] = {}
        self.tokens: set[tuple] = set()  # what the whole page reads (see reads.py)
        self.claims: list[tuple[str, ...]] = []  # the sources each claim of the body cites (claims.mark_claims)

    def rel(self, to_url: str) -> str:
        """Link from this page to another URL of the site, in the page's language (static files and
        the search index are shared: every language's pages link to the same ones)."""
        if self.prefix and to_url.startswith(SHARED):
            return relative(self.prefix + self.url, to_url, portable=self.portable)
        return relative(self.url, to_url, portable=self.portable)

    @property
    def site_url(self) -> str:
        """Return the page's URL relative to the site root: 'es/people/x/' for a Spanish page."""
        return self.prefix + self.url

    def link(self, target: str, label: str | None) -> tuple[str, str]:
        """Resolve a [[target|label]] body link (already checked by the linking stage)."""
        record = link_target(self.site, target)
        self.reads[("link", target)] = link_read(record)
        return self.rel(record.page_url), label or record.label

    def reference(self, source_id: str, quote: str) -> Reference:
        """Number a passage, reusing the number of an earlier citation of the same passage."""
        key = (source_id, passage_id(quote))
        reference = self._by_passage.get(key)
        if reference is None:
            source = self.site.records["sources"][source_id]
            assert isinstance(source, Source)
            reference = Reference(len(self.references) + 1, source, quote, key[1])
            self.tokens.update((token("label", ("sources", source_id)), token("record", ("sources", source_id))))  # the reference list shows it
            self._by_passage[key] = reference
            self.references.append(reference)
        return reference

    def cite(self, source_id: str, quote: str, typeset: Callable[[str], str] = lambda text: text) -> str:
        """Return the marker HTML for a citation, adding a backlink to its reference (typeset: what
        the body's typography does to its passage and outlet)."""
        reference = self.reference(source_id, quote)
        marker = f"cite-ref-{reference.number}-{len(reference.uses) + 1}"
        reference.uses.append(marker)
        self.reads[("outlet", source_id)] = reference.source.outlet
        self.reads[("language", source_id)] = reference.source.language  # the quote is marked with it where the page's differs
        anchor = element("a", {"href": f"#cite-note-{reference.number}", "aria-describedby": f"{marker}-preview"}, f"[{reference.number}]")
        # The quoted passage, shown on hover or focus by CSS and read as the marker's description.
        passage = element("q", {"lang": reference.source.language} if reference.source.language != self.lang else {}, escape_text(typeset(inner_quotes(quote))))
        preview = element("span", {"class": "preview", "id": f"{marker}-preview", "role": "tooltip"}, passage + escape_text(typeset(f" — {reference.source.outlet}")))
        return element("sup", {"class": "citation", "id": marker}, anchor + preview)

    def claim(self, number: int) -> str:
        """Return the anchor of a claim, which the claims page links to."""
        return element("span", {"class": "claim", "id": f"claim-{number}"})

    def support(self, number: int) -> str:
        """Return a claim's count of independent sources: short to the eye, in words for a screen reader."""
        derived_from: dict[str, str | None] = {}
        for source_id in self.claims[number - 1]:
            while source_id not in derived_from:  # the source and those it derives from: what the count depends on
                original = getattr(self.site.records["sources"].get(source_id), "derived_from", None)
                derived_from[source_id] = self.reads[("derived", source_id)] = original
                source_id = original or source_id
        short, words = support_words(support_level(self.claims[number - 1], derived_from), self.lang)
        return element("span", {"class": "support", "data-pagefind-ignore": ""},
                       element("span", {"aria-hidden": "true"}, escape_text(short)) + element("span", {"class": "visually-hidden"}, escape_text(f" ({words})")))

    def cite_markup(self, source_id: str, quote: str) -> Markup:
        """Return the marker HTML for a citation placed by a template (an age, a figure)."""
        return Markup(self.cite(source_id, quote))
