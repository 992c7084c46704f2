"""The build cache: a warm build writes exactly what a cold one writes, and only what changed."""

from __future__ import annotations

import gc
import os
import re
import shutil
from pathlib import Path

from conftest import PROJECT, copy_project, edit, tree

from dossier.incremental import cache, inputs, lastbuild
from dossier.text import markup
from dossier.pipeline import build


def test_warm_builds_equal_cold_builds_byte_for_byte(tmp_path, package_theme):
    root = copy_project(tmp_path / "project")
    build(root, tmp_path / "warm")
    assert (root / ".dossier-cache").is_dir()
    override = "<!DOCTYPE html>\n<title>Lost</title>\n<p>Nothing here.</p>\n"
    edits = [
        ("content/people/jorge-torres.md", "Torres was a sergeant", "Torres was a National Guard sergeant"),
        (package_theme / "404.html", "<h1>", '<h1 class="lost">'),  # the package's template
        (package_theme / "static/style.css", "}", "}\n.lost { color: black }"),
        (root / "templates/404.html", None, override),  # a project's template overrides the package's
        (root / "templates/static/style.css", None, "body { margin: 0 }\n"),
        (root / "templates/static/style.css", "margin: 0", "margin: 1px"),
        (root / "templates/404.html", override, None),  # and gone, the package's is used again
    ]
    for number, (path, old, new) in enumerate(edits):
        if old is None or new is None:
            write_or_remove(Path(root / path), new)
        else:
            edit(root, path, old, new)
        build(root, tmp_path / "warm")
        build(root, tmp_path / f"cold{number}", use_cache=False)
        assert tree(tmp_path / "warm") == tree(tmp_path / f"cold{number}"), path


def write_or_remove(file: Path, text: str | None) -> None:
    if text is None:
        file.unlink()
    else:
        file.parent.mkdir(parents=True, exist_ok=True)
        file.write_text(text, encoding="utf-8")


def test_a_build_with_nothing_to_do_leaves_the_site_alone(make_site):
    root = make_site()
    build(root, root / "site")
    before = {p: p.stat().st_mtime_ns for p in (root / "site").rglob("*")}
    report = build(root, root / "site")
    assert {p: p.stat().st_mtime_ns for p in (root / "site").rglob("*")} == before
    assert report.files == len([p for p in before if p.is_file() and "pagefind" not in p.parts]) - 1  # less the marker


def test_a_warm_build_reads_only_the_inputs_the_file_system_says_changed(make_site, monkeypatch):
    root = make_site()
    build(root, root / "site")
    read = []
    digest = inputs.file_digest
    monkeypatch.setattr(inputs, "file_digest", lambda path: read.append(Path(path).relative_to(root).as_posix()) or digest(path))
    build(root, root / "site")
    written = sorted(p.relative_to(root).as_posix() for folder in ("content", "seeds") for p in (root / folder).rglob("*") if p.is_file())
    assert sorted(read) == written  # written seconds ago, each may yet change within one tick of the clock: all are read
    monkeypatch.setattr(inputs, "RACY_NS", 0)  # as if the last build had scanned them long after they changed
    read.clear()
    build(root, root / "site")
    assert read == []  # nor the package's theme, unchanged for longer
    edit(root, "content/people/jorge-torres.md", "Torres drove a truck.", "Torres drove a tiny truck")  # the same size
    build(root, root / "site")
    assert set(read) == {"content/people/jorge-torres.md"}
    assert "drove a tiny truck" in (root / "site/people/jorge-torres/index.html").read_text(encoding="utf-8")
    monkeypatch.setattr(inputs, "RACY_NS", -10**15)  # a clock gone wrong: every time seems long past, yet the stat differs
    read.clear()
    edit(root, "content/people/jorge-torres.md", "Torres drove a tiny truck", "Torres drove a grey truck")
    build(root, root / "site")
    assert set(read) == {"content/people/jorge-torres.md"}
    assert "drove a grey truck" in (root / "site/people/jorge-torres/index.html").read_text(encoding="utf-8")


