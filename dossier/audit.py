"""Auditing stage: editorial checks that are warnings (errors under --strict).

- a paragraph of a person, event, place or group page that cites nothing;
- a person the stored articles name whom no record covers (by name or alias);
- a source that no page cites;
- a paragraph whose only support is a derivative source (unless marked `sole`).
"""

from __future__ import annotations

import re
import unicodedata

from .link import Site
from .markup import CITATION, has_flag, paragraphs
from .problems import Problem
from .schema import Source
from .slug import fold_id

AUDITED = ("people", "events", "places", "groups")
NAME_WORD = r"[A-ZÀ-ÖØ-Þ][a-zß-öø-ÿ]+(?:-[A-ZÀ-ÖØ-Þ][a-zß-öø-ÿ]+)?"
LEADING_WORDS = {"The", "A", "An", "As", "When", "While", "If", "But", "And", "In", "On", "For", "After", "Before", "Some", "Even", "Like", "Then", "Now", "So", "Although", "Asked", "Among", "During", "With", "Sgt", "Gen", "Col", "Lt", "Mr", "Ms", "Mrs"}
FULL_NAME = re.compile(rf"\b{NAME_WORD}(?:\s+(?:de\s+|del\s+|la\s+)?{NAME_WORD}){{1,5}}\b")
NAME_WITH_AGE = re.compile(rf"\b({NAME_WORD}), \d{{1,2}}\b")


def uncited_paragraphs(site: Site) -> list[Problem]:
    """Warn about each prose paragraph (or list item) without a citation."""
    problems = []
    for kind in AUDITED:
        for record in site.records[kind].values():
            for line, text in paragraphs(record.body, record.body_line):
                if not CITATION.search(text):
                    problems.append(Problem(record.path, line, 0, "warning", "paragraph cites no source: add [@source-id \"quote\"]"))
    return problems


def derivative_only_paragraphs(site: Site) -> list[Problem]:
    """Warn about paragraphs supported only by derivative sources without a `sole` marker."""
    sources = site.records["sources"]
    problems = []
    for record in site.all_records():
        body, first = record.body, record.body_line
        if isinstance(record, Source):
            continue
        for line, text in paragraphs(body, first):
            cited = [(m[1], has_flag(m, "sole")) for m in CITATION.finditer(text)]
            if not cited or any(sole for _, sole in cited):
                continue
            derived = [sid for sid, _ in cited if sid in sources and getattr(sources[sid], "derived_from", None)]
            if len(derived) == len(cited):
                originals = sorted({sources[sid].derived_from for sid in derived})  # type: ignore[attr-defined]
                problems.append(Problem(record.path, line, 0, "warning", f"paragraph is supported only by the derivative source '{derived[0]}': cite the original ('{originals[0]}'), or add `sole` if only the derivative has it"))
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


def uncovered_names(site: Site) -> list[Problem]:
    """Warn about names in the stored articles that no record's name or alias covers."""
    known: list[str] = []
    for kind in ("people", "places", "groups"):
        for record in site.records[kind].values():
            known += [record.name] + list(record.aliases)  # type: ignore[attr-defined]
    known += site.config.not_people
    folded_known = [fold_id(k) for k in known if k]
    problems = []
    for source in site.records["sources"].values():
        assert isinstance(source, Source)
        seed = site.seeds.get(source.seed)
        if seed is None or source.derived_from:
            continue  # a derivative garbles names; its original is audited instead
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
    return uncited_paragraphs(site) + derivative_only_paragraphs(site) + uncited_sources(site) + uncovered_names(site)
