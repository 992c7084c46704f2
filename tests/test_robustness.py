"""Every bad input caught: each broken case leaves a built site untouched, problems come all at
once on single lines with no traceback, links out of the project are refused, builds are
byte-for-byte deterministic."""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import PROJECT, copy_project, write_site
from test_cli import ERROR_CASES

from dossier.cli import main
from dossier.pipeline import build
from dossier.publish.staging import walk_files
from dossier.read.documents import load_yaml

PROBLEM_LINE = re.compile(r"^[^\s:][^:]*(:\d+(:\d+)?)?: (error|warning): \S.*$")


def snapshot(folder: Path) -> dict[str, bytes]:
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


@contextlib.contextmanager
def time_limit(seconds: float):
    """Fail, instead of hanging, when the block takes longer than this."""
    def expire(signum, frame):
        raise TimeoutError(f"took more than {seconds} s")

    previous = signal.signal(signal.SIGALRM, expire)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


@pytest.fixture(scope="module")
def built_base(tmp_path_factory) -> Path:
    """A good build of the base test site, copied into each case (building costs half a second)."""
    root = write_site(tmp_path_factory.mktemp("base"), {})
    build(root, root / "site")
    return root / "site"


@pytest.mark.parametrize("case", sorted(ERROR_CASES))
def test_each_bad_input_leaves_the_previous_site_untouched(make_site, capsys, built_base, case):
    files, expected = ERROR_CASES[case]
    root = make_site()
    shutil.copytree(built_base, root / "site")
    before = snapshot(root / "site")
    write_site(root, files, base=False)
    with time_limit(20):  # "billion laughs" and friends would hang here, not fail, without their checks
        code = main(["build", "--source", str(root)])
    err = capsys.readouterr().err
    assert code == 1 and [line for line in err.splitlines() if ": error: " in line] == expected
    assert snapshot(root / "site") == before
    assert sorted(p.name for p in root.glob(".site.*")) == []


MANY_PROBLEMS = {
    "content/people/jorge-torres.md": "---\nname: Jorge Torres\nsumary: A sergeant.\nplaces: [cucta]\n---\nSee [[nobody]].[@ap \"not in the text\"]\n",
    "content/events/aid-convoy.md": "---\ntitle: Aid convoy\ndate: 2019-02-30\nsummary: S.\n---\n",
    "content/places/cucuta.md": "---\nname: Cúcuta\nsummary: [unclosed\n---\n",
    "content/groups/guard.md": "---\nname: G\nsummary: S.\naliases: &a [*a]\n---\n",
    "content/sources/ap-copy.yaml": "title: Copy\noutlet: X\nlanguage: en\nseed: missing.txt\nderived_from: ap-copy\n",
    "content/sources/ap.yml": "title: Twin\noutlet: X\nlanguage: en\nseed: ap.txt\n",
    "content/pages/about.md": b"---\ntitle: About \xff\n---\n",
    "seeds/broken.txt": b"\xfe\xff\x00b\x00r\x00o\x00k\x00e\x00n",
}
MANY_EXPECTED = [
    "content/events/aid-convoy.md:3: error: 'date': '2019-02-30' is not a real day: February 2019 has 28 days",
    "content/groups/guard.md:4: error: YAML aliases (*name) are not supported; write the value out in full",
    "content/pages/about.md:2: error: not UTF-8 text (byte 0xff at offset 17); save the file as UTF-8",
    "content/people/jorge-torres.md:1: error: a person needs 'summary' (one plain sentence)",
    "content/people/jorge-torres.md:3: error: unknown field 'sumary' in a person (did you mean 'summary'?)",
    "content/people/jorge-torres.md:4: error: unknown place 'cucta' in 'places'",
    "content/people/jorge-torres.md:6:5: error: unknown link '[[nobody]]'",
    "content/people/jorge-torres.md:6:16: error: quote not found in source 'ap' (seeds/ap.txt): \"not in the text\"; no similar passage",
    "content/places/cucuta.md:3:10: error: invalid YAML: this '[' is never closed with ']'",
    "content/sources/ap-copy.yaml:4: error: seed file 'seeds/missing.txt' does not exist",
    "content/sources/ap-copy.yaml:5: error: derived_from forms a cycle: ap-copy → ap-copy",
    "content/sources/ap.yml:1: error: id 'ap' is already used by content/sources/ap.yaml",
    "seeds/broken.txt:1: error: not UTF-8 text (byte 0xfe at offset 0); save the file as UTF-8",
]


