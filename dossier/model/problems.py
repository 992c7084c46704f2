"""Content problems: where they are, what they say, and how they print."""

from __future__ import annotations

import difflib
import sys
from dataclasses import dataclass, field, replace
from typing import Iterable


@dataclass(frozen=True, order=True)
class Problem:
    """One content problem at a position in a file."""

    path: str
    line: int = 0
    column: int = 0
    severity: str = "error"  # "error" or "warning"
    message: str = ""
    draft: bool = field(default=False, compare=False)  # a draft's own problem: a warning, even under --strict

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


def print_problems(problems: list[Problem]) -> None:
    """Print problems one per line, sorted, then a summary line."""
    for problem in sorted(problems):
        print(problem, file=sys.stderr)
    errors = sum(p.severity == "error" for p in problems)
    warnings = len(problems) - errors
    if problems:
        print(f"{errors} error{'s' * (errors != 1)}, {warnings} warning{'s' * (warnings != 1)}", file=sys.stderr)
