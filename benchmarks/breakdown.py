"""Where a cold build's CPU goes, layer by layer, against a budget for each.

The layers are those `build --timings` reports (dossier/timings.py): reading, validating and
linking, the audit, the plan, each kind of page, the timeline, the data exports, search (the words
noted for it and Pagefind's runs) and publishing, the rendering workers' CPU and Pagefind's
included. Each layer has a budget in milliseconds of CPU per record of the project, set so that
together they fit the cold build's target at 10,000 records: at most twice Hugo + Pagefind (about
30 s there), which on two cores kept busy is about 100 s of CPU. A layer over its budget is printed
as such: a figure to work on, not a failure. benchmarks/run.py checks the cold builds it times;
this script builds a project cold once and prints the same table:

    python benchmarks/breakdown.py PROJECT [--jobs N]
"""

from __future__ import annotations

import re
import shutil
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

# Milliseconds of CPU per record of the project, by layer (a layer not named here has OTHER's). At
# 10,000 records they add up to about 100 s; "pages: people" and "pages: events" are each about
# 4,750 pages there, 3 ms a page.
BUDGETS: dict[str, float] = {
    "read": 0.6,
    "validate and link": 0.6,
    "audit": 0.4,
    "plan": 0.2,
    "pages: people": 1.4,
    "pages: events": 1.4,
    "pages: sources": 0.3,
    "pages: places": 0.05,
    "pages: groups": 0.05,
    "pages: indexes": 0.3,
    "timeline": 0.6,
    "exports and static files": 0.3,
    "claims held compactly": 0.05,  # a large build's claims as a kept session holds them, once its pages are rendered
    "search": 3.5,
    "publish": 0.4,
}
OTHER = 0.1  # any other layer: conflicts' and claims' pages, keeping the state, what no layer claims
ROW = re.compile(r"^(?P<name>\S.*?)\s+(?P<seconds>\d+\.\d+)\s+\d+%$")


def parse_timings(output: str) -> dict[str, float]:
    """Return the CPU seconds by layer that `build --timings` printed (its table, without the total)."""
    layers = {}
    for line in output.splitlines():
        found = ROW.match(line.strip())
        if found and found["name"] != "total":
            layers[found["name"]] = float(found["seconds"])
    return layers


def budget_lines(layers: dict[str, float], records: int) -> list[str]:
    """Return a Markdown table of each layer's CPU against its budget for this many records."""
    rows = ["| layer | CPU | per record | budget | |", "|---|---:|---:|---:|---|"]
    named = list(BUDGETS) + sorted(name for name in layers if name not in BUDGETS)
    over = []
    for name in named:
        seconds, per_record = layers.get(name, 0.0), BUDGETS.get(name, OTHER)
        budget = per_record * records / 1000
        if seconds > budget:
            over.append(name)
        rows.append(f"| {name} | {seconds:.2f} s | {1000 * seconds / records:.2f} ms | {budget:.2f} s ({per_record:g} ms) "
                    f"| {'over budget' if seconds > budget else 'within'} |")
    total = sum(layers.values())
    allowed = sum(BUDGETS.get(name, OTHER) for name in named) * records / 1000
    rows.append(f"| all layers | {total:.2f} s | {1000 * total / records:.2f} ms | {allowed:.2f} s | {'over budget' if total > allowed else 'within'} |")
    rows += ["", f"Over budget: {', '.join(over)}." if over else "Every layer within its budget."]
    return rows


def records_of(root: Path) -> int:
    """Return how many records a project holds (its content files, translations left out)."""
    return sum(1 for path in (root / "content").rglob("*") if path.suffix in (".md", ".yaml") and path.name != "site.yaml"
               and path.stem.count(".") == 0)


def main(arguments: list[str]) -> None:
    from dossier.pipeline import build

    root = Path(arguments[0])
    jobs = int(arguments[arguments.index("--jobs") + 1]) if "--jobs" in arguments else None
    out = Path(tempfile.mkdtemp(prefix="dossier-breakdown-")) / "site"
    try:
        report = build(root, out, use_cache=False, workers=jobs)
    finally:
        shutil.rmtree(out.parent, ignore_errors=True)
    print("\n".join(budget_lines(report.cpu, records_of(root))))
    print(f"\n{report.rendered} pages rendered in {report.seconds:.1f} s")


if __name__ == "__main__":
    main(sys.argv[1:])
