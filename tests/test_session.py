"""Incremental rebuilds: after every kind of edit, the session's output equals a build from scratch."""

from __future__ import annotations

import re
from pathlib import Path

from conftest import copy_project
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from dossier.render import theme
from dossier.text.passages import passage_id
from dossier.pipeline import load
from dossier.render.pages import Renderer
from dossier.incremental.session import Session

EXTRA = {
    "content/people/jose-gomez.md": (
        "---\nname: José Gómez\nsummary: Another sergeant.\naffiliations: [guard]\n---\n"
        'Gómez fled too.[@ap "going to change history"] He knew [[jorge-torres|Torres]].\n'
    ),
    "content/groups/guard.md": "---\nname: National Guard\nsummary: A force.\n---\nA force.[@ap \"drove an armoured truck\"]\n",
    "content/events/gomez-flees.md": (
        "---\ntitle: Gómez flees\ndate: 2019-02~\npeople: [jose-gomez]\ngroups: [guard]\ntags: [defection]\nsummary: He fled.\n---\n"
        'He fled.[@ap "across the bridge"]\n'
    ),
}


class Mirror:
    """A session and the folder of files its updates would write, compared with full builds."""

    def __init__(self, root: Path):
        self.root = root
        self.session = Session(root)
        self.session.load()
        self.files = dict(self.session.render().files)
        self.check("load")

    def edit(self, path: str, old: str | None, new: str | None, label: str) -> int:
        """Change, create (old None) or delete (new None) a file, update, and compare; return pages rendered."""
        file = theme.input_path(self.root, path)  # dossier/templates/... is the package's theme
        if new is None:
            file.unlink()
        elif old is None:
            file.parent.mkdir(parents=True, exist_ok=True)
            file.write_text(new, encoding="utf-8")
        else:
            text = file.read_text(encoding="utf-8")
            assert re.search(old, text), (label, old)
            file.write_text(re.sub(old, new, text, count=1), encoding="utf-8")
        outcome = self.session.update([path])
        for removed in outcome.removed:
            del self.files[removed]
        self.files.update(outcome.files)
        self.check(label)
        return outcome.rendered

    def check(self, label: str) -> None:
        """Compare the problems and every output file with a build from scratch."""
        site, problems = load(self.root)
        assert [str(p) for p in self.session.problems] == [str(p) for p in problems], label
        if any(p.severity == "error" for p in problems):
            return
        expected = Renderer(site, self.root / "templates").render_all()
        assert sorted(self.files) == sorted(expected), label
        assert [p for p in expected if self.files[p] != expected[p]] == [], label


def test_every_kind_of_edit_gives_what_a_full_build_gives(make_site):
    mirror = Mirror(make_site(EXTRA))
    person, event = "content/people/jorge-torres.md", "content/events/aid-convoy.md"
    assert mirror.edit(person, "Torres drove a truck.", "Torres drove a big truck.", "prose") == 2  # its page, and the claims page listing the sentence
    mirror.edit(person, "See \\[\\[aid-convoy\\]\\].", "See [[aid-convoy]] and [[guard]].", "a new link")
    mirror.edit(person, "\\[\\[guard\\]\\]", "[[guard|the Guard]]", "a link's label")
    mirror.edit(person, "See", '[@ap "Torres said"] See', "a new citation")
    mirror.edit(person, '\\[@ap "drove an armoured truck across the bridge"\\]', "", "a citation removed")
    mirror.edit(person, "name: Jorge Torres", "name: Jorge Torres Ruiz", "a new name")
    mirror.edit(person, "places: \\[cucuta\\]", "places: [cucuta]\naffiliations: [guard]", "a new affiliation")
    mirror.edit(event, "date: 2019-02-23", "date: 2019-01~", "an event's date")
    mirror.edit(event, "people: \\[jorge-torres\\]((?:.|\n)*)people: \\{jorge-torres:", "people: [jose-gomez]\\1people: {jose-gomez:", "an event's people")  # and its evidence
    mirror.edit(event, "summary: The convoy.", "summary: The convoy.\ntags: [aid]", "a new tag")
    mirror.edit("content/events/gomez-flees.md", "title: Gómez flees", "title: Gómez leaves", "an event's title")
    mirror.edit("content/groups/guard.md", "summary: A force.", "summary: A force.\nkind: armed force", "a group's kind")
    mirror.edit("content/places/cucuta.md", "name: Cúcuta", "name: Cucuta", "a place's name")
    mirror.edit("content/sources/ap.yaml", "title: AP story", "title: The AP story", "a source's title")
    mirror.edit("seeds/ap.txt", "something promotional", "something else", "a seed")
    mirror.edit("content/site.yaml", "title: Test dossier", "title: Another dossier", "the settings")


