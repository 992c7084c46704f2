"""Installing and starting dossier as the README says: build.py finds the project's .venv, the
Makefile passes the preview's address, the package metadata installs without warnings, and the
wheel, installed into a fresh environment, starts a documentary of its own outside the repository."""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import sys
import tomllib
import urllib.request
import zipfile
from pathlib import Path

import pytest

from conftest import PROJECT, write_site

from dossier.publish.staging import walk_files

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


def test_make_test_runs_the_linter_and_the_type_checker_first():
    """make test fails on a finding of ruff or mypy before any test runs (the Makefile's lint target
    is the check itself: this test keeps it wired into make test, over what pyproject.toml names)."""
    makefile = (PROJECT / "Makefile").read_text(encoding="utf-8")
    assert "\ntest: install lint\n" in makefile and " lint " in makefile.split("\n.PHONY:", 1)[1].split("\n", 1)[0]
    lint = makefile.split("\nlint:", 1)[1].split("\n\n", 1)[0]
    assert "$(VENV)/bin/ruff check" in lint and "$(VENV)/bin/mypy" in lint
    tools = tomllib.loads((PROJECT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]
    assert set(tools["mypy"]["files"]) == {"dossier", "build.py"} and tools["mypy"]["python_version"] == "3.11"
    assert not {"I", "E501", "W", "COM", "Q"} & set(tools["ruff"]["lint"]["select"])  # no import order, formatting or line length


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def run_installed(bin_folder: Path, *args: str, cwd: Path, **options) -> subprocess.CompletedProcess:
    """Run a command of the fresh environment, which sees neither this checkout nor this venv."""
    environment = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV", "PYTHONHOME")}
    environment["PATH"] = f"{bin_folder}{os.pathsep}{environment.get('PATH', '')}"
    return subprocess.run(args, cwd=cwd, env=environment, capture_output=True, text=True, timeout=300, **options)


@pytest.fixture(scope="module")
def installed(tmp_path_factory) -> tuple[Path, Path]:
    """Build dossier's wheel from a copy of its sources and install it, with its dependencies at the
    versions requirements.lock pins, into a fresh virtual environment; return the environment's bin/
    and the copy of the sources."""
    work = tmp_path_factory.mktemp("install")
    sources = work / "sources"  # pip builds in the tree it is given: not in this checkout
    shutil.copytree(PROJECT / "dossier", sources / "dossier", ignore=shutil.ignore_patterns("__pycache__"))
    for name in ("pyproject.toml", "README.md"):
        shutil.copy(PROJECT / name, sources / name)
    built = run_installed(Path(sys.prefix) / "bin", sys.executable, "-m", "pip", "wheel", "--no-deps", "--quiet", "--wheel-dir", str(work / "dist"), str(sources), cwd=work)
    assert built.returncode == 0, built.stderr
    assert "Warning" not in built.stderr, built.stderr  # every folder of the package is declared (see pyproject.toml)
    wheel = next((work / "dist").glob("dossier-*.whl"))
    with zipfile.ZipFile(wheel) as archive:  # the code, the theme and the example, every file
        shipped = set(archive.namelist())
    for folder in ("templates", "example"):
        for relative in walk_files(PROJECT / "dossier" / folder):
            assert f"dossier/{folder}/{relative}" in shipped, relative
    for module in (PROJECT / "dossier").rglob("*.py"):  # every subpackage's modules
        assert module.relative_to(PROJECT).as_posix() in shipped, module
    venv = work / "fresh"
    made = run_installed(Path(sys.prefix) / "bin", BARE_PYTHON, "-m", "venv", str(venv), cwd=work)
    assert made.returncode == 0, made.stderr
    pip = run_installed(venv / "bin", str(venv / "bin/python"), "-m", "pip", "install", "--quiet", "--constraint", str(PROJECT / "requirements.lock"), str(wheel), cwd=work)
    assert pip.returncode == 0, pip.stderr
    return venv / "bin", sources


@pytest.mark.slow  # about a minute: a wheel built, a virtual environment made and filled
def test_the_installed_wheel_starts_builds_and_previews_a_documentary_outside_the_repository(installed, tmp_path):
    installed, _ = installed
    where = run_installed(installed, "python", "-c", "import dossier; print(dossier.__file__)", cwd=tmp_path)
    assert "site-packages" in where.stdout and str(PROJECT) not in where.stdout, where.stdout  # the wheel's, not this checkout's
    result = run_installed(installed, "dossier", "init", "doc", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    doc = tmp_path / "doc"
    for command in (["dossier", "new", "person", "Ana Ruiz"], ["dossier", "check", "--strict"], ["dossier", "build"]):
        result = run_installed(installed, *command, cwd=doc)
        assert result.returncode == 0 and "Traceback" not in result.stderr, (command, result.stdout, result.stderr)
    assert (doc / "content/people/ana-ruiz.md").is_file()
    assert "Maria Sample" in (doc / "site/people/maria-sample/index.html").read_text(encoding="utf-8")
    assert "Page not found" in (doc / "site/404.html").read_text(encoding="utf-8")
    assert (doc / "site/static/style.css").read_bytes() == (PROJECT / "dossier/templates/static/style.css").read_bytes()
    assert (doc / "site/pagefind/pagefind.js").is_file()

    (doc / "templates/static").mkdir(parents=True)  # a project's own file replaces the theme's
    (doc / "templates/static/style.css").write_text("body { color: black }\n", encoding="utf-8")
    result = run_installed(installed, "make", "build", cwd=doc) if shutil.which("make") else run_installed(installed, "dossier", "build", cwd=doc)
    assert result.returncode == 0, result.stderr
    assert (doc / "site/static/style.css").read_text(encoding="utf-8") == "body { color: black }\n"

    port = free_port()
    environment = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV", "PYTHONHOME")}
    serve = subprocess.Popen([str(installed / "dossier"), "serve", "--port", str(port)], cwd=doc, env={**environment, "PYTHONUNBUFFERED": "1"},
                             stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        printed = []
        for line in serve.stdout:  # type: ignore[union-attr]
            printed.append(line)
            if line.startswith("serving "):
                break
        assert printed and printed[-1].startswith("serving "), "".join(printed)
        page = urllib.request.urlopen(f"http://127.0.0.1:{port}/people/maria-sample/", timeout=10).read().decode("utf-8")
        assert "<h1>Maria Sample</h1>" in page
    finally:
        serve.send_signal(signal.SIGINT)
        serve.wait(timeout=20)


@pytest.mark.slow
def test_make_install_installs_dossier_editable_without_a_banner(installed):
    """The Makefile's own command, run as make runs it, prints nothing."""
    bin_folder, sources = installed
    makefile = (PROJECT / "Makefile").read_text(encoding="utf-8")
    command = next(line.strip() for line in makefile.splitlines() if "--no-deps -e ." in line).replace("$(PY)", str(bin_folder / "python"))
    result = run_installed(bin_folder, "sh", "-c", command, cwd=sources)
    assert result.returncode == 0, result.stderr
    assert (result.stdout, result.stderr) == ("", "")
