"""Content problems: where they are, what they say, and how they print."""

from __future__ import annotations

import difflib
import sys
from dataclasses import dataclass, field, replace
from typing import Callable, Iterable


@dataclass(frozen=True, order=True)
class Problem:
    """One content problem at a position in a file."""

    path: str
    line: int = 0
    column: int = 0
    severity: str = "error"  # "error" or "warning"
    message: str = ""
    draft: bool = field(default=False, compare=False)  # a draft's own problem: a warning, even under --strict
    kind: str = field(default="", compare=False)  # what sort of problem, for the summary line: 'uncited sentence' (see KINDS)
    advisory: bool = field(default=False, compare=False)  # a warning --strict leaves a warning (the name check, unless a project says otherwise)
    promoted: bool = field(default=False, compare=False)  # a warning that --strict made an error

    def __str__(self) -> str:
        where = self.path
        if self.line:
            where += f":{self.line}"
            if self.column:
                where += f":{self.column}"
        return one_line(f"{where}: {self.severity}: {self.message}" + " (draft)" * self.draft)


def one_line(text: str) -> str:
    """Show line breaks and control characters as escapes (\\n, \\x1b), so that a problem
    is always one line and content cannot send escape sequences to the terminal."""
    return "".join(char if char.isprintable() else repr(char)[1:-1] for char in text)


def in_drafts(problems: Iterable[Problem], paths: set[str] | frozenset[str]) -> list[Problem]:
    """Return problems with those of the draft files named made warnings marked as a draft's own."""
    return [replace(p, severity="warning", draft=True) if p.path in paths else p for p in problems]


class ContentError(Exception):
    """Problems in the content that stop a build; carries every problem found."""

    def __init__(self, problems: Iterable[Problem]):
        self.problems = sorted(problems)
        super().__init__("\n".join(str(p) for p in self.problems))


class UsageError(Exception):
    """A command-line mistake: wrong arguments or an unsafe output folder."""


class BuildFailure(Exception):
    """A failure that is neither the content's nor the command's: a search indexing run or a
    rendering process that failed. The build stops and the previous site is left as it was."""


def did_you_mean(word: str, choices: Iterable[str]) -> str:
    """Return ' (did you mean 'x'?)' for the closest choice, or ''."""
    close = difflib.get_close_matches(word, sorted(set(choices)), n=1, cutoff=0.6)
    return f" (did you mean '{close[0]}'?)" if close else ""


# The plural of each kind of problem, as the summary line counts them.
KINDS = {
    "uncited sentence": "uncited sentences",
    "name no record covers": "names no record covers",
    "fact without evidence": "facts without evidence",
    "fact resting only on a derivative": "facts resting only on a derivative",
    "paragraph resting only on a derivative": "paragraphs resting only on a derivative",
    "marker standing in for words": "markers standing in for words",
    "source cited nowhere": "sources cited nowhere",
    "date its evidence contradicts": "dates their evidence contradicts",
    "image in Markdown": "images in Markdown",
    "page not translated": "pages not translated",
}


def counted(count: int, singular: str, plural: str | None = None) -> str:
    """Return a count with its noun in the number it needs: '1 person', '2 people', '0 errors'."""
    return f"{count} {singular if count == 1 else plural or KINDS.get(singular) or singular + 's'}"


def promote(problems: Iterable[Problem]) -> list[Problem]:
    """Return problems as --strict has them: every warning an error (marked as made so), but a
    draft's own and an advisory one."""
    return [replace(p, severity="error", promoted=True) if p.severity == "warning" and not p.draft and not p.advisory else p for p in problems]


def summary(problems: list[Problem]) -> str:
    """Return the line that closes a list of problems: how many errors and warnings, of which kinds
    where known, and whether --strict made warnings errors ('1 error: 1 uncited sentence; --strict
    makes warnings errors')."""
    errors = [p for p in problems if p.severity == "error"]
    warnings = [p for p in problems if p.severity != "error"]
    note = "; --strict makes warnings errors" if any(p.promoted for p in problems) else ""
    if not any(p.kind for p in problems):
        return f"{counted(len(errors), 'error')}, {counted(len(warnings), 'warning')}{note}"
    parts = [counted(len(found), noun) + kinds(found) for found, noun in ((errors, "error"), (warnings, "warning")) if found]
    return "; ".join(parts) + note


def kinds(problems: list[Problem]) -> str:
    """Return ': 2 uncited sentences, 1 other' for problems of which some have a kind, else ''."""
    tally: dict[str, int] = {}
    for problem in problems:
        tally[problem.kind] = tally.get(problem.kind, 0) + 1
    if set(tally) == {""}:
        return ""
    named = sorted(((count, kind) for kind, count in tally.items() if kind), key=lambda item: (-item[0], item[1]))
    words = [counted(count, kind) for count, kind in named] + ([f"{tally['']} other"] if "" in tally else [])
    return ": " + ", ".join(words)


def print_problems(problems: list[Problem], shown: Callable[[str], str] | None = None, brief: dict[str, tuple[int, str]] | None = None) -> None:
    """Print problems one per line, sorted, then a summary line (shown: how a path is printed, from
    the folder the command runs in). brief gives, for a kind of problem, how many of its warnings to
    print and what to say of the rest ("… and 59 more names no record covers: ..."); the summary
    counts them all."""
    printed: dict[str, int] = {}
    left: dict[str, int] = {}
    for problem in sorted(problems):
        limit = (brief or {}).get(problem.kind) if problem.severity == "warning" else None
        if limit is not None and printed.get(problem.kind, 0) >= limit[0]:
            left[problem.kind] = left.get(problem.kind, 0) + 1
            continue
        printed[problem.kind] = printed.get(problem.kind, 0) + 1
        print(replace(problem, path=shown(problem.path)) if shown else problem, file=sys.stderr)
    for kind, count in sorted(left.items()):
        print(f"… and {count} more {counted(count, kind).partition(' ')[2]}: {(brief or {})[kind][1]}", file=sys.stderr)
    if problems:
        print(summary(problems), file=sys.stderr)