def test_relinked_passages_keep_the_order_of_the_text(make_site):
    mirror = Mirror(make_site())
    event = "content/events/aid-convoy.md"

    def passages_in_order() -> list[str]:
        linked, _ = load(mirror.root)
        assert list(mirror.session.site.passages["ap"]) == list(linked.passages["ap"])
        relinked, cold = mirror.session.site.passages["ap"].values(), linked.passages["ap"].values()
        assert [p.cited_by for p in relinked] == [p.cited_by for p in cold]
        assert all(type(p.cited_by) is tuple for p in [*relinked, *cold])  # mostly one record each: a tuple is 40 bytes less than a list
        return list(linked.passages["ap"])

    mirror.edit(event, "Torres spoke.", "Torres spoke again.", "prose, no new passage")
    before = passages_in_order()
    mirror.edit(event, "Torres spoke", 'He was a sergeant.[@ap "Sgt. Jorge Torres"] Torres spoke', "a passage before the others")
    assert passages_in_order() == [passage_id("Sgt. Jorge Torres"), *before]


def test_records_that_come_go_or_break_and_mend(make_site):
    mirror = Mirror(make_site(EXTRA))
    person = "content/people/jorge-torres.md"
    mirror.edit("content/people/ana.md", None, "---\nname: Ana\nsummary: A nurse.\n---\nShe saw [[jorge-torres]].[@ap \"Torres said\"]\n", "a new person")
    mirror.edit("content/pages/about.md", None, "---\ntitle: About\n---\nAbout [[ana]].\n", "an about page")
    mirror.edit(person, "\\[\\[aid-convoy\\]\\]", "[[aid-convoi]]", "a broken link")
    mirror.edit(person, "\\[\\[aid-convoi\\]\\]", "[[aid-convoy]]", "the link mended")
    mirror.edit(person, "name: Jorge Torres", "name: [Jorge", "broken YAML")
    mirror.edit(person, "name: \\[Jorge", "name: [Jorge Torres", "saved again, still broken")
    mirror.edit(person, "places: \\[cucuta\\]", "places: [cucuta, nowhere]", "a broken link in a file still broken")
    mirror.edit(person, "name: \\[Jorge Torres", "name: Jorge Torres", "the YAML mended")
    mirror.edit(person, "places: \\[cucuta, nowhere\\]", "places: [cucuta]", "the link mended too")
    mirror.edit("content/people/ana.md", None, None, "a person deleted")
    mirror.edit("content/people/jose-gomez.md", "\\[\\[jorge-torres\\|Torres\\]\\]", "Torres", "a link removed")
    mirror.edit("content/pages/about.md", None, None, "the about page deleted")


def test_stray_and_editor_files_change_nothing(make_site):
    mirror = Mirror(make_site(EXTRA))
    for name in (".jorge-torres.md.swp", "jorge-torres.md~", "4913", "#jorge-torres.md#"):
        (mirror.root / "content/people" / name).write_text("junk", encoding="utf-8")
        outcome = mirror.session.update([f"content/people/{name}"])
        (mirror.root / "content/people" / name).unlink()
        mirror.session.update([f"content/people/{name}"])
        assert outcome.files == {}, name
    mirror.check("after editor files")


