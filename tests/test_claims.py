"""Claims: the sentences of a body with their citations, how many independent sources support each
(a derivative counting as its original), the count after each cited sentence, and the claims pages."""

from __future__ import annotations

import dataclasses
import gc
import re


from dossier.render import claim_index, claims
from dossier.render.claims import independent, mark_claims, rests_on, support_level
from dossier.text.sentences import ClaimCitation, Sentence, sentences, sentences_of
from dossier.pipeline import build

NPR_SEED = "Torres drove a truck across the bridge, witnesses said.\n"
FILES = {
    "seeds/ap-copy.txt": "Sgt. Jorge Torres drove an armoured truck across the bridge.\n",
    "content/sources/ap-copy.yaml": "title: AP translation\noutlet: A republisher\nlanguage: es\nseed: ap-copy.txt\nderived_from: ap\n",
    "seeds/npr.txt": NPR_SEED,
    "content/sources/npr.yaml": "title: NPR story\noutlet: NPR\nlanguage: en\nseed: npr.txt\n",
    "content/people/jorge-torres.md": (
        "---\nname: Jorge Torres\naliases: [Jorge Torres]\nsummary: A sergeant.\n---\n"
        'He drove a truck.[@ap "drove an armoured truck"][@ap-copy "drove an armoured truck"] '
        'He crossed.[@ap-copy "across the bridge"] See [[aid-convoy]].\n\n'
        'Two outlets report it.[@ap "across the bridge"][@npr "drove a truck across the bridge"]\n'
    ),
}
TORRES = "people/jorge-torres/index.html"


def test_a_citation_belongs_to_the_sentence_it_follows_and_a_quote_never_ends_one():
    body = ('Sgt. Torres said "go."[@ap "It ended. Then"] He left,[@ap "left"] then ran.\n'
            "\n## A heading\n\n- A list item.[@npr \"item\"]\n")
    found = sentences(body, 10)
    assert [(s.line, s.text, [c.quote for c in s.citations]) for s in found] == [
        (10, 'Sgt. Torres said "go."', ["It ended. Then"]),
        (10, "He left, then ran.", ["left"]),
        (14, "A list item.", ["item"]),
    ]
    marked, cited = mark_claims(body)
    assert cited == [("ap",), ("ap",), ("npr",)]
    assert marked.startswith("\ue0011\ue002Sgt. Torres") and '"It ended. Then"]\ue0031\ue004\ue0012\ue002 He left' in marked
    assert "- \ue0013\ue002A list item." in marked  # after the list item's bullet, which stays a bullet


def test_a_sentence_is_the_bodys_own_text_between_its_offsets_and_keeps_no_copy():
    body = ("Intro line one\ncontinues here.[@ap \"one\"] Second *sentence*.\n\n"
            "> Quoted first.[@npr \"q\"]\n> Quoted second.\n\n"
            "- Item one.[@ap \"i\"]\n- Item two\n  wraps.\n\n---\n\nLast.")
    found = sentences(body, 1)
    assert [s.markdown for s in found] == [
        'Intro line one\ncontinues here.[@ap "one"]', "Second *sentence*.", 'Quoted first.[@npr "q"]', "Quoted second.",
        'Item one.[@ap "i"]', "Item two\n  wraps.", "Last."]
    assert [s.text for s in found][:2] == ["Intro line one continues here.", "Second sentence."]
    assert all(s.body is body and body[s.start:s.end] == s.markdown for s in found)
    assert not hasattr(found[0], "__dict__")  # every sentence of every body is kept (sentences_of): no per-object dict
    assert found[0].citations == (ClaimCitation("ap", "one"),) and found[4].citations == (ClaimCitation("ap", "i"),)
    assert found[0].sources == ("ap",) and found[0].sources is found[4].sources and found[1].sources == ()  # one tuple a list of sources
    kept = [getattr(s, f.name) for s in found for f in dataclasses.fields(s)]
    assert not any(isinstance(value, tuple) and any(isinstance(c, ClaimCitation) for c in value) for value in kept)  # citations read again when asked
    held = sentences_of(body)  # every body's, kept: numbers and sources, a Sentence made only while read
    assert list(held) == found and len(held) == len(found) and list(held)[4].sources is found[4].sources
    assert not any(isinstance(value, Sentence) for value in gc.get_referents(held))


def test_the_claims_kept_for_every_body_share_their_sets_of_sources_and_their_page_s_address():
    first = 'One.[@ap "a"] Two.[@ap "b"][@npr "c"] Three.[@npr "d"][@ap "e"]'
    second = 'Other.[@ap "f"] More.[@ap "g"][@npr "h"]'
    texts, sources = claims.body_claims(first)
    assert texts == ("One.", "Two.", "Three.") and sources == (("ap",), ("ap", "npr"), ("npr", "ap"))
    _, others = claims.body_claims(second)
    assert others[0] is sources[0] and others[1] is sources[1]  # one tuple a set of sources, for every body of the site

    class Record:
        collection, id, body, body_line, label = "people", "torres", first, 1, "Torres"

        @property
        def page_url(self) -> str:  # as a record's: a new string each time
            return "".join(["people/", "torres/"])

    class Site:
        model = {"people": type("Type", (), {"body_field": "body"})}

    found = claims.record_claims(Site(), Record(), {"ap": None, "npr": None})  # type: ignore[arg-type]
    assert [c.url for c in found] == ["people/torres/#claim-1", "people/torres/#claim-2", "people/torres/#claim-3"]
    assert [c.level for c in found] == ["1", "2", "2"]
    assert all(c.page_url is found[0].page_url for c in found)  # the record's address once, not a string a claim


