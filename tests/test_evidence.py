"""Evidence for structured facts (dossier/check/evidence.py): cited under `evidence:`, or derived from a
cited sentence of the body that links to the named record; unsupported facts are warnings, errors
under --strict."""

from __future__ import annotations

import pytest

from dossier.cli import main
from dossier.check.evidence import facts, sentences
from dossier.model.record_types import BUILT_IN
from dossier.incremental.session import Session
from test_browser import served  # noqa: F401 (fixture)

COPY = "content/sources/ap-copy.yaml"
COPY_TEXT = "title: Copy\noutlet: X\nlanguage: en\nseed: ap.txt\nderived_from: ap\n"


def person(front: str, body: str = 'Torres drove a truck.[@ap "drove an armoured truck across the bridge"]\n') -> str:
    return "---\nname: Jorge Torres\naliases: [Jorge Torres]\nsummary: A sergeant.\n" + front + "---\n" + body


def problems(capsys, root, *options: str) -> tuple[int, list[str]]:
    code = main(["check", *options, "--source", str(root)])
    return code, [line for line in capsys.readouterr().err.splitlines() if ": error: " in line or ": warning: " in line]


def test_explicit_evidence_is_verified_and_supports_its_facts(make_site, capsys):
    root = make_site({"content/people/jorge-torres.md": person(
        "roles: [sergeant, driver]\nplaces: [cucuta]\nstatus: Deserted\nevidence:\n"
        "  roles:\n    sergeant: '[@ap \"Sgt. Jorge Torres\"]'\n    driver: '[@ap \"drove an armoured truck\"]'\n"
        "  places:\n    cucuta: '[@ap \"across the bridge\"]'\n"
        "  status: '[@ap \"across the bridge\"][@ap \"Torres said\"]'\n")})
    assert problems(capsys, root, "--strict") == (0, [])


def test_a_misquote_in_evidence_is_an_error_at_its_line(make_site, capsys):
    root = make_site({"content/people/jorge-torres.md": person(
        "roles: [sergeant]\nevidence:\n  roles:\n    sergeant: '[@ap \"Sgt. Jorge Torres says\"]'\n")})
    code, found = problems(capsys, root)
    assert code == 1
    assert found == ["content/people/jorge-torres.md:8:16: error: quote not found in source 'ap' (seeds/ap.txt): \"Sgt. Jorge Torres says\"; "
                     "closest passage: \"Sgt. Jorge Torres [says→drove]\""]


def test_evidence_for_a_field_or_value_it_cannot_support_and_bad_markers_are_all_reported(make_site, capsys):
    root = make_site({"content/people/jorge-torres.md": person(
        "roles: [sergeant]\nplaces: [cucuta]\nstatus: Deserted\nevidence:\n"
        "  summary: '[@ap \"across the bridge\"]'\n"  # not a fact that carries evidence
        "  roles:\n    driver: '[@ap \"across the bridge\"]'\n"  # a value the field does not hold
        "  status: 'See [@ap \"across the bridge\"]'\n"  # words besides markers
        "  places:\n    cucuta: '[@ap across the bridge]'\n")})  # malformed
    code, found = problems(capsys, root)
    assert code == 1
    assert found == [
        "content/people/jorge-torres.md:9: error: 'summary' does not carry evidence; the fields of a person that do: roles, affiliations, places, status",
        "content/people/jorge-torres.md:11: error: 'driver' is not one of the roles (sergeant)",
        "content/people/jorge-torres.md:12: error: 'evidence.status' should hold citation markers only, such as '[@source \"quote\"]', not 'See'",
        "content/people/jorge-torres.md:14:14: error: 'evidence.places.cucuta': malformed citation '[@ap across the bridge]': write [@source-id \"verbatim quote\"]",
    ]


def test_a_list_field_needs_each_value_and_a_field_of_one_value_its_markers(make_site, capsys):
    root = make_site({"content/people/jorge-torres.md": person(
        "roles: [sergeant]\nstatus: Deserted\nevidence:\n  roles: '[@ap \"across the bridge\"]'\n  status:\n    Deserted: '[@ap \"across the bridge\"]'\n")})
    _, found = problems(capsys, root)
    assert found == [
        "content/people/jorge-torres.md:8: error: 'evidence.roles' should give each of its values with its markers",
        "content/people/jorge-torres.md:9: error: 'evidence.status' should give its markers directly",
    ]


