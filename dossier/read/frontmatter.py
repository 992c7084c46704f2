"""Front matter: YAML read safely (dates kept as written, decimal numbers only, no aliases or tags)
with the file line of every key path and the column where each value starts on its line, so that a
problem names where it is."""

from __future__ import annotations

import functools
import re
import sys
from array import array
from typing import Any

import yaml

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
