"""The index of a site's claims by support level, kept between builds: a record's claims are worked
out again only when the record changed, and a restored index makes a record's claims again only
when they are asked for (a build after one edit asks for the edited record's alone, unless its
claims changed: then the claims pages, which show every claim, ask for them all)."""

from __future__ import annotations

import functools
from collections import Counter
from sys import intern
from typing import Any, Iterable, Iterator, Mapping

from .. import forked
from ..model.rows import MISSING, Rows
from ..model.schema import Record
from .claims import Claim, level_order, record_claims

Entry = tuple[Record, list[Claim], tuple]  # a record, its claims, and the names of the records it links to


class ClaimIndex:
    """The claims of a site by support level, kept between versions of the site: a record's claims
    are worked out again only when the record changed (every record's, when what a source derives
    from did, or a record's name, which other records' claims may show). `version` counts the
    changes to what claims() returns, so that an edit that changes no claim costs no more."""

    def __init__(self, lang: str | None = None) -> None:
        self.lang = lang  # the language whose view of the site it is given, when not the site's first
        self.derived_from: dict[str, str | None] = {}
        self.records: dict[tuple[str, str], Entry] | Rows[tuple[str, str], Entry] = {}  # Rows when restored: made again when asked for
        self._found: dict[str, list[Claim]] | bool | None = None  # True: the records' claims, to be gathered when asked for
        self.version = 0
        self.counted: tuple[int, dict[str, int]] = (-1, {})  # a version, and how many claims each level had in it

    @property
    def found(self) -> dict[str, list[Claim]] | None:
        """Return the claims by level, as last worked out (None before)."""
        if self._found is True:
            self._found = gathered(self.records.values())
        return self._found  # type: ignore[return-value]

    @found.setter
    def found(self, found: dict[str, list[Claim]] | None) -> None:
        self._found = found

    def __getstate__(self) -> dict:
        """Pickle each record's claims as their texts and levels, which with the record make them
        again (its page's address and name: see record_claims), and the claims by level as True when
        they are the records' claims gathered in turn (as they are but for a bug). At 10,000 records
        the 186,000 claims pickled one tuple at a time took 0.7 s of the 2 s that saving a build's
        session takes. A record whose claims were never made again is kept as it was restored."""
        records: dict[tuple[str, str], tuple] = {}
        for key, entry, kept in self.entries():
            if entry is MISSING:
                records[key] = kept
                continue
            record, claims, names = entry
            url, label = record.page_url, record.label
            lang = claims[0].lang if claims else ""
            made = all(c.page_url == url and c.number == n and c.page == label and c.lang == lang for n, c in enumerate(claims, start=1))
            records[key] = (record, names, *texts_and_levels(claims)) if made else (record, names, claims)
        found = self._found
        gather = found is True or (found is not None and found == gathered(self.records.values()))
        return {**self.__dict__, "records": records, "_found": True if gather else found}

    def __setstate__(self, state: dict) -> None:
        """Take the records' claims as kept (see __getstate__), each made again when first asked for."""
        kept = state["records"]
        self.__dict__.update(state, records=Rows.unread("claims", MadeAgain(kept), kept))

    def compact(self) -> None:
        """Hold each record's claims as a kept index does (see __getstate__), made again when asked for."""
        self.__setstate__(self.__getstate__())

    def counts(self, site: Any, edited: set[tuple[str, str]] | None = None, processes: int = 1) -> dict[str, int]:
        """Return how many claims each support level has, most sources first (see update), without
        making the claims of a restored index again: their levels are kept."""
        self.update(site, edited, processes)
        if self.counted[0] != self.version:  # worked out once a version: a preview plans after every edit
            self.counted = (self.version, self.count_levels())
        return self.counted[1]

    def count_levels(self) -> dict[str, int]:
        """Return how many claims each support level has, from the claims by level if gathered, else from each record's."""
        if isinstance(self._found, dict):
            return {level: len(claims) for level, claims in self._found.items()}
        levels: Counter[str] = Counter()
        for _, entry, kept in self.entries():
            if entry is MISSING and len(kept) == 5:  # as kept: record, names, texts, levels, language
                levels.update(kept[3])
            else:
                levels.update(claim.level for claim in (kept[2] if entry is MISSING else entry[1]))
        return {level: levels[level] for level in sorted(levels, key=level_order)}

    def entries(self) -> Iterator[tuple[tuple[str, str], Any, tuple]]:
        """Yield each record's key, its entry (MISSING if its claims were not made again since the
        index was restored) and, for such a record, its claims as kept (see __getstate__)."""
        kept = self.records.source.kept if isinstance(self.records, Rows) else {}  # type: ignore[attr-defined]
        for key, entry in (self.records.by_key if isinstance(self.records, Rows) else self.records).items():
            yield key, entry, kept[key] if entry is MISSING else ()

    def claims(self, site: Any, edited: set[tuple[str, str]] | None = None, processes: int = 1) -> dict[str, list[Claim]]:
        """Return every claim of a linked site by support level, most sources first, each level in the
        records' order (see update)."""
        self.update(site, edited, processes)
        return self.found  # type: ignore[return-value]

    def update(self, site: Any, edited: set[tuple[str, str]] | None = None, processes: int = 1) -> None:
        """Work out the claims of the records that changed, and count a new version if that changes
        the claims by level. edited: the only records that can have changed since the last call, if
        known (an edit: then the other 10,000 are not looked at)."""
        derived_from = {sid: getattr(source, "derived_from", None) for sid, source in site.records["sources"].items()}
        if derived_from != self.derived_from:
            self.derived_from, self.records, self.found = derived_from, {}, None
        count = sum(len(site.records.get(kind, {})) for kind in site.model)
        known = self._found is not None and count == len(self.records)
        candidates = [site.get(key) for key in edited if key[1] in site.records.get(key[0], {})] if known and edited is not None else site.all_records()
        changed = [r for r in candidates if (cached := self.records.get((r.collection, r.id))) is None or cached[0] is not r]
        if known and not changed:
            return
        renamed = any(key in self.records and self.records[key][0].label != r.label for r in changed for key in [(r.collection, r.id)])
        if not known or renamed or any((r.collection, r.id) not in self.records for r in changed):
            self.recount(site, site.all_records(), processes)
            return
        moved = False
        for record in changed:
            key = (record.collection, record.id)
            claims = record_claims(site, record, derived_from, self.lang)
            moved = moved or claims != self.records[key][1]
            self.records[key] = (record, claims, self.names(site, key))
        if moved:  # a record's claims differ, so do the claims by level: gathered when asked for
            self._found, self.version = True, self.version + 1

    def recount(self, site: Any, records: list[Record], processes: int = 1) -> dict[str, list[Claim]]:
        """Work out again the claims of every record whose claims, or the names they show, may differ
        (with processes 2 or more, those of many records in two processes: forked.in_two_processes)."""
        before = self.found
        kept: dict[tuple[str, str], Any] = {}  # in the records' order: those to work out again are filled in below
        todo = []
        for record in records:
            key = (record.collection, record.id)
            cached = self.records.get(key)
            names = self.names(site, key)
            if cached is None or cached[0] is not record or cached[2] != names:
                todo.append((record, names))
            kept[key] = cached
        if processes < 2 or len(todo) < forked.SPLIT_FROM:
            kept.update({(record.collection, record.id): (record, record_claims(site, record, self.derived_from, self.lang), names) for record, names in todo})
        else:
            work = functools.partial(records_texts_and_levels, site, self.derived_from, self.lang)
            for (record, names), made in zip(todo, forked.in_two_processes(work, [record for record, _ in todo], "plan", processes)):
                kept[(record.collection, record.id)] = (record, claims_again(record, *made), names)
        self.records = kept
        found = gathered(kept[(record.collection, record.id)] for record in records)
        if found != before:
            self.found, self.version = found, self.version + 1
        return found

    @staticmethod
    def names(site: Any, key: tuple[str, str]) -> tuple:
        """Return the names of the records a record links to: its claims show them."""
        return tuple(site.get(linked).label for linked in site.links.get(key, ()))


