"""Fields: one front-matter value checked against its declared type and converted, or a problem at
its file line (every problem of a file is collected; a wrong value converts to None)."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Any

from ..model.dateparse import parse_date
from ..model.dates import DateError
from .evidence import convert_evidence
from ..model.problems import Problem, did_you_mean
from ..read.documents import Document, column_of
from ..model.record_types import LISTS, NESTED, FieldSpec, field_specs
from ..model.slug import fold_id, is_valid_id


@dataclass
class FieldCheck:
    """Where a value sits, so that every problem names its file and line."""

    document: Document
    problems: list[Problem]

    def error(self, key: tuple, message: str, column: int = 0) -> None:
        self.problems.append(Problem(self.document.path, self.document.line_of(*key), column, "error", message))

    def column_of(self, *key: Any) -> int:
        """Return where a key path's value starts on its line (0 if not known)."""
        return column_of(self.document.lines, *key)


def describe(value: Any) -> str:
    """Name a YAML value's type the way an editor would recognise it."""
    if isinstance(value, bool):
        return f"true/false ({str(value).lower()})"
    if isinstance(value, (dt.date, dt.datetime)):
        return "a date"
    if isinstance(value, (int, float)):
        return "a number"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "a mapping"
    if value is None:
        return "nothing"
    return "text"


def convert(value: Any, type_name: str, key: tuple, check: FieldCheck) -> Any:
    """Convert one YAML value to its content type, reporting a problem and returning None if it is wrong."""
    name = ".".join(str(part) for part in key)
    if type_name == "text" or type_name == "url":
        if isinstance(value, (int, float)) and not isinstance(value, bool) or isinstance(value, dt.date):
            return str(value)
        if not isinstance(value, str):
            hint = "; quote it if you meant the word" if isinstance(value, bool) else ""
            return check.error(key, f"'{name}' should be text, not {describe(value)}{hint}")
        if type_name == "url" and value and not value.startswith(("https://", "http://")):
            return check.error(key, f"'{name}' should be an http(s) address, not '{value}'")
        return value.strip()
    if type_name == "bool":
        if not isinstance(value, bool):
            return check.error(key, f"'{name}' should be true or false, not {describe(value)}")
        return value
    if type_name == "int":
        if isinstance(value, bool) or not isinstance(value, int):
            return check.error(key, f"'{name}' should be a whole number, not {describe(value)}")
        return value
    if type_name == "date":
        if isinstance(value, dt.date) or (isinstance(value, int) and not isinstance(value, bool)):
            value = value.isoformat() if isinstance(value, dt.date) else str(value)
        if not isinstance(value, str):
            return check.error(key, f"'{name}' should be a date such as 2019-02-23, not {describe(value)}")
        try:
            return parse_date(value)
        except DateError as error:
            return check.error(key, f"'{name}': {error}")
    if type_name.startswith("enum:"):
        choices = type_name[5:].split("|")
        if value not in choices:
            return check.error(key, f"'{name}' should be one of {', '.join(choices)}, not '{value}'{did_you_mean(str(value), choices)}")
        return value
    if type_name.startswith("id:"):
        if not isinstance(value, str) or not is_valid_id(value):
            return check.error(key, f"'{name}' should be an id such as '{fold_id(str(value)) or 'jose-gomez'}', not {value!r}")
        return value
    if type_name in ("texts", "slugs") or type_name.startswith("ids:"):
        if isinstance(value, str):
            return check.error(key, f"'{name}' should be a list (write [{value}]), not a single text")
        if not isinstance(value, list):
            return check.error(key, f"'{name}' should be a list, not {describe(value)}")
        item_type = "text" if type_name == "texts" else "id:" + type_name[4:] if type_name.startswith("ids:") else "slug"
        items = []
        for index, item in enumerate(value):
            if item_type == "slug":
                converted = item if isinstance(item, str) and is_valid_id(item) else check.error(key + (index,), f"'{name}' items should be lowercase tags such as 'aid', not {item!r}")
            else:
                converted = convert(item, item_type, key + (index,), check)
            if converted is not None:
                items.append(converted)
        return items
    if type_name == "evidence":
        return convert_evidence(value, key, check.document.path, check.document.line_of, check.error, check.column_of)
    if type_name == "types":  # checked by model.custom_types() before anything else is read
        return value
    if type_name in ("age", "review"):
        return convert_nested(value, NESTED[type_name], key, check)
    if type_name in LISTS:
        if not isinstance(value, list):
            keys = ", ".join(f.name for f in field_specs(NESTED[type_name]) if f.required)
            return check.error(key, f"'{name}' should be a list of {{{keys}}}, not {describe(value)}")
        items = [convert_nested(item, NESTED[type_name], key + (index,), check) for index, item in enumerate(value)]
        return [item for item in items if item is not None]
    raise AssertionError(f"unknown field type {type_name}")


def convert_nested(value: Any, record_type: type, key: tuple, check: FieldCheck) -> Any:
    """Convert a mapping field such as age or a figure."""
    name = ".".join(str(part) for part in key)
    if not isinstance(value, dict):
        return check.error(key, f"'{name}' should be a mapping of {', '.join(f.name for f in field_specs(record_type))}, not {describe(value)}")
    values = convert_fields(value, field_specs(record_type), key, check, f"'{name}'")
    return None if values is None else record_type(**values)


def convert_fields(meta: dict, fields: tuple[FieldSpec, ...], key: tuple, check: FieldCheck, what: str, *, partial: bool = False) -> dict | None:
    """Check and convert a mapping against a record type's fields; None when any is wrong (unless
    partial: then the fields that are right)."""
    before = len(check.problems)
    known = {f.name: f for f in fields}
    values: dict[str, Any] = {}
    for name in meta:
        if name not in known:
            suggested = [field for field in known if field != "reviewed"]  # written by `review --record`, never typed
            check.error(key + (name,), f"unknown field '{name}' in {what}{did_you_mean(str(name), suggested)}")
    for name, spec in known.items():
        value = meta.get(name)
        if value is None or value == "":
            if spec.required:  # at the line of the empty field, if it is there
                check.error(key + (name,) if name in meta else key, f"{what} needs '{name}' ({spec.doc})" if spec.doc else f"{what} needs '{name}'")
            continue
        converted = convert(value, spec.type, key + (name,), check)
        if converted is not None:
            values[name] = converted
    return values if partial or len(check.problems) == before else None
