"""Reading stage: content/ and seeds/ into Documents (front matter with the file line of every key,
Markdown body with its first line) and seed texts, collecting every problem instead of stopping at one.

Every content file and seed is read and decoded here. Other modules read other files: inputs.py
the bytes of inputs for their digests, render.py the templates and static files, cache.py the
build cache, and a build reads back the previous site's files it carries over.
"""

from __future__ import annotations

import functools
import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any


from ..model.groups import with_people_groups
from ..model.record_types import BUILT_IN, Model, custom_types
from ..model.problems import Problem
from .frontmatter import KeyPath, load_yaml

MAX_CONTENT_BYTES = 1_000_000
MAX_SEED_BYTES = 5_000_000
FENCE = re.compile(r"^---[ \t]*$")


@dataclass
class Document:
    """One content file: its kind, id, front matter (with file lines per key) and body."""

    path: str  # relative to the project folder, with '/' separators
    kind: str  # people, events, places, groups, pages, sources or site
    id: str
    meta: dict[str, Any]
    lines: dict[KeyPath, int] = field(default_factory=dict)
    body: str = ""
    body_line: int = 1

    def line_of(self, *key: Any) -> int:
        """Return the file line of a front-matter key path, falling back to its parents."""
        while key:
            if key in self.lines:
                return self.lines[key]
            key = key[:-1]
        return self.lines.get((), 1)


def is_editor_artifact(name: str) -> bool:
    """Tell whether a file name is an editor's temp, swap or backup file."""
    return name.startswith((".", "#")) or name.endswith(("~", ".swp", ".swx", ".tmp", ".bak"))


def decode(raw: bytes, path: str, limit: int) -> tuple[str | None, list[Problem]]:
    """Decode file bytes as UTF-8 (BOM and CRLF allowed), refusing oversize or binary input."""
    if len(raw) > limit:
        return None, [Problem(path, 0, 0, "error", f"file is {len(raw):,} bytes; the limit is {limit:,} bytes")]
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        line = raw[: error.start].count(b"\n") + 1
        return None, [Problem(path, line, 0, "error", f"not UTF-8 text (byte 0x{raw[error.start]:02x} at offset {error.start}); save the file as UTF-8")]
    return text.replace("\r\n", "\n").replace("\r", "\n"), []




def parse_markdown_file(text: str, path: str, kind: str, stem: str) -> tuple[Document | None, list[Problem]]:
    """Split a Markdown file into front matter and body and parse the front matter."""
    if not text.strip():
        return None, [Problem(path, 1, 0, "error", "empty file; it needs front matter between '---' lines, then a Markdown body")]
    lines = text.split("\n")
    if not FENCE.match(lines[0]):
        return None, [Problem(path, 1, 0, "error", "missing front matter: the file must begin with a '---' line")]
    closing = next((i for i in range(1, len(lines)) if FENCE.match(lines[i])), None)
    if closing is None:
        return None, [Problem(path, 1, 0, "error", "front matter opened on line 1 is never closed with a '---' line")]
    meta, key_lines, problems = load_yaml("\n".join(lines[1:closing]), path, line_offset=1)
    if problems:
        return None, problems
    if meta is None:
        return None, [Problem(path, 1, 0, "error", "empty front matter; give at least the required fields")]
    if not isinstance(meta, dict):
        return None, [Problem(path, 2, 0, "error", f"front matter must be a mapping of fields, not a {type(meta).__name__}")]
    key_lines[()] = 1
    body = "\n".join(lines[closing + 1 :])
    return Document(path, kind, stem, meta, key_lines, body, closing + 2), []


def parse_yaml_file(text: str, path: str, kind: str, stem: str) -> tuple[Document | None, list[Problem]]:
    """Parse a YAML-only record (a source, or the site settings)."""
    if not text.strip():
        return None, [Problem(path, 1, 0, "error", "empty file; it needs the required fields")]
    meta, key_lines, problems = load_yaml(text, path)
    if problems:
        return None, problems
    if not isinstance(meta, dict):
        return None, [Problem(path, 1, 0, "error", f"expected a mapping of fields, not a {type(meta).__name__}")]
    key_lines.setdefault((), 1)
    return Document(path, kind, stem, meta, key_lines), []


@functools.lru_cache(maxsize=64)
def real_folders(root: str, top: str) -> tuple[str, str]:
    """Return where the project and one of its top folders really are (links followed): the places
    its files may lead to."""
    return os.path.realpath(root), os.path.realpath(os.path.join(root, top))


