"""The linked site's shapes: a record's key, a cited passage, and the Site that linking (link.py)
hands on, the whole cross-linked documentary ready to render."""

from __future__ import annotations

import functools
from array import array
from dataclasses import dataclass, field
from typing import Any, Iterable, Iterator, Mapping, MutableMapping, Sequence

from ..model.record_types import BUILT_IN, Model
from ..model.rows import Rows
from ..model.schema import Citation, Record, SiteConfig, Source, citation_again
from ..text.passages import SeedText

Key = tuple[str, str]  # (collection, id)


@functools.lru_cache(maxsize=1 << 16)
def shared_key(collection: str, rid: str) -> Key:
    """Return the one tuple standing for a record's key, however many links and citations name it
    (at 10,000 records, 240,000 citations and 55,000 links name 10,000 records)."""
    return (collection, rid)


@functools.lru_cache(maxsize=1 << 16)
def cited_only_by(key: Key) -> tuple[Key]:
    """Return the one tuple standing for a passage's citers where a record alone cites it, as most
    passages are (at 10,000 records, 225,000 passages cited by 10,000 records: 10 MB as a tuple each)."""
    return (key,)


Referrers = dict[tuple[str, str], list[str]]  # (collection, field) -> ids of the records whose field names a record


@dataclass(slots=True)  # many: one per cited passage
class Passage:
    """A cited passage of a source: where it is in the text and which pages cite it."""

    id: str
    quote: str
    start: int
    end: int
    cited_by: tuple[Key, ...] = ()  # a tuple: most passages have one citer (a list took 40 bytes more, for each of 230,000 at 10,000 records)

    def __reduce__(self) -> tuple:
        """Pickle as the arguments that make it, as Citation does: 230,000 passages at 10,000 records."""
        return Passage, (self.id, self.quote, self.start, self.end, self.cited_by)

    def order(self) -> tuple[int, int, str]:
        """Return where a passage comes in its source's list: by position in the text."""
        return self.start, self.end, self.id


class Cited(Mapping[str, Passage]):
    """A source's cited passages by id, in their order, kept a column a field and made a Passage at
    a time when read: a linked site holds 233,000 at 10,000 records, which as objects (with their
    offsets as numbers) took 24 MB more, and each process rendering pages copies what it reads."""

    __slots__ = ("at", "quotes", "spans", "citers")

    def __init__(self, ids: Iterable[str] = (), quotes: Iterable[str] = (), starts: Iterable[int] = (), ends: Iterable[int] = (),
                 citers: Iterable[tuple[Key, ...]] = ()) -> None:
        self.at = {pid: number for number, pid in enumerate(ids)}  # where each passage's fields are in the columns
        self.quotes = list(quotes)
        self.spans = array("I", (offset for span in zip(starts, ends) for offset in span))  # start and end of each
        self.citers = list(citers)

    @classmethod
    def of(cls, passages: Iterable[Passage]) -> Cited:
        """Return these passages, in this order, as columns."""
        found = list(passages)
        return cls([p.id for p in found], [p.quote for p in found], [p.start for p in found], [p.end for p in found], [p.cited_by for p in found])

    def __getitem__(self, pid: str) -> Passage:
        number = self.at[pid]
        return Passage(pid, self.quotes[number], self.spans[2 * number], self.spans[2 * number + 1], self.citers[number])

    def __iter__(self) -> Iterator[str]:
        return iter(self.at)

    def __len__(self) -> int:
        return len(self.at)

    def __contains__(self, pid: object) -> bool:
        return pid in self.at

    def columns(self) -> tuple[list[str], list[str], list[int], list[int], list[tuple[Key, ...]]]:
        """Return the passages' ids, quotes, starts, ends and citers, each in a list (as pickled)."""
        return list(self.at), self.quotes, list(self.spans[0::2]), list(self.spans[1::2]), self.citers

    @staticmethod
    def columns_of(found: Mapping[str, Passage]) -> tuple[list[str], list[str], list[int], list[int], list[tuple[Key, ...]]]:
        """Return the columns of a source's passages, kept as columns or (relinked) a dict of them."""
        return (found if isinstance(found, Cited) else Cited.of(found.values())).columns()

    def __reduce__(self) -> tuple:
        return Cited, self.columns()


