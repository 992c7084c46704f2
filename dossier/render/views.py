"""View data for templates, prepared in Python from the site a page reads: the records that name a
record (its "Members", "Places in X" lists), the facts a generic record page shows and the evidence
for each fact."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..check import evidence
from ..check.link import Site
from ..text.passages import passage_id
from .reads import unwrap
from ..model.schema import Record


@dataclass
class Related:
    """Records that name a record through one field, as its page lists them."""

    collection: str
    field: str
    heading: str  # the field's declared inverse, with the record's name put in
    records: list[Record]

    @property
    def key(self) -> str:
        """Return how templates pick a list: 'people.affiliations'."""
        return f"{self.collection}.{self.field}"


def facts(record: Record, rtype: Any) -> list[tuple[Any, Any]]:
    """Return the (field, value) pairs a generic record page shows in its infobox: every field
    given a value, but the name, title and summary that head the page."""
    return [(spec, value) for spec in rtype.fields if spec.name not in ("name", "title", "summary") and (value := getattr(record, spec.name, None))]


def related(site: Site, record: Record) -> dict[str, Related]:
    """Return, for each field that names this record and declares a heading for it, the records
    naming it, by 'collection.field', in declaration order."""
    key = (record.collection, record.id)
    found = {}
    for collection, rtype in site.model.items():
        for spec in rtype.references:
            if spec.target == record.collection and spec.inverse:
                records = site.named_by(key, collection, spec.name)
                if records:
                    heading = spec.inverse.replace("{name}", record.label)
                    found[f"{collection}.{spec.name}"] = Related(collection, spec.name, heading, records)
    return found


@dataclass
class Shown:
    """A fact's evidence as a page shows it: its value, and each quote with its source and the
    passage's anchor on the source page."""

    value: Any  # the fact's value as shown: a record's name, a date, a text
    quotes: list[tuple[str, Any, str]]  # (quote, source, anchor)
    sentence: bool  # derived from a sentence of the body, not cited under evidence:
    rests_on: Any  # the derivative source it rests on alone, or None


def fact_evidence(site: Any, record: Any, field: str) -> list[Shown]:
    """Return the evidence of each value of one field of a record that has some, in the field's order."""
    own = unwrap(record)
    base = own.original or own  # the evidence names the values as the record's own file writes them
    rtype = site.model[own.collection]
    sources = site.records["sources"]
    shown = []
    for fact in evidence.facts(base, rtype, {}):
        if fact.field != field or not fact.supported:
            continue
        cited = {c.source: sources[c.source] for c in fact.citations}
        derivatives = {sid: s.derived_from for sid, s in cited.items() if s.derived_from}
        target = rtype.field(field).target
        value = value_label(site, target, fact.value if target or base is own else in_language(base, own, field, fact.value))
        quotes = [(c.quote, cited[c.source], passage_id(c.quote)) for c in fact.citations]
        rests_on = evidence.rests_on(fact.citations, derivatives)
        shown.append(Shown(value, quotes, bool(fact.sentence), cited[rests_on] if rests_on else None))
    return shown


def in_language(base: Record, shown: Record, field: str, value: Any) -> Any:
    """Return a value of a record's field as another language shows it: the item at the same place
    in the translated list (a role), or the translated value itself."""
    own, translated = getattr(base, field), getattr(shown, field)
    if isinstance(own, list) and isinstance(translated, list) and value in own and len(own) == len(translated):
        return translated[own.index(value)]
    return translated if not isinstance(own, list) else value


def value_label(site: Any, target: str | None, value: Any) -> Any:
    """Return how a fact's value reads: the name of the record an id names, else the value."""
    if target:
        return site.records[target][value].label
    return value.display() if hasattr(value, "display") else value
