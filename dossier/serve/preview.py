"""Live preview: build into a temporary folder, serve it (server.py), and on every save reported
by the watcher (watch.py) rebuild only what the save changed and reload the browsers.
"""

from __future__ import annotations

import gc
import os
import shutil
import signal
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Callable

from tornado.ioloop import IOLoop

from ..incremental import store
from ..incremental.lastbuild import open_session
from ..check import names
from ..model import i18n
from ..model.problems import BuildFailure, Problem, UsageError, counted, print_problems
from ..publish.staging import carry_over, update_in_place, walk_files
from ..search.indexing import Indexing
from .server import PreviewServer, Trigger, free_port, reload_browsers
from ..incremental.session import Outcome, Session
from ..render import theme
from .watch import watcher

WATCHED = ["content", "templates", "seeds", "media"]
LOOPBACK = {"127.0.0.1", "localhost", "::1"}
QUIET = 0.008  # seconds without a new event before a burst of saves is rebuilt
LONGEST_WAIT = 0.2  # ... but never wait longer than this after the first one
AUDIT_DELAY = 0.3  # editorial warnings are worked out once edits pause
SEARCH_DELAY = 1.0  # and the search index is brought up to date after that
STOP_WAIT = 10.0  # seconds a stopped search indexing may take to end its Pagefind runs


class Preview:
    """The preview's state: the project session, the folder served, its build number and errors."""

    def __init__(self, root: Path, folder: Path):
        self.root, self.folder = root, folder
        self.session = Session(root, defer_audit=True, drafts="preview")
        self.build = 0  # goes up whenever what the browser would show changes
        self.errors: list[Problem] = []
        self.warnings: set[Problem] = set()
        self.changed: set[str] = set()
        self.first_change = 0.0
        self.timer: object | None = None
        self.audit_timer: object | None = None
        self.search_timer: object | None = None
        self.search_thread: threading.Thread | None = None
        self.search_failed = False
        self.index_stale = False  # pages changed since the search index was made
        self.search_changed: set[str] | None = None  # which searchable pages (None: it has no index to update)
        self.indexing: Indexing | None = None
        self.broken = False

    def start(self) -> None:
        """Build everything once before serving, in parallel; pages of an up-to-date build of site/
        are carried over (linked, never changed) instead of rendered again."""
        started = time.perf_counter()
        site = self.root / "site"
        self.session, previous = open_session(self.root, site, processes=os.cpu_count() or 1)
        store.read_whole(self.session.site)  # a preview lives on: it holds no transaction open on the kept state
        self.session.linked.defer_audit = True
        if self.session.show_drafts("preview"):  # site/ leaves the drafts out: render every page, and index them
            previous = None
        outcome = self.session.render_into(self.folder, previous, os.cpu_count() or 1)
        if outcome.errors:
            print_problems(outcome.errors)
            self.errors = outcome.errors
            return
        if previous is not None and (site / "pagefind").is_dir():  # its search index fits those pages
            carry_over(site, self.folder, [f"pagefind/{path}" for path in walk_files(site / "pagefind")])
            self.search_changed = set()
        else:
            self.index_stale = True
        pages = outcome.rendered
        print(f"built the preview: rendered {counted(pages, 'page')}, {counted(len(self.session.output.written), 'file')} in {time.perf_counter() - started:.2f} s", flush=True)
        gc.freeze()  # the loaded site lives on: the collector need not walk it again (nor copy it into forks)
        self.session.linked.processes = 1  # a later relink of the whole site stays in this process, which has threads by now
        self.audit()

    def review_sheet(self) -> str:
        """Return the review sheet of every record as the preview has it (see review.py)."""
        from ..editors.review import reviewable, sheets
        from ..editors.review_sheet import html_sheet

        site = self.session.site
        assert site is not None
        return html_sheet(sheets(site, self.root, reviewable(site)), "Review sheet (preview only)")

    def saved(self, paths: set[str]) -> None:
        """Take in the paths the watcher reports, and rebuild once the burst of saves is over."""
        loop = IOLoop.current()
        if not self.changed:
            self.first_change = loop.time()
        self.changed |= paths
        if self.timer is not None:
            loop.remove_timeout(self.timer)
        when = min(loop.time() + QUIET, self.first_change + LONGEST_WAIT)
        self.timer = loop.call_at(when, self.rebuild)

    def rebuild(self) -> None:
        """Rebuild what the saved files change; never let an error stop the server."""
        paths, self.changed, self.timer = self.changed, set(), None
        started = time.perf_counter()
        try:
            if self.broken:  # the last rebuild failed part way: start afresh
                before = set(self.session.output.written)
                self.session = Session(self.root, defer_audit=True, drafts="preview")
                self.session.load()
                outcome = self.session.render()
                outcome.changed, outcome.seconds = True, time.perf_counter() - started
                outcome.removed = before - set(self.session.output.written)
            else:
                outcome = self.session.update(paths, self.folder)  # the pages there are the ones replaced
            self.broken = False
        except Exception as error:  # a bug, not a content problem: keep serving the last good site
            outcome = Outcome(problems=[Problem("(dossier)", 0, 0, "error", f"the rebuild failed: {error!r}")], changed=True)
            print(f"dossier: rebuild failed: {error!r}", file=sys.stderr)
            self.broken = True
        if outcome.changed:
            self.apply(outcome, edited_files(outcome.edited or sorted(p for p in paths if theme.input_path(self.root, p).is_file())))
        gc.collect()  # only what this rebuild made: the rest is frozen
        gc.freeze()
        loop = IOLoop.current()
        for timer in (self.audit_timer, self.search_timer):
            if timer is not None:
                loop.remove_timeout(timer)
        self.search_timer = None
        self.audit_timer = loop.call_later(AUDIT_DELAY, self.audit)

    def apply(self, outcome: Outcome, what: str) -> None:
        """Write what a build made, or keep its errors, and tell the browsers."""
        errors = outcome.errors
        if errors:
            print_problems(errors)
        else:
            update_in_place(self.folder, outcome.files, outcome.removed)
            pages = outcome.rendered
            print(f"{what}: rendered {counted(pages, 'page')}, wrote {counted(len(outcome.files), 'file')} in {outcome.seconds * 1000:.0f} ms", flush=True)
        if outcome.files or outcome.removed:
            self.index_stale = True
            if self.search_changed is not None:
                self.search_changed |= {path for path in outcome.files if path in self.session.words.searchable} | outcome.removed
        if errors or self.errors or outcome.files or outcome.removed:
            self.errors = errors
            self.build += 1
            reload_browsers()

    def audit(self) -> None:
        """Print the editorial warnings that are new, then bring the search index up to date. Only
        the records that changed are audited again, so this takes milliseconds even at 10,000."""
        self.audit_timer = None
        self.session.audit()
        warnings = {p for p in self.session.problems if p.severity == "warning"}
        new = warnings - self.warnings
        if new:
            print_problems(sorted(new), brief={names.KIND: (names.SHOWN, names.MORE)})
        self.warnings = warnings
        if not self.errors and self.index_stale and self.search_timer is None:
            self.search_timer = IOLoop.current().call_later(SEARCH_DELAY, self.index)

    def index(self) -> None:
        """Bring the search index up to date in the background, at low priority: Pagefind reads
        every page of the parts it indexes again, and rebuilds should not wait for it. Fresh
        processes, not forks of this one, so that this process's memory is not shared (and copied
        page by page) while they run."""
        self.search_timer = None
        if self.search_failed or (self.search_thread and self.search_thread.is_alive()):
            return
        self.index_stale = False
        loop = IOLoop.current()
        changed, self.search_changed = self.search_changed, set()
        indexing = self.indexing = Indexing(self.folder, set(self.session.words.searchable), words=set(self.session.words.counts), changed=changed,
                                            previous=self.folder if changed is not None else None, background=True)

        def run() -> None:
            try:
                indexing.finish()
            except BuildFailure as error:
                if not indexing.stopped or indexing.failures:  # not stopped with the preview
                    print(f"dossier: the search index of the preview could not be brought up to date: {error}", file=sys.stderr)
                    self.search_failed = True
                loop.add_callback(setattr, self, "search_changed", None)  # the next run indexes every part
                return
            if self.index_stale:  # pages changed while it ran
                loop.add_callback(self.index)

        self.search_thread = threading.Thread(target=run, daemon=True)
        self.search_thread.start()

    def stop(self) -> None:
        """Stop a search indexing that is still running (it and the Pagefind runs it started), and wait
        for its thread to end: the preview's folder is removed next, and a thread still putting an index
        in place would write it there again."""
        if self.indexing is not None:
            self.indexing.stop(wait=False)
        if self.search_thread is not None:
            self.search_thread.join(STOP_WAIT)


