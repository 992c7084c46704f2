"""Record ids: lowercase ASCII slugs folded from names."""

from __future__ import annotations

import re
import unicodedata

ID_PATTERN = re.compile(r"[a-z0-9]+(?:-[a-z0-9]+)*")


def fold_id(name: str) -> str:
    """Fold a name to an id: 'José Gómez' -> 'jose-gomez'."""
    decomposed = unicodedata.normalize("NFKD", name)
    ascii_only = decomposed.encode("ascii", "ignore").decode("ascii").lower()
    return re.sub(r"[^a-z0-9]+", "-", ascii_only).strip("-")


def is_valid_id(text: str) -> bool:
    """Tell whether text is a valid id: [a-z0-9] words joined by single hyphens."""
    return bool(ID_PATTERN.fullmatch(text))
