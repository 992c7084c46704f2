"""What each page read when last rendered (render/reads.py), kept compactly for the dependency graph.

At 10,000 records the pages read 1.7 million tokens of 55,000 kinds. As a frozenset a page, they
took 96 MB, held twice while two processes render and unpickled again by each build after an edit
(0.39 s). Here each token is numbered once and a page's reads are an array of numbers (4 bytes
each): 8 MB, unpickled in 0.03 s.

Which pages read a token is found by going through every page's numbers (35 ms at 10,000 records),
once a session. A session asked again (the preview's, kept between edits) builds an index of the
pages that read each token and keeps it: a page rendered again is added under its new tokens and
left under its old ones, so each page the index names is checked against its current reads.
"""

from __future__ import annotations

from array import array
from typing import Iterable, Mapping

from ..render.reads import Token, token


class PageReads:
    """The tokens each page read when last rendered, by output path."""

    def __init__(self) -> None:
        self.tokens: list[Token] = []  # each token once, its number its place here
        self.numbers: dict[Token, int] = {}
        self.pages: dict[str, array] = {}  # output path -> the numbers of the tokens its page read
        self.readers: dict[int, list[str]] | None = None  # token number -> pages that read it (or did: see reading())
        self.indexed = 0  # entries of readers when it was built
        self.stale = 0  # entries added since
        self.asked = 0

    def __contains__(self, path: object) -> bool:
        return path in self.pages

    def __len__(self) -> int:
        return len(self.pages)

    def __setitem__(self, path: str, reads: Iterable[Token]) -> None:
        numbers, tokens = self.numbers, self.tokens
        found = array("I")
        for read in reads:
            number = numbers.get(read)
            if number is None:
                number = numbers[read] = len(tokens)
                tokens.append(read)
            found.append(number)
        self.pages[path] = found
        if self.readers is not None:
            for number in found:
                self.readers.setdefault(number, []).append(path)
            self.stale += len(found)

    def __getitem__(self, path: str) -> tuple[Token, ...]:
        """Return the tokens a page read."""
        tokens = self.tokens
        return tuple(tokens[number] for number in self.pages[path])

    def pop(self, path: str) -> None:
        """Forget what a page read (a page gone)."""
        self.pages.pop(path, None)

    def update(self, reads: Mapping[str, Iterable[Token]]) -> None:
        """Note what each of these pages read."""
        for path, tokens in reads.items():
            self[path] = tokens

    def reading(self, tokens: Iterable[Token]) -> set[str]:
        """Return the pages whose reads hold any of tokens."""
        wanted = {self.numbers[read] for read in tokens if read in self.numbers}
        if not wanted:
            return set()
        self.asked += 1
        if self.readers is None and self.asked < 2:
            return {path for path, found in self.pages.items() if not wanted.isdisjoint(found)}
        if self.readers is None or self.stale > self.indexed // 2:  # pages rendered again since have left as many entries behind
            self.index()
        assert self.readers is not None
        named = set().union(*(self.readers.get(number, ()) for number in wanted))
        return {path for path in named if path in self.pages and not wanted.isdisjoint(self.pages[path])}

    def index(self) -> None:
        """Build the index of the pages that read each token."""
        readers: dict[int, list[str]] = {}
        for path, found in self.pages.items():
            for number in found:
                readers.setdefault(number, []).append(path)
        self.readers, self.indexed, self.stale = readers, sum(map(len, self.pages.values())), 0

    def __getstate__(self) -> dict:
        """Keep the tokens and each page's numbers; the rest is made again when needed."""
        return {"tokens": self.tokens, "pages": self.pages}

    def __setstate__(self, state: dict) -> None:
        self.__init__()  # type: ignore[misc]
        self.tokens = [token(*read) for read in state["tokens"]]  # the one object for each token, as pages read them
        self.numbers = {read: number for number, read in enumerate(self.tokens)}
        self.pages = state["pages"]
