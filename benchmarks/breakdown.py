"""Where a cold build's CPU goes, layer by layer, against a budget for each.

Runs every stage of a cold build in this one process, one after another: reading the project,
validating and linking it, the editorial audit, the pages of each kind, the timeline, the data
exports, writing the files and the search index (the words noted for it, then Pagefind's runs,
whose CPU is counted from the processes this one waited for). Rendering in one process counts all
of it: a build shares the same work between its own process and its workers, so the sum here is
the CPU a cold build spends on its stages, workers' included, less the cost of sharing it out.

Each layer has a budget in milliseconds of CPU per unit (a record, a page, a searchable page, a
file), set so that the layers together fit the cold build's target at 10,000 records (at most
twice Hugo + Pagefind on two cores); a layer over its budget is printed as such (a figure to work
on, not a failure).

    python benchmarks/breakdown.py PROJECT [--json]
"""

from __future__ import annotations

import json
import os
import resource
import shutil
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from dossier.incremental.session import EVERYTHING, Session  # noqa: E402
from dossier.publish.staging import write_into  # noqa: E402
from dossier.search.indexing import index_site  # noqa: E402
from dossier.search.parts import split  # noqa: E402

# The budget of each layer: milliseconds of CPU per unit, and the unit. The layers' budgets add up to
# about 100 s of CPU at 10,000 records, which two cores spend in about 60 s of a build: twice Hugo +
# Pagefind there (about 30 s), the target.
BUDGETS: dict[str, tuple[float, str]] = {
    "read": (0.6, "record"),
    "validate and link": (0.5, "record"),
    "audit": (0.4, "record"),
    "people pages": (3.0, "page"),
    "events pages": (3.0, "page"),
    "places and groups pages": (3.0, "page"),
    "sources pages": (15.0, "page"),
    "timeline pages": (0.5, "event"),  # the views of every event: each event is listed on one of them
    "timeline filter pages": (2.0, "page"),
    "claims and other pages": (3.0, "page"),
    "data exports and static files": (0.3, "record"),
    "publish (writing the files)": (0.3, "file"),
    "search (words, Pagefind)": (4.0, "searchable page"),
}


def kind(path: str) -> str:
    """Name the layer that renders a page, by its path."""
    parts = path.split("/")
    first = parts[0]
    if first == "timeline":
        # timeline/, timeline/2019/ and timeline/2019/03/: the views of every event; the facets' lists
        # (timeline/people/) and each filter's pages (timeline/people/x/, and their years and months)
        return "timeline pages" if len(parts) == 2 or parts[1][:1].isdigit() else "timeline filter pages"
    if len(parts) == 3 and first in ("people", "events", "sources"):
        return f"{first} pages"
    if len(parts) == 3 and first in ("places", "groups"):
        return "places and groups pages"
    return "claims and other pages"


class Clock:
    """CPU time of this process, and of the processes it waited for, between two readings."""

    def __init__(self) -> None:
        self.own, self.children = time.process_time(), self.children_now()

    @staticmethod
    def children_now() -> float:
        usage = resource.getrusage(resource.RUSAGE_CHILDREN)
        return usage.ru_utime + usage.ru_stime

    def lap(self) -> float:
        """Return the CPU seconds since the last lap (or since made), children's included."""
        own, children = time.process_time(), self.children_now()
        spent = own - self.own + children - self.children
        self.own, self.children = own, children
        return spent


def measure(root: Path) -> dict:
    """Build a project cold, stage by stage in this process; return each layer's CPU and units."""
    cpu: dict[str, float] = defaultdict(float)
    units: dict[str, int] = defaultdict(int)
    started = time.perf_counter()
    clock = Clock()
    session = Session(root, defer_audit=True)
    session.inputs.load(None)
    cpu["read"] += clock.lap()
    session.pending = EVERYTHING
    session.link(None)
    cpu["validate and link"] += clock.lap()
    session.audit()
    cpu["audit"] += clock.lap()
    assert session.site is not None
    records = sum(len(group) for group in session.site.records.values())
    for layer in ("read", "validate and link", "audit", "data exports and static files"):
        units[layer] = records
    paths, _ = session.plan()
    cpu["validate and link"] += clock.lap()  # the renderer and its list of pages
    folder = Path(tempfile.mkdtemp(prefix="dossier-breakdown-"))
    try:
        files = 0
        for path in paths:
            data = session.pages[path]()
            layer = kind(path)
            cpu[layer] += clock.lap()
            units[layer] += 1
            write_into(folder, {path: data})
            files += 1
            cpu["publish (writing the files)"] += clock.lap()
            session.words.note(path, data, None)
            cpu["search (words, Pagefind)"] += clock.lap()
        extras = session.make_extras(dict.fromkeys(session.pages, b""))  # only a portable build reads the pages
        cpu["data exports and static files"] += clock.lap()
        write_into(folder, extras)
        files += len(extras)
        cpu["publish (writing the files)"] += clock.lap()
        units["publish (writing the files)"] = files
        units["timeline pages"] = len(session.site.timeline)
        searchable = session.words.searchable
        index_site(folder, searchable)
        cpu["search (words, Pagefind)"] += clock.lap()
        units["search (words, Pagefind)"] = len(searchable)
        parts = len(split(searchable))
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    return {"records": records, "seconds": time.perf_counter() - started, "parts": parts, "cores": os.cpu_count(),
            "peak_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024,
            "layers": [{"layer": layer, "cpu": cpu[layer], "units": units[layer], "unit": unit, "budget_ms": budget}
                       for layer, (budget, unit) in BUDGETS.items()]}


def lines(result: dict) -> list[str]:
    """Return the breakdown as the lines of a Markdown table, with each layer against its budget."""
    rows = ["| layer | CPU | per unit | budget | |", "|---|---:|---:|---:|---|"]
    total = budget_total = 0.0
    for layer in result["layers"]:
        units = layer["units"] or 1
        budget = layer["budget_ms"] * units / 1000
        total, budget_total = total + layer["cpu"], budget_total + budget
        status = "over budget" if layer["cpu"] > budget else "within"
        rows.append(f"| {layer['layer']} ({layer['units']:,} {layer['unit']}s) | {layer['cpu']:.2f} s | {1000 * layer['cpu'] / units:.2f} ms "
                    f"| {budget:.2f} s ({layer['budget_ms']:g} ms) | {status} |")
    rows.append(f"| all layers | {total:.2f} s | | {budget_total:.2f} s | {'over budget' if total > budget_total else 'within'} |")
    return rows


def main(arguments: list[str]) -> None:
    result = measure(Path(arguments[0]))
    if "--json" in arguments:
        print(json.dumps(result))
        return
    print("\n".join(lines(result)))
    print(f"{result['records']:,} records; search in {result['parts']} parts; peak resident memory of this process "
          f"{result['peak_mb']} MB; {result['seconds']:.1f} s on one core")


if __name__ == "__main__":
    main(sys.argv[1:])
