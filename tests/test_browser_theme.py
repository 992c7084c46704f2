"""A project's own look in a real browser: a stylesheet added through each route a project has (the
extra_css setting, and the head block of its templates/base.html) and a script through extra_js,
applied on every page type of the documentary, in both languages."""

from __future__ import annotations

import pytest

from conftest import copy_project
from dossier.pipeline import build
from test_browser import PAGE_TYPES, serving

BASE = ('{% extends "dossier/base.html" %}'
        '{% block head %}<link rel="stylesheet" href="{{ rel(\'static/desk-head.css\') }}">{% endblock %}')
ROUTES = {
    "templates/static/desk-extra.css": ":root { --via-extra: yes; } body { border-top: 7px solid rgb(1, 2, 3); }\n",
    "templates/static/desk-head.css": ":root { --via-head: yes; } .site-footer { outline: 3px dashed rgb(4, 5, 6); }\n",
    "templates/static/desk.js": "document.documentElement.dataset.desk = 'ours';\n",
    "templates/base.html": BASE,
}
APPLIED = """() => {
  const root = getComputedStyle(document.documentElement), body = getComputedStyle(document.body);
  const footer = document.querySelector('.site-footer');
  return [root.getPropertyValue('--via-extra').trim(), root.getPropertyValue('--via-head').trim(), body.borderTopWidth, body.borderTopColor,
          footer ? getComputedStyle(footer).outlineColor : 'no footer', document.documentElement.dataset.desk || 'no script'];
}"""


@pytest.fixture(scope="module")
def desk_site(tmp_path_factory):
    """The documentary with a stylesheet added through extra_css, another through the head block, and a script through extra_js."""
    project = copy_project(tmp_path_factory.mktemp("desk") / "project")
    for relative, text in ROUTES.items():
        (project / relative).parent.mkdir(parents=True, exist_ok=True)
        (project / relative).write_text(text, encoding="utf-8")
    settings = project / "content/site.yaml"
    settings.write_text(settings.read_text(encoding="utf-8") + "extra_css: [static/desk-extra.css]\nextra_js: [static/desk.js]\n", encoding="utf-8")
    out = project / "site"
    build(project, out)
    with serving(out) as address:
        yield address


@pytest.mark.parametrize("prefix", ["", "es/"])
@pytest.mark.parametrize("kind", sorted(PAGE_TYPES))
def test_a_projects_stylesheets_and_script_apply_on_every_page_type(page, desk_site, kind, prefix):
    if kind.startswith("not found") and prefix:
        pytest.skip("one page not found serves every language")
    page.goto(desk_site + prefix + PAGE_TYPES[kind])
    page.wait_for_load_state("load")
    assert page.evaluate(APPLIED) == ["yes", "yes", "7px", "rgb(1, 2, 3)", "rgb(4, 5, 6)", "ours"]
