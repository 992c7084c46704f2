"""The GitHub Actions problem matcher: its regexp reads the CLI's own problem lines, and the Pages
workflow registers it before checking and building, so that problems annotate pull requests."""

from __future__ import annotations

import json
import re

from conftest import PROJECT
from dossier.cli import main

MATCHER = PROJECT / ".github/dossier-problems.json"
WORKFLOW = PROJECT / ".github/workflows/pages.yml"


def test_the_matcher_reads_every_problem_line_the_cli_prints(make_site, capsys):
    root = make_site({
        "content/places/cucuta.md": "---\nname: Cúcuta\nsummary: [a\n---\n",  # line and column
        "content/people/jorge-torres.md": "---\nname: J\nsummary: S.\nplaces: [cucta]\n---\nA sergeant.\n",  # line; a warning
        "content/notes.txt": "stray",  # no line: a warning
    })
    assert main(["check", "--source", str(root)]) == 1
    lines = capsys.readouterr().err.splitlines()
    pattern = json.loads(MATCHER.read_text(encoding="utf-8"))["problemMatcher"][0]["pattern"][0]
    regexp = re.compile(pattern["regexp"])
    matched = {}
    for line in lines:
        found = regexp.search(line)
        if found:
            matched[line] = tuple(found.group(pattern[k]) if pattern.get(k) else None for k in ("file", "line", "column", "severity", "message"))
    assert matched["content/places/cucuta.md:3:10: error: invalid YAML: this '[' is never closed with ']'"] == (
        "content/places/cucuta.md", "3", "10", "error", "invalid YAML: this '[' is never closed with ']'")
    assert matched["content/people/jorge-torres.md:4: error: unknown place 'cucta' in 'places'"] == (
        "content/people/jorge-torres.md", "4", None, "error", "unknown place 'cucta' in 'places'")
    stray = "content/notes.txt: warning: ignored: only site.yaml belongs directly in content/"
    assert matched[stray] == ("content/notes.txt", None, None, "warning", "ignored: only site.yaml belongs directly in content/")
    assert set(matched) == {line for line in lines if ": error: " in line or ": warning: " in line}  # every problem, nothing else
    assert not regexp.search("1 error, 2 warnings") and not regexp.search("dossier: error: port 8000 on 127.0.0.1 is already in use")


def test_the_pages_workflow_registers_the_matcher_before_checking_and_building():
    workflow = WORKFLOW.read_text(encoding="utf-8")
    registered = workflow.index('echo "::add-matcher::.github/dossier-problems.json"')
    assert registered < workflow.index("run: make check") < workflow.index("run: make build")
    assert "pull_request:" in workflow
