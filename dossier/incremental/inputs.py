"""Input tracking: what each of the project's files held when last read, and what an edit changed.

Inputs reads content/ and seeds/ through the reading and validating stages, keeps each content
file's digest, document and record, and on refresh(paths) reads again only the files named,
saying which records, templates or seeds changed (an Edits) for the session to relink and render.
"""

from __future__ import annotations

import hashlib
import os
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterable

from ..model import i18n
from ..model.i18n import translation_of
from ..model.record_types import BUILT_IN, Model
from ..text.passages import SeedText
from ..model.problems import Problem
from ..publish.staging import walk_files
from ..model.media import MediaFile
from ..read.media import read_media
from ..read.documents import Document, content_files, is_editor_artifact, read_document, read_model, read_seeds, real_folders
from ..model.schema import Record
from ..render import theme
from ..check.validate import validate_document
from ..forked import in_two_processes

INPUT_FOLDERS = ("content", "seeds", "templates", "media")
Key = tuple[str, str]


def digest(data: bytes) -> bytes:
    """Return a short digest of some bytes."""
    return hashlib.blake2b(data, digest_size=16).digest()


def file_digest(path: Path) -> bytes | None:
    """Return the digest of a file's bytes, or None if it cannot be read."""
    try:
        return digest(path.read_bytes())
    except OSError:
        return None


# A file changed this close before a scan began may change again within the same tick of the file
# system's clock, keeping its size and times: its bytes are read again at the next scan all the same.
RACY_NS = 2_000_000_000
Stat = tuple[int, int, int, int]  # size, times of last change to the bytes and to the file, inode


@dataclass
class InputScan:
    """The digest of every input file, what the file system said of each, and when the scan began."""

    digests: dict[str, bytes]
    stats: dict[str, Stat] = field(default_factory=dict)
    started: int = 0  # time.time_ns()


def scan_inputs(root: Path, known: InputScan | None = None) -> InputScan:
    """Return the digest of every file in the project's content/, seeds/ and templates/ folders, of
    the package's theme files (as dossier/templates/...: see theme.py) and of the interface's catalogs
    (as dossier/locale/<lang>/LC_MESSAGES/dossier.po: see i18n.py). A file that the file
    system describes as a known scan did (same size, times and inode), not changed shortly before
    that scan began, keeps its known digest without being read."""
    scan = InputScan({}, {}, time.time_ns())
    trusted = known.started - RACY_NS if known is not None else 0
    for folder, path in [*((folder, root / folder) for folder in INPUT_FOLDERS), (theme.THEME, theme.PACKAGE_TEMPLATES), (i18n.CATALOGS, i18n.LOCALE)]:
        base = str(path)
        for relative in walk_files(path):
            name = f"{folder}/{relative}"
            if folder == i18n.CATALOGS and i18n.catalog_language(name) is None:
                continue  # the .pot and the compiled .mo files: the .po files are the catalogs
            try:
                found = os.stat(os.path.join(base, relative))
            except OSError:
                continue
            stat = (found.st_size, found.st_mtime_ns, found.st_ctime_ns, found.st_ino)
            before = known.digests.get(name) if known is not None and known.stats.get(name) == stat and max(stat[1], stat[2]) < trusted else None
            data = before or file_digest(path / relative)
            if data is not None:
                scan.digests[name], scan.stats[name] = data, stat
    return scan


def key_of(relative: str) -> Key:
    """Return the key a content file is known by: content/people/x.md -> ('people', 'x')."""
    path = Path(relative)
    if len(path.parts) <= 2:
        return ("site", path.stem)
    translation = translation_of(path.stem)  # a translation is part of its record: content/people/x.es.md -> ('people', 'x')
    return (path.parent.name, translation[0] if translation else path.stem)


@dataclass
class Entry:
    """One content file as last read: its digest, document, record and problems."""

    digest: bytes | None
    document: Document | None  # in full only when its record failed (see validate.salvage); else just its place
    record: Record | None
    read_problems: list[Problem]
    validation_problems: list[Problem]


