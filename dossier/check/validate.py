"""Validating stage: check every front-matter field against the schema and build typed records.

Checks what one file can tell on its own (required fields, types, unknown keys, dates, ids);
references between records are checked by the linking stage.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Set
from typing import Any

from .evidence import check_evidence
from ..model.problems import Problem
from ..read.documents import Document
from ..model.record_types import BUILT_IN, COMMON, CustomRecord, FieldSpec, Model, record_type_of
from ..model.i18n import LANGUAGES, translation_of
from ..model.schema import Record, Translation
from .fields import FieldCheck, convert_fields
from .translations import shape_problems, validate_translation
from ..model.slug import fold_id, is_valid_id


def validate_document(document: Document, model: Model = BUILT_IN) -> tuple[Record | None, list[Problem]]:
    """Check one document against its type's declaration and return its typed record."""
    check = FieldCheck(document, [])
    rtype = record_type_of(model, document.kind)
    if document.kind != "site" and translation_of(document.id):
        return validate_translation(document, model)
    if document.kind != "site" and not is_valid_id(document.id):
        check.error((), f"'{document.id}' is not a valid id; ids are lowercase ASCII words joined by hyphens: rename the file to '{fold_id(document.id) or 'name'}'")
    what = ("the " if document.kind == "site" else "a ") + rtype.singular
    values = convert_fields(document.meta, rtype.fields, (), check, what)
    check_evidence(document.meta, rtype, check.error)
    if values is None or check.problems:
        return None, check.problems
    if document.kind == "events" and values.get("date_basis") == "inferred" and not values.get("date_note"):
        check.error(("date_basis",), "an inferred date needs a 'date_note' saying how it was established")
        return None, check.problems
    if document.kind == "site":
        for index, lang in enumerate(values.get("languages", [])):
            if lang not in LANGUAGES:
                check.error(("languages", index), f"dossier has no interface in '{lang}'; languages may be {', '.join(LANGUAGES)}")
        others = values.get("languages", [])[1:]
        for lang in values.get("translations", {}):
            if lang not in others:
                check.error(("translations", lang), f"'translations' gives '{lang}', which is not one of the site's other languages"
                                                    f" ({', '.join(others) or 'it has none'}): add it to 'languages', after the first")
        if check.problems:
            return None, check.problems
    where: dict[str, Any] = {"collection": document.kind, "id": document.id, "path": document.path, "body": document.body, "body_line": document.body_line, "lines": document.lines}
    if rtype.record_class is CustomRecord:
        return custom_record(where, rtype.fields, values), []
    return rtype.record_class(**where, **values), []


def custom_record(where: dict, fields: tuple[FieldSpec, ...], values: dict) -> CustomRecord:
    """Return a record of a project's own type: the fields every record has as attributes, its own in values."""
    common = {f.name: values.get(f.name, f.default) for f in COMMON}
    return CustomRecord(**where, **common, values={f.name: values.get(f.name, f.default) for f in fields if f.name not in common})


def salvage(document: Document, model: Model = BUILT_IN) -> Record | None:
    """Return a record of a document that failed validation, holding only the fields that are right:
    enough to check its links, references and citations, so that a run reports every problem at once."""
    rtype = record_type_of(model, document.kind)
    if document.kind == "site" or translation_of(document.id):
        return None
    values = convert_fields(document.meta, rtype.fields, (), FieldCheck(document, []), "", partial=True) or {}
    where: dict[str, Any] = {"collection": document.kind, "id": document.id, "path": document.path, "body": document.body, "body_line": document.body_line, "lines": document.lines}
    if rtype.record_class is CustomRecord:
        return custom_record(where, rtype.fields, values)
    return rtype.record_class(**where, **values)


def validate(documents: list[Document], known: dict[str, tuple[Record | None, list[Problem]]] | None = None,
             model: Model = BUILT_IN, unreadable: Set[tuple[str, str]] = frozenset()) -> tuple[dict[str, dict[str, Record]], set[tuple[str, str]], list[Problem]]:
    """Validate every document; return records by collection and id, the keys of files that
    failed (so that references to them are not reported twice), and all problems. known holds
    validate_document's results for documents already checked, by path; unreadable, the keys of
    files that could not be read, whose own errors are their cause (their translations are no orphans)."""
    records: dict[str, dict[str, Record]] = {kind: {} for kind in [*model, "site"]}
    failed: set[tuple[str, str]] = set(unreadable)
    problems: list[Problem] = []
    translations: list[Translation] = []
    for document in sorted(documents, key=lambda d: d.path):
        record, found = known[document.path] if known and document.path in known else validate_document(document, model)
        problems += found
        if record is None:
            failed.add((document.kind, document.id))
            continue
        if isinstance(record, Translation):
            translations.append(record)
            continue
        if document.kind != "site" and record.id in records[document.kind]:
            first = records[document.kind][record.id]
            problems.append(Problem(document.path, 1, 0, "error", f"id '{record.id}' is already used by {first.path}"))
            continue
        records[document.kind][record.id] = record
    for translation in translations:
        base = records[translation.collection].get(translation.id)
        if base is not None:
            shape = shape_problems(base, translation)
            problems += shape
            if not shape:
                records[translation.collection][translation.id] = dataclasses.replace(base, translations={**base.translations, translation.lang: translation})
        elif (translation.collection, translation.id) not in failed:
            problems.append(Problem(translation.path, 1, 0, "error", f"a translation of '{translation.id}', but content/{translation.collection}/ has no such record"))
    return records, failed, problems
