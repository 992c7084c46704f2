"""Nothing lost: the output guard, and builds killed part way (SIGKILL) at every step of publishing."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest
from conftest import PROJECT, tree

from dossier.cli import main
from dossier.publish.staging import MARKER, check_output, publish, recover
from dossier.model.problems import UsageError


def snapshot(folder: Path) -> dict[str, bytes]:
    """Return every file under a folder, by relative path, with its bytes."""
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def leftovers(out: Path) -> list[str]:
    """Return the staging and moved-aside folders beside an output folder."""
    return sorted(p.name for p in out.parent.glob(f".{out.name}.*"))


# ---- the output guard ----------------------------------------------------------------------

@pytest.mark.parametrize("out", ["content", "seeds", "templates", ".", "content/people", "..", "/"])
def test_project_folders_and_their_parents_survive_being_named_as_output(make_site, capsys, out):
    root = make_site({"templates/page.html": "{{ body_html }}"})
    before = snapshot(root)
    target = Path(out) if out == "/" else root / out
    code = main(["build", "--source", str(root), "--out", str(target)])
    err = capsys.readouterr().err
    assert code == 2 and err.startswith(f"dossier: error: refusing to write the site to {target.resolve()}: it would replace ")
    assert snapshot(root) == before


def test_content_survives_out_content_byte_for_byte(make_site, capsys):
    root = make_site()
    before = snapshot(root / "content")
    assert main(["build", "--source", str(root), "--out", str(root / "content")]) == 2
    assert capsys.readouterr().err == f"dossier: error: refusing to write the site to {root / 'content'}: it would replace {root / 'content'}\n"
    assert snapshot(root / "content") == before and not leftovers(root / "content")


def test_a_file_added_to_a_built_site_is_never_deleted(make_site, capsys):
    root = make_site()
    assert main(["build", "--source", str(root)]) == 0
    (root / "site/CNAME").write_text("dossier.example.org\n", encoding="utf-8")
    (root / "site/people/notes.txt").write_text("precious", encoding="utf-8")
    capsys.readouterr()
    assert main(["build", "--source", str(root)]) == 2
    assert capsys.readouterr().err == (
        f"dossier: error: refusing to write the site to {root / 'site'}: it holds files dossier did not make (CNAME, people/notes.txt); move them out first\n"
    )
    assert (root / "site/CNAME").read_text(encoding="utf-8") == "dossier.example.org\n"
    (root / "site/CNAME").unlink()
    (root / "site/people/notes.txt").unlink()
    assert main(["build", "--source", str(root)]) == 0


def test_the_marker_lists_every_file_the_build_wrote(tmp_path):
    publish({"index.html": b"a", "people/x/index.html": b"b"}, tmp_path / "site")
    assert (tmp_path / "site" / MARKER).read_text(encoding="utf-8").splitlines()[1:] == ["index.html", "people/x/index.html"]
    check_output(tmp_path / "site", tmp_path / "project")


def test_an_output_that_is_a_file_is_refused(tmp_path):
    (tmp_path / "site").write_text("not a folder", encoding="utf-8")
    with pytest.raises(UsageError, match="it is a file"):
        check_output(tmp_path / "site", tmp_path / "project")


@pytest.mark.parametrize("path", ["../escape.html", "/etc/passwd", "a/../../b", "", ".dossier-site", "a\\..\\b"])
def test_publishing_never_writes_outside_its_folder(tmp_path, path):
    with pytest.raises(ValueError, match="not a path inside the site folder"):
        publish({path: b"x"}, tmp_path / "out" / "site")
    assert not (tmp_path / "out" / "escape.html").exists() and not (tmp_path / "out" / "site").exists()


def noted_folders(root: Path):
    """Return the times of the site's folders as the last build noted them."""
    from dossier.incremental.lastbuild import kept_summary, known_folders

    known = known_folders(kept_summary(root, (False, None, "out")), root / "site")
    assert known is not None
    return known


