"""A project kept in memory between builds, so that an edit costs only what it changes.

The session remembers what each input file held, the records validated from it, the linked site
and the digest of every file it has written. update(paths) reads only the files named, validates
only those, relinks only the records that changed (relink.py) and re-renders only the pages the
dependency graph (graph.py) names; what it makes equals what a build from scratch makes.
"""

from __future__ import annotations

import dataclasses
import gc
import hashlib
import multiprocessing
import os
import signal
import time
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any, Callable, Iterable, Iterator, Mapping

from . import cache, graph
from .audit import Auditor
from .cache import BodyCache
from .link import Key, Site, check_references, link
from .passages import SeedText
from .problems import Problem, UsageError
from .publish import carry_over, walk_files, write_into
from .model import BUILT_IN, Model
from .read import Document, content_files, is_editor_artifact, read_document, read_model, read_seeds, real_folders
from .relink import can_relink, relink
from .render import Renderer
from .schema import Record
from .search import SEARCHABLE, words_of
from .validate import salvage, validate, validate_document

EVERYTHING = graph.EVERYTHING
INPUT_FOLDERS = ("content", "seeds", "templates")


def digest(data: bytes) -> bytes:
    """Return a short digest of some bytes."""
    return hashlib.blake2b(data, digest_size=16).digest()


def file_digest(path: Path) -> bytes | None:
    """Return the digest of a file's bytes, or None if it cannot be read."""
    try:
        return digest(path.read_bytes())
    except OSError:
        return None


def scan_inputs(root: Path) -> dict[str, bytes]:
    """Return the digest of every file in the project's content/, seeds/ and templates/ folders."""
    found = {}
    for folder in INPUT_FOLDERS:
        for relative in walk_files(root / folder):
            data = file_digest(root / folder / relative)
            if data is not None:
                found[f"{folder}/{relative}"] = data
    return found


def key_of(relative: str) -> Key:
    """Return the key a content file is known by: content/people/x.md -> ('people', 'x')."""
    path = Path(relative)
    return (path.parent.name, path.stem) if len(path.parts) > 2 else ("site", path.stem)


@dataclass
class Entry:
    """One content file as last read: its digest, document, record and problems."""

    digest: bytes | None
    document: Document | None
    record: Record | None
    read_problems: list[Problem]
    validation_problems: list[Problem]


@dataclass
class Outcome:
    """What one update found and made."""

    files: dict[str, bytes] = field(default_factory=dict)  # output files that are new or changed
    removed: set[str] = field(default_factory=set)  # output files that no longer exist
    problems: list[Problem] = field(default_factory=list)
    changed: bool = False  # whether any input changed at all
    rendered: int = 0  # pages rendered
    seconds: float = 0.0

    @property
    def errors(self) -> list[Problem]:
        """Return the problems that stop the site from being rendered."""
        return [p for p in self.problems if p.severity == "error"]


class EveryPage(Mapping[str, bytes]):
    """Every page of the site by path: the ones just rendered, the others read back from where they
    were last written, or rendered again when there is no such folder (for the search fallback)."""

    def __init__(self, pages: dict[str, Callable[[], bytes]], fresh: dict[str, bytes], folder: Path | None):
        self.pages, self.fresh, self.folder = pages, fresh, folder

    def __getitem__(self, path: str) -> bytes:
        if path in self.fresh:
            return self.fresh[path]
        return (self.folder / path).read_bytes() if self.folder else self.pages[path]()

    def __contains__(self, path: object) -> bool:
        return path in self.pages

    def __iter__(self) -> Iterator[str]:
        return iter(self.pages)

    def __len__(self) -> int:
        return len(self.pages)


