"""Watching the project's folders for edits: Linux inotify through ctypes; watchfiles elsewhere (the
system's own file events: FSEvents on macOS, ReadDirectoryChangesW on Windows); polling where
neither is available.

The kernel tells us about each write as it closes, so a save reaches the preview in a few
milliseconds instead of at the next poll. On Linux, inotify is a handful of system calls and no
dependency, with latency measured by the benchmark; watchfiles (a Rust library, well kept) gives the
same on the other systems. Every watcher reports paths relative to the project folder and calls
back on the event loop.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import os
import struct
import threading
from pathlib import Path
from typing import Callable

from tornado.ioloop import IOLoop, PeriodicCallback

IN_MODIFY, IN_ATTRIB, IN_CLOSE_WRITE = 0x2, 0x4, 0x8
IN_MOVED_FROM, IN_MOVED_TO, IN_CREATE, IN_DELETE = 0x40, 0x80, 0x100, 0x200
IN_DELETE_SELF, IN_MOVE_SELF, IN_ISDIR, IN_Q_OVERFLOW = 0x400, 0x800, 0x40000000, 0x4000
IN_NONBLOCK, IN_CLOEXEC = 0o4000, 0o2000000
MASK = IN_CLOSE_WRITE | IN_MOVED_FROM | IN_MOVED_TO | IN_CREATE | IN_DELETE | IN_DELETE_SELF | IN_MOVE_SELF | IN_ATTRIB
EVENT = struct.Struct("iIII")  # wd, mask, cookie, len; then the name, padded with NULs
POLL_SECONDS = 0.3

Callback = Callable[[set[str]], None]


class InotifyWatcher:
    """Report changed files under some folders of a project, as the kernel sees them."""

    def __init__(self, root: Path, folders: list[str], callback: Callback):
        self.root, self.folders, self.callback = root, folders, callback
        self.libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6", use_errno=True)
        self.fd = self.libc.inotify_init1(IN_NONBLOCK | IN_CLOEXEC)
        if self.fd < 0:
            raise OSError(ctypes.get_errno(), "inotify_init1 failed")
        self.watches: dict[int, str] = {}  # watch descriptor -> folder relative to root
        self.root_watch = -1  # the project folder itself, while a folder to watch is yet to be made there

    def start(self) -> None:
        """Watch every folder (and those created later) and call back from the event loop."""
        for folder in self.folders:
            self.add_tree(folder)
        if any("/" not in folder and not (self.root / folder).is_dir() for folder in self.folders):  # a project's templates/, made later
            self.root_watch = self.libc.inotify_add_watch(self.fd, os.fsencode(self.root), IN_CREATE | IN_MOVED_TO)
        IOLoop.current().add_handler(self.fd, self.read, IOLoop.READ)

    def add_tree(self, folder: str) -> None:
        """Watch a folder and every folder inside it."""
        path = self.root / folder
        if not path.is_dir():
            return
        for current, dirs, _ in os.walk(path):
            dirs[:] = [d for d in dirs if not d.startswith(".")]
            relative = Path(current).relative_to(self.root).as_posix()
            wd = self.libc.inotify_add_watch(self.fd, os.fsencode(current), MASK)
            if wd >= 0:
                self.watches[wd] = relative

    def read(self, fd: int, events: int) -> None:
        """Read every queued event and report the paths they name."""
        changed: set[str] = set()
        while True:
            try:
                data = os.read(self.fd, 65536)
            except BlockingIOError:
                break
            offset = 0
            while offset < len(data):
                wd, mask, _, length = EVENT.unpack_from(data, offset)
                name = data[offset + EVENT.size: offset + EVENT.size + length].rstrip(b"\0").decode("utf-8", "surrogateescape")
                offset += EVENT.size + length
                folder = self.watches.get(wd)
                if wd == self.root_watch and wd >= 0:
                    if name in self.folders and mask & IN_ISDIR:  # one of the folders, made at last
                        self.add_tree(name)
                        changed |= {p.relative_to(self.root).as_posix() for p in (self.root / name).rglob("*")}
                elif mask & IN_Q_OVERFLOW:
                    changed |= set(self.folders)  # too many events: look at everything again
                elif folder is not None and name:
                    changed.add(f"{folder}/{name}")
                    if mask & IN_ISDIR and mask & (IN_CREATE | IN_MOVED_TO):
                        self.add_tree(f"{folder}/{name}")
                        changed |= {p.relative_to(self.root).as_posix() for p in (self.root / folder / name).rglob("*")}
        if changed:
            self.callback(changed)

    def stop(self) -> None:
        """Stop watching."""
        IOLoop.current().remove_handler(self.fd)
        os.close(self.fd)


class WatchfilesWatcher:
    """Report changed files as watchfiles hears of them from the system, from a thread of its own."""

    def __init__(self, root: Path, folders: list[str], callback: Callback):
        import watchfiles  # where it is not installed: ImportError, and the next watcher is tried

        self.watch = watchfiles.watch
        self.root, self.folders, self.callback = root.resolve(), folders, callback
        self.stopping = threading.Event()

    def start(self) -> None:
        """Watch the folders that exist from a thread, calling back on this thread's event loop."""
        loop = IOLoop.current()
        paths = [self.root / folder for folder in self.folders if (self.root / folder).is_dir()]
        if paths:
            threading.Thread(target=self.run, args=(loop, paths), daemon=True).start()

    def run(self, loop: IOLoop, paths: list[Path]) -> None:
        """Hand each batch of changes to the event loop until stopped."""
        for changes in self.watch(*paths, watch_filter=None, step=5, debounce=200, stop_event=self.stopping, raise_interrupt=False):
            changed = {Path(path).relative_to(self.root).as_posix() for _, path in changes if Path(path).is_relative_to(self.root)}
            if changed:
                loop.add_callback(self.callback, changed)

    def stop(self) -> None:
        """Stop watching."""
        self.stopping.set()


class PollingWatcher:
    """Report changed files by comparing modification times a few times a second (without inotify)."""

    def __init__(self, root: Path, folders: list[str], callback: Callback):
        self.root, self.folders, self.callback = root, folders, callback
        self.seen = self.scan()
        self.timer = PeriodicCallback(self.poll, POLL_SECONDS * 1000)

    def scan(self) -> dict[str, tuple[int, int]]:
        """Return the modification time and size of every file in the folders."""
        found = {}
        for folder in self.folders:
            for path in (self.root / folder).rglob("*"):
                try:
                    stat = path.stat()
                except OSError:
                    continue
                if path.is_file():
                    found[path.relative_to(self.root).as_posix()] = (stat.st_mtime_ns, stat.st_size)
        return found

    def start(self) -> None:
        """Start polling."""
        self.timer.start()

    def poll(self) -> None:
        """Compare with the last scan and report what differs."""
        now = self.scan()
        changed = {path for path in set(now) | set(self.seen) if now.get(path) != self.seen.get(path)}
        self.seen = now
        if changed:
            self.callback(changed)

    def stop(self) -> None:
        """Stop polling."""
        self.timer.stop()


def watcher(root: Path, folders: list[str], callback: Callback) -> InotifyWatcher | WatchfilesWatcher | PollingWatcher:
    """Return the best watcher this system offers."""
    for kind in (InotifyWatcher, WatchfilesWatcher):
        try:
            return kind(root, folders, callback)
        except (OSError, AttributeError, ImportError):
            continue
    return PollingWatcher(root, folders, callback)
