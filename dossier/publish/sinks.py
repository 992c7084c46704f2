"""Where rendered files go: into memory for the preview, or into a staging folder for a build,
with every file that did not change carried over from the previous site."""

from __future__ import annotations

from pathlib import Path
from typing import Callable, Iterable, Iterator, Mapping

from .folders import staged_or_live
from .staging import carry_over, write_into


class EveryPage(Mapping[str, bytes]):
    """Every page of the site by path: the ones just rendered, the others read back from where they
    were last written, or rendered again when there is no such folder (for the search fallback)."""

    def __init__(self, pages: dict[str, Callable[[], bytes]], fresh: dict[str, bytes], folder: Path | None, previous: Path | None = None):
        self.pages, self.fresh, self.folder, self.previous = pages, fresh, folder, previous

    def __getitem__(self, path: str) -> bytes:
        if path in self.fresh:
            return self.fresh[path]
        return self.pages[path]() if self.folder is None else staged_or_live(self.folder, self.previous, path)

    def __contains__(self, path: object) -> bool:
        return path in self.pages

    def __iter__(self) -> Iterator[str]:
        return iter(self.pages)

    def __len__(self) -> int:
        return len(self.pages)


class MemorySink:
    """Where the preview's renders go: the new or changed files, kept in memory."""

    in_memory = True
    folder = None

    def __init__(self, previous: Path | None):
        self.previous = previous  # where the other pages are, as last written
        self.files: dict[str, bytes] = {}

    def put(self, path: str, data: bytes, unchanged: bool, text: bytes | None = None) -> None:
        """Keep a file if it changed (the preview's search reads its text from the page itself)."""
        if not unchanged:
            self.files[path] = data

    def carry(self, paths: Iterable[str]) -> None:
        """Nothing to carry: the files that did not change stay where they are."""

    def every_page(self, pages: dict[str, Callable[[], bytes]]) -> EveryPage:
        """Return every page: those just made, the others from where they were last written."""
        return EveryPage(pages, self.files, self.previous)


class FolderSink:
    """Where a build's renders go: a staging folder, with every unchanged file carried over from the
    previous site; or, patching the previous site (publish/patch.py), only the new and changed files."""

    in_memory = False

    def __init__(self, folder: Path, previous: Path | None, patch: bool = False, texts: Path | None = None):
        self.folder, self.previous = folder, previous
        self.texts = texts  # where the pages' texts for search go (staging.texts_folder), if anywhere
        self.patch = patch and previous is not None
        self.files: dict[str, bytes] = {}  # nothing is kept in memory

    def put(self, path: str, data: bytes, unchanged: bool, text: bytes | None = None) -> None:
        """Write a file, or link it from the previous site if it is as it was (leave it there, if
        patching); and the page's text for search, if given, where Pagefind will read it (texts, if the
        sink has such a folder: the preview's indexing makes its own texts)."""
        if unchanged and self.previous is not None:
            if not self.patch:
                carry_over(self.previous, self.folder, [path])
        else:
            write_into(self.folder, {path: data})
        if text is not None and self.texts is not None:
            write_into(self.texts, {path: text})

    def carry(self, paths: Iterable[str]) -> None:
        """Link files from the previous site (unless patching it: then they stay where they are)."""
        if self.previous is not None and not self.patch:
            carry_over(self.previous, self.folder, paths)

    def every_page(self, pages: dict[str, Callable[[], bytes]]) -> EveryPage:
        """Return every page, read back from the staging folder (or the site it patches)."""
        return EveryPage(pages, {}, self.folder, self.previous if self.patch else None)
