"""An equivalent Hugo site of a generated project, to measure dossier beside Hugo (and Hugo with Pagefind).

Every record becomes a Hugo page with the same title, summary and body: `[[id]]` links become
Markdown links, `[@source "quote"]` citations become footnotes quoting the passage, so Hugo renders
as much text, as many links and as many notes as dossier does. Layouts give every page a header,
navigation and a list of the pages in its section, and mark the text with `data-pagefind-body`
so that Pagefind indexes the same words. Events are listed by date on a timeline page.

    python benchmarks/hugo.py PROJECT OUT     # writes the Hugo site's sources into OUT
"""

from __future__ import annotations

import re
import shutil
import sys
from pathlib import Path

import yaml

LINK = re.compile(r"\[\[([^\]|]+)(?:\|([^\]]+))?\]\]")
CITATION = re.compile(r'\[@([^\s\]"]+)\s+"((?:[^"\\]|\\.)*)"[^\]]*\]')
LAYOUTS = {
    "_default/baseof.html": (
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8"><title>{{ .Title }} · {{ site.Title }}</title>'
        '<meta name="viewport" content="width=device-width, initial-scale=1"></head>\n<body><header><a href="{{ site.BaseURL }}">'
        "{{ site.Title }}</a><nav><ul>{{ range site.Sections }}<li><a href=\"{{ .RelPermalink }}\">{{ .Title }}</a></li>{{ end }}</ul></nav>"
        "</header>\n<main>{{ block \"main\" . }}{{ end }}</main></body></html>\n"
    ),
    "_default/single.html": (
        '{{ define "main" }}<article data-pagefind-body><h1>{{ .Title }}</h1><p class="lede">{{ .Params.summary }}</p>'
        "{{ with .Params.date_text }}<p>{{ . }}</p>{{ end }}{{ .Content }}</article>{{ end }}\n"
    ),
    "_default/list.html": (
        '{{ define "main" }}<h1>{{ .Title }}</h1><ul>{{ range .Pages.ByTitle }}<li><a href="{{ .RelPermalink }}">{{ .Title }}</a>'
        " — {{ .Params.summary }}</li>{{ end }}</ul>{{ end }}\n"
    ),
    "timeline/list.html": (
        '{{ define "main" }}<h1>Timeline</h1><ol>{{ range (where site.RegularPages "Section" "events").ByParam "sort" }}'
        '<li><a href="{{ .RelPermalink }}">{{ .Title }}</a> {{ .Params.date_text }}: {{ .Params.summary }}</li>{{ end }}</ol>{{ end }}\n'
    ),
}


def front_matter(path: Path) -> tuple[dict, str]:
    """Return a content file's front matter and body."""
    text = path.read_text(encoding="utf-8")
    if path.suffix in (".yaml", ".yml"):
        return yaml.safe_load(text), ""
    _, front, body = text.split("---\n", 2)
    return yaml.safe_load(front), body


def convert(body: str, sections: dict[str, str]) -> str:
    """Turn dossier's links and citations into Markdown links and footnotes."""
    notes: list[str] = []

    def cite(match: re.Match) -> str:
        notes.append(f'[^{len(notes) + 1}]: "{match.group(2)}", {match.group(1)}')
        return f"[^{len(notes)}]"

    text = LINK.sub(lambda m: f"[{m.group(2) or m.group(1)}](/{sections.get(m.group(1), 'people')}/{m.group(1)}/)", body)
    text = CITATION.sub(cite, text)
    return text + ("\n\n" + "\n".join(notes) + "\n" if notes else "")


def write(project: Path, out: Path) -> None:
    """Write the Hugo site equivalent to a generated dossier project."""
    if out.exists():
        shutil.rmtree(out)
    records = {folder.name: sorted(folder.glob("*.*")) for folder in (project / "content").iterdir() if folder.is_dir()}
    sections = {path.stem: section for section, paths in records.items() for path in paths}
    (out / "content").mkdir(parents=True)
    (out / "hugo.toml").write_text('baseURL = "/"\ntitle = "Synthetic dossier"\ndisableKinds = ["taxonomy", "term", "RSS", "sitemap"]\n',
                                   encoding="utf-8")
    for relative, text in LAYOUTS.items():
        (out / "layouts" / relative).parent.mkdir(parents=True, exist_ok=True)
        (out / "layouts" / relative).write_text(text, encoding="utf-8")
    (out / "content/timeline").mkdir()
    (out / "content/timeline/_index.md").write_text("---\ntitle: Timeline\n---\n", encoding="utf-8")
    for section, paths in records.items():
        if section == "pages":
            continue
        (out / "content" / section).mkdir()
        (out / "content" / section / "_index.md").write_text(f"---\ntitle: {section.capitalize()}\n---\n", encoding="utf-8")
        for path in paths:
            meta, body = front_matter(path)
            if section == "sources":
                body = (project / "seeds" / meta["seed"]).read_text(encoding="utf-8") + "\n\n" + (meta.get("notes") or "")
            date = str(meta.get("date", ""))
            fields = {"title": str(meta.get("name") or meta.get("title")), "summary": str(meta.get("summary") or meta.get("outlet") or ""),
                      "date_text": date, "sort": date}
            (out / "content" / section / f"{path.stem}.md").write_text(
                "---\n" + yaml.safe_dump(fields, allow_unicode=True, width=1000) + "---\n" + convert(body, sections), encoding="utf-8")


if __name__ == "__main__":
    write(Path(sys.argv[1]), Path(sys.argv[2]))
