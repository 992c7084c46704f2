"""Installing and starting dossier as the README says: build.py finds the project's .venv, the
Makefile passes the preview's address, the package metadata installs without warnings."""

from __future__ import annotations

import os
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from conftest import PROJECT, write_site

BARE_PYTHON = getattr(sys, "_base_executable", sys.executable)  # this interpreter without the venv's packages


def bare_python_or_skip() -> str:
    found = subprocess.run([BARE_PYTHON, "-I", "-c", "import markdown"], capture_output=True)
    if found.returncode == 0:
        pytest.skip(f"{BARE_PYTHON} has markdown installed: cannot test a python without the dependencies")
    return BARE_PYTHON


def launcher(folder: Path, venv: bool) -> Path:
    """Lay out a project folder with build.py and the dossier package, and .venv if asked."""
    folder.mkdir()
    (folder / "build.py").write_bytes((PROJECT / "build.py").read_bytes())
    (folder / "dossier").symlink_to(PROJECT / "dossier")
    if venv:
        (folder / ".venv").symlink_to(Path(sys.prefix))
    write_site(folder, {})
    return folder


def run_bare(folder: Path, *args: str) -> subprocess.CompletedProcess:
    environment = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV", "PYTHONHOME")}
    return subprocess.run([bare_python_or_skip(), "build.py", *args], cwd=folder, env=environment, capture_output=True, text=True, timeout=120)


@pytest.mark.skipif(sys.prefix == sys.base_prefix, reason="the tests do not run in a virtual environment")
def test_build_py_runs_itself_again_with_the_projects_venv(tmp_path):
    folder = launcher(tmp_path / "project", venv=True)
    result = run_bare(folder, "check", "--strict")
    assert result.returncode == 0, result.stderr
    assert "check passed" in result.stdout


def test_build_py_without_the_dependencies_says_what_to_run(tmp_path):
    folder = launcher(tmp_path / "project", venv=False)
    result = run_bare(folder, "check", "--strict")
    assert result.returncode == 2
    assert "Traceback" not in result.stderr
    assert result.stderr.count("\n") == 1, result.stderr
    assert "make install" in result.stderr and "python3 -m venv .venv && .venv/bin/pip install -e ." in result.stderr


def test_make_serve_passes_the_port_and_host():
    makefile = (PROJECT / "Makefile").read_text(encoding="utf-8")
    recipe = makefile.split("\nserve:", 1)[1].split("\n\n", 1)[0]
    assert "DOSSIER_VIA_MAKE=1" in recipe and "--port $(PORT)" in recipe and "--host $(HOST)" in recipe
    assert "PORT ?= 8000" in makefile and "HOST ?= 127.0.0.1" in makefile


def test_the_license_is_an_spdx_expression_setuptools_reads_without_a_warning():
    project = tomllib.loads((PROJECT / "pyproject.toml").read_text(encoding="utf-8"))
    assert project["project"]["license"] == "MIT"
    assert "setuptools>=77" in project["build-system"]["requires"]  # the first to read an SPDX license string


def locked() -> dict[str, tuple[str, str]]:
    """Return the lock file's pins: each package's version and marker, by canonical name."""
    from packaging.utils import canonicalize_name

    pins = {}
    for line in (PROJECT / "requirements.lock").read_text(encoding="utf-8").splitlines():
        if line and not line.startswith((" ", "#")):
            requirement, _, marker = line.partition(" ; ")
            name, _, version = requirement.partition("==")
            assert version, f"not pinned exactly: {line}"
            pins[canonicalize_name(name.split("[")[0])] = (version, marker)
    return pins


def test_every_dependency_is_pinned_in_the_lock_within_pyproject_toml():
    from packaging.requirements import Requirement
    from packaging.utils import canonicalize_name

    project = tomllib.loads((PROJECT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    pins = locked()
    for line in project["dependencies"] + project["optional-dependencies"]["test"]:
        requirement = Requirement(line)
        name = canonicalize_name(requirement.name)
        assert name in pins, f"{requirement.name} is not in requirements.lock: run make lock"
        assert requirement.specifier.contains(pins[name][0], prereleases=True), f"{requirement.name}=={pins[name][0]} is outside {requirement.specifier}: run make lock"
    assert pins["markdown"][0] == "3.11.3" and pins["livereload"][0] == "2.7.1"  # pinned on purpose (pyproject.toml says why)


def test_make_installs_from_the_lock_and_make_lock_upgrades_it():
    makefile = (PROJECT / "Makefile").read_text(encoding="utf-8")
    install = makefile.split("\n$(STAMP):", 1)[1].split("\n\n", 1)[0]
    assert "requirements.lock" in install.split("\n")[0]  # a new lock reinstalls
    assert "pip install --quiet -r requirements.lock" in install and "pip install --quiet --no-deps -e ." in install
    lock = makefile.split("\nlock:", 1)[1].split("\n\n", 1)[0]
    assert "compile --upgrade" in lock and "--extra test" in lock and "--output-file requirements.lock pyproject.toml" in lock
