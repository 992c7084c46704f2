"""The build, stage by stage: read → validate → link → audit → render → index → publish."""

from __future__ import annotations

import contextlib
import gc
import os
import sys
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Iterable, Iterator

from .model.i18n import LANGUAGES
from .incremental.pool import FEW_PAGES, release_free_memory
from .incremental.lastbuild import Summary, close_session, kept_summary, known_folders, last_build, open_session
from .model.problems import ContentError, Problem, promote
from .publish.staging import Staging, check_output, exclusive, recover
from .search.indexing import Indexing
from .timings import BuildClock, layer

if TYPE_CHECKING:  # a build with nothing to do needs neither: it is done before they would load
    from .check.link import Site
    from .incremental.session import Session


BUILD_THRESHOLDS = (10_000, 20, 20)  # the collector's during a build (Python's are 700, 10, 10): see fewer_collections
SWITCH_INTERVAL = 0.001  # seconds: see quick_switches


@dataclass
class BuildReport:
    """What a build made and how long it took."""

    pages: Counter
    files: int
    seconds: float
    warnings: list[Problem]
    phases: dict[str, float] = field(default_factory=dict)  # seconds spent loading, rendering, indexing, publishing
    rendered: int = 0  # pages rendered (the others were carried over from the last build)
    cpu: dict[str, float] = field(default_factory=dict)  # CPU seconds by layer, workers' and Pagefind's included (timings.py)


def load(root: Path, drafts: bool = False) -> tuple[Site, list[Problem]]:
    """Read, validate, link and audit a project (with its drafts, if asked); return the site and
    every problem found. The preview and every build load through the same stages (Session.load)."""
    from .incremental.session import Session

    session = Session(root, drafts="in" if drafts else "out")
    session.load()
    assert session.site is not None
    return session.site, session.problems


def check(root: Path, *, strict: bool = False, drafts: bool = False) -> list[Problem]:
    """Validate everything and write nothing; raise ContentError on errors (warnings too if strict,
    but a draft's own)."""
    return checked(root, strict=strict, drafts=drafts)[1]


def checked(root: Path, *, strict: bool = False, drafts: bool = False) -> tuple[Site, list[Problem], list[str]]:
    """Validate everything and write nothing, as check() does; return the site too, and the files of
    the drafts the check left out (none with drafts), so that a passing check can say what it did
    not look at."""
    from .incremental.session import Session

    session = Session(root, drafts="in" if drafts else "out")
    session.load()
    assert session.site is not None
    stop_on_problems(session.problems, strict)
    return session.site, session.problems, [] if drafts else sorted(session.drafts.values())


def translation_counts(site: Site) -> list[str]:
    """Return a line for each language of the site but its first: how many of its pages show only
    its own words ('es: 233 of 233 pages translated'), the others showing text in the first."""
    from .check.coverage import untranslated
    from .model.i18n import site_languages
    from .render.pages import Renderer

    paths = list(Renderer(site).pages())
    first = site_languages(site.config)[0]
    lines = []
    for lang, records in untranslated(site).items():
        total = sum(path.startswith(f"{lang}/") for path in paths)
        line = f"{lang}: {total - len(records)} of {total} pages translated"
        if records:
            hint = "listed as warnings" if site.config.require_translations else "require_translations: true in content/site.yaml lists them"
            line += f"; {len(records)} show {first} text ({hint})"
        lines.append(line)
    return lines


def build(root: Path, out: Path, *, portable: bool = False, strict: bool = False, base_url: str | None = None,
          use_cache: bool = True, workers: int | None = None, drafts: bool = False, keep_in_background: bool = False) -> BuildReport:
    """Build the site from root into out, leaving out untouched if anything fails; base_url overrides site.yaml's.

    With use_cache, the last build's work is reused (.dossier-cache/): only what changed since is
    read, relinked and rendered, unchanged files are carried over, and a build with nothing to do
    leaves out as it is. Pages are rendered by `workers` processes (default: one per core), and as
    many Pagefind runs go at a time once they are rendered. drafts puts the draft records in.
    keep_in_background: the build returns once the site is published, and a process of its own
    keeps its state for the next build (see lastbuild.close_session): for the command line.
    """
    started = time.perf_counter()
    clock = BuildClock()
    kept = kept_summary(root, (portable, base_url, "in" if drafts else "out")) if use_cache else None
    check_output(out, root, known_folders(kept, out))
    with exclusive(out), fewer_collections(), quick_switches():
        return build_exclusively(root, out, started, clock, kept, portable=portable, strict=strict, base_url=base_url, use_cache=use_cache,
                                 workers=workers, drafts="in" if drafts else "out", background=keep_in_background)


