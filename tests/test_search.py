"""Search: Pagefind indexes the staged site during the build; portable builds carry a plain index too."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from dossier import search
from dossier.pipeline import build
from dossier.problems import UsageError


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
    assert '<form class="site-search" role="search" action="../../search/" method="get">' in header


def test_a_failed_index_stops_the_build_and_leaves_the_old_site(make_site, monkeypatch):
    root = make_site()
    build(root, root / "site")
    before = (root / "site/index.html").read_bytes()
    real_popen = subprocess.Popen  # Pagefind fails: an indexer that exits 1 saying why
    monkeypatch.setattr(search.subprocess, "Popen", lambda command, **options: real_popen([sys.executable, "-c", "import sys; sys.exit('Error: boom')"], **options))
    with pytest.raises(UsageError, match=r"search indexing failed \(Error: boom\); is pagefind installed\?"):
        build(root, root / "site", use_cache=False)
    assert (root / "site/index.html").read_bytes() == before
    assert not list(root.glob(".site.staging-*"))


def test_the_portable_index_holds_each_indexed_page_text_title_and_type():
    pages = {
        "people/x/index.html": b'<html><h1>Outside</h1><article data-pagefind-body data-pagefind-meta="type:Person"><h1>Jos\xc3\xa9 G\xc3\xb3mez</h1>'
                               b'<p>Drove <em>a truck</em>.</p><script>var x = "</";</script><svg><title>no</title></svg>'
                               b'<div data-pagefind-ignore>hidden</div><br><p>End &lt;/script&gt;<sup class="citation"><a>[1]</a></sup></p></article></html>',
        "timeline/index.html": b"<html><h1>Timeline</h1></html>",
    }
    script = search.fallback_index(pages).decode("utf-8")
    assert "</script" not in script
    data = json.loads(script.split(" = ", 1)[1].rstrip(";\n").replace("<\\/", "</"))
    assert data == [{"url": "people/x/", "title": "José Gómez", "type": "Person", "text": "José Gómez Drove a truck . End </script>"}]


def test_indexed_text_keeps_infobox_labels_apart_from_their_values(real_site):
    import gzip

    contents = {}
    for fragment in (real_site / "pagefind/fragment").glob("*.pf_fragment"):
        text = gzip.decompress(fragment.read_bytes()).decode("utf-8")
        data = json.loads(text[text.index("{"):])
        contents[data["url"].rstrip("/").rsplit("/", 1)[-1]] = data["content"]
    torres = contents["jorge-torres"]
    assert "Also written Jorge Torres Role National Guard sergeant; driver Affiliation Venezuelan National Guard Status" in torres
    assert "Date 23 February 2019, as stated" in contents["aid-convoy-blocked"]
