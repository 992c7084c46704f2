"""Linking again after an edit: update a linked site for a few changed records, without relinking all.

The result equals what the linking stage makes from scratch (tests compare the two): each changed
record's old contributions to backlinks, "cited by" lists, passages, events and members are taken
out and its new ones put in, in the order the linking stage would give them. The old site is left
as it was (lists are replaced, never changed in place), so that the dependency graph can compare
the site before and after.
"""

from __future__ import annotations

import bisect
import dataclasses
from typing import Iterator

from .link import Key, Linker, Site, events_naming, sort_ids
from ..text.markup import scan
from ..text.passages import passage_id
from ..model.problems import Problem
from ..model.rows import copied
from ..model.schema import Record

WHOLE_KINDS = ("sources", "site")  # an edit of a source (its seed, its derivation) or of the settings relinks everything


def rank(site: Site, key: Key) -> tuple[int, str]:
    """Return a record's place in the linking order (site.all_records())."""
    return list(site.model).index(key[0]), key[1]


def can_relink(site: Site, records: dict[str, dict[str, Record]], failed: set[Key], old_failed: set[Key], keys: set[Key]) -> bool:
    """Tell whether these changes can be linked record by record: the same records and files, no source changed,
    and no changed file still failing validation (its record is not in the site; it is linked whole)."""
    if failed != old_failed or any(key[0] in WHOLE_KINDS or key[0] not in site.model or key in failed for key in keys):
        return False
    return all(records.get(kind, {}).keys() == site.records.get(kind, {}).keys() for kind in set(records) | set(site.records))


def relink(site: Site, records: dict[str, dict[str, Record]], failed: set[Key], keys: set[Key]) -> tuple[Site, dict[str, list[Problem]]]:
    """Return a new site with these records relinked, and the linking problems of each one's file."""
    new = dataclasses.replace(
        site, records=records, citations=copied(site.citations), links=dict(site.links), mentioned_by=dict(site.mentioned_by),
        events_of=dict(site.events_of), referrers=dict(site.referrers), cited_by=dict(site.cited_by),
        passages=copied(site.passages), timeline=list(site.timeline),
    )
    touched: set[tuple[str, str]] = set()
    problems: dict[str, list[Problem]] = {}
    for key in sorted(keys, key=lambda k: rank(site, k)):
        touched |= unlink(new, key, site.get(key))
    for key in sorted(keys, key=lambda k: rank(site, k)):
        record = new.get(key)
        linker = Linker(records, site.seeds, failed, site.model)  # a scratch site: this record's links and passages alone
        linker.link_record(record)
        linker.check_urls()
        for path in files_of(site.get(key)) | files_of(record):  # a translation's problems belong to its own file
            problems[path] = [p for p in linker.problems if p.path == path]
        touched |= add(new, key, record, linker.site)
    for source_id, pid in touched:
        settle(new, source_id, pid)
    for source_id in {source_id for source_id, _ in touched}:
        if not new.passages.get(source_id, {}).keys() <= site.passages.get(source_id, {}).keys():
            order(new, source_id)  # add() put the passages new to the source last
    return new, problems


def files_of(record: Record) -> set[str]:
    """Return the content files of a record: its own and its translations'."""
    return {record.path, *(translation.path for translation in record.translations.values())}


def linked_quotes(site: Site, key: Key, record: Record) -> Iterator[tuple[str, str]]:
    """Yield a record's citations as (source, quote), in the order the linking stage checks them: its
    translations' bodies first, by language (checked, not kept: see Linker.link_record), then its own."""
    for lang in sorted(record.translations):
        translation = record.translations[lang]
        for citation in scan(translation.body, translation.body_line, translation.path)[1]:
            yield citation.source, citation.quote
    for citation in site.citations.get(key, []):
        yield citation.source, citation.quote


def cited_passages(site: Site, key: Key, record: Record) -> set[tuple[str, str]]:
    """Return the passages a record cites, as (source, passage id), its translations' among them."""
    found = set()
    for source_id, quote in linked_quotes(site, key, record):
        passage = site.passages.get(source_id, {}).get(passage_id(quote))
        if passage is not None and key in passage.cited_by:
            found.add((source_id, passage.id))
    return found


def without(mapping: dict[Key, list], key: Key, item: object) -> None:
    """Remove item from mapping[key] (a new list), dropping the entry when it empties."""
    remaining = [entry for entry in mapping.get(key, []) if entry != item]
    if remaining:
        mapping[key] = remaining
    else:
        mapping.pop(key, None)


