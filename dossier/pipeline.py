"""The build, stage by stage: read → validate → link → audit → render → publish."""

from __future__ import annotations

import ctypes
import gc
import os
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Iterable

from .link import Site
from .problems import ContentError, Problem
from .publish import check_output, exclusive, publish, recover
from .search import Indexing
from .lastbuild import close_session, last_build, open_session
from .session import Session


@dataclass
class BuildReport:
    """What a build made and how long it took."""

    pages: Counter
    files: int
    seconds: float
    warnings: list[Problem]
    phases: dict[str, float] = field(default_factory=dict)  # seconds spent loading, rendering, indexing


def load(root: Path) -> tuple[Site, list[Problem]]:
    """Read, validate, link and audit a project; return the site and every problem found. The
    preview and every build load through the same stages (Session.load)."""
    session = Session(root)
    session.load()
    assert session.site is not None
    return session.site, session.problems


def check(root: Path, *, strict: bool = False) -> list[Problem]:
    """Validate everything and write nothing; raise ContentError on errors (warnings too if strict)."""
    _, problems = load(root)
    failing = [p for p in problems if p.severity == "error" or strict]
    if failing:
        raise ContentError(problems)
    return problems


def build(root: Path, out: Path, *, portable: bool = False, strict: bool = False, base_url: str | None = None,
          use_cache: bool = True, workers: int | None = None) -> BuildReport:
    """Build the site from root into out, leaving out untouched if anything fails; base_url overrides site.yaml's.

    With use_cache, the last build's work is reused (.dossier-cache/): only what changed since is
    read, relinked and rendered, unchanged files are carried over, and a build with nothing to do
    leaves out as it is. Pages are rendered by `workers` processes (default: one per core), and as
    many Pagefind runs go at a time once they are rendered.
    """
    started = time.perf_counter()
    check_output(out, root)
    with exclusive(out):
        return build_exclusively(root, out, started, portable=portable, strict=strict, base_url=base_url, use_cache=use_cache, workers=workers)


def build_exclusively(root: Path, out: Path, started: float, *, portable: bool, strict: bool, base_url: str | None,
                      use_cache: bool, workers: int | None) -> BuildReport:
    """Build, once no other build is publishing to out (see build())."""
    recover(out)  # a build killed mid-swap left the site aside: put it back even if this build fails
    summary, inputs = last_build(root, out, (portable, base_url)) if use_cache else (None, None)
    if summary is not None:  # nothing changed since the last build, and out is as it left it
        if strict and summary.problems:
            raise ContentError(summary.problems)
        return BuildReport(page_counts(summary.published[1]), len(summary.published[1]), time.perf_counter() - started, summary.problems)
    session, previous = open_session(root, out, portable=portable, base_url=base_url, use_cache=use_cache, inputs=inputs)
    phases = {"load": time.perf_counter() - started}
    problems = session.problems
    if any(p.severity == "error" or strict for p in problems):
        raise ContentError(problems)
    if previous is None or not session.up_to_date():
        workers = workers or os.cpu_count() or 1
        indexing: list[Indexing] = []  # Pagefind, started once the pages it indexes are staged

        def start(staging: Path, changed: set[str]) -> None:
            indexing.append(Indexing(staging, session.searchable, words=set(session.word_pages), changed=changed, previous=previous,
                                    jobs=1))  # one at a time while the timeline's pages render

        def fill(staging: Path) -> None:
            try:
                session.render_into(staging, previous, workers, searchable_done=start)
            except BaseException:
                if indexing:
                    indexing[0].stop()
                raise
            release_free_memory()  # before Pagefind's runs widen to one per core

        def prepare(staging: Path) -> None:
            (indexing[0] if indexing else Indexing(staging, session.searchable, words=set(session.word_pages), jobs=workers)).finish(workers)

        # Pagefind indexes the staged pages (while the timeline renders) before they go live.
        publish({}, out, prepare=timed(prepare, phases, "index"), fill=timed(fill, phases, "render"),
                then=lambda: close_session(session, out, use_cache))
    else:
        close_session(session, out, use_cache)
    return BuildReport(page_counts(session.written), len(session.written), time.perf_counter() - started, problems, phases)


def release_free_memory() -> None:
    """Collect garbage and hand the C allocator's free pages back to the system (glibc only): what
    rendering left behind would otherwise count against the build's peak memory to the end."""
    gc.collect()
    try:
        ctypes.CDLL(None).malloc_trim(0)
    except (OSError, AttributeError, TypeError):  # not glibc: nothing to hand back this way
        pass


def timed(step: Callable[[Path], object], phases: dict[str, float], name: str) -> Callable[[Path], None]:
    """Wrap a publishing step so that its time is noted in phases."""
    def run(folder: Path) -> None:
        started = time.perf_counter()
        step(folder)
        phases[name] = time.perf_counter() - started
    return run


def page_counts(paths: Iterable[str]) -> Counter:
    """Count the record pages among output paths, by collection."""
    return Counter(path.split("/")[0] for path in paths if path.endswith(".html") and path.count("/") == 2)
