"""Auditing stage: editorial checks that are warnings (errors under --strict).

- a sentence of a record's body that cites nothing, outside a paragraph marked editorial (uncited.py);
- a person the stored articles name whom no record covers (by name or alias): the name check (names.py);
- a source that no page cites;
- a paragraph whose only support is a derivative source (unless marked `sole`);
- a citation marker standing in for words the sentence needs ("turning it into [6]"), unless `show`;
- a fact (a field declared `evidence`) with no evidence, or resting only on a derivative (evidence.py);
- a date whose evidence names a day, month or year it cannot mean (datecheck.py);
- an image written in a body's Markdown, which the page does not show (images.py);
- where the site requires its translations, a page of another language showing text in the first (coverage.py).
"""

from __future__ import annotations

import re
from typing import Any

from .datecheck import contradicted_dates
from .coverage import untranslated_problems
from .evidence import unsupported_in
from .images import markdown_images
from .names import audited_seeds, known_names, uncovered_names
from .link import Site, record_line
from .uncited import uncited_sentences
from ..text.markup import CITATION, column_at, has_flag, paragraphs
from ..model.problems import Problem
from ..model.schema import Record, Source

# What a sentence leaves open for quoted words: 'turns it into', 'the original has', 'the sign
# reads', a colon, an opening quotation mark. A marker there prints only a number.
LEADS_TO_WORDS = re.compile(r"(?:\b(into|has|says|reads|said)|(:)|(?:^|[\s(\[—–])([“‘\"']))\s*$", re.IGNORECASE)
LEAD_REACH = 8  # longer than any of LEADS_TO_WORDS's leads ("reads", a space and a quote mark)


def uncited_paragraphs(site: Site) -> list[Problem]:
    """Warn about each sentence without a citation (uncited.py), outside the paragraphs marked editorial."""
    return [p for kind, rtype in site.model.items() if rtype.audited for record in site.records[kind].values() for p in uncited_sentences(record)]


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
            problems.append(Problem(record.path, line + text.count("\n", 0, first), column_at(text, first), "warning", f"paragraph is supported only by the derivative source '{derived[0]}': cite the original ('{originals[0]}'), or add `sole` if only the derivative has it",
                                    kind="paragraph resting only on a derivative"))
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
                                        f"a citation marker stands in for the words after '{word}': add `show` to print the passage before its marker ([@source \"quote\" show]), or rephrase",
                                        kind="marker standing in for words"))
    return problems


def uncited_sources(site: Site) -> list[Problem]:
    """Warn about sources that no page cites."""
    return [
        Problem(source.path, 1, 0, "warning", f"source '{source.id}' is cited nowhere", kind="source cited nowhere")
        for source in site.records["sources"].values()
        if not any(key != ("sources", source.id) for key in site.cited_by.get(source.id, []))
    ]


def facts_problems(record: Record, rtype: Any, derivatives: dict[str, str]) -> list[Problem]:
    """Warn about a record's facts without evidence or resting on a derivative, its dates that their
    evidence contradicts, and the images its body's Markdown would hide."""
    return unsupported_in(record, rtype, derivatives) + contradicted_dates(record, rtype) + markdown_images(record)


def audit(site: Site) -> list[Problem]:
    """Return every editorial warning about a linked site."""
    stand_ins = [p for record in site.all_records() for p in stand_in_markers(site, record)]
    derivatives = derivatives_of(site)
    facts = [p for record in site.all_records() for p in facts_problems(record, site.model[record.collection], derivatives)]
    return uncited_paragraphs(site) + derivative_only_paragraphs(site) + stand_ins + facts + uncited_sources(site) + uncovered_names(site) + untranslated_problems(site)


class Auditor:
    """Audit versions of one site again and again, working out afresh only what changed: the
    paragraphs of records that changed, and the names in the articles when a name changed."""

    def __init__(self) -> None:
        self.records: dict[tuple[str, str], tuple[Record, dict[str, str], list[Problem]]] = {}
        self.names: tuple[list[str], list, list[Problem]] | None = None  # the names known, the texts read and the settings, and their warnings

    def audit(self, site: Site) -> list[Problem]:
        """Return every editorial warning about a linked site: those of audit(), sorted."""
        derivatives = derivatives_of(site)
        per_record: list[Problem] = []
        seen = {}
        for record in site.all_records():
            key = (record.collection, record.id)
            cached = self.records.get(key)
            if cached is None or cached[0] is not record or cached[1] != derivatives:
                found = stand_in_markers(site, record) + facts_problems(record, site.model[record.collection], derivatives)
                if not isinstance(record, Source):
                    found += (uncited_sentences(record) if site.model[record.collection].audited else []) + derivative_only_in(record, derivatives)
                cached = (record, derivatives, found)
            seen[key] = cached
            per_record += cached[2]
        self.records = seen
        known, seeds = known_names(site), audited_seeds(site)
        seed_key = [(source.id, source.seed, seed.text) for source, seed in seeds] + [site.config.name_check]
        if self.names is None or self.names[0] != known or self.names[1] != seed_key:
            self.names = (known, seed_key, uncovered_names(site))
        return sorted(per_record + uncited_sources(site) + self.names[2] + untranslated_problems(site))
