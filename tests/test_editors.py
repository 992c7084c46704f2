"""JSON Schemas for editors: the real documentary's files fit them, and what they refuse the build
refuses too, naming the same field."""

from __future__ import annotations

import json
import re
from pathlib import Path

import jsonschema
import pytest

from conftest import PROJECT
from dossier.cli import main
from dossier.model.i18n import translation_of
from dossier.model.record_types import BUILT_IN, FieldSpec
from dossier.model.problems import ContentError
from dossier.read.documents import content_files, read_document, read_model
from dossier.pipeline import check
from dossier.editors.schemas import schemas


@pytest.fixture(scope="module")
def real_schemas(tmp_path_factory) -> dict[str, dict]:
    out = tmp_path_factory.mktemp("schemas")
    assert main(["schema", "--source", str(PROJECT), "--out", str(out)]) == 0
    return {path.name: json.loads(path.read_text(encoding="utf-8")) for path in out.glob("*.schema.json")}


def schema_for(schemas: dict[str, dict], kind: str) -> dict:
    return schemas[f"{BUILT_IN[kind].singular}.schema.json"]


def test_schema_writes_one_draft_2020_12_schema_per_record_type(real_schemas):
    assert set(real_schemas) == {f"{rtype.singular}.schema.json" for rtype in BUILT_IN.values()}
    person = real_schemas["person.schema.json"]
    jsonschema.Draft202012Validator.check_schema(person)
    assert person["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    assert person["required"] == ["name", "summary"] and person["additionalProperties"] is False
    assert person["properties"]["summary"]["description"] == "one plain sentence (required)"
    places = person["properties"]["places"]["anyOf"][0]["items"]["anyOf"]
    assert "cucuta" in places[0]["enum"] and places[1]["pattern"].startswith("^")  # current ids offered, any id well formed
    assert real_schemas["event.schema.json"]["properties"]["date_basis"]["anyOf"][0] == {"enum": ["stated", "inferred"]}


def test_every_content_file_of_the_documentary_fits_its_schema(real_schemas):
    model, _ = read_model(PROJECT)
    files, _ = content_files(PROJECT, model)
    checked = 0
    for file in files:
        document, problems = read_document(PROJECT, file)
        assert document is not None, problems
        if document.kind == "site":
            continue
        schema = schema_for(real_schemas, document.kind)
        if translation_of(document.id):  # a translation (x.es.md) gives only its record's words: lists of mappings item by item, their words only
            words = {f.name for f in BUILT_IN[document.kind].fields if f.translate}
            schema = {**schema, "required": [], "properties": {k: loosened(v) for k, v in schema["properties"].items() if k in words or k == "reviewed"}}
        errors = [error.message for error in jsonschema.Draft202012Validator(schema).iter_errors(document.meta)]
        assert not errors, f"{document.path}: {errors}"
        checked += 1
    assert checked > 50


def loosened(schema: dict) -> dict:
    """Return a property's schema with no item of a list required to give every key."""
    if "anyOf" in schema:
        return {**schema, "anyOf": [loosened(option) for option in schema["anyOf"]]}
    items = schema.get("items")
    return {**schema, "items": {k: v for k, v in items.items() if k != "required"}} if isinstance(items, dict) else schema


def fields_named(error: jsonschema.ValidationError) -> set[str]:
    """Return the fields a schema error names: in its path, or quoted in its message (required, unexpected)."""
    path = {str(part) for part in error.absolute_path if isinstance(part, str)}
    within = {name for alternative in error.context for name in fields_named(alternative)}  # anyOf: each alternative's errors
    return path | set(re.findall(r"'([a-z_]+)'", error.message)) | within


BAD = {  # file, content, the field both must name
    "unknown field": ("content/people/jorge-torres.md", "---\nnmae: Jorge Torres\nname: J\nsummary: S.\n---\n", "nmae"),
    "text as a list": ("content/people/jorge-torres.md", "---\nname: [Jorge, Torres]\nsummary: S.\n---\n", "name"),
    "required field missing": ("content/places/cucuta.md", "---\nname: Cúcuta\n---\n", "summary"),
    "required field empty": ("content/places/cucuta.md", "---\nname: Cúcuta\nsummary: \"\"\n---\n", "summary"),
    "not true or false": ("content/people/jorge-torres.md", "---\nname: J\nsummary: S.\nanonymous: maybe\n---\n", "anonymous"),
    "not one of the choices": ("content/events/aid-convoy.md", "---\ntitle: A\ndate: 2019\ndate_basis: guessed\nsummary: S.\n---\n", "date_basis"),
    "one id, not a list": ("content/people/jorge-torres.md", "---\nname: J\nsummary: S.\nplaces: cucuta\n---\n", "places"),
    "not an id": ("content/places/cucuta.md", "---\nname: C\nsummary: S.\nlocated_in: Big Country\n---\n", "located_in"),
    "capital tag": ("content/events/aid-convoy.md", "---\ntitle: A\ndate: 2019\ntags: [Aid]\nsummary: S.\n---\n", "tags"),
    "age not a number": ("content/people/jorge-torres.md", "---\nname: J\nsummary: S.\nage: {years: old, as_of: 2019, source: ap, quote: q}\n---\n", "years"),
    "age without its source": ("content/people/jorge-torres.md", "---\nname: J\nsummary: S.\nage: {years: 27, as_of: 2019, quote: q}\n---\n", "source"),
    "figure with a field too many": ("content/events/aid-convoy.md", "---\ntitle: A\ndate: 2019\nsummary: S.\nfigures:\n  - {label: L, value: '1', source: ap, quote: q, unit: x}\n---\n", "unit"),
    "not an address": ("content/sources/ap.yaml", "title: AP\noutlet: AP\nlanguage: en\nseed: ap.txt\nurl: ftp://example.org/\n", "url"),
    "evidence not a mapping": ("content/people/jorge-torres.md", "---\nname: J\nsummary: S.\nstatus: Fled\nevidence: '[@ap \"Torres said\"]'\n---\n", "evidence"),
    "draft as a word": ("content/people/jorge-torres.md", "---\ndraft: maybe\nname: J\nsummary: S.\n---\n", "draft"),
}


@pytest.mark.parametrize("case", BAD)
def test_what_the_schema_refuses_the_build_refuses_naming_the_same_field(make_site, case, tmp_path):
    path, text, field = BAD[case]
    root = make_site({path: text})
    assert main(["schema", "--source", str(root), "--out", str(tmp_path / "schemas")]) == 0
    kind = Path(path).parent.name
    schema = json.loads((tmp_path / "schemas" / f"{BUILT_IN[kind].singular}.schema.json").read_text(encoding="utf-8"))
    document, _ = read_document(root, root / path)
    errors = list(jsonschema.Draft202012Validator(schema).iter_errors(document.meta))
    assert errors and any(field in fields_named(error) for error in errors), [e.message for e in errors]
    with pytest.raises(ContentError) as refused:
        check(root)
    assert any(p.path == path and p.severity == "error" and re.search(rf"\b{field}\b", p.message) for p in refused.value.problems), refused.value.problems


def test_new_points_the_file_at_its_schema(make_site, capsys):
    root = make_site()
    assert main(["new", "person", "Ana Ruiz", "--source", str(root)]) == 0
    assert main(["new", "source", "Reuters story", "--source", str(root)]) == 0
    person = (root / "content/people/ana-ruiz.md").read_text(encoding="utf-8")
    assert person.startswith("---\n# yaml-language-server: $schema=../../schemas/person.schema.json\n")
    source = (root / "content/sources/reuters-story.yaml").read_text(encoding="utf-8")
    assert source.startswith("# yaml-language-server: $schema=../../schemas/source.schema.json\n")
    event = json.loads((root / "schemas/event.schema.json").read_text(encoding="utf-8"))["properties"]  # new ids offered at once
    assert "ana-ruiz" in event["people"]["anyOf"][0]["items"]["anyOf"][0]["enum"]
    assert "reuters-story" in event["figures"]["anyOf"][0]["items"]["properties"]["source"]["anyOf"][0]["enum"]


def test_a_translation_file_names_no_id_of_its_own_in_the_schemas(real_schemas):
    sources = real_schemas["conflict.schema.json"]["properties"]["claims"]["anyOf"][0]["items"]["properties"]["source"]["anyOf"][0]["enum"]
    assert "ap-desertion" in sources and not [s for s in sources if translation_of(s)]


def test_every_field_type_is_one_entry_of_one_table():
    """Validation, the editors' schemas and `new` read each field's type from one table: every field of
    every record type, and every type a project may declare, has its entry there."""
    from dossier.check.fields import FIELD_TYPES, field_type
    from dossier.model.record_types import BUILT_IN, DECLARABLE, SETTINGS, field_specs, NESTED

    declared = {spec.type for rtype in [*BUILT_IN.values(), SETTINGS] for spec in rtype.fields}
    declared |= {spec.type for nested in NESTED.values() for spec in field_specs(nested)} | set(DECLARABLE) | {"id:places", "ids:events", "enum:a|b"}
    for kind in sorted(declared):
        entry = field_type(kind)
        assert entry in FIELD_TYPES.values() and callable(entry.convert) and isinstance(entry.schema(kind, {}), dict), kind
        assert isinstance(entry.scaffold(FieldSpec("x", kind)), str), kind


def test_a_new_field_type_is_one_entry_for_validation_the_schema_and_new(make_site, monkeypatch, tmp_path):
    from dossier.check import fields
    from dossier.cli import scaffold
    from dossier.model import record_types

    year = fields.FieldType(lambda value, kind, key, check: value if isinstance(value, int) and 1000 <= value <= 2999 else check.error(key, f"'{fields.field_name(key)}' should be a year, not {value!r}"),
                            lambda kind, ids: {"type": "integer", "minimum": 1000, "maximum": 2999}, lambda spec: "2019")
    monkeypatch.setitem(fields.FIELD_TYPES, "year", year)
    monkeypatch.setattr(record_types, "DECLARABLE", (*record_types.DECLARABLE, "year"))
    root = make_site({"content/site.yaml": "title: T\nlanguage: en\ntypes:\n  units:\n    singular: unit\n    fields:\n      name: {type: text, required: true}\n      founded: year\n",
                      "content/units/third.md": "---\nname: Third\nfounded: 19\n---\nA unit.[@ap \"across the bridge\"]\n"})
    with pytest.raises(ContentError) as raised:
        check(root)
    assert [str(p) for p in raised.value.problems if p.severity == "error"] == ["content/units/third.md:3: error: 'founded' should be a year, not 19"]
    model, _ = read_model(root)
    assert "founded: 2019" in scaffold(model["units"], "Fourth")
    assert schemas(root, model)["unit.schema.json"]["properties"]["founded"]["anyOf"][0] == {"type": "integer", "minimum": 1000, "maximum": 2999}
