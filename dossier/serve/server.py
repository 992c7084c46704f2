"""The preview's web server: the preview folder (or the error page) over HTTP, and the socket on
which pages hear that they must reload, on livereload and tornado.

livereload alone polls the disk every 0.8 s and drops a reload that comes within 3 s of the last
one (LiveReloadHandler.DEFAULT_RELOAD_TIME), and at start-up it queues a forced reload. Here its
watcher is replaced by one that is never polled (Trigger), so neither its polling nor its queued
reload ever runs, and reloads are sent straight to the browsers after each rebuild. A page that
loaded just before a rebuild finished tells the server which build it shows when its socket
connects, and is reloaded at once if that build is out of date. This leans on livereload 2.7.1's
internals (Server.application, Server._setup_logging, Watcher._changes): the version is pinned, and
tests/test_serve.py fails on another one.
"""

from __future__ import annotations

import errno
import html
import mimetypes
import socket
from pathlib import Path, PurePosixPath
from typing import Any, Callable
from urllib.parse import quote

from livereload import Server
from livereload.handlers import LiveReloadHandler, LiveReloadJSHandler
from livereload.server import LiveScriptInjector
from livereload.watcher import Watcher
from tornado import escape, web

from ..model.problems import Problem, UsageError

HEAD_END = "</head>"
REVIEW = "_review/"  # the review sheet: served by the preview, never written by a build
RELOAD = {"command": "reload", "path": "*", "liveCSS": False, "liveImg": False}
BUILD_SCRIPT = (  # tells the server which build this page shows, once the livereload socket is open
    '<script>document.addEventListener("LiveReloadConnect",function(){{var s=window.LiveReload&&LiveReload.connector&&'
    'LiveReload.connector.socket;if(s)s.send(JSON.stringify({{command:"dossier-build",build:{build}}}))}})</script>'
)


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
    """Serve the preview folder (and the review sheet at /_review/), or the error page while the content has errors."""

    def initialize(self, preview: Any) -> None:
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
        if path in (REVIEW, REVIEW[:-1]):
            return self.send_html(preview.review_sheet()) if path == REVIEW else self.redirect("/" + REVIEW)
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

    preview: Any

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

    def __init__(self, preview: Any, trigger: Trigger):
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
        handlers: list[tuple[Any, ...]] = [
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
