"""The site's model: every record type declared once, and what each stage derives from it.

A record type names its collection (the folder in content/ and the first part of its pages'
URLs), its singular name, its template, its fields and their types, which fields name records
of other collections (and the heading under which those records list it back), which fields
carry citations, the timeline facets it gives and what it exports. Reading, `new`, linking,
relinking, the dependency graph, rendering, the timeline filters, the audit and data/site.json
read these declarations instead of naming collections themselves. A project may declare types
of its own under `types:` in content/site.yaml (see custom_types()).
"""

from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass
from typing import Any, Callable, Iterator

from .problems import Problem, did_you_mean
from .schema import Age, Claim, Conflict, Event, Figure, Group, Page, Person, Place, Record, Review, SiteConfig, Source
from .media import Image
from .settings import HomeHeadings, NameCheck, PeopleGroup, TimelineSettings

DECLARABLE = ("text", "texts", "bool", "int", "date", "url", "slugs")  # the field types a project may declare (each one of check/fields.py's table), besides enum:a|b, id:<collection>, ids:<collection>
NESTED = {"age": Age, "figures": Figure, "claims": Claim, "review": Review,  # mapping fields, and what they hold
          "name_check": NameCheck, "people_groups": PeopleGroup, "home_headings": HomeHeadings, "images": Image,
          "timeline": TimelineSettings}
LISTS = ("figures", "claims", "people_groups", "images")  # the nested fields that hold a list of mappings


@dataclass(frozen=True)
class FieldSpec:
    """One front-matter field of a record type."""

    name: str
    type: str  # 'text', 'ids:groups', 'enum:stated|inferred', 'age', ...
    required: bool = False
    default: Any = None
    doc: str = ""
    inverse: str = ""  # heading on a named record's page for the records naming it through this field
    facet: str = ""  # for a field of events (or naming events): how a timeline filter heading phrases it
    evidence: bool = False  # states a fact about the world: each value cited under `evidence:` or linked from cited prose
    translate: bool = False  # words a reader sees, which a translation file may give in its language

    @property
    def target(self) -> str | None:
        """Return the collection whose ids this field holds, or None."""
        kind, _, collection = self.type.partition(":")
        return collection if kind in ("id", "ids") else None

    def ids(self, record: Record) -> list[str]:
        """Return the ids a record's value of this field names (none if it names no records)."""
        value = getattr(record, self.name, None)
        if not value or self.target is None:
            return []
        return [value] if isinstance(value, str) else list(value)

    @property
    def cites(self) -> bool:
        """Tell whether the field holds citations: a mapping (or list of them) with a source and a quote."""
        nested = NESTED.get(self.type)
        return self.type == "evidence" or nested is not None and {"source", "quote"} <= {f.name for f in dataclasses.fields(nested)}


def field_specs(record_class: type) -> tuple[FieldSpec, ...]:
    """Return the editor-facing fields declared on a record dataclass, in declaration order."""
    found = []
    for f in dataclasses.fields(record_class):
        if "type" not in f.metadata:
            continue
        default = [] if f.default_factory is list else (None if f.default is dataclasses.MISSING else f.default)
        meta = f.metadata
        found.append(FieldSpec(f.name, meta["type"], meta["required"], default, meta["doc"], meta.get("inverse", ""), meta.get("facet", ""),
                               meta.get("evidence", False), meta.get("translate", False)))
    return tuple(found)