def test_edits_to_the_real_documentary(tmp_path):
    mirror = Mirror(copy_project(tmp_path))
    for path, old, new in [
        ("content/people/jorge-torres.md", "Torres was a sergeant", "Torres was a National Guard sergeant"),
        ("content/people/jorge-torres.md", "name: Jorge Torres", "name: Jorge Luis Torres"),
        ("content/events/aid-convoy-blocked.md", 'date: "2019-02-23"', 'date: "2019-02-22"'),
        ("content/events/aid-convoy-blocked.md", "jose-gomez, injured-guardsman]", "injured-guardsman]"),  # off one person's filter page
        ("content/events/aid-convoy-blocked.md", "tags: [aid, border, violence, defection]", "tags: [aid, border, violence, defection, bridge]"),  # a new tag's page
        ("content/sources/npr-adrift.yaml", "outlet: NPR", "outlet: National Public Radio"),
    ]:
        mirror.edit(path, re.escape(old), new, path)


TRANSLATED = {
    "content/site.yaml": "title: Test dossier\nlanguage: en\nlanguages: [en, es]\n",
    "content/people/jorge-torres.md": (
        "---\nname: Jorge Torres\nsummary: A sergeant.\nroles: [sergeant]\nplaces: [cucuta]\n"
        "evidence: {places: {cucuta: \"[@ap \\\"drove an armoured truck across the bridge\\\"]\"}}\n---\n"
        'Torres drove a truck.[@ap "drove an armoured truck across the bridge"] See [[aid-convoy]].\n'
    ),
    "content/people/jorge-torres.es.md": (
        "---\nsummary: Un sargento.\nroles: [sargento]\n---\n"
        'Torres condujo un camión.[@ap "drove an armoured truck across the bridge"] Véase [[aid-convoy]].\n'
    ),
}


def test_edits_of_a_translated_record_relink_only_it_and_give_what_a_full_build_gives(make_site, monkeypatch):
    from dossier.incremental import linked

    mirror = Mirror(make_site(TRANSLATED))
    relinked: list[set] = []  # the records linked one by one, edit by edit (a full build, to compare, links them all)
    relink = linked.relink
    monkeypatch.setattr(linked, "relink", lambda site, records, failed, keys: relinked.append(keys) or relink(site, records, failed, keys))
    person, translation = "content/people/jorge-torres.md", "content/people/jorge-torres.es.md"
    cited = '\\[@ap "drove an armoured truck across the bridge"\\] Véase'
    for path, old, new, label in [
        (translation, "camión\\.", "camión.[@ap \"We’re going to change history\"]", "a passage it cites first, in its own words (the event's are ASCII)"),
        (person, "Torres drove a truck.", "Torres drove a big truck.", "the record's prose: the passage keeps the translation's words"),
        (translation, "Torres condujo un camión.", "Torres condujo un camión grande.", "the translation's prose"),
        (translation, cited, '[@ap "drove an armoured truck across the bridge"][@ap "Torres said"] Véase', "a passage only the translation cites"),
        (translation, '\\[@ap "Torres said"\\]', "", "that citation taken out: the passage is cited by no one"),
        (translation, "Véase \\[\\[aid-convoy\\]\\]", "Véase [[cucuta]]", "the translation links elsewhere"),
        (person, "name: Jorge Torres", "name: Jorge Torres Ruiz", "the record's name, under its translation"),
        (person, "Torres drove a big truck.", "Torres drove a large truck.", "the record's prose again"),
        (translation, "Véase \\[\\[cucuta\\]\\]", "Véase [[nobody]]", "a link of the translation's to no record"),
        (translation, "Véase \\[\\[nobody\\]\\]", "Véase [[cucuta]]", "mended"),
        (translation, "roles: \\[sargento\\]", "roles: [sargento, conductor]", "a translation that no longer fits its record"),
        (translation, "roles: \\[sargento, conductor\\]", "roles: [sargento]", "fitting again"),
        (translation, "camión grande.", 'camión grande.[@ap "Torres never said"]', "a quote that is not in the source"),
        (translation, '\\[@ap "Torres never said"\\]', "", "mended"),
    ]:
        mirror.edit(path, old, new, label)  # the problems, and every page, as a full build gives them
        assert relinked.pop() == {("people", "jorge-torres")}, label  # linked alone
    french = "content/people/jorge-torres.fr.md"  # a language dossier has no interface in: an error of its own
    mirror.edit(french, None, "---\nsummary: Un sergent.\n---\n", "a translation in a language dossier does not carry")
    mirror.edit(french, "summary", "sumary", "its problems change")


