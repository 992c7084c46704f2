"""The rendered state: what the last render made of the linked site, and what has changed since.

RenderedState takes the linked site (linked.py) and the edits since the last render, plans which
pages to render again by the dependency graph (graph.py), and remembers the digest of every output
file, what each page read and what the claims pages showed, so that the next render makes only
what changed.
"""

from __future__ import annotations

from pathlib import Path
from typing import Callable, Mapping

from ..check.link import Key, Site
from ..publish.folders import FolderTimes
from ..publish.sinks import FolderSink, MemorySink
from ..render.claim_index import ClaimIndex
from ..render.pages import Renderer
from ..search.words import PageWords
from . import graph
from .cache import BodyCache
from .inputs import Edits, digest
from .pagereads import PageReads

EVERYTHING = graph.EVERYTHING


class RenderedState:
    """What the last render made: its pages, the digests of its outputs and what each page read."""

    def __init__(self, *, portable: bool = False):
        self.portable = portable
        self.rendered: Site | None = None  # the site as last rendered
        self.pending: set[Key] | None = EVERYTHING  # records changed since the last render
        self.extras_pending = True  # static files changed since the last render
        self.languages_pending: set[str] = set()  # languages whose interface catalog changed since the last render: their pages render again
        self.renderer: Renderer | None = None
        self.pages: dict[str, Callable[[], bytes]] = {}
        self.written: dict[str, bytes] = {}  # output path -> digest of what was last made
        self.extra_paths: set[str] = set()  # outputs that are not pages: data, static files
        self.page_paths: set[str] = set()  # the pages last rendered
        self.reads = PageReads()  # what each page read when last rendered (render/reads.py)
        self.claims_shown: Mapping[str, tuple | bytes] = {}  # what each claims page showed when last rendered (Renderer.claims_shown), or its digest once kept on disk
        self.claims_version: tuple[int, ...] = ()  # the claim indexes' versions when they were worked out
        self.pages_changed = True  # the last plan made the list of pages again
        self.published: tuple[str, dict[str, tuple[int, int]]] | None = None  # where the last build went, and its files' sizes and times
        self.folders: FolderTimes | None = None  # the times of its folders then (publish/folders.py)
        self.templates: dict[str, bytes] = {}  # the templates compiled when it was last kept (lastbuild.keep_session)
        self.body_cache: BodyCache | None = None
        self.claim_indexes: dict[str, ClaimIndex] = {}  # each record's claims in each language: an edit works out only its own again

    def render_all(self) -> None:
        """Render every page and extra at the next render, as a build from scratch does."""
        self.pending, self.written, self.extras_pending = EVERYTHING, {}, True

    def take(self, edits: Edits) -> None:
        """Mark what a refresh of the inputs found changed as to render again."""
        if edits.templates or edits.static or edits.reloaded or edits.catalogs:
            self.renderer = None  # it lists the template and static folders when made, and installs each language's catalog
        if edits.catalogs:
            self.languages_pending |= edits.catalogs
            self.pages = {}  # its pages' functions belong to the renderer before, and its catalogs
            self.extras_pending = True  # the exports of a language use its catalog too (the feed's "Read more")
        if edits.static:
            self.extras_pending = True
        if edits.templates or edits.seeds or edits.reloaded:
            self.pending = EVERYTHING
        if self.pending is not EVERYTHING:
            self.pending.update(edits.records)

    def up_to_date(self) -> bool:
        """Tell whether nothing changed since the last render."""
        return (self.rendered is not None and self.pending is not EVERYTHING and not self.pending and not self.extras_pending
                and not self.languages_pending)

    def plan(self, site: Site, templates: Path, processes: int = 1) -> tuple[list[str], bool]:
        """Decide which pages of site to render again (templates: the project's own), and whether the
        extras (data, static files) must be remade (processes: how many may work out its claims)."""
        if self.renderer is None:
            self.renderer = Renderer(site, templates, portable=self.portable)
            self.renderer.cache = self.body_cache
            self.renderer.claim_indexes = self.claim_indexes
        self.renderer.site, self.renderer.processes = site, processes
        self.renderer.forget()
        old, pending = self.rendered, self.pending
        everything = pending is EVERYTHING or old is None
        new_pages: set[str] = set()
        # The claims pages read every body: they render again when what they show changes, which only
        # a change to the claims can change.
        self.renderer.claims_edited = None if everything else set(pending)  # type: ignore[arg-type]
        version = self.renderer.claims_version()
        claims = self.claims_shown if not everything and version == self.claims_version and self.claims_shown else self.renderer.claims_shown()
        self.pages_changed = (everything or not self.pages or any(graph.change(old, site, key).meta for key in pending)  # type: ignore[union-attr, arg-type]
                              or claims.keys() != self.claims_shown.keys())
        if self.pages_changed:  # titles, filters and the set of pages may differ
            before = set(self.pages) or self.page_paths
            self.pages = self.renderer.pages()
            new_pages = set(self.pages) - before
        found = EVERYTHING if everything else graph.affected(old, site, pending, self.pages, self.reads)  # type: ignore[arg-type]
        paths, extras = (set(self.pages), True) if found is EVERYTHING else found
        paths |= {path for path, shown in claims.items() if not graph.same_claims(self.claims_shown.get(path), shown)}
        if self.languages_pending:
            paths |= graph.pages_in(self.pages, site.config, self.languages_pending)
        self.claims_shown, self.claims_version = claims, version
        return sorted(paths | new_pages), extras or self.extras_pending or (self.portable and bool(paths))

    def emit(self, sink: MemorySink | FolderSink, path: str, data: bytes, words: PageWords) -> bytes:
        """Put one output file into a sink unless it is as last made (then it is carried over); note
        a page's words for search; return its digest."""
        data_digest = digest(data)
        reads = self.renderer.reads.pop(path, None) if self.renderer is not None else None
        if reads is not None:
            self.reads[path] = reads
        unchanged = self.written.get(path) == data_digest
        text = words.note(path, data, sink.previous) if not unchanged and path.endswith(".html") else None
        sink.put(path, data, unchanged, text)
        return data_digest

    def keep_claims_compactly(self) -> None:
        """Hold the claims as a kept session does, once the pages are rendered: each claims page's
        digest, and each record's claims as their texts and levels, made again if asked for. A large
        site's claims are tuples until then (186,000 at 10,000 records, 20 MB), in the process that
        holds the site to the build's end: at 10,000 records it held 408 MB instead of 420 when the
        search index was completed, beside two Pagefind runs (0.38 s of CPU time, taken off keeping
        the state after the build)."""
        self.claims_shown = self.claims_digests()
        for index in self.claim_indexes.values():
            index.compact()
        if self.renderer is not None:
            self.renderer.found_claims = {}

    def make_extras(self, pages: Mapping[str, bytes]) -> dict[str, bytes]:
        """Remake the data exports, search fallback and static files."""
        assert self.renderer is not None
        extras = self.renderer.extras(pages)
        self.extra_paths = set(extras)
        return extras

    def conclude(self, site: Site, digests: dict[str, bytes], extras: bool) -> set[str]:
        """Remember what was made (of site); return the outputs that no longer exist (only pages or
        extras made again can go)."""
        removed: set[str] = set()
        if self.pages_changed or extras:
            removed = set(self.written) - set(self.pages) - self.extra_paths
            for path in removed:
                del self.written[path]
                self.reads.pop(path)
            self.page_paths = set(self.pages)
        self.written.update(digests)
        self.rendered, self.pending, self.extras_pending, self.languages_pending = site, set(), False, set()
        return removed

    def __getstate__(self) -> dict:
        """Keep everything but the renderer and its page functions, which are made again on demand."""
        return {**self.__dict__, "renderer": None, "pages": {},
                "claims_shown": self.claims_digests()}

    def claims_digests(self) -> dict[str, bytes]:
        """Return what each claims page showed as its digest, as the state on disk keeps it."""
        return {path: graph.claims_digest(shown) for path, shown in self.claims_shown.items()}
