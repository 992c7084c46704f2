"""Auditing stage: editorial checks that are warnings (errors under --strict).

- a paragraph of a person, event, place or group page that cites nothing;
- a person the stored articles name whom no record covers (by name or alias);
- a source that no page cites;
- a paragraph whose only support is a derivative source (unless marked `sole`);
- a citation marker standing in for words the sentence needs ("turning it into [6]"), unless `show`;
- a fact (a field declared `evidence`) with no evidence, or resting only on a derivative (evidence.py);
- where the site requires its translations, a page of another language showing text in the first (coverage.py).
"""

from __future__ import annotations

import re
import unicodedata

from .coverage import untranslated_problems
from .evidence import unsupported_in
from .link import Site, record_line
from ..text.markup import CITATION, column_at, has_flag, paragraphs
from ..text.passages import SeedText
from ..model.problems import Problem
from ..model.schema import Record, Source
from ..model.slug import fold_id, letter_class

UPPER, LOWER = letter_class(str.isupper), letter_class(str.islower)
NAME_WORD = rf"{UPPER}{LOWER}+(?:-{UPPER}{LOWER}+)?"  # a capital then small letters, in any alphabet
LEADING_WORDS = {"The", "A", "An", "As", "When", "While", "If", "But", "And", "In", "On", "For", "After", "Before", "Some", "Even", "Like", "Then", "Now", "So", "Although", "Asked", "Among", "During", "With", "Sgt", "Gen", "Col", "Lt", "Mr", "Ms", "Mrs"}
FULL_NAME = re.compile(rf"\b{NAME_WORD}(?:\s+(?:de\s+|del\s+|la\s+)?{NAME_WORD}){{1,5}}\b")
NAME_WITH_AGE = re.compile(rf"\b({NAME_WORD}), \d{{1,2}}\b")
# What a sentence leaves open for quoted words: 'turns it into', 'the original has', 'the sign
# reads', a colon, an opening quotation mark. A marker there prints only a number.
LEADS_TO_WORDS = re.compile(r"(?:\b(into|has|says|reads|said)|(:)|(?:^|[\s(\[—–])([“‘\"']))\s*$", re.IGNORECASE)
LEAD_REACH = 8  # longer than any of LEADS_TO_WORDS's leads ("reads", a space and a quote mark)


def uncited_paragraphs(site: Site) -> list[Problem]:
    """Warn about each prose paragraph (or list item) without a citation."""
    return [p for kind, rtype in site.model.items() if rtype.audited for record in site.records[kind].values() for p in uncited_in(record)]


def uncited_in(record: Record) -> list[Problem]:
    """Warn about each paragraph of one record's body that cites nothing."""
    return [
        Problem(record.path, line, 0, "warning", "paragraph cites no source: add [@source-id \"quote\"]")
        for line, text in paragraphs(record.body, record.body_line) if not CITATION.search(text)
    ]


def derivatives_of(site: Site) -> dict[str, str]:
    """Return each derivative source's id with the id of its original."""
    return {sid: s.derived_from for sid, s in site.records["sources"].items() if getattr(s, "derived_from", None)}  # type: ignore[attr-defined]


def derivative_only_paragraphs(site: Site) -> list[Problem]:
    """Warn about paragraphs supported only by derivative sources without a `sole` marker."""
    derivatives = derivatives_of(site)
    return [p for record in site.all_records() if not isinstance(record, Source) for p in derivative_only_in(record, derivatives)]


def derivative_only_in(record: Record, derivatives: dict[str, str]) -> list[Problem]:
    """Warn about the paragraphs of one record that only derivatives support (derivative id -> original id)."""
    problems = []
    for line, text in paragraphs(record.body, record.body_line):
        cited = [(m[1], has_flag(m, "sole")) for m in CITATION.finditer(text)]
        if not cited or any(sole for _, sole in cited):
            continue
        derived = [sid for sid, _ in cited if sid in derivatives]
        if len(derived) == len(cited):
            originals = sorted({derivatives[sid] for sid in derived})
            first = next(CITATION.finditer(text)).start()  # at its first citation, which names the derivative
            problems.append(Problem(record.path, line + text.count("\n", 0, first), column_at(text, first), "warning", f"paragraph is supported only by the derivative source '{derived[0]}': cite the original ('{originals[0]}'), or add `sole` if only the derivative has it"))
    return problems


def stand_in_markers(site: Site, record: Record) -> list[Problem]:
    """Warn about each citation (without `show`) placed where the sentence needs the quoted words."""
    name = site.model[record.collection].body_field
    body, first_line = (record.body, record.body_line) if name == "body" else (getattr(record, name, None) or "", record_line(record, name) + 1)
    problems = []
    for line, text in paragraphs(body, first_line):
        for match in CITATION.finditer(text):
            # Every match of LEADS_TO_WORDS starts within a few characters of the last non-space one
            # before the marker: searching from there is the same search without a scan per position.
            near = max(0, len(text[:match.start()].rstrip()) - LEAD_REACH)
            lead = LEADS_TO_WORDS.search(text, near, match.start())
            if lead and not has_flag(match, "show"):
                word = next(group for group in lead.groups() if group)
                problems.append(Problem(record.path, line + text.count("\n", 0, match.start()), column_at(text, match.start()) if name == "body" else 0, "warning",
                                        f"a citation marker stands in for the words after '{word}': add `show` to print the passage before its marker ([@source \"quote\" show]), or rephrase"))
    return problems


