"""Evidence for structured facts: each value of a field declared `evidence` (a person's roles, an
event's date, a place's located_in, ...) is cited under the record's `evidence:` key, with markers
written as in the body, or, for an id, derived from a sentence of the body that links to the named
record and cites a source. The audit warns about each fact with no evidence (errors under --strict).

    evidence:
      roles:
        driver: '[@ap-desertion "As National Guard drivers"]'
      status: '[@ap-desertion "several dozen have ended up in a shelter run by a priest"]'
"""

from __future__ import annotations

import dataclasses
import functools
from dataclasses import dataclass
from typing import Any

from ..text.markup import CITATION, LINK, has_flag, scan, unescape_quote
from ..model.problems import Problem, did_you_mean
from ..model.schema import Citation, Record
from ..text.sentences import sentences as body_sentences

Markers = tuple[Citation, ...]
Evidence = dict[str, Any]  # field name -> Markers (a field of one value) or {value: Markers} (a list)


@dataclass(frozen=True)
class Sentence:
    """A sentence of a body, with the records it links to and the passages it cites."""

    line: int
    text: str
    targets: frozenset[str]  # link targets as written: 'cucuta' or 'places/cucuta'
    citations: Markers


@dataclass(frozen=True)
class Fact:
    """One value of a field that carries evidence, and what supports it."""

    field: str
    value: Any  # the value as the record holds it: an id, a text, a date
    line: int  # where the value is stated
    citations: Markers = ()  # cited under evidence:, or by the sentence it is derived from
    sentence: str = ""  # the body's sentence it is derived from, if not cited under evidence:
    rests_on: str = ""  # the derivative source it rests on alone, if it does

    @property
    def supported(self) -> bool:
        """Tell whether anything supports the fact."""
        return bool(self.citations)


def convert_markers(value: Any, key: tuple, path: str, line: int, error: Any, column: int = 0) -> Markers | None:
    """Return the citations of one evidence value: citation markers and nothing else. column is
    where the value's text starts on its line (0 if not known): each marker's column is counted from it."""
    name = ".".join(str(part) for part in key)
    if not isinstance(value, str) or not value.strip():
        return error(key, f"'{name}' should be citation markers such as '[@source \"quote\"]' in quotes, not {type(value).__name__ if value is not None else 'nothing'}")
    _, citations, problems = scan(value, line, path)
    shift = column - 1 if column and "\n" not in value else None  # a value over several lines is folded: its columns are not the file's
    citations = [dataclasses.replace(c, column=c.column + shift if shift is not None else 0) for c in citations]
    rest = CITATION.sub("", value).strip()
    for problem in problems:
        error(key, f"'{name}': {problem.message}", problem.column + shift if shift is not None and problem.column else 0)
    if rest and not problems:
        error(key, f"'{name}' should hold citation markers only, such as '[@source \"quote\"]', not '{rest[:40]}'")
    return None if problems or rest else tuple(citations)


def convert_evidence(value: Any, key: tuple, path: str, line_of: Any, error: Any, column_of: Any = lambda *key: 0) -> Evidence | None:
    """Convert the `evidence:` mapping: each field to markers, or to a mapping of its values to markers
    (line_of and column_of: where a key path's value stands in the file)."""
    if not isinstance(value, dict):
        return error(key, "'evidence' should be a mapping of field names to citation markers")
    evidence: Evidence = {}
    for field_name, given in value.items():
        where = key + (field_name,)
        if isinstance(given, dict):
            items = {str(item): convert_markers(markers, where + (item,), path, line_of(*where, item), error, column_of(*where, item)) for item, markers in given.items()}
            if all(markers is not None for markers in items.values()):
                evidence[str(field_name)] = items
        else:
            markers = convert_markers(given, where, path, line_of(*where), error, column_of(*where))
            if markers is not None:
                evidence[str(field_name)] = markers
    return evidence


def check_evidence(meta: dict, rtype: Any, error: Any) -> None:
    """Report evidence (as written in the front matter) for a field that carries none, or for a value
    the field does not hold; the markers themselves are checked as they are converted."""
    evidence = meta.get("evidence")
    if not any(spec.type == "evidence" for spec in rtype.fields):
        return  # a type whose facts need none: 'evidence' is an unknown field there
    declared = {spec.name: spec for spec in rtype.evidence_fields}
    for field_name, given in (evidence.items() if isinstance(evidence, dict) else []):
        where = ("evidence", field_name)
        if field_name not in declared:
            carry = ", ".join(declared) or "none"
            error(where, f"'{field_name}' does not carry evidence; the fields of a {rtype.singular} that do: {carry}{did_you_mean(str(field_name), declared)}")
            continue
        held = meta.get(field_name)
        if held is None or held == "" or held == []:
            error(where, f"evidence for '{field_name}', which has no value")
        elif isinstance(held, list) != isinstance(given, dict):
            shape = "each of its values with its markers" if isinstance(held, list) else "its markers directly"
            error(where, f"'evidence.{field_name}' should give {shape}")
        elif isinstance(given, dict):
            shown = [str(item) for item in held]
            for item in given:
                if str(item) not in shown:
                    error(where + (item,), f"'{item}' is not one of the {field_name} ({', '.join(shown)}){did_you_mean(str(item), shown)}")


