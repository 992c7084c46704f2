"""Reading stage: content/ and seeds/ into Documents (front matter with the file line of every key,
Markdown body with its first line) and seed texts, collecting every problem instead of stopping at one.

Every content file and seed is read and decoded here. Other modules read other files: inputs.py
the bytes of inputs for their digests, render.py the templates and static files, cache.py the
build cache, and a build reads back the previous site's files it carries over.
"""

from __future__ import annotations

import functools
from array import array
import os
import re
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from ..model.groups import with_people_groups
from ..model.record_types import BUILT_IN, Model, custom_types
from ..model.problems import Problem
from .yamlhints import explain

_BaseLoader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


class ContentLoader(_BaseLoader):  # type: ignore[misc, valid-type]
    """Safe YAML loader (libyaml where available) that keeps dates as written, as text.

    Dates are EDTF strings to dossier; letting YAML turn 2019-02-23 into a date object would
    lose the notation and make 2019-02-30 a crash instead of a clear error. Numbers are decimal
    only: YAML 1.1 reads 0755 as octal, 12:30 as 750 (base 60), and PyYAML crashes on '0x_'.
    """


YAML_TAG = "tag:yaml.org,2002:"
DECIMAL = {
    YAML_TAG + "int": re.compile(r"^[-+]?(?:0|[1-9][0-9_]*)$"),
    YAML_TAG + "float": re.compile(r"^(?:[-+]?[0-9][0-9_]*\.[0-9_]*(?:[eE][-+][0-9]+)?|\.[0-9][0-9_]*(?:[eE][-+][0-9]+)?|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))$"),
}
ContentLoader.yaml_implicit_resolvers = {
    first: [(tag, DECIMAL.get(tag, regexp)) for tag, regexp in resolvers if tag != YAML_TAG + "timestamp"]
    for first, resolvers in _BaseLoader.yaml_implicit_resolvers.items()
}
ALIASES = "YAML aliases (*name) are not supported; write the value out in full"
MAX_CONTENT_BYTES = 1_000_000
MAX_SEED_BYTES = 5_000_000
FENCE = re.compile(r"^---[ \t]*$")
KeyPath = tuple  # ('age', 'quote') or ('figures', 0, 'quote')
SHARED_UP_TO = 64  # a scalar this long or shorter (a field name, an id, a date) is one string object however many files hold it


class KeyLines(dict):
    """The file line of every key path of a front matter, and in columns where each value's text
    starts on its line (from 1; inside the quotes of a quoted value), so that a problem found
    inside a value, such as a misquoted citation under `evidence:`, names its column. The columns
    are numbers in the order of the key paths: a site keeps every record's, and as a mapping of
    their own they took 10 MB more at 10,000 records."""

    __slots__ = ("columns",)

    def __init__(self, *args: Any, **kwargs: Any):
        super().__init__(*args, **kwargs)
        self.columns = array("I")  # the column of each key path, in their order (0 where not known)

    def with_columns(self, columns: dict[KeyPath, int]) -> KeyLines:
        """Take the columns of the key paths, kept as numbers in their order; return itself."""
        self.columns = array("I", (columns.get(key, 0) for key in self))
        return self

    def column(self, key: KeyPath) -> int:
        """Return the column where a key path's value starts on its line, or 0 where it is not known."""
        return next((column for path, column in zip(self, self.columns) if path == key), 0)


def column_of(lines: dict, *key: Any) -> int:
    """Return the column where a key path's value starts on its line, or 0 where it is not known."""
    return lines.column(key) if isinstance(lines, KeyLines) else 0


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


