"""The theme: the package's templates and static files, which a project's templates/ overrides file by file."""

from __future__ import annotations

import re

import pytest
from jinja2 import nodes

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


HOOKS = ('{% extends "dossier/base.html" %}{% block head %}<meta name="x-desk" content="ours">{% endblock %}'
         '{% block header %}<p class="x-banner">Our desk</p>{{ super() }}{% endblock %}'
         '{% block footer %}{{ super() }}<p class="x-footer">Our footer</p>{% endblock %}')
EVERY_TYPE = {  # a page of every kind: a conflict, a derivative beside its original, a project's own type, the about page
    "templates/base.html": HOOKS,
    "content/conflicts/truck.md": "---\ntitle: The truck\nsummary: Two accounts.\nclaims:\n  - {source: ap, quote: drove an armoured truck, says: A truck.}\n---\nThey differ.[@ap \"Torres said\"]\n",
    "content/sources/ap-copy.yaml": "title: Copy\noutlet: X\nlanguage: en\nseed: ap.txt\nderived_from: ap\n",
    "content/groups/guard.md": "---\nname: The Guard\nsummary: A force.\n---\nA force.[@ap \"Torres said\"][@ap-copy \"Torres said\"]\n",
    "content/pages/about.md": "---\ntitle: About\n---\nAbout it.[@ap \"Torres said\"]\n",
    "content/site.yaml": "title: T\ntypes:\n  units:\n    singular: unit\n    fields: {name: {type: text, required: true}, summary: text}\n",
    "content/units/third.md": "---\nname: Third\nsummary: A unit.\n---\nA unit.[@ap \"Torres said\"]\n",
}


def test_every_page_honours_the_head_header_and_footer_blocks_of_a_projects_base(make_site):
    root = make_site(EVERY_TYPE)
    build(root, root / "site")
    pages = sorted((root / "site").rglob("*.html"))
    assert {"people/jorge-torres/index.html", "events/aid-convoy/index.html", "sources/ap/index.html", "sources/ap-copy/aligned/index.html",
            "conflicts/truck/index.html", "units/third/index.html", "timeline/index.html", "search/index.html", "claims/index.html",
            "404.html", "about/index.html", "index.html"} <= {p.relative_to(root / "site").as_posix() for p in pages}
    for path in pages:
        html = path.read_text(encoding="utf-8")
        head, body = html.split("</head>")
        assert '<meta name="x-desk" content="ours">' in head, path
        assert body.index('<p class="x-banner">Our desk</p>') < body.index('<header class="site-header">'), path
        assert body.index('<footer class="site-footer">') < body.index('<p class="x-footer">Our footer</p>'), path


RECORD_BLOCKS = {"record_header", "infobox", "record_body", "references"}


@pytest.mark.parametrize("template", ["person.html", "event.html", "place.html", "group.html", "conflict.html", "source.html", "record.html"])
def test_each_record_page_names_its_main_parts_as_blocks(template):
    from dossier.render.environment import template_environment

    env = template_environment(theme.template_folders(None), "en", "en")
    blocks: set[str] = set()
    name = template
    while name:  # the template and those it extends (place.html and group.html share within.html)
        blocks |= set(env.get_template(name).blocks)
        extends = next(iter(env.parse(env.loader.get_source(env, name)[0]).find_all(nodes.Extends)), None)
        name = extends.template.value if extends and extends.template.value != "base.html" else ""
    assert RECORD_BLOCKS <= blocks, template


def test_a_project_template_replaces_one_part_of_a_record_page_and_keeps_the_rest(make_site):
    root = make_site({"templates/person.html": '{% extends "dossier/person.html" %}{% block infobox %}<aside class="ours">{{ record.name }}</aside>{% endblock %}'})
    build(root, root / "site")
    page = read(root / "site", "people/jorge-torres/index.html")
    assert '<aside class="ours">Jorge Torres</aside>' in page and 'class="infobox"' not in page
    assert "<h1>Jorge Torres</h1>" in page and "Torres drove a truck." in page and 'class="references"' in page