def test_an_id_linked_from_a_cited_sentence_is_supported_by_it(make_site, capsys):
    body = ('Torres was in [[cucuta|Cúcuta]].[@ap "drove an armoured truck across the bridge"] He went to [[colombia]]. '
            'Sgt. Torres said so.[@ap "Torres said"]\n')
    root = make_site({
        "content/people/jorge-torres.md": person("places: [cucuta, colombia]\n", body),
        "content/places/colombia.md": "---\nname: Colombia\nsummary: A country.\n---\nA country.[@ap \"across the bridge\"]\n",
    })
    code, found = problems(capsys, root, "--strict")
    assert code == 1
    assert [line for line in found if "no evidence" in line] == [
        "content/people/jorge-torres.md:5: error: 'colombia' in places has no evidence: cite it under evidence.places or link it from a cited sentence"]
    session = Session(root)
    session.load()
    record = session.site.records["people"]["jorge-torres"]
    cucuta = facts(record, BUILT_IN["people"], {})[0]
    assert (cucuta.value, cucuta.sentence, [c.quote for c in cucuta.citations]) == (
        "cucuta", 'Torres was in [[cucuta|Cúcuta]].[@ap "drove an armoured truck across the bridge"]', ["drove an armoured truck across the bridge"])


def test_an_unsupported_fact_is_a_warning_and_under_strict_an_error_at_its_line(make_site, capsys):
    root = make_site({"content/people/jorge-torres.md": person("roles: [sergeant]\nstatus: Deserted\n")})
    assert problems(capsys, root) == (0, [
        "content/people/jorge-torres.md:5: warning: 'sergeant' in roles has no evidence: cite it under evidence.roles",
        "content/people/jorge-torres.md:6: warning: 'Deserted' in status has no evidence: cite it under evidence.status",
    ])
    code, found = problems(capsys, root, "--strict")
    assert code == 1 and found[0] == "content/people/jorge-torres.md:5: error: 'sergeant' in roles has no evidence: cite it under evidence.roles"  # strict fails on it


def test_an_events_date_people_places_and_groups_need_evidence(make_site, capsys):
    root = make_site({"content/events/aid-convoy.md": (
        "---\ntitle: Aid convoy\ndate: 2019-02-23\npeople: [jorge-torres]\nplaces: [cucuta]\nsummary: The convoy.\n---\n"
        "[[jorge-torres|Torres]] spoke.[@ap \"We're going to change history\"]\n")})
    assert problems(capsys, root)[1] == [
        "content/events/aid-convoy.md:3: warning: '2019-02-23' in date has no evidence: cite it under evidence.date",
        "content/events/aid-convoy.md:5: warning: 'cucuta' in places has no evidence: cite it under evidence.places or link it from a cited sentence",
    ]


def test_a_fact_resting_only_on_a_derivative_is_marked_and_needs_sole(make_site, capsys):
    root = make_site({COPY: COPY_TEXT, "content/people/jorge-torres.md": person(
        "roles: [sergeant, driver]\nevidence:\n  roles:\n    sergeant: '[@ap-copy \"Sgt. Jorge Torres\"]'\n"
        "    driver: '[@ap-copy \"drove an armoured truck\" sole]'\n")})
    assert problems(capsys, root)[1] == [
        "content/people/jorge-torres.md:5: warning: 'sergeant' in roles rests only on the derivative source 'ap-copy': cite the original ('ap'), or add `sole` if only the derivative has it"]
    session = Session(root)
    session.load()
    found = facts(session.site.records["people"]["jorge-torres"], BUILT_IN["people"], {"ap-copy": "ap"})
    assert [(f.value, f.rests_on) for f in found] == [("sergeant", "ap-copy"), ("driver", "ap-copy")]