class Session:
    """A project loaded in memory: its inputs, records, linked site and written outputs."""

    def __init__(self, root: Path, *, portable: bool = False, base_url: str | None = None, defer_audit: bool = False):
        self.root = root
        self.defer_audit = defer_audit  # the preview audits after the browser has reloaded
        self.audit_due = False
        self.portable = portable
        self.base_url = base_url
        self.entries: dict[str, Entry] = {}  # content files by path relative to root
        self.listing: list[Problem] = []  # warnings about files in content/ that are ignored
        self.seed_texts: dict[str, SeedText] = {}
        self.seed_problems: list[Problem] = []
        self.seed_digests: dict[str, bytes] = {}
        self.site: Site | None = None  # as last linked
        self.failed: set[Key] = set()
        self.link_problems: dict[str, list[Problem]] = {}  # by file
        self.problems: list[Problem] = []
        self.rendered: Site | None = None  # the site as last rendered
        self.pending: set[Key] | None = EVERYTHING  # records changed since the last render
        self.extras_pending = True  # static files changed since the last render
        self.renderer: Renderer | None = None
        self.pages: dict[str, Callable[[], bytes]] = {}
        self.written: dict[str, bytes] = {}  # output path -> digest of what was last made
        self.searchable: set[str] = set()  # the pages written last whose text search indexes
        self.word_pages: Counter[str] = Counter()  # each word of those pages: in how many of them
        self.word_changes: Counter[str] = Counter()  # what the pages made since the last settle_words() change in it
        self.extra_paths: set[str] = set()  # outputs that are not pages: data, static files
        self.unlinked: set[Key] = set()  # records changed since the last link
        self.page_paths: set[str] = set()  # the pages last rendered
        self.other_pages: set[str] | None = None  # pages the dependency graph knows nothing about
        self.pages_changed = True  # the last plan made the list of pages again
        self.inputs: dict[str, bytes] = {}  # digest of every file in content/, seeds/ and templates/
        self.published: tuple[str, dict[str, tuple[int, int]]] | None = None  # where the last build went, and its files' sizes and times
        self.body_cache: BodyCache | None = None
        self.relink_all = True  # a seed changed: every quote must be found again
        self.relisted = False  # content files came or went since the last link
        self.paths: dict[Key, str] = {}  # the content file of each record marked as changed
        self.file_problems: list[Problem] = []  # problems of reading and validating, as last worked out
        self.auditor = Auditor()  # remembers the warnings of records that have not changed
        self.model: Model = dict(BUILT_IN)  # the record types, with those content/site.yaml declares
        self.model_problems: list[Problem] = []

    # Reading

    def load(self) -> None:
        """Read, validate and link the whole project."""
        real_folders.cache_clear()  # where the project's folders lead may have changed since
        self.inputs = scan_inputs(self.root)
        self.model, self.model_problems = read_model(self.root)
        files, self.listing = content_files(self.root, self.model)
        self.entries = {}
        for file in files:
            relative = file.relative_to(self.root).as_posix()
            self.read_entry(relative, self.inputs.get(relative))
        self.read_seeds()
        self.pending = EVERYTHING
        self.link(None)

    def link(self, keys: set[Key] | None) -> None:
        """Validate, link and audit the site again, relinking only the given records when that is enough."""
        self.link_site(keys)
        self.unlinked, self.relink_all, self.relisted = set(), False, False

    def read_entry(self, relative: str, data: bytes | None = None) -> bool:
        """Read and validate one content file if its bytes changed (data: their digest, if known); return whether they did."""
        data = data or file_digest(self.root / relative)
        before = self.entries.get(relative)
        if before is not None and data is not None and before.digest == data:
            return False
        document, read_problems = read_document(self.root, self.root / relative)
        record, validation_problems = validate_document(document, self.model) if document is not None else (None, [])
        if document is not None and record is not None:  # valid: keep only what validate() needs to place the record
            document = Document(document.path, document.kind, document.id, {})
        self.entries[relative] = Entry(data, document, record, read_problems, validation_problems)
        return True

    def read_seeds(self) -> bool:
        """Read every seed again; return whether any changed."""
        seeds, problems = read_seeds(self.root)
        digests = {name: digest(text.encode("utf-8")) for name, text in seeds.items()}
        if digests == self.seed_digests and problems == self.seed_problems:
            return False
        self.seed_texts = {
            name: self.seed_texts[name] if self.seed_digests.get(name) == digests[name] else SeedText(text)
            for name, text in seeds.items()
        }
        self.seed_digests, self.seed_problems = digests, problems
        return True

    def changed_inputs(self, now: dict[str, bytes] | None = None) -> set[str]:
        """Return the input files that changed, came or went since they were last read (now: their digests, if known)."""
        now = scan_inputs(self.root) if now is None else now
        return {path for path in set(now) | set(self.inputs) if now.get(path) != self.inputs.get(path)}

    def refresh(self, paths: Iterable[str]) -> bool:
        """Read the named files again (paths relative to the project); return whether any input changed."""
        real_folders.cache_clear()
        changed = relisted = False
        for relative in sorted(set(paths)):
            data = file_digest(self.root / relative) if (self.root / relative).is_file() else None
            if data is None:
                self.inputs.pop(relative, None)
            else:
                self.inputs[relative] = data
            parts = relative.split("/")
            if len(parts) < 2 or any(is_editor_artifact(part) for part in parts[1:]):
                continue
            if parts[0] == "templates":
                changed = True
                self.renderer = None  # it lists the template and static folders when made
                if parts[1] == "static":
                    self.extras_pending = True
                else:
                    self.pending = EVERYTHING
            elif parts[0] == "seeds" and self.read_seeds():
                changed = self.relink_all = True  # quotes are checked and found again everywhere
                self.pending = EVERYTHING
            elif relative == "content/site.yaml" and read_model(self.root) != (self.model, self.model_problems):
                self.renderer, self.extras_pending = None, True
                self.load()  # other record types: every file is read and validated again
                return True
            elif parts[0] == "content":
                stray = any(p.path == relative for p in self.listing)  # its "ignored" warning may go
                if (self.root / relative).is_file() != (relative in self.entries) or stray:
                    relisted = True
                elif relative in self.entries and self.read_entry(relative):
                    changed = True
                    self.mark(relative)
        return self.relist() or changed if relisted else changed

    def relist(self) -> bool:
        """List content/ again after files came or went; return whether anything changed."""
        self.relisted = True
        files, listing = content_files(self.root, self.model)
        present = {file.relative_to(self.root).as_posix() for file in files}
        changed = listing != self.listing
        self.listing = listing
        for relative in sorted(set(self.entries) - present):
            del self.entries[relative]
            self.mark(relative)
            changed = True
        for relative in sorted(present - set(self.entries)):
            self.read_entry(relative)
            self.mark(relative)
            changed = True
        return changed

    def mark(self, relative: str) -> None:
        """Note that a content file's record changed since the last link and render."""
        key = key_of(relative)
        self.paths[key] = relative
        self.unlinked.add(key)
        if self.pending is not EVERYTHING:
            self.pending.add(key)

    # Linking

    def link_site(self, keys: set[Key] | None) -> None:
        """Validate, link and audit the site again (only the given records when that is enough)."""
        placed = self.place(keys)
        if placed is not None:  # the same valid records, a few of them edited
            records, failed = placed, self.failed
        else:
            entries = [self.entries[path] for path in sorted(self.entries)]
            known = {e.document.path: (e.record, e.validation_problems) for e in entries if e.document is not None}
            records, failed, validation = validate([e.document for e in entries if e.document is not None], known, self.model)
            failed |= {key_of(path) for path, e in self.entries.items() if e.document is None}
            failed |= {("seeds", p.path.rpartition("/")[2]) for p in self.seed_problems if p.severity == "error"}
            self.file_problems = self.model_problems + self.listing + [p for e in entries for p in e.read_problems] + validation + self.seed_problems
        if self.site is not None and keys is not None and can_relink(self.site, records, failed, self.failed, keys):
            site, per_file = relink(self.site, records, failed, keys)
            self.link_problems.update(per_file)
        else:
            site, found = link(records, self.seed_texts, failed, self.model)
            by_file: dict[str, list[Problem]] = defaultdict(list)
            for problem in found:
                by_file[problem.path].append(problem)
            self.link_problems = dict(by_file)
        if self.base_url:
            site.config = dataclasses.replace(site.config, base_url=self.base_url)
        self.site, self.failed = site, failed
        self.problems = sorted(self.file_problems + [p for found in self.link_problems.values() for p in found] + self.salvaged_problems(records, failed))
        self.audit_due = not any(p.severity == "error" for p in self.problems)
        if not self.defer_audit:
            self.audit()

    def salvaged_problems(self, records: dict[str, dict[str, Record]], failed: set[Key]) -> list[Problem]:
        """Return the link, reference and citation problems of the files that failed validation."""
        salvaged = [record for e in self.entries.values() if e.record is None and e.document is not None and e.validation_problems
                    for record in [salvage(e.document, self.model)] if record is not None]
        return check_references(records, self.seed_texts, failed, self.model, salvaged) if salvaged else []

    def place(self, keys: set[Key] | None) -> dict[str, dict[str, Record]] | None:
        """Return the linked site's records with the edited ones replaced, when nothing else can have
        moved: no file came or went, each edited record was and is valid, and none is a source or the
        settings (the only kinds where two files could claim one id). Else None: validate() again."""
        if self.site is None or keys is None or self.relisted or any(kind in ("sources", "site") for kind, _ in keys):
            return None
        records = dict(self.site.records)
        for kind, rid in keys:
            entry = self.entries.get(self.paths.get((kind, rid), ""))
            if entry is None or entry.record is None or rid not in self.site.records.get(kind, {}):
                return None
            if records[kind] is self.site.records[kind]:
                records[kind] = dict(records[kind])  # the site before the edit keeps its own
            records[kind][rid] = entry.record
        return records

    def audit(self) -> list[Problem]:
        """Add the editorial warnings to the problems, if the site has no errors; return the warnings."""
        if not self.audit_due or self.site is None:
            return []
        warnings = self.auditor.audit(self.site)
        self.problems = sorted(self.problems + warnings)
        self.audit_due = False
        return warnings

    # Rendering

    def plan(self) -> tuple[list[str], bool]:
        """Decide which pages to render again, and whether the extras (data, static files) must be remade."""
        assert self.site is not None
        if self.renderer is None:
            self.renderer = Renderer(self.site, self.root / "templates", portable=self.portable)
            self.renderer.cache = self.body_cache
        self.renderer.site = self.site
        self.renderer.forget()
        old, pending = self.rendered, self.pending
        everything = pending is EVERYTHING or old is None
        new_pages: set[str] = set()
        self.pages_changed = everything or not self.pages or any(graph.change(old, self.site, key).meta for key in pending)  # type: ignore[union-attr, arg-type]
        if self.pages_changed:  # titles, filters and the set of pages may differ
            before = set(self.pages) or self.page_paths
            self.pages, self.other_pages = self.renderer.pages(), None
            new_pages = set(self.pages) - before
        if not everything and self.other_pages is None:
            self.other_pages = graph.other_pages(old, self.site, self.pages)  # type: ignore[arg-type]
        found = EVERYTHING if everything else graph.affected(old, self.site, pending, self.pages, self.other_pages)  # type: ignore[arg-type]
        paths, extras = (set(self.pages), True) if found is EVERYTHING else found
        return sorted(paths | new_pages), extras or self.extras_pending or (self.portable and bool(paths))

    def render(self, previous: Path | None = None) -> Outcome:
        """Render what changed since the last render, in memory: return the new or changed files and
        the removed ones. previous is where the other pages were written (for a portable build's
        search fallback, which is made from every page)."""
        outcome = Outcome(problems=self.problems)
        if outcome.errors:
            return outcome
        paths, remake = self.plan()
        files = {path: self.pages[path]() for path in paths}
        self.renderer.forget()  # type: ignore[union-attr]  # plan() forgets too; this frees the memory now
        for path, data in files.items():
            if self.written.get(path) != digest(data) and path.endswith(".html"):
                self.note_searchable(path, data, previous)
        self.settle_words(previous)
        outcome.rendered = len(files)
        if remake:
            files.update(self.make_extras(EveryPage(self.pages, files, previous)))
        if self.body_cache is not None:
            self.body_cache.flush(len(self.pages))
        outcome.files = {path: data for path, data in files.items() if self.written.get(path) != digest(data)}
        self.conclude(outcome, {path: digest(data) for path, data in outcome.files.items()}, remake)
        return outcome

    def render_into(self, folder: Path, previous: Path | None, workers: int = 1,
                    searchable_done: Callable[[Path, set[str]], object] | None = None) -> Outcome:
        """Render what changed since the last render into an empty staging folder, in parallel when
        there is much to do, and carry every other file over from previous (where the last render
        went). Without previous, render everything. searchable_done is called once every page that
        search indexes is in place (so that indexing overlaps the rendering of the timeline pages),
        with those of them that are new, changed or gone since previous."""
        outcome = Outcome(problems=self.problems)
        if outcome.errors:
            return outcome
        if previous is None:
            self.pending, self.written, self.extras_pending, self.searchable = EVERYTHING, {}, True, set()
            self.word_pages = Counter()
        paths, remake = self.plan()
        if previous is not None:
            rendered = set(paths)
            carry_over(previous, folder, [path for path in self.pages if path not in rendered])
        timeline = [path for path in paths if path.startswith("timeline/")]  # pages search does not index
        was_searchable = set(self.searchable)
        digests = render_pages(self, [path for path in paths if not path.startswith("timeline/")], folder, previous, workers)
        gone = self.settle_words(previous)
        if searchable_done is not None:
            changed = {path for path, data_digest in digests.items() if self.written.get(path) != data_digest}
            searchable_done(folder, gone | changed & (self.searchable | was_searchable))
        digests.update(render_pages(self, timeline, folder, previous, workers))
        self.renderer.forget()  # type: ignore[union-attr]  # plan() forgets too; this frees the memory now
        outcome.rendered = len(paths)
        if remake:
            for path, data in self.make_extras(EveryPage(self.pages, {}, folder)).items():
                digests[path] = self.emit(folder, previous, path, data)
        elif previous is not None:
            carry_over(previous, folder, self.extra_paths)
        self.conclude(outcome, digests, remake)
        return outcome

    def emit(self, folder: Path, previous: Path | None, path: str, data: bytes) -> bytes:
        """Put one output file into a staging folder: a link to the previous one if unchanged; return its digest."""
        data_digest = digest(data)
        if self.written.get(path) != data_digest and path.endswith(".html"):
            self.note_searchable(path, data, previous)
        if previous is not None and self.written.get(path) == data_digest:
            carry_over(previous, folder, [path])
        else:
            write_into(folder, {path: data})
        return data_digest

    def note_searchable(self, path: str, data: bytes, previous: Path | None) -> None:
        """Remember whether a new or changed page holds text for search to index, and count its words,
        less those of the page it replaces (read from previous; without previous, they stay counted)."""
        if path in self.searchable and previous is not None:
            self.word_changes.subtract(words_of((previous / path).read_bytes()))
        if SEARCHABLE in data:
            self.searchable.add(path)
            self.word_changes.update(words_of(data))
        else:
            self.searchable.discard(path)

    def settle_words(self, previous: Path | None) -> set[str]:
        """Take the word counts of the pages made, and of the searchable pages that are gone, into
        word_pages; forget the gone pages and return them."""
        gone = self.searchable.difference(self.pages)
        for path in gone if previous is not None else ():
            self.word_changes.subtract(words_of((previous / path).read_bytes()))
        self.searchable -= gone
        self.word_pages.update(self.word_changes)
        for word in self.word_changes:  # only the words of these pages can have dropped to none
            if self.word_pages[word] <= 0:
                del self.word_pages[word]
        self.word_changes = Counter()
        return gone

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
            self.page_paths = set(self.pages)
        self.written.update(digests)
        self.rendered, self.pending, self.extras_pending = self.site, set(), False

    def update(self, paths: Iterable[str], previous: Path | None = None) -> Outcome:
        """Take in edits to the named files: read, link and render what they change."""
        started = time.perf_counter()
        if not self.refresh(paths):
            return Outcome(problems=self.problems, seconds=time.perf_counter() - started)
        self.link(None if self.relink_all else self.unlinked)
        outcome = self.render(previous)
        outcome.changed = True
        outcome.seconds = time.perf_counter() - started
        return outcome

    def up_to_date(self) -> bool:
        """Tell whether nothing changed since the last render."""
        return self.rendered is not None and self.pending is not EVERYTHING and not self.pending and not self.extras_pending

    def __getstate__(self) -> dict:
        """Keep everything but the renderer and its page functions, which are made again on demand."""
        return {**self.__dict__, "renderer": None, "pages": {}, "other_pages": None}


