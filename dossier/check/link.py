"""Linking stage: resolve every reference, verify every citation, compute backlinks and the timeline.

Takes validated records and seed texts and returns a Site: the whole cross-linked documentary,
ready to render, plus every problem found.
"""

from __future__ import annotations

import dataclasses
from collections import defaultdict
from typing import NamedTuple, cast

from .evidence import citations_of
from ..forked import in_two_processes
from ..text.markup import scan
from ..model.record_types import BUILT_IN, RESERVED, Model
from ..text.passages import SeedText, inserted_spans, mark_differences, passage_id
from ..model.problems import Problem, did_you_mean
from ..model.schema import Citation, Record, SiteConfig, Source
from ..read.frontmatter import column_of
from .site import Cited, Key, Passage, RecordCitations, Site, cited_only_by, default_config, shared_key  # the linked site's shapes, which other stages import from here too


class Examined(NamedTuple):
    """What linking finds of one record before adding it to the site (see Linker.examine): a tuple,
    as a second process examines half of a large site's records and sends them back."""

    targets: list[Key]  # the records its body links to, each once, in order
    citations: RecordCitations  # its verified citations, front matter's first
    passages: list[tuple[str, str, str, int, int]]  # what they and its translations' cite: source, passage id, quote, start, end
    problems: list[Problem]


