"""The floor: only the unavoidable work of a static site generator, in one process.

Read every content file, parse its front matter with libyaml, render its Markdown with
Python-Markdown, render it through one small template and write the page. Every benchmark
figure is reported as a ratio to this loop's time on the same project, in the same run.

    python benchmarks/floor.py PROJECT OUT
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

import jinja2
import markdown
import yaml

TEMPLATE = """<!DOCTYPE html>
<html lang="en">
<head><meta charset="utf-8"><title>{{ title }}</title><link rel="stylesheet" href="../../static/style.css"></head>
<body><header><a href="../../">Home</a></header>
<main><h1>{{ title }}</h1><p>{{ summary }}</p>
{{ body }}
</main></body></html>
"""


def floor(project: Path, out: Path) -> int:
    """Build every content file of project into out the bare way; return the number of pages."""
    template = jinja2.Environment(autoescape=True).from_string(TEMPLATE)
    md = markdown.Markdown()
    count = 0
    for file in sorted((project / "content").rglob("*")):
        if file.suffix not in (".md", ".yaml") or file.parent.name == "content":
            continue
        text = file.read_text(encoding="utf-8")
        if file.suffix == ".md":
            _, front, body = text.split("---\n", 2)
        else:
            front, body = text, ""
        meta = yaml.load(front, Loader=yaml.CSafeLoader) or {}
        if file.suffix == ".yaml":
            body = meta.get("notes") or ""
        html = md.reset().convert(body)
        title = meta.get("name") or meta.get("title") or file.stem
        page = template.render(title=title, summary=meta.get("summary", ""), body=jinja2.utils.markupsafe.Markup(html))
        target = out / file.parent.name / file.stem / "index.html"
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(page, encoding="utf-8")
        count += 1
    return count


if __name__ == "__main__":
    started = time.perf_counter()
    pages = floor(Path(sys.argv[1]), Path(sys.argv[2]))
    print(f"floor: {pages} pages in {time.perf_counter() - started:.3f} s")
