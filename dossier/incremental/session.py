"""A project kept in memory between builds, so that an edit costs only what it changes.

A session is three parts, one per concern: the loaded site (linked.py: the inputs as last read, the
linked site and its problems), the rendered state (rendered.py: the digest of every file written,
what each page read) and the search words (search/words.py: the text of the pages search indexes).
update(paths) reads only the files named, relinks only the records that changed and re-renders only
the pages the dependency graph (graph.py) names, into memory for the preview or into a staging
folder for a build; what it makes equals what a build from scratch makes (tests/test_oracle.py).
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Iterable

from ..check.link import Key, Site
from ..model.problems import Problem
from ..publish.sinks import FolderSink, MemorySink
from ..search.words import PageWords
from ..timings import layer
from . import graph
from .inputs import Edits, InputScan, Inputs
from .linked import LinkedSite
from .pool import FEW_PAGES, release_free_memory, render_pages
from .rendered import RenderedState

EVERYTHING = graph.EVERYTHING


@dataclass
class Outcome:
    """What one update found and made."""

    files: dict[str, bytes] = field(default_factory=dict)  # output files that are new or changed (rendering in memory)
    removed: set[str] = field(default_factory=set)  # output files that no longer exist
    problems: list[Problem] = field(default_factory=list)
    changed: bool = False  # whether any input changed at all
    edited: list[str] = field(default_factory=list)  # the input files that changed (a preview names them)
    rendered: int = 0  # pages rendered
    seconds: float = 0.0

    @property
    def errors(self) -> list[Problem]:
        """Return the problems that stop the site from being rendered."""
        return [p for p in self.problems if p.severity == "error"]


class Session:
    """A project loaded in memory: its linked site, what was last rendered of it, and its search words."""

    def __init__(self, root: Path, *, portable: bool = False, base_url: str | None = None, defer_audit: bool = False, drafts: str = "out"):
        self.linked = LinkedSite(root, base_url=base_url, defer_audit=defer_audit, drafts=drafts)
        self.output = RenderedState(portable=portable)
        self.words = PageWords()  # the pages written last whose text search indexes, and their words

    @property
    def root(self) -> Path:
        """Return the project folder."""
        return self.linked.inputs.root

    @property
    def inputs(self) -> Inputs:
        """Return the project's inputs as last read."""
        return self.linked.inputs

    @property
    def site(self) -> Site | None:
        """Return the site as last linked."""
        return self.linked.site

    @property
    def problems(self) -> list[Problem]:
        """Return every problem of the site as last linked (and audited)."""
        return self.linked.problems

    @property
    def drafts(self) -> dict[Key, str]:
        """Return every draft's file, as last linked."""
        return self.linked.drafts

    def load(self, scan: InputScan | None = None, processes: int = 1) -> None:
        """Read, validate and link the whole project (scan: its inputs' digests as they are, if known;
        processes: how many may read a large project's files)."""
        self.output.pending = EVERYTHING
        self.linked.load(scan, processes)

    def show_drafts(self, mode: str) -> bool:
        """Show drafts as the mode says from now on (the preview, opened from a build's session);
        return whether that changes the site (then every page is to render again)."""
        changed = self.linked.show_drafts(mode)
        if changed:
            self.output.pending = EVERYTHING
        return changed

    def audit(self) -> list[Problem]:
        """Add the editorial warnings to the problems, if the site has no errors; return the warnings."""
        return self.linked.audit()

    def render(self, previous: Path | None = None) -> Outcome:
        """Render what changed since the last render, in memory: return the new or changed files and
        the removed ones. previous is where the other pages were written (for a portable build's
        search fallback, which is made from every page, and for the words of the pages replaced)."""
        return self.render_to(MemorySink(previous))

    def render_into(self, folder: Path, previous: Path | None, workers: int = 1,
                    searchable_done: Callable[[Path, set[str]], object] | None = None, patch: bool = False,
                    texts: Path | None = None) -> Outcome:
        """Render what changed since the last render into an empty staging folder, in parallel when
        there is much to do, and carry every other file over from previous (where the last render
        went), or with patch leave it there (the staging folder then patches previous: publish/patch.py).
        Without previous, render everything. texts: where the pages' texts for search go, for the
        build's Pagefind runs (see publish.staging.texts_folder); without it, nowhere."""
        if previous is None:
            self.output.render_all()
            self.words.forget()
        return self.render_to(FolderSink(folder, previous, patch, texts), workers, searchable_done)

    def render_to(self, sink: MemorySink | FolderSink, workers: int = 1,
                  searchable_done: Callable[[Path, set[str]], object] | None = None) -> Outcome:
        """Render the pages that changed into a sink and carry the others over. searchable_done is
        called once every page that search indexes is in place (so that indexing overlaps the
        rendering of the timeline pages), with those of them that are new, changed or gone."""
        outcome = Outcome(problems=self.problems)
        site, output = self.site, self.output
        if outcome.errors or site is None:
            return outcome
        with layer("plan"):
            paths, remake = output.plan(site, self.root / "templates", workers)
        rendered = set(paths)
        if output.body_cache is not None and paths:
            output.body_cache.trim(len(output.pages))
        sink.carry([path for path in output.pages if path not in rendered])
        timeline = [path for path in paths if path.startswith("timeline/")]  # pages search does not index
        was_searchable = set(self.words.searchable)
        digests = render_pages(self, [path for path in paths if not path.startswith("timeline/")], sink, workers)
        gone = self.words.settle(output.pages, sink.previous)
        if searchable_done is not None:
            changed = {path for path, data_digest in digests.items() if output.written.get(path) != data_digest}
            searchable_done(sink.folder, gone | changed & (self.words.searchable | was_searchable))  # type: ignore[arg-type]
            if len(paths) > FEW_PAGES:
                with layer("claims held compactly"):
                    output.keep_claims_compactly()  # while Pagefind runs: what the timeline and the exports make then takes their place
        # Search indexes beside them: this process renders them alone (a worker's copy of the site,
        # with Pagefind's memory beside, was a build's highest peak), and Pagefind has the other core.
        digests.update(render_pages(self, timeline, sink, 1 if searchable_done is not None else workers))
        output.renderer.forget()  # type: ignore[union-attr]  # plan() forgets too; this frees the memory now
        if len(paths) > FEW_PAGES:
            release_free_memory()  # what the timeline's pages held (35 MB at 10,000 records), before the exports are made beside a Pagefind run
        outcome.rendered = len(paths)
        if remake:
            with layer("exports and static files"):
                for path, data in output.make_extras(sink.every_page(output.pages)).items():
                    digests[path] = self.emit(sink, path, data)
        else:
            sink.carry(output.extra_paths)
        if output.body_cache is not None:
            output.body_cache.flush()
        outcome.files = sink.files
        outcome.removed = output.conclude(site, digests, remake)
        return outcome

    def emit(self, sink: MemorySink | FolderSink, path: str, data: bytes) -> bytes:
        """Put one output file into a sink unless it is as last made; note a page's words; return its digest."""
        return self.output.emit(sink, path, data, self.words)

    def take(self, edits: Edits) -> bool:
        """Take in what a refresh of the inputs found changed and link again; return whether anything did."""
        self.output.take(edits)
        return self.linked.take(edits)

    def update(self, paths: Iterable[str], previous: Path | None = None) -> Outcome:
        """Take in edits to the named files: read, link and render what they change."""
        started = time.perf_counter()
        edits = self.inputs.refresh(paths)
        if not self.take(edits):
            return Outcome(problems=self.problems, seconds=time.perf_counter() - started)
        outcome = self.render(previous)
        outcome.changed, outcome.edited = True, edits.files
        outcome.seconds = time.perf_counter() - started
        return outcome

    def up_to_date(self) -> bool:
        """Tell whether nothing changed since the last render."""
        return self.output.up_to_date()
