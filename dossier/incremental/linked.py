"""The loaded site: a project's inputs, validated and linked, with every problem found in them.

LinkedSite takes the inputs as last read (inputs.py) and hands on the linked site (check/link.py)
and its problems. An edit relinks only the records it changed when that is enough (check/relink.py);
what it links equals what linking everything again would (tests/test_oracle.py).
"""

from __future__ import annotations

import dataclasses
from collections import defaultdict
from pathlib import Path

from ..check.assets import files_named
from ..check.audit import Auditor
from ..check.coverage import translation_path
from ..check.link import Key, Site, check_references
from ..check.relink import can_relink, relink
from ..check.translations import shape_problems
from ..check.validate import salvage, validate
from ..model.i18n import LANGUAGES
from ..model.problems import Problem, in_drafts
from ..model.schema import Record, Translation
from ..timings import layer
from .drafts import MODES, draft_files, link_with_drafts
from .inputs import Edits, InputScan, Inputs


class LinkedSite:
    """A project's inputs and the site linked from them, kept up to date edit by edit."""

    def __init__(self, root: Path, *, base_url: str | None = None, defer_audit: bool = False, drafts: str = "out"):
        assert drafts in MODES
        self.inputs = Inputs(root)
        self.draft_mode = drafts  # 'out': build leaves drafts out; 'preview': shown, links to them warned of; 'in': build --drafts
        self.drafts: dict[Key, str] = {}  # every draft's file, as last linked
        self.defer_audit = defer_audit  # the preview audits after the browser has reloaded
        self.audit_due = False
        self.base_url = base_url
        self.site: Site | None = None  # as last linked
        self.failed: set[Key] = set()
        self.link_problems: dict[str, list[Problem]] = {}  # by file
        self.problems: list[Problem] = []
        self.file_problems: list[Problem] = []  # problems of reading and validating, as last worked out
        self.auditor = Auditor()  # remembers the warnings of records that have not changed
        self.relink_all = True  # a seed changed: every quote must be found again
        self.relisted = False  # content files came or went since the last link
        self.paths: dict[Key, set[str]] = {}  # the content files (a record's, its translations') changed since the last link
        self.unlinked: set[Key] = set()  # records changed since the last link
        self.processes = 1  # how many may read or link a large project whole (see forked.in_two_processes)

    def load(self, scan: InputScan | None = None, processes: int = 1) -> None:
        """Read, validate and link the whole project (scan: its inputs' digests as they are, if known;
        processes: how many may read a large project's files, and link its records)."""
        self.processes = processes
        with layer("read"):
            self.inputs.load(scan, processes)
        self.link(None)

    def show_drafts(self, mode: str) -> bool:
        """Show drafts as the mode says from now on; return whether that changes the site (then it is linked again)."""
        changed = mode != self.draft_mode and bool(self.drafts)
        self.draft_mode = mode
        if changed:
            self.link(None)
        return changed

    def take(self, edits: Edits) -> bool:
        """Take in what a refresh of the inputs found changed and link again; return whether anything did."""
        self.relink_all = self.relink_all or edits.seeds or edits.reloaded
        self.relisted = self.relisted or edits.relisted or edits.reloaded
        for key, relative in edits.records.items():
            self.paths.setdefault(key, set()).add(relative)
            self.unlinked.add(key)
        if edits.changed:
            self.link(None if self.relink_all else self.unlinked)
        return edits.changed

    def link(self, keys: set[Key] | None) -> None:
        """Validate, link and audit the site again, relinking only the given records when that is enough."""
        with layer("validate and link"):
            self.link_site(keys)
        if not self.defer_audit:
            self.audit()

    def link_site(self, keys: set[Key] | None) -> None:
        """Validate and link the site again (only the given records when that is enough)."""
        drafts = draft_files(self.inputs)
        if drafts or self.drafts:
            keys = None  # drafts change what the site holds: link it all (drafts are few, and soon finished)
        self.drafts = drafts
        records, failed = self.validated(keys)
        if self.site is not None and keys is not None and can_relink(self.site, records, failed, self.failed, keys):
            site, per_file = relink(self.site, records, failed, keys)
            self.link_problems.update(per_file)
        else:
            site, found, records, failed = link_with_drafts(records, self.inputs.seed_texts, failed, self.inputs.model, drafts, self.draft_mode,
                                                              self.processes)
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
        self.unlinked, self.relink_all, self.relisted, self.paths = set(), False, False, {}

    def validated(self, keys: set[Key] | None) -> tuple[dict[str, dict[str, Record]], set[Key]]:
        """Return the valid records by collection and the keys of those that failed: the linked site's
        with the edited ones replaced when that is enough, else every file validated again."""
        placed = self.place(keys)
        if placed is not None:  # the same valid records, a few of them edited
            return placed, self.failed
        inputs = self.inputs
        entries = [inputs.entries[path] for path in sorted(inputs.entries)]
        known = {e.document.path: (e.record, e.validation_problems) for e in entries if e.document is not None}
        unreadable = inputs.failed()  # a file that failed to read is reported as such, and not again through its translations
        records, failed, validation = validate([e.document for e in entries if e.document is not None], known, inputs.model, unreadable)
        self.file_problems = inputs.model_problems + inputs.listing + [p for e in entries for p in e.read_problems] + validation + inputs.seed_problems
        return records, failed

    def salvaged_problems(self, records: dict[str, dict[str, Record]], failed: set[Key]) -> list[Problem]:
        """Return the link, reference and citation problems of the files that failed validation."""
        inputs = self.inputs
        salvaged = [record for e in inputs.entries.values() if e.record is None and e.document is not None and e.validation_problems
                    for record in [salvage(e.document, inputs.model)] if record is not None]
        return check_references(records, inputs.seed_texts, failed, inputs.model, salvaged, self.drafts, self.draft_mode) if salvaged else []

    def place(self, keys: set[Key] | None) -> dict[str, dict[str, Record]] | None:
        """Return the linked site's records with the edited ones replaced, when nothing else can have
        moved: no file came or went, each edited record was and is valid (with each of its
        translations), and none is a source or the settings (the only kinds where two files could
        claim one id). Else None: validate() again."""
        if self.site is None or keys is None or self.relisted or any(kind in ("sources", "site") for kind, _ in keys):
            return None
        records = dict(self.site.records)
        for kind, rid in keys:
            old = self.site.records.get(kind, {}).get(rid)
            record = self.revalidated(old, self.paths.get((kind, rid), set())) if old is not None else None
            if record is None:
                return None
            if records[kind] is self.site.records[kind]:
                records[kind] = dict(records[kind])  # the site before the edit keeps its own
            records[kind][rid] = record
        return records

    def revalidated(self, old: Record, edited: set[str]) -> Record | None:
        """Return a record as its files now give it, with its translations put to it as validate()
        does (in the order of their files), when its file and each translation's are valid and fit it
        as before; else None (validate() again: a file's own problems are worked out there)."""
        entries = self.inputs.entries
        entry = entries.get(old.path)
        if entry is None or entry.record is None or isinstance(entry.record, Translation):
            return None
        files = sorted(path for lang in LANGUAGES if (path := translation_path(old, lang)) in entries)
        if not edited <= {old.path, *files}:
            return None  # a translation in a language dossier has no interface in
        translations = {}
        for path in files:
            translation = entries[path].record
            if not isinstance(translation, Translation) or shape_problems(entry.record, translation):
                return None
            translations[translation.lang] = translation
        if translations.keys() != old.translations.keys():
            return None  # a translation that did not fit before: its file's problems are to be worked out again
        return dataclasses.replace(entry.record, translations=translations) if translations else entry.record

    def audit(self) -> list[Problem]:
        """Add the editorial warnings to the problems, if the site has no errors; return the warnings."""
        if not self.audit_due or self.site is None:
            return []
        with layer("audit"):
            warnings = in_drafts(self.auditor.audit(self.site), set(self.drafts.values()))
        self.problems = sorted(self.problems + warnings)
        self.audit_due = False
        return warnings