_JOB: tuple[Session, Path, Path | None, list[list[str]], Any] | None = None  # what forked workers render: set just before forking
PARALLEL_FROM = 64  # pages; fewer render faster in the process that has them
CHUNK = 16  # pages a process takes at a time


def render_claimed() -> tuple[dict[str, bytes], set[str], Counter[str]]:
    """Render chunks of the pages being built until none is left, taking the next one not taken by
    another process; return the pages' digests, which of them search indexes, and how they change
    the count of each word."""
    assert _JOB is not None
    session, folder, previous, chunks, claimed = _JOB
    digests: dict[str, bytes] = {}
    while True:
        with claimed.get_lock():
            number = claimed.value
            claimed.value += 1
        if number >= len(chunks):
            break
        for path in chunks[number]:
            digests[path] = session.emit(folder, previous, path, session.pages[path]())
    if session.body_cache is not None:
        session.body_cache.flush()
    changes, session.word_changes = session.word_changes, Counter()
    return digests, {path for path in digests if path in session.searchable}, changes


def render_pages(session: Session, paths: list[str], folder: Path, previous: Path | None, workers: int) -> dict[str, bytes]:
    """Render pages into a staging folder: with many pages, this process and workers - 1 forked ones
    take chunks of them in turn (a process fewer than workers, as each holds the site's memory)."""
    global _JOB
    if workers <= 1 or len(paths) < PARALLEL_FROM or not hasattr(os, "fork"):
        digests = {path: session.emit(folder, previous, path, session.pages[path]()) for path in paths}
        if session.body_cache is not None:
            session.body_cache.flush(len(session.pages))
        return digests
    if session.body_cache is not None:
        session.body_cache.close()  # each worker opens its own connection
    big_first = sorted(paths, key=lambda path: (path.count("/") > 2 and not path.startswith(("timeline/", "sources/")), path))
    context = multiprocessing.get_context("fork")
    _JOB = (session, folder, previous, [big_first[start: start + CHUNK] for start in range(0, len(big_first), CHUNK)], context.Value("l", 0))
    gc.freeze()  # workers share the parent's objects without the collector touching (and copying) them
    started: list[tuple[multiprocessing.process.BaseProcess, Connection]] = []
    try:
        for _ in range(workers - 1):
            reader, writer = context.Pipe(duplex=False)
            process = context.Process(target=render_in_worker, args=(writer,), daemon=True)
            process.start()
            writer.close()
            started.append((process, reader))
        digests, _, session.word_changes = render_claimed()  # this process's share, noted as it went
        for process, reader in started:
            part, searchable, words = worker_result(process, reader)
            digests.update(part)
            session.word_changes.update(words)
            session.searchable.difference_update(part)
            session.searchable.update(searchable)
    finally:
        for process, reader in started:
            if process.is_alive():
                process.terminate()
            process.join()
            reader.close()
        gc.unfreeze()
        _JOB = None
    return digests