def test_unchanged_files_are_carried_over_not_written_again(make_site):
    root = make_site()
    build(root, root / "site")
    inode = {p: (root / "site" / p).stat().st_ino for p in ["people/jorge-torres/index.html", "events/aid-convoy/index.html", "static/style.css"]}
    edit(root, "content/people/jorge-torres.md", "Torres drove a truck.", "Torres drove a small truck.")
    build(root, root / "site")
    assert (root / "site/people/jorge-torres/index.html").stat().st_ino != inode["people/jorge-torres/index.html"]
    assert "a small truck" in (root / "site/people/jorge-torres/index.html").read_text(encoding="utf-8")
    for path in ["events/aid-convoy/index.html", "static/style.css"]:
        assert (root / "site" / path).stat().st_ino == inode[path], path


def test_a_template_edit_reuses_every_rendered_body(make_site, monkeypatch):
    root = make_site({"templates/404.html": (Path(__file__).parent.parent / "dossier/templates/404.html").read_text(encoding="utf-8")})
    build(root, root / "site", workers=1)
    rendered = []
    original = markup.BodyRenderer.render
    monkeypatch.setattr(markup.BodyRenderer, "render", lambda self, body, resolver: rendered.append(body) or original(self, body, resolver))
    edit(root, "templates/404.html", "<h1>", '<h1 class="lost">')
    build(root, root / "site", workers=1)
    assert [body for body in rendered if body] == []  # every page was rendered again, every body came from the cache
    edit(root, "content/places/cucuta.md", "A city.", "A border city.")
    build(root, root / "site", workers=1)
    assert [unmarked(body) for body in rendered if body] == ['A border city.[@ap "across the bridge"]\n']


def unmarked(body: str) -> str:
    """Return a body as written, without the marks of its claims (claims.mark_claims)."""
    return re.sub("[\ue001\ue003][0-9]+[\ue002\ue004]", "", body)


def test_the_cache_is_safe_to_delete_or_damage(make_site):
    root = make_site()
    build(root, root / "site")
    expected = tree(root / "site")
    for damage in ("delete", "garble"):
        for file in (root / ".dossier-cache").iterdir():
            if damage == "delete":
                file.unlink()
            else:
                file.write_bytes(os.urandom(64))
        edit(root, "content/places/cucuta.md", "A city.", "A city!")
        edit(root, "content/places/cucuta.md", "A city!", "A city.")
        build(root, root / "site")
        assert tree(root / "site") == expected, damage


def test_a_build_restored_from_an_archive_builds_warm_as_a_deploy_does(make_site, tmp_path):
    """The Pages workflow keeps .dossier-cache/ and site/ between runs in an archive (actions/cache
    uses tar): restored, they must still make the next build warm, rendering only what an edit changed."""
    import tarfile

    root = make_site()
    build(root, root / "site")
    with tarfile.open(tmp_path / "cache.tar", "w", format=tarfile.GNU_FORMAT) as archive:  # whole seconds, as GNU tar keeps them
        for name in (".dossier-cache", "site"):
            archive.add(root / name, arcname=name)
    shutil.rmtree(root / ".dossier-cache")
    shutil.rmtree(root / "site")
    with tarfile.open(tmp_path / "cache.tar") as archive:
        archive.extractall(root, filter="tar")
    edit(root, "content/people/jorge-torres.md", "Torres drove a truck.", "Torres drove a small truck.")
    report = build(root, root / "site")
    assert report.rendered == 2  # the edited person's page and the claims page listing the sentence, not every page
    assert "a small truck" in (root / "site/people/jorge-torres/index.html").read_text(encoding="utf-8")


def package_code(folder: Path) -> Path:
    """Copy dossier's modules (its code alone, at every depth) into folder/dossier; return the copy."""
    copy = folder / "dossier"
    shutil.copytree(PROJECT / "dossier", copy, ignore=shutil.ignore_patterns("__pycache__", "templates", "example", "locale"))
    return copy


