"""Full-text search: running Pagefind over the staged site, a large site in parts.

Pagefind (the `pagefind[extended]` package, with its bundled binary) indexes every page that marks
its text with `data-pagefind-body`; a large site in parts, of which a build indexes again only those
whose pages changed. The portable build's plain index is in fallback.py.
"""

from __future__ import annotations

import hashlib
import html
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import zlib
from pathlib import Path
from typing import Iterable

from .i18n import LANGUAGES
from .problems import BuildFailure
from .publish import carry_over, walk_files

NOT_INDEXED = ".citation"  # citation markers and their previews: the passages are indexed once, in the reference list
SEARCHABLE = b"data-pagefind-body"  # what marks a page whose text is indexed
BUNDLE = "pagefind"  # where the index goes in the site
# Pagefind writes its own ready-made interfaces too; the site uses its own small one (static/search.js).
UNUSED_BUNDLE_FILES = (
    "pagefind-ui.js", "pagefind-ui.css", "pagefind-modular-ui.js", "pagefind-modular-ui.css",
    "pagefind-component-ui.js", "pagefind-component-ui.css", "pagefind-highlight.js",
)
# Pagefind holds every word it indexes in memory (about 0.3 MB a page of ours) until it writes the
# index: a large site is indexed in parts of at most about this many pages, which the search page
# loads together. Only the parts whose pages changed are indexed again.
PART_PAGES = 1000
# Pagefind quietly matches nothing once a glob is about 300,000 characters long (measured with 1.5.2):
# parts are also made small enough that the paths of one stay well below that.
PART_CHARACTERS = 100_000
# Where a word is in none of a part's pages, Pagefind searches that part for the longest start of it
# that is ("to" for "torres"): each part also indexes a page holding every word of the site, which
# the search page leaves out of its results, so that a part answers as the whole index would.
VOCABULARY_PAGE = "pagefind-vocabulary/index.html"
TAG = re.compile(r"<[^>]*>")
WORD = re.compile(r"[^\W_]+(?:['’.\-][^\W_]+)*")
JOINER = re.compile(r"['’.\-]")
LANGUAGE = re.compile(rb'<html lang="([^"]+)"')


def words_of(page: bytes) -> set[str]:
    """Return the words of a page (more than search indexes, never fewer): each run of letters and
    digits, and runs joined by apostrophes, hyphens or dots both as they are and run together.
    Only what follows the first element search indexes is read: Pagefind indexes nothing before it."""
    marked = page.find(SEARCHABLE)
    if marked >= 0:
        page = page[page.find(b">", marked) + 1:]
    text = html.unescape(TAG.sub(" ", page.decode("utf-8", "replace"))).lower()
    found = set(WORD.findall(text))
    for word in [word for word in found if JOINER.search(word)]:
        found.add(JOINER.sub("", word))
        found.update(JOINER.split(word))
    return found


def split(pages: Iterable[str], part_pages: int | None = None) -> list[list[str]]:
    """Split the searchable pages into parts of about part_pages at most: a power of two of them,
    each page in the part its path hashes to, so that the same page stays in the same part."""
    pages = sorted(pages)
    limit = part_pages or PART_PAGES
    characters = sum(len(path) + 1 for path in pages)
    count = 1
    while count * limit < len(pages) or count * PART_CHARACTERS < characters:
        count *= 2
    while True:
        parts: list[list[str]] = [[] for _ in range(count)]
        for path in pages:
            parts[part_of(path, count)].append(path)
        if count == 1 or all(parts):  # Pagefind cannot index an empty part
            return parts
        count //= 2


def part_of(path: str, count: int) -> int:
    """Return the number of the part that indexes a page, out of count parts."""
    return zlib.crc32(path.encode("utf-8")) % count


def part_folder(number: int) -> str:
    """Return where a part's bundle goes in the site: the first is the one the search page loads."""
    return BUNDLE if number == 0 else f"{BUNDLE}/parts/{number}"


def index_site(folder: Path, pages: Iterable[str]) -> None:
    """Index the named pages of a built site folder, writing the bundle into folder/pagefind/."""
    Indexing(folder, pages).finish()