def test_extra_css_and_extra_js_reach_every_page_after_the_themes(make_site):
    settings = ("title: T\nextra_css: [static/desk.css, https://cdn.example.org/fonts.css]\nextra_js: [static/desk.js]\n")
    root = make_site({"content/site.yaml": settings, "templates/static/desk.css": "body { color: black }\n", "templates/static/desk.js": "// ours\n"})
    build(root, root / "site")
    for path in sorted((root / "site").rglob("*.html")):
        html = path.read_text(encoding="utf-8")
        depth = "../" * (path.relative_to(root / "site").as_posix().count("/"))
        sheets = re.findall(r'<link rel="stylesheet" href="([^"]+)">', html)
        if path.name == "404.html":
            continue  # its links start from the root the page finds (see 404.html)
        assert sheets == [f"{depth}static/style.css", f"{depth}static/desk.css", "https://cdn.example.org/fonts.css"], path
        scripts = re.findall(r'<script src="([^"]+)" defer></script>', html)
        assert scripts[:3] == [f"{depth}static/site.js", f"{depth}static/search.js", f"{depth}static/search-box.js"]
        assert scripts[3] == f"{depth}static/desk.js", path


def test_an_extra_stylesheet_the_site_does_not_publish_is_an_error_at_its_line(make_site, capsys):
    from dossier.cli import main

    root = make_site({"content/site.yaml": "title: T\nextra_css:\n  - static/desk.css\n  - desk.css\n", "templates/static/desk.css": "p {}\n"})
    assert main(["check", "--source", str(root)]) == 1
    assert capsys.readouterr().err.splitlines()[0] == ("content/site.yaml:4: error: 'desk.css' in extra_css is no file of the site (did you mean "
                                                      "'static/desk.css'?): put the file in templates/static/ and write static/<its name>, or give an https:// address")


def test_rendering_looks_at_no_template_file_again_once_it_has_the_template(make_site, monkeypatch):
    """A page, and each timeline entry, asks for its template: Jinja would look at the file's time
    each time (auto_reload). That system call lets another thread take the interpreter's lock, and
    made thousands a second while the timeline's entries rendered, starving the threads that run
    Pagefind. A template edit makes new environments instead (see test_oracle)."""
    import os

    from dossier.pipeline import build

    looked: list[str] = []
    real = os.path.getmtime
    monkeypatch.setattr(os.path, "getmtime", lambda path: looked.append(str(path)) or real(path))
    root = make_site()
    report = build(root, root / "site", workers=1)
    assert report.rendered > 10
    templates = [path for path in looked if path.endswith(".html")]
    assert templates and len(templates) == len(set(templates))  # once, as it is loaded


def test_templates_call_functions_as_jinja_does_without_its_checks_for_plain_ones(monkeypatch):
    import functools

    import jinja2
    from dossier.render.environment import QuickCalls, template_environment

    class Counter:
        def __init__(self):
            self.seen = 0

        def bump(self, by):
            self.seen += by
            return self.seen

    def ending():
        raise StopIteration

    source = ("{{ plain(2) }} {{ cached(3) }} {{ counter.bump(4) }} {{ here() }} {{ env() }} {{ shown | default('undefined') }}"
              "{% for item in [1, 2] %}{% set inner = item * 10 %} {{ here() }}:{{ seen_inner() }}{% endfor %} {{ _('Sources') }} {{ stopped() }}")
    names = {"plain": lambda n: n * 2, "cached": functools.lru_cache(maxsize=4)(lambda n: n + 1), "counter": Counter(),
             "here": jinja2.pass_context(lambda context: context["shown"]), "env": jinja2.pass_environment(lambda env: type(env).__name__),
             "seen_inner": jinja2.pass_context(lambda context: context.get("inner", "none")), "shown": "page", "stopped": ending}
    rendered = {}
    for context_class in (jinja2.runtime.Context, QuickCalls):
        env = template_environment(theme.template_folders(None), "en", "en")
        env.undefined = jinja2.Undefined
        env.context_class = context_class
        names["counter"] = Counter()
        rendered[context_class] = env.from_string(source).render(**names)
    assert rendered[QuickCalls] == rendered[jinja2.runtime.Context]
    assert rendered[QuickCalls].startswith("4 4 4 page Environment page") and " page:10 page:20 Sources " in rendered[QuickCalls]

    asked = []
    checked = jinja2.runtime.Context.call
    monkeypatch.setattr(jinja2.runtime.Context, "call", lambda *args, **kwargs: asked.append(args[1]) or checked(*args, **kwargs))
    env = template_environment(theme.template_folders(None), "en", "en")
    assert env.context_class is QuickCalls
    env.from_string("{{ plain(2) }} {{ cached(3) }} {{ counter.bump(1) }} {{ here() }} {{ env() }}").render(**names)
    assert [getattr(f, "__name__", f) for f in asked] == ["<lambda>"] and asked[0] is names["env"]  # only pass_environment goes through Jinja's checks
