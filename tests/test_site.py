"""The real documentary, built end to end: links, citations and cross-links all resolve."""

from __future__ import annotations

import html
import json
import re

from conftest import BASE_FILES, PROJECT
from linkcheck import check_site

from dossier.pipeline import load
from dossier.text.passages import SeedText


def test_every_internal_link_and_fragment_resolves_and_nothing_loads_from_elsewhere(real_site):
    assert check_site(real_site) == []


def test_the_link_checker_catches_what_it_should(tmp_path):
    (tmp_path / "a").mkdir()
    (tmp_path / "a/index.html").write_text('<a href="../b/">x</a><a href="#nope">y</a><a href="/a/">z</a><script src="https://x.test/s.js"></script>', encoding="utf-8")
    assert check_site(tmp_path) == [
        "a/index.html: loads an external resource https://x.test/s.js",
        "a/index.html: broken link ../b/",
        "a/index.html: link #nope names a missing fragment",
        "a/index.html: rooted link /a/ breaks under a subpath",
    ]


def test_every_exported_citation_is_verbatim_in_its_seed(real_site):
    data = json.loads((real_site / "data/site.json").read_text(encoding="utf-8"))
    seeds = {s["id"]: SeedText((PROJECT / "seeds" / s["seed"]).read_text(encoding="utf-8")) for s in data["sources"]}
    assert data["citations"], "the real content cites nothing"
    for citation in data["citations"]:
        assert seeds[citation["source"]].locate(citation["quote"]) is not None, citation


def test_seeds_are_the_shared_articles_byte_for_byte():
    shared = PROJECT.parent / "shared" / "seeds"
    if not shared.is_dir():
        return
    ours = sorted(p.read_bytes() for p in (PROJECT / "seeds").iterdir())
    theirs = sorted(p.read_bytes() for p in shared.iterdir())
    assert ours == theirs


def test_the_required_records_exist_and_cross_link(real_site):
    site, problems = load(PROJECT)
    assert [p for p in problems if p.severity == "error"] == []
    for pid in ["jorge-torres", "jose-gomez", "jesus-parra", "juan-guaido"]:
        assert pid in site.records["people"]
    assert site.records["events"]["aid-convoy-blocked"].date.text == "2019-02-23"
    person = (real_site / "people/jorge-torres/index.html").read_text(encoding="utf-8")
    assert 'href="../../events/aid-convoy-blocked/"' in person
    event = (real_site / "events/aid-convoy-blocked/index.html").read_text(encoding="utf-8")
    assert 'href="../../people/jorge-torres/"' in event
    source = (real_site / "sources/ap-desertion/index.html").read_text(encoding="utf-8")
    assert re.search(r'<summary>Cited by \d+ pages?</summary>\s*<ul>.*href="../../people/jorge-torres/"', source)


def test_citation_markers_link_to_references_that_link_to_the_passage(real_site):
    html = (real_site / "people/jorge-torres/index.html").read_text(encoding="utf-8")
    marker = re.search(r'<sup class="citation" id="(cite-ref-(\d+)-1)"><a [^>]*href="#(cite-note-\2-(\d+))"', html)
    assert marker
    note = re.search(rf'<li id="{marker[3]}">(.*?)</li>', html, re.S).group(1)
    assert f'href="#{marker[1]}"' in note
    passage = re.search(r'href="../../sources/([a-z-]+)/#(passage-[0-9a-f]{10})"', note)
    source_html = (real_site / "sources" / passage.group(1) / "index.html").read_text(encoding="utf-8")
    assert f'id="{passage.group(2)}"' in source_html
    entry = re.search(rf'<li id="cite-note-{marker[2]}">(.*?)<ol class="reference-quotes">', html, re.S).group(1)
    assert f'href="../../sources/{passage.group(1)}/"' in entry  # the source's entry names it once, above its passages


def test_the_reference_list_has_one_entry_per_source_numbered_in_reading_order(real_site):
    html = (real_site / "people/jorge-torres/index.html").read_text(encoding="utf-8")
    references = html[html.index('class="reference-list"'):]
    entries = re.findall(r'<li id="cite-note-(\d+)"><span class="reference-source"><a href="../../sources/([a-z-]+)/"', references)
    assert [int(n) for n, _ in entries] == list(range(1, len(entries) + 1))
    assert len({source for _, source in entries}) == len(entries) >= 3  # the AP, its translation and the Post, once each
    body = html[html.index('<div class="body">'):html.index('class="reference-list"')]
    first_seen = list(dict.fromkeys(re.findall(r'<sup class="citation" id="cite-ref-(\d+)-', body)))
    assert first_seen == sorted(first_seen, key=int)  # met in the order they are numbered (the infobox's evidence comes first)
    for number, _ in entries:  # every passage's letter leads back to each marker citing it, and each marker to its passage
        for _letter, uses in re.findall(rf'<li id="(cite-note-{number}-\d+)">(.*?)</li>', references, re.S):
            for use in re.findall(r'href="#(cite-ref-[\d-]+)"', uses):
                assert re.search(rf'<sup class="citation" id="{use}">', body)


