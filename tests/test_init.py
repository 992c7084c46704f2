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



def test_a_new_project_with_four_stored_articles_passes_make_check_and_an_uncited_sentence_fails_it(tmp_path, capsys):
    """As a journalist starts: init, then four articles stored with add-source, then make check
    (check --strict), setting nothing they were not told about."""
    import html

    from conftest import PROJECT

    folder = tmp_path / "desk"
    assert main(["init", str(folder)]) == 0
    for seed in ("ap-desertion", "ap-desertion-translation", "npr-adrift", "wapo-military"):
        paragraphs = (PROJECT / "seeds" / f"{seed}.txt").read_text(encoding="utf-8").split("\n\n")
        body = "".join(f"<p>{html.escape(p)}</p>" for p in paragraphs if p.strip())
        saved = tmp_path / f"{seed}.html"
        saved.write_text(f'<!doctype html><html lang="en"><head><title>{seed} | The Wire</title><meta property="og:site_name" content="The Wire">'
                         f"</head><body><article><h1>{seed}</h1>{body}</article></body></html>", encoding="utf-8")
        assert main(["add-source", str(saved), "--id", seed, "--source", str(folder)]) == 0
    cites = {"ap-desertion": "Over 270 mostly low-ranking soldiers", "ap-desertion-translation": "270 people in uniform",
             "npr-adrift": "We were left adrift.", "wapo-military": "As of Friday"}
    body = "".join(f'The {seed} story says so.[@{seed} "{quote}"]\n' for seed, quote in cites.items())
    (folder / "content/pages/sources-said.md").write_text("---\ntitle: What the sources said\n---\n" + body, encoding="utf-8")
    capsys.readouterr()
    assert main(["check", "--strict", "--source", str(folder)]) == 0  # the stored articles' many names are advisory warnings
    err = capsys.readouterr().err.splitlines()
    assert ": error: " not in "\n".join(err) and err[-1].endswith(" names no record covers"), err[-1]
    named = sum(": warning: " in line and "is named here but no record covers it" in line for line in err)
    assert named > 5 and err[-1] == f"{named} warnings: {named} names no record covers"  # under --strict every one is printed, as a warning

    person = folder / "content/people/maria-sample.md"
    person.write_text(person.read_text(encoding="utf-8") + "She says nothing the gazette prints.\n", encoding="utf-8")
    assert main(["check", "--strict", "--source", str(folder)]) == 1
    err = capsys.readouterr().err.splitlines()
    assert any(line.startswith("content/people/maria-sample.md:7:1: error: sentence cites no source") for line in err)
    assert err[-1].startswith("1 error: 1 uncited sentence;") and err[-1].endswith("; --strict makes warnings errors")