@dataclass(frozen=True)
class RecordType:
    """One kind of record: where its files live, how its pages look and what other stages make of it."""

    collection: str  # folder in content/ and URL prefix: 'people'
    singular: str  # 'person'
    title: str  # heading of its index page and navigation entry: 'People'
    record_class: type[Record]
    fields: tuple[FieldSpec, ...]
    file_format: str = "md"  # 'md' (front matter and a Markdown body) or 'yaml'
    body_field: str = "body"  # the Markdown its page renders (a source's 'notes')
    template: str = ""  # default: '<singular>.html'
    indexed: bool = True  # has an index page, listed in the navigation
    creatable: bool = True  # `dossier new <singular>` writes one
    audited: bool = True  # each sentence of its body must cite a source, but in a paragraph marked editorial
    on_home: bool = False  # the home page counts or lists its records
    facets: tuple[str, ...] = ()  # for events: its fields that filter the timeline, in the order the timeline lists them
    export: Callable[[Any, Record], dict] | None = None  # its entry in data/site.json; None: not exported
    custom: bool = False  # declared by the project, not by dossier

    @property
    def page_template(self) -> str:
        """Return the template that renders one record's page."""
        return self.template or f"{self.singular}.html"

    @property
    def references(self) -> tuple[FieldSpec, ...]:
        """Return the fields that name records of a collection."""
        return tuple(f for f in self.fields if f.target)

    @property
    def citing_fields(self) -> tuple[FieldSpec, ...]:
        """Return the fields that carry citations (an age, figures)."""
        return tuple(f for f in self.fields if f.cites)

    @property
    def evidence_fields(self) -> tuple[FieldSpec, ...]:
        """Return the fields that state facts and so carry evidence."""
        return tuple(f for f in self.fields if f.evidence)

    def field(self, name: str) -> FieldSpec:
        """Return the field with this name."""
        return next(f for f in self.fields if f.name == name)


Model = dict[str, RecordType]  # by collection, in linking order


def export_person(site: Any, person: Record) -> dict:
    """Return a person's entry in data/site.json."""
    p: Any = person
    return {"id": p.id, "name": p.name, "aliases": p.aliases, "anonymous": p.anonymous, "summary": p.summary, "url": p.page_url}


def export_event(site: Any, event: Record) -> dict:
    """Return an event's entry in data/site.json."""
    e: Any = event
    return {
        "id": e.id, "title": e.title, "date": e.date.text,
        "start": e.date.start.iso() if e.date.start else None, "end": e.date.end.iso() if e.date.end else None,
        "approximate": e.date.approximate, "summary": e.summary, "people": e.people, "url": e.page_url,
    }


def export_source(site: Any, source: Record) -> dict:
    """Return a source's entry in data/site.json."""
    s: Any = source
    return {
        "id": s.id, "title": s.title, "outlet": s.outlet, "byline": s.byline,
        "published": s.published.text if s.published else None, "url": s.url or None,
        "seed": s.seed, "derived_from": s.derived_from, "language": s.language,
    }


def export_conflict(site: Any, conflict: Record) -> dict:
    """Return a conflict's entry in data/site.json: its claims side by side."""
    c: Any = conflict
    claims = [{"source": claim.source, "quote": claim.quote, "says": claim.says} for claim in c.claims]
    return {"id": c.id, "title": c.title, "summary": c.summary, "claims": claims, "people": c.people, "events": c.events, "url": c.page_url}


def export_fields(site: Any, record: Record) -> dict:
    """Return a record of a project's own type as data/site.json holds it: every field, dates as written."""
    entry: dict[str, Any] = {"id": record.id}
    for spec in site.model[record.collection].fields[len(COMMON):]:  # not draft (a published record is none), nor reviewed
        value: Any = getattr(record, spec.name, None)
        entry[spec.name] = value.text if hasattr(value, "text") and spec.type == "date" else value
    entry["url"] = record.page_url
    return entry


def built_in(collection: str, singular: str, title: str, record_class: type[Record], **options: Any) -> RecordType:
    """Declare one of dossier's own record types from its dataclass."""
    return RecordType(collection, singular, title, record_class, field_specs(record_class), **options)


