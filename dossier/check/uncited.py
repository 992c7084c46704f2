"""Uncited sentences: every sentence of a record's body cites a passage, but those of a paragraph the
project marks as its own words, an HTML comment on the line before it:

    <!-- editorial -->
    How a date is worked out: the site reads "last month" as the month before the story's.

The mark holds for the one paragraph (or list item) after it; the comment itself is not published.
A sentence that only points to other pages ("See [[aid-convoy]].", a list item that is a link)
states nothing, and needs no citation. A warning each, at the sentence's line and column; an error
under --strict.
"""

from __future__ import annotations

import re

from ..model.problems import Problem
from ..model.schema import Record
from ..text.markup import LINK, paragraphs
from ..text.sentences import sentences_of

POINTING = {"see", "also", "and", "or", "véase", "ver", "también", "y", "o"}  # the words of a sentence that only points elsewhere, besides its links
EDITORIAL = re.compile(r"[ \t]*<!--\s*editorial\s*-->[ \t]*")
SHOWN = 60  # characters of the sentence the warning quotes
ADVICE = "cite a passage ([@source-id \"quote\"]), or mark the paragraph as the site's own words with <!-- editorial --> on the line before it"


def editorial_lines(body: str, first_line: int) -> set[int]:
    """Return the file lines of the paragraphs marked editorial: each first non-blank line after a mark."""
    marked: set[int] = set()
    waiting = False
    for offset, line in enumerate(body.split("\n")):
        if EDITORIAL.fullmatch(line):
            waiting = True
        elif line.strip() and waiting:
            marked.add(first_line + offset)
            waiting = False
    return marked


def paragraph_starts(body: str, first_line: int) -> list[int]:
    """Return the first file line of each paragraph or list item, as sentences() reads them."""
    return [line for line, _ in paragraphs(body, first_line)]


def points_elsewhere(markdown: str) -> bool:
    """Tell whether a sentence only points to other pages: links, and at most 'See', 'See also', 'and'."""
    return "[[" in markdown and set(re.findall(r"\w+", LINK.sub(" ", markdown).lower())) <= POINTING


def uncited_in_body(path: str, body: str, first_line: int) -> list[Problem]:
    """Warn about each sentence of a body that cites nothing, outside the paragraphs marked editorial."""
    if not body.strip():
        return []
    marked = editorial_lines(body, first_line)
    starts = paragraph_starts(body, first_line) if marked else []
    problems = []
    for sentence in sentences_of(body):  # lines counted from 1: the body's own are first_line - 1 further
        if sentence.sources or points_elsewhere(sentence.markdown):
            continue
        line = sentence.line + first_line - 1
        paragraph = max((start for start in starts if start <= line), default=0)
        if paragraph in marked:
            continue
        column = sentence.start - body.rfind("\n", 0, sentence.start)
        words = " ".join(sentence.markdown.split())
        shown = words if len(words) <= SHOWN else words[:SHOWN].rsplit(" ", 1)[0] + "…"
        problems.append(Problem(path, line, column, "warning", f"sentence cites no source (“{shown}”): {ADVICE}", kind="uncited sentence"))
    return problems


def uncited_sentences(record: Record) -> list[Problem]:
    """Warn about each uncited sentence of a record's body and of its translations' bodies."""
    found = uncited_in_body(record.path, record.body, record.body_line)
    for lang in sorted(record.translations):
        translation = record.translations[lang]
        found += uncited_in_body(translation.path, translation.body, translation.body_line)
    return found