def build_exclusively(root: Path, out: Path, started: float, clock: BuildClock, kept: Summary | None, *, portable: bool, strict: bool,
                      base_url: str | None, use_cache: bool, workers: int | None, drafts: str, background: bool = False) -> BuildReport:
    """Build, once no other build is publishing to out (see build()): load (read, validate, link and
    audit), then render, index and publish what changed (kept: the last build's summary, if any)."""
    recover(out)  # a build killed mid-swap left the site aside: put it back even if this build fails
    summary, inputs = last_build(root, out, kept) if use_cache else (None, None)
    if summary is not None:  # nothing changed since the last build, and out is as it left it
        stop_on_problems(summary.problems, strict)
        files = summary.published[1]
        return BuildReport(page_counts(files), len(files), time.perf_counter() - started, summary.problems, cpu=clock.by_layer())
    workers = workers or os.cpu_count() or 1
    session, previous = open_session(root, out, portable=portable, base_url=base_url, use_cache=use_cache, inputs=inputs, drafts=drafts,
                                     defer_audit=not strict, processes=workers)  # warnings stop a strict build before it renders
    phases = {"load": time.perf_counter() - started}
    stop_on_problems(session.problems, strict)
    rendered = 0
    if previous is not None and session.up_to_date():
        close_session(session, out, use_cache, background)
    else:
        rendered = render_index_publish(session, out, previous, workers, use_cache, phases, background)
    written = session.output.written
    return BuildReport(page_counts(written), len(written), time.perf_counter() - started, session.problems, phases, rendered, clock.by_layer())


def render_index_publish(session: Session, out: Path, previous: Path | None, workers: int, use_cache: bool, phases: dict[str, float],
                         background: bool = False) -> int:
    """Render what changed into a staging folder, index it for search and put it in place: the whole
    site, swapped for out; or, after a build whose site out still is (previous), only the files that
    changed, moved into out (publish/patch.py). If anything fails, out is left as it was. Return how
    many pages were rendered."""
    staging = Staging(out)
    search = SearchIndex(session, previous, workers, staging.texts)
    try:
        rendered = render(session, staging.folder, previous, workers, search, phases)
        session.audit()  # if deferred, and not done while the pages rendered
        session.linked.defer_audit = False  # the next build, from this session, audits as it links
        index(search, staging.folder, phases)
    except BaseException:
        search.stop()
        staging.discard()
        raise
    publish(staging, session, out, use_cache, phases, patch=previous is not None, background=background, kept=search.kept())
    return rendered


def stop_on_problems(problems: list[Problem], strict: bool) -> None:
    """Stop the build on any error (or, if strict, any warning but a draft's own and an advisory
    one, each then made an error): nothing is written."""
    if strict:
        problems = promote(problems)
    if any(p.severity == "error" for p in problems):
        raise ContentError(problems)


