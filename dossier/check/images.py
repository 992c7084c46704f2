"""Images a record shows (`images:`): each names a file of media/ that is an image, and says where it
comes from, a source of the site or the licence it is under (its alt text and credit are required
fields, checked with the others); and an image written in a body's Markdown, which is not shown, is
a warning that says where images go."""

from __future__ import annotations

import re

from .link import Site, record_line
from ..model.problems import Problem, did_you_mean
from ..model.schema import Record

MARKDOWN_IMAGE = re.compile(r"!\[[^\]\n]*\]\([^)\n]*\)")


def image_problems(site: Site) -> list[Problem]:
    """Report each image whose file is not in media/, whose source is unknown, or that names neither a source nor a licence."""
    problems: list[Problem] = []
    sources = site.records["sources"]
    for kind in site.model:  # the records in any order (not all_records' sorted one): the problems are sorted with the others
        for record in site.records[kind].values():
            if getattr(record, "images", None):
                problems += record_image_problems(record, site, sources)
    return problems


def record_image_problems(record: Record, site: Site, sources: dict) -> list[Problem]:
    """Report one record's images that image_problems() would."""
    problems = []
    for index, image in enumerate(record.images):  # type: ignore[attr-defined]
        def error(key: str, message: str) -> None:
            problems.append(Problem(record.path, record_line(record, "images", index, key), 0, "error", message))  # noqa: B023 (called in this pass of the loop only)

        if image.file not in site.media:
            error("file", f"'media/{image.file}' is not an image of the project's media/ folder{did_you_mean(image.file, site.media)}")
        if image.source and image.source not in sources:
            error("source", f"unknown source '{image.source}' in 'images.{index}.source'{did_you_mean(image.source, sources)}")
        if not image.source and not image.licence:
            error("credit", f"'images.{index}' says neither where it comes from nor under what licence: give 'source' (a source's id) or 'licence'")
    return problems


def markdown_images(record: Record) -> list[Problem]:
    """Warn about each image written in a record's body (![...](...)), which the page does not show."""
    body = record.body or ""
    return [Problem(record.path, record.body_line + body.count("\n", 0, match.start()), match.start() - body.rfind("\n", 0, match.start()), "warning",
                    "an image in Markdown is not shown: list it under 'images:' in the front matter, with its file in media/, "
                    "its alt text, credit and source or licence", kind="image in Markdown")
            for match in MARKDOWN_IMAGE.finditer(body)]