def test_every_problem_of_every_file_comes_in_one_run_sorted_one_per_line(make_site, capsys):
    root = make_site(MANY_PROBLEMS)
    assert main(["build", "--source", str(root)]) == 1
    lines = capsys.readouterr().err.splitlines()
    assert [line for line in lines if ": error: " in line] == MANY_EXPECTED
    assert lines[-1].startswith(f"{len(MANY_EXPECTED)} errors, ")
    assert all(PROBLEM_LINE.match(line) for line in lines[:-1]), lines


def test_the_command_line_reports_without_a_traceback(make_site):
    root = make_site({**MANY_PROBLEMS, "content/places/cucuta.md": "---\nname: C\x1b[2J\nsummary: [a\n---\n"})
    result = subprocess.run([sys.executable, str(PROJECT / "build.py"), "build", "--source", str(root)], capture_output=True, text=True)
    assert result.returncode == 1 and result.stdout == ""
    assert "Traceback" not in result.stderr and "\x1b" not in result.stderr
    lines = result.stderr.splitlines()
    assert all(PROBLEM_LINE.match(line) for line in lines[:-1]) and re.fullmatch(r"\d+ errors, \d+ warnings?", lines[-1])
    assert not (root / "site").exists()


@pytest.mark.parametrize("where", ["content/people/leak.md", "seeds/ap.txt", "content/sources/ap.yaml"])
def test_a_link_to_a_file_outside_the_project_is_refused(make_site, capsys, tmp_path, where):
    secret = tmp_path / "secret.txt"
    secret.write_text("---\nname: Secret\nsummary: key material\n---\nSgt. Jorge Torres drove an armoured truck across the bridge.\n", encoding="utf-8")
    root = make_site({where: None})
    (root / where).parent.mkdir(parents=True, exist_ok=True)
    (root / where).symlink_to(secret)
    assert main(["build", "--source", str(root)]) == 1
    errors = [line for line in capsys.readouterr().err.splitlines() if ": error: " in line]
    assert errors == [f"{where}: error: links to {secret}, outside the project; copy the file in instead"]
    assert not (root / "site").exists()


def test_links_inside_the_project_are_followed(make_site, capsys):
    root = make_site()
    (root / "archive").mkdir()
    shutil.move(root / "seeds/ap.txt", root / "archive/ap.txt")
    (root / "seeds/ap.txt").symlink_to(root / "archive/ap.txt")
    assert main(["build", "--source", str(root)]) == 0, capsys.readouterr().err


def test_yaml_1_1_number_traps_stay_text():
    value, _, problems = load_yaml("a: 0x_\nb: 12:30\nc: 0755\nd: 0b_\ne: 190:20:30.15\nf: 27\ng: -2.5\n", "x.yaml")
    assert problems == [] and value == {"a": "0x_", "b": "12:30", "c": "0755", "d": "0b_", "e": "190:20:30.15", "f": 27, "g": -2.5}


def test_byte_order_marks_and_windows_line_endings_build_everywhere(make_site, capsys):
    root = make_site({
        "content/sources/ap.yaml": "\ufefftitle: AP story\r\noutlet: The Associated Press\r\nlanguage: en\r\nseed: ap.txt\r\n".encode("utf-8"),
        "seeds/ap.txt": "\ufeffSgt. Jorge Torres drove an armoured truck\r\nacross the bridge.\r\n“We’re going to change history,” Torres said.\r\n".encode("utf-8"),
        "content/site.yaml": "\ufefftitle: Test dossier\r\nlanguage: en\r\n".encode("utf-8"),
    })
    assert main(["check", "--source", str(root)]) == 0, capsys.readouterr().err


