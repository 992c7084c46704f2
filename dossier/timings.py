"""Where a build's CPU goes, by layer: reading, linking, each kind of page, search, publishing.

Each process adds the CPU of what it does to `spent`, by layer (layer() times a block, its inner
layers' time left to them). The processes that render pages send theirs back (pool.py); the CPU of
the other processes a build starts (Pagefind) is what the system counts for its children, less the
rendering workers' own. `build --timings` prints the result; the benchmark compares it with budgets.
"""

from __future__ import annotations

import resource
import time
from collections import defaultdict
from contextlib import contextmanager
from typing import Iterator

spent: defaultdict[str, float] = defaultdict(float)  # CPU seconds of this process (and the workers that reported back), by layer
_inner: list[float] = [0.0]  # the CPU of the inner layers of each layer under way
_workers: list[float] = [0.0]  # the rendering workers' own CPU, as they reported it


@contextmanager
def layer(name: str) -> Iterator[None]:
    """Add the CPU of this block to the layer named, less that of the layers inside it."""
    started = time.process_time()
    _inner.append(0.0)
    try:
        yield
    finally:
        elapsed = time.process_time() - started
        spent[name] += elapsed - _inner.pop()
        _inner[-1] += elapsed


def start_worker() -> None:
    """Start a forked worker's account afresh: what it inherited is its parent's."""
    spent.clear()
    _inner[:] = [0.0]


def worker_report() -> tuple[dict[str, float], float]:
    """Return a worker's CPU by layer and in all, for its parent to add (take_report)."""
    return dict(spent), own_cpu()


def take_report(report: tuple[dict[str, float], float]) -> None:
    """Add a worker's CPU, by layer, to this process's account."""
    layers, total = report
    for name, seconds in layers.items():
        spent[name] += seconds
    _workers[0] += total


def children_cpu() -> float:
    """Return the CPU of this process's finished children (rendering workers, Pagefind), user and system."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def own_cpu() -> float:
    """Return the CPU of this process so far, user and system."""
    return time.process_time()


def page_layer(path: str, languages: tuple[str, ...]) -> str:
    """Name the layer of an output page: 'pages: people' for a record page of any language,
    'timeline' for the timeline's, 'pages: indexes' for the home, indexes and other pages of one folder."""
    parts = path.split("/")
    if parts[0] in languages and len(parts) > 1:
        parts = parts[1:]
    if parts[0] == "timeline":
        return "timeline"
    return f"pages: {parts[0]}" if len(parts) >= 3 else "pages: indexes"


class BuildClock:
    """The CPU of one build, by layer, from the moment it was made."""

    def __init__(self) -> None:
        spent.clear()
        _workers[0] = 0.0
        self.started = own_cpu() + children_cpu()
        self.children_started = children_cpu()

    def by_layer(self) -> dict[str, float]:
        """Return the CPU seconds of each layer (workers' and Pagefind's included), largest first,
        with what no layer claimed as 'other'."""
        layers = defaultdict(float, spent)
        layers["search"] += max(0.0, children_cpu() - self.children_started - _workers[0])  # Pagefind's runs
        layers["other"] += max(0.0, own_cpu() + children_cpu() - self.started - sum(layers.values()))
        return dict(sorted(((name, seconds) for name, seconds in layers.items() if seconds > 0), key=lambda item: -item[1]))


def table(layers: dict[str, float]) -> str:
    """Return the layers as lines of a table: name, CPU seconds and share of the total."""
    total = sum(layers.values()) or 1.0
    lines = [f"{'layer':<26} {'CPU s':>8} {'share':>6}"]
    lines += [f"{name:<26} {seconds:>8.2f} {seconds / total:>6.0%}" for name, seconds in layers.items()]
    lines.append(f"{'total':<26} {sum(layers.values()):>8.2f} {'100%':>6}")
    return "\n".join(lines)
