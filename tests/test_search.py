"""Search: Pagefind indexes the staged site during the build; portable builds carry a plain index too."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import copy_project
from dossier.search import indexing as search_indexing, parts as search_parts, words as search_words
from dossier.cli import main
from dossier.render.fallback import fallback_index
from dossier.pipeline import build
from dossier.model.problems import BuildFailure
from dossier.publish.folders import MARKER, listed_files
from dossier.publish.staging import walk_files


def test_the_build_indexes_the_site_and_keeps_only_what_the_search_page_uses(make_site):
    root = make_site()
    build(root, root / "site")
    bundle = root / "site/pagefind"
    assert (bundle / "pagefind.js").is_file() and (bundle / "pagefind-entry.json").is_file()
    assert not (bundle / "pagefind-ui.js").exists()
    made = (root / "site/.dossier-site").read_text(encoding="utf-8").splitlines()
    assert "pagefind/pagefind.js" in made
    build(root, root / "site", use_cache=False)  # the index files are the build's own: a full rebuild accepts them
    assert not (root / "site/search/fallback.js").exists()


def test_every_record_page_is_marked_for_indexing_with_its_type(make_site):
    root = make_site()
    build(root, root / "site")
    for path, kind in [("people/jorge-torres", "Person"), ("events/aid-convoy", "Event"), ("places/cucuta", "Place"), ("sources/ap", "Source")]:
        html = (root / "site" / path / "index.html").read_text(encoding="utf-8")
        assert f'data-pagefind-body data-pagefind-meta="type:{kind}"' in html, path
    assert "data-pagefind-body" not in (root / "site/timeline/index.html").read_text(encoding="utf-8")
    header = (root / "site/people/jorge-torres/index.html").read_text(encoding="utf-8")
    assert '<form class="site-search" role="search" action="../../search/" method="get" data-pagefind="../../pagefind/pagefind.js">' in header


def test_a_failed_index_stops_the_build_and_leaves_the_old_site(make_site, monkeypatch):
    root = make_site()
    build(root, root / "site")
    before = (root / "site/index.html").read_bytes()
    real_popen = subprocess.Popen  # Pagefind fails: an indexer that exits 1 saying why
    monkeypatch.setattr(search_indexing.subprocess, "Popen", lambda command, **options: real_popen([sys.executable, "-c", "import sys; sys.exit('Error: boom')"], **options))
    with pytest.raises(BuildFailure, match=r"search indexing failed \(Error: boom\); is pagefind installed\?"):
        build(root, root / "site", use_cache=False)
    assert (root / "site/index.html").read_bytes() == before
    assert not list(root.glob(".site.staging-*"))


def test_the_portable_index_holds_each_indexed_page_text_title_type_and_language():
    pages = {
        "people/x/index.html": b'<html lang="es"><h1>Outside</h1><article data-pagefind-body data-pagefind-meta="type:Person"><h1>Jos\xc3\xa9 G\xc3\xb3mez</h1>'
                               b'<p>Drove <em>a truck</em>.</p><script>var x = "</";</script><svg><title>no</title></svg>'
                               b'<div data-pagefind-ignore>hidden</div><br><p>End &lt;/script&gt;<sup class="citation"><a>[1]</a></sup></p></article></html>',
        "timeline/index.html": b"<html><h1>Timeline</h1></html>",
    }
    script = fallback_index(pages).decode("utf-8")
    assert "</script" not in script
    data = json.loads(script.split(" = ", 1)[1].rstrip(";\n").replace("<\\/", "</"))
    assert data == [{"url": "people/x/", "title": "José Gómez", "type": "Person", "text": "José Gómez Drove a truck . End </script>", "lang": "es"}]


def test_indexed_text_keeps_infobox_labels_apart_from_their_values(real_site):
    import gzip

    contents = {}
    for fragment in (real_site / "pagefind/fragment").glob("*.pf_fragment"):
        text = gzip.decompress(fragment.read_bytes()).decode("utf-8")
        data = json.loads(text[text.index("{"):])
        if not data["url"].startswith("/es/"):  # the English pages (test_i18n_site.py has the Spanish)
            contents[data["url"].rstrip("/").rsplit("/", 1)[-1]] = data["content"]
    torres = contents["jorge-torres"]
    assert "Role National Guard sergeant; driver Affiliation Venezuelan National Guard Status" in torres and "Also written" not in torres
    assert "Date 23 February 2019 inferred" in contents["aid-convoy-blocked"]


def test_pages_are_split_into_parts_that_keep_their_pages():
    pages = [f"people/person-{number}/index.html" for number in range(300)]
    parts = search_parts.split(pages, 100)
    assert len(parts) == 4  # a power of two, enough for 100 pages a part on average
    assert sorted(path for part in parts for path in part) == sorted(pages)
    grown = search_parts.split(pages + ["events/a-new-event/index.html"], 100)
    assert all(set(old) <= set(new) for old, new in zip(parts, grown))  # a new page moves no other
    assert search_parts.split(pages[:5], 100) == [sorted(pages[:5])]
    few = search_parts.split(pages[:3], 1)  # Pagefind cannot index an empty part: fewer parts instead
    assert all(few) and len(few) in (1, 2)
    long = [f"events/{'x' * 200}-{number}/index.html" for number in range(1000)]  # a glob Pagefind would not read
    assert all(sum(len(path) + 1 for path in part) < 2 * search_parts.PART_CHARACTERS for part in search_parts.split(long))


def indexed_urls(bundle: Path) -> dict[str, str]:
    """Return the text Pagefind holds for each page of one part's bundle, by URL."""
    import gzip

    found = {}
    for fragment in (bundle / "fragment").glob("*.pf_fragment"):
        text = gzip.decompress(fragment.read_bytes()).decode("utf-8")
        data = json.loads(text[text.index("{"):])
        found[data["url"]] = data["content"]
    return found