def citations_of(evidence: Evidence | None) -> list[Citation]:
    """Return every citation of a record's evidence, in the order written."""
    found: list[Citation] = []
    for given in (evidence or {}).values():
        for markers in (given.values() if isinstance(given, dict) else [given]):
            found += markers
    return found


@functools.lru_cache(maxsize=1 << 14)  # each fact of a page asks again for its record's sentences
def sentences(body: str, first_line: int) -> tuple[Sentence, ...]:
    """Split a body's prose into sentences (as claims are: sentences.py), each with the records it
    links to and the citation markers attached to it."""
    found = []
    for sentence in body_sentences(body, first_line):
        text = sentence.markdown
        citations = tuple(Citation(source=m[1], quote=quote, line=sentence.line + text.count("\n", 0, m.start()), sole=has_flag(m, "sole"))
                          for m in CITATION.finditer(text) if m[1] and (quote := unescape_quote(m[2])).strip())  # as scan() reads them; it reports the malformed
        targets = frozenset(m[1].strip() for m in LINK.finditer(masked_citations(text))) if "[[" in text else frozenset()
        found.append(Sentence(sentence.line, text, targets, citations))
    return tuple(found)


def masked_citations(text: str) -> str:
    """Return text with citation markers blanked, so that a link inside a quote is no link."""
    return CITATION.sub(lambda m: " " * len(m.group(0)), text)


def rests_on(citations: Markers, derivatives: dict[str, str]) -> str:
    """Return the derivative source a fact rests on alone (every citation from a derivative), or ''."""
    derived = [c.source for c in citations if c.source in derivatives]
    return derived[0] if citations and len(derived) == len(citations) else ""


def facts(record: Record, rtype: Any, derivatives: dict[str, str], body: tuple[Sentence, ...] | None = None) -> list[Fact]:
    """Return each value of the record's evidence fields with what supports it: its citations under
    evidence:, or else (for an id) the first cited sentence of the body that links to the record it names."""
    evidence: Evidence = getattr(record, "evidence", None) or {}
    found = []
    for spec in rtype.evidence_fields:
        value = getattr(record, spec.name, None)
        if value is None or value == [] or value == "":
            continue
        many = isinstance(value, list)
        for index, item in enumerate(value if many else [value]):
            line = record.lines.get((spec.name, index) if many else (spec.name,)) or record.lines.get((spec.name,), 1)
            given = evidence.get(spec.name)
            cited = (given or {}).get(str(item), ()) if many else given or ()
            if cited:
                found.append(Fact(spec.name, item, line, cited, "", rests_on(cited, derivatives)))
                continue
            if body is None:  # split the body only for a fact that is not cited under evidence:
                body = sentences(record.body, record.body_line)
            linking = [s for s in body if spec.target and s.citations and (item in s.targets or f"{spec.target}/{item}" in s.targets)]
            sentence = min(linking, key=lambda s: bool(rests_on(s.citations, derivatives)), default=None)  # the first resting on an original, if any
            if sentence is None:
                found.append(Fact(spec.name, item, line))
            else:
                found.append(Fact(spec.name, item, line, sentence.citations, sentence.text, rests_on(sentence.citations, derivatives)))
    return found


def unsupported_in(record: Record, rtype: Any, derivatives: dict[str, str]) -> list[Problem]:
    """Warn about each fact of one record with no evidence, and each that rests only on a derivative
    source without `sole` (as the audit warns about such a paragraph)."""
    problems = []
    for fact in facts(record, rtype, derivatives):
        shown = fact.value.text if hasattr(fact.value, "text") else fact.value
        if not fact.supported:
            how = " or link it from a cited sentence" if rtype.field(fact.field).target else ""
            problems.append(Problem(record.path, fact.line, 0, "warning", f"'{shown}' in {fact.field} has no evidence: cite it under evidence.{fact.field}{how}",
                                    kind="fact without evidence"))
        elif fact.rests_on and not fact.sentence and not any(c.sole for c in fact.citations):
            problems.append(Problem(record.path, fact.line, 0, "warning", f"'{shown}' in {fact.field} rests only on the derivative source '{fact.rests_on}': cite the original ('{derivatives[fact.rests_on]}'), or add `sole` if only the derivative has it",
                                    kind="fact resting only on a derivative"))
    return problems
