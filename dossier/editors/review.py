"""The review sheet: every sentence of a record beside the whole of each quote it cites and the
sentence of the stored article around that quote, so that a person can judge whether the quote
carries the claim (written out as text or HTML by review_sheet.py); and the reviews recorded in
the content files.

A review is one line of front matter that `review --record` writes (nothing else in the file is
touched): `reviewed: {by: NAME, date: DAY, digest: 12 hex, sentences: [8 hex, ...]}`. The digest
stands for the file's text without that line and every passage it cites with the article's
sentences around it; each sentence's digest for its words and citations, so that the sheet can
tell which sentences are new or changed since. A translation file (content/people/x.es.md) is
reviewed as a record is, and its review also records its original's digest (`original: 12 hex`):
a translation whose original changed since shows as changed, for its words may no longer match.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import json
import re
from dataclasses import dataclass, field
from pathlib import Path

from ..check import evidence
from ..render.claims import body_of, independent, rests_on
from ..text.sentences import ClaimCitation, Sentence, plain, sentence_spans, sentences
from ..check.link import Site, front_matter_citations
from ..text.passages import SeedText
from ..model.problems import UsageError, counted
from ..render.reads import link_target
from ..model.schema import Record, Source, Translation

REVIEWED = re.compile(r"^reviewed:.*(?:\n[ \t]+.*)*\n?", re.MULTILINE)  # the key and any lines indented under it


@dataclass(frozen=True)
class Context:
    """A cited passage in its stored article: the sentence(s) around it, split at the passage."""

    before: str
    quote: str
    after: str
    line: int  # the line of the seed file


@dataclass(frozen=True)
class Check:
    """One citation as the sheet shows it."""

    source: str
    quote: str
    context: Context | None  # None when the passage is not in the stored text (the build reports it)


@dataclass
class SentenceSheet:
    """A sentence with its citations, its support and whether it changed since the last review."""

    sentence: Sentence
    checks: list[Check]
    independent: list[str]
    rests_on: list[str]
    changed: bool


@dataclass
class FactSheet:
    """One structured fact (a value of a field that carries evidence) and what supports it."""

    line: int
    label: str  # 'roles: driver'
    how: str  # 'cited under evidence', 'derived from its sentence at line 17', 'no evidence'
    checks: list[Check]


@dataclass
class RecordSheet:
    """What the sheet shows of one record."""

    record: Record
    digest: str
    state: str  # 'never reviewed', 'unchanged' or 'changed'
    sentences: list[SentenceSheet]
    facts: list[tuple[str, Check]] = field(default_factory=list)  # (line, citation) of its front matter
    evidence: list[FactSheet] = field(default_factory=list)  # its structured facts and what supports each
    original: RecordSheet | None = None  # for a translation: its original's sheet, as the original stands

    @property
    def title(self) -> str:
        """Return what the sheet calls the record: its name, and a translation's language ('Jorge Torres (es)')."""
        if self.original is not None:
            return f"{self.original.record.label} ({self.record.lang})"  # type: ignore[attr-defined]
        return self.record.label

    @property
    def original_changed(self) -> bool:
        """Tell whether a translation's original changed since the translation was reviewed."""
        review = self.record.reviewed
        return self.original is not None and review is not None and review.original != self.original.digest

    @property
    def other_citations(self) -> list[tuple[str, Check]]:
        """Return the front matter's citations that are no fact's evidence (an age, figures)."""
        cited = {check for fact in self.evidence for check in fact.checks}
        return [(line, check) for line, check in self.facts if check not in cited]

    @property
    def changed_sentences(self) -> int:
        """Return how many sentences are new or changed since the review."""
        return sum(s.changed for s in self.sentences)

    @property
    def summary(self) -> str:
        """Return the record's review state in words."""
        review = self.record.reviewed
        if review is None:
            return "never reviewed"
        done = f"reviewed by {review.by} on {review.date.text}"
        if self.state == "unchanged":
            return f"{done}, unchanged"
        count = self.changed_sentences
        what = [counted(count, "sentence")] if count else []
        if self.original is not None and self.original_changed:
            what.append(f"its original ({self.original.record.path})")
        if review.digest != self.digest and not count:
            what.append("front matter or cited passages")
        return f"{done}; changed since the review: {', '.join(what)}"