def unlink(site: Site, key: Key, record: Record) -> set[tuple[str, str]]:
    """Take a record's contributions out of the site; return the passages it cited."""
    for target in site.links.pop(key, []):
        if target != key:
            without(site.mentioned_by, target, key)
    passages = cited_passages(site, key, record)
    citations = site.citations.pop(key, [])
    for source_id in {c.source for c in citations}:
        without(site.cited_by, source_id, key)  # type: ignore[arg-type]
    for source_id, pid in passages:
        passage = site.passages[source_id][pid]
        site.passages[source_id] = {**site.passages[source_id], pid: dataclasses.replace(passage, cited_by=tuple(k for k in passage.cited_by if k != key))}
    if key[0] == "events":
        site.timeline.remove(record.id)
    name_again(site, key, record, remove=True)
    return passages


def add(site: Site, key: Key, record: Record, scratch: Site) -> set[tuple[str, str]]:
    """Put a record's contributions, linked on a scratch site, into the site; return the passages it cites."""
    site.links[key] = scratch.links[key]
    site.citations[key] = scratch.citations[key]
    for target in scratch.links[key]:
        if target != key:
            site.mentioned_by[target] = sorted(site.mentioned_by.get(target, []) + [key])
    for source_id in scratch.cited_by:
        citers = list(site.cited_by.get(source_id, []))  # in linking order already
        bisect.insort(citers, key, key=lambda k: rank(site, k))
        site.cited_by[source_id] = citers
    for source_id, passages in scratch.passages.items():
        current = dict(site.passages.get(source_id, {}))
        for pid, passage in passages.items():
            known = current.get(pid)
            cited_by = tuple(sorted((*(known.cited_by if known else ()), key)))
            current[pid] = dataclasses.replace(known or passage, cited_by=cited_by)
        site.passages[source_id] = current
    if key[0] == "events":
        bisect.insort(site.timeline, record.id, key=lambda eid: site.records["events"][eid].date.sort_key() + (eid,))  # type: ignore[attr-defined]
    name_again(site, key, record, remove=False)
    return {(source_id, pid) for source_id, passages in scratch.passages.items() for pid in passages}


def name_again(site: Site, key: Key, record: Record, *, remove: bool) -> None:
    """Take a record out of (or put it into) the lists of who names each record its fields name;
    an event also out of (or into) their events."""
    collection = key[0]
    order = {eid: index for index, eid in enumerate(site.timeline)} if collection == "events" else {}
    for spec in site.model[collection].references:
        for rid in spec.ids(record):
            target: Key = (spec.target, rid)  # type: ignore[assignment]
            if rid not in site.records[spec.target]:  # type: ignore[index]
                continue
            by = dict(site.referrers.get(target, {}))
            ids = set(by.get((collection, spec.name), [])) - {record.id} if remove else set(by.get((collection, spec.name), [])) | {record.id}
            if ids:
                by[(collection, spec.name)] = sort_ids(ids, collection, order)
            else:
                by.pop((collection, spec.name), None)
            if by:
                site.referrers[target] = dict(sorted(by.items()))
            else:
                site.referrers.pop(target, None)
            if collection == "events":
                events = events_naming(site, target)
                if events:
                    site.events_of[target] = events
                else:
                    site.events_of.pop(target, None)


def settle(site: Site, source_id: str, pid: str) -> None:
    """Drop a passage nobody cites any more, or give it the wording of its first citation in linking order."""
    passages = dict(site.passages.get(source_id, {}))
    passage = passages.get(pid)
    if passage is None:
        return
    if not passage.cited_by:
        del passages[pid]
    else:
        first = min(passage.cited_by, key=lambda k: rank(site, k))
        quote = next(quote for source, quote in linked_quotes(site, first, site.get(first)) if source == source_id and passage_id(quote) == pid)
        passages[pid] = dataclasses.replace(passage, quote=quote)
    if passages:
        site.passages[source_id] = passages
    else:
        site.passages.pop(source_id, None)


def order(site: Site, source_id: str) -> None:
    """Put a source's passages in the linking stage's order: by position in the text."""
    if source_id in site.passages:
        site.passages[source_id] = dict(sorted(site.passages[source_id].items(), key=lambda item: item[1].order()))
