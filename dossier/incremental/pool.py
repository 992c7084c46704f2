"""The process pool that renders a large site's pages: this process and forked workers take chunks
of pages in turn, each writing its pages into the staging folder and sending back their digests,
which of them search indexes and how they change the count of each word."""

from __future__ import annotations

import ctypes
import gc
import multiprocessing
import os
from collections import Counter
from multiprocessing.connection import Connection
from typing import Any

from ..model.i18n import LANGUAGES
from ..forked import send_from_worker, worker_result
from ..render.timeline import render_entries_once
from ..timings import layer, page_layer, take_report
from . import store

_JOB: tuple[Any, Any, list[list[str]], Any, int] | None = None  # what forked workers render, and how many pages each at most: set just before forking
FEW_PAGES = 1000  # rendering this many pages or fewer leaves too little memory to hand back to be worth a full collection (0.6 s at 10,000 records)
PARALLEL_FROM = 64  # pages; fewer render faster in the process that has them
CHUNK = 16  # pages a process takes at a time
# Pages a forked worker renders before it ends and another is forked in its place: a memory page of
# the site that either process writes to (reading an object writes its reference count) is copied,
# and the copies add up over a worker's life (at 10,000 records, 200 MB over 9,500 pages).
WORKER_PAGES = 1200
# Rendered in a round of their own, whose worker ends before the workers of the other pages are forked:
# what only these pages read is then read by no process after that fork, so stays shared rather than
# copied into each (reading an object writes its reference count, and a memory page written after the
# fork is copied). At 10,000 records: the claims of every record, some 50 MB, and the cited passages of
# every source, some 60 MB, of which record pages read little.
FIRST_ROUND = ("pages: claims", "pages: sources")
# Each of these pages reads much of the site (a claims page, claims of every record; a source page,
# the records that cite each passage), so a worker of the first round copies most of it within a few
# pages: its workers render fewer each. At 10,000 records, with 1,200 the round's peak was 642 MB, with
# 64, 554 MB, for about 1.5% more CPU time in the build (several forks, each copying again what it reads).
FIRST_ROUND_WORKER_PAGES = 64
BIG_PAGES = ("timeline", "pages: sources", "pages: indexes")  # rendered first: the last chunks, small pages, end the processes' work together


def render_claimed(most: int | None = None) -> tuple[dict[str, bytes], set[str], Counter[str], dict[str, tuple]]:
    """Render chunks of the pages being built until none is left (or most pages are rendered),
    taking the next one not taken by another process; return the pages' digests, which of them
    search indexes, how they change the count of each word, and what each read."""
    assert _JOB is not None
    session = _JOB[0]
    digests = render_chunks(most)
    if session.output.body_cache is not None:
        session.output.body_cache.flush()
    changes, session.words.changes = session.words.changes, Counter()
    return digests, {path for path in digests if path in session.words.searchable}, changes, {path: session.output.reads[path] for path in digests if path in session.output.reads}  # as tuples: each process numbers tokens its own way


def render_chunks(most: int | None = None) -> dict[str, bytes]:
    """Render the next chunks not taken by another process until none is left (or most pages are rendered); return their digests."""
    assert _JOB is not None
    session, sink, chunks, claimed, _ = _JOB
    digests: dict[str, bytes] = {}
    while most is None or len(digests) < most:
        with claimed.get_lock():
            number = claimed.value
            if number >= len(chunks):
                break
            claimed.value += 1
        for path in chunks[number]:
            digests[path] = render_page(session, sink, path)
    return digests


def render_page(session: Any, sink: Any, path: str) -> bytes:
    """Render one page of a session into a sink, its CPU counted to its kind's layer; return its digest."""
    with layer(page_layer(path, LANGUAGES)):
        return session.emit(sink, path, session.output.pages[path]())


def render_pages(session: Any, paths: list[str], sink: Any, workers: int) -> dict[str, bytes]:
    """Render a session's pages into a sink (a staging folder, or memory): with many pages (and a
    folder), in two rounds of this process and workers - 1 forked ones taking chunks in turn (a
    process fewer than workers, as each holds the site's memory): first the pages of the FIRST_ROUND,
    then, with workers forked after them, the rest."""
    if workers <= 1 or len(paths) < PARALLEL_FROM or not hasattr(os, "fork") or sink.in_memory:
        return render_here(session, sink, paths)
    early = [path for path in paths if page_layer(path, LANGUAGES) in FIRST_ROUND]
    digests = render_forked(session, big_first(early), sink, workers, audit=False, worker_pages=FIRST_ROUND_WORKER_PAGES)  # their workers end before the next are forked
    render_entries_once(session.output.renderer, paths, session.output.pages)  # shared with the workers, not rendered by each
    digests.update(render_forked(session, big_first([path for path in paths if path not in digests]), sink, workers, audit=True, worker_pages=WORKER_PAGES))
    return digests