def test_timeline_lists_every_event_grouped_by_year_and_month_in_date_order(real_site):
    from dossier.render.environment import timeline_groups

    site, _ = load(PROJECT)
    html = (real_site / "timeline/index.html").read_text(encoding="utf-8")
    groups = timeline_groups(site)
    shown = [event.id for _, months in groups for _, events in months for event in events]
    assert sorted(shown) == sorted(site.records["events"])
    positions = [html.index(f'<li id="{eid}" ') for eid in shown]
    assert positions == sorted(positions)
    assert [year for year, _ in groups] == sorted(year for year, _ in groups)
    for _, months in groups:
        keys = [13 if month is None else month for month, _ in months]
        assert keys == sorted(keys)  # known months in order, then the month not known
        for _, events in months:
            assert [e.date.sort_key() for e in events] == sorted(e.date.sort_key() for e in events)
    headings = re.findall(r'<h3 id="(month-[0-9a-z-]+)">', html)
    assert headings[:2] == ["month-2018-12", "month-2018-unknown"] and headings[-2:] == ["month-2019-04", "month-2019-05"]
    may = re.findall(r'<li id="([a-z-]+)" ', html[html.index('id="month-2019-05"'):])  # spans start where they start
    assert may == ["bautista-reuters", "defectors-left-adrift", "negotiations"]
    assert html.count(">May–December 2019</time>") == 2
    nav = re.search(r'<nav class="year-nav".*?</nav>', html, re.S).group(0)
    assert re.findall(r'href="#(month-[0-9a-z-]+)"', nav) == headings  # every month with events, in order


def test_a_sentence_that_quotes_words_prints_them_not_just_a_marker(real_site):
    html = (real_site / "people/female-soldier/index.html").read_text(encoding="utf-8")
    text = re.sub(r'<span class="preview".*?</span></sup>', "]", re.sub(r"<a [^>]*>\[(\d+)\]</a>", r"[\1", html), flags=re.S)
    text = re.sub(r'<span class="support[ "].*?</span></span>', "", text)  # the count of sources after the sentence
    sentence = re.sub(r"<[^>]+>", "", re.search(r"and her question becomes.*?</p>", text, re.S).group(0))
    assert re.fullmatch(r"and her question becomes And I fight, why\?\[\d+\] instead of "
                        r"And I’m supposed to stay here fighting, why\?\[\d+\]\.", sentence), sentence


def people_index(root) -> list[tuple[str, list[str]]]:
    """Return the people index's headings, each with the names it lists, in page order."""
    from dossier.render.pages import Renderer

    site, problems = load(root)
    assert [p for p in problems if p.severity == "error"] == []
    html = Renderer(site).pages()["people/index.html"]().decode("utf-8")
    main = html[html.index("<main"):]
    return [(re.sub(r"<[^>]+>", "", heading).strip(), re.findall(r'<li><a href="[^"]*">([^<]*)</a>', rest.split("<h2")[0]))
            for heading, rest in re.findall(r"<h2[^>]*>(.*?)</h2>(.*?)(?=<h2|</main>)", main, re.S)]


def person(name: str, extra: str = "") -> str:
    return f"---\nname: {name}\nsummary: S.\n{extra}---\n"


GROUPS = ("people_groups:\n  - {part: defector, heading: Defectors and their families}\n  - {part: official, heading: Officials and politicians}\n"
          "  - {part: journalist, heading: Journalists and authors}\n")


