"""Record ids: lowercase ASCII slugs transliterated from names in any alphabet."""

from __future__ import annotations

import re
from typing import Callable

from slugify import slugify

ID_PATTERN = re.compile(r"[a-z0-9]+(?:-[a-z0-9]+)*")


def fold_id(name: str) -> str:
    """Fold a name to an id, transliterating every alphabet: 'José Gómez' -> 'jose-gomez',
    'Łódź' -> 'lodz', 'Straße' -> 'strasse', 'Юлия' -> 'iuliia'."""
    return slugify(name, lowercase=True, separator="-", regex_pattern=r"[^a-z0-9]+")


def is_valid_id(text: str) -> bool:
    """Tell whether text is a valid id: [a-z0-9] words joined by single hyphens."""
    return bool(ID_PATTERN.fullmatch(text))


def letter_class(kind: Callable[[str], bool]) -> str:
    """Return a regular-expression class of the letters of every alphabet (in Unicode's basic
    plane) of which kind holds: str.isupper for capitals, str.islower for small letters."""
    ranges: list[tuple[int, int]] = []
    for code in range(0x10000):
        if 0xD800 <= code <= 0xDFFF or not kind(chr(code)) or not chr(code).isalpha():
            continue
        if ranges and ranges[-1][1] == code - 1:
            ranges[-1] = (ranges[-1][0], code)
        else:
            ranges.append((code, code))
    return "[" + "".join(re.escape(chr(a)) if a == b else f"{re.escape(chr(a))}-{re.escape(chr(b))}" for a, b in ranges) + "]"