def test_a_translation_counts_as_its_original_never_twice():
    derived = {"ap": None, "ap-copy": "ap", "copy-of-copy": "ap-copy", "npr": None}
    assert independent(["ap", "ap-copy"], derived) == ["ap"]
    assert support_level(["ap", "ap-copy"], derived) == "1"
    assert support_level(["ap-copy", "npr"], derived) == "2"
    assert rests_on(["ap-copy", "copy-of-copy"], derived) == ["ap-copy", "copy-of-copy"]
    assert support_level(["copy-of-copy"], derived) == claims.DERIVATIVE
    assert rests_on(["ap", "ap-copy"], derived) == []
    assert support_level(["ap"], derived) is support_level(["npr"], {"npr": None})  # one string a level, however many claims hold it


def marker(short: str, words: str, shown: str) -> str:
    return (f'<span class="support {shown}" data-pagefind-ignore=""><span aria-hidden="true">{short}</span>'
            f'<span class="visually-hidden"> ({words})</span></span>')


def test_each_cited_sentence_shows_its_count_of_independent_sources(make_site, tmp_path):
    root = make_site(FILES)
    build(root, tmp_path / "site")
    page = (tmp_path / "site" / TORRES).read_text(encoding="utf-8")
    one = marker("1 source", "one independent source supports this sentence", "single")
    only = marker("derivative only", "only a derivative source, a translation or copy, supports this sentence", "derivative")
    two = marker("2 sources", "2 independent sources support this sentence", "several")
    assert re.search(r'<p><span class="claim" id="claim-1"></span>He drove a truck\.<sup class="citation".*?</sup><sup .*?</sup>' + re.escape(one)
                     + r'<span class="claim" id="claim-2"></span> He crossed\.<sup .*?</sup>' + re.escape(only) + " See", page)
    assert re.search(r'<span class="claim" id="claim-3"></span>Two outlets report it\.<sup .*?</sup><sup .*?</sup>' + re.escape(two) + "</p>", page)
    assert page.count('class="support ') == 3  # the sentence without a citation has none
    previews = re.findall(r'<span class="preview-support">([^<]*)</span>', page)
    one, only, two = ("one independent source supports this sentence", "only a derivative source, a translation or copy, supports this sentence",
                      "2 independent sources support this sentence")
    assert previews == [one, one, only, two, two]  # each marker's preview (one a source) says the support of its sentence


def test_a_page_works_out_each_set_of_sources_support_once(make_site, tmp_path, monkeypatch):
    from dossier.render import context

    asked: list[tuple[str, ...]] = []
    level = context.support_level
    monkeypatch.setattr(context, "support_level", lambda sources, derived: asked.append(tuple(sources)) or level(sources, derived))
    root = make_site({**FILES, "content/people/jorge-torres.md": FILES["content/people/jorge-torres.md"] + 'Again.[@ap-copy "across the bridge"]\n'})
    build(root, tmp_path / "site", use_cache=False)
    page = (tmp_path / "site" / TORRES).read_text(encoding="utf-8")
    assert page.count('class="support ') == 4 and page.count("derivative only") >= 2  # the fourth claim cites what the second does
    torres = [sources for sources in asked if "npr" in sources or "ap-copy" in sources]
    assert sorted(torres) == sorted({("ap", "ap-copy"), ("ap-copy",), ("ap", "npr")})  # asked by every marker, the count and the page


def test_a_warm_build_follows_a_change_of_what_a_source_derives_from(make_site, tmp_path):
    root = make_site(FILES)
    build(root, tmp_path / "site")
    assert "derivative only" in (tmp_path / "site" / TORRES).read_text(encoding="utf-8")
    source = root / "content/sources/ap-copy.yaml"
    source.write_text(source.read_text(encoding="utf-8").replace("derived_from: ap\n", ""), encoding="utf-8")
    build(root, tmp_path / "site")  # the person's body comes from the cache only if its sources derive as before
    page = (tmp_path / "site" / TORRES).read_text(encoding="utf-8")
    assert "derivative only" not in page and page.count(">2 sources<") == 2  # the story and the (now) independent copy
    build(root, tmp_path / "cold", use_cache=False)
    assert (tmp_path / "cold" / TORRES).read_text(encoding="utf-8") == page


def claim_links(page: str) -> list[str]:
    return re.findall(r'<li>(.*?) <a href="[^"]*#(claim-\d+)">', page)


