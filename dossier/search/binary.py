"""Pagefind's binary: how to run it, what to put right in what it writes, and the error a failed run
stops a build with."""

from __future__ import annotations

import functools
import json
import sys
from pathlib import Path

from ..model.problems import BuildFailure


@functools.lru_cache(maxsize=1)
def pagefind_command() -> list[str]:
    """Return how to run Pagefind: its binary, as its package finds it (`python -m pagefind` does so,
    then runs it in its place: 60 ms a run, sixteen runs at 10,000 records, one after each edit)."""
    try:
        from pagefind_bin_extended import get_executable  # type: ignore[import-untyped]  # pagefind[extended]'s binary

        return [str(get_executable())]
    except Exception:  # another way of installing it: its wrapper finds it
        return [sys.executable, "-m", "pagefind"]


def sort_languages(entry: Path) -> None:
    """Write the index's list of languages in a fixed order: Pagefind writes a site of several
    languages in any order, and two builds of the same input must be byte-identical."""
    data = json.loads(entry.read_text(encoding="utf-8"))
    if len(data.get("languages", {})) > 1:
        data["languages"] = dict(sorted(data["languages"].items()))
        entry.write_text(json.dumps(data, ensure_ascii=False, separators=(",", ":")), encoding="utf-8")


def indexing_failed(reason: str) -> BuildFailure:
    """Return the error a failed Pagefind run stops the build with."""
    return BuildFailure(f"search indexing failed ({reason}); is pagefind installed? pip install 'pagefind[extended]'")
