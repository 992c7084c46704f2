"""Full-text search: the Pagefind index, built on the staged site, and a small index for file:// use.

Pagefind (the `pagefind[extended]` package, with its bundled binary) indexes every page that marks
its text with `data-pagefind-body`. Browsers refuse to load Pagefind's modules from file://, so a
portable build also carries `search/fallback.js`: the same text as a plain script.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from html.parser import HTMLParser
from pathlib import Path

from .problems import UsageError

NOT_INDEXED = ".citation"  # citation markers and their previews: the passages are indexed once, in the reference list
# The pages that can hold indexed text: the home page, other pages and record pages. Pagefind need
# not read the rest (indexes and the timeline's many filter pages) to find that they hold none.
INDEXED_PAGES = "{index.html,*/index.html,*/*/index.html}"
# Pagefind writes its own ready-made interfaces too; the site uses its own small one (static/search.js).
UNUSED_BUNDLE_FILES = (
    "pagefind-ui.js", "pagefind-ui.css", "pagefind-modular-ui.js", "pagefind-modular-ui.css",
    "pagefind-component-ui.js", "pagefind-component-ui.css", "pagefind-highlight.js",
)


def index_site(folder: Path) -> None:
    """Run Pagefind over a built site folder, writing its index into folder/pagefind/."""
    finish_index(start_index(folder), folder)


def start_index(folder: Path, *, background: bool = False) -> subprocess.Popen:
    """Start Pagefind on a site folder whose indexed pages are all written; finish_index() waits for it.
    In the background: at the lowest CPU priority (where `nice` exists), leading its own process group."""
    command = [sys.executable, "-m", "pagefind", "--site", str(folder), "--exclude-selectors", NOT_INDEXED, "--glob", INDEXED_PAGES, "--silent"]
    if background and shutil.which("nice"):
        command = ["nice", "-n", "19", *command]
    try:
        return subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=background)
    except OSError as error:
        raise UsageError(f"search indexing failed: {error}") from error


def finish_index(process: subprocess.Popen, folder: Path) -> None:
    """Wait for a Pagefind run, check that it wrote an index and drop the bundle files the site does not use."""
    try:
        stdout, stderr = process.communicate(timeout=600)
    except subprocess.TimeoutExpired as error:
        process.kill()
        process.wait()
        raise UsageError(f"search indexing failed: {error}") from error
    if process.returncode != 0 or not (folder / "pagefind" / "pagefind.js").is_file():
        detail = (stderr or stdout).strip().splitlines()[-1:] or ["no index written"]
        raise UsageError(f"search indexing failed ({detail[0]}); is pagefind installed? pip install 'pagefind[extended]'")
    for name in UNUSED_BUNDLE_FILES:
        (folder / "pagefind" / name).unlink(missing_ok=True)
    shutil.rmtree(folder / "pagefind" / "playground", ignore_errors=True)


def stop_index(process: subprocess.Popen | None) -> None:
    """Stop a Pagefind run that is no longer wanted (the build failed)."""
    if process is not None and process.poll() is None:
        process.kill()
        process.communicate()


class _BodyText(HTMLParser):
    """Collect the searchable text of a page: its data-pagefind-body element, less ignored parts."""

    VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}

    def __init__(self) -> None:
        super().__init__()
        self.depth = 0  # elements open inside the body element (0: outside it)
        self.ignored_at = 0  # depth at which an ignored element opened (0: none)
        self.title: list[str] = []
        self.in_title = False
        self.type = ""
        self.text: list[str] = []

    def handle_starttag(self, tag: str, attrs: list) -> None:
        values = dict(attrs)
        meta = values.get("data-pagefind-meta") or ""
        if meta.startswith("type:"):
            self.type = meta[5:]
        if tag in self.VOID:
            return
        if self.depth == 0 and "data-pagefind-body" in values:
            self.depth = 1
            return
        if self.depth:
            self.depth += 1
            ignored = "data-pagefind-ignore" in values or tag in ("script", "style", "svg") or "citation" in (values.get("class") or "").split()
            if not self.ignored_at and ignored:
                self.ignored_at = self.depth
            if tag == "h1" and not self.title:
                self.in_title = True

    def handle_endtag(self, tag: str) -> None:
        if tag in self.VOID or not self.depth:
            return
        if self.ignored_at == self.depth:
            self.ignored_at = 0
        if tag == "h1":
            self.in_title = False
        self.depth -= 1

    def handle_data(self, data: str) -> None:
        if self.depth and not self.ignored_at:
            self.text.append(data)
            if self.in_title:
                self.title.append(data)


def fallback_index(files: dict[str, bytes]) -> bytes:
    """Return search/fallback.js: the title, type and text of every indexed page, for use from file://."""
    pages = []
    for path in sorted(files):
        if not path.endswith(".html"):
            continue
        parser = _BodyText()
        parser.feed(files[path].decode("utf-8"))
        if not parser.text:
            continue
        url = path[: -len("index.html")] if path.endswith("index.html") else path
        text = " ".join(" ".join(parser.text).split())
        pages.append({"url": url, "title": " ".join("".join(parser.title).split()), "type": parser.type, "text": text})
    data = json.dumps(pages, ensure_ascii=False, separators=(",", ":")).replace("</", "<\\/")
    return ("// Search data for pages opened from disk, where Pagefind cannot load.\nwindow.dossierSearchPages = " + data + ";\n").encode("utf-8")
