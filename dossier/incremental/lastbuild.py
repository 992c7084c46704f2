"""The last build's state, kept in .dossier-cache/: a summary to tell at once that nothing changed,
and the session itself, so that the next build reads, relinks and renders only what changed since."""

from __future__ import annotations

import gc
import os
import sqlite3
import sys
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, NoReturn
from pathlib import Path

from . import cache, store
from .cache import BodyCache
from .inputs import InputScan, Stat, scan_inputs
from ..model.problems import Problem
from ..publish.folders import FolderTimes, folder_times, listed_files, removal, remove_tree
from ..timings import layer

# How long the process that keeps a build's state waits for the build's process to exit before it
# begins: pickling the state reads every object, which copies each memory page the two still share
# (some 120 MB in the 0.1 s a build at 10,000 records takes to exit). The command line's build exits
# at once; a program that calls build() and goes on waits for the state this much longer.
BUILD_EXIT_WAIT = 2.0
# The session whose state a forked process keeps, held here by the build's process to its exit:
# freed when the build returns, its millions of objects would be written to one by one (0.1 s at
# 10,000 records), each memory page copied while the keeping process still shares it.
_held_to_exit: list[Session] = []

if TYPE_CHECKING:
    from .session import Session

@dataclass
class Summary:
    """What a build leaves for the next one to check quickly: its inputs, its output files and problems."""

    inputs: dict[str, bytes]  # digest of every input file
    published: tuple[str, dict[str, tuple[int, int]]]  # where it went, and each file's size and time
    problems: list[Problem]
    stats: dict[str, Stat]  # what the file system said of each input file when the build scanned it
    scanned: int  # when that scan began (time.time_ns())
    folders: FolderTimes | None = None  # the times of the output's folders, noted once it was published


def known_folders(summary: Summary | None, out: Path) -> FolderTimes | None:
    """Return the times of out's folders as the last build noted them, if it published there."""
    if summary is None or summary.published[0] != str(out.resolve()):
        return None
    return summary.folders


def intact(published: tuple[str, dict[str, tuple[int, int]]] | None, out: Path) -> bool:
    """Tell whether out still holds exactly the files a build published there, as it left them: the
    same size, and the same time of last change to within a second (an archive keeps whole seconds,
    or a rounded fraction of one: a deploy restores the last site from one)."""
    if published is None or published[0] != str(out.resolve()):
        return False
    base = str(out)
    for path, expected in published[1].items():
        try:
            stat = os.stat(os.path.join(base, path))  # not Path: 15,000 files at 10,000 records
        except OSError:
            return False
        size, changed = expected
        if stat.st_size != size or abs(stat.st_mtime_ns - changed) >= 1_000_000_000:
            return False
    return True


def kept_summary(root: Path, options: tuple) -> Summary | None:
    """Return the summary the last build with these options kept, if any (the project is left as it
    is: the output folder is yet to be checked)."""
    if not (root / cache.FOLDER).is_dir():
        return None
    with layer("scan inputs"), cache.state_locked(root):
        summary = cache.load(cache.state_file(root, options, "summary"))
    return summary if isinstance(summary, Summary) else None


def last_build(root: Path, out: Path, summary: Summary | None) -> tuple[Summary | None, InputScan]:
    """Return the last build's summary (as kept_summary found it) when no input changed since and
    out is as it left it (there is nothing to do), and the inputs as they are now (only the files
    that the file system says changed since the last build are read: see scan_inputs)."""
    with layer("scan inputs"):
        known = InputScan(summary.inputs, summary.stats, summary.scanned) if summary is not None else None
        scan = scan_inputs(root, known)
    if summary is not None and summary.inputs == scan.digests and intact(summary.published, out):
        return summary, scan
    return None, scan


def open_session(root: Path, out: Path, *, portable: bool = False, base_url: str | None = None, use_cache: bool = True,
                 inputs: InputScan | None = None, drafts: str = "out", defer_audit: bool = False, processes: int = 1) -> tuple[Session, Path | None]:
    """Return a session for building root into out, brought up to date, and the folder holding its
    last output (None when everything must be rendered): restored from the cache when the last build
    used the same code and options, else loaded afresh. inputs: the inputs as they are, if scanned.
    defer_audit: a session loaded afresh leaves its editorial warnings to be worked out later
    (the rendering processes' parent does it while they render: see pool.render_pages). processes:
    how many may read a large project's files, and link its records (see forked.in_two_processes)."""
    from .session import Session  # imported here: a build with nothing to do never needs it

    from ..render.environment import COMPILED

    session = None
    if use_cache:
        state = cache.state_file(root, (portable, base_url, drafts))
        with layer("restore state"), cache.state_locked(root):
            session = restore(state)
    previous: Path | None = None
    if isinstance(session, Session) and session.site is not None:
        session.inputs.root = root
        COMPILED.take(session.output.templates)
        session.linked.processes = processes  # for a relink of the whole site, if an edit needs one
        changed = session.inputs.changed(inputs.digests if inputs is not None else None)
        if changed:
            session.take(session.inputs.refresh(changed))
        if inputs is not None:
            session.inputs.scan = inputs
        previous = out if intact(session.output.published, out) and set(session.output.published[1]) == set(session.output.written) else None  # type: ignore[index]
    else:
        session = Session(root, portable=portable, base_url=base_url, drafts=drafts, defer_audit=defer_audit)
        session.load(inputs, processes)
        gc.freeze()  # it lives to the build's end: the collector need not walk its millions of objects again (as restored: cache.load)
    session.output.body_cache = BodyCache(root / cache.FOLDER / "bodies.sqlite") if use_cache else None
    return session, previous