def test_files_added_where_the_last_build_noted_its_folders_are_found_without_walking_the_site(make_site, monkeypatch, capsys):
    """The guard lists only the folders whose time changed since the last build noted it."""
    from dossier.publish import folders, staging

    root = make_site()
    assert main(["build", "--source", str(root)]) == 0
    monkeypatch.setattr(folders, "RACY_NS", 0)  # as if the times had been noted long after the build
    assert folders.changed_folders(root / "site", noted_folders(root)) == []
    walked: list[Path] = []
    monkeypatch.setattr(staging, "walk_files", lambda folder, **options: walked.append(folder) or folders.walk_files(folder, **options))
    time.sleep(0.05)  # a tick of the clock that times folders
    (root / "site/CNAME").write_text("dossier.example.org\n", encoding="utf-8")
    (root / "site/people/jorge-torres/notes.txt").write_text("precious", encoding="utf-8")
    (root / "site/people/drafts/old").mkdir(parents=True)
    (root / "site/people/drafts/old/page.html").write_text("mine", encoding="utf-8")
    capsys.readouterr()
    assert main(["build", "--source", str(root)]) == 2
    assert "it holds files dossier did not make (CNAME, people/drafts/old/page.html, people/jorge-torres/notes.txt)" in capsys.readouterr().err
    assert walked == [root / "site/people/drafts"]  # the one folder the last build did not make
    assert sorted(folders.changed_folders(root / "site", noted_folders(root))) == ["", "people", "people/jorge-torres"]


def test_a_file_added_while_the_folder_times_could_not_yet_tell_is_found(make_site, monkeypatch, capsys):
    """A folder changed just before its time was noted may change again within the same tick and
    keep its time (a coarse clock): it is listed anyway."""
    from dossier.publish import folders

    root = make_site()
    assert main(["build", "--source", str(root)]) == 0
    noted = noted_folders(root)[1]["people/jorge-torres"]
    (root / "site/people/jorge-torres/notes.txt").write_text("precious", encoding="utf-8")
    os.utime(root / "site/people/jorge-torres", ns=(noted, noted))  # the folder's time, as if in the same tick
    capsys.readouterr()
    assert main(["build", "--source", str(root)]) == 2
    assert "it holds files dossier did not make (people/jorge-torres/notes.txt)" in capsys.readouterr().err
    monkeypatch.setattr(folders, "RACY_NS", 0)  # what that protects from
    assert folders.changed_folders(root / "site", noted_folders(root)) == [] and main(["build", "--source", str(root)]) == 0


# ---- recovery ------------------------------------------------------------------------------

def dead_pid() -> int:
    """Return the id of a process that has ended (and been reaped)."""
    process = subprocess.Popen([sys.executable, "-c", ""])
    process.wait()
    return process.pid


def test_recovery_puts_a_moved_aside_site_back_and_removes_strays(tmp_path):
    out = tmp_path / "site"
    old = tmp_path / f".site.old-{dead_pid()}"
    old.mkdir()
    (old / "index.html").write_text("previous", encoding="utf-8")
    staging = tmp_path / f".site.staging-{dead_pid()}"
    (staging / "people").mkdir(parents=True)
    recover(out)
    assert (out / "index.html").read_text(encoding="utf-8") == "previous" and leftovers(out) == []


def test_recovery_leaves_a_running_build_alone(tmp_path):
    running = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(30)"])
    try:
        staging = tmp_path / f".site.staging-{running.pid}"
        staging.mkdir()
        stray = tmp_path / f".site.staging-{dead_pid()}"
        stray.mkdir()
        recover(tmp_path / "site")
        assert leftovers(tmp_path / "site") == [staging.name]
    finally:
        running.kill()
        running.wait()


# ---- SIGKILL at every step of publishing ---------------------------------------------------

# Runs publish() in a child process that kills itself with SIGKILL at one step.
KILLER = textwrap.dedent("""
    import os, shutil, signal, sys
    from pathlib import Path
    import dossier.publish.staging as publishing

    out, step = Path(sys.argv[1]), sys.argv[2]
    die = lambda: os.kill(os.getpid(), signal.SIGKILL)
    real_rename, real_remove, real_write = Path.rename, publishing.remove_tree, Path.write_bytes
    written = []

    def write_bytes(self, data):
        written.append(self)
        if step == "writing" and len(written) == 50:
            die()
        return real_write(self, data)

    def rename(self, target):
        result = real_rename(self, target)
        if step == "aside" and ".old-" in Path(target).name:
            die()  # the old site is moved aside, the new one not yet in place: out does not exist
        if step == "swapped" and Path(target) == out:
            die()  # the new site is in place, the old one not yet deleted
        return result

    def remove_tree(path):
        if step == "cleanup" and ".old-" in Path(path).name:
            for index, file in enumerate(sorted(Path(path).rglob("*.html"))):
                if index % 2:
                    file.unlink()
            die()  # half way through deleting the old site
        return real_remove(path)

    Path.write_bytes, Path.rename, publishing.remove_tree = write_bytes, rename, remove_tree
    publishing.publish({f"page-{n:03d}/index.html": b"new" for n in range(200)}, out)
""")


