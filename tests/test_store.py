"""The last build's citations and passages, kept a row per record and per source (incremental/store.py),
and its claims, made again a record at a time (render/claim_index.py):
a build after one edit reads the rows it touches and no others, keeps what it read or set and
leaves the rest as it was, and a session is never restored with, nor kept over, rows of another
generation than its own."""

from __future__ import annotations

import ast
import os
from pathlib import Path
from typing import Callable

import pytest

from conftest import copy_project, edit, tree
from dossier.incremental import cache, lastbuild, pool, store
from dossier.incremental.session import Session
from dossier.model.rows import Rows
from dossier.render import claim_index
from dossier.pipeline import build

PERSON = "content/people/alexander-badillo.md"
OTHER = "content/people/angel.md"


def state_of(root: Path) -> Path:
    """Return the project's kept session file."""
    return next((root / cache.FOLDER).glob("session-*.pickle"))


def fresh(root: Path) -> Session:
    """Return the project loaded from its files, as a cold build loads it."""
    session = Session(root)
    session.load()
    return session


def kept_parts(root: Path) -> dict[str, dict]:
    """Return the citations and passages of the project's kept session, every row read."""
    session = lastbuild.restore(state_of(root))
    assert session is not None and session.site is not None
    return {part: dict(getattr(session.site, part).read_all()) for part in store.PARTS}


@pytest.fixture
def reads(monkeypatch, tmp_path) -> Callable[[], list[tuple[int, str, list]]]:
    """Note every read of kept rows (and every record's claims made again), in any process: return
    what reads them back (by which process, of which part and keys)."""
    log = tmp_path / "reads.log"
    read_rows = store.Snapshot.read_rows

    def noting(self, part: str, keys: list) -> dict:
        with open(log, "a", encoding="utf-8") as file:  # a forked process's too
            file.write(repr((os.getpid(), part, keys)) + "\n")
        return read_rows(self, part, keys)

    def noted() -> list[tuple[int, str, list]]:
        found = [ast.literal_eval(line) for line in log.read_text(encoding="utf-8").splitlines()] if log.exists() else []
        log.unlink(missing_ok=True)
        return found

    def making(self, part: str, keys: list) -> dict:
        with open(log, "a", encoding="utf-8") as file:
            file.write(repr((os.getpid(), part, keys)) + "\n")
        return make_again(self, part, keys)

    make_again = claim_index.MadeAgain.read_rows
    monkeypatch.setattr(store.Snapshot, "read_rows", noting)
    monkeypatch.setattr(claim_index.MadeAgain, "read_rows", making)
    return noted


def test_a_build_after_one_edit_reads_the_rows_of_the_record_it_touches_and_no_others(tmp_path, reads):
    root = copy_project(tmp_path / "project")
    build(root, root / "site")
    session = lastbuild.restore(state_of(root))
    assert session is not None and isinstance(session.site.citations, Rows) and isinstance(session.site.passages, Rows)
    assert session.site.citations.read() == [] and session.site.passages.read() == []  # restored with no row read
    cited = {c.source for c in session.site.citations[("people", "alexander-badillo")]}
    del session
    reads()
    edit(root, PERSON, "## How we know\n", "## How we know it\n", later=True)  # a body edit that changes no claim
    build(root, root / "site")
    noted = reads()
    citations = {key for _, part, keys in noted if part == "citations" for key in keys}
    passages = {key for _, part, keys in noted if part == "passages" for key in keys}
    assert citations == {("people", "alexander-badillo")}
    assert {key for _, part, keys in noted if part == "claims" for key in keys} == {("people", "alexander-badillo")}  # its claims alone made again
    assert passages <= cited and len(passages) < len(list((root / "content/sources").glob("*.yaml")))
    build(root, tmp_path / "cold", use_cache=False)
    assert tree(root / "site") == tree(tmp_path / "cold")