BUILT_IN: Model = {
    "people": built_in("people", "person", "People", Person, on_home=True, export=export_person),
    "events": built_in("events", "event", "Events", Event, on_home=True, export=export_event, facets=("people", "groups", "places", "tags")),
    "places": built_in("places", "place", "Places", Place),
    "groups": built_in("groups", "group", "Groups", Group),
    "conflicts": built_in("conflicts", "conflict", "Conflicts", Conflict, export=export_conflict),
    "sources": built_in("sources", "source", "Sources", Source, file_format="yaml", body_field="notes", audited=False, on_home=True, export=export_source),
    "pages": built_in("pages", "page", "Pages", Page, indexed=False, creatable=False, on_home=True),
}
COMMON = field_specs(Record)  # the fields every record type has: draft, reviewed
SETTINGS = RecordType("site", "site settings", "Settings", SiteConfig, field_specs(SiteConfig)[len(COMMON):], indexed=False, creatable=False,
                      audited=False, file_format="yaml")  # the settings are no record: never a draft
RESERVED = set(BUILT_IN) | {"site", "timeline", "claims", "search", "data", "static", "pagefind", "pagefind-vocabulary", "404"}


@dataclass(frozen=True, kw_only=True)
class CustomRecord(Record):
    """A record of a type the project declares: its field values by name, read as attributes."""

    values: dict = dataclasses.field(default_factory=dict)

    def __getattr__(self, name: str) -> Any:
        values = self.__dict__.get("values")
        if values is not None and name in values:
            return values[name]
        raise AttributeError(name)


def record_type_of(model: Model, collection: str) -> RecordType:
    """Return the declaration of a collection, or of the site settings."""
    return SETTINGS if collection == "site" else model[collection]


def facet_fields(model: Model) -> Iterator[tuple[str, str, FieldSpec]]:
    """Yield each timeline facet as (facet name, collection declaring it, field): a field of events
    (events name its values), or a project type's field naming events (its records name events)."""
    events = model["events"]
    for name in events.facets:
        yield name, "events", events.field(name)
    for rtype in model.values():
        for spec in rtype.references:
            if rtype.collection != "events" and spec.target == "events" and spec.facet:
                yield rtype.collection, rtype.collection, spec


def facet_title(model: Model, collection: str, spec: FieldSpec) -> str:
    """Return the title of a timeline facet: the record type it filters by ('People'), or for a
    facet that names no record type, its field's name ('Tags')."""
    values = spec.target if collection == "events" else collection
    return model[values].title if values in model else spec.name.capitalize()


ID = re.compile(r"[a-z][a-z0-9]*(?:-[a-z0-9]+)*")
TYPE_KEYS = {"singular", "title", "fields", "template", "audited", "on_home"}
FIELD_KEYS = {"type", "required", "doc", "inverse", "facet", "evidence", "translate"}
EVIDENCE = FieldSpec("evidence", "evidence", doc="citations for the facts: each field, or each value of a list, with its citation markers written as in the body")


