"""The build, stage by stage: read → validate → link → audit → render → publish."""

from __future__ import annotations

import os
import time
from collections import Counter
from dataclasses import dataclass, replace
from pathlib import Path

from .audit import audit
from .link import Site, link
from .problems import ContentError, Problem
from .publish import check_output, publish, recover
from .read import read_project
from .render import Renderer
from .search import index_site
from .session import close_session, open_session


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


def build(root: Path, out: Path, *, portable: bool = False, strict: bool = False, base_url: str | None = None,
          use_cache: bool = True, workers: int | None = None) -> BuildReport:
    """Build the site from root into out, leaving out untouched if anything fails; base_url overrides site.yaml's.

    With use_cache, the last build's work is reused (.dossier-cache/): only what changed since is
    read, relinked and rendered, unchanged files are carried over, and a build with nothing to do
    leaves out as it is. Pages are rendered by `workers` processes (default: one per core).
    """
    started = time.perf_counter()
    check_output(out, root)
    recover(out)  # a build killed mid-swap left the site aside: put it back even if this build fails
    session, previous = open_session(root, out, portable=portable, base_url=base_url, use_cache=use_cache)
    problems = session.problems
    if any(p.severity == "error" or strict for p in problems):
        raise ContentError(problems)
    if previous is None or not session.up_to_date():
        workers = workers or os.cpu_count() or 1
        # Pagefind indexes the staged pages before they go live.
        publish({}, out, prepare=index_site, fill=lambda staging: session.render_into(staging, previous, workers))
    close_session(session, out, use_cache)
    pages = Counter(path.split("/")[0] for path in session.written if path.endswith(".html") and path.count("/") == 2)
    return BuildReport(pages, len(session.written), time.perf_counter() - started, problems)
