"""Auditing stage: editorial checks that are warnings (errors under --strict)."""

from __future__ import annotations

from .link import Site
from .problems import Problem


def audit(site: Site) -> list[Problem]:
    """Return editorial warnings about a linked site."""
    return []
