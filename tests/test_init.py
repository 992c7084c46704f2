"""dossier init: a new project, from the example the package ships, that checks, builds and previews as it is."""

from __future__ import annotations

import pytest

from dossier.cli import main
from dossier.editors.new_project import EXAMPLE
from dossier.pipeline import build, check
from dossier.publish.staging import walk_files


def test_init_writes_a_project_that_passes_a_strict_check_and_builds(tmp_path, capsys):
    folder = tmp_path / "new documentary"
    assert main(["init", str(folder)]) == 0
    printed = capsys.readouterr().out
    assert "cd '" + str(folder) + "'" in printed and "dossier serve" in printed
    for kind in ("people", "events", "places", "groups", "sources", "pages"):
        assert list((folder / "content" / kind).iterdir()), kind
    assert (folder / "seeds/example-gazette.txt").is_file() and (folder / "Makefile").is_file()
    assert "site/" in (folder / ".gitignore").read_text(encoding="utf-8").splitlines()
    assert check(folder, strict=True) == []
    report = build(folder, folder / "site")
    assert report.pages == {"events": 1, "groups": 1, "people": 1, "places": 1, "sources": 1}
    assert "Maria Sample" in (folder / "site/people/maria-sample/index.html").read_text(encoding="utf-8")


def test_init_into_an_empty_folder_is_fine(tmp_path):
    assert main(["init", str(tmp_path)]) == 0
    assert (tmp_path / "content/site.yaml").is_file()


@pytest.mark.parametrize("existing, message", [
    ("folder", "is not empty: give a new or empty folder"),
    ("file", "is a file: give a new or empty folder"),
])
def test_init_refuses_a_folder_that_is_not_empty_in_one_line(tmp_path, capsys, existing, message):
    target = tmp_path / "doc"
    if existing == "folder":
        target.mkdir()
        (target / "notes.txt").write_text("mine", encoding="utf-8")
    else:
        target.write_text("mine", encoding="utf-8")
    assert main(["init", str(target)]) == 2
    assert capsys.readouterr().err == f"dossier: error: {target} {message}\n"
    left = target / "notes.txt" if existing == "folder" else target
    assert left.read_text(encoding="utf-8") == "mine"  # untouched


def test_the_example_says_it_is_an_example_and_cites_only_its_own_text():
    seed = (EXAMPLE / "seeds/example-gazette.txt").read_text(encoding="utf-8")
    assert "This is an example article" in seed
    assert list(walk_files(EXAMPLE / "content/sources")) == ["example-gazette.yaml"]