def test_the_people_index_groups_people_by_their_part_and_sorts_them_by_surname(make_site):
    root = make_site({
        "content/site.yaml": "title: T\n" + GROUPS,
        "content/people/jorge-torres.md": person("Jorge Torres", "part: defector\n"),
        "content/people/angela-alvarez.md": person("Ángela Álvarez", "part: defector\n"),
        "content/people/ivan-duque.md": person("Iván Duque", "part: official\n"),
        "content/people/marcos-perez-jimenez.md": person("Marcos Pérez Jiménez", "part: official\nsort_name: Pérez Jiménez\n"),
        "content/people/ana-zapata.md": person("Ana Zapata", "part: journalist\n"),
        "content/people/luis-abad.md": person("Luis Abad", "part: journalist\n"),
        "content/people/orlando-perez.md": person("Orlando Pérez"),
        "content/people/soldier.md": person("Soldier who fears for her children", "anonymous: true\npart: defector\n"),
        "content/people/colonel.md": person("Army colonel", "anonymous: true\n"),
    })
    assert people_index(root) == [
        ("Defectors and their families (2)", ["Ángela Álvarez", "Jorge Torres"]),
        ("Officials and politicians (2)", ["Iván Duque", "Marcos Pérez Jiménez"]),
        ("Journalists and authors (2)", ["Luis Abad", "Ana Zapata"]),
        ("Others named in the sources (1)", ["Orlando Pérez"]),
        ("People the sources keep anonymous (2)", ["Army colonel", "Soldier who fears for her children"]),
    ]


def test_a_project_that_gives_no_parts_lists_its_people_by_surname(make_site):
    root = make_site({"content/people/ana-zapata.md": person("Ana Zapata"), "content/people/luis-abad.md": person("Luis Abad")})
    assert people_index(root) == [("Named in the sources (3)", ["Luis Abad", "Jorge Torres", "Ana Zapata"])]


def test_a_project_names_its_own_groups_and_their_headings_in_each_language(make_site, capsys):
    from dossier.cli import main

    trial = ("title: T\nlanguages: [en, es]\npeople_groups:\n  - {part: witness, heading: {en: Witnesses, es: Testigos}}\n"
             "  - {part: judge, heading: The court}\n")
    root = make_site({
        "content/site.yaml": trial,
        "content/people/ana-zapata.md": person("Ana Zapata", "part: witness\n"),
        "content/people/luis-abad.md": person("Luis Abad", "part: judge\n"),
    })
    assert people_index(root) == [("Witnesses (1)", ["Ana Zapata"]), ("The court (1)", ["Luis Abad"]), ("Others named in the sources (1)", ["Jorge Torres"])]
    main(["build", "--source", str(root)])
    spanish = (root / "site/es/people/index.html").read_text(encoding="utf-8")
    assert '<h2 id="part-witness">Testigos <span class="count">(1)</span></h2>' in spanish and '<h2 id="part-judge">The court <span' in spanish
    (root / "content/people/luis-abad.md").write_text(person("Luis Abad", "part: defector\n"), encoding="utf-8")
    assert main(["check", "--source", str(root)]) == 1
    assert capsys.readouterr().err.splitlines()[0] == "content/people/luis-abad.md:4: error: 'part' should be one of witness, judge, not 'defector'"


def test_a_person_cannot_name_a_group_no_project_declares(make_site, capsys):
    from dossier.cli import main

    root = make_site({"content/people/luis-abad.md": person("Luis Abad", "part: defector\n")})
    assert main(["check", "--source", str(root)]) == 1
    assert capsys.readouterr().err.splitlines()[0] == (
        "content/people/luis-abad.md:4: error: 'part' names a group of the people index, but content/site.yaml declares none: "
        "list the groups under people_groups (see the project's settings in dossier's docs/writing/content.md), or remove 'part'")


def test_a_group_heading_is_a_text_or_one_in_each_language_of_the_interface(make_site, capsys):
    from dossier.cli import main

    root = make_site({"content/site.yaml": "title: T\npeople_groups:\n  - {part: Witness, heading: {en: Witnesses, fr: Témoins}}\n  - {part: judge}\n"})
    assert main(["check", "--source", str(root)]) == 1
    assert capsys.readouterr().err.splitlines()[:-1] == [
        "content/site.yaml:3: error: 'people_groups.0.heading' gives 'fr', which is not a language of dossier's interface (en, es)",
        "content/site.yaml:3: error: 'people_groups.0.part' should be a lowercase word such as 'official', not 'Witness'",
        "content/site.yaml:4: error: 'people_groups.1' needs 'heading' (the group's heading, or its heading in each language: {en: Officials, es: Funcionarios})",
    ]