def test_what_a_build_read_or_set_is_kept_and_every_other_row_stays_as_it_was(tmp_path):
    root = copy_project(tmp_path / "project")
    build(root, root / "site")
    edit(root, PERSON, '[@npr-adrift "Alexander Badillo, 29"]', "", later=True)  # one citation fewer: its row and its source's passages change
    build(root, root / "site")
    edit(root, OTHER, "\n\n", "\n\nAn added sentence.\n\n", later=True)  # a build that reads other rows, and not those
    build(root, root / "site")
    loaded = fresh(root).site
    assert kept_parts(root) == {"citations": loaded.citations, "passages": loaded.passages}
    build(root, tmp_path / "cold", use_cache=False)
    assert tree(root / "site") == tree(tmp_path / "cold")


def test_a_session_is_not_kept_over_rows_another_build_has_replaced_since_it_was_restored(tmp_path):
    root = copy_project(tmp_path / "project")
    build(root, root / "site")
    first, second = lastbuild.restore(state_of(root)), lastbuild.restore(state_of(root))
    assert first is not None and second is not None
    assert lastbuild.keep_session(second) is True
    assert lastbuild.keep_session(first) is False  # its unread rows were replaced: writing the others would mix two states
    kept = lastbuild.restore(state_of(root))
    assert kept is not None and kept.site.citations.source.generation != first.site.citations.source.generation
    loaded = fresh(root).site
    assert kept_parts(root) == {"citations": loaded.citations, "passages": loaded.passages}


def test_a_session_whose_rows_are_of_another_generation_is_not_restored_and_the_build_starts_afresh(tmp_path):
    root = copy_project(tmp_path / "project")
    build(root, root / "site")
    older = state_of(root).read_bytes()
    edit(root, PERSON, "He was 29 when", "He was twenty-nine when", later=True)
    build(root, root / "site")
    state_of(root).write_bytes(older)  # as if the keeping stopped between writing the rows and the session
    assert lastbuild.restore(state_of(root)) is None
    (root / "site/index.html").unlink()
    build(root, root / "site")
    build(root, tmp_path / "cold", use_cache=False)
    assert tree(root / "site") == tree(tmp_path / "cold")


def test_the_rows_a_forked_process_reads_are_those_of_its_sessions_generation(tmp_path):
    root = copy_project(tmp_path / "project")
    build(root, root / "site")
    session = lastbuild.restore(state_of(root))
    assert session is not None
    key = ("people", "alexander-badillo")
    reader, writer = os.pipe()
    child = os.fork()
    if child == 0:  # reads in a transaction of its own
        os.write(writer, repr(session.site.citations[key]).encode())
        os._exit(0)
    os.close(writer)
    with os.fdopen(reader, "rb") as pipe:
        read_there = pipe.read().decode()
    os.waitpid(child, 0)
    assert read_there == repr(session.site.citations[key]) == repr(fresh(root).site.citations[key])


def test_the_rows_are_read_before_the_rendering_processes_are_forked_and_never_by_them(tmp_path, monkeypatch, reads):
    monkeypatch.setattr(pool, "PARALLEL_FROM", 4)
    root = copy_project(tmp_path / "project")
    build(root, root / "site", workers=2)
    theme = root / "templates"
    theme.mkdir(exist_ok=True)
    (theme / "base.html").write_text((Path(lastbuild.__file__).parent.parent / "templates/base.html").read_text(encoding="utf-8")
                                     .replace("</body>", "<!-- edited -->\n</body>"), encoding="utf-8")
    reads()
    build(root, root / "site", workers=2)  # every page renders again, in two processes
    noted = reads()
    assert noted and {pid for pid, _, _ in noted} == {os.getpid()}
    build(root, tmp_path / "cold", use_cache=False, workers=2)
    assert tree(root / "site") == tree(tmp_path / "cold")


def test_the_preview_opened_from_a_kept_state_reads_every_row_and_holds_no_transaction_open(tmp_path):
    from dossier.serve.preview import Preview

    root = copy_project(tmp_path / "project")
    build(root, root / "site")
    (tmp_path / "preview").mkdir()
    preview = Preview(root, tmp_path / "preview")
    preview.start()  # from the build's state: it lives on, while builds may keep theirs
    try:
        site = preview.session.site
        assert site is not None
        for part in store.PARTS:
            rows = getattr(site, part)
            assert isinstance(rows, Rows) and rows.read() == list(rows), part  # every row read
            assert rows.source.connection is None, part  # and the transaction they were read in ended
    finally:
        preview.stop()


