"""The live preview: it serves only its own folder, rebuilds on save, shows errors and recovers."""

from __future__ import annotations

import asyncio
import gzip
import http.client
import json
import os
import queue
import re
import signal
import socket
import subprocess
import sys
import threading
import time
from contextlib import contextmanager
from pathlib import Path
from typing import Awaitable, Callable, Iterator

import pytest

from conftest import PROJECT, chromium_or_skip, copy_project

from dossier.publish.staging import SEARCH_TEXTS
from dossier.search import parts as search_parts
from dossier.cli import main
from dossier.model.problems import Problem
from dossier.serve.preview import Preview
from dossier.serve.server import error_page, looks_like_page, resolve
from dossier.serve.watch import InotifyWatcher, PollingWatcher, WatchfilesWatcher

PERSON = "content/people/jorge-torres.md"


def unused_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class Running:
    """A `serve` process: its address, its preview folder and the lines it prints."""

    def __init__(self, process: subprocess.Popen, port: int):
        self.process, self.port = process, port
        self.url = f"http://127.0.0.1:{port}/"
        self.lines: queue.Queue[str] = queue.Queue()
        self.seen: list[str] = []
        threading.Thread(target=self.pump, daemon=True).start()
        line = self.wait_for(r"^serving ", 60)
        self.folder = Path(re.search(r"preview built in (.*?);", line).group(1))

    def pump(self) -> None:
        for line in self.process.stdout:
            self.lines.put(line.rstrip("\n"))

    def wait_for(self, pattern: str, timeout: float = 10) -> str:
        """Return the next printed line matching pattern."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            try:
                line = self.lines.get(timeout=0.05)
            except queue.Empty:
                assert self.process.poll() is None, "serve exited:\n" + "\n".join(self.seen)
                continue
            self.seen.append(line)
            if re.search(pattern, line):
                return line
        raise AssertionError(f"no line matching {pattern!r} in:\n" + "\n".join(self.seen))

    def printed_since(self, seconds: float) -> list[str]:
        """Collect what the server prints for a while."""
        deadline, found = time.monotonic() + seconds, []
        while time.monotonic() < deadline:
            try:
                found.append(self.lines.get(timeout=0.05))
            except queue.Empty:
                pass
        self.seen += found
        return found

    def get(self, path: str) -> tuple[int, bytes]:
        """Send a raw GET (no normalisation of the path by the client)."""
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=10)
        connection.putrequest("GET", path, skip_accept_encoding=True)
        connection.endheaders()
        response = connection.getresponse()
        return response.status, response.read()


@contextmanager
def serving(root: Path) -> Iterator[Running]:
    """Run `build.py serve` on a project until the block ends, then stop it as Ctrl+C would."""
    port = unused_port()
    command = [sys.executable, "-X", "faulthandler", str(PROJECT / "build.py"), "serve", "--source", str(root), "--port", str(port)]
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env={**os.environ, "PYTHONUNBUFFERED": "1"})
    try:
        running = Running(process, port)
        yield running
    finally:
        process.send_signal(signal.SIGINT)
        started, stopped = time.monotonic(), "stopped"
        try:
            process.wait(timeout=30)  # a busy machine (a full test run beside a browser) is slow to stop
        except subprocess.TimeoutExpired:  # where each thread is, printed by the fault handler on SIGABRT
            stopped = "still running: aborted"
            process.send_signal(signal.SIGABRT)
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                process.kill()
        stopped += f" after {time.monotonic() - started:.1f} s"
    if running.folder.exists():
        running.printed_since(0.5)  # the last lines, such as the fault handler's
        raise AssertionError(f"the preview folder was left behind; serve {stopped}, having printed:\n" + "\n".join(running.seen))


def edit(root: Path, path: str, old: str, new: str) -> None:
    """Save a file the way editors do: write a temporary file, then rename it over the original."""
    target = root / path
    text = target.read_text(encoding="utf-8")
    assert old in text
    temporary = target.with_name(f".{target.name}.tmp")
    temporary.write_text(text.replace(old, new, 1), encoding="utf-8")
    os.replace(temporary, target)


def test_only_files_inside_the_preview_folder_are_served(tmp_path):
    folder, outside = tmp_path / "preview", tmp_path / "secret.txt"
    (folder / "people").mkdir(parents=True)
    (folder / "index.html").write_text("home", encoding="utf-8")
    (folder / "people/index.html").write_text("people", encoding="utf-8")
    outside.write_text("secret", encoding="utf-8")
    (folder / "leak.txt").symlink_to(outside)
    (folder / "leaks").symlink_to(tmp_path)
    assert resolve(folder, "") == (folder / "index.html").resolve()
    assert resolve(folder, "people/") == (folder / "people/index.html").resolve()
    for path in ["../secret.txt", "people/../../secret.txt", "/etc/passwd", str(outside), "leak.txt", "leaks/secret.txt", "nope.html", "a\0b", "..\\secret.txt"]:
        assert resolve(folder, path) is None, path


def test_pages_are_told_from_assets():
    assert [looks_like_page(p) for p in ["", "people/", "about", "404.html", "static/style.css", "data/site.json"]] == [True, True, True, True, False, False]


def test_the_error_page_lists_every_problem_escaped():
    page = error_page([Problem("content/people/a.md", 3, 0, "error", "unknown link '[[<b>]]'"), Problem("content/people/b.md", 1, 0, "error", "x")])
    assert "<title>Build failed: 2 errors</title>" in page
    assert "<li><code>content/people/a.md:3: error: unknown link &#x27;[[&lt;b&gt;]]&#x27;</code></li>" in page


@pytest.mark.parametrize("via_make, suggestion", [(None, r"--port \d+"), ("1", r"make serve PORT=\d+")])
def test_a_taken_port_is_refused_with_another_suggested_in_the_form_that_started_it(make_site, capsys, monkeypatch, via_make, suggestion):
    root = make_site()
    if via_make:
        monkeypatch.setenv("DOSSIER_VIA_MAKE", via_make)
    else:
        monkeypatch.delenv("DOSSIER_VIA_MAKE", raising=False)
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        assert main(["serve", "--source", str(root), "--port", str(port)]) == 2
    error = capsys.readouterr().err
    assert re.fullmatch(rf"dossier: error: port {port} on 127\.0\.0\.1 is already in use; try {suggestion}\n", error)


def test_serving_beyond_this_machine_warns(make_site, capsys):
    root = make_site()
    with socket.socket() as taken:
        taken.bind(("0.0.0.0", 0))
        taken.listen()
        port = taken.getsockname()[1]
        assert main(["serve", "--source", str(root), "--host", "0.0.0.0", "--port", str(port)]) == 2
    assert capsys.readouterr().err.startswith("dossier: warning: serving on 0.0.0.0: other machines on the network can see the preview\n")


def test_the_server_never_serves_outside_its_folder_and_survives_a_burst_of_saves(make_site, tmp_path):
    root = make_site()
    (tmp_path / "secret.txt").write_text("TOP SECRET", encoding="utf-8")
    with serving(root) as server:
        (server.folder / "static/leak.txt").symlink_to(tmp_path / "secret.txt")
        for path in ["/../../secret.txt", "/%2e%2e/%2e%2e/secret.txt", "/%2E%2E%2F%2E%2E%2Fsecret.txt", "/static/..%2f..%2fsecret.txt",
                     f"/{tmp_path}/secret.txt", f"//{tmp_path}/secret.txt", "/static/leak.txt", "/etc/passwd"]:
            status, body = server.get(path)
            assert status == 404 and b"TOP SECRET" not in body and b"root:" not in body, path
        assert server.get("/people/jorge-torres/")[0] == 200
        # A burst: an editor's swap file, a temporary file renamed over the original, a backup, a stray.
        folder = root / "content/people"
        (folder / ".jorge-torres.md.swp").write_text("swap", encoding="utf-8")
        (folder / "4913").write_text("", encoding="utf-8")
        (folder / "4913").unlink()
        edit(root, PERSON, "Torres drove a truck.", "Torres drove a burst truck.")
        (folder / "jorge-torres.md~").write_text("backup", encoding="utf-8")
        (folder / ".jorge-torres.md.swp").unlink()
        rebuilds = [line for line in server.printed_since(1.0) if "rendered" in line]
        assert len(rebuilds) == 1, rebuilds
        assert b"a burst truck" in server.get("/people/jorge-torres/")[1]


def test_a_content_error_shows_on_every_page_until_it_is_fixed(make_site):
    root = make_site()
    with serving(root) as server:
        edit(root, PERSON, "See [[aid-convoy]].", "See [[aid-convoi]].")
        server.wait_for(r"error: unknown link")
        for path in ["/", "/people/jorge-torres/", "/no/such/page/", "/about"]:
            status, body = server.get(path)
            assert status == 500 and b"content/people/jorge-torres.md:8:76: error: unknown link &#x27;[[aid-convoi]]&#x27; (did you mean &#x27;aid-convoy&#x27;?)" in body, path
        assert server.get("/static/style.css")[0] == 200
        edit(root, PERSON, "See [[aid-convoi]].", "See [[aid-convoy]].")
        server.wait_for(r"rendered")
        status, body = server.get("/people/jorge-torres/")
        assert status == 200 and b"Jorge Torres" in body


def shown(page, text: str, timeout: float = 5.0) -> float:
    """Wait until the page (reloading by itself) shows text; return how long it took."""
    started = time.monotonic()
    while time.monotonic() - started < timeout:
        try:
            if text in page.evaluate("document.body ? document.body.innerText : ''"):
                return time.monotonic() - started
        except Exception:  # "Execution context was destroyed" while the page reloads
            pass
        time.sleep(0.01)
    raise AssertionError(f"the page never showed {text!r}")


def test_the_browser_follows_saves_and_errors_without_a_manual_reload(make_site, page):
    chromium_or_skip()
    root = make_site()
    with serving(root) as server:
        page.goto(server.url + "people/jorge-torres/")
        page.wait_for_function("() => window.LiveReload && LiveReload.connector && LiveReload.connector.protocol > 0")
        started = time.monotonic()
        edit(root, PERSON, "Torres drove a truck.", "Torres drove a red truck.")
        shown(page, "Torres drove a red truck.")
        edit(root, PERSON, "a red truck", "a blue truck")
        shown(page, "Torres drove a blue truck.")
        assert time.monotonic() - started < 2.5, "livereload drops a reload within 3 s of the last: the second save must show before"
        edit(root, PERSON, "See [[aid-convoy]].", "See [[aid-convoi]].")
        shown(page, "unknown link '[[aid-convoi]]'")
        assert "The site cannot be built: 1 error" in page.title() or "Build failed" in page.title()
        edit(root, PERSON, "See [[aid-convoi]].", "See [[aid-convoy]].")
        shown(page, "Torres drove a blue truck.")
        assert page.title().startswith("Jorge Torres")


def test_serve_starts_from_an_up_to_date_build_and_never_writes_site_or_content(make_site):
    from dossier.pipeline import build

    root = make_site()
    build(root, root / "site")

    def snapshot(folder: Path) -> dict[str, tuple[int, int, bytes]]:
        return {p.relative_to(folder).as_posix(): (p.stat().st_ino, p.stat().st_mtime_ns, p.read_bytes()) for p in folder.rglob("*") if p.is_file()}

    site = snapshot(root / "site")
    with serving(root) as server:
        assert re.search(r"built the preview: rendered 0 pages, \d+ files", "\n".join(server.seen)), server.seen
        assert server.get("/pagefind/pagefind.js")[0] == 200  # the search index came along too
        edit(root, PERSON, "Torres drove a truck.", "Torres drove a green truck.")
        server.wait_for(r"rendered 2 pages")  # the person's page and the claims page listing the sentence
        assert b"a green truck" in server.get("/people/jorge-torres/")[1]
        content = snapshot(root / "content")
    assert snapshot(root / "site") == site
    assert snapshot(root / "content") == content


def test_the_search_index_catches_up_after_edits(make_site):
    root = make_site()
    with serving(root) as server:
        deadline = time.monotonic() + 30
        while server.get("/pagefind/pagefind-entry.json")[0] != 200:  # made in the background after start
            assert time.monotonic() < deadline, "no search index"
            time.sleep(0.1)
        before = server.get("/pagefind/pagefind-entry.json")[1]
        edit(root, PERSON, "Torres drove a truck.", "Torres drove a truck full of searchable marmalade.")
        while server.get("/pagefind/pagefind-entry.json")[1] == before:
            assert time.monotonic() < deadline, "the search index never caught up"
            time.sleep(0.1)


def test_the_preview_indexes_only_the_changed_pages_of_a_large_index(tmp_path, monkeypatch):
    monkeypatch.setattr(search_parts, "PART_PAGES", 16)
    root = copy_project(tmp_path / "project")
    folder = tmp_path / "preview"
    folder.mkdir()

    def part_files() -> list[Path]:
        listed = json.loads((folder / "pagefind/parts.json").read_text(encoding="utf-8"))["parts"]
        return [folder / "pagefind/pagefind.js"] + [folder / "pagefind" / name / "pagefind.js" for name in listed]

    def save_and_index(preview: Preview, old: str, new: str) -> tuple[list[int], list[int]]:
        before = [file.stat().st_ino for file in part_files()]
        edit(root, PERSON, old, new)
        preview.changed = {PERSON}
        preview.rebuild()
        preview.index()
        preview.search_thread.join()
        return before, [file.stat().st_ino for file in part_files()]

    def delta() -> dict:
        return json.loads((folder / "pagefind/parts.json").read_text(encoding="utf-8"))["delta"]

    async def run() -> None:
        preview = Preview(root, folder)
        preview.start()
        assert not (folder / SEARCH_TEXTS).exists()  # its indexing makes its own texts: none go where the preview serves
        preview.index()
        preview.search_thread.join()
        assert len(part_files()) >= 4
        pages = ["people/jorge-torres/index.html"]  # the Spanish page has a body of its own
        before, after = save_and_index(preview, "Torres was a sergeant", "Torres was a Venezuelan sergeant")
        assert before == after and delta()["replaces"] == pages and delta()["added"] == []  # every part carried over
        before, after = save_and_index(preview, "Torres was a Venezuelan sergeant", "Torres was a marmalade sergeant")
        assert before == after and delta()["replaces"] == pages and delta()["added"] == ["marmalade"]  # a word new to the site too
        fragments = (folder / "pagefind/delta").glob("fragment/*.pf_fragment")
        assert any(b"marmalade sergeant" in gzip.decompress(fragment.read_bytes()) for fragment in fragments)
        preview.stop()

    in_a_loop_of_its_own(run)


def test_stopping_the_preview_waits_for_the_search_index_it_was_making(make_site, tmp_path):
    root, folder = make_site(), tmp_path / "preview"
    folder.mkdir()

    async def run() -> None:
        preview = Preview(root, folder)
        preview.start()
        preview.index()
        assert preview.indexing is not None and preview.search_thread is not None
        deadline = time.monotonic() + 30
        while not preview.indexing.running:  # stopped while Pagefind runs
            assert preview.search_thread.is_alive() and time.monotonic() < deadline, "Pagefind never ran"
            await asyncio.sleep(0.005)
        preview.stop()
        assert not preview.search_thread.is_alive(), "the indexing thread goes on writing into the folder being removed"
        assert not (folder / "pagefind").exists()

    in_a_loop_of_its_own(run)


@pytest.mark.parametrize("kind", [InotifyWatcher, WatchfilesWatcher, PollingWatcher])
def test_each_watcher_reports_a_save_a_new_folder_and_a_deletion(make_site, kind):
    root = make_site()
    heard: list[set[str]] = []

    async def wait_for(path: str) -> None:
        deadline = time.monotonic() + 5
        while not any(path in batch for batch in heard) and time.monotonic() < deadline:
            await asyncio.sleep(0.05)
        assert any(path in batch for batch in heard), (path, heard)

    async def edits() -> None:
        watching = kind(root, ["content", "seeds"], heard.append)
        watching.start()
        await asyncio.sleep(0.4)  # a polling watcher's first look
        (root / "content/people/jorge-torres.md").write_text("---\nname: J\n---\n", encoding="utf-8")
        await wait_for("content/people/jorge-torres.md")
        (root / "content/units").mkdir()
        await asyncio.sleep(0.4)
        (root / "content/units/x.md").write_text("---\nname: X\n---\n", encoding="utf-8")
        await wait_for("content/units/x.md")
        (root / "seeds/ap.txt").unlink()
        await wait_for("seeds/ap.txt")
        watching.stop()

    in_a_loop_of_its_own(edits)


@pytest.mark.parametrize("kind", [InotifyWatcher, PollingWatcher])
def test_a_templates_folder_made_while_watching_is_watched(make_site, kind):
    root = make_site()
    assert not (root / "templates").exists()  # a project that uses the package's theme as it is
    heard: list[set[str]] = []
    first: set[str] = set()

    async def edits() -> None:
        watching = kind(root, ["content", "templates", "seeds"], heard.append)
        watching.start()
        await asyncio.sleep(0.4)
        (root / "templates/static").mkdir(parents=True)
        (root / "templates/static/style.css").write_text("body { margin: 0 }\n", encoding="utf-8")
        deadline = time.monotonic() + 5
        while "templates/static/style.css" not in set().union(*heard) and time.monotonic() < deadline:
            await asyncio.sleep(0.05)
        first.update(*heard)
        heard.clear()
        (root / "templates/404.html").write_text("{% extends 'dossier/404.html' %}", encoding="utf-8")  # and what follows in it
        deadline = time.monotonic() + 5
        while "templates/404.html" not in set().union(*heard) and time.monotonic() < deadline:
            await asyncio.sleep(0.05)
        watching.stop()

    in_a_loop_of_its_own(edits)
    assert "templates/static/style.css" in first, first
    assert "templates/404.html" in set().union(*heard), heard


def test_the_preview_watches_the_project_and_the_packages_theme_and_catalogs(make_site, package_theme, package_catalogs):
    from dossier.serve.preview import watchers

    root = make_site({"templates/404.html": "{% extends 'base.html' %}"})
    heard: list[set[str]] = []
    expected = {"dossier/templates/static/site.js", "templates/404.html", "dossier/locale/es/LC_MESSAGES/dossier.po"}

    async def edits() -> None:
        watching = watchers(root, heard.append)
        for each in watching:
            each.start()
        await asyncio.sleep(0.4)  # a polling watcher's first look
        (package_theme / "static/site.js").write_text("// edited\n", encoding="utf-8")
        (root / "templates/404.html").write_text("{% extends 'dossier/404.html' %}", encoding="utf-8")
        catalog = package_catalogs / "es/LC_MESSAGES/dossier.po"
        catalog.write_text(catalog.read_text(encoding="utf-8").replace('msgstr "Ir al contenido"', 'msgstr "Saltar al contenido"'), encoding="utf-8")
        deadline = time.monotonic() + 5
        while not expected <= set().union(*heard) and time.monotonic() < deadline:
            await asyncio.sleep(0.05)
        for each in watching:
            each.stop()

    in_a_loop_of_its_own(edits)
    assert expected <= set().union(*heard), heard


def test_livereload_is_the_pinned_version_whose_internals_the_server_overrides():
    from importlib import metadata

    from livereload import Server
    from livereload.handlers import LiveReloadHandler
    from livereload.watcher import Watcher

    text = (PROJECT / "pyproject.toml").read_text(encoding="utf-8")
    assert metadata.version("livereload") == re.search(r'"livereload==([^"]+)"', text).group(1), (
        "server.py overrides Server.application and _setup_logging and clears Watcher._changes: "
        "check them against this livereload, then change the pin in pyproject.toml")
    assert callable(Server.application) and callable(Server._setup_logging)
    assert isinstance(Watcher()._changes, list) and isinstance(LiveReloadHandler.waiters, set)


def in_a_loop_of_its_own(coroutine: Callable[[], Awaitable[None]]) -> None:
    """Run a coroutine in an event loop of its own thread (the browser tests keep one running in the
    main thread), raising here what it raised."""
    failures: list[BaseException] = []

    def run() -> None:
        try:
            asyncio.run(coroutine())
        except BaseException as error:
            failures.append(error)

    worker = threading.Thread(target=run)
    worker.start()
    worker.join()
    if failures:
        raise failures[0]