def test_every_person_of_the_documentary_has_a_part(real_site):
    import yaml

    declared = [group["part"] for group in yaml.safe_load((PROJECT / "content/site.yaml").read_text(encoding="utf-8"))["people_groups"]]
    assert declared == ["defector", "official", "journalist", "other"]
    people = [path for path in sorted((PROJECT / "content/people").glob("*.md")) if path.suffixes == [".md"]]  # not the translations (x.es.md)
    for path in people:
        assert re.search(rf"(?m)^part: ({'|'.join(declared)})$", path.read_text(encoding="utf-8")), path.name
    groups = dict(people_index(PROJECT))
    assert groups["Journalists and authors (2)"] == ["Christine Armario", "Luis Andrés Henao"]
    assert "Marcos Pérez Jiménez" in groups["Officials and politicians (14)"]
    assert sum(len(names) for names in groups.values()) == len(people)


def test_the_home_page_headings_are_the_projects_own_or_the_themes(make_site):
    from dossier.pipeline import load
    from dossier.render.pages import Renderer

    figure = "figures:\n  - {label: Fled, value: two, source: ap, quote: \"across the bridge\", headline: true}\n"
    event = BASE_FILES["content/events/aid-convoy.md"].replace("summary: The convoy.\n", "summary: The convoy.\n" + figure)
    home = "---\ntitle: Home\nfeatured: [jorge-torres]\n---\nA story.[@ap \"across the bridge\"]\n"
    headings = "home_headings:\n  figures: How many fled\n  featured: {en: Who it is about, es: De quién trata}\n"
    for settings, expected in [("", ["Key figures, source by source", "At the centre of the story"]),
                               (headings, ["How many fled", "Who it is about"])]:
        root = make_site({"content/events/aid-convoy.md": event, "content/pages/home.md": home, "content/site.yaml": "title: T\n" + settings})
        site, problems = load(root)
        assert [p for p in problems if p.severity == "error"] == []
        html = Renderer(site).pages()["index.html"]().decode("utf-8")
        shown = [h for h in re.findall(r"<h2[^>]*>([^<]*)</h2>", html) if h in expected]
        assert shown == expected


def test_counts_on_the_pages_take_the_number_their_noun_needs(make_site):
    from dossier.pipeline import build

    root = make_site()  # one person, one event, one source
    build(root, root / "site")
    home = re.sub(r"<[^>]+>", "", (root / "site/index.html").read_text(encoding="utf-8"))
    assert "The people: 1 person, named or not" in home and "The sources: 1 stored article, every cited passage marked" in home
    events = re.sub(r"<[^>]+>", "", (root / "site/events/index.html").read_text(encoding="utf-8"))
    assert "1 event. The timeline groups events by year and month." in events


def test_a_source_s_date_says_where_the_text_does_not_give_it(real_site):
    """A reference, a figure or a list gives a source's date; where the text itself does not (worked
    out, or taken from a public copy), it says so, in the page's language."""
    def references(path: str) -> dict[str, str]:  # each source's entry, its date's marker as [label: note]
        page = (real_site / path).read_text(encoding="utf-8")
        entries = re.finditer(r'<span class="reference-source"><a href="[./]*sources/([a-z-]+)/">(.*?)</span>\n', page)
        marked = {m[1]: re.sub(r'<button type="button" class="prov-mark">(.*?)</button><span class="prov-note"> \((.*?)\)</span>', r"[\1: \2]", m[2]) for m in entries}
        return {source: html.unescape(re.sub(r"<[^>]+>", "", entry)) for source, entry in marked.items()}

    english, spanish = references("people/jorge-torres/index.html"), references("es/people/jorge-torres/index.html")
    assert re.search(r"25 February 2019 \[date inferred: The text has no date\. .*'said Monday'.*\]\.$", english["ap-desertion"])
    assert re.search(r"13 April 2019 \[date from a public copy: The text has no date\. The public copy's URL .*\]\.$", english["wapo-military"])
    assert "26 February 2019 (a derivative of" in english["ap-desertion-translation"]  # its title line gives it
    assert re.search(r"25 de febrero de 2019 \[fecha inferida: El texto no tiene fecha\. .*\]\.$", spanish["ap-desertion"])
    home = (real_site / "index.html").read_text(encoding="utf-8")
    assert 'May–December 2019 <span class="prov"><button type="button" class="prov-mark">date inferred</button>' in home