def part_bundles(site: Path) -> list[Path]:
    """Return the folder of each part of a built site's search index, the first one first."""
    listed = json.loads((site / "pagefind/parts.json").read_text(encoding="utf-8"))["parts"]
    return [site / "pagefind"] + [site / "pagefind" / name for name in listed]


def test_a_large_site_is_indexed_in_parts_holding_each_page_once(make_site, monkeypatch):
    monkeypatch.setattr(search_parts, "PART_PAGES", 2)
    root = make_site()
    build(root, root / "site")
    site = root / "site"
    bundles = part_bundles(site)
    assert len(bundles) > 2
    made = (site / ".dossier-site").read_text(encoding="utf-8").splitlines()
    searchable = {"/" + path.removesuffix("index.html") for path in made if path.endswith(".html") and search_words.SEARCHABLE in (site / path).read_bytes()}
    parts = [indexed_urls(bundle) for bundle in bundles]
    words = set(parts[0].pop("/pagefind-vocabulary/").split())  # every part holds every word of the site
    assert all(set(part.pop("/pagefind-vocabulary/").split()) == words for part in parts[1:])
    assert {"torres", "cúcuta", "sergeant"} <= words and not (site / "pagefind-vocabulary").exists()
    assert sum(len(part) for part in parts) == len(searchable) and set().union(*parts) == searchable
    for bundle in bundles:
        assert (bundle / "pagefind.js").is_file() and not (bundle / "pagefind-ui.js").exists()
        assert f"{bundle.relative_to(site).as_posix()}/pagefind.js" in made


def answers(site: Path) -> dict[str, str]:
    """Return the text of each page a built site's search index answers with, by URL: the parts'
    pages but those the delta replaces, and the delta's (asserting that none is there twice)."""
    listing = json.loads((site / "pagefind/parts.json").read_text(encoding="utf-8"))
    delta = listing.get("delta")
    replaced = {"/" + path.removesuffix("index.html") for path in delta["replaces"]} if delta else set()
    bundles = [(bundle, replaced) for bundle in part_bundles(site)] + ([(site / "pagefind" / delta["folder"], set())] if delta else [])
    found: dict[str, str] = {}
    for bundle, left_out in bundles:
        for url, text in indexed_urls(bundle).items():
            if url not in left_out and not url.endswith("/pagefind-vocabulary/"):
                assert url not in found, url
                found[url] = text
    return found


