"""One page as it renders: its address and links, the citation markers and reference list its
citations collect (footnotes.py), its claims' anchors and counts of sources, and what of the site its body read.
The body renderer (markup.BodyRenderer) calls back into it for each link, citation and claim.
"""

from __future__ import annotations

from typing import Any, Callable

from markupsafe import Markup

from ..check.link import Site
from .claims import DERIVATIVE, support_level, support_words
from .footnotes import Footnotes, Reference
from ..text.markup import escape_text
from .reads import link_read, link_target, token
from ..model.schema import Source


SHARED = ("static/", "pagefind/", "media/")  # one copy for every language of the site; all else is per language


def relative(from_url: str, to_url: str, *, portable: bool = False) -> str:
    """Return a link from one page URL to another, both relative to the site root."""
    prefix = "../" * from_url.count("/")
    path, hash_, fragment = to_url.partition("#")
    if portable and (path == "" or path.endswith("/")):
        path += "index.html"
    target = (prefix + path) or "./"
    return target + hash_ + fragment


ROOTWARD, SHARED_ROOTWARD = "\ue000", "\ue001"  # stand for a page's way up to its language's root, and to the site's (see rootward)


def rootward(page: PageContext, portable: bool, to_url: str) -> str:
    """Return a link as page.rel() makes it, with a stand-in where the way up to the root goes, for
    HTML shown the same on pages of any depth (see Renderer.timeline_entry)."""
    path, hash_, fragment = to_url.partition("#")
    if portable and (path == "" or path.endswith("/")):
        path += "index.html"
    return (SHARED_ROOTWARD if page.prefix and to_url.startswith(SHARED) else ROOTWARD) + path + hash_ + fragment


class PageContext:
    """Per-page state: where the page is, the references its citations collect, and what of the
    site its body's HTML read (reads: what a cached body depends on, see Renderer.body_html)."""

    def __init__(self, site: Site, url: str, *, portable: bool, lang: str = "en", prefix: str = ""):
        self.site = site
        self.url = url  # as in the site's first language: a page of another is at prefix + url
        self.portable = portable
        self.lang = lang
        self.prefix = prefix  # '' in the site's first language, 'es/' in Spanish
        self.footnotes = Footnotes(lang)
        self.claim_number = 0  # the claim whose citations are being placed (see claim())
        self.quiet = False  # whether every claim rests on derivatives alone, said once before the body (see Renderer.render_body)
        self.reads: dict[tuple[str, str], Any] = {}
        self.tokens: set[tuple] = set()  # what the whole page reads (see reads.py)
        self.claims: list[tuple[str, ...]] = []  # the sources each claim of the body cites (claims.mark_claims)
        self.supports: dict[tuple[str, ...], tuple[str, str, str]] = {}  # see support_of

    def rel(self, to_url: str) -> str:
        """Link from this page to another URL of the site, in the page's language (static files and
        the search index are shared: every language's pages link to the same ones)."""
        if self.prefix and to_url.startswith(SHARED):
            return relative(self.prefix + self.url, to_url, portable=self.portable)
        return relative(self.url, to_url, portable=self.portable)

    def rooted(self, to_url: str, base: str = "") -> str:
        """Link to a URL of the site, in the page's language, from the site's root, or from base (a
        base URL's path): the links of the page for a missing address, which a host serves anywhere."""
        target = to_url if to_url.startswith(SHARED) else self.prefix + to_url
        return base + target if base else relative("", target, portable=self.portable)

    @property
    def site_url(self) -> str:
        """Return the page's URL relative to the site root: 'es/people/x/' for a Spanish page."""
        return self.prefix + self.url

    def link(self, target: str, label: str | None) -> tuple[str, str]:
        """Resolve a [[target|label]] body link (already checked by the linking stage)."""
        record = link_target(self.site, target)
        self.reads[("link", target)] = link_read(record)
        return self.rel(record.page_url), label or record.label

    @property
    def references(self) -> list[Reference]:
        """Return the page's reference list: its sources in the order cited, each with its passages."""
        return self.footnotes.references

    def reference(self, source_id: str, quote: str) -> Reference:
        """Number a passage's source and letter the passage, as the reference list shows them (an
        earlier citation of either keeps its number or letter)."""
        source = self.site.records["sources"][source_id]
        assert isinstance(source, Source)
        if source_id not in self.footnotes.by_source:
            self.tokens.update((token("label", ("sources", source_id)), token("record", ("sources", source_id))))  # the reference list shows it
        return self.footnotes.note(source, quote)[0]

    def cite(self, source_id: str, quotes: list[str], typeset: Callable[[str], str] = lambda text: text) -> str:
        """Return the HTML of one source's marker for passages cited together, noting them in the
        reference list (typeset: what the body's typography does to its passages and outlet)."""
        for quote in quotes:
            self.reference(source_id, quote)
        source = self.site.records["sources"][source_id]
        assert isinstance(source, Source)
        self.reads[("outlet", source_id)] = source.outlet
        self.reads[("language", source_id)] = source.language  # the quote is marked with it where the page's differs
        support = self.support_of(self.claim_number)[2] if self.claim_number else None
        return self.footnotes.marker(source, quotes, lambda anchor: self.rel(f"{source.page_url}#{anchor}"), typeset, support)

    def claim(self, number: int) -> str:
        """Return the anchor of a claim, which the claims page links to; the citations placed next are its own."""
        self.claim_number = number
        return f'<span class="claim" id="claim-{number}"></span>'  # as element() writes it

    def support_of(self, number: int) -> tuple[str, str, str]:
        """Return a claim's support: its level (see claims.support_level), short and in words (worked
        out once for each set of sources a page's claims cite: a page asks for each claim's about
        three times)."""
        sources = self.claims[number - 1]
        found = self.supports.get(sources)
        if found is not None:
            return found
        derived_from: dict[str, str | None] = {}
        for source_id in sources:
            while source_id not in derived_from:  # the source and those it derives from: what the count depends on
                original = getattr(self.site.records["sources"].get(source_id), "derived_from", None)
                derived_from[source_id] = self.reads[("derived", source_id)] = original
                source_id = original or source_id
        level = support_level(sources, derived_from)
        found = self.supports[sources] = (level, *support_words(level, self.lang))
        return found

    def support(self, number: int) -> str:
        """Return a claim's count of independent sources: short to the eye, in words for a screen
        reader. Only a count that tells the reader something shows without asking (two sources or
        more, or a derivative alone); every marker's preview gives it in words."""
        self.claim_number = 0
        level, short, words = self.support_of(number)
        shown = ("derivative quiet" if self.quiet else "derivative") if level == DERIVATIVE else "single" if level == "1" else "several"
        return (f'<span class="support {shown}" data-pagefind-ignore=""><span aria-hidden="true">{escape_text(short)}</span>'
                f'<span class="visually-hidden">{escape_text(f" ({words})")}</span></span>')  # as element() writes it

    def cite_markup(self, source_id: str, quote: str) -> Markup:
        """Return the marker HTML for a citation placed by a template (an age, a figure)."""
        return Markup(self.cite(source_id, [quote]))
