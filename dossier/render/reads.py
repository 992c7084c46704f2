"""What a page reads of the site, recorded as it renders: the dependency graph derives from it.

Templates, and the helpers they call, get the site through a SiteReads. Each record taken from it
is a RecordReads that notes which of its fields are read; each collection gone through notes that
the records it holds matter; each derived list looked up (backlinks, the events or referrers of a
record, citations, "cited by" lists, passages, derivatives, the timeline's order) is noted by its
name and key. A page's reads are a set of tokens:

    ("label", key)          the record's name or title (what links to it show) or its address
    ("record", key)         any other field of the record's front matter
    ("members", collection) which records a collection holds
    (derived, key)          an entry of a derived list: ("mentioned_by", key), ("timeline", "*"), ...
    ("tagged", (field, value))  the events whose field (their tags) holds a value
    ("timeline_home", event id) the timeline page that lists the event (its year's or month's on a large site)
    ("timeline_months", "*")    which events start in which month (how a large timeline is split into pages)

An edit re-renders the pages whose reads hold a token that the edit changes (graph.py).
"""

from __future__ import annotations

from typing import Any, Iterator, Mapping

from ..check.link import Key, Site
from ..model.schema import Record

LABEL_FIELDS = frozenset({"label", "name", "title", "page_url", "id", "collection"})
DERIVED = ("events_of", "mentioned_by", "citations", "cited_by", "passages", "derivatives", "referrers")
Token = tuple
_TOKENS: dict[Token, Token] = {}  # one object for each token: a large site's pages share them


def token(*parts: Any) -> Token:
    """Return the one object standing for a token."""
    return _TOKENS.setdefault(parts, parts)


class RecordReads:
    """A record that notes which of its fields are read."""

    __slots__ = ("_record", "_reads")

    def __init__(self, record: Record, reads: set[Token]):
        object.__setattr__(self, "_record", record)
        object.__setattr__(self, "_reads", reads)

    def __getattr__(self, name: str) -> Any:
        record = self._record
        self._reads.add(token("label" if name in LABEL_FIELDS else "record", (record.collection, record.id)))
        return getattr(record, name)

    @property  # type: ignore[misc]
    def __class__(self) -> type:  # isinstance() sees the record's own type
        return type(self._record)

    def __eq__(self, other: object) -> bool:
        return self._record == (other._record if isinstance(other, RecordReads) else other)

    def __hash__(self) -> int:
        return hash((self._record.collection, self._record.id))


def unwrap(record: Any) -> Any:
    """Return the record a RecordReads stands for (anything else as it is)."""
    return object.__getattribute__(record, "_record") if type(record) is RecordReads else record


class CollectionReads(Mapping[str, Any]):
    """One collection's records by id: going through them notes that its members matter."""

    def __init__(self, name: str, records: dict[str, Record], reads: set[Token]):
        self.name, self.records, self.reads = name, records, reads

    def __getitem__(self, rid: str) -> RecordReads:
        return RecordReads(self.records[rid], self.reads)

    def __contains__(self, rid: object) -> bool:
        self.reads.add(token("members", self.name))
        return rid in self.records

    def __iter__(self) -> Iterator[str]:
        self.reads.add(token("members", self.name))
        return iter(self.records)

    def __len__(self) -> int:
        self.reads.add(token("members", self.name))
        return len(self.records)


class DerivedReads(Mapping[Any, Any]):
    """A derived list of the linked site, by key: each entry looked up is noted."""

    def __init__(self, name: str, entries: dict, reads: set[Token]):
        self.name, self.entries, self.reads = name, entries, reads

    def __getitem__(self, key: Any) -> Any:
        self.reads.add(token(self.name, key))
        return self.entries[key]

    def __contains__(self, key: object) -> bool:
        self.reads.add(token(self.name, key))
        return key in self.entries

    def __iter__(self) -> Iterator[Any]:
        self.reads.add(token(self.name, "*"))
        return iter(self.entries)

    def __len__(self) -> int:
        self.reads.add(token(self.name, "*"))
        return len(self.entries)


class SiteReads:
    """The linked site as pages see it, noting what each reads. The settings, the model and the
    seeds are not noted: a change to any of them renders every page again."""

    def __init__(self, site: Site, reads: set[Token] | None = None):
        self.site = site
        self.reads: set[Token] = set() if reads is None else reads
        self.records = {name: CollectionReads(name, records, self.reads) for name, records in site.records.items()}
        for name in DERIVED:
            setattr(self, name, DerivedReads(name, getattr(site, name), self.reads))
        self.config, self.model, self.seeds = site.config, site.model, site.seeds

    @property
    def timeline(self) -> list[str]:
        """Return the events' ids in date order."""
        self.reads.add(token("timeline", "*"))
        return self.site.timeline

    def get(self, key: Key) -> RecordReads:
        """Return the record with this key."""
        return RecordReads(self.site.get(key), self.reads)

    def seed_of(self, source: Any) -> Any:
        """Return the stored text of a source."""
        return self.site.seed_of(unwrap(source))

    def all_records(self) -> list[RecordReads]:
        """Return every record, noting that every collection's members matter."""
        self.reads.update(token("members", name) for name in self.site.model)
        return [RecordReads(record, self.reads) for record in self.site.all_records()]

    def tagged(self, field: str, value: str) -> list[str]:
        """Return the events whose field (their tags) holds a value, in date order."""
        self.reads.add(token("tagged", (field, value)))
        events = self.site.records["events"]
        return [eid for eid in self.site.timeline if value in (getattr(events[eid], field, None) or [])]

    def named_by(self, key: Key, collection: str, field_name: str) -> list[RecordReads]:
        """Return the records of a collection whose field names this record."""
        self.reads.add(token("referrers", key))
        return [RecordReads(record, self.reads) for record in self.site.named_by(key, collection, field_name)]


# What a rendered body read, kept with it in the body cache (render.context.PageContext.reads).


def link_target(site: Site, target: str) -> Record:
    """Return the record a body link names: 'jorge-torres', or 'people/jorge-torres' where an id is ambiguous."""
    kind, _, rid = target.rpartition("/")
    kinds = [kind] if kind else list(site.model)
    return next(site.records[k][rid] for k in kinds if rid in site.records[k])


def link_read(record: Record) -> tuple[str, str, str, str, str]:
    """Return what a body link shows of the record it names (and the language of its name, where it is marked)."""
    label = record.label
    return record.collection, record.id, record.page_url, label, getattr(label, "lang", "")


def body_tokens(reads: dict[tuple[str, str], Any]) -> set[tuple]:
    """Return what a body's recorded reads (see PageContext.reads) make its page read."""
    found = set()
    for (kind, name), value in reads.items():
        found.add(token("label", value[:2]) if kind == "link" else token("record", ("sources", name)))
    return found


SOURCE_READS = {"outlet": "outlet", "language": "language", "derived": "derived_from"}  # what each kind of a body's read of a source is


def reads_hold(site: Site, reads: dict[tuple[str, str], Any]) -> bool:
    """Tell whether the site still gives what a body's HTML read when it was rendered."""
    for (kind, name), value in reads.items():
        if kind == "link":
            try:
                now: Any = link_read(link_target(site, name))
            except StopIteration:
                return False
        else:  # what a citation shows of its source: its outlet and language; or what a claim's support counts: whom it derives from
            source = site.records["sources"].get(name)
            now = getattr(source, SOURCE_READS.get(kind, "derived_from"), None) if source is not None else None
        if now != value:
            return False
    return True
