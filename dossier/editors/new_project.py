"""The init command: a new project, copied from the example documentary the package ships
(dossier/example/), that checks, builds and previews as it is."""

from __future__ import annotations

import shlex
from pathlib import Path

from ..model.problems import UsageError
from ..publish.staging import walk_files
from ..render.theme import PACKAGE_TEMPLATES

EXAMPLE = Path(__file__).resolve().parent.parent / "example"
IGNORED = "# What dossier makes: the site, its cache, and the schemas editors read (dossier schema).\nsite/\n.site.*\n.dossier-cache/\nschemas/\n"


def init_project(folder: Path) -> list[str]:
    """Write the example project into folder, which must be empty or new; return the files written."""
    if folder.exists() and not folder.is_dir():
        raise UsageError(f"{folder} is a file: give a new or empty folder")
    if folder.is_dir() and any(folder.iterdir()):
        raise UsageError(f"{folder} is not empty: give a new or empty folder")
    written = sorted(walk_files(EXAMPLE))
    for relative in written:
        (folder / relative).parent.mkdir(parents=True, exist_ok=True)
        (folder / relative).write_bytes((EXAMPLE / relative).read_bytes())
    (folder / ".gitignore").write_text(IGNORED, encoding="utf-8")
    return [*written, ".gitignore"]


def next_steps(folder: Path) -> list[str]:
    """Return what to tell the editor once the project is written."""
    return [
        f"created {folder}: an example documentary (content/, seeds/, Makefile) to replace with your own",
        "next:",
        f"  cd {shlex.quote(str(folder))}",
        "  dossier serve                   # preview at http://127.0.0.1:8000/, rebuilt on every save (or: make serve)",
        '  dossier new person "Ana Ruiz"   # a draft: content/people/ana-ruiz.md',
        "  dossier check --strict          # validate everything, write nothing (or: make check)",
        "  dossier build                   # the site, in site/ (or: make build)",
        f"the theme is in {PACKAGE_TEMPLATES}: a file copied into templates/ under the same name replaces it",
    ]