def render_in_worker(writer: Connection) -> None:
    """Render this forked worker's share of the pages and send the outcome (or what it raised) back."""
    quiet_worker()
    try:
        outcome: tuple[str, Any] = ("done", render_claimed())
    except BaseException as error:  # raised again in the parent
        outcome = ("failed", error)
    try:
        writer.send(outcome)
    except Exception:  # what was raised does not pickle
        writer.send(("failed", RuntimeError(repr(outcome[1]))))


def worker_result(process: multiprocessing.process.BaseProcess, reader: Connection) -> Any:
    """Return what a rendering worker sent back; raise what it raised, or a clear error if it died."""
    try:
        kind, value = reader.recv()
    except EOFError:  # it ended without a word (this process holds no writing end): killed, most often for want of memory
        process.join()
        code = process.exitcode or 0
        how = f"was killed by signal {-code}" if code < 0 else f"stopped with exit code {code}"
        raise UsageError(f"a process rendering pages {how} (out of memory?); try again with fewer processes (build --jobs 1)") from None
    if kind == "failed":
        raise value
    return value


def quiet_worker() -> None:
    """Let forked workers die quietly: the build stops them with SIGTERM, and Ctrl+C is the parent's to handle."""
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    signal.signal(signal.SIGINT, signal.SIG_IGN)


