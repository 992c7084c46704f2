"""JSON Schemas of the front matter, for editors: one per record type, derived from the model's
declarations (types, enums, required fields, doc strings) and from each field type's schema in the
table of field types (check/fields.py), so that an editor with a YAML language server completes
field names and ids and marks mistakes as they are typed.

A schema is never stricter than the build: what it refuses, the build refuses too, naming the same
field (tests/test_editors.py holds them to it). It cannot see everything the build checks (that an
id names an existing record, that a quote is in its source, dates beyond their shape).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from ..model.i18n import translation_of
from ..model.record_types import Model, RecordType
from ..read.documents import content_files

DRAFT_2020_12 = "https://json-schema.org/draft/2020-12/schema"
FOLDER = "schemas"  # in the project folder: where `schema` writes by default and where files `new` makes point


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


def record_schema(rtype: RecordType, ids: dict[str, list[str]]) -> dict[str, Any]:
    """Return the JSON Schema (draft 2020-12) of a record type's front matter."""
    from ..check.fields import object_schema  # the table of field types: not needed by a command that writes no schema

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