def edited_files(paths: list[str]) -> str:
    """Return how the rebuild line names the files saved: the first three, then how many more."""
    more = len(paths) - 3
    return ", ".join(paths[:3]) + (f" and {more} more" if more > 0 else "")


def watchers(root: Path, callback: Callable[[set[str]], None]) -> list:
    """Return the watchers of the project's inputs: its content/, templates/ and seeds/, and the
    package's theme and interface catalogs (edited when working on dossier itself), whose files they
    name dossier/templates/... and dossier/locale/..."""
    return [watcher(root, WATCHED, callback), watcher(theme.THEME_ROOT, [theme.THEME], callback),
            watcher(i18n.LOCALE.parent.parent, [i18n.CATALOGS], callback)]


def interrupt(signum: int, frame: object) -> None:
    """Stop serving on SIGTERM as on Ctrl+C, so that the preview folder is removed."""
    raise KeyboardInterrupt


def serve(root: Path, *, host: str = "127.0.0.1", port: int = 8000) -> int:
    """Build the project into a temporary folder and preview it with live reload until interrupted."""
    if host not in LOOPBACK:
        print(f"dossier: warning: serving on {host}: other machines on the network can see the preview", file=sys.stderr)
    if not free_port(host, port):
        other = next((p for p in range(port + 1, port + 50) if p < 65536 and free_port(host, p)), None)
        form = "make serve PORT=" if os.environ.get("DOSSIER_VIA_MAKE") else "--port "  # the Makefile sets DOSSIER_VIA_MAKE
        suggestion = f"; try {form}{other}" if other else ""
        raise UsageError(f"port {port} on {host} is already in use{suggestion}")
    signal.signal(signal.SIGTERM, interrupt)
    folder = Path(tempfile.mkdtemp(prefix="dossier-preview-"))
    preview = Preview(root, folder)
    try:
        preview.start()

        def ready() -> None:  # livereload starts the watcher once it listens
            for each in watchers(root, preview.saved):
                each.start()
            print(f"serving {root.resolve()} at {server.address} (preview built in {folder}; Ctrl+C stops)", flush=True)

        server = PreviewServer(preview, Trigger(ready))
        server.serve(port=port, host=host, root=str(folder), open_url_delay=None)
    finally:
        preview.stop()
        shutil.rmtree(folder, ignore_errors=True)
    return 0