class RecordCitations(Sequence[Citation]):
    """A record's verified citations, in their order, kept a column a field and made a Citation at a
    time when read: a linked site holds 268,000 at 10,000 records, which as objects (with their
    columns as numbers) took 15 MB more, in every process that renders pages."""

    __slots__ = ("sources", "quotes", "numbers")
    WIDTH = 5  # numbers a citation: line, source_line, column, source_column, sole

    def __init__(self, sources: list[str], quotes: list[str], numbers: array) -> None:
        self.sources, self.quotes, self.numbers = sources, quotes, numbers

    @classmethod
    def of(cls, citations: Iterable[Citation]) -> RecordCitations:
        """Return these citations, in this order, as columns."""
        found = list(citations)
        return cls([c.source for c in found], [c.quote for c in found],
                   array("I", (n for c in found for n in (c.line, c.source_line, c.column, c.source_column, c.sole))))

    def __getitem__(self, index: Any) -> Any:
        if isinstance(index, slice):
            return list(self)[index]
        number = range(len(self.sources))[index] * self.WIDTH  # a negative index counts from the end, as a list's
        line, source_line, column, source_column, sole = self.numbers[number: number + self.WIDTH]
        return citation_again(self.sources[number // self.WIDTH], self.quotes[number // self.WIDTH], line, bool(sole), source_line, column, source_column)

    def __iter__(self) -> Iterator[Citation]:
        numbers, width = self.numbers, self.WIDTH
        for index, (source, quote) in enumerate(zip(self.sources, self.quotes)):
            line, source_line, column, source_column, sole = numbers[index * width: index * width + width]
            yield citation_again(source, quote, line, bool(sole), source_line, column, source_column)

    def __len__(self) -> int:
        return len(self.sources)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, (list, RecordCitations)) and list(self) == list(other)

    __hash__ = None  # type: ignore[assignment]  # compared as the list it stands for

    def __repr__(self) -> str:
        return repr(list(self))

    def __reduce__(self) -> tuple:
        return RecordCitations, (self.sources, self.quotes, self.numbers)


@dataclass
class Site:
    """The resolved documentary: records, verified citations, backlinks and timeline order."""

    config: SiteConfig
    records: dict[str, dict[str, Record]]
    seeds: dict[str, SeedText]
    citations: MutableMapping[Key, Sequence[Citation]] = field(default_factory=dict)  # RecordCitations; Rows of them when restored (model/rows.py)
    links: dict[Key, list[Key]] = field(default_factory=dict)
    mentioned_by: dict[Key, list[Key]] = field(default_factory=dict)
    events_of: dict[Key, list[str]] = field(default_factory=dict)  # events naming a record, in timeline order
    referrers: dict[Key, Referrers] = field(default_factory=dict)  # who names a record, through which field
    cited_by: dict[str, list[Key]] = field(default_factory=dict)
    passages: MutableMapping[str, Mapping[str, Passage]] = field(default_factory=dict)  # Rows when restored; each source's Cited once linked
    derivatives: dict[str, list[str]] = field(default_factory=dict)
    timeline: list[str] = field(default_factory=list)
    model: Model = field(default_factory=lambda: dict(BUILT_IN))
    media: dict = field(default_factory=dict)  # the images of media/ by name (model/media.py), set beside the linked records

    def __getstate__(self) -> dict:
        """Pickle the passages a column at a time, each source's ids, quotes, offsets and citing
        records in lists: the 230,000 passages of 10,000 records pickled one object at a time took
        0.8 s of the 2.2 s that saving a build's session takes."""
        if isinstance(self.passages, Rows):  # kept a row a source (incremental/store.py)
            return dict(self.__dict__)
        columns = {source: Cited.columns_of(found) for source, found in self.passages.items()}
        return {**self.__dict__, "passages": columns}

    def __setstate__(self, state: dict) -> None:
        """Make the passages again from their columns (see __getstate__), each column mapped at once
        (a fifth quicker than a comprehension: 233,000 passages at 10,000 records)."""
        passages = state["passages"]
        if not isinstance(passages, Rows):
            passages = {source: Cited(*fields) for source, fields in passages.items()}
        self.__dict__.update(state, passages=passages)

    def get(self, key: Key) -> Record:
        """Return the record with this (collection, id) key."""
        return self.records[key[0]][key[1]]

    def seed_of(self, source: Source) -> SeedText:
        """Return the stored text of a source."""
        return self.seeds[source.seed]

    def all_records(self) -> list[Record]:
        """Return every linkable record in a stable order."""
        return [self.records[kind][rid] for kind in self.model for rid in sorted(self.records[kind])]

    def named_by(self, key: Key, collection: str, field_name: str) -> list[Record]:
        """Return the records of a collection whose field names this record, in their list's order."""
        records = self.records[collection]
        return [records[rid] for rid in self.referrers.get(key, {}).get((collection, field_name), [])]


def default_config() -> SiteConfig:
    """Return settings for a project without content/site.yaml."""
    return SiteConfig(collection="site", id="site", path="content/site.yaml", title="Dossier")
