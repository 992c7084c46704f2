"""The dependency graph: which pages an edit to a person, an event, a source or a template re-renders."""

from __future__ import annotations

from pathlib import Path

import pytest

from dossier.incremental import graph
from dossier.pipeline import load
from dossier.render.pages import Renderer
from dossier.incremental.inputs import key_of
from dossier.incremental.pagereads import PageReads
from dossier.incremental.session import Session

PERSON = "content/people/jorge-torres.md"
EVENT = "content/events/aid-convoy.md"
SOURCE = "content/sources/ap.yaml"
TIMELINE = {"timeline/index.html", "timeline/people/jorge-torres/index.html", "timeline/places/cucuta/index.html"}
EVERY_FILTER_PAGE = {"content/site.yaml": "title: Test dossier\nlanguage: en\ntimeline: {filter_pages_over: 0}\n"}


@pytest.fixture
def make_site(make_site):
    """The shared small project, with a timeline filter page for every record of an event: the
    dependencies followed here include those of the filter pages."""
    return lambda files=None, **options: make_site({**EVERY_FILTER_PAGE, **(files or {})}, **options)


def affected(root: Path, path: str, old: str, new: str) -> tuple[set[str], bool] | None:
    """Edit one file of a project and return what the graph says must be rendered again."""
    before, _ = load(root)
    renderer = Renderer(before, root / "templates")
    for render in renderer.pages().values():
        render()  # each page records what it reads
    file = root / path
    file.write_text(file.read_text(encoding="utf-8").replace(old, new), encoding="utf-8")
    after, problems = load(root)
    assert [p for p in problems if p.severity == "error"] == []
    reads = PageReads()
    reads.update(renderer.reads)
    return graph.affected(before, after, {key_of(path)}, Renderer(after, root / "templates").pages(), reads)


def test_editing_a_persons_prose_renders_only_their_page(make_site):
    root = make_site()
    assert affected(root, PERSON, "Torres drove a truck.", "Torres drove a white truck.") == ({"people/jorge-torres/index.html"}, False)


def test_a_new_link_renders_the_page_it_points_to_which_lists_who_mentions_it(make_site):
    root = make_site()
    assert affected(root, PERSON, "See [[aid-convoy]].", "See [[aid-convoy]] in [[cucuta]].") == (
        {"people/jorge-torres/index.html", "places/cucuta/index.html"}, False)


def test_a_new_citation_renders_the_source_page_that_highlights_it(make_site):
    root = make_site()
    assert affected(root, PERSON, "See [[aid-convoy]].", 'See [[aid-convoy]].[@ap "We\'re going to change history"]') == (
        {"people/jorge-torres/index.html", "sources/ap/index.html"}, True)


def test_renaming_a_person_renders_every_page_that_shows_the_name(make_site):
    root = make_site()
    assert affected(root, PERSON, "name: Jorge Torres", "name: Jorge Torres Ruiz") == ({
        "people/jorge-torres/index.html",
        "events/aid-convoy/index.html",  # lists the people at the event, and "mentioned on"
        "places/cucuta/index.html",  # lists the people of the place
        "sources/ap/index.html",  # "cited by"
        "people/index.html",
        *TIMELINE,  # names the people of each event and the filters
        # not the home page, which counts the people but names none
    }, True)


def test_a_persons_summary_shows_on_lists_but_not_on_the_timeline(make_site):
    root = make_site()
    pages, exports = affected(root, PERSON, "summary: A sergeant.", "summary: A driver.")
    assert not pages & TIMELINE and {"people/index.html", "places/cucuta/index.html"} <= pages and exports


def test_an_events_date_renders_its_people_places_indexes_and_the_timeline(make_site):
    root = make_site()
    assert affected(root, EVENT, "date: 2019-02-23", "date: 2019-02-24") == ({
        "events/aid-convoy/index.html",
        "people/jorge-torres/index.html",  # the person's timeline, and the body link's "mentioned on"
        "places/cucuta/index.html",  # events here
        "events/index.html",
        "index.html",  # the home page's small picture of the timeline
        *TIMELINE,
        # not the source page, whose "cited by" names the event but shows no date
    }, True)


