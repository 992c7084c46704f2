"""Full-text search: running Pagefind over the staged site, a large site in parts (parts.py).

Pagefind (the `pagefind[extended]` package, with its bundled binary) indexes every page that marks
its text with `data-pagefind-body`; a large site in parts, of which a build indexes again only those
whose pages changed, or, after a few edits, only those pages into a small extra bundle (the delta).
The portable build's plain index is render/fallback.py.
"""

from __future__ import annotations

import html
import json
import os
import re
import shutil
import signal
import subprocess
import tempfile
import threading
from pathlib import Path
from typing import Iterable

from .binary import indexing_failed, pagefind_command, sort_languages
from .pagetext import removal_of_texts, search_text, texts_in_order
from .parts import (BUNDLE, DELTA, DELTA_PART, VOCABULARY_PAGE, Delta, base_words, delta_takes, fragments, part_folder, part_of,
                    previous_listing, split, words_digest)
from .words import text_words
from ..render.fallback import NOT_INDEXED
from ..model.i18n import LANGUAGES
from ..publish.folders import staged_or_live
from ..publish.staging import carry_over, scratch, scratch_texts, walk_files, write_into

EXCLUDED = [f".{name}" for name in NOT_INDEXED]  # Pagefind's selectors for what search leaves out (render/fallback.py NOT_INDEXED)
# Pagefind writes its own ready-made interfaces too; the site uses its own small one (static/search.js).
UNUSED_BUNDLE_FILES = (
    "pagefind-ui.js", "pagefind-ui.css", "pagefind-modular-ui.js", "pagefind-modular-ui.css",
    "pagefind-component-ui.js", "pagefind-component-ui.css", "pagefind-highlight.js",
)
LANGUAGE = re.compile(rb'<html lang="([^"]+)"')


def index_site(folder: Path, pages: Iterable[str]) -> None:
    """Index the named pages of a built site folder, writing the bundle into folder/pagefind/."""
    Indexing(folder, pages).finish()


