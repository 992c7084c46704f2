"""JSON Schemas of the front matter, for editors: one per record type, derived from the model's
declarations (types, enums, required fields, doc strings), so that an editor with a YAML language
server completes field names and ids and marks mistakes as they are typed.

A schema is never stricter than the build: what it refuses, the build refuses too, naming the same
field (tests/test_editors.py holds them to it). It cannot see everything the build checks (that an
id names an existing record, that a quote is in its source, dates beyond their shape).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from ..model.i18n import translation_of
from ..model.record_types import LISTS, NESTED, FieldSpec, Model, RecordType, field_specs
from ..read.documents import content_files
from ..model.slug import ID_PATTERN

DRAFT_2020_12 = "https://json-schema.org/draft/2020-12/schema"
FOLDER = "schemas"  # in the project folder: where `schema` writes by default and where files `new` makes point
ID = {"type": "string", "pattern": f"^{ID_PATTERN.pattern}$"}
TEXT = {"type": ["string", "number"]}  # a number is read as text (a figure's value: 270)
NOTHING = {"enum": [None, ""]}  # an optional field left empty, `status:` or `url: ""`: the build takes its default


def file_name(rtype: RecordType) -> str:
    """Return the schema file of a record type: person.schema.json."""
    return f"{rtype.singular}.schema.json"


def modeline(rtype: RecordType) -> str:
    """Return the comment that points a YAML language server at the schema of a file `new` makes in content/<collection>/."""
    return f"# yaml-language-server: $schema=../../{FOLDER}/{file_name(rtype)}"


def project_ids(root: Path, model: Model) -> dict[str, list[str]]:
    """Return the ids of every collection as the files in content/ name them (without reading them)."""
    files, _ = content_files(root, model)
    ids: dict[str, set[str]] = {collection: set() for collection in model}
    for file in files:
        if file.parent.name in ids and not translation_of(file.stem):  # x.es.md translates x: no id of its own
            ids[file.parent.name].add(file.stem)
    return {collection: sorted(found) for collection, found in ids.items()}


def value_schema(kind: str, ids: dict[str, list[str]]) -> dict[str, Any]:
    """Return the schema of one value of a content type ('text', 'id:places', 'figures', ...)."""
    if kind == "text":
        return dict(TEXT)
    if kind == "url":
        return {"type": "string", "pattern": "^(https?://.*)?$"}
    if kind == "bool":
        return {"type": "boolean"}
    if kind == "int":
        return {"type": "integer"}
    if kind == "date":
        return {"type": ["string", "integer"], "pattern": r"^\S+$"}  # EDTF; YAML reads a bare year as a number
    if kind.startswith("enum:"):
        return {"enum": [choice for choice in kind[5:].split("|") if choice]}  # none while a project declares no people_groups
    if kind.startswith("id:"):
        known = ids.get(kind[3:], [])
        return {"anyOf": [{"enum": known}, ID]} if known else dict(ID)  # the current ids for completion; any id is well formed
    if kind.startswith("ids:"):
        return {"type": "array", "items": value_schema("id:" + kind[4:], ids)}
    if kind == "texts":
        return {"type": "array", "items": dict(TEXT)}
    if kind == "slugs":
        return {"type": "array", "items": dict(ID)}
    if kind == "evidence":  # a field with its markers, or a list field with each value's (checked against the record by the build)
        markers = {"type": "string"}
        return {"type": "object", "additionalProperties": {"anyOf": [markers, {"type": "object", "additionalProperties": markers}]}}
    if kind in NESTED:
        mapping = object_schema(field_specs(NESTED[kind]), ids)
        return {"type": "array", "items": mapping} if kind in LISTS else mapping
    if kind == "site-translations":  # each other language's title, description and tag names
        words = {"title": dict(TEXT), "description": dict(TEXT), "tags": {"type": "object", "additionalProperties": dict(TEXT)}}
        return {"type": "object", "additionalProperties": {"type": "object", "properties": words, "additionalProperties": False}}
    return {}  # 'types' in site.yaml: checked by the model itself


def field_schema(spec: FieldSpec, ids: dict[str, list[str]]) -> dict[str, Any]:
    """Return the schema of a field: its value, or nothing when it is optional (the build then takes its default)."""
    value = value_schema(spec.type, ids)
    if spec.required and value.get("type") in ("string", ["string", "number"]):
        value["minLength"] = 1  # `summary: ""` is a required field left empty
    schema = value if spec.required else {"anyOf": [value, NOTHING]} if "anyOf" not in value else {"anyOf": [*value["anyOf"], NOTHING]}
    if spec.doc:
        schema = {"description": spec.doc + (" (required)" if spec.required else ""), **schema}
    return schema


def object_schema(fields: tuple[FieldSpec, ...], ids: dict[str, list[str]]) -> dict[str, Any]:
    """Return the schema of a mapping of fields: every field, the required ones, nothing else."""
    return {
        "type": "object",
        "properties": {spec.name: field_schema(spec, ids) for spec in fields},
        "required": [spec.name for spec in fields if spec.required],
        "additionalProperties": False,
    }


def record_schema(rtype: RecordType, ids: dict[str, list[str]]) -> dict[str, Any]:
    """Return the JSON Schema (draft 2020-12) of a record type's front matter."""
    suffix = "yaml" if rtype.file_format == "yaml" else "md"
    description = (rtype.record_class.__doc__ or "").strip() if not rtype.custom else f"A {rtype.singular}, a record type of this project."
    return {
        "$schema": DRAFT_2020_12,
        "$id": file_name(rtype),
        "title": f"{rtype.singular}: content/{rtype.collection}/<id>.{suffix}",
        "description": description,
        **object_schema(rtype.fields, ids),
    }


def schemas(root: Path, model: Model) -> dict[str, dict[str, Any]]:
    """Return the schema of every record type, by file name."""
    ids = project_ids(root, model)
    return {file_name(rtype): record_schema(rtype, ids) for rtype in model.values()}


def write_schemas(root: Path, model: Model, out: Path | None = None) -> Path:
    """Write the schema of every record type into out (default: schemas/ in the project); return the folder."""
    folder = out or root / FOLDER
    folder.mkdir(parents=True, exist_ok=True)
    for name, schema in schemas(root, model).items():
        (folder / name).write_text(json.dumps(schema, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    return folder
