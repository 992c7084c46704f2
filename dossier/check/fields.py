"""Fields: one front-matter value checked against its declared type and converted, or a problem at
its file line (every problem of a file is collected; a wrong value converts to None). The field
types are one table (FIELD_TYPES): how each converts, its JSON Schema for editors (editors/schemas.py)
and the value `new` writes (cli.py)."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Any, Callable

from ..model.dateparse import parse_date
from ..model.dates import DateError
from ..model.i18n import LANGUAGES
from .evidence import convert_evidence
from ..model.problems import Problem, did_you_mean
from ..read.documents import Document
from ..read.frontmatter import column_of
from ..model.record_types import LISTS, NESTED, FieldSpec, field_specs
from ..model.slug import ID_PATTERN, fold_id, is_valid_id


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
    return field_type(type_name).convert(value, type_name, key, check)


def field_name(key: tuple) -> str:
    """Return how a problem names a field: 'age.quote', 'figures.0.label'."""
    return ".".join(str(part) for part in key)


def to_text(value: Any, type_name: str, key: tuple, check: FieldCheck) -> Any:
    if isinstance(value, (int, float)) and not isinstance(value, bool) or isinstance(value, dt.date):
        return str(value)
    if not isinstance(value, str):
        hint = "; quote it if you meant the word" if isinstance(value, bool) else ""
        return check.error(key, f"'{field_name(key)}' should be text, not {describe(value)}{hint}")
    if type_name == "url" and value and not value.startswith(("https://", "http://")):
        return check.error(key, f"'{field_name(key)}' should be an http(s) address, not '{value}'")
    return value.strip()


def to_bool(value: Any, type_name: str, key: tuple, check: FieldCheck) -> Any:
    return value if isinstance(value, bool) else check.error(key, f"'{field_name(key)}' should be true or false, not {describe(value)}")


def to_int(value: Any, type_name: str, key: tuple, check: FieldCheck) -> Any:
    if isinstance(value, bool) or not isinstance(value, int):
        return check.error(key, f"'{field_name(key)}' should be a whole number, not {describe(value)}")
    return value


def to_date(value: Any, type_name: str, key: tuple, check: FieldCheck) -> Any:
    if isinstance(value, dt.date) or (isinstance(value, int) and not isinstance(value, bool)):
        value = value.isoformat() if isinstance(value, dt.date) else str(value)
    if not isinstance(value, str):
        return check.error(key, f"'{field_name(key)}' should be a date such as 2019-02-23, not {describe(value)}")
    try:
        return parse_date(value)
    except DateError as error:
        return check.error(key, f"'{field_name(key)}': {error}")


def to_choice(value: Any, type_name: str, key: tuple, check: FieldCheck) -> Any:
    if type_name == "enum:":  # a person's part, while content/site.yaml declares no people_groups to choose from
        return check.error(key, f"'{field_name(key)}' names a group of the people index, but content/site.yaml declares none: "
                                f"list the groups under people_groups (see the project's settings in dossier's docs/writing/content.md), or remove '{field_name(key)}'")
    choices = type_name[5:].split("|")
    if value not in choices:
        return check.error(key, f"'{field_name(key)}' should be one of {', '.join(choices)}, not '{value}'{did_you_mean(str(value), choices)}")
    return value


def to_id(value: Any, type_name: str, key: tuple, check: FieldCheck) -> Any:
    if not isinstance(value, str) or not is_valid_id(value):
        return check.error(key, f"'{field_name(key)}' should be an id such as '{fold_id(str(value)) or 'jose-gomez'}', not {value!r}")
    return value


def to_slug(value: Any, type_name: str, key: tuple, check: FieldCheck) -> Any:
    if not isinstance(value, str) or not is_valid_id(value):
        return check.error(key, f"'{field_name(key[:-1])}' items should be lowercase tags such as 'aid', not {value!r}")
    return value


def to_list(value: Any, type_name: str, key: tuple, check: FieldCheck) -> Any:
    """Convert a list of texts, tags or ids, item by item (each item's problem at its own line)."""
    if isinstance(value, str):
        return check.error(key, f"'{field_name(key)}' should be a list (write [{value}]), not a single text")
    if not isinstance(value, list):
        return check.error(key, f"'{field_name(key)}' should be a list, not {describe(value)}")
    item_type = {"texts": "text", "slugs": "slug"}.get(type_name) or "id:" + type_name[4:]
    items = [convert(item, item_type, key + (index,), check) for index, item in enumerate(value)]
    return [item for item in items if item is not None]


def to_evidence(value: Any, type_name: str, key: tuple, check: FieldCheck) -> Any:
    return convert_evidence(value, key, check.document.path, check.document.line_of, check.error, check.column_of)


def to_mapping(value: Any, type_name: str, key: tuple, check: FieldCheck) -> Any:
    return convert_nested(value, NESTED[type_name], key, check)


def to_mappings(value: Any, type_name: str, key: tuple, check: FieldCheck) -> Any:
    if not isinstance(value, list):
        keys = ", ".join(f.name for f in field_specs(NESTED[type_name]) if f.required)
        return check.error(key, f"'{field_name(key)}' should be a list of {{{keys}}}, not {describe(value)}")
    items = [convert_nested(item, NESTED[type_name], key + (index,), check) for index, item in enumerate(value)]
    return [item for item in items if item is not None]


def to_site_translations(value: Any, type_name: str, key: tuple, check: FieldCheck) -> Any:
    from .site_translations import convert_site_translations  # site.yaml's `translations:`

    return convert_site_translations(value, key, check)


def to_words(value: Any, type_name: str, key: tuple, check: FieldCheck) -> dict | None:
    """Convert a text shown to readers, given once or in each language ({en: ..., es: ...}), to {language: text} ('' for once)."""
    name = field_name(key)
    if isinstance(value, str):
        if value.strip():
            return {"": value.strip()}
        check.error(key, f"'{name}' should not be empty")
        return None
    if not isinstance(value, dict) or not value:
        check.error(key, f"'{name}' should be text, or its text in each language ({{en: ..., es: ...}}), not {describe(value)}")
        return None
    words = {}
    for lang, text in value.items():
        if lang not in LANGUAGES:
            check.error(key + (lang,), f"'{name}' gives '{lang}', which is not a language of dossier's interface ({', '.join(LANGUAGES)})")
        elif not isinstance(text, str) or not text.strip():
            check.error(key + (lang,), f"'{name}.{lang}' should be text, not {describe(text)}")
        else:
            words[lang] = text.strip()
    return words if len(words) == len(value) else None


def as_it_is(value: Any, type_name: str, key: tuple, check: FieldCheck) -> Any:
    return value  # `types` in site.yaml: checked by model.custom_types() before anything else is read


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


# JSON Schemas of the values, for editors (editors/schemas.py): never stricter than the conversions above.
ID_SCHEMA = {"type": "string", "pattern": f"^{ID_PATTERN.pattern}$"}
TEXT_SCHEMA = {"type": ["string", "number"]}  # a number is read as text (a figure's value: 270)
NOTHING = {"enum": [None, ""]}  # an optional field left empty, `status:` or `url: ""`: the build takes its default
Ids = dict[str, list[str]]  # the project's ids by collection, offered for completion


def id_schema(kind: str, ids: Ids) -> dict[str, Any]:
    known = ids.get(kind.partition(":")[2], [])
    return {"anyOf": [{"enum": known}, ID_SCHEMA]} if known else dict(ID_SCHEMA)  # the current ids for completion; any id is well formed


def evidence_schema(kind: str, ids: Ids) -> dict[str, Any]:
    markers = {"type": "string"}  # a field with its markers, or a list field with each value's (checked against the record by the build)
    return {"type": "object", "additionalProperties": {"anyOf": [markers, {"type": "object", "additionalProperties": markers}]}}


def site_translations_schema(kind: str, ids: Ids) -> dict[str, Any]:
    words = {"title": dict(TEXT_SCHEMA), "description": dict(TEXT_SCHEMA), "tags": {"type": "object", "additionalProperties": dict(TEXT_SCHEMA)}}
    return {"type": "object", "additionalProperties": {"type": "object", "properties": words, "additionalProperties": False}}  # each other language's words


def words_schema(kind: str, ids: Ids) -> dict[str, Any]:
    return {"anyOf": [dict(TEXT_SCHEMA), {"type": "object", "additionalProperties": dict(TEXT_SCHEMA)}]}  # once, or {en: ..., es: ...}


def value_schema(kind: str, ids: Ids) -> dict[str, Any]:
    """Return the JSON Schema of one value of a content type ('text', 'id:places', 'figures', ...)."""
    return field_type(kind).schema(kind, ids)


def field_schema(spec: FieldSpec, ids: Ids) -> dict[str, Any]:
    """Return the schema of a field: its value, or nothing when it is optional (the build then takes its default)."""
    value = value_schema(spec.type, ids)
    if spec.required and value.get("type") in ("string", ["string", "number"]):
        value["minLength"] = 1  # `summary: ""` is a required field left empty
    schema = value if spec.required else {"anyOf": [value, NOTHING]} if "anyOf" not in value else {"anyOf": [*value["anyOf"], NOTHING]}
    if spec.doc:
        schema = {"description": spec.doc + (" (required)" if spec.required else ""), **schema}
    return schema


def object_schema(fields: tuple[FieldSpec, ...], ids: Ids) -> dict[str, Any]:
    """Return the schema of a mapping of fields: every field, the required ones, nothing else."""
    return {
        "type": "object",
        "properties": {spec.name: field_schema(spec, ids) for spec in fields},
        "required": [spec.name for spec in fields if spec.required],
        "additionalProperties": False,
    }


@dataclass(frozen=True)
class FieldType:
    """One type a front-matter field may have: how a value of it converts (or the problem it is), its
    JSON Schema for editors, and the value `new` writes for it. Validation, the editors' schemas and
    the scaffold of `new` all look a field's type up here."""

    convert: Callable[[Any, str, tuple, FieldCheck], Any]  # (value, the type as declared, key path, check): the value, or None once a problem is noted
    schema: Callable[[str, Ids], dict[str, Any]]  # (the type as declared, the project's ids): the JSON Schema of one value
    scaffold: Callable[[FieldSpec], str] = lambda spec: ""  # what `new` writes for a field of this type


def constant(value: str) -> Callable[[FieldSpec], str]:
    return lambda spec: value


def nested_schema(kind: str, ids: Ids) -> dict[str, Any]:
    mapping = object_schema(field_specs(NESTED[kind]), ids)
    return {"type": "array", "items": mapping} if kind in LISTS else mapping


# Every field type, by the part of its name before ':' (id:places, ids:groups, enum:a|b).
FIELD_TYPES: dict[str, FieldType] = {
    "text": FieldType(to_text, lambda kind, ids: dict(TEXT_SCHEMA)),
    "url": FieldType(to_text, lambda kind, ids: {"type": "string", "pattern": "^(https?://.*)?$"}),
    "bool": FieldType(to_bool, lambda kind, ids: {"type": "boolean"}, constant("false")),
    "int": FieldType(to_int, lambda kind, ids: {"type": "integer"}),
    "date": FieldType(to_date, lambda kind, ids: {"type": ["string", "integer"], "pattern": r"^\S+$"}),  # EDTF; YAML reads a bare year as a number
    "enum": FieldType(to_choice, lambda kind, ids: {"enum": [choice for choice in kind[5:].split("|") if choice]},  # none while a project declares no people_groups
                      lambda spec: spec.default or spec.type[5:].split("|")[0]),
    "id": FieldType(to_id, id_schema),
    "slug": FieldType(to_slug, lambda kind, ids: dict(ID_SCHEMA)),  # an item of slugs
    "texts": FieldType(to_list, lambda kind, ids: {"type": "array", "items": dict(TEXT_SCHEMA)}, constant("[]")),
    "slugs": FieldType(to_list, lambda kind, ids: {"type": "array", "items": dict(ID_SCHEMA)}, constant("[]")),
    "ids": FieldType(to_list, lambda kind, ids: {"type": "array", "items": id_schema(kind, ids)}, constant("[]")),
    "evidence": FieldType(to_evidence, evidence_schema),
    "age": FieldType(to_mapping, nested_schema),
    "review": FieldType(to_mapping, nested_schema),
    "figures": FieldType(to_mappings, nested_schema, constant("[]")),
    "claims": FieldType(to_mappings, nested_schema, constant("[]")),
    "images": FieldType(to_mappings, nested_schema, constant("[]")),  # a record's images (model/media.py)
    "name_check": FieldType(to_mapping, nested_schema),  # site.yaml's settings (model/settings.py)
    "people_groups": FieldType(to_mappings, nested_schema),
    "home_headings": FieldType(to_mapping, nested_schema),
    "timeline": FieldType(to_mapping, nested_schema),
    "words": FieldType(to_words, words_schema),  # a text readers see, once or in each language
    "site-translations": FieldType(to_site_translations, site_translations_schema),  # site.yaml's words in each other language
    "types": FieldType(as_it_is, lambda kind, ids: {}),  # checked by the model itself
}


def field_type(declared: str) -> FieldType:
    """Return the type of a field as declared: 'ids:groups' -> the ids type."""
    found = FIELD_TYPES.get(declared.partition(":")[0])
    if found is None:
        raise AssertionError(f"unknown field type {declared}")
    return found