class Indexing:
    """Pagefind runs over the parts of a site folder that need indexing, a few at a time, then the
    bundle put together: parts whose pages did not change are carried over from the previous site.

    words: every word of those pages, as text_words() finds them (None: read the pages to find them).
    changed: the searchable pages that are new, changed or gone since previous was indexed (None:
    index every part). While the pages changed since previous's parts were all indexed are few, only
    they are indexed, into the delta (see DELTA); else the parts holding them, and every part when the
    site's words changed (see VOCABULARY_PAGE). In the background, Pagefind runs at the lowest CPU
    priority (where `nice` exists), each run leading its own process group. patches: the folder is a
    staging folder that will patch previous (publish/patch.py), where the parts not indexed again then
    stay as they are: only the parts (and delta) indexed again are staged, with parts.json, unless the
    first part was (its files are the bundle's top folder), when every part is.
    """

    def __init__(self, folder: Path, pages: Iterable[str], *, words: set[str] | None = None, changed: set[str] | None = None,
                 previous: Path | None = None, background: bool = False, jobs: int | None = None, texts: Path | None = None, patches: bool = False):
        self.folder, self.background, self.previous, self.words = folder.resolve(), background, previous, words  # Pagefind runs elsewhere
        self.patches = patches
        self.kept: set[str] = set()  # with patches, the files of previous's bundle left in place, by their path in the site
        # What Pagefind reads of each page (pagetext.py): the copies a build's rendering put in the folder
        # texts (see publish.staging.texts_folder), or without it made here, in a folder of this indexing's own.
        self.texts = texts or scratch_texts(scratch() or Path(tempfile.gettempdir()))
        self.parts = split(pages)
        # The pages whose text is yet to be made, found in the build's own thread: the thread that runs Pagefind
        # waits for the interpreter's lock after each system call while the build renders (600 checks a part).
        texts_there = str(self.texts)
        self.untexted = {path for part in self.parts for path in part if texts is None or not os.path.isfile(os.path.join(texts_there, path))}
        self.texts_gone, self.removals = set[str](), list[threading.Thread]()  # the pages whose texts a run indexed, and the threads deleting them
        # A site of several languages (es/...) has a vocabulary page in each: Pagefind keeps an index per
        # language, and a part without the reader's language would answer in another one.
        self.vocabularies = [VOCABULARY_PAGE] + sorted({f"{path.split('/')[0]}/{VOCABULARY_PAGE}" for part in self.parts for path in part
                                                        if path.split("/")[0] in LANGUAGES})
        self.todo, self.queue = list[int](), list[int]()  # the parts to index (DELTA_PART for the delta), and those not begun
        self.vocabulary = ""  # digest of the words the parts are indexed with, when the site comes in parts
        self.listing: dict = {}  # the previous index's parts.json, if it can be brought up to date
        self.delta: Delta | None = None
        self.running: dict[int, subprocess.Popen] = {}
        self.failures: list[str] = []
        self.stopped, self.lock = False, threading.Lock()
        self.jobs = jobs or os.cpu_count() or 1  # Pagefind runs at a time (see widen())
        self.slots = threading.Semaphore(self.jobs)
        self.runner = threading.Thread(target=self.run, args=(changed,), daemon=True)
        self.runner.start()

    def run(self, changed: set[str] | None) -> None:
        """Work out which parts to index, and index them with a few Pagefind runs at a time: a thread
        for each part, waiting for one of the slots that widen() may add to."""
        try:
            count = len(self.parts)
            if count > 1 and self.words is None:
                self.words = set().union(*(text_words(self.page(path)) for part in self.parts for path in part))
            self.listing = previous_listing(self.previous) if self.previous is not None and changed is not None else {}
            self.delta = self.plan_delta(changed) if count > 1 else None
            if self.delta is not None:
                self.vocabulary = self.listing["words"]
                self.write_vocabulary(self.delta.base | (self.words or set()))
                self.todo = [] if self.delta.carried else [DELTA_PART]
            else:
                if count > 1:
                    self.vocabulary = self.write_vocabulary(self.words or set())
                if not self.listing or len(self.listing["parts"]) + 1 != count or self.listing.get("words", "") != self.vocabulary:
                    self.todo = list(range(count))
                else:
                    replaced = set(self.listing.get(DELTA, {}).get("replaces", ()))
                    self.todo = sorted({part_of(path, count) for path in (changed or set()) | replaced})
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

    def plan_delta(self, changed: set[str] | None) -> Delta | None:
        """Return the delta to index (or carry over) from the previous index, or None where there can
        be none: no previous index in parts of the same number, words it was indexed with that cannot
        be read back, or more pages changed since it was indexed whole than a delta takes."""
        listing, count = self.listing, len(self.parts)
        if changed is None or len(listing.get("parts", ())) + 1 != count:
            return None
        kept = listing.get(DELTA, {})
        replaced = set(kept.get("replaces", ())) | changed
        if not replaced or not delta_takes(replaced):
            return None
        assert self.previous is not None
        base = base_words(self.previous / BUNDLE, listing)
        if base is None:
            return None
        pages = set(path for part in self.parts for path in part)
        return Delta(sorted(replaced & pages), sorted(replaced), base, sorted((self.words or set()) - base), carried=bool(kept) and not changed)

    def output(self, number: int) -> Path:
        """Return the folder beside the bundle where a part (or the delta) is indexed."""
        return self.folder / f".{BUNDLE}-{DELTA if number == DELTA_PART else f'part-{number}'}"

    def index_part(self, number: int) -> str | None:
        """Index one part (or the delta) into its own folder beside the bundle; return what went wrong, if anything."""
        output = self.output(number)
        shutil.rmtree(output, ignore_errors=True)
        with tempfile.TemporaryDirectory() as workdir:
            # Pagefind reads its settings from the folder it runs in: a list of pages is too long for a command line.
            own = self.delta.pages if number == DELTA_PART and self.delta is not None else self.parts[number]
            pages = own + (self.vocabularies if len(self.parts) > 1 else [])
            for path in own:  # the vocabulary pages' are written with them
                if path in self.untexted or path in self.texts_gone:  # carried over from the last build, not rendered by a build, or indexed already
                    text = search_text(self.page(path))
                    if text is not None:
                        write_into(self.texts, {path: text})
            site = self.texts / f".part-{number}"  # Pagefind reads each page's searchable text alone (pagetext.py), in path order
            texts_in_order(self.texts, own, pages[len(own):], site)
            glob = "{" + ",".join(pages) + "}"  # paths of slugs: nothing in them a glob reads specially
            settings = {"site": str(site), "glob": glob, "output_path": str(output), "exclude_selectors": EXCLUDED, "silent": True}
            Path(workdir, "pagefind.json").write_text(json.dumps(settings), encoding="utf-8")
            command = pagefind_command()
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
        self.texts_gone.update(own)  # deleted while the build goes on: at its end, deleting them all took 2.3 s at 10,000 records
        self.removals.append(removal_of_texts(site))
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
        numbers = list(range(len(self.parts))) + ([DELTA_PART] if self.delta is not None else [])
        staged_alone = self.patches and bool(self.listing) and 0 not in self.todo and self.kept_live(0)
        for number in numbers:
            if staged_alone and number not in self.todo and self.kept_live(number):
                self.kept |= {f"{part_folder(number)}/{path}" for path in self.part_files(number)}  # it stays in the site this folder patches
                continue
            target = bundle / part_folder(number).removeprefix(BUNDLE).lstrip("/")
            target.parent.mkdir(parents=True, exist_ok=True)
            if number in self.todo:
                self.output(number).rename(target)
            elif not self.carry_part(number, target):
                failure = self.index_part(number)  # the previous part is not all there: index it again
                if failure:
                    self.clean()
                    raise indexing_failed(failure)
                self.output(number).rename(target)
                if number == 0:
                    self.listing.pop("vocabulary", None)  # its vocabulary page may hold other words now
        self.remove_vocabulary()
        bundle.mkdir(exist_ok=True)  # (with only parts.json, where every part stays in place)
        (bundle / "parts.json").write_text(json.dumps(self.parts_listing(bundle), ensure_ascii=False) + "\n", encoding="utf-8")
        live, old = self.folder / BUNDLE, self.folder / f".{BUNDLE}-old"
        shutil.rmtree(old, ignore_errors=True)
        if live.exists():
            live.rename(old)
        bundle.rename(live)
        shutil.rmtree(old, ignore_errors=True)

    def parts_listing(self, bundle: Path) -> dict:
        """Return what the search page reads from parts.json: the other parts' folders, and the delta's
        folder, the pages it replaces, its own results' ids and the words new since the parts were
        indexed; and, for the next build, the digest of the words the parts were indexed with and the
        fragment of the first part's vocabulary page, which holds them."""
        if len(self.parts) == 1:
            return {"parts": [], "words": ""}
        first = bundle if (bundle / "pagefind.js").is_file() or self.previous is None else self.previous / BUNDLE  # staged, or left in place
        vocabulary = self.listing.get("vocabulary") if 0 not in self.todo else None
        if vocabulary is None or not (first / "fragment" / f"{vocabulary}.pf_fragment").is_file():
            vocabulary = next((name for name, data in fragments(first) if data.get("url") == "/" + VOCABULARY_PAGE.removesuffix("index.html")), "")
        listing = {"parts": [f"parts/{number}/" for number in range(1, len(self.parts))], "words": self.vocabulary, "vocabulary": vocabulary}
        if self.delta is not None:
            delta = bundle / DELTA if (bundle / DELTA).is_dir() or self.previous is None else self.previous / BUNDLE / DELTA
            ids = sorted(name for name, data in fragments(delta) if not data.get("url", "").endswith("/pagefind-vocabulary/"))
            listing[DELTA] = {"folder": f"{DELTA}/", "replaces": self.delta.replaces, "ids": ids, "added": self.delta.added}
        return listing

    def kept_live(self, number: int) -> bool:
        """Tell whether a part's (or the delta's) bundle is there in the previous site (its pagefind.js is written last)."""
        return self.previous is not None and (self.previous / part_folder(number) / "pagefind.js").is_file()

    def part_files(self, number: int) -> list[str]:
        """Return the files of a part's (or the delta's) bundle in the previous site, by their path in it."""
        assert self.previous is not None
        source = self.previous / part_folder(number)
        return [path for path in walk_files(source) if path.split("/")[0] not in ("parts", DELTA) and path != "parts.json"] if number == 0 else list(walk_files(source))

    def carry_part(self, number: int, target: Path) -> bool:
        """Link a part's (or the delta's) bundle from the previous site into target; tell whether it was all there."""
        assert self.previous is not None
        source = self.previous / part_folder(number)
        files = self.part_files(number)
        try:
            if "pagefind.js" in files:
                carry_over(source, target, files)
                return True
        except OSError:
            pass
        shutil.rmtree(target, ignore_errors=True)
        return False

    def page(self, path: str) -> bytes:
        """Return a staged page, or the live one that a patching build did not stage (folders.py)."""
        return staged_or_live(self.folder, self.previous, path)

    def write_vocabulary(self, words: set[str]) -> str:
        """Write the page of the given words that each part (and the delta) indexes too (see
        VOCABULARY_PAGE); return their digest."""
        text = " ".join(sorted(words))
        for vocabulary in self.vocabularies:
            prefix = vocabulary.removesuffix(VOCABULARY_PAGE)
            first = next(path for part in self.parts for path in part if path.startswith(prefix) and (prefix or path.split("/")[0] not in LANGUAGES))
            found = LANGUAGE.search(self.page(first)[:512])
            language = found.group(1) if found else b"en"
            vocabulary_page = (f'<!DOCTYPE html><html lang="{html.escape(language.decode("ascii", "replace"))}"><head><title>-</title></head>'
                    f"<body><main data-pagefind-body>{html.escape(text)}</main></body></html>\n").encode()
            for folder in (self.folder, self.texts):
                (folder / vocabulary).parent.mkdir(parents=True, exist_ok=True)
                (folder / vocabulary).write_bytes(vocabulary_page)
        return words_digest(words)

    def remove_vocabulary(self) -> None:
        """Remove the vocabulary page and the pages' texts: they are for Pagefind only, never part of the site."""
        for removal in self.removals:
            removal.join()
        for vocabulary in self.vocabularies:
            shutil.rmtree((self.folder / vocabulary).parent, ignore_errors=True)
        shutil.rmtree(self.texts, ignore_errors=True)

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
        elif not self.texts.is_relative_to(self.folder):
            shutil.rmtree(self.texts, ignore_errors=True)  # outside the folder the preview removes

    def clean(self) -> None:
        """Remove the vocabulary page and the folders of parts that were indexed but will not be used."""
        self.remove_vocabulary()
        for number in self.todo:
            shutil.rmtree(self.output(number), ignore_errors=True)
