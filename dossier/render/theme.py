"""The theme: the templates and static files dossier ships in its package (dossier/templates/), and a
project's own templates/ folder, which overrides them file by file and may add files.

A project's templates/base.html is used instead of the package's, and a project's
templates/static/style.css instead of the package's stylesheet. The package's files are inputs of a
build like the project's own, named "dossier/templates/..." among them, so that editing either
renders again what it should (inputs.py), and the preview watches both (serve.py).
"""

from __future__ import annotations

from pathlib import Path

import jinja2

from ..model import i18n

PACKAGE_TEMPLATES = Path(__file__).resolve().parent.parent / "templates"
THEME = "dossier/templates"  # how the package's theme files are named among a project's inputs
THEME_ROOT = PACKAGE_TEMPLATES.parent.parent  # the folder THEME is relative to (site-packages, or a clone of dossier)
PREFIX = "dossier"  # a project's template extends the package's own with {% extends "dossier/base.html" %}


def template_folders(project_templates: Path | None) -> list[Path]:
    """Return the folders templates are looked up in, the first that has a file winning: the
    project's templates/ (when it exists), then the package's."""
    folders = [PACKAGE_TEMPLATES]
    if project_templates is not None and project_templates.is_dir() and project_templates.resolve() != PACKAGE_TEMPLATES:
        folders.insert(0, project_templates)
    return folders


def template_loader(folders: list[Path]) -> jinja2.BaseLoader:
    """Return a loader that looks templates up in the folders in turn, and finds the package's own
    under PREFIX ("dossier/base.html"), for a project's template of the same name to extend."""
    return jinja2.ChoiceLoader([jinja2.FileSystemLoader(folders), jinja2.PrefixLoader({PREFIX: jinja2.FileSystemLoader(PACKAGE_TEMPLATES)})])


def input_path(root: Path, relative: str) -> Path:
    """Return the file an input's name stands for: a package theme file, a catalog of the interface's
    translations (dossier/locale/...), or a file of the project."""
    if relative.startswith(THEME + "/"):
        return PACKAGE_TEMPLATES / relative[len(THEME) + 1:]
    if relative.startswith(i18n.CATALOGS + "/"):
        return i18n.LOCALE / relative[len(i18n.CATALOGS) + 1:]
    return root / relative


def theme_part(relative: str) -> str | None:
    """Return the part of the theme an input's name is in ('static' or 'templates'), or None when
    it is not a theme file: templates/x.html and dossier/templates/x.html are templates,
    templates/static/... and dossier/templates/static/... static files."""
    if relative.startswith(THEME + "/"):
        relative = "templates/" + relative[len(THEME) + 1:]
    parts = relative.split("/")
    if parts[0] != "templates" or len(parts) < 2:
        return None
    return "static" if parts[1] == "static" else "templates"