def test_the_claims_pages_group_claims_by_support_and_page_them(make_site, tmp_path, monkeypatch):
    monkeypatch.setattr(claims, "PER_PAGE", 2)
    root = make_site(FILES)
    build(root, tmp_path / "site")
    site = tmp_path / "site"
    index = (site / "claims/index.html").read_text(encoding="utf-8")
    levels = re.findall(r'<li><a href="([^"]+)">([^<]+)</a> \((\d+) claims?\)</li>', index)
    assert levels == [("../claims/2-sources/", "2 independent sources", "1"), ("../claims/1-source/", "1 independent source", "3"),
                      ("../claims/derivative-only/", "Resting only on a derivative source", "1")]
    first = (site / "claims/1-source/index.html").read_text(encoding="utf-8")
    second = (site / "claims/1-source/2/index.html").read_text(encoding="utf-8")
    assert not (site / "claims/1-source/3").exists()
    here, there = "../../claims/1-source/", "../../claims/1-source/2/"
    assert f'Page 1 of 2:\n <a href="{here}" aria-current="page">1</a> <a href="{there}">2</a>' in first
    assert f'<a href="{there}" rel="next">Next</a>' in first and f'<a href="../{here}" rel="prev">Previous</a>' in second and '<ol class="claims" start="3">' in second
    assert claim_links(first) + claim_links(second) == [
        ("He drove a truck.", "claim-1"), ("Torres spoke.", "claim-1"), ("A city.", "claim-1")]
    assert '<a href="../../people/jorge-torres/#claim-1">Jorge Torres</a>' in first  # to the sentence on its page
    only = (site / "claims/derivative-only/index.html").read_text(encoding="utf-8")
    assert claim_links(only) == [("He crossed.", "claim-2")]
    assert 'href="../claims/"' in (site / "sources/index.html").read_text(encoding="utf-8")  # linked from the sources index


def test_no_claims_page_comes_near_a_megabyte(make_site, tmp_path):
    sentence = "A long sentence that a page cites, with words enough to weigh what a real one weighs on the page."
    body = " ".join(f'{sentence}[@ap "across the bridge"]' for _ in range(1200))
    root = make_site({"content/places/cucuta.md": f"---\nname: Cúcuta\nsummary: A border city.\n---\n{body}\n"})
    build(root, tmp_path / "site")
    pages = sorted((tmp_path / "site/claims/1-source").rglob("index.html"))
    assert len(pages) == 3 and max(p.stat().st_size for p in pages) < 300_000


def test_the_preview_renders_a_claims_page_again_when_what_it_shows_changes(make_site, monkeypatch):
    from test_session import Mirror

    monkeypatch.setattr(claims, "PER_PAGE", 2)
    mirror = Mirror(make_site(FILES))  # each edit below is compared with a build from scratch
    person, copy = "content/people/jorge-torres.md", "content/sources/ap-copy.yaml"
    mirror.edit(person, "He drove a truck.", "He drove a truck, [[cucuta]].", "a link without a label in a claim")
    assert mirror.edit("content/places/cucuta.md", "name: Cúcuta", "name: San José de Cúcuta", "the linked record's name") >= 2
    assert "San José de Cúcuta" in mirror.files["claims/1-source/index.html"].decode()
    mirror.edit(copy, "derived_from: ap\n", "", "a derivative becomes independent")
    mirror.edit(person, "Two outlets report it.", "One more.[@npr \"witnesses said\"] Two outlets report it.", "a claim more: a page more")
    assert "claims/1-source/2/index.html" in mirror.files
    mirror.edit(person, "One more.\\[@npr \"witnesses said\"\\] ", "", "and less")


def test_a_large_site_s_claims_are_worked_out_in_two_processes_as_one_works_them_out(tmp_path, monkeypatch):
    """A cold build works out half of a large site's claims in a second process (render/claims.py
    recount): every record's claims, in each language, are as one process makes them, in order."""
    from conftest import copy_project

    from dossier import forked
    from dossier.pipeline import load
    from dossier.render.pages import Renderer
    from dossier.timings import take_report

    root = copy_project(tmp_path / "project")  # this documentary: two languages
    next((root / "content/people").glob("*.es.md")).unlink()  # a body the Spanish pages show in English
    site, _ = load(root)
    renderer = Renderer(site)
    sent: list[tuple] = []
    monkeypatch.setattr(forked, "take_report", lambda report: sent.append(report) or take_report(report))
    for lang in renderer.languages:
        view, index_lang = renderer.site_in(lang), None if lang == renderer.languages[0] else lang
        alone, both = claim_index.ClaimIndex(index_lang), claim_index.ClaimIndex(index_lang)
        alone.claims(view, None, processes=2)  # too few records to share
        monkeypatch.setattr(forked, "SPLIT_FROM", 2)
        both.claims(view, None, processes=2)
        monkeypatch.setattr(forked, "SPLIT_FROM", 2000)
        assert len(sent) == 1 and list(sent.pop()[0]) == ["plan"], lang  # a second process worked out its share
        assert both.found == alone.found and [list(claims) for claims in both.found.values()] == [list(claims) for claims in alone.found.values()]
        assert list(both.records) == list(alone.records) and both.records == alone.records
        assert sum(len(found) for found in both.found.values()) > 100 and (index_lang is None or any(c.lang for _, made, _ in both.records.values() for c in made))