def test_a_sources_cited_passages_are_kept_as_columns_that_read_pickle_and_store_as_the_passages_themselves():
    import pickle

    from dossier.check.site import Cited, Passage

    torres, convoy = ("people", "jorge-torres"), ("events", "aid-convoy")
    passages = [Passage("passage-b", "across the bridge", 70, 87, (torres,)), Passage("passage-a", "drove", 40, 45, (convoy, torres))]
    cited = Cited.of(passages)
    as_dict = {p.id: p for p in passages}
    assert list(cited) == ["passage-b", "passage-a"] and list(cited.values()) == passages  # in linking's order, not the ids'
    assert cited["passage-a"] == passages[1] and cited.get("passage-c") is None and "passage-b" in cited and len(cited) == 2
    assert cited == as_dict and as_dict == cited and dict(cited) == as_dict
    assert pickle.loads(pickle.dumps(cited)) == cited
    assert store.decode_passages(store.encode_passages(cited)) == cited and store.encode_passages(as_dict) == store.encode_passages(cited)


def test_linking_keeps_each_sources_passages_as_columns_and_one_tuple_for_each_record_citing_a_passage_alone(tmp_path):
    from dossier.check.site import Cited

    session = Session(copy_project(tmp_path))
    session.load()
    site = session.site
    assert site.passages and all(isinstance(found, Cited) for found in site.passages.values())
    alone = [passage.cited_by for found in site.passages.values() for passage in found.values() if len(passage.cited_by) == 1]
    assert len(alone) > len({id(citers) for citers in alone}) == len({citers[0] for citers in alone})  # one tuple a citing record


def test_a_large_builds_claims_held_as_a_kept_session_holds_them_give_after_an_edit_what_a_cold_build_gives(tmp_path, monkeypatch):
    from dossier.incremental import rendered
    from dossier.incremental import session as session_module

    monkeypatch.setattr(session_module, "FEW_PAGES", 0)  # as in a large build: the claims held compactly once their pages are rendered
    held = []
    keep = rendered.RenderedState.keep_claims_compactly

    def noted(state: rendered.RenderedState) -> None:
        keep(state)
        held.append((set(map(type, state.claims_shown.values())), {type(index.records) for index in state.claim_indexes.values()}))

    monkeypatch.setattr(rendered.RenderedState, "keep_claims_compactly", noted)
    root = copy_project(tmp_path / "project")
    build(root, root / "site")
    assert held == [({bytes}, {Rows})]  # each claims page as its digest, each language's claims as kept
    edit(root, PERSON, '[@npr-adrift "Alexander Badillo, 29"]', "", later=True)  # a claim's sources change: claims pages render again
    build(root, root / "site")
    build(root, tmp_path / "cold", use_cache=False)
    assert tree(root / "site") == tree(tmp_path / "cold")


def test_a_records_citations_are_kept_as_columns_that_read_compare_pickle_and_store_as_the_citations_themselves():
    import pickle

    from dossier.check.site import RecordCitations
    from dossier.model.schema import Citation

    citations = [Citation(source="ap", quote="across the bridge", line=12, column=301, source_line=4, source_column=9),
                 Citation(source="ap-copy", quote="A translation", line=300, sole=True)]
    kept = RecordCitations.of(citations)
    assert list(kept) == citations and kept[1] == citations[1] and kept[-1] == citations[-1] and kept[:1] == citations[:1] and len(kept) == 2
    assert [(c.column, c.source_line, c.source_column, c.sole) for c in kept] == [(301, 4, 9, False), (0, 0, 0, True)]  # the fields equality leaves out too
    assert kept == citations and citations == kept and kept != citations[:1] and repr(kept) == repr(citations)
    assert pickle.loads(pickle.dumps(kept)) == kept and store.DECODE["citations"](store.ENCODE["citations"](kept)) == kept
    with pytest.raises(IndexError):
        kept[2]


def test_linking_keeps_each_records_citations_as_columns(tmp_path):
    from dossier.check.site import RecordCitations

    session = Session(copy_project(tmp_path))
    session.load()
    assert session.site.citations and all(isinstance(found, RecordCitations) for found in session.site.citations.values())