def without_review(text: str, yaml_file: bool) -> str:
    """Return a content file's text without its `reviewed:` entry."""
    head, rest = front(text, yaml_file)
    return REVIEWED.sub("", head) + rest


def front(text: str, yaml_file: bool) -> tuple[str, str]:
    """Split a content file into its front matter (up to its closing '---', or all of a YAML file) and the rest."""
    if yaml_file:
        return text, ""
    closing = re.search(r"^---[ \t]*$", text[3:], re.MULTILINE)
    if not text.startswith("---") or closing is None:
        return "", text
    end = 3 + closing.start()
    return text[:end], text[end:]


def with_review(text: str, entry: str, yaml_file: bool) -> str:
    """Return a content file's text with its `reviewed:` entry replaced, or added at the end of the front matter."""
    head, rest = front(text, yaml_file)
    if REVIEWED.search(head):
        head = REVIEWED.sub(lambda _: entry + "\n", head, count=1)
    else:
        head = head + ("" if head.endswith("\n") or not head else "\n") + entry + "\n"
    return head + rest


def review_entry(by: str, on: dt.date, digest: str, sentence_digests: list[str], original: str | None = None) -> str:
    """Return the one line of front matter a review writes (a translation's with its original's digest)."""
    also = f", original: {original}" if original else ""
    return f"reviewed: {{by: {json.dumps(by, ensure_ascii=False)}, date: {on.isoformat()}, digest: {digest}, sentences: [{', '.join(sentence_digests)}]{also}}}"


def seed_context(seed: SeedText, quote: str) -> Context | None:
    """Return a passage with the whole of the article's sentences it lies in, or None if absent."""
    span = seed.locate(quote)
    if span is None:
        return None
    text, (start, end) = seed.text, span
    line_start = text.rfind("\n", 0, start) + 1
    line_end = text.find("\n", end)
    line_end = len(text) if line_end < 0 else line_end
    first, last = start, end
    for left, right in sentence_spans(text[line_start:line_end]):
        if line_start + right > start and line_start + left < end:
            first, last = min(first, line_start + left), max(last, line_start + right)
    return Context(text[first:start], text[start:end], text[end:last], text.count("\n", 0, start) + 1)


def check_of(site: Site, citation: ClaimCitation) -> Check:
    """Return a citation with its passage in context."""
    source = site.records["sources"].get(citation.source)
    seed = site.seeds.get(source.seed) if isinstance(source, Source) else None
    return Check(citation.source, citation.quote, seed_context(seed, citation.quote) if seed else None)


def derived_from(site: Site) -> dict[str, str | None]:
    """Return each source's original (None for an original)."""
    return {sid: getattr(s, "derived_from", None) for sid, s in site.records["sources"].items()}


def record_sheet(site: Site, root: Path, record: Record) -> RecordSheet:
    """Return what the sheet shows of one record (or translation), and the digest of what a review of it covers."""
    originals = derived_from(site)
    reviewed = set(record.reviewed.sentences) if record.reviewed else set()
    translation = isinstance(record, Translation)
    shown = []
    body = (record.body, record.body_line) if translation else body_of(site, record)
    for sentence in sentences(*body, label=lambda target: link_target(site, target).label):
        sources = list(sentence.sources)
        shown.append(SentenceSheet(sentence, [check_of(site, c) for c in sentence.citations], independent(sources, originals),
                                   rests_on(sources, originals), record.reviewed is not None and sentence.digest not in reviewed))
    facts = [] if translation else [(f"{c.line}", check_of(site, ClaimCitation(c.source, c.quote))) for c in front_matter_citations(site.model, record)]
    text = (root / record.path).read_text(encoding="utf-8-sig").replace("\r\n", "\n")
    digest = hashlib.sha256(without_review(text, record.path.endswith((".yaml", ".yml"))).encode("utf-8"))
    for check in [c for s in shown for c in s.checks] + [c for _, c in facts]:
        context = check.context
        digest.update(f"\0{check.source}\0{context.before}{context.quote}{context.after}".encode() if context else b"\0")
    hexdigest = digest.hexdigest()[:12]
    if translation:  # its facts are its original's, reviewed there; its original is held to the digest it had when the translation was reviewed
        original = record_sheet(site, root, site.get((record.collection, record.id)))
        sheet = RecordSheet(record, hexdigest, "never reviewed", shown, original=original)
        sheet.state = "never reviewed" if record.reviewed is None else "changed" if record.reviewed.digest != hexdigest or sheet.original_changed else "unchanged"
        return sheet
    state = "never reviewed" if record.reviewed is None else "unchanged" if record.reviewed.digest == hexdigest else "changed"
    return RecordSheet(record, hexdigest, state, shown, facts, fact_sheets(site, record))


