"""The stylesheets and scripts a project adds to every page (extra_css, extra_js in content/site.yaml):
each a file the site publishes (`static/print.css`, from the project's templates/static/ or the
theme's) or an address on the web; any other is an error at its line, as a broken link would be."""

from __future__ import annotations

from typing import Iterable

from .images import image_problems
from .link import Site, record_line
from ..model.problems import Problem, did_you_mean
from ..model.schema import SiteConfig

WEB = ("https://", "http://", "//")


def static_files(inputs: Iterable[str]) -> set[str]:
    """Return the site's addresses of the static files among a project's inputs: templates/static/x
    (the project's) and dossier/templates/static/x (the theme's) are both published as static/x."""
    return {"static/" + name.partition("static/")[2] for name in inputs if name.startswith(("templates/static/", "dossier/templates/static/"))}


def asset_problems(config: SiteConfig, published: set[str]) -> list[Problem]:
    """Report each extra_css or extra_js entry that is neither a published static file nor an address on the web."""
    problems = []
    for setting in ("extra_css", "extra_js"):
        for index, address in enumerate(getattr(config, setting, None) or []):
            if address.startswith(WEB) or address in published:
                continue
            hint = did_you_mean(address, published) or did_you_mean("static/" + address, published)
            problems.append(Problem(config.path, record_line(config, setting, index), 0, "error",
                                    f"'{address}' in {setting} is no file of the site{hint}: put the file in templates/static/ and write "
                                    f"static/<its name>, or give an https:// address"))
    return problems


def files_named(site: Site, inputs: Iterable[str]) -> list[Problem]:
    """Report the files the project's settings and records name that it does not have: stylesheets
    and scripts (extra_css, extra_js) among its inputs, images in media/ (images.py)."""
    config = site.config
    named = bool(getattr(config, "extra_css", None) or getattr(config, "extra_js", None))  # else no need to list the static files
    return (asset_problems(config, static_files(inputs)) if named else []) + image_problems(site)
