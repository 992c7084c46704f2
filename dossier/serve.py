"""Live preview: build into a temporary folder, serve it with livereload, and on every save
rebuild only what the save changed and reload the browser.

livereload alone polls the disk every 0.8 s and drops a reload that comes within 3 s of the last
one (LiveReloadHandler.DEFAULT_RELOAD_TIME), and at start-up it queues a forced reload. Here its
watcher is replaced by an inotify watcher (watch.py) that is never polled, so neither its polling
nor its queued reload ever runs, and reloads are sent straight to the browsers after each rebuild.
A page that loaded just before a rebuild finished tells the server which build it shows when its
socket connects, and is reloaded at once if that build is out of date.
"""

from __future__ import annotations

import errno
import gc
import html
import mimetypes
import os
import shutil
import signal
import socket
import sys
import tempfile
import threading
import time
from pathlib import Path, PurePosixPath
from typing import Callable
from urllib.parse import quote

from livereload import Server
from livereload.handlers import LiveReloadHandler, LiveReloadJSHandler
from livereload.server import LiveScriptInjector
from livereload.watcher import Watcher
from tornado import escape, web
from tornado.ioloop import IOLoop

from .cli import print_problems
from .problems import Problem, UsageError
from .publish import carry_over, update_in_place, walk_files
from .search import Indexing
from .lastbuild import open_session
from .session import Outcome, Session
from .watch import watcher

WATCHED = ["content", "templates", "seeds"]
LOOPBACK = {"127.0.0.1", "localhost", "::1"}
QUIET = 0.008  # seconds without a new event before a burst of saves is rebuilt
LONGEST_WAIT = 0.2  # ... but never wait longer than this after the first one
AUDIT_DELAY = 0.3  # editorial warnings are worked out once edits pause
SEARCH_DELAY = 1.0  # and the search index is brought up to date after that
HEAD_END = "</head>"
RELOAD = {"command": "reload", "path": "*", "liveCSS": False, "liveImg": False}
BUILD_SCRIPT = (  # tells the server which build this page shows, once the livereload socket is open
    '<script>document.addEventListener("LiveReloadConnect",function(){{var s=window.LiveReload&&LiveReload.connector&&'
    'LiveReload.connector.socket;if(s)s.send(JSON.stringify({{command:"dossier-build",build:{build}}}))}})</script>'
)


class Preview:
    """The preview's state: the project session, the folder served, its build number and errors."""

    def __init__(self, root: Path, folder: Path):
        self.root, self.folder = root, folder
        self.session = Session(root, defer_audit=True)
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
        self.session, previous = open_session(self.root, site)
        self.session.defer_audit = True
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
        print(f"built the preview: rendered {pages} page{'s' * (pages != 1)}, {len(self.session.written)} files in {time.perf_counter() - started:.2f} s", flush=True)
        gc.freeze()  # the loaded site lives on: the collector need not walk it again (nor copy it into forks)
        self.audit()

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
                before = set(self.session.written)
                self.session = Session(self.root, defer_audit=True)
                self.session.load()
                outcome = self.session.render()
                outcome.changed, outcome.seconds = True, time.perf_counter() - started
                outcome.removed = before - set(self.session.written)
            else:
                outcome = self.session.update(paths, self.folder)  # the pages there are the ones replaced
            self.broken = False
        except Exception as error:  # a bug, not a content problem: keep serving the last good site
            outcome = Outcome(problems=[Problem("(dossier)", 0, 0, "error", f"the rebuild failed: {error!r}")], changed=True)
            print(f"dossier: rebuild failed: {error!r}", file=sys.stderr)
            self.broken = True
        if outcome.changed:
            self.apply(outcome, ", ".join(sorted(paths)[:3]) + (" ..." if len(paths) > 3 else ""))
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
            print(f"{what}: rendered {pages} page{'s' * (pages != 1)}, wrote {len(outcome.files)} file{'s' * (len(outcome.files) != 1)} in {outcome.seconds * 1000:.0f} ms", flush=True)
        if outcome.files or outcome.removed:
            self.index_stale = True
            if self.search_changed is not None:
                self.search_changed |= {path for path in outcome.files if path in self.session.searchable} | outcome.removed
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
            print_problems(sorted(new))
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
        indexing = self.indexing = Indexing(self.folder, set(self.session.searchable), words=set(self.session.word_pages), changed=changed,
                                            previous=self.folder if changed is not None else None, background=True)

        def run() -> None:
            try:
                indexing.finish()
            except UsageError as error:
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
        """Stop a search indexing that is still running (it and the Pagefind runs it started)."""
        if self.indexing is not None:
            self.indexing.stop()


