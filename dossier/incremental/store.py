"""The linked site's parts with many small objects, kept a row per key in a SQLite file beside the
session's pickle: each record's citations and each source's cited passages (500,000 objects at
10,000 records, some 0.55 s of the 1 s that restoring the whole pickle took). The pickle holds their
keys only; a restored session reads a row when the build first asks for it (model/rows.py), so that
a build after one edit reads the rows of the records the edit touches and leaves the others.

Every keep writes the rows the build read or set (the others are as they were), under a new
generation, which the session's pickle names too: a session is restored only with the rows of its
own generation, read in one transaction (SQLite's WAL: a build that keeps its state meanwhile
changes nothing that one reads). A session restored from a generation another build has since
replaced is not kept: its unread rows are gone.
"""

from __future__ import annotations

import contextlib
import os
import pickle
import sqlite3
from pathlib import Path
from typing import Any, Callable, Iterator, Mapping

from ..check.link import Site
from ..check.site import Cited, Passage
from ..model.rows import MISSING, Rows

PARTS = ("citations", "passages")
BATCH = 500  # keys asked for in one query


class StaleRows(Exception):
    """The kept rows are no longer those of the generation a session was restored from."""


class Snapshot:
    """The kept rows of one generation, each process reading them in a transaction of its own."""

    def __init__(self, path: Path, generation: str | None = None):
        self.path = path
        self.generation = generation
        self.connection: sqlite3.Connection | None = None
        self.pid = 0

    def open(self) -> sqlite3.Connection:
        """Return this process's connection, in a transaction begun at this generation (StaleRows if the rows have moved on)."""
        if self.connection is None or self.pid != os.getpid():
            connection = sqlite3.connect(self.path, isolation_level=None, timeout=60)
            connection.execute("BEGIN")
            generation = generation_of(connection)
            if generation is None or self.generation not in (None, generation):  # None: the first to open it takes the generation it finds
                connection.close()
                raise StaleRows(f"{self.path} is no longer at generation {self.generation}")
            self.generation, self.connection, self.pid = generation, connection, os.getpid()
        return self.connection

    def read_rows(self, part: str, keys: list) -> dict:
        """Return the values kept under these keys of a part."""
        by_text = {row_key(key): key for key in keys}
        texts = list(by_text)
        found = {}
        connection = self.open()
        for start in range(0, len(texts), BATCH):
            batch = texts[start:start + BATCH]
            query = f"SELECT key, value FROM rows WHERE part = ? AND key IN ({','.join('?' * len(batch))})"
            for text, value in connection.execute(query, (part, *batch)):
                found[by_text[text]] = DECODE[part](value)
        if len(found) != len(keys):
            raise StaleRows(f"{self.path} lacks {len(keys) - len(found)} rows of {part}")
        return found

    def close(self) -> None:
        """End this process's transaction."""
        if self.connection is not None and self.pid == os.getpid():
            self.connection.close()
        self.connection = None


class KeptRows(Rows):
    """The rows of a part as kept at a generation: pickled as their keys only (see restored)."""

    def __init__(self, part: str, snapshot: Snapshot, keys: list):
        super().__init__(part, snapshot, dict.fromkeys(keys, MISSING))
        self.generation = snapshot.generation

    def __reduce__(self) -> tuple:
        return restored, (self.part, self.generation, list(self.by_key))


_restoring: list[Snapshot] = []  # the snapshot of the session being unpickled


def restored(part: str, generation: str, keys: list) -> Rows:
    """Return a part of a session being restored, its values to be read from the snapshot of its generation."""
    if not _restoring or _restoring[0].generation != generation:
        raise StaleRows(f"the kept {part} are not of generation {generation}")
    return Rows.unread(part, _restoring[0], keys)


def rows_file(state: Path) -> Path:
    """Return the rows' file of a session's pickle."""
    return state.with_name(state.name.replace("session-", "rows-").replace(".pickle", ".sqlite"))


@contextlib.contextmanager
def restoring(state: Path) -> Iterator[None]:
    """Let a session's pickle be unpickled with the rows of its generation, if they are kept."""
    path = rows_file(state)
    _restoring.clear()
    if path.exists():
        try:
            snapshot = Snapshot(path)
            snapshot.open()  # read at the generation kept now, from now on, in this process
            _restoring.append(snapshot)
        except (sqlite3.Error, StaleRows):  # none kept, or unreadable: the session is not restored
            pass
    try:
        yield
    finally:
        _restoring.clear()