class Indexing:
    """Pagefind runs over the parts of a site folder that need indexing, a few at a time, then the
    bundle put together: parts whose pages did not change are carried over from the previous site.

    words: every word of those pages, as words_of() finds them (None: read the pages to find them).
    changed: the searchable pages that are new, changed or gone since previous was indexed (None:
    index every part). A change to the site's words changes every part (see VOCABULARY_PAGE). In
    the background, Pagefind runs at the lowest CPU priority (where `nice` exists), each run
    leading its own process group.
    """

    def __init__(self, folder: Path, pages: Iterable[str], *, words: set[str] | None = None, changed: set[str] | None = None,
                 previous: Path | None = None, background: bool = False, jobs: int | None = None):
        self.folder, self.background, self.previous, self.words = folder.resolve(), background, previous, words  # Pagefind runs elsewhere
        self.parts = split(pages)
        # A site of several languages (es/...) has a vocabulary page in each: Pagefind keeps an index per
        # language, and a part without the reader's language would answer in another one.
        self.vocabularies = [VOCABULARY_PAGE] + sorted({f"{path.split('/')[0]}/{VOCABULARY_PAGE}" for part in self.parts for path in part
                                                        if path.split("/")[0] in LANGUAGES})
        self.todo: list[int] = []
        self.queue: list[int] = []
        self.vocabulary = ""  # digest of the site's words, when it comes in parts
        self.running: dict[int, subprocess.Popen] = {}
        self.failures: list[str] = []
        self.stopped = False
        self.lock = threading.Lock()
        self.jobs = jobs or os.cpu_count() or 1  # Pagefind runs at a time (see widen())
        self.slots = threading.Semaphore(self.jobs)
        self.runner = threading.Thread(target=self.run, args=(changed,), daemon=True)
        self.runner.start()

    def run(self, changed: set[str] | None) -> None:
        """Work out which parts to index, and index them with a few Pagefind runs at a time: a thread
        for each part, waiting for one of the slots that widen() may add to."""
        try:
            count = len(self.parts)
            if count > 1:
                self.write_vocabulary()
            if self.previous is None or changed is None or previous_index(self.previous) != (count, self.vocabulary):
                self.todo = list(range(count))
            else:
                self.todo = sorted({part_of(path, count) for path in changed})
            self.queue = list(self.todo)
            workers = [threading.Thread(target=self.work, daemon=True) for _ in self.todo]
            for worker in workers:
                worker.start()
            for worker in workers:
                worker.join()
        except Exception as error:  # reported by finish(), in the build's own thread
            self.failures.append(repr(error))

    def work(self) -> None:
        """Run Pagefind over the parts left to do, one after another, until none is left."""
        while True:
            with self.slots:
                with self.lock:
                    if self.stopped or not self.queue:
                        return
                    number = self.queue.pop(0)
                failure = self.index_part(number)
            if failure:
                with self.lock:
                    if self.stopped:  # stopped on purpose, not a failure
                        return
                    self.failures.append(failure)
                    self.stopped = True

    def widen(self, jobs: int) -> None:
        """Let up to jobs Pagefind runs go at a time from now on (each holds its part's words in memory:
        a build runs one while its pages still render, then one per core)."""
        with self.lock:
            more, self.jobs = max(0, jobs - self.jobs), max(jobs, self.jobs)
        for _ in range(more):
            self.slots.release()

    def index_part(self, number: int) -> str | None:
        """Index one part into its own folder beside the bundle; return what went wrong, if anything."""
        output = self.folder / f".{BUNDLE}-part-{number}"
        shutil.rmtree(output, ignore_errors=True)
        with tempfile.TemporaryDirectory() as workdir:
            # Pagefind reads its settings from the folder it runs in: a list of pages is too long for a command line.
            pages = self.parts[number] + (self.vocabularies if len(self.parts) > 1 else [])
            glob = "{" + ",".join(pages) + "}"  # paths of slugs: nothing in them a glob reads specially
            settings = {"site": str(self.folder), "glob": glob, "output_path": str(output), "exclude_selectors": [NOT_INDEXED], "silent": True}
            Path(workdir, "pagefind.json").write_text(json.dumps(settings), encoding="utf-8")
            command = [sys.executable, "-m", "pagefind"]
            if self.background and shutil.which("nice"):
                command = ["nice", "-n", "19", *command]
            with self.lock:
                if self.stopped:
                    return None
                try:
                    process = subprocess.Popen(command, cwd=workdir, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                               start_new_session=self.background)
                except OSError as error:
                    return str(error)
                self.running[number] = process
            try:
                stdout, stderr = process.communicate(timeout=600)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
                return "Pagefind took more than 10 minutes"
            finally:
                with self.lock:
                    self.running.pop(number, None)
        if process.returncode != 0 or not (output / "pagefind.js").is_file():
            return ((stderr or stdout).strip().splitlines()[-1:] or ["no index written"])[0]
        for name in UNUSED_BUNDLE_FILES:
            (output / name).unlink(missing_ok=True)
        shutil.rmtree(output / "playground", ignore_errors=True)
        sort_languages(output / "pagefind-entry.json")
        return None

    def finish(self, jobs: int | None = None) -> None:
        """Wait for every run (up to jobs at a time from now on; default: one per core), then put
        the bundle in place (replacing the folder's old one, if any)."""
        self.widen(jobs or os.cpu_count() or 1)
        self.runner.join()
        if self.failures or self.stopped:
            self.clean()
            raise indexing_failed(self.failures[0] if self.failures else 'stopped')
        bundle = self.folder / f".{BUNDLE}-new"
        shutil.rmtree(bundle, ignore_errors=True)
        for number in range(len(self.parts)):
            target = bundle / part_folder(number).removeprefix(BUNDLE).lstrip("/")
            target.parent.mkdir(parents=True, exist_ok=True)
            if number in self.todo:
                (self.folder / f".{BUNDLE}-part-{number}").rename(target)
            elif not self.carry_part(number, target):
                failure = self.index_part(number)  # the previous part is not all there: index it again
                if failure:
                    self.clean()
                    raise indexing_failed(failure)
                (self.folder / f".{BUNDLE}-part-{number}").rename(target)
        self.remove_vocabulary()
        names = [f"parts/{number}/" for number in range(1, len(self.parts))]
        (bundle / "parts.json").write_text(json.dumps({"parts": names, "words": self.vocabulary}) + "\n", encoding="utf-8")
        live, old = self.folder / BUNDLE, self.folder / f".{BUNDLE}-old"
        shutil.rmtree(old, ignore_errors=True)
        if live.exists():
            live.rename(old)
        bundle.rename(live)
        shutil.rmtree(old, ignore_errors=True)

    def carry_part(self, number: int, target: Path) -> bool:
        """Link a part's bundle from the previous site into target; tell whether it was all there."""
        assert self.previous is not None
        source = self.previous / part_folder(number)
        files = [path for path in walk_files(source) if path.split("/")[0] != "parts" and path != "parts.json"] if number == 0 else list(walk_files(source))
        try:
            if "pagefind.js" in files:
                carry_over(source, target, files)
                return True
        except OSError:
            pass
        shutil.rmtree(target, ignore_errors=True)
        return False

    def write_vocabulary(self) -> None:
        """Write the page of every word of the site that each part indexes too (see VOCABULARY_PAGE)."""
        if self.words is None:
            self.words = set().union(*(words_of((self.folder / path).read_bytes()) for part in self.parts for path in part))
        text = " ".join(sorted(self.words))
        self.vocabulary = hashlib.sha256(text.encode("utf-8")).hexdigest()[:20]
        for vocabulary in self.vocabularies:
            prefix = vocabulary.removesuffix(VOCABULARY_PAGE)
            first = next(path for part in self.parts for path in part if path.startswith(prefix) and (prefix or path.split("/")[0] not in LANGUAGES))
            with open(self.folder / first, "rb") as page:
                found = LANGUAGE.search(page.read(512))
            language = found.group(1) if found else b"en"
            target = self.folder / vocabulary
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(f'<!DOCTYPE html><html lang="{html.escape(language.decode("ascii", "replace"))}"><head><title>-</title></head>'
                              f"<body><main data-pagefind-body>{html.escape(text)}</main></body></html>\n", encoding="utf-8")

    def remove_vocabulary(self) -> None:
        """Remove the vocabulary page: it is for Pagefind only, never part of the site."""
        for vocabulary in self.vocabularies:
            shutil.rmtree((self.folder / vocabulary).parent, ignore_errors=True)

    def stop(self, *, wait: bool = True) -> None:
        """Stop indexing that is no longer wanted (the build failed, or the preview stopped); with
        wait, let the runs end and remove what they left (the preview removes its whole folder instead)."""
        with self.lock:
            self.stopped = True
            running = list(self.running.values())
        for process in running:
            try:
                if self.background:
                    os.killpg(process.pid, signal.SIGTERM)
                else:
                    process.kill()
            except ProcessLookupError:
                pass
        if wait:
            self.runner.join(10)
            self.clean()

    def clean(self) -> None:
        """Remove the vocabulary page and the folders of parts that were indexed but will not be used."""
        self.remove_vocabulary()
        for number in self.todo:
            shutil.rmtree(self.folder / f".{BUNDLE}-part-{number}", ignore_errors=True)


def sort_languages(entry: Path) -> None:
    """Write the index's list of languages in a fixed order: Pagefind writes a site of several
    languages in any order, and two builds of the same input must be byte-identical."""
    data = json.loads(entry.read_text(encoding="utf-8"))
    if len(data.get("languages", {})) > 1:
        data["languages"] = dict(sorted(data["languages"].items()))
        entry.write_text(json.dumps(data, ensure_ascii=False, separators=(",", ":")), encoding="utf-8")


def indexing_failed(reason: str) -> BuildFailure:
    """Return the error a failed Pagefind run stops the build with."""
    return BuildFailure(f"search indexing failed ({reason}); is pagefind installed? pip install 'pagefind[extended]'")


def previous_index(site: Path) -> tuple[int, str]:
    """Return how many parts the search bundle of a built site has, and the digest of the words it
    was made with ((0, ""): none, or not one that can be brought up to date)."""
    try:
        listing = json.loads((site / BUNDLE / "parts.json").read_text(encoding="utf-8"))
        listed, words = listing["parts"], listing.get("words", "")
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return 0, ""
    complete = all((site / BUNDLE / name / "pagefind.js").is_file() for name in listed)
    return (len(listed) + 1, words) if complete else (0, "")
