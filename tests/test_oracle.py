"""The exhaustive oracle: an edit of every field of every record type, generated from the model's
declarations, gives in the preview's session and in a warm build from the command line exactly
what a cold build gives, byte for byte."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml
from test_model import UNIT_FILES
from test_session import EXTRA, Mirror

from conftest import BASE_FILES, tree
from dossier.model.record_types import FieldSpec
from dossier.pipeline import build, load
from dossier.model.problems import ContentError

PHOTO = bytes.fromhex("89504e470d0a1a0a0000000d49484452000000020000000108020000007b40e8dd0000000f49444154789c633c11a0c1c0c0000006ee014242ecc1d30000000049454e44ae426082")  # a PNG of 2 x 1 pixels
SECOND_SEED = "Sgt. Jorge Torres drove an armoured truck across the bridge.\nA translation, in part.\n"
PROJECT = {
    **EXTRA,
    **UNIT_FILES,
    "seeds/ap-copy.txt": SECOND_SEED,
    "media/photo.png": PHOTO,
    "seeds/ap-again.txt": None,  # written from ap.txt below: the same text under another name
    "content/sources/ap-copy.yaml": "title: AP copy\noutlet: A republisher\nlanguage: en\nseed: ap-copy.txt\nderived_from: ap\n",
    "content/places/villa.md": "---\nname: Villa Antigua\naliases: [La Villa]\nsummary: A neighbourhood.\nlocated_in: cucuta\n---\nA place.[@ap \"across the bridge\"]\n",
    "content/places/bogota.md": "---\nname: Bogotá\nsummary: The capital.\n---\nA city.[@ap \"across the bridge\"]\n",
    "content/groups/guard-unit.md": "---\nname: Guard unit\naliases: [The unit]\nsummary: Part of the guard.\npart_of: guard\n---\nA unit.[@ap-copy \"A translation\"]\n",
    "content/pages/about.md": "---\ntitle: About\n---\nAbout [[jorge-torres]] and [[aid-convoy]].\n",
    "content/units/second-company.md": "---\nname: Second Company\nsummary: Another unit.\n---\nA unit.[@ap \"Torres said\"]\n",
    "content/conflicts/truck.md": (  # its claims flag rows of ap-copy's page beside ap
        "---\ntitle: The truck\nsummary: Two accounts.\nclaims:\n  - {source: ap, quote: drove an armoured truck, says: A truck.}\n"
        "  - {source: ap-copy, quote: A translation, says: A translation.}\npeople: [jorge-torres]\n---\nThey differ.[@ap \"Torres said\"]\n"
    ),
}
EDITED = {  # the file whose fields are edited, for each collection: each is named by others
    "people": "content/people/jorge-torres.md", "events": "content/events/aid-convoy.md", "places": "content/places/cucuta.md",
    "groups": "content/groups/guard.md", "sources": "content/sources/ap.yaml", "pages": "content/pages/about.md",
    "units": "content/units/third-battalion.md", "conflicts": "content/conflicts/truck.md", "site": "content/site.yaml",
}
NEW_VALUES = {  # where a field's type alone cannot give a value that still reads as content
    "seed": "ap-again.txt", "language": "es", "date_basis": "inferred", "date_note": "Inferred from the story.",
    "age": {"years": 27, "as_of": "2019-02", "source": "ap", "quote": "Sgt. Jorge Torres"},
    "figures": [{"label": "Trucks", "value": "one", "source": "ap", "quote": "an armoured truck"}],
    "claims": [{"source": "ap", "quote": "Torres said", "says": "He said it."}],
    "inserted_lines": ["WATCH:", "READ MORE:"], "base_url": "https://example.org/dossier/",
    "reviewed": {"by": "A. Checker", "date": "2019-03-05", "digest": "0123456789ab", "sentences": ["89abcdef"]},
    "name_check": {"skip": ["ap-copy"], "strict": True}, "people_groups": [{"part": "witness", "heading": {"en": "Witnesses", "es": "Testigos"}}],
    "home_headings": {"figures": "How many", "featured": {"en": "Who it is about"}},
    "extra_css": ["https://example.org/desk.css"], "extra_js": ["https://example.org/desk.js"],
    "images": [{"file": "photo.png", "alt": "A photo", "credit": "Photo: A. Checker", "licence": "CC0 1.0"}],
    "translations": {"es": {"title": "Un expediente", "description": "Una descripción.", "tags": {"aid": "ayuda"}}},
    "timeline": {"filter_pages_over": 0},  # every record of an event gets its filter page, which none had
}
EVIDENCE = {  # evidence for facts each edited record holds by then (its lists have gained 'Changed' or an id)
    "jorge-torres": {"roles": {"Changed": '[@ap "Sgt. Jorge Torres"]'}, "places": {"cucuta": '[@ap-copy "A translation" sole]'}},
    "aid-convoy": {"date": '[@ap "Torres said"]', "people": {"jorge-torres": '[@ap "an armoured truck"]'}},
    "cucuta": {"located_in": '[@ap "across the bridge"]'},
    "guard": {"part_of": '[@ap-copy "A translation"]'},
}


def new_value(spec: FieldSpec, value: Any, rid: str, ids: dict[str, list[str]]) -> Any:
    """Return another valid value for a field, from its declared type."""
    if spec.type == "evidence":
        return EVIDENCE[rid]
    if spec.name in NEW_VALUES:
        return NEW_VALUES[spec.name]
    kind, _, target = spec.type.partition(":")
    if kind == "id":
        others = [other for other in ids[target] if other not in (rid, value)]
        return None if value and spec.name == "derived_from" else others[0]
    if kind == "ids":
        others = [other for other in ids[target] if other not in (value or []) and other != rid]
        return list(value or []) + others[:1]
    if kind == "enum":
        return next(choice for choice in target.split("|") if choice != value)
    return {
        "text": lambda: f"{value or ''} changed".strip(), "texts": lambda: list(value or []) + ["Changed"], "bool": lambda: not value,
        "int": lambda: (value or 0) + 1, "date": lambda: "2019-03-05", "url": lambda: "https://example.org/changed",
        "slugs": lambda: list(value or []) + ["changed"],
        "types": lambda: {**value, "units": {**value["units"], "fields": {**value["units"]["fields"], "motto": "text"}}},
    }[kind]()


def set_field(root: Path, path: str, name: str, value: Any) -> str:
    """Write a new value of one front-matter field into a content file; return its new text."""
    text = (root / path).read_text(encoding="utf-8")
    if path.endswith(".yaml"):
        meta, body = yaml.safe_load(text), None
    else:
        _, front, body = text.split("---\n", 2)
        meta = yaml.safe_load(front)
    if value is None:
        meta.pop(name, None)
    else:
        meta[name] = value
    dumped = yaml.safe_dump(meta, sort_keys=False, allow_unicode=True, width=1000)
    return dumped if body is None else f"---\n{dumped}---\n{body}"


class Oracle(Mirror):
    """A mirror that also builds from the command line after each edit, warm and cold, and compares them."""

    def __init__(self, root: Path, out: Path):
        super().__init__(root)
        self.out, self.cold = out / "warm", out / "cold"
        build(root, self.out)

    def check(self, label: str) -> None:
        super().check(label)
        if not hasattr(self, "out"):
            return
        try:
            build(self.root, self.out)
            warm: Any = tree(self.out)
        except ContentError as error:
            warm = [str(p) for p in error.problems]
        try:
            build(self.root, self.cold, use_cache=False)
            cold: Any = tree(self.cold)
        except ContentError as error:
            cold = [str(p) for p in error.problems]
        if isinstance(warm, dict) and isinstance(cold, dict):
            assert [path for path in sorted({*warm, *cold}) if warm.get(path) != cold.get(path)] == [], label
        else:
            assert warm == cold, label


# A project theme that shows little: what a page does not show, it must not depend on, and what it
# shows it must depend on exactly (the package's templates read so much that a missing dependency
# is often masked by another). Each record's page shows its name, its body, its references with
# their sources' outlets, every person (a collection gone through without first asking whether it
# is empty) and, on a source's page, the records that cite it.
MINIMAL_RECORD = (
    "<!DOCTYPE html>\n<html lang=\"{{ lang }}\"><title>{{ record.label }}</title>\n<h1>{{ record.label }}</h1>\n{{ body_html }}\n"
    "<ol>{% for r in page.references %}<li>{{ r.source.outlet }}: {{ r.source.title }}</li>{% endfor %}</ol>\n"
    "<p>{% for person in site.records.people.values() %}{{ person.name }}; {% endfor %}</p>\n"
)
MINIMAL_SOURCE = MINIMAL_RECORD + "<p>Cited by {% for key in site.cited_by.get(record.id, []) %}{{ site.get(key).label }}; {% endfor %}</p>\n"
MINIMAL_THEME = {f"templates/{name}.html": MINIMAL_SOURCE if name == "source" else MINIMAL_RECORD
                 for name in ("person", "event", "place", "group", "conflict", "page", "unit", "source")}


@pytest.fixture(params=["package theme", "minimal project theme"])
def oracle(request, make_site, tmp_path, package_theme) -> Oracle:
    root = make_site({**PROJECT, **(MINIMAL_THEME if request.param == "minimal project theme" else {})})
    (root / "seeds/ap-again.txt").write_bytes((root / "seeds/ap.txt").read_bytes())
    return Oracle(root, tmp_path)


@pytest.mark.parametrize("collection", list(EDITED))
def test_an_edit_of_every_field_gives_what_a_cold_build_gives(oracle, collection):
    site, _ = load(oracle.root)
    ids = {kind: sorted(records) for kind, records in site.records.items()}
    path = EDITED[collection]
    rtype = site.model[collection] if collection != "site" else None
    fields = rtype.fields if rtype else __import__("dossier.model.record_types", fromlist=["SETTINGS"]).SETTINGS.fields
    record = site.records[collection][Path(path).stem] if rtype else site.config
    for spec in fields:
        value = new_value(spec, getattr(record, spec.name, None) if spec.name != "types" else yaml.safe_load((oracle.root / path).read_text())["types"],
                          record.id, ids)
        oracle.edit(path, None, set_field(oracle.root, path, spec.name, value), f"{collection}.{spec.name}")
        if spec.name == "draft":  # a draft leaves the build (an error where others name it): undone, or no later edit would show
            oracle.edit(path, None, set_field(oracle.root, path, "draft", None), f"{collection}.draft undone")


@pytest.mark.parametrize("collection", [collection for collection in EDITED if collection != "site"])
def test_joining_and_leaving_a_value_another_record_holds_gives_what_a_cold_build_gives(oracle, collection):
    """A list field (ids, tags, texts) takes a value another record of its collection already holds,
    then gives it up: the pages listing that value existed before and after, so only what each read
    can tell that they must render again (an event joining a tag another event has, and leaving it)."""
    site, _ = load(oracle.root)
    path = EDITED[collection]
    rid = Path(path).stem
    record = site.records[collection][rid]
    joined = []
    for spec in site.model[collection].fields:
        if spec.type.partition(":")[0] not in ("ids", "slugs", "texts"):
            continue
        held = list(getattr(record, spec.name, None) or [])
        shared = sorted({value for other in site.records[collection].values() if other.id != rid
                         for value in getattr(other, spec.name, None) or [] if value not in held and value != rid})
        if not shared:
            continue
        oracle.edit(path, None, set_field(oracle.root, path, spec.name, held + shared[:1]), f"{collection}.{spec.name} joins {shared[0]!r}")
        oracle.edit(path, None, set_field(oracle.root, path, spec.name, held or None), f"{collection}.{spec.name} leaves {shared[0]!r}")
        joined.append(spec.name)
    assert joined or collection in ("sources", "pages", "conflicts", "units"), collection  # each collection whose records share values is tried


def test_edits_of_bodies_templates_and_seeds_give_what_a_cold_build_gives(oracle):
    oracle.edit(EDITED["people"], "He served in", "He served, with [[bogota]], in", "a body's new link")
    oracle.edit(EDITED["events"], "Torres spoke.", 'Torres spoke.[@ap "across the bridge"]', "a body's new citation")
    oracle.edit(EDITED["units"], "Its sergeant", "Its sergeant, [[villa]],", "a project type's body")
    oracle.edit("content/sources/ap.yaml", "seed: ap.txt", "seed: ap.txt\nnotes: Read with care.[@ap \"Torres said\"]", "a source's notes")
    oracle.edit("templates/unit.html", "<h1>", "<h1 class=\"unit-name\">", "a template")
    oracle.edit("dossier/templates/person.html", "<h1>", "<h1 class=\"person-name\">", "a template of the package")
    oracle.edit("templates/person.html", None, "{% extends \"dossier/person.html\" %}{% block og_type %}person{% endblock %}", "a template overridden")
    oracle.edit("dossier/templates/static/site.js", "$", "\n// edited\n", "a static file of the package")
    oracle.edit("templates/static/site.js", None, "// the project's own\n", "a static file overridden")
    oracle.edit("templates/person.html", "person", None, "an override removed")
    oracle.edit("seeds/ap.txt", "something promotional", "something else", "a seed")
    oracle.edit("content/people/ana.md", None, "---\nname: Ana\nsummary: A nurse.\n---\nShe met [[second-company]].[@ap \"Torres said\"]\n", "a record added")
    oracle.edit("content/units/second-company.md", None, None, "a project type's record deleted")


def test_on_a_timeline_split_by_year_and_month_an_events_edits_give_what_a_cold_build_gives(make_site, tmp_path, monkeypatch):
    monkeypatch.setattr("dossier.render.timeline.PAGE_EVENTS", 2)  # three events in February 2019: a page for each month
    root = make_site({**PROJECT, "content/events/later.md": "---\ntitle: Later\ndate: 2019-02-26\nsummary: S.\n---\nLater.[@ap \"across the bridge\"]\n"})
    (root / "seeds/ap-again.txt").write_bytes((root / "seeds/ap.txt").read_bytes())
    oracle = Oracle(root, tmp_path)
    assert (tmp_path / "warm/timeline/2019/02/index.html").is_file()
    event = "content/events/later.md"
    oracle.edit(event, "date: 2019-02-26", "date: 2019-03-02", "an event moved to another month")
    oracle.edit(event, "date: 2019-03-02", "date: 2018-12-30", "an event moved to another year: 2019 is one page again")
    oracle.edit(event, "title: Later", "title: Later still", "an event's title")
    oracle.edit(event, "date: 2018-12-30", "date: 2019-02-28", "an event back: 2019 split by month again")
    oracle.edit(event, None, None, "an event deleted: the timeline is one page again")


def test_a_record_passing_the_filter_pages_threshold_and_back_gives_what_a_cold_build_gives(make_site, tmp_path):
    root = make_site({**PROJECT, "content/site.yaml": PROJECT["content/site.yaml"] + "timeline: {filter_pages_over: 1}\n"})
    (root / "seeds/ap-again.txt").write_bytes((root / "seeds/ap.txt").read_bytes())
    oracle = Oracle(root, tmp_path)
    assert not (tmp_path / "warm/timeline/people/jorge-torres").exists()  # in one event: his page lists it
    event = "content/events/gomez-flees.md"
    oracle.edit(event, r"people: \[jose-gomez\]", "people: [jose-gomez, jorge-torres]", "a second event: a filter page of his own")
    assert (tmp_path / "warm/timeline/people/jorge-torres/index.html").is_file()
    oracle.edit(event, r"people: \[jose-gomez, jorge-torres\]", "people: [jose-gomez]", "one event again: no filter page")
    assert not (tmp_path / "warm/timeline/people/jorge-torres").exists()


CATALOG = "dossier/locale/es/LC_MESSAGES/dossier.po"


def test_an_edit_of_a_catalog_renders_the_pages_of_its_language_as_a_cold_build_does(make_site, tmp_path, package_theme, package_catalogs):
    root = make_site({**PROJECT, "content/site.yaml": PROJECT["content/site.yaml"] + "languages: [en, es]\n"})
    (root / "seeds/ap-again.txt").write_bytes((root / "seeds/ap.txt").read_bytes())
    oracle = Oracle(root, tmp_path)
    pages = {path for path in oracle.files if path.endswith(".html")}
    rendered = oracle.edit(CATALOG, 'msgstr "Ir al contenido"', 'msgstr "Saltar al contenido"', "a template's string, on every page of its language")
    assert rendered == len(pages)  # each page names the other language in its words: the switcher, the page for a missing address
    assert "Saltar al contenido" in oracle.files["es/people/jorge-torres/index.html"].decode()
    oracle.edit(CATALOG, 'msgstr\\[0\\] "%\\(num\\)d fuente"', 'msgstr[0] "%(num)d fuente independiente"', "a string of a rendered body: the count of sources after a claim")
    assert "1 fuente independiente" in oracle.files["es/people/jorge-torres/index.html"].decode()


def test_an_edit_of_a_catalog_of_a_language_the_site_is_not_in_renders_nothing(make_site, tmp_path, package_catalogs):
    oracle = Oracle(make_site(), tmp_path)
    assert oracle.edit(CATALOG, 'msgstr "Ir al contenido"', 'msgstr "Saltar al contenido"', "the Spanish catalog, on an English site") == 0


NPR = {  # a source that jorge-torres cites only in his facts' evidence, never in his body
    "seeds/npr.txt": "Torres crossed into Colombia in February.\n",
    "content/sources/npr.yaml": "title: NPR story\noutlet: NPR\nlanguage: en\nseed: npr.txt\n",
    "content/people/jorge-torres.md": BASE_FILES["content/people/jorge-torres.md"].replace(
        "evidence: {places: {cucuta: \"[@ap \\\"drove an armoured truck across the bridge\\\"]\"}}", "evidence: {places: {cucuta: '[@npr \"crossed into Colombia\"]'}}"),
}


def test_a_source_cited_only_in_a_facts_evidence_and_shown_by_a_projects_template(make_site, tmp_path):
    root = make_site({**NPR, **MINIMAL_THEME})
    oracle = Oracle(root, tmp_path)
    assert "NPR: NPR story" in oracle.files["people/jorge-torres/index.html"].decode()  # the reference list shows the source
    assert oracle.edit("content/sources/npr.yaml", "outlet: NPR", "outlet: National Public Radio", "the source's outlet, shown on the page citing it") >= 2
    assert "National Public Radio: NPR story" in oracle.files["people/jorge-torres/index.html"].decode()
    oracle.edit("content/sources/npr.yaml", "title: NPR story", "title: The NPR story", "its title")
    oracle.edit("content/people/jorge-torres.md", "@npr .crossed into Colombia.", "@npr \"Torres crossed\"", "another passage of it")
    oracle.edit("content/people/jorge-torres.md", '@npr "Torres crossed"', '@ap "across the bridge"', "the evidence cites another source: the first lists the record no more")
    assert "Jorge Torres" not in oracle.files["sources/npr/index.html"].decode().split("Cited by")[1]


def test_a_projects_template_going_through_a_collection_without_asking_if_it_is_empty(make_site, tmp_path):
    root = make_site({"content/pages/about.md": "---\ntitle: About\n---\nAbout us.[@ap \"Torres said\"]\n",
                      "templates/page.html": "<!DOCTYPE html>\n<title>{{ record.label }}</title>\n<ul>{% for person in site.records.people.values() %}<li>{{ person.name }}</li>{% endfor %}</ul>\n"})
    oracle = Oracle(root, tmp_path)
    assert "<li>Jorge Torres</li>" in oracle.files["about/index.html"].decode()
    oracle.edit("content/people/ana.md", None, "---\nname: Ana Ruiz\nsummary: A nurse.\n---\nShe crossed.[@ap \"across the bridge\"]\n", "a person added: the list grows")
    assert "<li>Ana Ruiz</li>" in oracle.files["about/index.html"].decode()
    oracle.edit("content/people/ana.md", None, None, "and deleted")


def test_a_change_to_dossiers_code_in_a_subpackage_gives_in_a_warm_build_what_a_cold_build_gives(make_site, tmp_path, monkeypatch):
    """Upgrading dossier changes its modules, at any depth: a warm build must not keep what the old
    code made (here the claim anchors every body holds, placed by code in render/ and text/)."""
    from test_cache import package_code

    from dossier.incremental import cache
    from dossier.render.context import PageContext

    root = make_site(PROJECT)
    (root / "seeds/ap-again.txt").write_bytes((root / "seeds/ap.txt").read_bytes())
    package = package_code(tmp_path / "installed")
    monkeypatch.setattr(cache, "PACKAGE", package)
    warm, cold = tmp_path / "warm", tmp_path / "cold"
    build(root, warm)
    claim = PageContext.claim
    monkeypatch.setattr(PageContext, "claim", lambda self, number: claim(self, number).replace('class="claim"', 'class="claim sentence"'))
    module = package / "text/sentences.py"
    module.write_text(module.read_text(encoding="utf-8") + "\n# the new code\n", encoding="utf-8")
    build(root, warm)
    build(root, cold, use_cache=False)
    assert 'class="claim sentence"' in (cold / "people/jorge-torres/index.html").read_text(encoding="utf-8")
    assert [path for path in sorted({*tree(warm), *tree(cold)}) if tree(warm).get(path) != tree(cold).get(path)] == []