def previous_site(tmp_path: Path) -> Path:
    out = tmp_path / "site"
    publish({f"page-{n:03d}/index.html": b"old" for n in range(100)} | {"index.html": b"old home"}, out)
    return out


@pytest.mark.parametrize("step", ["writing", "aside", "swapped", "cleanup"])
def test_a_publish_killed_at_any_step_is_recovered_by_the_next_build(tmp_path, make_site, capsys, step):
    out = previous_site(tmp_path)
    before = snapshot(out)
    result = subprocess.run([sys.executable, "-c", KILLER, str(out), step], cwd=PROJECT, capture_output=True)
    assert result.returncode == -signal.SIGKILL, result.stderr.decode()
    assert leftovers(out), "the kill left nothing to recover: the step was not reached"
    if step == "aside":
        assert not out.exists()
    # Even a build that fails on its content puts the previous site back first ...
    broken = make_site({"content/places/cucuta.md": "---\nname: C\n---\n"})
    assert main(["build", "--source", str(broken), "--out", str(out)]) == 1
    expected = before if step in ("writing", "aside") else {**{f"page-{n:03d}/index.html": b"new" for n in range(200)}}
    assert {k: v for k, v in snapshot(out).items() if k != MARKER} == {k: v for k, v in expected.items() if k != MARKER}
    assert leftovers(out) == []
    # ... and the next good build replaces it, leaving nothing beside it.
    assert main(["build", "--source", str(make_site()), "--out", str(out)]) == 0
    assert (out / "people/jorge-torres/index.html").is_file() and leftovers(out) == []
    capsys.readouterr()


def big_project(root: Path, people: int) -> Path:
    """Write a project with many cited, cross-linked person pages, big enough to kill mid-build."""
    from conftest import write_site

    files = {}
    for n in range(people):
        files[f"content/people/person-{n:04d}.md"] = (
            f"---\nname: Person {n}\nsummary: Person number {n}.\nplaces: [cucuta]\n---\n"
            + "\n\n".join(f'Paragraph {k} about [[person-{(n + k) % people:04d}]].[@ap "drove an armoured truck across the bridge"]' for k in range(20))
            + "\n"
        )
    return write_site(root, files)


@pytest.mark.parametrize("moment", ["mid-build", "mid-publish"])
def test_a_real_build_killed_with_sigkill_leaves_the_previous_site_and_no_strays(tmp_path, moment):
    root = big_project(tmp_path / "project", 60)
    command = [sys.executable, str(PROJECT / "build.py"), "build", "--source", str(root)]
    buffered = {name: value for name, value in os.environ.items() if name != "PYTHONUNBUFFERED"}
    first = subprocess.run(command, capture_output=True, text=True, env=buffered)
    assert first.returncode == 0, first.stderr
    assert first.stdout.startswith(f"built {root / 'site'}: "), "what the build printed is all there when it exits"
    out = root / "site"
    before = snapshot(out)
    (root / "content/places/cucuta.md").write_text("---\nname: Cúcuta, changed\nsummary: S.\n---\n", encoding="utf-8")
    # A session of its own, so that the kill takes the build's helpers (the search indexer) too.
    build = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    started = time.monotonic()
    try:
        # mid-build: rendering, once its first pages are staged (a fixed delay once fell in the publish
        # of a build faster than it had been); mid-publish: as soon as its staging folder is made.
        staged = ".site.staging-*/people/*/index.html" if moment == "mid-build" else ".site.staging-*"
        while not any(out.parent.glob(staged)) and build.poll() is None and time.monotonic() < started + 60:
            time.sleep(0.001)
        assert build.poll() is None, "the build finished before it could be killed"
        os.killpg(build.pid, signal.SIGKILL)
    finally:
        build.wait()
    assert snapshot(out) == before
    if moment == "mid-publish":
        assert leftovers(out), "killed while staging, so a staging folder is left for the next run to clear"
    again = subprocess.run(command, capture_output=True, text=True)
    assert again.returncode == 0, again.stderr
    assert leftovers(out) == [] and "Cúcuta, changed" in (out / "places/cucuta/index.html").read_text(encoding="utf-8")