def vocabulary(bundle: Path) -> set[str]:
    """Return the words of a bundle's (English) vocabulary page."""
    return set(indexed_urls(bundle)["/pagefind-vocabulary/"].split())


def test_an_edit_is_indexed_into_a_delta_until_the_pages_changed_pass_its_limit(tmp_path, monkeypatch):
    monkeypatch.setattr(search_parts, "PART_PAGES", 16)  # a delta of at most 4 pages
    root = copy_project(tmp_path / "project")
    site = tmp_path / "site"
    build(root, site)
    bundles = part_bundles(site)
    assert len(bundles) >= 4
    base = vocabulary(bundles[0])
    inodes = {path: (site / "pagefind" / path).stat().st_ino for path in walk_files(site / "pagefind") if path != "parts.json"}
    folders = {path: path.stat().st_ino for path in [site / "pagefind", *bundles[1:]]}  # the parts stay where they are: not made again
    edits = [("jorge-torres", "Torres was a sergeant", "Torres was a marmalade sergeant"),  # a word new to the site
             ("jorge-torres", "Torres was a marmalade sergeant", "Torres was a sergeant"),  # gone again
             ("jose-gomez", "José Gómez, a father of two, was a sergeant in", "José Gómez, a father of two, was a marmalade sergeant in"),  # a second page: the delta holds both
             ("jesus-parra", "was a police officer in", "was a marmalade police officer in"),  # a third, a fourth (the limit: a quarter of a part)
             ("jarle", "Jarle, 33, was a sergeant", "Jarle, 33, was a marmalade sergeant"),
             ("angel", "Angel, 24, was a sergeant", "Angel, 24, was a marmalade sergeant")]  # a fifth: past the limit, the parts are indexed again
    replaced: set[str] = set()
    for number, (person, old, new) in enumerate(edits):
        path = root / f"content/people/{person}.md"
        text = path.read_text(encoding="utf-8")
        assert old in text, (person, old)
        path.write_text(text.replace(old, new, 1), encoding="utf-8")
        build(root, site)
        cold = tmp_path / f"cold{number}"
        build(root, cold, use_cache=False)
        listing = json.loads((site / "pagefind/parts.json").read_text(encoding="utf-8"))
        assert listed_files(site) == set(walk_files(site)) - {MARKER}  # the marker lists the parts left in place, and only what is there
        if number == len(edits) - 1:
            assert "delta" not in listing and tree(site / "pagefind") == tree(cold / "pagefind")
            break
        assert {path: path.stat().st_ino for path in folders} == folders
        delta = listing["delta"]
        assert replaced | {f"people/{person}/index.html"} <= set(delta["replaces"])  # kept from build to build
        replaced = set(delta["replaces"])
        assert len(replaced) <= search_parts.PART_PAGES // search_parts.DELTA_SHARE
        marmalade = "marmalade" in new
        assert delta["added"] == (["marmalade"] if marmalade else [])
        assert vocabulary(site / "pagefind/delta") == base | ({"marmalade"} if marmalade else set())  # words gone stay: the parts know them
        pages = [fragment for fragment in (site / "pagefind/delta/fragment").iterdir() if not url_of(fragment).endswith("/pagefind-vocabulary/")]
        assert sorted(delta["ids"]) == sorted(fragment.name.removesuffix(".pf_fragment") for fragment in pages)  # the ids of its results
        carried = {path: (site / "pagefind" / path).stat().st_ino for path in inodes}  # every file of the parts, linked
        assert carried == inodes, [path for path in inodes if carried[path] != inodes[path]][:5]
        assert answers(site) == answers(cold), number


def url_of(fragment: Path) -> str:
    """Return the URL of one page fragment."""
    import gzip

    text = gzip.decompress(fragment.read_bytes()).decode("utf-8")
    return json.loads(text[text.index("{"):])["url"]


