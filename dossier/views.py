"""View data for templates, prepared in Python from the site a page reads: the records that name a
record (its "Members", "Places in X" lists) and the facts a generic record page shows."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .link import Site
from .schema import Record


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