def fact_sheets(site: Site, record: Record) -> list[FactSheet]:
    """Return each structured fact of a record with the passages that support it, and how."""
    derivatives = {sid: s.derived_from for sid, s in site.records["sources"].items() if isinstance(s, Source) and s.derived_from}
    found = []
    for fact in evidence.facts(record, site.model[record.collection], derivatives):
        shown = fact.value.text if hasattr(fact.value, "text") else fact.value
        how = ("no evidence" if not fact.supported else "cited under evidence" if not fact.sentence
               else f"derived from its sentence: {plain(fact.sentence)}")
        if fact.rests_on:
            how += f"; rests only on {fact.rests_on}"
        checks = [check_of(site, ClaimCitation(c.source, c.quote)) for c in fact.citations]
        found.append(FactSheet(fact.line, f"{fact.field}: {shown}", how, checks))
    return found


def reviewable(site: Site) -> list[Record]:
    """Return every record with a content file, and every translation, in path order."""
    return sorted([*site.all_records(), *(t for r in site.all_records() for t in r.translations.values())], key=lambda r: r.path)


def select(site: Site, root: Path, paths: list[str]) -> list[Record]:
    """Return the records of the files named (every record when none is), or refuse an unknown file."""
    records = reviewable(site)
    if not paths:
        return records
    by_file = {(root / r.path).resolve(): r for r in records}
    chosen = []
    for path in paths:
        record = by_file.get(Path(path).resolve()) or by_file.get((root / path).resolve())
        if record is None:
            raise UsageError(f"{path} is not a record's content file nor a translation's (or it is a draft, or has errors: run check)")
        chosen.append(record)
    return chosen


def sheets(site: Site, root: Path, records: list[Record]) -> list[RecordSheet]:
    """Return the sheet of each record."""
    return [record_sheet(site, root, record) for record in records]


def record_reviews(root: Path, found: list[RecordSheet], by: str, on: dt.date) -> list[str]:
    """Write a `reviewed:` entry into each record's file; return the files written."""
    written = []
    for sheet in found:
        path = root / sheet.record.path
        raw = path.read_bytes().decode("utf-8")
        newline = "\r\n" if "\r\n" in raw else "\n"
        text = raw.replace("\r\n", "\n")
        entry = review_entry(by, on, sheet.digest, list(dict.fromkeys(s.sentence.digest for s in sheet.sentences)),
                             sheet.original.digest if sheet.original is not None else None)
        updated = with_review(text, entry, sheet.record.path.endswith((".yaml", ".yml")))
        path.write_bytes(updated.replace("\n", newline).encode("utf-8"))
        written.append(sheet.record.path)
    return written


NEED = {"never reviewed": 0, "changed": 1, "unchanged": 2}  # what needs a review first


def by_need(found: list[RecordSheet]) -> list[RecordSheet]:
    """Return the sheets with what needs a review first: never reviewed, then changed since, then the
    rest, each in the order given."""
    return sorted(found, key=lambda sheet: NEED[sheet.state])


def status_lines(found: list[RecordSheet]) -> tuple[list[str], bool]:
    """Return a line per record never reviewed or changed since (those never reviewed first), then a
    summary; and whether all are up to date."""
    stale = [s for s in by_need(found) if s.state != "unchanged"]
    lines = [f"{s.record.path}: {s.summary}" for s in stale]
    never = sum(s.state == "never reviewed" for s in stale)
    lines.append(f"{len(found) - len(stale)} of {counted(len(found), 'record')} reviewed and unchanged since; "
                 f"{never} never reviewed, {len(stale) - never} changed since their review")
    return lines, not stale