def test_a_change_to_any_module_of_the_package_at_any_depth_changes_the_code_key(tmp_path, monkeypatch):
    package = package_code(tmp_path)
    monkeypatch.setattr(cache, "PACKAGE", package)
    (package / "stage").mkdir(exist_ok=True)
    (package / "stage/extra.py").write_text('"""A module of a subpackage."""\n', encoding="utf-8")
    before = cache.code_version()
    modules = sorted(path.relative_to(package).as_posix() for path in package.rglob("*.py"))
    assert "stage/extra.py" in modules
    for name in modules:
        module = package / name
        text = module.read_text(encoding="utf-8")
        module.write_text(text + "\n# edited\n", encoding="utf-8")
        build_code = not name.startswith(cache.NOT_BUILD_CODE)
        assert (cache.code_version() != before) == build_code, name
        module.write_text(text, encoding="utf-8")
    assert cache.code_version() == before
    (package / "stage/later.py").write_text("", encoding="utf-8")  # a module added
    assert cache.code_version() != before


def test_a_change_to_the_code_that_places_the_claim_anchors_leaves_no_body_cached(tmp_path, monkeypatch):
    """The claim anchors go into every body where its sentences end (claims.mark_claims reads the
    sentences as sentences.py splits them): a body rendered by other code is never taken."""
    package = package_code(tmp_path)
    monkeypatch.setattr(cache, "PACKAGE", package)
    body = 'Torres drove a truck.[@ap "drove a truck"] He left.\n'

    def cached() -> object:
        bodies = cache.BodyCache(tmp_path / "bodies.sqlite")
        found = bodies.get(bodies.key("people/jorge-torres/", body, False, []))
        bodies.put(bodies.key("people/jorge-torres/", body, False, []), "<p>Torres drove a truck.</p>")
        bodies.close()
        return found

    assert cached() is None
    assert cached() == "<p>Torres drove a truck.</p>"  # the same code: taken from the cache
    sentences = next(package.rglob("sentences.py"))
    sentences.write_text(sentences.read_text(encoding="utf-8") + "\n# a sentence ends elsewhere now\n", encoding="utf-8")
    assert cached() is None


def test_bodies_are_written_as_they_pile_up_and_a_cache_far_larger_than_the_site_is_emptied_before_a_render(tmp_path, monkeypatch):
    import sqlite3

    monkeypatch.setattr(cache, "HELD_BYTES", 2000)
    bodies = cache.BodyCache(tmp_path / "bodies.sqlite")

    def written() -> int:
        with sqlite3.connect(tmp_path / "bodies.sqlite") as reader:
            return reader.execute("SELECT count(*) FROM bodies").fetchone()[0]

    for number in range(20):
        bodies.put(bytes([number]) * 20, os.urandom(300).hex())  # 600 bytes that do not compress
    assert 15 <= written() < 20 and bodies.held <= 2000  # written each time more than 2,000 bytes waited, not all at the end
    bodies.flush()
    assert written() == 20 and bodies.new == {} and bodies.get(bytes([3]) * 20) is not None
    bodies.trim(5)  # 20 bodies: not more than four times five pages
    assert written() == 20
    bodies.trim(4)
    assert written() == 0
    bodies.close()


def test_a_build_empties_a_body_cache_far_larger_than_its_site_before_it_renders_and_keeps_its_own(make_site, tmp_path):
    import sqlite3

    root = make_site()
    stale = cache.BodyCache(root / cache.FOLDER / "bodies.sqlite")
    for number in range(2000):  # far more than four bodies a page of this small site
        stale.put(number.to_bytes(4, "big"), "<p>an old body</p>")
    stale.close()
    build(root, tmp_path / "out")
    with sqlite3.connect(root / cache.FOLDER / "bodies.sqlite") as reader:
        kept = reader.execute("SELECT count(*) FROM bodies").fetchone()[0]
    assert 0 < kept < 100  # the site's own bodies, none of the old ones