def test_the_records_a_source_page_lists_are_written_once_for_the_pages_alike(real_site):
    """A source page lists every record citing it, which other source pages list too: each item is
    written once for the pages at one depth in one language, and every page is as written alone."""
    from dossier.render.pages import Renderer

    site, _ = load(PROJECT)
    renderer = Renderer(site, PROJECT / "templates")
    sources = {path: render for path, render in renderer.pages().items() if re.match(r"(es/)?sources/[^/]+/index\.html$", path)}
    looked_up = []
    site.get = lambda key, get=site.get: looked_up.append(key) or get(key)  # type: ignore[method-assign]  # the site in English
    pages = {path: render().decode("utf-8") for path, render in sources.items()}
    del site.get
    listed = sum(len(re.findall(r"<li><a href=", page)) for path, page in pages.items() if not path.startswith("es/"))
    assert 0 < len(looked_up) < listed / 2  # each listed record looked up once for all pages (and a few lookups of the pages' own)
    assert {lang for _, _, _, lang, _ in renderer.link_items} == {"en", "es"}
    for path, page in pages.items():
        alone = Renderer(site, PROJECT / "templates")
        assert alone.pages()[path]().decode("utf-8") == page, path
        assert (real_site / path).read_text(encoding="utf-8") == page, path
    renderer.forget()
    assert renderer.link_items == {}


def test_a_listed_records_item_is_kept_for_pages_of_its_depth_and_kind_names_only():
    from dossier.render.environment import link_items
    from dossier.render.reads import SiteReads

    site, _ = load(PROJECT)
    memo: dict = {}
    keys = [("people", "jorge-torres")]
    assert link_items(SiteReads(site), keys, lambda url: "../../" + url, memo=memo) == '<li><a href="../../people/jorge-torres/">Jorge Torres</a></li>'
    assert link_items(SiteReads(site), keys, lambda url: "../" + url, memo=memo) == '<li><a href="../people/jorge-torres/">Jorge Torres</a></li>'
    assert link_items(SiteReads(site), keys, lambda url: "../" + url, {"people": "person"}, memo=memo).endswith('Jorge Torres</a> <span class="kind">(person)</span></li>')


def test_the_rendering_processes_take_the_largest_pages_first_in_every_language():
    from dossier.incremental.pool import big_first

    paths = ["people/ana/index.html", "es/people/ana/index.html", "sources/ap/index.html", "es/sources/ap/index.html",
             "index.html", "people/index.html", "timeline/2019/index.html", "events/convoy/index.html"]
    ordered = big_first(paths)
    records = [path for path in ordered if path.count("/") >= 2 and path.split("/")[-3] in ("people", "events")]
    assert ordered[-len(records):] == records and len(records) == 3  # record pages last, in both languages
    assert ordered.index("sources/ap/index.html") < ordered.index("events/convoy/index.html")


def test_the_reference_list_escapes_each_value_as_markupsafe_does():
    from markupsafe import Markup, escape

    from dossier.render.footnotes import escaped

    class Shown:
        def __html__(self):
            return "<b>kept</b>"

    class Named(str):
        def __html__(self):
            return f'<span lang="es">{self}</span>'

    values = ["plain", "Tom & Jerry's \"<cut>\"", "&amp; already", "", "\xa0ñ “quoted” 'single'", 7, Markup("<i>safe</i>"), Shown(), Named("Bogotá & co")]
    for value in values:
        assert escaped(value) == str(escape(value)) and type(escaped(value)) is str, value


def rendered_fresh(root, folder, workers: int) -> tuple:
    """Load a project afresh and render it all into folder by that many processes; return the words search counts and every file made."""
    from dossier.incremental.session import Session

    session = Session(root)
    session.load()
    folder.mkdir()
    session.render_into(folder, None, workers)
    return session.words.counts, {str(p.relative_to(folder)): p.read_bytes() for p in folder.rglob("*") if p.is_file()}