class MadeAgain:
    """The claims of a restored index as kept (ClaimIndex.__getstate__): a record's made again when asked for."""

    def __init__(self, kept: dict[tuple[str, str], tuple]):
        self.kept = kept

    def read_rows(self, part: str, keys: list) -> dict:
        """Return the entries of these records, their claims made again."""
        made = {}
        for key in keys:
            record, names, *kept = self.kept[key]
            made[key] = (record, kept[0] if len(kept) == 1 else claims_again(record, *kept), names)
        return made


def gathered(entries: Iterable[Entry]) -> dict[str, list[Claim]]:
    """Return the claims of records (ClaimIndex.records' entries) by support level, most sources first, each level in the records' order."""
    found: dict[str, list[Claim]] = {}
    for _, claims, _ in entries:
        for claim in claims:
            found.setdefault(claim.level, []).append(claim)
    return {level: found[level] for level in sorted(found, key=level_order)}


def texts_and_levels(claims: list[Claim]) -> tuple[list[str], list[str], str]:
    """Return one record's claims (as record_claims makes them) as their texts, their levels and the
    language they are written in: the rest is the record's (claims_again). So a saved session keeps
    them, and a forked process sends them back."""
    return [c.text for c in claims], [intern(c.level) for c in claims], claims[0].lang if claims else ""


def claims_again(record: Record, texts: list[str], levels: list[str], lang: str) -> list[Claim]:
    """Return a record's claims made again from their texts and levels (see texts_and_levels)."""
    url, label = record.page_url, record.label
    return [_tuple(Claim, (text, url, n, label, level, lang)) for n, (text, level) in enumerate(zip(texts, levels), start=1)]


_tuple = tuple.__new__  # makes a Claim without the named tuple's __new__, a Python call: a build after one edit makes 186,000 again at 10,000 records


def records_texts_and_levels(site: Any, derived_from: Mapping[str, str | None], lang: str | None, records: list[Record]) -> list[tuple]:
    """Return the claims of records as texts_and_levels gives them: a forked process's share of recount."""
    return [texts_and_levels(record_claims(site, record, derived_from, lang)) for record in records]