def test_a_site_saved_and_restored_has_the_same_passages_in_the_same_order_and_citations(make_site):
    import pickle

    from dossier.pipeline import load

    site, _ = load(make_site({"content/people/ana.md": "---\nname: Ana\nsummary: S.\n---\nShe drove.[@ap \"drove an armoured truck across the bridge\"] "
                                                       "Again.[@ap \"across the bridge\"]\n"}))
    restored = pickle.loads(pickle.dumps(site, protocol=pickle.HIGHEST_PROTOCOL))
    assert len(site.passages["ap"]) > 1
    assert [(source, list(found.items())) for source, found in restored.passages.items()] == [(s, list(f.items())) for s, f in site.passages.items()]
    assert restored.records == site.records and restored.citations == site.citations


def test_claims_saved_and_restored_are_the_same_claims_by_level_in_each_language(tmp_path):
    import pickle

    from dossier.incremental.session import Session
    from dossier.render.claims import Claim

    root = copy_project(tmp_path)  # the documentary: two languages, claims at every level
    (root / "content/people/alexander-badillo.es.md").unlink()  # his Spanish page shows his English body and claims
    session = Session(root)
    session.load()
    session.render()
    indexes = session.output.claim_indexes
    english, spanish = indexes["en"], indexes["es"]
    first = next(key for key, (_, claims, _) in english.records.items() if claims)
    record, claims, names = english.records[first]
    english.records[first] = (record, [claims[0]._replace(page_url="elsewhere"), *claims[1:]], names)  # cannot be made again from its record: kept whole
    english.found = None  # not gathered yet
    spanish.found = {level: claims[1:] for level, claims in spanish.found.items()}  # not the records' claims gathered: kept whole
    restored = pickle.loads(pickle.dumps(indexes, protocol=pickle.HIGHEST_PROTOCOL))
    assert len({level for index in indexes.values() for level in index.found or {}}) > 2
    for lang, index in indexes.items():
        again = restored[lang]
        assert list(again.records) == list(index.records) and again.records == index.records, lang
        assert all(type(claim) is Claim and claim.url == kept.url for key, (_, claims, _) in again.records.items()
                   for claim, kept in zip(claims, index.records[key][1])), lang  # made again as claims, not bare tuples
        assert again.found == index.found and again.version == index.version and again.derived_from == index.derived_from, lang
    assert restored["en"].records[first][1][0].url == "elsewhere#claim-1" and restored["en"].found is None
    assert any(claim.lang == "en" for claims in restored["es"].found.values() for claim in claims)


class SlowToKeep:
    """Stands in the session for a part that takes a while to pickle."""

    def __reduce__(self) -> tuple:
        import time

        time.sleep(1.0)
        return (SlowToKeep, ())


