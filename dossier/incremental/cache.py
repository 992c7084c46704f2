"""The build cache, in .dossier-cache/ beside content/: safe to delete at any time.

Two things are kept. Rendered Markdown bodies, in a small SQLite file, each under a digest of
dossier's build code, the body, the page's address and the passages cited before it, and
kept with what its rendering read of other records (the names and addresses its links show, the
outlets its citations name, whom the sources its claims cite derive from: render.context.PageContext.reads), which must still hold for it to be taken;
templates do not affect them, so a template edit reuses every body. And the last build's session (session.py) with a list of the
files it published, so that the next build reads, relinks and renders only what changed since.
The session is only reused by the same code, Python and options; anything else builds afresh.
"""

from __future__ import annotations

import contextlib
import gc
import hashlib
import os
import pickle
import sqlite3
import sys
import zlib
from importlib import metadata
from pathlib import Path
from typing import Any, Iterator


FOLDER = ".dossier-cache"
PACKAGE = Path(__file__).resolve().parent.parent
# The command line and the preview: no module a build runs imports them (tests/test_structure.py), so
# they change no built file.
NOT_BUILD_CODE = ("cli.py", "serve/")
LIBRARIES = ("markdown", "nh3", "jinja2", "pyyaml", "markupsafe")
MOST_BODIES = 4  # times the number of pages before the body cache is emptied and refilled
HELD_BYTES = 4 << 20  # compressed bodies a process holds before writing them: a large site's would otherwise wait to its end (48 MB at 10,000 records)


def code_version() -> str:
    """Return a digest of dossier's build code (every module of the package, at any depth, but
    NOT_BUILD_CODE), Python's and the libraries' versions. Rendered bodies are kept under it too:
    a body's HTML is made by modules all over the package (the claim anchors are placed by the
    sentences' reading, the links by the linked site), and naming them by hand forgets some."""
    digest = hashlib.blake2b(digest_size=16)
    digest.update(sys.version.encode())
    for library in LIBRARIES:
        try:
            digest.update(f"{library}={metadata.version(library)};".encode())
        except metadata.PackageNotFoundError:
            pass
    for name, path in sorted((path.relative_to(PACKAGE).as_posix(), path) for path in PACKAGE.rglob("*.py")):
        if not name.startswith(NOT_BUILD_CODE):
            digest.update(f"{name}\0{path.stat().st_size}\0".encode() + path.read_bytes())
    return digest.hexdigest()


class BodyCache:
    """Rendered Markdown bodies by a digest of what they depend on, in a SQLite file shared by processes."""

    def __init__(self, path: Path):
        self.path = path
        self.version = code_version()
        self.connection: sqlite3.Connection | None = None
        self.pid = 0
        self.new: dict[bytes, bytes] = {}  # stored but not yet written
        self.held = 0  # their bytes

    def open(self) -> sqlite3.Connection | None:
        """Return this process's connection (a forked worker opens its own); None if the cache is unusable."""
        if self.connection is None or self.pid != os.getpid():
            self.pid, self.new, self.held, self.connection = os.getpid(), {}, 0, None
            for _attempt in range(2):
                try:
                    self.path.parent.mkdir(parents=True, exist_ok=True)
                    connection = sqlite3.connect(self.path, timeout=60, isolation_level=None)
                    connection.execute("PRAGMA journal_mode=WAL")
                    connection.execute("PRAGMA synchronous=OFF")
                    connection.execute("CREATE TABLE IF NOT EXISTS bodies (key BLOB PRIMARY KEY, value BLOB)")
                    self.connection = connection
                    break
                except (sqlite3.Error, OSError):
                    for damaged in self.path.parent.glob(self.path.name + "*"):  # start again with an empty cache
                        damaged.unlink(missing_ok=True)
        return self.connection

    def key(self, url: str, body: str, portable: bool, first: list[tuple[str, str]]) -> bytes:
        """Return the key a body is kept under: the code that renders it, its page's address, its
        text, and the passages its page cites before it (they take the first reference numbers).
        What it reads of other records is kept with it and checked when it is taken."""
        parts = [self.version, url, portable, body, first]
        return hashlib.blake2b(repr(parts).encode("utf-8"), digest_size=20).digest()

    def get(self, key: bytes) -> Any:
        """Return what was stored under a key, or None."""
        connection = self.open()
        try:
            row = connection.execute("SELECT value FROM bodies WHERE key = ?", (key,)).fetchone() if connection else None
            return pickle.loads(zlib.decompress(row[0])) if row else None
        except Exception:  # a damaged entry is a miss
            return None

    def put(self, key: bytes, value: Any) -> None:
        """Store a value under a key: written by flush, at the latest once HELD_BYTES are waiting."""
        if self.open() is not None:
            data = self.new[key] = zlib.compress(pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL), 1)
            self.held += len(data)
            if self.held > HELD_BYTES:
                self.flush()

    def flush(self) -> None:
        """Write what was stored, in one transaction."""
        if self.connection is None or self.pid != os.getpid() or not self.new:
            return
        connection, self.new, new, self.held = self.connection, {}, self.new, 0
        try:
            connection.execute("BEGIN IMMEDIATE")  # takes the write lock first, waiting for other processes
            connection.executemany("INSERT OR REPLACE INTO bodies VALUES (?, ?)", new.items())
            connection.execute("COMMIT")
        except sqlite3.Error:  # not kept this time
            if connection.in_transaction:
                connection.execute("ROLLBACK")

    def trim(self, pages: int) -> None:
        """Empty the cache if it holds far more bodies than the site has pages (most then belong to
        earlier versions of the code or of the bodies): before a render, which stores its own."""
        connection = self.open()
        try:
            if connection is not None and connection.execute("SELECT count(*) FROM bodies").fetchone()[0] > MOST_BODIES * pages:
                connection.execute("DELETE FROM bodies")
        except sqlite3.Error:  # left as it is
            pass

    def close(self) -> None:
        """Write what was stored and close this process's connection."""
        if self.connection is not None and self.pid == os.getpid():
            self.flush()
            self.connection.close()
        self.connection = None

    def __getstate__(self) -> dict:
        return {"path": self.path, "version": self.version, "connection": None, "pid": 0, "new": {}, "held": 0}