def test_a_damaged_part_or_delta_is_indexed_again(tmp_path, monkeypatch):
    monkeypatch.setattr(search_parts, "PART_PAGES", 16)
    root = copy_project(tmp_path / "project")
    site = tmp_path / "site"
    build(root, site)
    person = root / "content/people/jorge-torres.md"
    for number, (old, new) in enumerate([("Torres was a sergeant", "Torres was a marmalade sergeant"), ("Torres was a marmalade sergeant", "Torres was a sergeant")]):
        (part_bundles(site)[1] / "pagefind.js").unlink() if number == 0 else (site / "pagefind/delta/pagefind.js").unlink()
        person.write_text(person.read_text(encoding="utf-8").replace(old, new, 1), encoding="utf-8")
        build(root, site)
        build(root, tmp_path / f"cold{number}", use_cache=False)
        assert tree(site / "pagefind") == tree(tmp_path / f"cold{number}/pagefind")  # indexed whole: no delta
        marmalade = root / "content/people/jose-gomez.md"
        marmalade.write_text(marmalade.read_text(encoding="utf-8") + "\nA marmalade.\n" * (number + 1), encoding="utf-8")
        build(root, site)  # a delta, damaged next
        assert "delta" in json.loads((site / "pagefind/parts.json").read_text(encoding="utf-8"))


def tree(folder: Path) -> dict[str, bytes]:
    """Return every file of a folder by relative path."""
    return {path: (folder / path).read_bytes() for path in walk_files(folder)}


def test_pages_rendered_by_several_processes_equal_those_rendered_by_one(tmp_path, monkeypatch):
    monkeypatch.setattr(search_parts, "PART_PAGES", 16)  # every part indexes the words counted as the pages render
    root = copy_project(tmp_path / "project")
    build(root, tmp_path / "one", use_cache=False, workers=1)
    build(root, tmp_path / "three", use_cache=False, workers=3)
    one, three = tree(tmp_path / "one"), tree(tmp_path / "three")
    assert len(one) > 300 and one.keys() == three.keys()
    assert [path for path in one if one[path] != three[path]] == []


def test_the_words_of_a_page_are_those_from_its_indexed_element_on():
    page = ("<html><head><title>Menu heading</title></head><body><nav>Navigation</nav>"
            "<main data-pagefind-body><h1>Jorge Torres</h1><p>Crossed the Simón-Bolívar bridge &amp; O'Brien's</p></main>"
            "<footer>Colophon</footer></body></html>").encode()
    words = search_words.words_of(page)
    assert {"jorge", "torres", "simón-bolívar", "simón", "bolívar", "simónbolívar", "o'brien's", "obriens", "colophon"} <= words
    assert not words & {"menu", "heading", "navigation", "data", "pagefind", "body", "amp", "main"}
    assert "navigation" in search_words.words_of(page.replace(b" data-pagefind-body", b""))  # no indexed element: every word


def test_a_site_named_by_a_relative_path_is_indexed(make_site, monkeypatch):
    root = make_site()
    build(root, root / "site")
    pages = [path for path in walk_files(root / "site") if path.endswith(".html") and search_words.SEARCHABLE in (root / "site" / path).read_bytes()]
    shutil.rmtree(root / "site/pagefind")
    monkeypatch.chdir(root)
    search_indexing.index_site(Path("site"), pages)  # Pagefind runs in a folder of its own, not here
    assert indexed_urls(root / "site/pagefind").keys() == {"/" + path.removesuffix("index.html") for path in pages}