def test_the_claims_and_source_pages_render_in_a_round_of_their_own_and_their_words_are_counted_once(make_site, monkeypatch, tmp_path):
    import os
    import time

    from dossier.incremental import pool
    from dossier.timings import page_layer

    people = {f"content/people/person-{n:03}.md": f"---\nname: Person {n}\nsummary: S.\n---\nThey drove.[@ap \"across the bridge\"]\n" for n in range(pool.PARALLEL_FROM)}
    sources = {f"content/sources/extra-{n}.yaml": f"title: Extra {n}\noutlet: The Associated Press\nlanguage: en\nseed: ap.txt\n" for n in range(6)}
    root = make_site(people | sources)
    monkeypatch.setattr(pool, "PARALLEL_FROM", 4)  # the first round's few pages in two processes too,
    monkeypatch.setattr(pool, "CHUNK", 1)  # a page at a time
    log = tmp_path / "rendered.log"  # every process appends: when each page began and ended, and where
    render_page = pool.render_page

    def logged(session, sink, path):
        began = time.monotonic()
        if page_layer(path, ("en",)) == "pages: sources":
            time.sleep(0.1)  # long enough for the first round's worker to take some
        digest = render_page(session, sink, path)
        with log.open("a") as out:
            out.write(f"{os.getpid()} {began} {time.monotonic()} {path}\n")
        return digest

    monkeypatch.setattr(pool, "render_page", logged)
    made: list[tuple] = []  # each render's word counts and files
    for workers, first in ((2, pool.FIRST_ROUND), (2, ("pages: people",)), (1, ())):  # people pages, unlike claims pages, have words search counts
        monkeypatch.setattr(pool, "FIRST_ROUND", first)
        log.write_text("")
        made.append(rendered_fresh(root, root / f"site-{len(made)}", workers))
        if len(made) == 1:
            rows = [line.split(" ", 3) for line in log.read_text().splitlines()]
            early = [(int(pid), float(ended)) for pid, _, ended, path in rows if page_layer(path, ("en",)) in ("pages: claims", "pages: sources")]
            later = [(int(pid), float(began)) for pid, began, _, path in rows if page_layer(path, ("en",)) not in ("pages: claims", "pages: sources")]
            assert len(early) >= 7 and later
            assert max(ended for _, ended in early) <= min(began for _, began in later)  # every one before any other page
            workers_early = {pid for pid, _ in early} - {os.getpid()}
            assert workers_early and os.getpid() in {pid for pid, _ in early}  # by two processes at once
            assert not workers_early & {pid for pid, _ in later} and {pid for pid, _ in later} - {os.getpid()}  # the other pages by a worker forked after them
    assert made[0] == made[1] == made[2] and made[2][0]["drove"] > len(people)  # the words of every page once (and a few more pages)


def test_each_rendering_worker_ends_after_its_share_of_pages_and_another_takes_its_place(make_site, monkeypatch, tmp_path):
    import os
    from collections import Counter

    from dossier.incremental import pool

    from conftest import SEED

    from dossier.model.i18n import LANGUAGES

    people = {f"content/people/person-{n:03}.md": f"---\nname: Person {n}\nsummary: S.\n---\nThey drove.[@ap \"across the bridge\"]\n" for n in range(40)}
    sources = {f"content/sources/s{n}.yaml": f"title: Story {n}\noutlet: Outlet\nlanguage: en\nseed: s{n}.txt\n" for n in range(8)}
    root = make_site({**people, **sources, **{f"seeds/s{n}.txt": SEED for n in range(8)}})  # a first round (sources, claims) of several workers
    monkeypatch.setattr(pool, "PARALLEL_FROM", 4)
    monkeypatch.setattr(pool, "CHUNK", 1)
    monkeypatch.setattr(pool, "WORKER_PAGES", 3)  # a worker's copies of the site's memory end with it
    monkeypatch.setattr(pool, "FIRST_ROUND_WORKER_PAGES", 2)  # sooner in the first round, whose pages read most of the site
    log = tmp_path / "rendered.log"
    render_page = pool.render_page

    def logged(session, sink, path):
        with log.open("a") as out:
            out.write(f"{os.getpid()} {path}\n")
        return render_page(session, sink, path)

    monkeypatch.setattr(pool, "render_page", logged)
    made = []
    for workers in (2, 1):
        log.write_text("")
        made.append(rendered_fresh(root, root / f"site-{workers}", workers))
        by_process = Counter(int(line.split(" ", 1)[0]) for line in log.read_text().splitlines())
        if workers == 2:
            forked = {pid: count for pid, count in by_process.items() if pid != os.getpid()}
            assert len(forked) >= 3 and max(forked.values()) <= 3  # worker after worker, each ending after its share
            first_round = Counter(int(line.split(" ", 1)[0]) for line in log.read_text().splitlines() if pool.page_layer(line.split(" ", 1)[1], LANGUAGES) in pool.FIRST_ROUND)
            first_workers = {pid: by_process[pid] for pid in first_round if pid != os.getpid()}
            assert len(first_workers) >= 2 and max(first_workers.values()) <= 2  # the first round's workers each end sooner
            assert by_process[os.getpid()] > 0
    assert made[0] == made[1] and made[1][0]["drove"] >= len(people)  # the same pages, each word counted once
