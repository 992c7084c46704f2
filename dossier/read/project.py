"""Where the project is: the folder a command works on, found from any folder inside it, as git
finds its repository from any folder of its work tree."""

from __future__ import annotations

import os
from pathlib import Path

MARKER = Path("content") / "site.yaml"  # what makes a folder a project's: `dossier init` always writes it


def find_project(start: Path) -> Path:
    """Return the nearest folder at or above start that holds content/site.yaml, or start itself
    when none does (then the command reports what is missing there)."""
    start = start.absolute()
    for folder in (start, *start.parents):
        if (folder / MARKER).is_file():
            return folder
    return start


def shown_path(path: str, root: Path, here: Path) -> str:
    """Return a project-relative path as seen from the folder a command runs in (here): unchanged at
    the project's root, '../../seeds/ap.txt' from content/people/, as git shows paths."""
    if not path or root.absolute() == here.absolute():
        return path
    return Path(os.path.relpath(root.absolute() / path, here.absolute())).as_posix()