def test_a_build_from_the_command_line_keeps_its_state_after_returning_and_the_next_build_waits_for_it(make_site, monkeypatch):
    """The command line's build returns once the site is published; a process of its own keeps the
    state, holding its lock until it is written, and whoever reads the state next waits for it."""
    import fcntl
    import time

    from dossier.incremental.lastbuild import close_session, open_session

    monkeypatch.delenv("CI", raising=False)
    root = make_site()
    build(root, root / "site")
    session, _ = open_session(root, root / "site")
    session.output.slow = SlowToKeep()  # type: ignore[attr-defined]
    aside = root / f".site.old-{os.getpid()}"  # the site a build replaced, moved aside: the forked process deletes it
    (aside / "people/ana").mkdir(parents=True)
    (aside / "people/ana/index.html").write_text("old", encoding="utf-8")
    started = time.perf_counter()
    assert close_session(session, root / "site", background=True, aside=aside)
    assert time.perf_counter() - started < 0.5  # returned before the state was kept
    held = os.open(root / ".dossier-cache/state.lock", os.O_RDWR)
    try:
        try:
            fcntl.flock(held, fcntl.LOCK_EX | fcntl.LOCK_NB)
            raise AssertionError("the state's lock is free while the state is being kept")
        except BlockingIOError:
            pass
    finally:
        os.close(held)
    report = build(root, root / "site")  # waits for the keeping process, then finds the state it kept
    assert time.perf_counter() - started >= 1.0
    assert report.rendered == 0 and report.phases == {}  # nothing to do: the summary says so
    kept = lastbuild.restore(next((root / ".dossier-cache").glob("session-*.pickle")))
    summary = cache.load(next((root / ".dossier-cache").glob("summary-*.pickle")))
    assert isinstance(kept.output.slow, SlowToKeep) and kept.output.published == summary.published  # type: ignore[attr-defined]
    assert set(summary.published[1]) == set(session.output.written)
    while list(root.glob(".site.old-*")) and time.perf_counter() - started < 10:
        time.sleep(0.05)
    assert not list(root.glob(".site.old-*")) and (root / "site/index.html").is_file()


class NotesWhenKept:
    """Stands in the session for a part that writes, when pickled, the time it was."""

    def __init__(self, path: Path):
        self.path = path

    def __reduce__(self) -> tuple:
        import time

        self.path.write_text(str(time.monotonic()), encoding="utf-8")
        return (NotesWhenKept, (self.path,))


def test_the_process_that_keeps_the_state_begins_once_the_build_has_exited_or_after_a_while(make_site, monkeypatch):
    """Pickling the state reads every object, which copies each memory page the keeping process
    still shares with the build's: it waits for the build's process to exit (at most BUILD_EXIT_WAIT)."""
    import fcntl
    import time

    from dossier.incremental import lastbuild

    monkeypatch.delenv("CI", raising=False)
    monkeypatch.setattr(lastbuild, "BUILD_EXIT_WAIT", 0.5)
    root = make_site()
    build(root, root / "site")
    for lingers in (0.2, 1.5):  # a build's process that exits soon after returning, and one that goes on
        session, _ = lastbuild.open_session(root, root / "site")
        session.output.kept_at = NotesWhenKept(root / "kept-at")  # type: ignore[attr-defined]
        (root / "kept-at").unlink(missing_ok=True)
        pid = os.fork()
        if pid == 0:  # the build's process
            try:
                forked = time.monotonic()
                lastbuild.close_session(session, root / "site", background=True)
                time.sleep(lingers)
                (root / "exited-at").write_text(f"{forked} {time.monotonic()}", encoding="utf-8")
            finally:
                os._exit(0)
        os.waitpid(pid, 0)
        held = os.open(root / ".dossier-cache/state.lock", os.O_RDWR)
        try:
            fcntl.flock(held, fcntl.LOCK_EX)  # the state kept
        finally:
            os.close(held)
        forked, exited = map(float, (root / "exited-at").read_text(encoding="utf-8").split())
        kept = float((root / "kept-at").read_text(encoding="utf-8"))
        if lingers < lastbuild.BUILD_EXIT_WAIT:
            assert kept >= exited, lingers  # not before the build's process was gone
        else:
            assert forked + lastbuild.BUILD_EXIT_WAIT <= kept < exited, lingers  # nor later than the wait


def test_the_build_holds_the_session_a_forked_process_keeps_until_it_exits(make_site, monkeypatch):
    """Freed when the build returns, the session's objects would be written to one by one while the
    keeping process shares their memory, which would copy it: the build holds the last one."""
    import fcntl
    import weakref

    from dossier.incremental import lastbuild

    monkeypatch.delenv("CI", raising=False)
    monkeypatch.setattr(lastbuild, "BUILD_EXIT_WAIT", 0.0)
    root = make_site()
    build(root, root / "site")
    held: list[weakref.ref] = []
    for _ in range(2):
        session, _ = lastbuild.open_session(root, root / "site")
        held.append(weakref.ref(session))
        assert lastbuild.close_session(session, root / "site", background=True)
        del session
        lock = os.open(root / ".dossier-cache/state.lock", os.O_RDWR)
        fcntl.flock(lock, fcntl.LOCK_EX)  # kept
        os.close(lock)
    gc.collect()
    assert held[0]() is None and held[1]() is not None  # the last one only


