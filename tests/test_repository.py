"""The repository itself: no committed symbolic link leads out of it (one to a path of the machine it
was made on is broken in every other clone), and git ignores what the tools leave in a checkout."""

from __future__ import annotations

import posixpath
import shutil
import subprocess

import pytest

from conftest import PROJECT

LINK = "120000"  # the mode git gives a symbolic link


def git(*args: str, check: bool = True) -> subprocess.CompletedProcess:
    """Run a git command in this checkout; skip when there is none (an unpacked sdist, say)."""
    if shutil.which("git") is None or not (PROJECT / ".git").exists():
        pytest.skip("not a git checkout")
    return subprocess.run(["git", *args], cwd=PROJECT, capture_output=True, text=True, check=check)


@pytest.fixture(scope="module")
def ignored(tmp_path_factory):
    """Tell whether the project's .gitignore covers a path, in an empty repository of its own (where
    no path exists: one without a trailing slash is no folder there, as a link is none)."""
    if shutil.which("git") is None:
        pytest.skip("git is not installed")
    scratch = tmp_path_factory.mktemp("ignores")
    subprocess.run(["git", "init", "--quiet"], cwd=scratch, check=True)
    shutil.copy(PROJECT / ".gitignore", scratch / ".gitignore")
    return lambda path: subprocess.run(["git", "check-ignore", "--quiet", "--no-index", path], cwd=scratch).returncode == 0


def leads_outside(path: str, target: str) -> bool:
    """Tell whether a link at path (relative to the repository's root) pointing to target leads out of it."""
    if posixpath.isabs(target):
        return True
    reached = posixpath.normpath(posixpath.join(posixpath.dirname(path), target))
    return reached == ".." or reached.startswith("../")


def test_a_link_leads_outside_when_absolute_or_when_it_climbs_above_the_root():
    assert leads_outside("node_modules", "/home/someone/dossier/node_modules")
    assert leads_outside("docs/shared", "../../shared")
    assert leads_outside("a", "..")
    assert not leads_outside("docs/readme.md", "../README.md")
    assert not leads_outside("dossier/theme", "templates")
    assert not leads_outside("a/b/c", "../../d/../e")


def test_no_committed_symbolic_link_leads_outside_the_repository():
    outside = []
    for entry in git("ls-files", "--stage", "-z").stdout.split("\0"):
        if not entry.startswith(LINK + " "):
            continue
        meta, path = entry.split("\t", 1)
        target = git("cat-file", "blob", meta.split()[1]).stdout
        if leads_outside(path, target):
            outside.append(f"{path} -> {target}")
    assert outside == []


@pytest.mark.parametrize("path", [
    "node_modules",  # a link to npm's folder elsewhere
    "node_modules/vnu-jar/build/dist/vnu.jar",  # npm's folder itself
    ".venv/bin/python", ".venv", "site/index.html", ".site.staging/index.html", ".dossier-cache/bodies.sqlite",
    "dossier/__pycache__/cli.cpython-311.pyc", "dossier/render/__pycache__/pages.cpython-311.pyc", "dossier.egg-info/PKG-INFO",
    ".pytest_cache/README.md", ".hypothesis/examples/x", ".mypy_cache/3.11/x.json", ".ruff_cache/CACHEDIR.TAG",
    ".coverage", "htmlcov/index.html", "build/lib/dossier/cli.py", "dist/dossier-0.1.0-py3-none-any.whl",
    "schemas/person.schema.json", "benchmarks/out/run.json", "dossier/locale/es/LC_MESSAGES/dossier.mo",
])
def test_git_ignores_what_the_tools_leave(ignored, path):
    assert ignored(path)


@pytest.mark.parametrize("path", ["dossier/incremental/session.py", "dossier/locale/es/LC_MESSAGES/dossier.po", "README.md", "tests/test_repository.py"])
def test_git_ignores_none_of_the_project_s_own_files(ignored, path):
    assert not ignored(path)