def test_the_real_project_builds_byte_for_byte_the_same_twice(tmp_path):
    """Two builds in fresh processes, with different hash seeds and output folders, match exactly."""
    builds = []
    for seed in ("1", "2"):
        out = tmp_path / f"site-{seed}"
        env = {**os.environ, "PYTHONHASHSEED": seed}
        builds.append((out, subprocess.Popen([sys.executable, str(PROJECT / "build.py"), "build", "--source", str(PROJECT), "--out", str(out)],
                                             env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)))
    for _out, process in builds:
        assert process.wait() == 0, process.stderr.read()
    first, second = (snapshot(out) for out, _ in builds)
    assert len(first) > 100
    assert sorted(first) == sorted(second)
    assert [path for path in first if first[path] != second[path]] == []


def rendering_worker_that(monkeypatch, fate) -> None:
    """Make every forked rendering worker meet fate (a function of no arguments) instead of rendering."""
    import dossier.incremental.pool as session

    parent, real = os.getpid(), session.render_claimed

    def render_claimed(*args):
        if os.getpid() != parent:
            fate()
        return real(*args)

    monkeypatch.setattr(session, "render_claimed", render_claimed)


def test_a_rendering_worker_that_dies_stops_the_build_with_a_clear_error(tmp_path, monkeypatch, capsys):
    root = copy_project(tmp_path / "project")
    build(root, root / "site", use_cache=False, workers=1)
    before = {path: (root / "site" / path).read_bytes() for path in walk_files(root / "site")}
    rendering_worker_that(monkeypatch, lambda: os.kill(os.getpid(), signal.SIGKILL))  # as the system does when memory runs out

    def waited_for_ever(*_):
        raise TimeoutError("the build still waits for its dead worker")

    previous_handler = signal.signal(signal.SIGALRM, waited_for_ever)
    signal.alarm(120)
    try:
        assert main(["build", "--source", str(root), "--jobs", "2"]) == 3
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous_handler)
    assert capsys.readouterr().err == "dossier: failed: a process of the build was killed by signal 9 (out of memory?); try again with fewer processes (build --jobs 1)\n"
    assert {path: (root / "site" / path).read_bytes() for path in walk_files(root / "site")} == before


def test_a_rendering_worker_whose_build_was_killed_ends_and_lets_the_next_build_in(tmp_path):
    """A build killed while its worker renders (as the system kills one when memory runs out) leaves
    nothing behind that holds the output's lock: the worker's outcome has no one to go to, and it ends
    (it waited for ever to send it, holding the lock, and every later build waited for it)."""
    import fcntl
    import time

    import dossier.incremental.pool as pool

    root = copy_project(tmp_path / "project")
    worker = tmp_path / "worker.pid"
    build_pid = os.fork()
    if build_pid == 0:  # the build, in a process of its own
        try:
            me, real = os.getpid(), pool.render_chunks

            def render_chunks(*args):
                if os.getpid() == me:
                    os.kill(me, signal.SIGKILL)  # once its worker renders
                worker.write_text(str(os.getpid()), encoding="utf-8")
                return real(*args)

            pool.render_chunks = render_chunks
            main(["build", "--source", str(root), "--jobs", "2"])
        finally:
            os._exit(1)
    _, status = os.waitpid(build_pid, 0)
    assert os.WIFSIGNALED(status) and os.WTERMSIG(status) == signal.SIGKILL
    deadline = time.monotonic() + 60
    try:
        with open(root / ".site.lock", "a") as lock:  # as the next build takes it
            while True:
                try:
                    fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
                    break
                except BlockingIOError:
                    assert time.monotonic() < deadline, "the killed build's worker still holds the output's lock"
                    time.sleep(0.1)
    except AssertionError:
        with contextlib.suppress(OSError, ValueError):
            os.kill(int(worker.read_text(encoding="utf-8")), signal.SIGKILL)  # the orphan holds this run's output open
        raise
    assert main(["build", "--source", str(root), "--jobs", "2"]) == 0


def test_what_a_rendering_worker_raises_is_raised_by_the_build(tmp_path, monkeypatch):
    root = copy_project(tmp_path / "project")

    def fail() -> None:
        raise LookupError("no such template")

    rendering_worker_that(monkeypatch, fail)
    with pytest.raises(LookupError, match="no such template"):
        build(root, root / "site", use_cache=False, workers=2)
    assert not (root / "site").exists()