PERSON_VARIANTS = [
    None,  # deleted
    "---\nname: Jorge Torres\nsummary: A sergeant.\nplaces: [cucuta]\n---\nTorres drove a truck.[@ap \"drove an armoured truck across the bridge\"] See [[aid-convoy]].\n",
    "---\nname: Jorge Torres\nsummary: A sergeant.\n---\nTorres spoke.[@ap \"Torres said\"] See [[jose-gomez]] and [[cucuta]].\n",
    "---\nname: Sgt. Torres\nsummary: A driver.\naffiliations: [guard]\n---\nHe drove.[@ap \"across the bridge\"][@ap \"Torres said\"]\n",
    "---\nname: Jorge Torres\nsummary: [broken\n---\nText.\n",
]
EVENT_VARIANTS = [
    "---\ntitle: Aid convoy\ndate: 2019-02-23\npeople: [jorge-torres]\nplaces: [cucuta]\nsummary: The convoy.\n---\nTorres spoke.[@ap \"We're going to change history\"]\n",
    "---\ntitle: Aid convoy blocked\ndate: 2019-02~\npeople: [jose-gomez]\ntags: [aid]\nsummary: The convoy.\n---\nIt was blocked.[@ap \"across the bridge\"] See [[jorge-torres]].\n",
    "---\ntitle: Aid convoy\ndate: 2019-03-01\npeople: [jorge-torres, jose-gomez]\ngroups: [guard]\nsummary: The convoy.\n---\nTorres spoke.[@ap \"Torres said\"]\n",
]
PLACE_VARIANTS = [
    "---\nname: Cúcuta\nsummary: A border city.\n---\nA city.[@ap \"across the bridge\"]\n",
    "---\nname: Cucuta\nsummary: A city.\n---\nA city near [[aid-convoy]].[@ap \"across the bridge\"]\n",
]


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(st.tuples(st.sampled_from(["person", "event", "place"]), st.integers(0, 4)), min_size=1, max_size=3))
def test_any_sequence_of_edits_gives_what_a_full_build_gives(make_site, edits):
    mirror = Mirror(make_site(EXTRA))
    files = {"person": ("content/people/jorge-torres.md", PERSON_VARIANTS), "event": ("content/events/aid-convoy.md", EVENT_VARIANTS),
             "place": ("content/places/cucuta.md", PLACE_VARIANTS)}
    for which, number in edits:
        path, variants = files[which]
        text = variants[number % len(variants)]
        if text is None:
            if (mirror.root / path).exists():
                mirror.edit(path, None, None, f"{which} deleted")
        else:
            mirror.edit(path, None, text, f"{which} variant {number % len(variants)}")


def test_an_update_names_only_the_input_files_that_changed_not_an_editors_temporary_file(make_site):
    from dossier.serve.preview import edited_files

    root = make_site(EXTRA)
    session = Session(root)
    session.load()
    session.render()
    person = root / "content/people/jorge-torres.md"
    temporary = root / "content/people/sedwxZbn3"  # as `sed -i` saves: a new file renamed over the old
    temporary.write_text(person.read_text(encoding="utf-8").replace("A sergeant.", "A Guard sergeant."), encoding="utf-8")
    temporary.replace(person)
    outcome = session.update(["content/people/sedwxZbn3", "content/people/jorge-torres.md", "content/people/.jorge-torres.md.swp"])
    assert outcome.edited == ["content/people/jorge-torres.md"]
    assert edited_files(outcome.edited) == "content/people/jorge-torres.md"
    assert edited_files([f"seeds/{n}.txt" for n in range(5)]) == "seeds/0.txt, seeds/1.txt, seeds/2.txt and 2 more"
