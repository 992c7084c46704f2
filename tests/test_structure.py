"""The package's layout: its subpackages are the pipeline's stages, each importing only from the
stages before it (never a cycle, never an import from a later stage), no module is over
MOST_LINES lines, and no module a build runs imports the code the build cache leaves out of its key.

Imports are read from the source (ast), wherever they stand: at the top, in a function (lazy) or
under TYPE_CHECKING.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from conftest import PROJECT

from dossier.incremental import cache

PACKAGE = PROJECT / "dossier"
# The stages in the order the code has them: each may import from those before it, never from one
# after it. A subpackage is named by its folder, a module at the package's top by its name.
STAGES = ["timings", "model", "forked", "read", "text", "check", "render", "publish", "search", "incremental", "pipeline", "editors", "serve", "cli"]
MOST_LINES = 350


def modules(package: Path = PACKAGE) -> dict[str, Path]:
    """Return every module of the package by dotted name ('dossier.render.pages'); a package by its own name."""
    found = {}
    for path in sorted(package.rglob("*.py")):
        parts = path.relative_to(package.parent).with_suffix("").parts
        found[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return found


def imports(name: str, path: Path, known: dict[str, Path]) -> set[str]:
    """Return the package's modules that a module imports (a package's __init__ as the package's name)."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join(anchor + ([node.module] if node.module else []))
            found.add(base)
            found.update(f"{base}.{alias.name}" for alias in node.names if f"{base}.{alias.name}" in known)  # from . import theme
    return {target for target in found if target in known and target != name}


def stage_of(name: str) -> str:
    """Return the stage a module belongs to: its subpackage, or its own name at the package's top."""
    return name.split(".")[1] if name.count(".") >= 1 else ""


def graph() -> dict[str, set[str]]:
    known = modules()
    return {name: imports(name, path, known) for name, path in known.items()}


def cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    """Return a cycle through each strongly connected group of more than one node (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        for target in sorted(edges.get(node, ())):
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            group = []
            while True:
                member = stack.pop()
                group.append(member)
                if member == node:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    for node in sorted(edges):
        if node not in index:
            visit(node)
    return found


def test_every_module_belongs_to_a_stage():
    placed = {stage_of(name) for name in modules() if name != "dossier"}
    assert placed - set(STAGES) == set(), "a subpackage or top-level module that STAGES does not place"


def test_no_stage_imports_from_a_later_one():
    upward = []
    for name, targets in sorted(graph().items()):
        if name == "dossier":
            continue
        for target in sorted(targets):
            if target != "dossier" and STAGES.index(stage_of(target)) > STAGES.index(stage_of(name)):
                upward.append(f"{name} imports {target}: {stage_of(name)} comes before {stage_of(target)}")
    assert upward == []


def test_no_cycle_between_stages_nor_between_modules():
    between_stages: dict[str, set[str]] = {}
    for name, targets in graph().items():
        between_stages.setdefault(stage_of(name), set()).update(stage_of(t) for t in targets if stage_of(t) != stage_of(name))
    assert cycles(between_stages) == []
    assert cycles(graph()) == []


def test_cycles_are_found():
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert cycles({"a": {"b"}, "b": set()}) == []


def test_every_subpackage_says_what_its_stage_takes_and_hands_on_and_holds_nothing_else():
    for folder in sorted({path.parent for path in PACKAGE.rglob("*.py")} - {PACKAGE}):
        init = folder / "__init__.py"
        assert init.is_file(), f"{folder} has no __init__.py"
        tree = ast.parse(init.read_text(encoding="utf-8"))
        assert ast.get_docstring(tree), f"{init} has no docstring"
        assert len(tree.body) == 1, f"{init} holds more than its docstring"


@pytest.mark.parametrize("name", sorted(modules()))
def test_no_module_is_over_the_longest_a_module_may_be(name):
    path = modules()[name]
    lines = len(path.read_text(encoding="utf-8").splitlines())
    assert lines <= MOST_LINES, f"{path.relative_to(PROJECT)} has {lines} lines: split it along its seams"


def test_no_module_a_build_runs_imports_what_the_cache_key_leaves_out():
    """cache.NOT_BUILD_CODE (the command line and the preview) is left out of the code's digest,
    which is safe only while nothing a build runs imports it."""
    def left_out(name: str) -> bool:
        return modules()[name].relative_to(PACKAGE).as_posix().startswith(cache.NOT_BUILD_CODE)

    assert any(left_out(name) for name in modules())
    taken = [f"{name} imports {target}" for name, targets in sorted(graph().items()) if not left_out(name)
             for target in sorted(targets) if left_out(target)]
    assert taken == []
