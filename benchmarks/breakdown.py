"""Where a cold build's time goes: loading, rendering each kind of page, and the search index.

Renders every page of a project in this one process (one core), grouped by kind, then runs the
search indexer over the pages; prints seconds per group and the pages' total size.

    python benchmarks/breakdown.py PROJECT
"""

from __future__ import annotations

import os
import resource
import shutil
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from dossier.publish.staging import write_into  # noqa: E402
from dossier.search.indexing import index_site  # noqa: E402
from dossier.search.parts import split  # noqa: E402
from dossier.incremental.session import Session  # noqa: E402


def kind(path: str) -> str:
    """Name the kind of a page by its path."""
    first = path.split("/")[0]
    if first == "timeline":
        return "timeline and its filter pages"
    if path.count("/") == 2 and first in ("people", "events", "places", "groups", "sources"):
        return f"{first} pages"
    return "indexes and other pages"


def main(root: Path) -> None:
    started = time.perf_counter()
    session = Session(root)
    session.load()
    print(f"load (read, validate, link, audit): {time.perf_counter() - started:.2f} s")
    paths, _ = session.output.plan(session.site, session.root / "templates")
    seconds: dict[str, float] = defaultdict(float)
    counts: dict[str, int] = defaultdict(int)
    sizes: dict[str, int] = defaultdict(int)
    folder = Path(tempfile.mkdtemp(prefix="dossier-breakdown-"))
    try:
        for path in paths:
            began = time.perf_counter()
            data = session.output.pages[path]()
            seconds[kind(path)] += time.perf_counter() - began
            counts[kind(path)] += 1
            sizes[kind(path)] += len(data)
            write_into(folder, {path: data})
            session.words.note(path, data, None)
        began = time.perf_counter()
        extras = session.output.make_extras(dict.fromkeys(session.output.pages, b""))  # only a portable build reads the pages
        write_into(folder, extras)
        print(f"data exports and static files: {time.perf_counter() - began:.2f} s")
        for name in sorted(seconds, key=seconds.get, reverse=True):
            print(f"{name}: {counts[name]} pages, {sizes[name] / 2**20:.0f} MB, {seconds[name]:.2f} s ({1000 * seconds[name] / counts[name]:.1f} ms a page)")
        print(f"memory of this process so far (peak resident set): {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024} MB")
        began = time.perf_counter()
        index_site(folder, session.words.searchable)
        print(f"search index (Pagefind, {len(split(session.words.searchable))} parts, up to {os.cpu_count()} at a time): {time.perf_counter() - began:.2f} s")
    finally:
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main(Path(sys.argv[1]))
