"""YAML's own error messages, explained for editors: where the mistake is, and how to write it."""

from __future__ import annotations

import re
from typing import Any

import yaml

FLOW = {"while parsing a flow sequence": "[]", "while parsing a flow mapping": "{}"}
KEY_AND_VALUE = re.compile(r"^(\s*(?:- )?[A-Za-z_][\w-]*):[ \t]+(.*?)\s*$")


def explain(error: yaml.MarkedYAMLError, text: str) -> tuple[Any, str]:
    """Return where a YAML error is (a mark, or None) and what it says, in the editor's terms."""
    mark = error.problem_mark or error.context_mark
    message = str(error.problem or error.context)
    opened = FLOW.get(str(error.context))
    if opened and error.context_mark and message.startswith("did not find expected ',' or"):
        # YAML notices at the next key, or the end of the front matter: the '[' left open is the mistake.
        return error.context_mark, f"this '{opened[0]}' is never closed with '{opened[1]}'"
    if message.startswith("mapping values are not allowed") and mark:  # libyaml: 'in this context'; PyYAML: 'here'
        return mark, colon_in_value(text.split("\n")[mark.line])
    return mark, message


def colon_in_value(line: str) -> str:
    """Explain a value holding ': ', which YAML reads as a second key: say how to write the line
    with its value quoted."""
    found = KEY_AND_VALUE.match(line)
    if not found:
        return "a colon and a space inside a value; quote the value"
    quoted = '"' + found[2].replace("\\", "\\\\").replace('"', '\\"') + '"'
    return f"a colon and a space inside a value; quote the value: {found[1].strip()}: {quoted}"