def load_yaml(text: str, path: str, line_offset: int = 0) -> tuple[Any, dict[KeyPath, int], list[Problem]]:
    """Parse YAML, returning its value, the file line of every key path, and problems.

    line_offset is the number of file lines before the YAML text (the front matter's '---').
    """
    for number, line in enumerate(text.split("\n"), start=1):
        indent = line[: len(line) - len(line.lstrip(" \t"))]
        if "\t" in indent:
            return None, {}, [Problem(path, number + line_offset, indent.index("\t") + 1, "error", "tab used for indentation; YAML needs spaces")]
        # YAML also breaks lines at these, which would shift every line number after them.
        separator = next((char for char in "\x85\u2028\u2029" if char in line), None)
        if separator:
            name = {"\x85": "next line", "\u2028": "line separator", "\u2029": "paragraph separator"}[separator]
            return None, {}, [Problem(path, number + line_offset, line.index(separator) + 1, "error", f"invisible {name} character (U+{ord(separator):04X}); replace it with a space or a new line")]
    loader = ContentLoader(text)
    try:
        node = loader.get_single_node()
        if node is None:
            return None, {}, []
        index = _NodeIndex(loader, path, line_offset)
        index.walk(node, ())
        if index.problems:
            return None, index.lines.with_columns(index.columns), index.problems
        return loader.construct_document(node), index.lines.with_columns(index.columns), []
    except yaml.reader.ReaderError as error:
        # The reader's position may count bytes; the first occurrence of the character is exact.
        at = max(text.find(chr(error.character)), 0) if isinstance(error.character, int) else 0
        file_line = text.count("\n", 0, at) + 1 + line_offset
        column = at - text.rfind("\n", 0, at)
        code = f"U+{error.character:04X}" if isinstance(error.character, int) else repr(error.character)
        return None, {}, [Problem(path, file_line, column, "error", f"invalid YAML: character {code} is not allowed ({error.reason}); remove it")]
    except yaml.MarkedYAMLError as error:
        mark, message = explain(error, text)
        file_line = mark.line + 1 + line_offset if mark else line_offset + 1
        column = mark.column + 1 if mark else 0
        return None, {}, [Problem(path, file_line, column, "error", f"invalid YAML: {message}")]
    except yaml.YAMLError as error:
        return None, {}, [Problem(path, line_offset + 1, 0, "error", f"invalid YAML: {error}")]
    finally:
        loader.dispose()


class _NodeIndex:
    """Walk a composed YAML document before it is built: note the file line of every key path, and
    refuse what content never needs and PyYAML handles badly: aliases, non-text keys, !!tags."""

    def __init__(self, loader: Any, path: str, offset: int):
        self.loader, self.path, self.offset = loader, path, offset
        self.lines = KeyLines()
        self.columns: dict[KeyPath, int] = {}  # where each scalar's text starts on its line (see KeyLines)
        self.problems: list[Problem] = []
        self.visited: set[int] = set()

    def error(self, node: yaml.Node, message: str, line: int | None = None) -> None:
        column = 0 if line else node.start_mark.column + 1
        self.problems.append(Problem(self.path, line or node.start_mark.line + 1 + self.offset, column, "error", message))

    def plain(self, node: yaml.Node) -> bool:
        """Tell whether a node has the type its plain form gives it, that is no explicit !!tag."""
        if isinstance(node, yaml.ScalarNode):
            return node.tag == YAML_TAG + "str" or node.tag == self.loader.resolve(yaml.ScalarNode, node.value, (True, False))
        return node.tag == YAML_TAG + ("seq" if isinstance(node, yaml.SequenceNode) else "map")

    def walk(self, node: yaml.Node, key: KeyPath, line: int | None = None) -> None:
        # An alias makes a node appear twice: a self-referencing one recurses forever, nested ones
        # expand exponentially ("billion laughs"). Reported once; the line is where it is used.
        if id(node) in self.visited:
            if not any(problem.message == ALIASES for problem in self.problems):
                self.error(node, ALIASES, line or self.lines.get(key[:-1], self.offset + 1))
            return
        self.visited.add(id(node))
        self.lines[key] = node.start_mark.line + 1 + self.offset
        if isinstance(node, yaml.ScalarNode):
            self.columns[key] = node.start_mark.column + 1 + (node.style in ("'", '"'))
            shared(node)
        if not self.plain(node):
            shown = node.tag.replace(YAML_TAG, "!!")
            self.error(node, f"YAML tag '{shown}' is not supported; write the value without it (quote it to make it text)")
        elif isinstance(node, yaml.MappingNode):
            seen: dict[str, int] = {}
            for key_node, value_node in node.value:
                line = key_node.start_mark.line + 1 + self.offset
                if not isinstance(key_node, yaml.ScalarNode) or not self.plain(key_node):
                    kind = "a list" if isinstance(key_node, yaml.SequenceNode) else "a mapping" if isinstance(key_node, yaml.MappingNode) else "a tagged value"
                    self.error(key_node, f"a field name must be plain text, not {kind}")
                    continue
                name = shared(key_node)
                if name in seen:
                    self.error(key_node, f"duplicate key '{name}' (first given on line {seen[name]})")
                    continue
                seen[name] = line
                path = key_path(key + (name,))
                self.walk(value_node, path, line)
                self.lines[path] = line
        elif isinstance(node, yaml.SequenceNode):
            for index, item in enumerate(node.value):
                self.walk(item, key_path(key + (index,)))


def shared(node: yaml.ScalarNode) -> str:
    """Make a short scalar's text one string object for all files (sys.intern) and return it: a
    build keeps every field name, id and date (a third of its strings at 10,000 records were copies)."""
    node.value = sys.intern(node.value) if len(node.value) <= SHARED_UP_TO else node.value
    return node.value


key_path = functools.lru_cache(maxsize=1 << 14)(lambda path: path)  # one tuple for each key path, as shared() does for strings


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