@dataclass
class Edits:
    """What a refresh found changed."""

    changed: bool = False  # whether any input changed at all
    records: dict[Key, str] = field(default_factory=dict)  # records whose files changed, came or went: their files
    templates: bool = False  # a page template changed: every page renders again
    catalogs: set[str] = field(default_factory=set)  # the languages whose catalog of interface strings changed: their pages render again
    static: bool = False  # a static file changed
    seeds: bool = False  # a seed changed: every quote must be found again
    relisted: bool = False  # content files came or went
    reloaded: bool = False  # the record types changed: everything was read again
    files: list[str] = field(default_factory=list)  # the input files whose bytes changed, came or went (no editor's temporary file)


def is_draft(entry: Entry) -> bool:
    """Tell whether a content file is a draft, valid or not (an unreadable file cannot say)."""
    if entry.record is not None:
        return entry.record.draft
    return entry.document is not None and entry.document.meta.get("draft") is True


class Inputs:
    """The project's files as last read: content records, seeds, and the digest of every input."""

    def __init__(self, root: Path):
        self.root = root
        self.model: Model = dict(BUILT_IN)  # the record types, with those content/site.yaml declares
        self.model_problems: list[Problem] = []
        self.entries: dict[str, Entry] = {}  # content files by path relative to root
        self.drafts: set[str] = set()  # the entries that are drafts, kept as entries come, change and go
        self.listing: list[Problem] = []  # warnings about files in content/ that are ignored
        self.seed_texts: dict[str, SeedText] = {}
        self.seed_problems: list[Problem] = []
        self.seed_digests: dict[str, bytes] = {}
        self.media: dict[str, MediaFile] = {}  # the images of media/ by name
        self.media_problems: list[Problem] = []
        self.digests: dict[str, bytes] = {}  # digest of every file in content/, seeds/ and templates/, and of the package's theme
        self.scan = InputScan({})  # the last scan of every input (see scan_inputs)

    def load(self, scan: InputScan | None = None, processes: int = 1) -> None:
        """Read every content file and seed (scan: the inputs' digests as they are, if known; with
        processes 2 or more, a large project's files are read by two: see forked.in_two_processes)."""
        real_folders.cache_clear()  # where the project's folders lead may have changed since
        self.scan = scan or scan_inputs(self.root)
        self.digests = dict(self.scan.digests)
        self.model, self.model_problems = read_model(self.root)
        files, self.listing = content_files(self.root, self.model)
        self.entries, self.drafts = {}, set()
        relatives = [file.relative_to(self.root).as_posix() for file in files]
        for relative, entry in zip(relatives, in_two_processes(self.new_entries, relatives, "read", processes)):
            self.keep_entry(relative, entry)
        self.read_seeds()
        self.media, self.media_problems = read_media(self.root)

    def read_entry(self, relative: str, data: bytes | None = None) -> bool:
        """Read and validate one content file if its bytes changed (data: their digest, if known); return whether they did."""
        data = data or file_digest(self.root / relative)
        before = self.entries.get(relative)
        if before is not None and data is not None and before.digest == data:
            return False
        self.keep_entry(relative, self.new_entry(relative, data))
        return True

    def new_entry(self, relative: str, data: bytes | None) -> Entry:
        """Read and validate one content file (data: the digest of its bytes)."""
        document, read_problems = read_document(self.root, self.root / relative)
        record, validation_problems = validate_document(document, self.model) if document is not None else (None, [])
        if document is not None and record is not None:  # valid: keep only what validate() needs to place the record
            document = Document(document.path, document.kind, document.id, {})
        return Entry(data, document, record, read_problems, validation_problems)

    def new_entries(self, relatives: list[str]) -> list[Entry]:
        """Read and validate content files (their digests as the scan found them, or as they are)."""
        return [self.new_entry(relative, self.digests.get(relative) or file_digest(self.root / relative)) for relative in relatives]

    def keep_entry(self, relative: str, entry: Entry) -> None:
        """Keep a content file's entry, and note whether it is a draft."""
        self.entries[relative] = entry
        if is_draft(entry):
            self.drafts.add(relative)
        else:
            self.drafts.discard(relative)

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

    def changed(self, now: dict[str, bytes] | None = None) -> set[str]:
        """Return the input files that changed, came or went since they were last read (now: their digests, if known)."""
        now = scan_inputs(self.root).digests if now is None else now
        return {path for path in set(now) | set(self.digests) if now.get(path) != self.digests.get(path)}

    def refresh(self, paths: Iterable[str]) -> Edits:
        """Read the named files again (paths relative to the project); return what changed."""
        real_folders.cache_clear()
        edits = Edits()
        relisted = False
        touched: list[str] = []  # the paths named whose bytes changed, came or went
        for relative in sorted(set(paths)):
            if relative.startswith(i18n.CATALOGS + "/") and i18n.catalog_language(relative) is None:
                continue  # a compiled .mo file, or the .pot template: no input of a build
            path = theme.input_path(self.root, relative)
            data = file_digest(path) if path.is_file() else None
            if data != self.digests.get(relative):
                touched.append(relative)
            if data is None:
                self.digests.pop(relative, None)
            else:
                self.digests[relative] = data
            parts = relative.split("/")
            if len(parts) < 2 or any(is_editor_artifact(part) for part in parts[1:]):
                continue
            part = theme.theme_part(relative)
            lang = i18n.catalog_language(relative)
            if lang is not None:
                i18n.forget_catalogs()
                edits.changed = True
                edits.catalogs.add(lang)
            elif part is not None:
                edits.changed = True
                edits.static = edits.static or part == "static"
                edits.templates = edits.templates or part == "templates"
            elif parts[0] == "seeds" and self.read_seeds():
                edits.changed = edits.seeds = True
            elif parts[0] == "media" and (self.media, self.media_problems) != (found := read_media(self.root)):
                self.media, self.media_problems = found
                edits.changed = edits.seeds = edits.static = True  # every image is checked and every page that shows one made again
            elif relative == "content/site.yaml" and read_model(self.root) != (self.model, self.model_problems):
                self.load()  # other record types: every file is read and validated again
                edits.changed = edits.reloaded = True
                edits.files = ["content/site.yaml"]
                return edits
            elif parts[0] == "content":
                stray = any(p.path == relative for p in self.listing)  # its "ignored" warning may go
                if (self.root / relative).is_file() != (relative in self.entries) or stray:
                    relisted = True
                elif relative in self.entries and self.read_entry(relative):
                    edits.changed = True
                    edits.records[key_of(relative)] = relative
        if relisted:
            edits.relisted = True
            edits.changed = self.relist(edits) or edits.changed
        edits.files = [relative for relative in touched if self.is_input(relative, edits)]
        return edits

    def is_input(self, relative: str, edits: Edits) -> bool:
        """Tell whether a path names a file the build reads (or read until it went): a content file,
        a seed, a template or static file, not an editor's temporary file beside them."""
        parts = relative.split("/")
        if len(parts) < 2 or any(is_editor_artifact(part) for part in parts[1:]):
            return False
        if parts[0] == "content":
            return relative in self.entries or relative in edits.records.values()
        return parts[0] == "seeds" or theme.theme_part(relative) is not None or i18n.catalog_language(relative) is not None

    def relist(self, edits: Edits) -> bool:
        """List content/ again after files came or went, noting their records in edits; return whether anything changed."""
        files, listing = content_files(self.root, self.model)
        present = {file.relative_to(self.root).as_posix() for file in files}
        changed = listing != self.listing
        self.listing = listing
        for relative in sorted(set(self.entries) - present):
            del self.entries[relative]
            self.drafts.discard(relative)
            edits.records[key_of(relative)] = relative
            changed = True
        for relative in sorted(present - set(self.entries)):
            self.read_entry(relative)
            edits.records[key_of(relative)] = relative
            changed = True
        return changed

    def failed(self) -> set[Key]:
        """Return the keys of content files that could not be read, and of unreadable seeds."""
        failed = {key_of(path) for path, e in self.entries.items() if e.document is None}
        return failed | {("seeds", p.path.rpartition("/")[2]) for p in self.seed_problems if p.severity == "error"}