def test_a_parts_texts_are_deleted_once_it_is_indexed_and_made_again_if_it_is_indexed_again(make_site, monkeypatch):
    """The texts Pagefind read go as each part is indexed, not all at the build's end."""
    monkeypatch.setattr(search_parts, "PART_PAGES", 2)
    root = make_site()
    build(root, root / "site")
    pages = [path for path in walk_files(root / "site") if path.endswith(".html") and search_words.SEARCHABLE in (root / "site" / path).read_bytes()]
    from dossier.publish.staging import SEARCH_TEXTS, write_into
    from dossier.search.pagetext import search_text

    write_into(root / "site" / SEARCH_TEXTS, {path: search_text((root / "site" / path).read_bytes()) for path in pages})  # as a build renders them
    indexing = search_indexing.Indexing(root / "site", pages, jobs=2, texts=root / "site" / SEARCH_TEXTS)
    indexing.runner.join()
    assert not indexing.untexted and len(indexing.parts) > 2 and len(indexing.removals) == len(indexing.parts)
    for removal in indexing.removals:
        removal.join()
    assert indexing.texts_gone == set(pages)
    assert sorted(walk_files(indexing.texts)) == sorted(indexing.vocabularies)  # the pages' texts, and their own folders, are gone
    assert not any(name for name in (indexing.texts / "people").iterdir())
    first = indexed_urls(indexing.output(1))
    assert indexing.index_part(1) is None and indexed_urls(indexing.output(1)) == first  # its texts made again
    indexing.finish()
    assert not indexing.texts.exists()
    assert sum(len(indexed_urls(bundle)) - 1 for bundle in part_bundles(root / "site")) == len(pages)


def test_indexing_runs_no_more_pagefinds_at_a_time_than_it_is_allowed(make_site, monkeypatch):
    monkeypatch.setattr(search_parts, "PART_PAGES", 2)
    root = make_site()
    build(root, root / "site")
    pages = [path for path in walk_files(root / "site") if path.endswith(".html") and search_words.SEARCHABLE in (root / "site" / path).read_bytes()]
    real_popen, running, most = search_indexing.subprocess.Popen, [0], [0]

    class Counted(real_popen):  # type: ignore[misc, valid-type]
        def __init__(self, *args, **options):
            super().__init__(*args, **options)
            running[0] += 1
            most[0] = max(most[0], running[0])

        def communicate(self, *args, **options):
            try:
                return super().communicate(*args, **options)
            finally:
                running[0] -= 1

    monkeypatch.setattr(search_indexing.subprocess, "Popen", Counted)
    indexing = search_indexing.Indexing(root / "site", pages, jobs=1)
    assert len(indexing.parts) >= 4
    indexing.finish(1)
    assert most[0] == 1 and running[0] == 0
    most[0] = 0
    search_indexing.Indexing(root / "site", pages, jobs=1).finish(3)  # widened past the cores of this machine, if need be
    assert most[0] == 3 and running[0] == 0
    assert main(["build", "--source", str(root), "--jobs", "0"]) == 2
    assert main(["build", "--source", str(root), "--jobs", "1", "--out", str(root / "one")]) == 0
    assert tree(root / "one/pagefind") == tree(root / "site/pagefind")


def test_page_furniture_is_not_indexed(real_site):
    contents = {url.strip("/"): text for url, text in indexed_urls(real_site / "pagefind").items()}
    assert len(contents) > 100
    for url, text in contents.items():
        for furniture in ("Mentioned on", "Sources cited", "↑", "Cited by", "The article as stored", "Notes on this source"):
            assert furniture not in text, (url, furniture)
    assert "Cúcuta" in contents["places/cucuta"] and "Small hotels in Cúcuta" in contents["places/cucuta-hotels"]
    assert "Small hotels in Cúcuta" not in contents["places/cucuta"]  # a page's own text: the places, events and people it lists are indexed on their own pages


