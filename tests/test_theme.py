"""The theme: the package's templates and static files, which a project's templates/ overrides file by file."""

from __future__ import annotations

import pytest

from dossier.render import theme
from dossier.pipeline import build
from dossier.incremental.session import Session


def read(site, path: str) -> str:
    return (site / path).read_text(encoding="utf-8")


def test_a_project_template_replaces_the_packages_file_of_the_same_name_only(make_site):
    root = make_site({"templates/404.html": '{% extends "base.html" %}{% block main %}<h1>Gone astray</h1>{% endblock %}'})
    build(root, root / "site")
    assert "<h1>Gone astray</h1>" in read(root / "site", "404.html")
    assert "Page not found" not in read(root / "site", "404.html")
    assert "<h1>Jorge Torres</h1>" in read(root / "site", "people/jorge-torres/index.html")  # the package's person.html


def test_a_project_base_template_can_extend_the_packages_own(make_site):
    root = make_site({"templates/base.html": '{% extends "dossier/base.html" %}{% block head %}<meta name="x-desk" content="ours">{% endblock %}'})
    build(root, root / "site")
    page = read(root / "site", "places/cucuta/index.html")  # place.html leaves the block to base.html
    assert '<meta name="x-desk" content="ours">' in page and "<h1>Cúcuta</h1>" in page


def test_a_project_static_file_replaces_the_packages_and_new_ones_are_added(make_site):
    root = make_site({"templates/static/style.css": "body { color: black }\n", "templates/static/desk.js": "// ours\n"})
    build(root, root / "site")
    assert read(root / "site", "static/style.css") == "body { color: black }\n"
    assert read(root / "site", "static/desk.js") == "// ours\n"
    assert read(root / "site", "static/site.js") == (theme.PACKAGE_TEMPLATES / "static/site.js").read_text(encoding="utf-8")


def test_a_project_without_templates_builds_with_the_packages_theme(make_site):
    root = make_site()
    assert not (root / "templates").exists()
    build(root, root / "site")
    assert read(root / "site", "static/style.css") == (theme.PACKAGE_TEMPLATES / "static/style.css").read_text(encoding="utf-8")


def test_a_warm_build_sees_an_edit_of_the_packages_theme(make_site, package_theme):
    root = make_site()
    build(root, root / "site")
    (package_theme / "404.html").write_text(read(package_theme, "404.html").replace("<h1>", '<h1 class="lost">'), encoding="utf-8")
    (package_theme / "static/site.js").write_text(read(package_theme, "static/site.js") + "// edited\n", encoding="utf-8")
    build(root, root / "site")
    assert '<h1 class="lost">' in read(root / "site", "404.html")
    assert read(root / "site", "static/site.js").endswith("// edited\n")


def test_the_preview_renders_again_on_an_edit_of_the_packages_theme(make_site, package_theme):
    root = make_site()
    session = Session(root)
    session.load()
    session.render()
    (package_theme / "404.html").write_text(read(package_theme, "404.html").replace("<h1>", '<h1 class="lost">'), encoding="utf-8")
    outcome = session.update([f"{theme.THEME}/404.html"])
    assert '<h1 class="lost">' in outcome.files["404.html"].decode("utf-8")
    (root / "templates").mkdir()
    (root / "templates/404.html").write_text('{% extends "base.html" %}{% block main %}<h1>Ours</h1>{% endblock %}', encoding="utf-8")
    outcome = session.update(["templates/404.html"])
    assert "<h1>Ours</h1>" in outcome.files["404.html"].decode("utf-8")


@pytest.mark.parametrize("relative, part", [
    ("templates/person.html", "templates"),
    ("templates/static/style.css", "static"),
    ("dossier/templates/person.html", "templates"),
    ("dossier/templates/static/site.js", "static"),
    ("content/people/x.md", None),
    ("dossier/render.py", None),
    ("templates", None),
])
def test_theme_part_names_the_files_of_the_theme(relative, part):
    assert theme.theme_part(relative) == part


def test_the_package_theme_is_named_apart_from_the_projects_files(tmp_path):
    assert theme.input_path(tmp_path, "dossier/templates/base.html") == theme.PACKAGE_TEMPLATES / "base.html"
    assert theme.input_path(tmp_path, "templates/base.html") == tmp_path / "templates/base.html"