def test_a_second_build_into_the_same_folder_waits_for_the_first(make_site):
    import fcntl

    root = make_site()
    assert main(["build", "--source", str(root)]) == 0
    before = (root / "site/index.html").read_bytes()
    (root / "content/places/cucuta.md").write_text("---\nname: Cúcuta, changed\nsummary: S.\n---\nA city.[@ap \"across the bridge\"]\n", encoding="utf-8")
    with open(root / ".site.lock", "a") as held:  # as if another build were publishing to site/ now
        fcntl.flock(held, fcntl.LOCK_EX)
        waiting = subprocess.Popen([sys.executable, str(PROJECT / "build.py"), "build", "--source", str(root)],
                                   stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        assert waiting.stderr is not None
        assert waiting.stderr.readline() == f"dossier: waiting for another build into {(root / 'site').resolve()} to finish\n"
        time.sleep(0.5)
        assert waiting.poll() is None and (root / "site/index.html").read_bytes() == before  # it touched nothing meanwhile
    out, _ = waiting.communicate(timeout=120)
    assert waiting.returncode == 0 and out.startswith(f"built {root / 'site'}")
    assert "Cúcuta, changed" in (root / "site/places/cucuta/index.html").read_text(encoding="utf-8")
    assert not (root / ".site.lock").exists()  # the build that held the lock removed it


# ---- the pages' texts for search, in memory-backed scratch space ------------------------------


def test_a_builds_texts_for_search_go_to_scratch_space_and_are_gone_when_it_ends(make_site, tmp_path, monkeypatch):
    """Where the system has memory-backed scratch space, a build writes each page's text for
    Pagefind there (not in its staging folder) and leaves nothing there or in the site; without
    it, the texts go to the staging folder, and the site is the same."""
    import dossier.publish.staging as staging

    scratch, written = tmp_path / "shm", []
    scratch.mkdir()
    monkeypatch.setattr(staging, "SCRATCH", scratch)
    monkeypatch.setattr(staging, "SCRATCH_ROOM", 0)
    real_write = staging.write_into
    monkeypatch.setattr("dossier.publish.sinks.write_into", lambda folder, files: (written.append(folder), real_write(folder, files))[1])
    root = make_site()
    assert main(["build", "--source", str(root), "--out", str(tmp_path / "in-scratch")]) == 0
    texts = {folder for folder in written if folder.is_relative_to(scratch)}
    assert len(texts) == 1 and next(iter(texts)).name.startswith(staging.SCRATCH_TEXTS)
    assert list(scratch.iterdir()) == [] and not (tmp_path / "in-scratch" / staging.SEARCH_TEXTS).exists()
    monkeypatch.setattr(staging, "SCRATCH", tmp_path / "none")  # no such place: the texts go to the staging folder
    written.clear()
    assert main(["build", "--source", str(root), "--out", str(tmp_path / "staged")]) == 0
    assert any(folder.name == staging.SEARCH_TEXTS and folder.parent.name.startswith(".staged.staging-") for folder in written)
    assert list(scratch.iterdir()) == [] and not (tmp_path / "staged" / staging.SEARCH_TEXTS).exists()
    pages = {path: data for path, data in tree(tmp_path / "staged").items() if not path.startswith(("pagefind/", ".dossier"))}
    assert len(pages) > 20 and pages == {path: data for path, data in tree(tmp_path / "in-scratch").items() if not path.startswith(("pagefind/", ".dossier"))}


def test_recovery_removes_the_texts_for_search_of_a_build_that_no_longer_runs(tmp_path, monkeypatch):
    import dossier.publish.staging as staging

    monkeypatch.setattr(staging, "SCRATCH", tmp_path)
    running = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(30)"])
    try:
        stray = tmp_path / f"{staging.SCRATCH_TEXTS}1a2b3c4d-{dead_pid()}"
        (stray / "people/x").mkdir(parents=True)
        (stray / "people/x/index.html").write_text("text", encoding="utf-8")
        live = tmp_path / f"{staging.SCRATCH_TEXTS}5e6f7a8b-{running.pid}"
        live.mkdir()
        recover(tmp_path / "out" / "site")
        assert not stray.exists() and live.is_dir()
    finally:
        running.kill()
        running.wait()