def reload_browsers() -> None:
    """Tell every connected page to reload now (livereload's own reload_waiters is rate-limited by poll_tasks only,
    but needs its watcher; this sends the same message)."""
    for waiter in list(LiveReloadHandler.waiters):
        waiter.send_message(RELOAD)


def resolve(folder: Path, path: str) -> Path | None:
    """Return the file a request path names inside folder; None for anything that would lead out of it."""
    if "\0" in path or "\\" in path:
        return None
    parts = PurePosixPath(path).parts
    if path.startswith("/") or ".." in parts:
        return None
    target = folder.joinpath(*parts)
    if target.is_dir():
        target = target / "index.html"
    try:
        real = target.resolve(strict=True)
    except (OSError, RuntimeError):
        return None
    if not real.is_relative_to(folder.resolve()) or not real.is_file():
        return None  # a link pointing out of the folder, or not a file
    return real


def looks_like_page(path: str) -> bool:
    """Tell whether a request path asks for an HTML page (a folder, an .html file, no extension)."""
    name = path.rpartition("/")[2]
    return name == "" or name.endswith(".html") or "." not in name


def error_page(errors: list[Problem]) -> str:
    """Return the page shown for every page of the site while the content has errors."""
    items = "\n".join(f"<li><code>{html.escape(str(p))}</code></li>" for p in errors)
    count = f"{len(errors)} error{'s' * (len(errors) != 1)}"
    return (
        '<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        f"<title>Build failed: {count}</title>\n<style>body{{font:16px/1.5 system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem;color:#222}}"
        "h1{color:#a00}code{white-space:pre-wrap;word-break:break-word}li{margin:.4rem 0}</style>\n</head>\n<body>\n<main>\n"
        f'<h1 id="build-failed">The site cannot be built: {count}</h1>\n'
        "<p>Fix the content and save: this page reloads by itself and shows the site again.</p>\n"
        f'<ol class="problems">\n{items}\n</ol>\n</main>\n</body>\n</html>\n'
    )


class PageHandler(web.RequestHandler):
    """Serve the preview folder, or the error page while the content has errors."""

    def initialize(self, preview: Preview) -> None:
        self.preview = preview

    def set_default_headers(self) -> None:
        self.set_header("Cache-Control", "no-store")

    def head(self, path: str) -> None:
        self.get(path)

    def get(self, path: str) -> None:
        preview = self.preview
        if preview.errors and looks_like_page(path):
            self.set_status(500)
            return self.send_html(error_page(preview.errors))
        target = resolve(preview.folder, path)
        if target is None:
            self.set_status(404)
            missing = resolve(preview.folder, "404.html")
            return self.send_html(missing.read_text(encoding="utf-8") if missing else "<!DOCTYPE html><title>Not found</title><h1>Not found</h1>")
        if (preview.folder / path).is_dir() and path and not path.endswith("/"):
            return self.redirect("/" + quote(path) + "/")
        data = target.read_bytes()
        kind = mimetypes.guess_type(target.name)[0] or "application/octet-stream"
        if kind == "text/html":
            return self.send_html(data.decode("utf-8"))
        self.set_header("Content-Type", kind + ("; charset=utf-8" if kind.startswith("text/") or kind.endswith(("json", "javascript", "xml")) else ""))
        self.finish(data)

    def send_html(self, page: str) -> None:
        """Send an HTML page that knows which build it belongs to."""
        self.set_header("Content-Type", "text/html; charset=utf-8")
        script = BUILD_SCRIPT.format(build=self.preview.build)
        self.finish(page.replace(HEAD_END, script + HEAD_END, 1))


