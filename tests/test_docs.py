"""The documentation (docs/ and the README) as a guide that stays true: it builds as a site with
MkDocs, strictly; every command it shows in a shell block runs as written, in a copy of this
repository; and every figure it gives of the documentary matches the built documentary."""

from __future__ import annotations

import os
import re
import shutil
import signal
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

from conftest import PROJECT
from test_browser import served  # noqa: F401 (a fixture: the real documentary, served)
from test_browser_search import every_result
from test_importer import JSON_LD_PAGE
from test_install import free_port

from dossier.pipeline import load

DOCS = PROJECT / "docs"
PAGES = sorted([*DOCS.rglob("*.md"), PROJECT / "README.md"])
BIN = Path(sys.prefix) / "bin"
FENCE = re.compile(r"^```(\w*)\n(.*?)^```", re.MULTILINE | re.DOTALL)


@dataclass(frozen=True)
class Block:
    """A shell block of a page: the commands a reader is told to type, one a line."""

    page: str
    number: int
    commands: tuple[str, ...]

    def __str__(self) -> str:
        return f"{self.page}#{self.number}"


def shell_blocks() -> list[Block]:
    """Return every ```sh block of the documentation."""
    found = []
    for path in PAGES:
        blocks = [m[2] for m in FENCE.finditer(path.read_text(encoding="utf-8")) if m[1] == "sh"]
        for number, text in enumerate(blocks, start=1):
            commands = tuple(line.strip() for line in text.splitlines() if line.strip() and not line.lstrip().startswith("#"))
            found.append(Block(path.relative_to(PROJECT).as_posix(), number, commands))
    return found


BLOCKS = shell_blocks()
SERVE = ("make serve", "python3 build.py serve", "dossier serve")  # run until they say where they serve, then stopped as Ctrl+C does
THE_SUITE = "make test"  # the command that runs this test: .ci/run runs it, as a reader does
FRESH_INSTALL = "python3 -m venv ~/dossier-env"  # a block installing dossier outside the repository: see the slow test below
EXIT = {"python3 build.py review --status": (0, 1)}  # exits 1 while any record awaits a review, as the docs say