@dataclass
class Summary:
    """What a build leaves for the next one to check quickly: its inputs, its output files and problems."""

    inputs: dict[str, bytes]  # digest of every input file
    published: tuple[str, dict[str, tuple[int, int]]]  # where it went, and each file's size and time
    problems: list[Problem]


def intact(published: tuple[str, dict[str, tuple[int, int]]] | None, out: Path) -> bool:
    """Tell whether out still holds exactly the files a build published there, as it left them."""
    if published is None or published[0] != str(out.resolve()):
        return False
    for path, expected in published[1].items():
        try:
            stat = (out / path).stat()
        except OSError:
            return False
        if (stat.st_size, stat.st_mtime_ns) != expected:
            return False
    return True


def last_build(root: Path, out: Path, options: tuple) -> tuple[Summary | None, dict[str, bytes]]:
    """Return the last build's summary when no input changed since and out is as it left it (there
    is nothing to do), and the digests of the inputs as they are now."""
    inputs = scan_inputs(root)
    summary = cache.load(cache.state_file(root, options, "summary"))
    if isinstance(summary, Summary) and summary.inputs == inputs and intact(summary.published, out):
        return summary, inputs
    return None, inputs


def open_session(root: Path, out: Path, *, portable: bool = False, base_url: str | None = None, use_cache: bool = True,
                 inputs: dict[str, bytes] | None = None) -> tuple[Session, Path | None]:
    """Return a session for building root into out, brought up to date, and the folder holding its
    last output (None when everything must be rendered): restored from the cache when the last build
    used the same code and options, else loaded afresh. inputs are the input digests, if known."""
    session = cache.load(cache.state_file(root, (portable, base_url))) if use_cache else None
    previous: Path | None = None
    if isinstance(session, Session) and session.site is not None:
        session.root = root
        changed = session.changed_inputs(inputs)
        if changed and session.refresh(changed):
            session.link(None if session.relink_all else session.unlinked)
        previous = out if intact(session.published, out) and set(session.published[1]) == set(session.written) else None  # type: ignore[index]
    else:
        session = Session(root, portable=portable, base_url=base_url)
        session.load()
    session.body_cache = BodyCache(root / cache.FOLDER / "bodies.sqlite") if use_cache else None
    return session, previous


def close_session(session: Session, out: Path, use_cache: bool = True) -> None:
    """Note what the build published, and keep the session (and a summary of it) for the next build."""
    files = {}
    for path in session.written:
        stat = (out / path).stat()
        files[path] = (stat.st_size, stat.st_mtime_ns)
    session.published = (str(out.resolve()), files)
    if session.body_cache is not None:
        session.body_cache.close()
    if use_cache:
        options = (session.portable, session.base_url)
        cache.save(cache.state_file(session.root, options, "summary"), None)  # never a summary without its session
        cache.save(cache.state_file(session.root, options), session)
        cache.save(cache.state_file(session.root, options, "summary"), Summary(session.inputs, session.published, session.problems))