class BuildSocket(LiveReloadHandler):
    """The livereload socket, which also hears which build a page shows and reloads it if stale."""

    preview: Preview

    def on_message(self, message: str) -> None:
        data = escape.json_decode(message)
        if isinstance(data, dict) and data.get("command") == "dossier-build":
            LiveReloadHandler.waiters.add(self)  # from now on it hears every reload
            if data.get("build") != self.preview.build:
                self.send_message(RELOAD)
            return
        super().on_message(message)


class Trigger(Watcher):
    """Stands in for livereload's watcher: never polled, so its 0.8 s polling and start-up reload never run."""

    def __init__(self, start: Callable[[], None]):
        super().__init__()
        self.start_watching = start

    def start(self, callback: object) -> bool:
        self._changes.clear()
        self.start_watching()
        return True  # tells livereload not to poll

    def examine(self) -> tuple[None, None]:
        return None, None


class PreviewServer(Server):
    """livereload's server, serving the preview through PageHandler and BuildSocket."""

    def __init__(self, preview: Preview, trigger: Trigger):
        super().__init__(watcher=trigger)
        self.preview = preview

    def application(self, port: int, host: str, liveport: int | None = None, debug: bool | None = None, live_css: bool = True) -> None:
        LiveReloadHandler.watcher = self.watcher
        LiveReloadHandler.live_css = False
        BuildSocket.preview = self.preview
        script = escape.utf8(
            '<script>(function(){var s=document.createElement("script");var port=window.location.port||80;'
            's.src="//"+window.location.hostname+":"+port+"/livereload.js?port="+port;document.head.appendChild(s);})();</script>'
        )

        class Inject(LiveScriptInjector):
            pass

        Inject.script = script
        handlers = [
            (r"/livereload", BuildSocket),
            (r"/livereload.js", LiveReloadJSHandler),
            (r"/(.*)", PageHandler, {"preview": self.preview}),
        ]
        web.Application(handlers=handlers, transforms=[Inject], log_function=lambda handler: None).listen(port, address=host)
        self.address = f"http://{f'[{host}]' if ':' in host else host}:{port}/"

    def _setup_logging(self) -> None:
        """Keep livereload and tornado quiet: the preview prints its own lines."""


def free_port(host: str, port: int) -> bool:
    """Tell whether a port can be listened on."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    with socket.socket(family, socket.SOCK_STREAM) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind((host, port))
        except OSError as error:
            if error.errno in (errno.EADDRINUSE, errno.EACCES):
                return False
            raise UsageError(f"cannot listen on {host}:{port}: {error.strerror}") from error
    return True


def interrupt(signum: int, frame: object) -> None:
    """Stop serving on SIGTERM as on Ctrl+C, so that the preview folder is removed."""
    raise KeyboardInterrupt


def serve(root: Path, *, host: str = "127.0.0.1", port: int = 8000) -> int:
    """Build the project into a temporary folder and preview it with live reload until interrupted."""
    if host not in LOOPBACK:
        print(f"dossier: warning: serving on {host}: other machines on the network can see the preview", file=sys.stderr)
    if not free_port(host, port):
        other = next((p for p in range(port + 1, port + 50) if p < 65536 and free_port(host, p)), None)
        suggestion = f"; try --port {other}" if other else ""
        raise UsageError(f"port {port} on {host} is already in use{suggestion}")
    signal.signal(signal.SIGTERM, interrupt)
    folder = Path(tempfile.mkdtemp(prefix="dossier-preview-"))
    preview = Preview(root, folder)
    try:
        preview.start()

        def ready() -> None:  # livereload starts the watcher once it listens
            watcher(root, WATCHED, preview.saved).start()
            print(f"serving {root.resolve()} at {server.address} (preview built in {folder}; Ctrl+C stops)", flush=True)

        server = PreviewServer(preview, Trigger(ready))
        server.serve(port=port, host=host, root=str(folder), open_url_delay=None)
    finally:
        preview.stop()
        shutil.rmtree(folder, ignore_errors=True)
    return 0