def custom_types(types: Any, path: str, line_of: Callable[..., int]) -> tuple[Model, list[Problem]]:
    """Return the built-in record types followed by those a project declares in site.yaml, and the
    problems of the declaration. Each type is a mapping under `types:`:

        types:
          units:                       # the collection: content/units/*.md, pages at units/<id>/
            singular: unit             # `dossier new unit`, the template unit.html
            title: Units               # index heading (default: the collection, capitalised)
            fields:
              name: {type: text, required: true}
              based_in: {type: "id:places", inverse: "Units based here"}
              events: {type: "ids:events", facet: involving}   # a timeline filter per unit
              commander: {type: text, evidence: true}          # a fact: cited under `evidence:`
    """
    model: Model = dict(BUILT_IN)
    problems: list[Problem] = []
    if types is None:
        return model, problems

    def error(message: str, *key: Any) -> None:
        problems.append(Problem(path, line_of("types", *key), 0, "error", message))

    if not isinstance(types, dict):
        error("'types' should be a mapping of collection names to record types")
        return model, problems
    declared: dict[str, RecordType] = {}
    for collection, declaration in types.items():
        if not isinstance(collection, str) or not ID.fullmatch(collection):
            error(f"type name {collection!r} should be a lowercase plural such as 'units'", collection)
            continue
        if collection in RESERVED:
            error(f"type name '{collection}' is taken by dossier; choose another", collection)
            continue
        if not isinstance(declaration, dict):
            error(f"type '{collection}' should be a mapping with 'singular' and 'fields'", collection)
            continue
        for key in declaration:
            if key not in TYPE_KEYS:
                error(f"unknown key '{key}' in type '{collection}'{did_you_mean(str(key), TYPE_KEYS)}", collection, key)
        singular = declaration.get("singular")
        if not isinstance(singular, str) or not ID.fullmatch(singular):
            error(f"type '{collection}' needs 'singular', a lowercase word such as 'unit'", collection)
            continue
        fields = COMMON + custom_fields(declaration.get("fields"), collection, error)
        fields += (EVIDENCE,) if any(f.evidence for f in fields) else ()  # where the facts' citations go
        if not any(f.name in ("name", "title") and f.type == "text" for f in fields):
            error(f"type '{collection}' needs a 'name' or 'title' field of type text: links show it", collection, "fields")
        declared[collection] = RecordType(
            collection, singular, str(declaration.get("title") or collection.capitalize()), CustomRecord, fields,
            template=str(declaration.get("template") or ""), audited=bool(declaration.get("audited", True)),
            on_home=bool(declaration.get("on_home", False)), export=export_fields, custom=True,
        )
    every = set(model) | set(declared)
    for collection, rtype in declared.items():
        for spec in rtype.references:
            if spec.target not in every:
                error(f"field '{spec.name}' of type '{collection}' names '{spec.target}', which is not a record type{did_you_mean(str(spec.target), every)}",
                      collection, "fields", spec.name)
    if problems:
        return model, problems
    ordered = {k: v for k, v in model.items() if k not in ("sources", "pages")}
    return {**ordered, **declared, "sources": model["sources"], "pages": model["pages"]}, problems


def custom_fields(fields: Any, collection: str, error: Callable[..., None]) -> tuple[FieldSpec, ...]:
    """Return the fields a project declares for one of its types, reporting each mistake."""
    if not isinstance(fields, dict) or not fields:
        error(f"type '{collection}' needs 'fields', a mapping of field names to types", collection)
        return ()
    found = []
    for name, declaration in fields.items():
        where = (collection, "fields", name)
        if isinstance(declaration, str):
            declaration = {"type": declaration}
        if not isinstance(name, str) or not re.fullmatch(r"[a-z][a-z0-9_]*", name) or name in {"id", "path", "body", "collection", "values", "lines", "body_line", "evidence", *(f.name for f in COMMON)}:
            error(f"field name {name!r} of type '{collection}' should be a lowercase word not used by dossier", *where)
            continue
        if not isinstance(declaration, dict):
            error(f"field '{name}' of type '{collection}' should be a type such as text, or a mapping with 'type'", *where)
            continue
        for key in declaration:
            if key not in FIELD_KEYS:
                error(f"unknown key '{key}' in field '{name}'{did_you_mean(str(key), FIELD_KEYS)}", *where, key)
        for flag in ("evidence", "translate"):
            if not isinstance(declaration.get(flag, False), bool):
                error(f"'{flag}' of field '{name}' should be true or false", *where, flag)
        kind = declaration.get("type")
        valid = isinstance(kind, str) and (kind in DECLARABLE or re.fullmatch(r"(id|ids):[a-z][a-z0-9-]*|enum:[^|]+(\|[^|]+)*", kind))
        if not valid or not isinstance(kind, str):
            choices = ", ".join(DECLARABLE) + ", id:<type>, ids:<type>, enum:a|b"
            error(f"field '{name}' of type '{collection}' has type {kind!r}; use one of {choices}", *where, "type")
            continue
        many = kind in ("texts", "slugs") or kind.startswith("ids:")
        found.append(FieldSpec(name, kind, bool(declaration.get("required", False)), [] if many else None, str(declaration.get("doc") or ""),
                               str(declaration.get("inverse") or ""), str(declaration.get("facet") or ""), declaration.get("evidence") is True,
                               declaration.get("translate") is True and kind in ("text", "texts")))
    return tuple(found)
