"""Drafts: records marked `draft: true`. `build` leaves them out (unless --drafts); the preview
shows them under a banner.

A draft's own problems are warnings, marked as a draft's so that --strict lets them be. A published
record's link to a draft is an error where the site leaves the draft out, and a warning in the
preview, which shows it. A draft the site would show but whose own links or citations fail is left
out too, its warnings saying why, so that every page shown renders.
"""

from __future__ import annotations

from .inputs import Inputs, key_of
from ..check.link import Key, Site, link
from ..model.record_types import Model
from ..text.passages import SeedText
from ..model.problems import Problem
from ..model.schema import Record

MODES = ("out", "preview", "in")  # build: left out; the preview: shown, links to them warned of; build --drafts: shown

Records = dict[str, dict[str, Record]]


def draft_files(inputs: Inputs) -> dict[Key, str]:
    """Return the file of every draft, by the key of its record (from the drafts the inputs keep as
    files are read: looking at every entry took 3-8 ms of each preview rebuild at 10,000 records)."""
    return {key_of(path): path for path in sorted(inputs.drafts)}


def without(records: Records, keys: set[Key] | dict[Key, str]) -> Records:
    """Return the records less those named (the records given are left as they are)."""
    return {kind: {rid: record for rid, record in by_id.items() if (kind, rid) not in keys} for kind, by_id in records.items()}


def link_with_drafts(records: Records, seeds: dict[str, SeedText], failed: set[Key], model: Model, drafts: dict[Key, str],
                     mode: str, processes: int = 1) -> tuple[Site, list[Problem], Records, set[Key]]:
    """Link the site as the mode shows drafts; return it, its problems, and the records and failed
    keys it was linked from (less the drafts it leaves out). processes: see check.link.link."""
    if not drafts:
        site, found = link(records, seeds, failed, model, processes=processes)
        return site, found, records, failed
    if mode == "out":
        records = without(records, drafts)
    site, found = link(records, seeds, failed, model, drafts, mode, processes)
    broken = {key for key, path in drafts.items() if key[1] in records.get(key[0], {})
              and any(p.path == path and p.severity == "error" for p in found)}
    if mode != "out" and broken:
        own = [p for p in found if p.path in {drafts[key] for key in broken}]
        records, failed = without(records, broken), failed | broken
        site, found = link(records, seeds, failed, model, drafts, mode, processes)
        found += own
    return site, found, records, failed