def test_pagefind_is_given_each_page_s_searchable_text_and_nothing_of_it_is_published(real_site):
    from dossier.render.fallback import _BodyText
    from dossier.publish.staging import SEARCH_TEXTS as TEXTS
    from dossier.search.pagetext import search_text

    def read(page: bytes) -> tuple[list[str], str, str]:
        """Return the words of a page's text as this parser reads them (parted at every tag, where
        Pagefind parts them at no inline element's), its title and its type."""
        parser = _BodyText()
        parser.feed(page.decode("utf-8"))
        return re.findall(r"\w+", " ".join(parser.text)), "".join(parser.title), parser.type

    pages = [path for path in walk_files(real_site) if path.endswith(".html")]
    searchable = [path for path in pages if search_words.SEARCHABLE in (real_site / path).read_bytes()]
    assert len(searchable) > 100
    for path in searchable:
        page = (real_site / path).read_bytes()
        text = search_text(page)
        assert text is not None and len(text) < len(page) / 2, path
        (words, title, kind), (page_words, page_title, page_kind) = read(text), read(page)
        assert ("".join(words), title, kind) == ("".join(page_words), page_title, page_kind), path  # what search reads of the whole page
        assert set(words) <= set(page_words), (path, set(words) - set(page_words))  # no two words run together, as with no space between a name and a role
        assert text.startswith(b'<!doctype html>\n<html lang="' + (b"es" if path.startswith("es/") else b"en") + b'">'), path
        assert not re.search(rb'<[a-z][^>]*\s(id|class|href)="', text), path  # Pagefind would keep each id as an anchor, which search does not show
    assert any(b' id="claim-1"' in (real_site / path).read_bytes() for path in searchable)
    assert all(search_text((real_site / path).read_bytes()) is None for path in set(pages) - set(searchable))
    assert not (real_site / TEXTS).exists() and not any(TEXTS in path for path in walk_files(real_site))


def test_the_search_text_leaves_out_the_marked_elements_whole_and_only_those():
    from dossier.search.pagetext import HEAD, search_text

    page = (b'<html lang="en"><body><nav>Menu</nav><main data-pagefind-body><p>Use data-pagefind-ignore to hide. <span data-x class="citation">[1]'
            b'<span>n</span></span> after</p>\n<div\nclass="note link-list"><div>x</div></div><p data-class="citation">kept</p></main></body></html>')
    assert search_text(page) == HEAD % b"en" + (b'<main data-pagefind-body><p>Use data-pagefind-ignore to hide.  after</p>\n'
                                                 b'<p>kept</p></main>\n</body></html>\n')  # (its data-class, which search has no use for, dropped)


def test_the_search_text_drops_the_attributes_and_inline_tags_search_has_no_use_for():
    """Pagefind keeps each element with an id as an anchor, for results within a page that the
    search page does not show, and parses every attribute and tag: a fourth of its CPU time on a
    large site. The text it reads is the same."""
    from dossier.search.pagetext import HEAD, search_text

    page = (b'<html lang="en"><body><article class="record" id="top" data-pagefind-body data-pagefind-meta="type:Person"><h2 id="why">Why</h2>'
            b'<p><span class="claim" id="claim-1"></span>Write id="x" or class="y" in text, <a data-id="k" href="#a"\nid="b" title="n">a link</a>, '
            b'<span lang="es" aria-label="z">una</span> <img src="i.png" alt="a picture"></p></article></body></html>')
    assert search_text(page) == HEAD % b"en" + (b'<article data-pagefind-body data-pagefind-meta="type:Person"><h2>Why</h2><p>'
                                                 b'Write id="x" or class="y" in text, a link, una '
                                                 b'<img src="i.png" alt="a picture"></p></article>\n</body></html>\n')


def test_the_search_text_keeps_inline_tags_where_one_carries_an_attribute_of_pagefind_s():
    from dossier.search.pagetext import search_text

    page = b'<html lang="en"><body><main data-pagefind-body><p><em>Year</em> <span class="y" data-pagefind-filter="year">2019</span></p></main></body></html>'
    assert b'<p><em>Year</em> <span data-pagefind-filter="year">2019</span></p>' in search_text(page)


def test_pagefind_runs_as_its_own_binary_not_through_a_python_wrapper():
    """`python -m pagefind` starts Python to find the binary and run it in its place: 60 ms a run,
    sixteen runs in a large site's cold build. The build runs the binary its package names."""
    from pathlib import Path

    command = search_indexing.pagefind_command()
    assert len(command) == 1 and Path(command[0]).is_file() and Path(command[0]).name.startswith("pagefind")
    done = subprocess.run([*command, "--version"], capture_output=True, text=True)
    assert done.returncode == 0 and "1." in done.stdout