def render_here(session: Any, sink: Any, paths: list[str]) -> dict[str, bytes]:
    """Render pages in this process alone, their bodies then written to the body cache; return their digests."""
    digests = {path: render_page(session, sink, path) for path in paths}
    if session.output.body_cache is not None:
        session.output.body_cache.flush()
    return digests


def render_forked(session: Any, paths: list[str], sink: Any, workers: int, audit: bool, worker_pages: int) -> dict[str, bytes]:
    """Render pages, in their order, by this process and workers - 1 forked ones taking chunks in
    turn (in this process alone if they are few), each worker rendering worker_pages at most; with
    audit, this process first works out the editorial warnings while the workers render (else the
    build does, after)."""
    global _JOB
    if len(paths) < PARALLEL_FROM:
        return render_here(session, sink, paths)
    if session.output.body_cache is not None:
        session.output.body_cache.close()  # each worker opens its own connection
    store.read_whole(session.site)  # read once, here, where the workers share it
    context = multiprocessing.get_context("fork")
    chunks = [paths[start: start + CHUNK] for start in range(0, len(paths), CHUNK)]
    _JOB = (session, sink, chunks, context.Value("l", 0), worker_pages)
    running: list[tuple[multiprocessing.process.BaseProcess, Connection]] = []
    try:
        for _ in range(workers - 1):
            running.append(fork_worker(context, running))
        if audit:
            session.audit()  # a fresh build's editorial warnings, deferred to be worked out here while the workers render
        digests: dict[str, bytes] = {}
        while rendered := render_chunks(CHUNK):  # a chunk at a time, seeing after each to the workers that are done
            digests.update(rendered)
            for done in [worker for worker in running if worker[1].poll()]:
                take_result(session, digests, *done)
                running.remove(done)
                if _JOB[3].value < len(chunks):  # another takes its place, sharing what this process holds now
                    running.append(fork_worker(context, running))
        while running:
            take_result(session, digests, *running.pop(0))
        if session.output.body_cache is not None:
            session.output.body_cache.flush()
    finally:
        for process, reader in running:
            if process.is_alive():
                process.terminate()
            process.join()
            reader.close()
        _JOB = None  # what was frozen stays so, for the pages still to render: the build unfreezes it at its end
    return digests


def fork_worker(context: Any, others: list[tuple[Any, Connection]]) -> tuple[multiprocessing.process.BaseProcess, Connection]:
    """Fork a worker that renders its round's number of pages at most (others: the workers forked before it); return it and the end of its pipe."""
    gc.freeze()  # workers share the parent's objects without the collector touching (and copying) them
    reader, writer = context.Pipe(duplex=False)
    readers = [reader, *(earlier for _, earlier in others)]  # each the parent's alone to read
    process: multiprocessing.process.BaseProcess = context.Process(target=render_in_worker, args=(writer, readers), daemon=True)
    process.start()
    writer.close()
    return process, reader


def take_result(session: Any, digests: dict[str, bytes], process: multiprocessing.process.BaseProcess, reader: Connection) -> None:
    """Take in what a worker that is done rendered: its pages' digests, what they read, and how they change the words search counts."""
    try:
        (part, searchable, words, reads), cpu = worker_result(process, reader)
    finally:
        process.join()
        reader.close()
    take_report(cpu)
    digests.update(part)
    session.output.reads.update(reads)
    session.words.changes.update(words)
    session.words.searchable.difference_update(part)
    session.words.searchable.update(searchable)


def big_first(paths: list[str]) -> list[str]:
    """Return pages in the order the processes take them: the timeline's, the sources' and the
    indexes (the largest) first, so that the last chunks, record pages, end every process's work
    at about the same time; by path within each."""
    return sorted(paths, key=lambda path: (page_layer(path, LANGUAGES) not in BIG_PAGES, path))


def render_in_worker(writer: Connection, inherited: list[Connection]) -> None:
    """Render this forked worker's share of the pages (as many as its round allows) and send the outcome
    (or what it raised) back (inherited: the parent's ends of the workers' pipes, see forked.send_from_worker)."""
    assert _JOB is not None
    _JOB[0].words.changes = Counter()  # those of the pages rendered before it was forked are not its own
    send_from_worker(writer, lambda: render_claimed(_JOB[4]), inherited)


def release_free_memory() -> None:
    """Collect garbage and hand the C allocator's free pages back to the system (glibc only): what
    rendering left behind would otherwise count against the build's peak memory to the end."""
    gc.collect()
    try:
        ctypes.CDLL(None).malloc_trim(0)
    except (OSError, AttributeError, TypeError):  # not glibc: nothing to hand back this way
        pass