def read_text(root: Path, file: Path, limit: int) -> tuple[str | None, list[Problem]]:
    """Read and decode one file of the project, refusing links that lead out of it."""
    relative = file.relative_to(root).as_posix()
    target = os.path.realpath(file)
    # A link to a file elsewhere (a key, a password file) would be published: only the project's files are read.
    if not any(target.startswith(folder + os.sep) for folder in real_folders(str(root), relative.split("/")[0])):
        return None, [Problem(relative, 0, 0, "error", f"links to {target}, outside the project; copy the file in instead")]
    try:
        raw = file.read_bytes()
    except OSError as error:
        return None, [Problem(relative, 0, 0, "error", f"cannot read file: {error.strerror}")]
    return decode(raw, relative, limit)


def read_document(root: Path, file: Path) -> tuple[Document | None, list[Problem]]:
    """Read one content file, returning its Document or its problems."""
    relative = file.relative_to(root).as_posix()
    parts = file.relative_to(root / "content").parts
    kind = parts[0] if len(parts) > 1 else "site"
    text, problems = read_text(root, file, MAX_CONTENT_BYTES)
    if text is None:
        return None, problems
    if file.suffix in (".yaml", ".yml"):
        return parse_yaml_file(text, relative, kind, file.stem)
    return parse_markdown_file(text, relative, kind, file.stem)


def model_of(settings: Document | None) -> tuple[Model, list[Problem]]:
    """Return the record types of a project: dossier's own and those content/site.yaml declares."""
    if settings is None:
        return dict(BUILT_IN), []
    model, problems = custom_types(settings.meta.get("types"), settings.path, settings.line_of)
    model, found = with_people_groups(model, settings.meta.get("people_groups"), settings.path, settings.line_of)
    return model, problems + found


def folders(names: list[str]) -> str:
    """Name one folder, or several in braces: '{people,events}'."""
    return names[0] if len(names) == 1 else "{" + ",".join(names) + "}"


def read_model(root: Path) -> tuple[Model, list[Problem]]:
    """Read content/site.yaml for the project's record types (its own problems are reported when it is read as content)."""
    file = root / "content" / "site.yaml"
    if not file.is_file():
        return dict(BUILT_IN), []
    document, problems = read_document(root, file)
    return model_of(document) if document is not None else (dict(BUILT_IN), [])


def content_files(root: Path, model: Model = BUILT_IN) -> tuple[list[Path], list[Problem]]:
    """List the content files to read, warning about files dossier would ignore."""
    content = root / "content"
    files: list[Path] = []
    problems: list[Problem] = []
    suffixes = {"md": (".md",), "yaml": (".yaml", ".yml")}
    markdown = [c for c, t in model.items() if t.file_format == "md"]
    yaml_kinds = [c for c, t in model.items() if t.file_format == "yaml"]
    if not content.is_dir():
        return [], [Problem("content", 0, 0, "error", "no content/ folder here; run dossier from a project folder or pass --source")]
    for entry in sorted(content.rglob("*")):
        relative = entry.relative_to(root).as_posix()
        inside = entry.relative_to(content).parts
        if any(is_editor_artifact(part) for part in inside) or entry.is_dir():
            continue
        if len(inside) == 1:
            if entry.name != "site.yaml":
                problems.append(Problem(relative, 0, 0, "warning", "ignored: only site.yaml belongs directly in content/"))
            else:
                files.append(entry)
        elif len(inside) == 2 and inside[0] in model and entry.suffix in suffixes[model[inside[0]].file_format]:
            files.append(entry)
        else:
            problems.append(Problem(relative, 0, 0, "warning", f"ignored: not a .md file in content/{folders(markdown)}/ or a .yaml file in content/{folders(yaml_kinds)}/"))
    return files, problems


def read_seeds(root: Path) -> tuple[dict[str, str], list[Problem]]:
    """Read every stored source text in seeds/."""
    seeds: dict[str, str] = {}
    problems: list[Problem] = []
    folder = root / "seeds"
    if not folder.is_dir():
        return seeds, problems
    for file in sorted(folder.iterdir()):
        if not file.is_file() or is_editor_artifact(file.name):
            continue
        text, found = read_text(root, file, MAX_SEED_BYTES)
        problems += found
        if text is not None:
            seeds[file.name] = text
    return seeds, problems
