"""The site's model: a record type declared by the project gets everything a built-in type gets,
and mistakes in its declaration are reported at their line."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from dossier.cli import main
from dossier.pipeline import build, load
from dossier.model.problems import ContentError

UNITS = """\
title: Test dossier
language: en
types:
  units:
    singular: unit
    title: Units
    fields:
      name: {type: text, required: true, doc: the unit's name}
      summary: {type: text, required: true}
      based_in: {type: "id:places", inverse: "Units based here"}
      members: {type: "ids:people", inverse: "Units"}
      events: {type: "ids:events", facet: involving, inverse: "Units involved"}
      formed: date
"""
UNIT_TEMPLATE = """\
{% extends "base.html" %}
{% from "macros.html" import mentions, references, related_lists with context %}
{% block title %}{{ record.name }} · {{ config.title }}{% endblock %}
{% block main %}
<article class="record unit" data-pagefind-body data-pagefind-meta="type:Unit">
<h1>{{ record.name }}</h1>
<p class="lede">{{ record.summary }}</p>
{% if record.based_in %}<p class="based">Based in <a href="{{ rel(site.records.places[record.based_in].page_url) }}">{{ site.records.places[record.based_in].name }}</a></p>{% endif %}
<div class="body">{{ body_html }}</div>
{{ related_lists(related) }}
{{ mentions(site, key) }}
{{ references(page) }}
</article>
{% endblock %}
"""
UNIT_FILES = {
    "content/site.yaml": UNITS,
    "templates/unit.html": UNIT_TEMPLATE,
    "content/units/third-battalion.md": (
        "---\nname: Third Battalion\nsummary: A unit at the bridge.\nbased_in: cucuta\nmembers: [jorge-torres]\n"
        "events: [aid-convoy]\nformed: 2019-02\n---\nIts sergeant drove a truck.[@ap \"drove an armoured truck\"] See [[jorge-torres]].\n"
    ),
    "content/people/jorge-torres.md": (
        "---\nname: Jorge Torres\nsummary: A sergeant.\nplaces: [cucuta]\n---\n"
        'Torres drove a truck.[@ap "drove an armoured truck across the bridge"] He served in [[third-battalion]].\n'
    ),
}


def html(site: Path, path: str) -> str:
    return (site / path).read_text(encoding="utf-8")


def test_a_project_type_gets_pages_links_backlinks_a_facet_and_exports(make_site, tmp_path):
    root = make_site(UNIT_FILES)
    out = tmp_path / "site"
    build(root, out)
    unit = html(out, "units/third-battalion/index.html")
    assert "<h1>Third Battalion</h1>" in unit and 'class="based">Based in <a href="../../places/cucuta/">Cúcuta</a>' in unit
    assert 'href="../../people/jorge-torres/">Jorge Torres</a>' in unit  # the body's link
    assert "Mentioned on" in unit  # Torres's page links to it
    person = html(out, "people/jorge-torres/index.html")
    assert '<a href="../../units/third-battalion/">Third Battalion</a>' in person  # the link, with the unit's name
    assert '<h2 id="units-members-heading">Units</h2>' in person  # listed back through 'members'
    place = html(out, "places/cucuta/index.html")
    assert "Units based here" in place and "Third Battalion" in place
    event = html(out, "events/aid-convoy/index.html")
    assert "Units involved" in event
    assert '<a href="units/">Units</a>' in html(out, "index.html")  # in the navigation, with an index page
    assert "Third Battalion" in html(out, "units/index.html")
    assert not (out / "timeline/units").exists()  # in one event: its filter is its own page, which lists it
    timeline = html(out, "timeline/index.html")
    assert 'data-units="third-battalion"' in timeline and ">Units <span" in timeline
    assert 'href="../units/third-battalion/" data-filter="units:third-battalion"' in timeline
    (root / "content/site.yaml").write_text(UNITS + "timeline: {filter_pages_over: 0}\n", encoding="utf-8")
    build(root, out)
    facet = html(out, "timeline/units/third-battalion/index.html")  # every record's filter page: the project type's too
    assert 'id="aid-convoy"' in facet and "involving Third Battalion" in facet
    exported = json.loads(html(out, "data/site.json"))
    assert exported["units"] == [{
        "id": "third-battalion", "name": "Third Battalion", "summary": "A unit at the bridge.", "based_in": "cucuta",
        "members": ["jorge-torres"], "events": ["aid-convoy"], "formed": "2019-02", "url": "units/third-battalion/",
    }]


def test_a_project_type_without_a_template_gets_a_generic_page(make_site, tmp_path):
    root = make_site({**UNIT_FILES, "templates/unit.html": None})
    out = tmp_path / "site"
    build(root, out)
    unit = html(out, "units/third-battalion/index.html")
    assert "<h1>Third Battalion</h1>" in unit
    assert '<dt>Based in</dt>' in unit and '<a href="../../places/cucuta/">Cúcuta</a>' in unit
    assert "<dt>Formed</dt>\n  <dd>February 2019</dd>" in unit


def test_new_writes_a_project_type_from_its_declaration(make_site, capsys):
    root = make_site(UNIT_FILES)
    assert main(["new", "unit", "Fourth Brigade", "--source", str(root)]) == 0
    text = (root / "content/units/fourth-brigade.md").read_text(encoding="utf-8")
    assert text.startswith('---\n# yaml-language-server: $schema=../../schemas/unit.schema.json\ndraft: true  # true while being written: previewed under a banner, left out of build unless --drafts\n'
                           'name: "Fourth Brigade"  # the unit\'s name (required)\nsummary: ""  # required\n'
                           "based_in:\nmembers: []\nevents: []\nformed:\n---\n")
    assert main(["new", "regiment", "X", "--source", str(root)]) == 2
    assert "'new' makes one of conflict, event, group, person, place, source, unit, not 'regiment'" in capsys.readouterr().err


def test_mistakes_in_a_type_declaration_are_reported_at_their_line(make_site):
    root = make_site({"content/site.yaml": (
        "title: T\ntypes:\n  units:\n    singular: unit\n    fields:\n      name: text\n      base: {type: \"id:plaeces\"}\n"
        "      size: {type: number}\n  people:\n    singular: human\n    fields: {name: text}\n"
    )})
    with pytest.raises(ContentError) as raised:
        load_or_raise(root)
    messages = [str(p) for p in raised.value.problems]
    assert "content/site.yaml:7: error: field 'base' of type 'units' names 'plaeces', which is not a record type (did you mean 'places'?)" in messages
    assert "content/site.yaml:8: error: field 'size' of type 'units' has type 'number'; use one of text, texts, bool, int, date, url, slugs, id:<type>, ids:<type>, enum:a|b" in messages
    assert "content/site.yaml:9: error: type name 'people' is taken by dossier; choose another" in messages


def load_or_raise(root: Path) -> None:
    _, problems = load(root)
    if any(p.severity == "error" for p in problems):
        raise ContentError(problems)