def restore(state: Path) -> Session | None:
    """Return the session kept in a state file, with its rows (see store.py), or None."""
    with store.restoring(state):
        return cache.load(state, freeze=True)


def close_session(session: Session, out: Path, use_cache: bool = True, background: bool = False, aside: Path | None = None) -> bool:
    """Note what the build published, and keep the session (and a summary of it) for the next build;
    delete aside (the site the build replaced, moved aside). With background, a forked process
    keeps them while this one goes on (the build returns before they are written, as `git gc --auto`
    does its work): it holds the state's lock until they are, so that the next build waits for them
    (cache.lock_state), then deletes aside. The process that forks must have no other thread that
    could hold a lock the keeping needs. CI=true keeps them before returning, for a job that saves
    the cache folder when the build ends. Return whether a forked process took over."""
    if session.output.body_cache is not None:
        session.output.body_cache.close()
    if background and use_cache and hasattr(os, "fork") and not os.environ.get("CI"):
        held = cache.lock_state(session.root)
        if held is not None:
            sys.stdout.flush()
            sys.stderr.flush()
            if os.fork() == 0:
                keep_detached(session, out, held, aside, os.getppid())  # never returns
            os.close(held)  # the forked process holds the lock until it is done
            _held_to_exit[:] = [session]  # the last one only, for a program that builds again
            return True
    removing = removal(aside) if aside is not None else None  # while the session is kept
    note_published(session, out)
    if use_cache:
        with layer("keep state"):
            keep_session(session)
    if removing is not None:
        with layer("publish"):
            removing.join()
    return False


def keep_detached(session: Session, out: Path, held: int, aside: Path | None, build: int) -> NoReturn:
    """In the forked process of close_session: once the build's process (build) has exited, or after
    BUILD_EXIT_WAIT, keep the session, apart from the terminal and the streams of the build (whoever
    waits for the build's output must not wait for this), let go of the state's lock, delete the
    old site, and exit."""
    try:
        os.setsid()  # a Ctrl+C in the terminal afterwards is not for it
        waited = time.monotonic() + BUILD_EXIT_WAIT
        while os.getppid() == build and time.monotonic() < waited:  # its parent changes when the build's process exits
            time.sleep(0.005)
        quiet = os.open(os.devnull, os.O_RDWR)
        for stream in (0, 1, 2):
            os.dup2(quiet, stream)
        if aside is not None:  # named after this process, which a later build's recovery leaves alone while it runs
            try:
                aside = aside.rename(aside.with_name(f"{aside.name.rpartition('-')[0]}-{os.getpid()}"))
            except OSError:
                aside = None
        note_published(session, out)
        keep_session(session)
        os.close(held)  # the next build may read the state now
        if aside is not None:
            remove_tree(aside)
    finally:
        os._exit(0)


def note_published(session: Session, out: Path) -> None:
    """Note the size and time of each file the build published, to tell at the next build that out is as it left it."""
    files = {}
    base = str(out)
    for path in session.output.written:
        stat = os.stat(os.path.join(base, path))  # not Path: 15,000 files at 10,000 records
        files[path] = (stat.st_size, stat.st_mtime_ns)
    session.output.published = (str(out.resolve()), files)
    session.output.folders = folder_times(out, listed_files(out))  # its marker's list holds the search bundle too


def keep_session(session: Session) -> bool:
    """Save the session, with the templates this process compiled (render/environment.py
    CompiledTemplates), and then a summary of it, for the next build; return whether they were kept
    (not where another build has kept its state since this session was restored: see store.keep)."""
    from ..render.environment import COMPILED

    session.output.templates = COMPILED.compiled
    options = (session.output.portable, session.linked.base_url, session.linked.draft_mode)
    cache.save(cache.state_file(session.root, options, "summary"), None)  # never a summary without its session
    state = cache.state_file(session.root, options)
    if session.output.rendered is not None and session.output.rendered is not session.site:
        store.read_whole(session.output.rendered)  # the site before an edit that failed: pickled whole
    try:
        kept = store.keep(state, session.site, lambda: cache.save(state, session))
    except (OSError, sqlite3.Error):
        kept = False
    if not kept:  # another build kept its state since this one was restored: that state stays
        return False
    assert session.output.published is not None
    cache.save(cache.state_file(session.root, options, "summary"), Summary(session.inputs.digests, session.output.published, session.problems,
                                                                            session.inputs.scan.stats, session.inputs.scan.started, session.output.folders))
    return True