def test_a_build_under_ci_keeps_its_state_before_returning(make_site, monkeypatch):
    """A CI job may save the cache folder as soon as the build ends: there the state is kept first."""
    import time

    from dossier.incremental.lastbuild import close_session, open_session

    monkeypatch.setenv("CI", "true")
    root = make_site()
    build(root, root / "site")
    session, _ = open_session(root, root / "site")
    session.output.slow = SlowToKeep()  # type: ignore[attr-defined]
    started = time.perf_counter()
    assert not close_session(session, root / "site", background=True)
    assert time.perf_counter() - started >= 1.0
    assert isinstance(lastbuild.restore(next((root / ".dossier-cache").glob("session-*.pickle"))).output.slow, SlowToKeep)


def test_the_program_keeps_its_state_for_the_next_build(make_site):
    """`build.py build` keeps its state in a process of its own (CI unset): the next build finds it."""
    import subprocess
    import sys

    root = make_site()
    environment = {name: value for name, value in os.environ.items() if name != "CI"}
    done = subprocess.run([sys.executable, str(PROJECT / "build.py"), "build", "--source", str(root)], capture_output=True, text=True, env=environment)
    assert done.returncode == 0, done.stderr
    report = build(root, root / "site")
    assert report.rendered == 0 and report.phases == {}


def test_a_build_keeps_its_session_out_of_the_collectors_walks_until_it_ends(make_site):
    """Restored or loaded, a session lives to the build's end: the collector does not walk its
    objects again and again (gc.freeze), and the build lets them go when it ends."""
    import gc

    from dossier.incremental.lastbuild import open_session

    root = make_site()
    build(root, root / "site")
    assert gc.get_freeze_count() == 0  # the build let go of what it froze
    for use_cache in (True, False):  # restored, then loaded afresh
        session, _ = open_session(root, root / "site", use_cache=use_cache)
        walked = {id(found) for found in gc.get_objects()}
        assert session.site is not None and gc.get_freeze_count() > 0
        assert id(session.site.records["people"]["jorge-torres"]) not in walked and id(session.site.passages) not in walked, use_cache
        gc.unfreeze()


def test_the_next_build_process_takes_the_templates_a_build_compiled(make_site, monkeypatch):
    """A build keeps the templates it compiled with its state: the next build's process compiles
    none of them again, but a template whose source changed (Jinja checks each against its source)."""
    import jinja2

    from dossier.render.environment import COMPILED

    root = make_site({"templates/404.html": (Path(__file__).parent.parent / "dossier/templates/404.html").read_text(encoding="utf-8")})
    monkeypatch.setattr(COMPILED, "compiled", {})  # as in a new process
    build(root, root / "site", workers=1)
    compiled: list[str] = []
    original = jinja2.Environment.compile

    def counted(self, source, name=None, *rest, **options):
        compiled.append(name)
        return original(self, source, name, *rest, **options)

    monkeypatch.setattr(jinja2.Environment, "compile", counted)
    for path, old, new in [("templates/404.html", "<h1>", '<h1 class="lost">'), ("content/places/cucuta.md", "A city.", "A border city.")]:
        edit(root, path, old, new)
        COMPILED.compiled = {}  # the next build's process
        build(root, root / "site", workers=1)
        assert compiled == (["404.html"] if path.startswith("templates") else []), path
        compiled.clear()
    assert '<h1 class="lost">' in (root / "site/404.html").read_text(encoding="utf-8")
    assert "A border city." in (root / "site/places/cucuta/index.html").read_text(encoding="utf-8")