def test_a_project_type_declares_which_fields_carry_evidence(make_site, capsys):
    root = make_site({
        "content/site.yaml": "title: T\ntypes:\n  units:\n    singular: unit\n    fields:\n      name: text\n"
                             "      commander: {type: text, evidence: true}\n      motto: text\n",
        "content/units/first.md": "---\nname: First\ncommander: Torres\nmotto: Onward\n---\nA unit.[@ap \"across the bridge\"]\n",
    })
    assert problems(capsys, root)[1] == [
        "content/units/first.md:3: warning: 'Torres' in commander has no evidence: cite it under evidence.commander"]
    (root / "content/units/first.md").write_text(
        "---\nname: First\ncommander: Torres\nmotto: Onward\nevidence: {commander: '[@ap \"Torres said\"]', motto: '[@ap \"Torres said\"]'}\n---\nA unit.\n", encoding="utf-8")
    assert problems(capsys, root)[1] == [
        "content/units/first.md:5: error: 'motto' does not carry evidence; the fields of a unit that do: commander",
    ]


def test_evidence_on_a_type_without_facts_is_an_unknown_field_reported_once(make_site, capsys):
    root = make_site({"content/sources/ap.yaml": "title: AP story\noutlet: AP\nlanguage: en\nseed: ap.txt\nevidence: {outlet: '[@ap \"Torres said\"]'}\n"})
    assert problems(capsys, root) == (1, ["content/sources/ap.yaml:5: error: unknown field 'evidence' in a source"])


def test_sentences_keep_their_markers_and_do_not_end_at_abbreviations_or_inside_quotes():
    body = 'Sgt. Torres went to [[cucuta]]. He said no.[@ap "Torres said. Then"] Next [[x]] one.[@ap "q"]\n\nOther.'
    found = sentences(body, 10)
    assert [(s.line, s.text, sorted(s.targets), len(s.citations)) for s in found] == [
        (10, "Sgt. Torres went to [[cucuta]].", ["cucuta"], 0),
        (10, 'He said no.[@ap "Torres said. Then"]', [], 1),
        (10, 'Next [[x]] one.[@ap "q"]', ["x"], 1),
        (12, "Other.", [], 0),
    ]


def test_a_page_shows_a_facts_evidence_in_a_closed_disclosure(make_site):
    from dossier.pipeline import build

    root = make_site({COPY: COPY_TEXT, "content/people/jorge-torres.md": person(
        "roles: [sergeant]\nplaces: [cucuta]\nevidence:\n  roles:\n    sergeant: '[@ap-copy \"Sgt. Jorge Torres\" sole]'\n",
        'He was in [[cucuta]].[@ap "drove an armoured truck across the bridge"]\n')})
    build(root, root / "site")
    html = (root / "site/people/jorge-torres/index.html").read_text(encoding="utf-8")
    assert ('<details class="evidence" data-pagefind-ignore><summary>Evidence<span class="visually-hidden"> for role</span></summary>' in html
            and "<q>Sgt. Jorge Torres</q> (<a href=\"../../sources/ap-copy/#passage-" in html
            and '<span class="derivative">rests only on Copy, a derivative source</span>' in html)
    assert ('<span class="evidence-value">Cúcuta</span>: <span class="evidence-how">derived from the text,</span> '
            '<q>drove an armoured truck across the bridge</q> (<a href="../../sources/ap/#passage-') in html


@pytest.mark.parametrize("width", [1280, 390])
def test_the_evidence_of_a_fact_opens_on_demand_and_links_to_its_passage(browser, served, width):
    from axe_playwright_python.sync_playwright import Axe

    context = browser.new_context(viewport={"width": width, "height": 900})
    page = context.new_page()
    page.goto(served + "people/jorge-torres/")
    evidence = page.locator(".infobox dd", has_text="National Guard sergeant").locator("details.evidence")
    quote = evidence.locator("q", has_text="Sgt. Jorge Torres said")
    assert not quote.is_visible()  # closed until asked for
    evidence.locator("summary").focus()
    page.keyboard.press("Enter")  # the keyboard opens it
    assert quote.is_visible()
    assert page.evaluate("document.scrollingElement.scrollWidth <= innerWidth")  # nothing runs off a phone's screen
    serious = [v["id"] for v in Axe().run(page).response["violations"] if v["impact"] in ("serious", "critical")]
    assert serious == []
    link = evidence.locator("li", has_text="Sgt. Jorge Torres said").locator("a")
    target = link.get_attribute("href")
    assert target.startswith("../../sources/ap-desertion/#passage-")
    link.click()
    page.wait_for_url("**/sources/ap-desertion/#passage-*")
    assert page.locator("#" + target.split("#")[1]).count() == 1
    context.close()