class Linker:
    """Resolve references of one site, collecting problems as it goes."""

    def __init__(self, records: dict[str, dict[str, Record]], seeds: dict[str, str] | dict[str, SeedText], failed: set[Key] | frozenset[Key] = frozenset(),
                 model: Model = BUILT_IN, drafts: dict[Key, str] | None = None, draft_mode: str = "out"):
        self.records = records
        self.failed = failed  # records whose files have errors of their own: references to them stay silent
        self.drafts = drafts or {}  # every draft's file, shown or not
        self.draft_mode = draft_mode  # 'out' (build), 'preview' or 'in' (build --drafts): see Session
        self.problems: list[Problem] = []
        self.found: list[tuple[str, str, str, int, int]] = []  # the passages check_citation verified: source, id, quote, start, end
        self.model = model
        config = cast(SiteConfig, next(iter(records.get("site", {}).values()), None) or default_config())
        self.site = Site(config, records, {name: text if isinstance(text, SeedText) else SeedText(text) for name, text in seeds.items()}, model=model)

    def error(self, record: Record, line: int, message: str, column: int = 0) -> None:
        self.problems.append(Problem(record.path, line, column, "error", message))

    def left_out_draft(self, record: Record, keys: list[Key], line: int, column: int = 0) -> bool:
        """Report a published record's link to a draft (an error where the site leaves the draft out,
        a warning in the preview, which shows it); return whether the draft is left out."""
        draft = next((key for key in keys if key in self.drafts), None)
        if draft is None or (record.collection, record.id) in self.drafts:
            return False
        shown = draft[1] in self.records.get(draft[0], {})
        if shown and self.draft_mode == "in":
            return False
        if shown or self.draft_mode == "out":
            message = f"a draft ({self.drafts[draft]}) that build leaves out: finish it and remove 'draft: true', or build with --drafts"
        else:
            message = f"a draft ({self.drafts[draft]}) left out until its own problems are fixed"
        self.problems.append(Problem(record.path, line, column, "warning" if shown else "error", f"links to '{draft[1]}', {message}"))
        return not shown

    def resolve_target(self, record: Record, target: str, line: int, column: int = 0) -> Key | None:
        """Resolve '[[id]]' or '[[people/id]]' to a key, reporting unknown or ambiguous ids (at the link's line and column)."""
        if self.drafts and self.left_out_draft(record, [cast(Key, tuple(target.split("/", 1)))] if "/" in target else [(kind, target) for kind in self.model], line, column):
            return None
        if self.failed and ("/" in target and tuple(target.split("/", 1)) in self.failed or any((kind, target) in self.failed for kind in self.model)):
            return None
        if "/" in target:
            kind, _, rid = target.partition("/")
            if kind not in self.model:
                self.error(record, line, f"unknown link '[[{target}]]': '{kind}' is not one of {', '.join(self.model)}{did_you_mean(kind, self.model)}", column)
                return None
            if rid in self.records[kind]:
                return (kind, rid)
            self.error(record, line, f"unknown link '[[{target}]]': no {kind} record '{rid}'{did_you_mean(rid, self.records[kind])}", column)
            return None
        found = [(kind, target) for kind in self.model if target in self.records[kind]]
        if len(found) == 1:
            return found[0]
        if found:
            options = " or ".join(f"[[{kind}/{target}]]" for kind, _ in found)
            self.error(record, line, f"ambiguous link '[[{target}]]': write {options}", column)
            return None
        every_id = {rid for kind in self.model for rid in self.records[kind]}
        self.error(record, line, f"unknown link '[[{target}]]'{did_you_mean(target, every_id)}", column)
        return None

    def resolve_id(self, record: Record, kind: str, rid: str, *key: object) -> bool:
        """Check that a front-matter reference names an existing record of the right kind."""
        if self.drafts and self.left_out_draft(record, [(kind, rid)], record_line(record, *key)):
            return False
        if rid in self.records[kind]:
            return True
        if (kind, rid) in self.failed:
            return False
        field_name = ".".join(str(k) for k in key[:1])
        self.error(record, record_line(record, *key), f"unknown {self.model[kind].singular} '{rid}' in '{field_name}'{did_you_mean(rid, self.records[kind])}")
        return False

    def check_sources(self) -> None:
        """Check each source's seed file and derivation chain."""
        sources = self.records["sources"]
        for source in sources.values():
            assert isinstance(source, Source)
            if source.seed not in self.site.seeds and ("seeds", source.seed) not in self.failed:  # unreadable: reported on the seed
                self.error(source, record_line(source, "seed"), f"seed file 'seeds/{source.seed}' does not exist{did_you_mean(source.seed, self.site.seeds)}")
            if source.derived_from and source.derived_from in sources:
                chain = [source.id]
                current: str | None = source.derived_from
                while current and current not in chain:
                    chain.append(current)
                    following = sources.get(current)
                    current = following.derived_from if isinstance(following, Source) else None
                if current == source.id:
                    self.error(source, record_line(source, "derived_from"), "derived_from forms a cycle: " + " → ".join(chain + [source.id]))
                self.site.derivatives.setdefault(source.derived_from, []).append(source.id)

    def check_citation(self, record: Record, citation: Citation) -> bool:
        """Verify that a citation's quote occurs in its source's stored text, noting the passage it
        cites in found (examine() hands it on; add() puts it in the site)."""
        sources = self.records["sources"]
        named_at = (citation.source_line, citation.source_column) if citation.source_line else (citation.line, citation.column)  # where the source is named
        if self.drafts and self.left_out_draft(record, [("sources", citation.source)], *named_at):
            return False
        if ("sources", citation.source) in self.failed:
            return False
        if citation.source not in sources:
            self.error(record, named_at[0], f"unknown source '{citation.source}'{did_you_mean(citation.source, sources)}", named_at[1])
            return False
        source = sources[citation.source]
        assert isinstance(source, Source)
        seed = self.site.seeds.get(source.seed)
        if seed is None:
            return False  # reported once, on the source
        span = seed.locate(citation.quote)
        if span is not None and source.inserted_lines:
            inserted = inserted_spans(seed.text, tuple(source.inserted_lines))
            if any(left < span[1] and span[0] < right for left, right in inserted):
                inserted_at = span[0]
                span = seed.locate(citation.quote, inserted)  # the same words may stand in the story too
                if span is None:
                    line_start = seed.text.rfind("\n", 0, inserted_at) + 1
                    prefix = next(p for p in source.inserted_lines if seed.text[line_start:].lstrip().startswith(p))
                    self.problems.append(Problem(record.path, citation.line, citation.column, "error",
                                                 f"quote \"{citation.quote}\" is in seeds/{source.seed}:{seed.text.count(chr(10), 0, inserted_at) + 1}, "
                                                 f"a line the republisher inserted (inserted_lines: '{prefix}' in {source.path}), not the story: cite the story's own text"))
                    return False
        if span is None:
            closest = seed.closest(citation.quote)
            hint = f'; closest passage: "{mark_differences(citation.quote, closest)}"' if closest else "; no similar passage"
            self.error(record, citation.line, f"quote not found in source '{source.id}' (seeds/{source.seed}): \"{citation.quote}\"{hint}", citation.column)
            return False
        self.found.append((source.id, passage_id(citation.quote), citation.quote, *span))
        return True

    def link_record(self, record: Record) -> None:
        """Resolve one record's references and citations and record its outgoing links."""
        self.add(record, self.examine(record))

    def building(self, source_id: str) -> dict[str, Passage]:
        """Return the passages of a source found so far, which linking adds to (its site's Cited once run)."""
        found = self.site.passages.setdefault(source_id, {})
        assert isinstance(found, dict)
        return found

    def add(self, record: Record, examined: Examined) -> None:
        """Add what examine() found of a record to the site: its links, its verified citations, the
        passages it cites (the first record to cite a passage gives its wording) and its problems."""
        key = shared_key(record.collection, record.id)
        self.problems += examined.problems
        for source_id, pid, quote, start, end in examined.passages:
            passage = self.building(source_id).setdefault(pid, Passage(pid, quote, start, end))
            if not passage.cited_by:
                passage.cited_by = cited_only_by(key)
            elif key not in passage.cited_by:
                passage.cited_by += (key,)
        self.site.links[key] = [shared_key(*target) for target in examined.targets]  # one tuple a record, if examined elsewhere
        self.site.citations[key] = examined.citations
        for source_id in sorted(set(examined.citations.sources)):
            self.site.cited_by.setdefault(source_id, []).append(key)

    def examine(self, record: Record) -> Examined:
        """Resolve one record's references and citations (and its translations'), without changing
        the site: its links, verified citations, cited passages and problems."""
        kept, self.problems, self.found = self.problems, [], []
        try:
            targets, citations = self.examine_links_and_citations(record)
            return Examined(targets, RecordCitations.of(citations), self.found, self.problems)
        finally:
            self.problems, self.found = kept, []

    def examine_links_and_citations(self, record: Record) -> tuple[list[Key], list[Citation]]:
        """Return a record's link targets and verified citations, checking its references too."""
        body, first_line = record.body, record.body_line
        if self.model[record.collection].body_field != "body":  # a source's notes
            name = self.model[record.collection].body_field
            body, first_line = getattr(record, name) or "", record_line(record, name) + 1
        links, citations, problems = scan(body, first_line, record.path)
        if body is not record.body:  # a YAML block's text, less its indentation: its columns are not the file's
            links = [dataclasses.replace(link, column=0) for link in links]
            citations = [dataclasses.replace(c, column=0) for c in citations]
            problems = [dataclasses.replace(p, column=0) for p in problems]
        self.problems += problems
        for lang in sorted(record.translations):  # checked as the record's own, at the translation's lines
            translation = record.translations[lang]
            stand_in = dataclasses.replace(record, path=translation.path, lines=translation.lines)
            found_links, found_citations, problems = scan(translation.body, translation.body_line, translation.path)
            self.problems += problems
            for link in found_links:
                self.resolve_target(stand_in, link.target, link.line, link.column)
            for citation in found_citations:
                self.check_citation(stand_in, citation)
        targets: list[Key] = []
        for link in links:
            target = self.resolve_target(record, link.target, link.line, link.column)
            if target and target not in targets:
                targets.append(shared_key(*target))
        verified = [c for c in front_matter_citations(self.model, record) + citations if self.check_citation(record, c)]
        for spec in self.model[record.collection].references:
            value = getattr(record, spec.name, None)
            for index, rid in enumerate(spec.ids(record)):
                self.resolve_id(record, spec.target, rid, *((spec.name, index) if isinstance(value, list) else (spec.name,)))  # type: ignore[arg-type]
        return targets, verified

    def examine_all(self, records: list[Record]) -> list[Examined]:
        """Return what examine() finds of each record."""
        return [self.examine(record) for record in records]

    def check_urls(self) -> None:
        """Refuse free pages whose URL a generated page already uses."""
        for page in self.records["pages"].values():
            if page.id in RESERVED or page.id in self.model:
                self.error(page, 1, f"page id '{page.id}' would share the URL '{page.id}/' with a generated page; rename the file")

    def backlinks(self) -> None:
        """Compute who mentions whom, each record's events and each group's or place's people."""
        mentioned: dict[Key, set[Key]] = defaultdict(set)
        for source_key, targets in self.site.links.items():
            for target in targets:
                if target != source_key:
                    mentioned[target].add(source_key)
        self.site.mentioned_by = {key: sorted(keys) for key, keys in mentioned.items()}
        named: dict[Key, dict[tuple[str, str], set[str]]] = defaultdict(lambda: defaultdict(set))
        for collection, rtype in self.model.items():
            for spec in rtype.references:
                for record in self.records[collection].values():
                    for rid in spec.ids(record):
                        if rid in self.records[spec.target]:  # type: ignore[index]
                            named[(spec.target, rid)][(collection, spec.name)].add(record.id)  # type: ignore[index]
        order = {eid: index for index, eid in enumerate(self.site.timeline)}
        self.site.referrers = {key: {via: sort_ids(ids, via[0], order) for via, ids in sorted(by.items())} for key, by in named.items()}
        self.site.events_of = {key: events for key in self.site.referrers if (events := events_naming(self.site, key))}

    def run(self, processes: int = 1) -> Site:
        """Link everything and return the site (processes: how many may examine a large site's records)."""
        self.check_sources()
        self.check_urls()
        records = self.site.all_records()
        for record, examined in zip(records, in_two_processes(self.examine_all, records, "validate and link", processes)):
            self.add(record, examined)
        events = self.records["events"].values()
        self.site.timeline = [e.id for e in sorted(events, key=lambda e: e.date.sort_key() + (e.id,))]  # type: ignore[attr-defined]
        self.backlinks()
        for source_id, passages in list(self.site.passages.items()):
            for passage in passages.values():
                if len(passage.cited_by) > 1:
                    passage.cited_by = tuple(sorted(passage.cited_by))
            self.site.passages[source_id] = Cited.of(sorted(passages.values(), key=Passage.order))
        return self.site