def keep(state: Path, site: Site | None, save: Callable[[], Any]) -> bool:
    """Write the rows of the site's parts that its build read or set (every row of a part restored
    from no rows, or loaded afresh), under a new generation, and save (which pickles the session)
    while those parts stand as KeptRows; return False, writing nothing, when the kept rows are no
    longer the generation the site's were restored from."""
    path = rows_file(state)
    for old in path.parent.glob("rows-*"):
        if not old.name.startswith(path.name):
            old.unlink(missing_ok=True)
    connection = sqlite3.connect(path, isolation_level=None, timeout=60)
    try:
        connection.execute("PRAGMA journal_mode=WAL")
        connection.execute("CREATE TABLE IF NOT EXISTS rows (part TEXT, key TEXT, value BLOB, PRIMARY KEY (part, key))")
        connection.execute("CREATE TABLE IF NOT EXISTS meta (name TEXT PRIMARY KEY, value TEXT)")
        connection.execute("BEGIN IMMEDIATE")
        current = generation_of(connection)
        parts = {part: getattr(site, part) for part in PARTS} if site is not None else {}
        moved_on = {part for part, rows in parts.items() if isinstance(rows, Rows) and getattr(rows.source, "generation", None) != current}
        if any(any(value is MISSING for value in parts[part].by_key.values()) for part in moved_on):
            connection.execute("ROLLBACK")
            return False
        snapshot = Snapshot(path, os.urandom(8).hex())
        for part, rows in parts.items():
            write_part(connection, part, rows, whole=part in moved_on or not isinstance(rows, Rows))
        connection.execute("INSERT OR REPLACE INTO meta VALUES ('generation', ?)", (snapshot.generation,))
        try:
            for part, rows in parts.items():
                setattr(site, part, KeptRows(part, snapshot, list(rows)))
            save()
        finally:
            for part, rows in parts.items():
                setattr(site, part, rows)
        connection.execute("COMMIT")
        return True
    except BaseException:
        if connection.in_transaction:
            connection.execute("ROLLBACK")
        raise
    finally:
        connection.close()


def write_part(connection: sqlite3.Connection, part: str, rows: Any, whole: bool) -> None:
    """Write a part's rows: whole, every one (the others kept are dropped); else those that were
    read or set (the others are as kept), dropping those of keys it no longer has."""
    if whole:
        written = list(rows)
        connection.execute("DELETE FROM rows WHERE part = ?", (part,))
    else:
        written = rows.read()
        kept = {text for (text,) in connection.execute("SELECT key FROM rows WHERE part = ?", (part,))}
        gone = kept - {row_key(key) for key in rows}
        connection.executemany("DELETE FROM rows WHERE part = ? AND key = ?", [(part, text) for text in gone])
    values = rows.by_key if isinstance(rows, Rows) else rows
    connection.executemany("INSERT OR REPLACE INTO rows VALUES (?, ?, ?)",
                           ((part, row_key(key), ENCODE[part](values[key])) for key in written))


def read_whole(site: Site | None) -> None:
    """Read every row of a restored site's parts not read yet (before forking processes that would
    each read them again), and end the transaction they were read in."""
    for part in PARTS if site is not None else ():
        rows = getattr(site, part)
        if isinstance(rows, Rows):
            rows.read_all()
            if isinstance(rows.source, Snapshot):
                rows.source.close()


def generation_of(connection: sqlite3.Connection) -> str | None:
    """Return the generation of the rows a connection reads, or None where none are kept."""
    try:
        found = connection.execute("SELECT value FROM meta WHERE name = 'generation'").fetchone()
    except sqlite3.Error:
        return None
    return found[0] if found else None


def row_key(key: str | tuple[str, str]) -> str:
    """Return the text a key is kept under: a source's id, or a record's collection and id."""
    return key if isinstance(key, str) else "\0".join(key)


def encode_passages(found: Mapping[str, Passage]) -> bytes:
    """Pickle a source's cited passages a column at a time (see check/site.py Cited)."""
    return pickle.dumps(Cited.columns_of(found), protocol=pickle.HIGHEST_PROTOCOL)


def decode_passages(data: bytes) -> Cited:
    """Make a source's cited passages again from their columns."""
    return Cited(*pickle.loads(data))


ENCODE: dict[str, Callable[[Any], bytes]] = {"citations": lambda value: pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL),
                                             "passages": encode_passages}
DECODE: dict[str, Callable[[bytes], Any]] = {"citations": pickle.loads, "passages": decode_passages}