def test_the_docs_build_as_a_site_with_mkdocs_strictly(tmp_path):
    result = subprocess.run([BIN / "mkdocs", "build", "--strict", "--site-dir", str(tmp_path / "docs")], cwd=PROJECT, capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr
    assert (tmp_path / "docs/getting-started/index.html").is_file() and (tmp_path / "docs/internals/cache/index.html").is_file()
    listed = set(re.findall(r"([\w/-]+\.md)", (PROJECT / "mkdocs.yml").read_text(encoding="utf-8")))
    assert listed == {path.relative_to(DOCS).as_posix() for path in DOCS.rglob("*.md")}  # every page is in the navigation


def test_the_readme_is_short_links_to_pages_that_exist_and_shows_the_site():
    readme = (PROJECT / "README.md").read_text(encoding="utf-8")
    assert len(readme.splitlines()) <= 150
    links = re.findall(r"\]\(((?:docs/)[^)#]+)(?:#[^)]*)?\)", readme)
    assert links and all((PROJECT / link).is_file() for link in links), links
    assert "![" in readme and (PROJECT / "docs/screenshot.png").is_file()
    assert "Ctrl+C" in readme and "make test" in readme and "second terminal" in readme


def test_every_command_is_run_by_one_of_these_tests():
    commands = [command for block in BLOCKS for command in block.commands]
    assert THE_SUITE in commands and any(command.startswith(FRESH_INSTALL) for command in commands)
    ci = (PROJECT / ".ci/run").read_text(encoding="utf-8")
    assert ci.rstrip().endswith(THE_SUITE)  # what CI runs, a reader runs


@pytest.fixture(scope="module")
def repository(tmp_path_factory) -> Path:
    """A copy of this repository (its content, seeds, package and make targets, sharing this
    environment) with the documentary built once, so that each block starts from a warm build."""
    root = tmp_path_factory.mktemp("clone") / "dossier"
    root.mkdir()
    for name in ("content", "seeds", "dossier"):
        shutil.copytree(PROJECT / name, root / name, ignore=shutil.ignore_patterns("__pycache__"))
    for name in ("Makefile", "build.py", "pyproject.toml", "requirements.lock", "babel.cfg", "README.md"):
        shutil.copy2(PROJECT / name, root / name)  # their times kept: make sees the environment installed
    (root / ".venv").symlink_to(Path(sys.prefix))
    built = run(root, "make build", root.parent / "home")
    assert built.returncode == 0, built.stderr
    return root


def run(root: Path, command: str, home: Path, timeout: int = 600) -> subprocess.CompletedProcess:
    """Run one command as a reader types it, in the repository's folder, with a home of its own."""
    home.mkdir(exist_ok=True)
    environment = {**{k: v for k, v in os.environ.items() if k not in ("VIRTUAL_ENV", "PYTHONPATH")}, "HOME": str(home)}
    return subprocess.run(["bash", "-c", command], cwd=root, env=environment, capture_output=True, text=True, timeout=timeout)


def serve(root: Path, command: str, home: Path) -> None:
    """Start a preview as written (on a free port: make reads PORT from the environment), wait until it
    serves, and stop it as Ctrl+C does."""
    environment = {**{k: v for k, v in os.environ.items() if k not in ("VIRTUAL_ENV", "PYTHONPATH")}, "HOME": str(home),
                   "PORT": str(free_port()), "PYTHONUNBUFFERED": "1"}
    preview = subprocess.Popen(["bash", "-c", f"exec {command}"], cwd=root, env=environment, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                               text=True, start_new_session=True)
    printed = []
    try:
        for line in preview.stdout:  # type: ignore[union-attr]
            printed.append(line)
            if line.startswith("serving "):
                break
        assert printed and printed[-1].startswith("serving ") and "Ctrl+C stops" in printed[-1], "".join(printed)
    finally:
        os.killpg(preview.pid, signal.SIGINT)
        preview.wait(timeout=60)


@pytest.mark.slow  # a minute or two: each block in a fresh copy of a built repository
@pytest.mark.parametrize("block", [b for b in BLOCKS if not any(c == THE_SUITE or c.startswith(FRESH_INSTALL) for c in b.commands)], ids=str)
def test_every_command_the_docs_show_runs_as_written(block, repository, tmp_path):
    root = tmp_path / "dossier"
    shutil.copytree(repository, root, symlinks=True)
    home = tmp_path / "home"
    (home / "Downloads").mkdir(parents=True)
    (home / "Downloads/story.html").write_text(JSON_LD_PAGE, encoding="utf-8")  # the page a reader saved from a browser
    for command in block.commands:
        if command.startswith(SERVE):
            serve(root, command, home)
            continue
        result = run(root, command, home)
        assert result.returncode in EXIT.get(command, (0,)), (command, result.stdout[-2000:], result.stderr[-2000:])
        assert "Traceback" not in result.stderr, (command, result.stderr)


@pytest.mark.slow  # a minute or two: dossier installed from the clone into a fresh environment, with its dependencies
def test_a_documentary_of_your_own_starts_as_the_guide_says(tmp_path):
    block = next(b for b in BLOCKS if any(c.startswith(FRESH_INSTALL) for c in b.commands))
    clone = tmp_path / "dossier"  # the folder that holds the clone, as the guide names it
    shutil.copytree(PROJECT / "dossier", clone / "dossier", ignore=shutil.ignore_patterns("__pycache__", "*.mo"))
    for name in ("pyproject.toml", "README.md", "requirements.lock"):
        shutil.copy(PROJECT / name, clone / name)
    script = "set -e\n" + "\n".join(block.commands) + "\n"  # one shell: `export` and `cd` carry to the lines after them
    result = run(tmp_path, script, tmp_path / "home", timeout=900)
    assert result.returncode == 0, (result.stdout[-3000:], result.stderr[-3000:])
    assert "check passed" in result.stdout and (tmp_path / "ferry-story/site/people/maria-sample/index.html").is_file()


# The figures the docs give of the documentary, each with how the built documentary gives it. Every
# number of a thing the documentary has (events, people, results...) in the docs' prose must be one
# of these, or one of NOT_OF_THE_DOCUMENTARY, which says what else it is.
def records(site, collection: str) -> int:
    return len(site.records[collection])


def events_naming(site, person: str) -> int:
    return sum(person in event.people for event in site.records["events"].values())


def headline_values(site) -> str:
    return " ".join(f.value for event in site.records["events"].values() for f in event.figures if f.headline)


FIGURES = {  # phrase as the docs write it -> (what it says, computed from the loaded documentary)
    "38 events": lambda site: records(site, "events") == 38,
    "4 stored texts": lambda site: records(site, "sources") == 4 and sum(bool(s.derived_from) for s in site.records["sources"].values()) == 1,
    "four stored texts (three news stories and a machine translation of one of them)": lambda site: records(site, "sources") == 4,
    "7 conflicts": lambda site: records(site, "conflicts") == 7,
    "Guaidó in 16, Maduro in 12": lambda site: (events_naming(site, "juan-guaido"), events_naming(site, "nicolas-maduro")) == (16, 12)
    and max(events_naming(site, p) for p in site.records["people"]) == 16,  # the people with the most events
    "over 270 in three days, more than 1,400, 1,410 with 670 relatives": lambda site: all(
        words in headline_values(site) for words in ("over 270", "more than 1,400", "1,410", "670")),
}
NOT_OF_THE_DOCUMENTARY = {
    "200 events": "PAGE_EVENTS, where a timeline is split into pages",
    "1,000 searchable pages": "where a site's search index is split into parts (PART_PAGES)",
    "500 claims": "PER_PAGE of the claims pages",
    "10,000 records": "the benchmark's synthetic project",
    "10,000 pages": "the benchmark's synthetic project",
    "630 pages": "a part of the benchmark's search index",
    "2,500 pages": "a part of the benchmark's search index",
    "1,000 pages": "PART_PAGES, the most a part of a site's search index holds",
    "1,200 pages": "WORKER_PAGES, what a rendering worker renders before another is forked in its place",
    "64 pages": "FIRST_ROUND_WORKER_PAGES, the same for the workers of the claims and source pages",
    "1 sentence": "an example of the review sheet's words",
    "2 pages": "an example of the preview's rebuild line",
    "1 draft": "an example of the check's words",
    "1 source": "an example of the count shown after a cited sentence",
    "2 sources": "an example of the count shown after a cited sentence",
}
COUNTED = re.compile(r"\b\d[\d,]*\s+(?:events?|people|persons?|records?|results?|sources?|conflicts?|places?|groups?|pages?|claims?|sentences?|drafts?|stored texts?)\b")


def prose(text: str) -> str:
    """Return a page's text without its code blocks and code spans (examples of output, not figures)."""
    return re.sub(r"`[^`\n]*`", "", FENCE.sub("", text))


def stated_search_count() -> int:
    """Return how many results for Cúcuta the site's docs say the search page shows."""
    stated = re.search(r"(\d+) results\s+for “Cúcuta”", (DOCS / "site.md").read_text(encoding="utf-8"))
    assert stated is not None
    return int(stated[1])


def test_every_figure_the_docs_give_of_the_documentary_is_checked():
    stated = {}
    for path in PAGES:
        if path.name != "benchmarks.md":  # the benchmark's figures are of its synthetic projects, dated
            for match in COUNTED.finditer(prose(path.read_text(encoding="utf-8"))):
                stated.setdefault(re.sub(r"\s+", " ", match[0]), path.relative_to(PROJECT).as_posix())
    # the last: test_the_search_count_the_docs_give_is_the_search_pages
    checked = set(FIGURES) | set(NOT_OF_THE_DOCUMENTARY) | {f"{stated_search_count()} results"}
    unchecked = {phrase: page for phrase, page in stated.items() if not any(phrase in known or known.startswith(phrase) for known in checked)}
    assert unchecked == {}


def test_the_figures_the_docs_give_match_the_documentary():
    text = re.sub(r"\s+", " ", "\n".join(path.read_text(encoding="utf-8") for path in PAGES))
    site, _ = load(PROJECT)
    for phrase, holds in FIGURES.items():
        assert phrase in text, f"the docs no longer say {phrase!r}: remove it here"
        assert holds(site), phrase


def test_the_search_count_the_docs_give_is_the_search_pages(page, served):
    count, _ = every_result(page, served + "search/", "Cúcuta")
    assert count == stated_search_count()
