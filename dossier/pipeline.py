"""The build, stage by stage: read → validate → link → audit → render → publish."""

from __future__ import annotations

import time
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

from .audit import audit
from .link import Site, link
from .problems import ContentError, Problem
from .publish import check_output, publish
from .read import read_project
from .render import Renderer


@dataclass
class BuildReport:
    """What a build made and how long it took."""

    pages: Counter
    files: int
    seconds: float
    warnings: list[Problem]


def load(root: Path) -> tuple[Site, list[Problem]]:
    """Read, validate, link and audit a project; return the site and every problem found."""
    from .validate import validate

    corpus = read_project(root)
    records, failed, validation_problems = validate(corpus.documents)
    site, link_problems = link(records, corpus.seeds, failed | corpus.unreadable)
    problems = corpus.problems + validation_problems + link_problems
    if not any(p.severity == "error" for p in problems):
        problems += audit(site)
    return site, sorted(problems)


def check(root: Path, *, strict: bool = False) -> list[Problem]:
    """Validate everything and write nothing; raise ContentError on errors (warnings too if strict)."""
    _, problems = load(root)
    failing = [p for p in problems if p.severity == "error" or strict]
    if failing:
        raise ContentError(problems)
    return problems


def build(root: Path, out: Path, *, portable: bool = False, strict: bool = False) -> BuildReport:
    """Build the site from root into out, leaving out untouched if anything fails."""
    started = time.perf_counter()
    check_output(out, root)
    site, problems = load(root)
    if any(p.severity == "error" or strict for p in problems):
        raise ContentError(problems)
    files = Renderer(site, root / "templates", portable=portable).render_all()
    publish(files, out)
    pages = Counter(path.split("/")[0] for path in files if path.endswith(".html") and path.count("/") == 2)
    return BuildReport(pages, len(files), time.perf_counter() - started, problems)
