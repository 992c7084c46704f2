"""A mapping whose values are read on first use, a row at a time, from where the last build kept them.

A site's parts with many small objects in them (each record's citations, each source's cited
passages: 500,000 objects at 10,000 records) are kept a row per key (incremental/store.py). A build
after one edit restores them as Rows: every key, and no value until one is asked for, so that it
reads the rows of the records the edit touches and not the others'. Rows behaves as a dict: its
order is its keys' order, and setting, deleting or copying it reads nothing.
"""

from __future__ import annotations

from typing import Any, Iterable, Iterator, MutableMapping, Protocol, TypeVar

K = TypeVar("K")
V = TypeVar("V")
MISSING: Any = object()  # a value not read yet


class RowSource(Protocol):
    """Where a part's rows are kept: read_rows returns the values kept under some of its keys."""

    def read_rows(self, part: str, keys: list) -> dict: ...


class Rows(MutableMapping[K, V]):
    """A part of a kept site by key, each value read from source when first asked for."""

    def __init__(self, part: str, source: RowSource, by_key: dict[K, V]):
        self.part = part
        self.source = source
        self.by_key = by_key  # every key in order, each with its value or MISSING

    @classmethod
    def unread(cls, part: str, source: RowSource, keys: Iterable[K]) -> Rows[K, V]:
        """Return the rows of a part with none of their values read yet."""
        return cls(part, source, dict.fromkeys(keys, MISSING))

    def __getitem__(self, key: K) -> V:
        value = self.by_key[key]
        if value is MISSING:
            value = self.by_key[key] = self.source.read_rows(self.part, [key])[key]
        return value

    def get(self, key: K, default: Any = None) -> Any:
        return self[key] if key in self.by_key else default

    def __setitem__(self, key: K, value: V) -> None:
        self.by_key[key] = value

    def __delitem__(self, key: K) -> None:
        del self.by_key[key]

    def __contains__(self, key: object) -> bool:
        return key in self.by_key

    def __iter__(self) -> Iterator[K]:
        return iter(self.by_key)

    def __len__(self) -> int:
        return len(self.by_key)

    def read(self) -> list[K]:
        """Return the keys whose values have been read or set."""
        return [key for key, value in self.by_key.items() if value is not MISSING]

    def read_all(self) -> dict[K, V]:
        """Read every value not read yet, in one go, and return them all as a dict."""
        unread = [key for key, value in self.by_key.items() if value is MISSING]
        if unread:
            self.by_key.update(self.source.read_rows(self.part, unread))
        return self.by_key

    def items(self) -> Any:
        return self.read_all().items()

    def values(self) -> Any:
        return self.read_all().values()

    def copy(self) -> Rows[K, V]:
        """Return a copy that shares the values read so far and reads the others from the same source."""
        return Rows(self.part, self.source, dict(self.by_key))

    def __eq__(self, other: object) -> bool:
        return dict(self.items()) == (dict(other.items()) if isinstance(other, Rows) else other)

    def __reduce__(self) -> tuple:
        """Pickle as a plain dict of every value (the store keeps rows itself: incremental/store.py)."""
        return dict, (dict(self.read_all()),)


def copied(mapping: MutableMapping[K, V]) -> MutableMapping[K, V]:
    """Return a shallow copy of a dict or of Rows (which then reads nothing)."""
    return mapping.copy() if isinstance(mapping, Rows) else dict(mapping)