def test_a_sources_title_renders_every_page_that_cites_it(make_site):
    root = make_site()
    assert affected(root, SOURCE, "title: AP story", "title: The AP story") == ({
        "sources/ap/index.html",
        "people/jorge-torres/index.html", "events/aid-convoy/index.html", "places/cucuta/index.html",  # references
        "sources/index.html",
        *TIMELINE,  # each event lists its sources
    }, True)


def test_the_site_settings_render_everything(make_site):
    root = make_site()
    assert affected(root, "content/site.yaml", "title: Test dossier", "title: Another") is graph.EVERYTHING


def test_a_template_edit_renders_every_page_and_a_stylesheet_edit_only_the_assets(make_site):
    root = make_site()
    (root / "templates").mkdir()
    (root / "templates/404.html").write_text((Path(__file__).parent.parent / "dossier/templates/404.html").read_text(encoding="utf-8"), encoding="utf-8")
    session = Session(root)
    session.load()
    pages = session.render().rendered
    (root / "templates/404.html").write_text((root / "templates/404.html").read_text(encoding="utf-8").replace("<h1>", "<h1 class=\"gone\">"), encoding="utf-8")
    outcome = session.update(["templates/404.html"])
    assert outcome.rendered == pages == len(session.output.pages) and set(outcome.files) == {"404.html"}
    (root / "templates/static").mkdir()
    (root / "templates/static/extra.css").write_text("p { color: red }", encoding="utf-8")
    outcome = session.update(["templates/static/extra.css"])
    assert outcome.rendered == 0 and set(outcome.files) == {"static/extra.css"}


def test_an_event_renders_only_the_filter_pages_it_appears_on(make_site):
    root = make_site({
        "content/places/bogota.md": "---\nname: Bogotá\nsummary: The capital.\n---\nA city.[@ap \"across the bridge\"]\n",
        "content/events/arrival.md": (
            "---\ntitle: Arrival\ndate: 2019-03-01\nplaces: [bogota]\ntags: [travel]\nsummary: They arrived.\n---\n"
            'They arrived.[@ap "drove an armoured truck across the bridge"]\n'
        ),
    })
    pages, _ = affected(root, "content/events/arrival.md", "date: 2019-03-01", "date: 2019-03-02")
    timeline = {path for path in pages if path.startswith("timeline/")}
    assert timeline == {"timeline/index.html", "timeline/places/bogota/index.html", "timeline/tags/travel/index.html"}
    pages, _ = affected(root, "content/events/arrival.md", "places: [bogota]", "places: [cucuta]")
    timeline = {path for path in pages if path.startswith("timeline/")}
    assert timeline == {"timeline/index.html", "timeline/places/cucuta/index.html", "timeline/tags/travel/index.html"}  # Bogotá's is gone


def test_the_pages_reading_a_token_are_found_by_scanning_then_by_an_index_kept_through_edits_and_a_reload():
    import pickle

    from dossier.render.reads import token

    person, event, members = token("record", ("people", "torres")), token("label", ("events", "convoy")), token("members", "people")
    reads = PageReads()
    reads.update({"a.html": [person, members], "b.html": [event], "c.html": [members, event]})
    assert reads.readers is None and reads.reading([person]) == {"a.html"}  # the first question: every page's numbers scanned
    assert reads.reading([event, token("record", ("people", "nobody"))]) == {"b.html", "c.html"}  # the second builds the index
    assert reads.readers is not None
    reads["a.html"] = [event]  # rendered again: no longer reads the person, still named under it in the index
    reads.pop("c.html")  # gone
    assert reads.reading([person]) == set() and reads.reading([event]) == {"a.html", "b.html"} and reads.reading([members]) == set()
    assert reads["a.html"] == (event,) and "c.html" not in reads and len(reads) == 2
    restored = pickle.loads(pickle.dumps(reads))
    assert restored.readers is None and restored.reading([event]) == {"a.html", "b.html"} and restored.reading([members]) == set()
    assert restored.tokens[restored.numbers[event]] is event  # the one object for the token, as a page that renders reads it
    assert restored.reading([members]) == set() and restored.readers is not None  # asked twice: indexed
    built = restored.readers
    for _ in range(3):
        restored["b.html"] = [members]
        restored["b.html"] = [event]  # each time, entries left behind in the index
    assert restored.reading([members]) == set() and restored.readers is not built  # built again once they outnumber half of it
    assert restored.reading([event]) == {"a.html", "b.html"} and restored.stale == 0