def state_file(root: Path, options: tuple, kind: str = "session") -> Path:
    """Return where the session (or its summary) of a project built with these options is kept."""
    name = hashlib.blake2b(repr((code_version(), options)).encode(), digest_size=8).hexdigest()
    return root / FOLDER / f"{kind}-{name}.pickle"


def lock_state(root: Path) -> int | None:
    """Take the lock on a project's kept state (its session and summary), waiting for a build that
    is still writing them after it returned (see lastbuild.close_session); return the descriptor
    that holds it (closing it lets go), or None where there is no lock to take."""
    try:
        import fcntl

        (root / FOLDER).mkdir(parents=True, exist_ok=True)
        held = os.open(root / FOLDER / "state.lock", os.O_RDWR | os.O_CREAT, 0o644)
    except (ImportError, OSError):  # no advisory locks here, or a folder that cannot be written: the state is not kept either
        return None
    try:
        fcntl.flock(held, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        print("dossier: waiting for the last build to finish keeping its state", file=sys.stderr, flush=True)
        fcntl.flock(held, fcntl.LOCK_EX)
    return held


@contextlib.contextmanager
def state_locked(root: Path) -> Iterator[None]:
    """Hold the lock on a project's kept state while reading it (see lock_state)."""
    held = lock_state(root)
    try:
        yield
    finally:
        if held is not None:
            os.close(held)


def save(path: Path, value: Any) -> None:
    """Pickle a value to a file atomically, dropping older files of its kind; a cache that cannot be written is not kept."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        kind = path.name.partition("-")[0]
        for old in path.parent.glob(f"{kind}-*.pickle"):
            if old != path:
                old.unlink(missing_ok=True)
        temporary = path.with_name(f".{path.name}.{os.getpid()}")
        with collecting_paused(), open(temporary, "wb") as file:
            pickle.dump(value, file, protocol=pickle.HIGHEST_PROTOCOL)
        os.replace(temporary, path)
    except OSError:
        pass


def load(path: Path, *, freeze: bool = False) -> Any:
    """Return what a cache file holds, or None if it is missing or unreadable. freeze: what it holds
    lives to the end of the build, and the collector is to leave it alone (see collecting_paused)."""
    try:
        with collecting_paused(freeze), open(path, "rb") as file:
            return pickle.load(file)
    except Exception:  # a stale or damaged cache is a miss, never an error
        return None


@contextlib.contextmanager
def collecting_paused(freeze: bool = False) -> Iterator[None]:
    """Pause the garbage collector: (un)pickling a large site makes millions of objects, none of them
    garbage. With freeze, they are then put where the collector never looks (gc.freeze, until
    gc.unfreeze): else its next pass walks every one of them, as they are all new (0.45 s after
    restoring a build's session at 10,000 records, measured), and later passes again."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if freeze:
            gc.freeze()
        if enabled:
            gc.enable()
