"""The linked site's shapes: a record's key, a cited passage, and the Site that linking (link.py)
hands on, the whole cross-linked documentary ready to render."""

from __future__ import annotations

import functools
import itertools
from array import array
from bisect import bisect_left
from collections.abc import Iterable, Iterator, Mapping, ValuesView
from dataclasses import dataclass, field

from ..model.record_types import BUILT_IN, Model
from ..model.schema import Citation, Record, SiteConfig, Source
from ..text.passages import SeedText

Key = tuple[str, str]  # (collection, id)


@functools.lru_cache(maxsize=1 << 16)
def shared_key(collection: str, rid: str) -> Key:
    """Return the one tuple standing for a record's key, however many links and citations name it
    (at 10,000 records, 240,000 citations and 55,000 links name 10,000 records)."""
    return (collection, rid)


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


ID_PREFIX = "passage-"  # a passage's id: this and 10 hex digits (text/passages.passage_id)


def id_number(pid: str) -> int | None:
    """Return the number a passage id's hex digits write, or None if it is not one."""
    if len(pid) != len(ID_PREFIX) + 10 or not pid.startswith(ID_PREFIX):
        return None
    try:
        number = int(pid[len(ID_PREFIX):], 16)
    except ValueError:
        return None
    return number if pid == passage_name(number) else None  # not '0x…', '1_2…' nor upper case: only passage_id's form


def passage_name(number: int) -> str:
    """Return the passage id of a number (see id_number)."""
    return f"{ID_PREFIX}{number:010x}"


class SourcePassages(Mapping[str, Passage]):
    """A source's cited passages by id, in the order of the text, kept as columns: numbers in arrays,
    the quotes and citing records in tuples; a Passage is made each time one is read. At 10,000
    records the 230,000 passages took 60 MB as objects, and both rendering processes read them all
    (so each held its own copy of every memory page they were in): columns are a few objects a source."""

    __slots__ = ("numbers", "quotes", "starts", "ends", "citers", "bounds", "sorted_numbers", "rows")

    def __init__(self, passages: Iterable[Passage] = ()) -> None:
        """Keep passages (ids made by passage_id, each once) in the order given."""
        found = list(passages)
        self.numbers = array("Q")
        for passage in found:
            number = id_number(passage.id)
            if number is None:
                raise ValueError(f"not a passage id: {passage.id!r}")
            self.numbers.append(number)
        self.quotes = tuple(p.quote for p in found)
        self.starts = array("q", [p.start for p in found])
        self.ends = array("q", [p.end for p in found])
        self.citers = tuple(key for p in found for key in p.cited_by)
        self.bounds = array("q", itertools.accumulate((len(p.cited_by) for p in found), initial=0))
        rows = sorted(range(len(found)), key=self.numbers.__getitem__)  # to find an id by bisection
        self.sorted_numbers = array("Q", [self.numbers[row] for row in rows])
        self.rows = array("q", rows)

    def __reduce__(self) -> tuple:
        """Pickle as its passages' columns (arrays pickle as bytes)."""
        return _restored, (self.numbers, self.quotes, self.starts, self.ends, self.citers, self.bounds, self.sorted_numbers, self.rows)

    def passage(self, row: int) -> Passage:
        """Return the passage at a place in the text's order."""
        return Passage(passage_name(self.numbers[row]), self.quotes[row], self.starts[row], self.ends[row],
                       self.citers[self.bounds[row]: self.bounds[row + 1]])

    def __getitem__(self, pid: str) -> Passage:
        number = id_number(pid) if isinstance(pid, str) else None
        if number is not None:
            at = bisect_left(self.sorted_numbers, number)
            if at < len(self.rows) and self.sorted_numbers[at] == number:
                return self.passage(self.rows[at])
        raise KeyError(pid)

    def __iter__(self) -> Iterator[str]:
        return map(passage_name, self.numbers)

    def __len__(self) -> int:
        return len(self.quotes)

    def values(self) -> ValuesView[Passage]:
        """Return the passages in the text's order, each made once (not looked up by its id)."""
        return PassageValues(self)


class PassageValues(ValuesView[Passage]):
    """A SourcePassages' passages, made in turn."""

    _mapping: SourcePassages

    def __iter__(self) -> Iterator[Passage]:
        return map(self._mapping.passage, range(len(self._mapping)))


def _restored(*columns: object) -> SourcePassages:
    kept = SourcePassages.__new__(SourcePassages)
    for name, column in zip(SourcePassages.__slots__, columns):
        setattr(kept, name, column)
    return kept


@dataclass
class Site:
    """The resolved documentary: records, verified citations, backlinks and timeline order."""

    config: SiteConfig
    records: dict[str, dict[str, Record]]
    seeds: dict[str, SeedText]
    citations: dict[Key, list[Citation]] = field(default_factory=dict)
    links: dict[Key, list[Key]] = field(default_factory=dict)
    mentioned_by: dict[Key, list[Key]] = field(default_factory=dict)
    events_of: dict[Key, list[str]] = field(default_factory=dict)  # events naming a record, in timeline order
    referrers: dict[Key, Referrers] = field(default_factory=dict)  # who names a record, through which field
    cited_by: dict[str, list[Key]] = field(default_factory=dict)
    passages: dict[str, Mapping[str, Passage]] = field(default_factory=dict)  # linking's SourcePassages; dicts where relinked
    derivatives: dict[str, list[str]] = field(default_factory=dict)
    timeline: list[str] = field(default_factory=list)
    model: Model = field(default_factory=lambda: dict(BUILT_IN))
    media: dict = field(default_factory=dict)  # the images of media/ by name (model/media.py), set beside the linked records

    def __getstate__(self) -> dict:
        """Pickle each source's passages as columns (SourcePassages): the 230,000 passages of 10,000
        records pickled one object at a time took 0.8 s of the 2.2 s that saving a build's session takes."""
        passages = {source: found if isinstance(found, SourcePassages) else SourcePassages(found.values()) for source, found in self.passages.items()}
        return {**self.__dict__, "passages": passages}

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
