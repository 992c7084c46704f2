"""The people index's groups a project declares (`people_groups` in content/site.yaml) make the
choices of a person's `part`: the model's people type is given them, so that a person naming
another group is refused at its line, and the editors' schema offers them."""

from __future__ import annotations

import dataclasses
import re
from typing import Any, Callable

from .problems import Problem
from .record_types import Model

PART = re.compile(r"[a-z][a-z0-9]*(?:-[a-z0-9]+)*")


def with_people_groups(model: Model, groups: Any, path: str, line_of: Callable[..., int]) -> tuple[Model, list[Problem]]:
    """Return the model with the people type's `part` choosing among the declared groups' parts,
    and the problems of their declaration (each group's other keys are checked with the settings)."""
    parts: list[str] = []
    problems: list[Problem] = []
    for index, group in enumerate(groups if isinstance(groups, list) else []):
        part = group.get("part") if isinstance(group, dict) else None
        if not isinstance(part, str):
            continue  # reported where the settings are converted
        if not PART.fullmatch(part):
            problems.append(Problem(path, line_of("people_groups", index, "part"), 0, "error",
                                    f"'people_groups.{index}.part' should be a lowercase word such as 'official', not {part!r}"))
        elif part in parts:
            problems.append(Problem(path, line_of("people_groups", index, "part"), 0, "error", f"'{part}' is declared twice in people_groups"))
        else:
            parts.append(part)
    if "people" not in model or not parts:
        return model, problems
    people = model["people"]
    declared = ", ".join(parts)
    fields = tuple(dataclasses.replace(spec, type="enum:" + "|".join(parts), doc=f"the person's group on the people index: {declared}")
                   if spec.name == "part" else spec for spec in people.fields)
    return {**model, "people": dataclasses.replace(people, fields=fields)}, problems