def uncited_sources(site: Site) -> list[Problem]:
    """Warn about sources that no page cites."""
    return [
        Problem(source.path, 1, 0, "warning", f"source '{source.id}' is cited nowhere")
        for source in site.records["sources"].values()
        if not any(key != ("sources", source.id) for key in site.cited_by.get(source.id, []))
    ]


def names_in_text(text: str) -> list[tuple[int, str]]:
    """Return (line, name) for every capitalised run of two or more words, and 'Name, 27' forms."""
    found = []
    for number, line in enumerate(unicodedata.normalize("NFC", text).split("\n"), start=1):
        for match in FULL_NAME.finditer(line):
            words = match.group(0).split()
            while words and words[0] in LEADING_WORDS:
                words.pop(0)
            if len(words) >= 2:
                found.append((number, " ".join(words)))
        found += [(number, m.group(1)) for m in NAME_WITH_AGE.finditer(line)]
    return found


def known_names(site: Site) -> list[str]:
    """Return every name and alias of a person, place or group, and the site's not_people."""
    known: list[str] = []
    for kind in site.model:
        if kind in ("events", "sources", "pages"):
            continue
        for record in site.records[kind].values():
            known += [record.label] + list(getattr(record, "aliases", None) or [])
    return known + list(site.config.not_people)


def audited_seeds(site: Site) -> list[tuple[Source, SeedText]]:
    """Return the sources whose stored text is audited for names, with that text (derivatives garble
    names: their originals are audited instead)."""
    found = []
    for source in site.records["sources"].values():
        assert isinstance(source, Source)
        seed = site.seeds.get(source.seed)
        if seed is not None and not source.derived_from:
            found.append((source, seed))
    return found


def uncovered_names(site: Site) -> list[Problem]:
    """Warn about names in the stored articles that no record's name or alias covers."""
    return names_not_covered(known_names(site), audited_seeds(site))


def names_not_covered(known: list[str], seeds: list[tuple[Source, SeedText]]) -> list[Problem]:
    """Warn about names in these stored texts that none of the known names covers."""
    folded_known = [fold_id(k) for k in known if k]
    problems = []
    for source, seed in seeds:
        reported: set[str] = set()
        for line, name in names_in_text(seed.text):
            folded = fold_id(name)
            if folded in reported:
                continue
            if any(k == folded or f"-{k}-" in f"-{folded}-" or f"-{folded}-" in f"-{k}-" for k in folded_known):
                continue
            reported.add(folded)
            problems.append(Problem(f"seeds/{source.seed}", line, 0, "warning", f"'{name}' is named here but no record covers it: add a person (or an alias), or list it under not_people in content/site.yaml"))
    return problems


def audit(site: Site) -> list[Problem]:
    """Return every editorial warning about a linked site."""
    stand_ins = [p for record in site.all_records() for p in stand_in_markers(site, record)]
    derivatives = derivatives_of(site)
    facts = [p for record in site.all_records() for p in unsupported_in(record, site.model[record.collection], derivatives)]
    return uncited_paragraphs(site) + derivative_only_paragraphs(site) + stand_ins + facts + uncited_sources(site) + uncovered_names(site) + untranslated_problems(site)


class Auditor:
    """Audit versions of one site again and again, working out afresh only what changed: the
    paragraphs of records that changed, and the names in the articles when a name changed."""

    def __init__(self) -> None:
        self.records: dict[tuple[str, str], tuple[Record, dict[str, str], list[Problem]]] = {}
        self.names: tuple[list[str], list[tuple[str, str, str]], list[Problem]] | None = None

    def audit(self, site: Site) -> list[Problem]:
        """Return every editorial warning about a linked site: those of audit(), sorted."""
        derivatives = derivatives_of(site)
        per_record: list[Problem] = []
        seen = {}
        for record in site.all_records():
            key = (record.collection, record.id)
            cached = self.records.get(key)
            if cached is None or cached[0] is not record or cached[1] != derivatives:
                found = stand_in_markers(site, record) + unsupported_in(record, site.model[record.collection], derivatives)
                if not isinstance(record, Source):
                    found += (uncited_in(record) if site.model[record.collection].audited else []) + derivative_only_in(record, derivatives)
                cached = (record, derivatives, found)
            seen[key] = cached
            per_record += cached[2]
        self.records = seen
        known, seeds = known_names(site), audited_seeds(site)
        seed_key = [(source.id, source.seed, seed.text) for source, seed in seeds]
        if self.names is None or self.names[0] != known or self.names[1] != seed_key:
            self.names = (known, seed_key, names_not_covered(known, seeds))
        return sorted(per_record + uncited_sources(site) + self.names[2] + untranslated_problems(site))
