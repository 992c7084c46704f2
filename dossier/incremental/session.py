"""A project kept in memory between builds, so that an edit costs only what it changes.

The session holds the project's inputs as last read (inputs.py), the linked site and the digest of
every file it has written. update(paths) reads only the files named, relinks only the records that
changed (relink.py) and re-renders only the pages the dependency graph (graph.py) names, into
memory for the preview or into a staging folder for a build; what it makes equals what a build
from scratch makes (tests/test_oracle.py).
"""

from __future__ import annotations

import dataclasses
import time
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Iterable, Mapping

from . import graph
from ..check.assets import files_named
from ..check.audit import Auditor
from .cache import BodyCache
from ..render.claims import ClaimIndex
from .drafts import MODES, draft_files, link_with_drafts
from .inputs import Edits, InputScan, Inputs, digest
from ..check.link import Key, Site, check_references
from .pool import render_pages
from ..model.problems import Problem, in_drafts
from ..check.relink import can_relink, relink
from ..render.pages import Renderer
from ..model.schema import Record, Translation
from ..search.words import PageWords
from ..publish.sinks import FolderSink, MemorySink
from ..check.validate import salvage, validate

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
    """A project loaded in memory: its inputs, records, linked site and written outputs."""

    def __init__(self, root: Path, *, portable: bool = False, base_url: str | None = None, defer_audit: bool = False, drafts: str = "out"):
        assert drafts in MODES
        self.inputs = Inputs(root)
        self.draft_mode = drafts  # 'out': build leaves drafts out; 'preview': shown, links to them warned of; 'in': build --drafts
        self.drafts: dict[Key, str] = {}  # every draft's file, as last linked
        self.defer_audit = defer_audit  # the preview audits after the browser has reloaded
        self.audit_due = False
        self.portable = portable
        self.base_url = base_url
        self.site: Site | None = None  # as last linked
        self.failed: set[Key] = set()
        self.link_problems: dict[str, list[Problem]] = {}  # by file
        self.problems: list[Problem] = []
        self.rendered: Site | None = None  # the site as last rendered
        self.pending: set[Key] | None = EVERYTHING  # records changed since the last render
        self.extras_pending = True  # static files changed since the last render
        self.languages_pending: set[str] = set()  # languages whose interface catalog changed since the last render: their pages render again
        self.renderer: Renderer | None = None
        self.pages: dict[str, Callable[[], bytes]] = {}
        self.written: dict[str, bytes] = {}  # output path -> digest of what was last made
        self.words = PageWords()  # the pages written last whose text search indexes, and their words
        self.extra_paths: set[str] = set()  # outputs that are not pages: data, static files
        self.unlinked: set[Key] = set()  # records changed since the last link
        self.page_paths: set[str] = set()  # the pages last rendered
        self.reads: dict[str, frozenset] = {}  # what each page read when last rendered (reads.py)
        self.claims_shown: dict[str, tuple | bytes] = {}  # what each claims page showed when last rendered (Renderer.claims_shown), or its digest once kept on disk
        self.claims_version: tuple[int, ...] = ()  # the claim indexes' versions when they were worked out
        self.pages_changed = True  # the last plan made the list of pages again
        self.published: tuple[str, dict[str, tuple[int, int]]] | None = None  # where the last build went, and its files' sizes and times
        self.body_cache: BodyCache | None = None
        self.relink_all = True  # a seed changed: every quote must be found again
        self.relisted = False  # content files came or went since the last link
        self.paths: dict[Key, str] = {}  # the content file of each record marked as changed
        self.file_problems: list[Problem] = []  # problems of reading and validating, as last worked out
        self.auditor = Auditor()  # remembers the warnings of records that have not changed
        self.claim_indexes: dict[str, ClaimIndex] = {}  # each record's claims in each language, kept with the session: an edit works out only its own again

    @property
    def root(self) -> Path:
        """Return the project folder."""
        return self.inputs.root

    def load(self, scan: InputScan | None = None) -> None:
        """Read, validate and link the whole project (scan: its inputs' digests as they are, if known)."""
        self.inputs.load(scan)
        self.pending = EVERYTHING
        self.link(None)

    def show_drafts(self, mode: str) -> bool:
        """Show drafts as the mode says from now on (the preview, opened from a build's session);
        return whether that changes the site (then every page is to render again)."""
        changed = mode != self.draft_mode and bool(self.drafts)
        self.draft_mode = mode
        if changed:
            self.pending = EVERYTHING
            self.link(None)
        return changed

    def link(self, keys: set[Key] | None) -> None:
        """Validate, link and audit the site again, relinking only the given records when that is enough."""
        self.link_site(keys)
        self.unlinked, self.relink_all, self.relisted = set(), False, False

    # Linking

    def link_site(self, keys: set[Key] | None) -> None:
        """Validate, link and audit the site again (only the given records when that is enough)."""
        drafts = draft_files(self.inputs.entries)
        if drafts or self.drafts:
            keys = None  # drafts change what the site holds: link it all (drafts are few, and soon finished)
        self.drafts = drafts
        placed = self.place(keys)
        if placed is not None:  # the same valid records, a few of them edited
            records, failed = placed, self.failed
        else:
            inputs = self.inputs
            entries = [inputs.entries[path] for path in sorted(inputs.entries)]
            known = {e.document.path: (e.record, e.validation_problems) for e in entries if e.document is not None}
            unreadable = inputs.failed()  # a file that failed to read is reported as such, and not again through its translations
            records, failed, validation = validate([e.document for e in entries if e.document is not None], known, inputs.model, unreadable)
            self.file_problems = inputs.model_problems + inputs.listing + [p for e in entries for p in e.read_problems] + validation + inputs.seed_problems
        if self.site is not None and keys is not None and can_relink(self.site, records, failed, self.failed, keys):
            site, per_file = relink(self.site, records, failed, keys)
            self.link_problems.update(per_file)
        else:
            site, found, records, failed = link_with_drafts(records, self.inputs.seed_texts, failed, self.inputs.model, drafts, self.draft_mode)
            by_file: dict[str, list[Problem]] = defaultdict(list)
            for problem in found:
                by_file[problem.path].append(problem)
            self.link_problems = dict(by_file)
        if self.base_url:
            site.config = dataclasses.replace(site.config, base_url=self.base_url)
        self.site, self.failed = site, failed
        found = self.file_problems + [p for found in self.link_problems.values() for p in found] + self.salvaged_problems(records, failed)
        site.media = self.inputs.media  # the images of media/, for the checks and the renderer
        found += files_named(site, self.inputs.digests) + self.inputs.media_problems
        self.problems = sorted(in_drafts(found, set(drafts.values())))
        self.audit_due = not any(p.severity == "error" for p in self.problems)
        if not self.defer_audit:
            self.audit()

    def salvaged_problems(self, records: dict[str, dict[str, Record]], failed: set[Key]) -> list[Problem]:
        """Return the link, reference and citation problems of the files that failed validation."""
        inputs = self.inputs
        salvaged = [record for e in inputs.entries.values() if e.record is None and e.document is not None and e.validation_problems
                    for record in [salvage(e.document, inputs.model)] if record is not None]
        return check_references(records, inputs.seed_texts, failed, inputs.model, salvaged, self.drafts, self.draft_mode) if salvaged else []

    def place(self, keys: set[Key] | None) -> dict[str, dict[str, Record]] | None:
        """Return the linked site's records with the edited ones replaced, when nothing else can have
        moved: no file came or went, each edited record was and is valid, and none is a source or the
        settings (the only kinds where two files could claim one id). Else None: validate() again."""
        if self.site is None or keys is None or self.relisted or any(kind in ("sources", "site") for kind, _ in keys):
            return None
        records = dict(self.site.records)
        for kind, rid in keys:
            entry = self.inputs.entries.get(self.paths.get((kind, rid), ""))
            if entry is None or entry.record is None or rid not in self.site.records.get(kind, {}):
                return None
            if isinstance(entry.record, Translation) or self.site.records[kind][rid].translations:
                return None  # validate() puts a record and its translations together
            if records[kind] is self.site.records[kind]:
                records[kind] = dict(records[kind])  # the site before the edit keeps its own
            records[kind][rid] = entry.record
        return records

    def audit(self) -> list[Problem]:
        """Add the editorial warnings to the problems, if the site has no errors; return the warnings."""
        if not self.audit_due or self.site is None:
            return []
        warnings = in_drafts(self.auditor.audit(self.site), set(self.drafts.values()))
        self.problems = sorted(self.problems + warnings)
        self.audit_due = False
        return warnings

    # Rendering

    def plan(self) -> tuple[list[str], bool]:
        """Decide which pages to render again, and whether the extras (data, static files) must be remade."""
        assert self.site is not None
        if self.renderer is None:
            self.renderer = Renderer(self.site, self.inputs.root / "templates", portable=self.portable)
            self.renderer.cache = self.body_cache
            self.renderer.claim_indexes = self.claim_indexes
        self.renderer.site = self.site
        self.renderer.forget()
        old, pending = self.rendered, self.pending
        everything = pending is EVERYTHING or old is None
        new_pages: set[str] = set()
        # The claims pages read every body: they render again when what they show changes, which only
        # a change to the claims can change.
        self.renderer.claims_edited = None if everything else set(pending)  # type: ignore[arg-type]
        version = self.renderer.claims_version()
        claims = self.claims_shown if not everything and version == self.claims_version and self.claims_shown else self.renderer.claims_shown()
        self.pages_changed = (everything or not self.pages or any(graph.change(old, self.site, key).meta for key in pending)  # type: ignore[union-attr, arg-type]
                              or claims.keys() != self.claims_shown.keys())
        if self.pages_changed:  # titles, filters and the set of pages may differ
            before = set(self.pages) or self.page_paths
            self.pages = self.renderer.pages()
            new_pages = set(self.pages) - before
        found = EVERYTHING if everything else graph.affected(old, self.site, pending, self.pages, self.reads)  # type: ignore[arg-type]
        paths, extras = (set(self.pages), True) if found is EVERYTHING else found
        paths |= {path for path, shown in claims.items() if not graph.same_claims(self.claims_shown.get(path), shown)}
        if self.languages_pending:
            paths |= graph.pages_in(self.pages, self.site.config, self.languages_pending)
        self.claims_shown, self.claims_version = claims, version
        return sorted(paths | new_pages), extras or self.extras_pending or (self.portable and bool(paths))

    def render(self, previous: Path | None = None) -> Outcome:
        """Render what changed since the last render, in memory: return the new or changed files and
        the removed ones. previous is where the other pages were written (for a portable build's
        search fallback, which is made from every page, and for the words of the pages replaced)."""
        return self.render_to(MemorySink(previous))

    def render_into(self, folder: Path, previous: Path | None, workers: int = 1,
                    searchable_done: Callable[[Path, set[str]], object] | None = None) -> Outcome:
        """Render what changed since the last render into an empty staging folder, in parallel when
        there is much to do, and carry every other file over from previous (where the last render
        went). Without previous, render everything."""
        if previous is None:
            self.pending, self.written, self.extras_pending = EVERYTHING, {}, True
            self.words.forget()
        return self.render_to(FolderSink(folder, previous), workers, searchable_done)

    def render_to(self, sink: MemorySink | FolderSink, workers: int = 1,
                  searchable_done: Callable[[Path, set[str]], object] | None = None) -> Outcome:
        """Render the pages that changed into a sink and carry the others over. searchable_done is
        called once every page that search indexes is in place (so that indexing overlaps the
        rendering of the timeline pages), with those of them that are new, changed or gone."""
        outcome = Outcome(problems=self.problems)
        if outcome.errors:
            return outcome
        paths, remake = self.plan()
        rendered = set(paths)
        sink.carry([path for path in self.pages if path not in rendered])
        timeline = [path for path in paths if path.startswith("timeline/")]  # pages search does not index
        was_searchable = set(self.words.searchable)
        digests = render_pages(self, [path for path in paths if not path.startswith("timeline/")], sink, workers)
        gone = self.words.settle(self.pages, sink.previous)
        if searchable_done is not None:
            changed = {path for path, data_digest in digests.items() if self.written.get(path) != data_digest}
            searchable_done(sink.folder, gone | changed & (self.words.searchable | was_searchable))  # type: ignore[arg-type]
        digests.update(render_pages(self, timeline, sink, workers))
        self.renderer.forget()  # type: ignore[union-attr]  # plan() forgets too; this frees the memory now
        outcome.rendered = len(paths)
        if remake:
            for path, data in self.make_extras(sink.every_page(self.pages)).items():
                digests[path] = self.emit(sink, path, data)
        else:
            sink.carry(self.extra_paths)
        if self.body_cache is not None:
            self.body_cache.flush(len(self.pages))
        outcome.files = sink.files
        self.conclude(outcome, digests, remake)
        return outcome

    def emit(self, sink: MemorySink | FolderSink, path: str, data: bytes) -> bytes:
        """Put one output file into a sink unless it is as last made (then it is carried over); note
        a page's words for search; return its digest."""
        data_digest = digest(data)
        reads = self.renderer.reads.pop(path, None) if self.renderer is not None else None
        if reads is not None:
            self.reads[path] = reads
        unchanged = self.written.get(path) == data_digest
        if not unchanged and path.endswith(".html"):
            self.words.note(path, data, sink.previous)
        sink.put(path, data, unchanged)
        return data_digest

    def make_extras(self, pages: Mapping[str, bytes]) -> dict[str, bytes]:
        """Remake the data exports, search fallback and static files."""
        assert self.renderer is not None
        extras = self.renderer.extras(pages)
        self.extra_paths = set(extras)
        return extras

    def conclude(self, outcome: Outcome, digests: dict[str, bytes], extras: bool) -> None:
        """Remember what was made, and which outputs no longer exist (only pages or extras made again can go)."""
        if self.pages_changed or extras:
            outputs = set(self.pages) | self.extra_paths
            outcome.removed = set(self.written) - outputs
            for path in outcome.removed:
                del self.written[path]
                self.reads.pop(path, None)
            self.page_paths = set(self.pages)
        self.written.update(digests)
        self.rendered, self.pending, self.extras_pending, self.languages_pending = self.site, set(), False, set()

    def take(self, edits: Edits) -> bool:
        """Take in what a refresh of the inputs found changed and link again; return whether anything did."""
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
        self.relink_all = self.relink_all or edits.seeds or edits.reloaded
        self.relisted = self.relisted or edits.relisted or edits.reloaded
        for key, relative in edits.records.items():
            self.paths[key] = relative
            self.unlinked.add(key)
            if self.pending is not EVERYTHING:
                self.pending.add(key)
        if edits.changed:
            self.link(None if self.relink_all else self.unlinked)
        return edits.changed

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
        return (self.rendered is not None and self.pending is not EVERYTHING and not self.pending and not self.extras_pending
                and not self.languages_pending)

    def __getstate__(self) -> dict:
        """Keep everything but the renderer and its page functions, which are made again on demand."""
        return {**self.__dict__, "renderer": None, "pages": {}, "claims_shown": {path: graph.claims_digest(shown) for path, shown in self.claims_shown.items()}}
