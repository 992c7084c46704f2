"""Translations: a record's words in another language, from content/<collection>/<id>.<lang>.md beside its
file (a source's <id>.<lang>.yaml). A translation gives its record's body (a source's notes) and the
values of the fields its type declares translatable (translate=True): a text, a list of texts item
by item, a list of figures or claims item by item with only their own words. Everything else is a fact
the languages share, and restating it is an error; so is a list of another length than the record's.
"""

from __future__ import annotations

from typing import Any

from .fields import FieldCheck, convert
from ..model.i18n import LANGUAGES, translation_of
from ..model.problems import Problem
from ..model.record_types import NESTED, FieldSpec, Model, field_specs, record_type_of
from ..model.schema import Record, Translation
from ..model.slug import is_valid_id
from ..read.documents import Document


def translatable(fields: tuple[FieldSpec, ...]) -> tuple[FieldSpec, ...]:
    """Return the fields of a record type that a translation may give."""
    return tuple(f for f in fields if f.translate)


def item_words(spec: FieldSpec) -> tuple[str, ...]:
    """Return the keys each item of a translated list of mappings (figures, claims) may give: its words."""
    return tuple(f.name for f in translatable(field_specs(NESTED[spec.type]))) if spec.type in NESTED else ()


def validate_translation(document: Document, model: Model) -> tuple[Translation | None, list[Problem]]:
    """Check a translation file on its own and return it; its lists are held against its record's
    when the two meet (attach)."""
    check = FieldCheck(document, [])
    rid, lang = translation_of(document.id)  # type: ignore[misc]
    rtype = record_type_of(model, document.kind)
    words = {f.name: f for f in translatable(rtype.fields)}
    if lang not in LANGUAGES:
        check.error((), f"'{lang}' is not a language dossier has an interface in ({', '.join(LANGUAGES)}): name the file {rid}.<language>.md")
    if not is_valid_id(rid):
        check.error((), f"'{rid}' is not a valid id; a translation is named after its record's file: <id>.{lang}.md")
    values: dict[str, Any] = {}
    body, body_line, reviewed = document.body, document.body_line, None
    for name, value in document.meta.items():
        spec = words.get(name)
        if name == "reviewed":  # written by `review --record`: the translation's own review
            reviewed = convert(value, "review", (name,), check)
        elif spec is None:
            shared = name in {f.name for f in rtype.fields}
            given = ", ".join(sorted(set(words) - {rtype.body_field})) + " and the " + ("notes" if rtype.body_field != "body" else "body")
            check.error((name,), f"structured facts are shared: remove '{name}' from the translation (it translates {given})" if shared
                        else f"unknown field '{name}' in a translation (it translates {given})")
        elif value is None or value == "":
            continue
        elif spec.type in NESTED:
            values[name] = convert_items(value, spec, check)
        elif name == rtype.body_field:
            converted = convert(value, "text", (name,), check)
            body, body_line = converted or "", document.line_of(name) + 1
        else:
            values[name] = convert(value, spec.type, (name,), check)
    if check.problems:
        return None, check.problems
    return Translation(collection=document.kind, id=rid, path=document.path, body=body, body_line=body_line,
                       lines=document.lines, lang=lang, values=values, reviewed=reviewed), []


def convert_items(value: Any, spec: FieldSpec, check: Any) -> list[dict[str, str]] | None:
    """Check a translated list of figures or claims: one mapping per item, each giving only its words."""
    allowed = item_words(spec)
    if not isinstance(value, list) or not all(isinstance(item, dict) for item in value):
        check.error((spec.name,), f"'{spec.name}' in a translation is a list of mappings, one per item of the record's, "
                                  f"each with {' and '.join(allowed)}")
        return None
    items = []
    for index, item in enumerate(value):
        for key, text in item.items():
            if key not in allowed:
                check.error((spec.name, index, key), f"'{key}' is the record's own: a translated item of '{spec.name}' gives only {' and '.join(allowed)}")
            elif not isinstance(text, (str, int, float)) or isinstance(text, bool):
                check.error((spec.name, index, key), f"'{spec.name}.{index}.{key}' should be text")
        items.append({key: str(text) for key, text in item.items() if key in allowed and text not in (None, "")})
    return items


def shape_problems(record: Record, translation: Translation) -> list[Problem]:
    """Return the problems of a translation's lists against its record's: each must have as many items."""
    problems = []
    for name, value in translation.values.items():
        own = getattr(record, name, None)
        if isinstance(value, list) and len(value) != len(own or []):
            line = translation.lines.get((name,), 1)
            problems.append(Problem(translation.path, line, 0, "error",
                                    f"'{name}' has {len(value)} item{'s' * (len(value) != 1)} but {record.path} has {len(own or [])}: "
                                    "translate each item, in the same order"))
    return problems