class SearchIndex:
    """The search index of a staging folder: its Pagefind runs start as soon as the pages they index
    are staged, one at a time while the timeline's pages render, then one per worker."""

    def __init__(self, session: Session, previous: Path | None, workers: int, texts: Path):
        self.session, self.previous, self.workers, self.texts = session, previous, workers, texts  # texts: where rendering puts the pages' texts
        self.indexing: Indexing | None = None

    def start(self, folder: Path, changed: set[str]) -> None:
        """Start indexing the searchable pages staged in folder (changed: those new, changed or gone)."""
        self.indexing = Indexing(folder, self.session.words.searchable, words=set(self.session.words.counts), changed=changed,
                                 previous=self.previous, jobs=1, texts=self.texts, patches=self.previous is not None)

    def finish(self, folder: Path) -> None:
        """Wait for the index to be complete (starting it if no page was rendered), or raise what went wrong."""
        indexing = self.indexing = self.indexing or Indexing(folder, self.session.words.searchable, words=set(self.session.words.counts),
                                                             jobs=self.workers, texts=self.texts)
        indexing.finish(self.workers)

    def kept(self) -> set[str]:
        """Return the files of the live site's search bundle that publishing leaves in place (search/indexing.py patches)."""
        return self.indexing.kept if self.indexing is not None else set()

    def stop(self) -> None:
        """Stop the Pagefind runs under way."""
        if self.indexing is not None:
            self.indexing.stop()


def render(session: Session, folder: Path, previous: Path | None, workers: int, search: SearchIndex, phases: dict[str, float]) -> int:
    """Render what changed into the staging folder and carry the rest over from previous; return how many pages were rendered."""
    started = time.perf_counter()
    outcome = session.render_into(folder, previous, workers, searchable_done=search.start, patch=previous is not None, texts=search.texts)
    if outcome.rendered > FEW_PAGES:
        release_free_memory()  # before Pagefind's runs widen to one per core
    phases["render"] = time.perf_counter() - started
    return outcome.rendered


def index(search: SearchIndex, folder: Path, phases: dict[str, float]) -> None:
    """Complete the search index of the staged pages before they go live."""
    started = time.perf_counter()
    with layer("search"):
        search.finish(folder)
    phases["index"] = time.perf_counter() - started


def publish(staging: Staging, session: Session, out: Path, use_cache: bool, phases: dict[str, float], patch: bool = False,
            background: bool = False, kept: set[str] | None = None) -> None:
    """Swap the staged site into place (or with patch move its files into out, which keeps the files
    of its search bundle that were not indexed again: kept), and keep the session for the next build
    while what was replaced is deleted."""
    started = time.perf_counter()
    with layer("publish"):
        removing = staging.patch(set(session.output.written) | (kept or set())) if patch else None
        aside = None if patch else staging.swap()
    close_session(session, out, use_cache, background, aside)  # which deletes the old site, as the state is kept
    if removing is not None:
        with layer("publish"):
            removing.join()
    phases["publish"] = time.perf_counter() - started


@contextlib.contextmanager
def fewer_collections() -> Iterator[None]:
    """Let the garbage collector run less often during a build: a build makes millions of objects
    that live to its end, and at Python's thresholds the collector walks them again and again (at
    10,000 records, 2.5 s of the 14.4 s of loading and 3.5 s of the 7.8 s of planning, measured).
    Reference counting still frees all but cycles at once, and cycles are still collected. The
    loaded or restored session is frozen (gc.freeze: the collector never walks it) until the end."""
    thresholds = gc.get_threshold()
    gc.set_threshold(*BUILD_THRESHOLDS)
    try:
        yield
    finally:
        gc.set_threshold(*thresholds)
        gc.unfreeze()  # what the build froze (see open_session, pool.render_pages) can be collected again


@contextlib.contextmanager
def quick_switches() -> Iterator[None]:
    """Let the build's threads that run Pagefind take the interpreter's lock sooner from the rendering
    (sys.setswitchinterval): after each system call such a thread waits for it, up to the switch
    interval (Python's is 5 ms), and a few dozen calls come between two Pagefind runs, while a core
    waits for the next one."""
    interval = sys.getswitchinterval()
    sys.setswitchinterval(SWITCH_INTERVAL)
    try:
        yield
    finally:
        sys.setswitchinterval(interval)


def page_counts(paths: Iterable[str]) -> Counter:
    """Count the record pages among output paths, by collection."""
    return Counter(path.split("/")[0] for path in paths
                   if path.endswith(".html") and path.count("/") == 2 and path.split("/")[0] not in LANGUAGES and not path.startswith("claims/"))