def sort_ids(ids: set[str] | list[str], collection: str, order: dict[str, int]) -> list[str]:
    """Return ids in the order a list of that collection takes: events by date, others by id."""
    return sorted(ids, key=order.__getitem__) if collection == "events" else sorted(ids)


def events_naming(site: Site, key: Key) -> list[str]:
    """Return the events whose fields name a record, in timeline order."""
    lists = [ids for (collection, _), ids in site.referrers.get(key, {}).items() if collection == "events"]
    if len(lists) == 1:
        return lists[0]
    order = {eid: index for index, eid in enumerate(site.timeline)}
    return sorted({eid for ids in lists for eid in ids}, key=order.__getitem__)


def front_matter_citations(model: Model, record: Record) -> list[Citation]:
    """Return the citations a record's front matter carries (an age, figures), in field order."""
    found = []
    for spec in model[record.collection].citing_fields:
        value = getattr(record, spec.name, None)
        if spec.type == "evidence":
            found += citations_of(value)
            continue
        items = value if isinstance(value, list) else [value] if value else []
        for index, item in enumerate(items):
            key = (spec.name, index) if isinstance(value, list) else (spec.name,)
            found.append(Citation(source=item.source, quote=item.quote, line=record_line(record, *key, "quote"), source_line=record_line(record, *key, "source"),
                                  column=column_of(record.lines, *key, "quote"), source_column=column_of(record.lines, *key, "source")))
    return found


def record_line(record: Record, *key: object) -> int:
    """Return the file line of a front-matter key path of a record."""
    while key:
        if key in record.lines:
            return record.lines[key]
        key = key[:-1]
    return record.lines.get((), 1)


def check_references(records: dict[str, dict[str, Record]], seeds: dict[str, SeedText], failed: set[Key], model: Model,
                     salvaged: list[Record], drafts: dict[Key, str] | None = None, draft_mode: str = "out") -> list[Problem]:
    """Return the link, reference and citation problems of records whose files have errors of their
    own (see validate.salvage), checked against the valid records, so that none waits for the next run."""
    linker = Linker(records, seeds, failed, model, drafts, draft_mode)
    for record in salvaged:
        linker.link_record(record)
    return linker.problems


def link(records: dict[str, dict[str, Record]], seeds: dict[str, str] | dict[str, SeedText], failed: set[Key] | frozenset[Key] = frozenset(),
         model: Model = BUILT_IN, drafts: dict[Key, str] | None = None, draft_mode: str = "out", processes: int = 1) -> tuple[Site, list[Problem]]:
    """Resolve references, verify citations and compute backlinks; return the site and problems.
    drafts are the draft records' files; draft_mode says whether the site shows them (see Session);
    processes: how many may examine a large site's records (see forked.in_two_processes)."""
    linker = Linker(records, seeds, failed, model, drafts, draft_mode)
    site = linker.run(processes)
    return site, linker.problems
