"""add-source end to end on saved pages the tests write: what it stores, where each value came from,
what it refuses, and that the project still checks afterwards."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given, strategies as st

from dossier.cli import main
from dossier.editors.importer import default_id, quote
from dossier.read.documents import load_yaml

PARAGRAPHS = [
    "CÚCUTA, Colombia — Sgt. Jorge Torres drove an armoured truck across the Simón Bolívar bridge on Saturday, leaving behind the army he had served for six years.",
    "“We’re going to change history,” Torres said, standing in the shelter where forty soldiers now sleep on thin mats on the floor.",
    "Over 270 mostly low-ranking soldiers fled in a span of three days, Colombian immigration officials said Monday, and the number was expected to rise.",
]
TITLE = "Venezuelan soldiers cross into Colombia"
NAV = '<nav><ul><li><a href="/world">World</a></li><li><a href="/politics">Politics</a></li></ul></nav>'


def page(head: str = "", *, lang: str = "", title: str = TITLE, heading: str = TITLE) -> str:
    """A saved article page: the given <head> extras, a menu, the article, a footer."""
    body = "".join(f"<p>{p}</p>" for p in PARAGRAPHS)
    html_open = f'<html lang="{lang}">' if lang else "<html>"
    title_tag = f"<title>{title}</title>" if title else ""
    return (f'<!doctype html>{html_open}<head><meta charset="utf-8">{title_tag}{head}</head><body>{NAV}'
            f"<article><h1>{heading}</h1>{body}</article><footer><p>© The Daily Record</p></footer></body></html>")


JSON_LD = {
    "@context": "https://schema.org", "@type": "NewsArticle", "headline": TITLE,
    "datePublished": "2019-02-26T10:00:00-05:00",
    "author": [{"@type": "Person", "name": "Ana Pérez"}, {"@type": "Person", "name": "John Smith"}],
    "publisher": {"@type": "Organization", "name": "The Daily Record"},
    "mainEntityOfPage": {"@type": "WebPage", "@id": "https://example.org/world/soldiers-cross"},
    "inLanguage": "en",
}
JSON_LD_PAGE = page(
    '<meta property="og:title" content="Soldiers cross (the social headline)">'
    f'<script type="application/ld+json">{json.dumps(JSON_LD)}</script>',
    title=f"{TITLE} | The Daily Record",
)
OPEN_GRAPH_PAGE = page(
    '<meta property="og:title" content="Soldiers flee across the border">'
    '<meta property="og:site_name" content="El Diario">'
    '<meta property="og:url" content="https://example.com/soldiers-flee">'
    '<meta property="article:published_time" content="2019-03-01">'
    '<meta name="author" content="By Luis Gómez and María Ruiz">',
    lang="es-VE", title="Soldiers flee | El Diario",
)
BARE_PAGE = page(title="", heading="Soldiers wait at the shelter")
NAVIGATION_PAGE = (
    "<!doctype html><html lang='en'><head><title>World news | The Daily Record</title>"
    "<meta property='og:site_name' content='The Daily Record'></head><body><nav><ul>"
    + "".join(f"<li><a href='/story/{i}'>Story number {i}: soldiers and officials at the border</a></li>" for i in range(30))
    + "</ul></nav></body></html>"
)


def run(capsys, *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def save(tmp_path: Path, text: str | bytes, name: str = "saved.html") -> Path:
    path = tmp_path / name
    path.write_bytes(text if isinstance(text, bytes) else text.encode("utf-8"))
    return path


def files_of(root: Path) -> dict[str, bytes]:
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


def source_lines(root: Path, rid: str) -> dict[str, str]:
    """The source file's lines by key."""
    text = (root / "content" / "sources" / f"{rid}.yaml").read_text(encoding="utf-8")
    return {line.partition(":")[0]: line for line in text.splitlines()}


def test_a_json_ld_article_is_stored_with_each_value_and_its_origin(make_site, tmp_path, capsys):
    root = make_site()
    code, out, err = run(capsys, "add-source", str(save(tmp_path, JSON_LD_PAGE)), "--source", str(root))
    assert code == 0, err
    rid = "venezuelan-soldiers-cross-into-colombia"
    seed = (root / "seeds" / f"{rid}.txt").read_text(encoding="utf-8")
    assert seed == "\n\n".join(PARAGRAPHS) + "\n"  # no menu, no footer, no headline; a blank line between paragraphs
    lines = source_lines(root, rid)
    assert lines["title"] == f'title: "{TITLE}"  # from JSON-LD NewsArticle headline'
    assert lines["outlet"] == 'outlet: "The Daily Record"  # from JSON-LD NewsArticle publisher'
    assert lines["byline"] == 'byline: ["Ana Pérez", "John Smith"]  # from JSON-LD NewsArticle author'
    assert lines["byline_basis"].startswith("byline_basis: stated  #")
    assert lines["published"] == "published: 2019-02-26  # from JSON-LD NewsArticle datePublished (2019-02-26T10:00:00-05:00)"
    assert lines["published_basis"].startswith("published_basis: stated  #")
    assert lines["url"] == 'url: "https://example.org/world/soldiers-cross"  # from JSON-LD NewsArticle mainEntityOfPage'
    assert lines["language"] == 'language: "en"  # from JSON-LD NewsArticle inLanguage'
    assert lines["seed"].startswith(f'seed: "{rid}.txt"  #')
    assert out.splitlines()[:2] == [f"created {root / 'seeds' / f'{rid}.txt'}: 3 paragraphs, {len(seed.split())} words",
                                    f"created {root / 'content' / 'sources' / f'{rid}.yaml'}"]
    assert "not found" not in out


def test_the_written_source_checks_and_its_text_can_be_cited(make_site, tmp_path, capsys):
    root = make_site()
    assert run(capsys, "add-source", str(save(tmp_path, JSON_LD_PAGE)), "--source", str(root), "--id", "record-soldiers")[0] == 0
    (root / "content" / "people" / "jorge-torres.md").write_text(
        "---\nname: Jorge Torres\naliases: [Jorge Torres]\nsummary: A sergeant.\n---\n"
        'Torres drove a truck.[@ap "drove an armoured truck across the bridge"]\n'
        'He crossed the bridge.[@record-soldiers "We’re going to change history,” Torres said"]\n', encoding="utf-8")
    code, out, err = run(capsys, "check", "--source", str(root))
    assert code == 0, err
    assert "check passed" in out and ": error: " not in err
    assert "content/sources/record-soldiers.yaml" not in err  # cited, so not "cited nowhere"


def test_an_open_graph_page_gives_its_values_and_checks(make_site, tmp_path, capsys):
    root = make_site()
    code, out, err = run(capsys, "add-source", str(save(tmp_path, OPEN_GRAPH_PAGE)), "--source", str(root))
    assert code == 0, err
    lines = source_lines(root, "soldiers-flee-across-the-border")
    assert lines["title"] == 'title: "Soldiers flee across the border"  # from og:title'
    assert lines["outlet"] == 'outlet: "El Diario"  # from og:site_name'
    assert lines["byline"] == 'byline: ["Luis Gómez", "María Ruiz"]  # from <meta name="author">'
    assert lines["published"] == "published: 2019-03-01  # from article:published_time"
    assert lines["url"] == 'url: "https://example.com/soldiers-flee"  # from og:url'
    assert lines["language"] == 'language: "es-VE"  # from <html lang>'
    code, out, err = run(capsys, "check", "--source", str(root))
    assert code == 0 and "check passed" in out, err


def test_a_page_without_metadata_leaves_each_value_empty_and_names_it(make_site, tmp_path, capsys):
    root = make_site()
    code, out, err = run(capsys, "add-source", str(save(tmp_path, BARE_PAGE)), "--source", str(root))
    assert code == 0, err
    rid = "soldiers-wait-at-the-shelter"
    lines = source_lines(root, rid)
    assert lines["title"] == "title: \"Soldiers wait at the shelter\"  # from the page's first <h1>"
    assert lines["outlet"] == 'outlet: ""  # not found in the page: fill in the publisher (required: check fails until then)'
    assert lines["byline"] == "byline: []  # not found in the page: fill in the authors"
    assert lines["byline_basis"].startswith('byline_basis: ""  #')
    assert lines["published"] == 'published: ""  # not found in the page: fill in an EDTF date such as 2019-02-23'
    assert lines["published_basis"].startswith('published_basis: ""  #')
    assert lines["url"] == "url: \"\"  # not found in the page: fill in the original's address, if known"
    assert lines["language"] == 'language: ""  # not found in the page: fill in a language code such as en (required: check fails until then)'
    assert out.splitlines()[-2:] == [
        f"not found in the page: outlet, byline, published, url, language; fill them in {root / 'content' / 'sources' / f'{rid}.yaml'}",
        "check fails until outlet and language are filled in",
    ]
    assert (root / "seeds" / f"{rid}.txt").read_text(encoding="utf-8") == "\n\n".join(PARAGRAPHS) + "\n"
    # check names exactly the two required values the page lacks, and passes once an editor fills them in
    code, _, err = run(capsys, "check", "--source", str(root))
    assert code == 1
    assert [line for line in err.splitlines() if ": error: " in line] == [
        f"content/sources/{rid}.yaml:2: error: a source needs 'outlet' (publisher)",  # each at the line of the empty field
        f"content/sources/{rid}.yaml:9: error: a source needs 'language' (language code, such as en)",
    ]
    path = root / "content" / "sources" / f"{rid}.yaml"
    text = path.read_text(encoding="utf-8").replace('outlet: ""', 'outlet: "The Daily Record"').replace('language: ""', 'language: "en"')
    path.write_text(text, encoding="utf-8")
    code, out, err = run(capsys, "check", "--source", str(root))
    assert code == 0 and "check passed" in out, err


def test_a_page_that_is_not_an_article_is_refused_and_nothing_is_written(make_site, tmp_path, capsys):
    root = make_site()
    before = files_of(root)
    saved = save(tmp_path, NAVIGATION_PAGE)
    code, out, err = run(capsys, "add-source", str(saved), "--source", str(root))
    assert code == 2 and out == ""
    assert err == f"dossier: error: {saved} looks like a list of links (its extracted text is mostly link titles), not an article; nothing written\n"
    assert files_of(root) == before


@pytest.mark.parametrize("content, message", [
    (b"", "is not readable HTML"),
    (b"just a line of plain text, no markup at all\n", "is not readable HTML"),
    (b"%PDF-1.4\n\x00\x01\x02\x03 binary", "is not readable HTML"),
])
def test_a_file_that_is_not_html_is_refused(make_site, tmp_path, capsys, content, message):
    root = make_site()
    before = files_of(root)
    saved = save(tmp_path, content)
    code, out, err = run(capsys, "add-source", str(saved), "--source", str(root), "--id", "x")
    assert code == 2 and out == ""
    assert err == f"dossier: error: {saved} {message}: save the article's page as HTML and try again\n"
    assert files_of(root) == before


def test_an_html_page_without_text_is_refused(make_site, tmp_path, capsys):
    root = make_site()
    before = files_of(root)
    saved = save(tmp_path, "<html><head><title>Empty</title></head><body><div></div></body></html>")
    assert run(capsys, "add-source", str(saved), "--source", str(root)) == (
        2, "", f"dossier: error: {saved} has no article text that could be extracted (is it an index or navigation page?); nothing written\n")
    assert files_of(root) == before


def test_a_missing_page_and_a_bad_id_are_refused(make_site, tmp_path, capsys):
    root = make_site()
    before = files_of(root)
    assert run(capsys, "add-source", str(tmp_path / "gone.html"), "--source", str(root)) == (2, "", f"dossier: error: {tmp_path / 'gone.html'} does not exist\n")
    saved = save(tmp_path, JSON_LD_PAGE)
    assert run(capsys, "add-source", str(saved), "--source", str(root), "--id", "Bad Id") == (
        2, "", "dossier: error: --id should be an id such as 'bad-id', not 'Bad Id'\n")
    code, _, err = run(capsys, "add-source", str(saved), "--source", str(tmp_path / "nowhere"))
    assert code == 2 and "has no content/ folder" in err
    assert files_of(root) == before


def test_no_title_and_no_id_is_refused_and_an_id_makes_it_work(make_site, tmp_path, capsys):
    root = make_site()
    saved = save(tmp_path, page(title="", heading=""))
    assert run(capsys, "add-source", str(saved), "--source", str(root)) == (
        2, "", f"dossier: error: {saved} has no title to make an id from: give one with --id\n")
    code, out, err = run(capsys, "add-source", str(saved), "--source", str(root), "--id", "untitled-story")
    assert code == 0, err
    assert "title" in out.splitlines()[-2] and (root / "seeds" / "untitled-story.txt").is_file()


@pytest.mark.parametrize("existing", ["seeds/ap.txt", "content/sources/ap.yaml"])
def test_an_existing_seed_or_source_is_never_overwritten(make_site, tmp_path, capsys, existing):
    root = make_site({"seeds/ap.txt": "Stored text.\n"} if existing == "seeds/ap.txt" else {"content/sources/ap.yaml": "title: X\noutlet: Y\nlanguage: en\nseed: other.txt\n", "seeds/other.txt": "Text.\n"})
    if existing == "seeds/ap.txt":
        (root / "content" / "sources" / "ap.yaml").unlink()
    before = files_of(root)
    code, out, err = run(capsys, "add-source", str(save(tmp_path, JSON_LD_PAGE)), "--source", str(root), "--id", "ap")
    assert (code, out) == (2, "")
    assert err == f"dossier: error: {root / existing} already exists; choose another id with --id\n"
    assert files_of(root) == before


def test_a_failed_write_leaves_nothing_behind(make_site, tmp_path, capsys):
    root = make_site()
    for path in (root / "content" / "sources").iterdir():
        path.unlink()
    (root / "content" / "sources").rmdir()
    (root / "content" / "sources").write_text("a file where the folder should be\n", encoding="utf-8")
    before = files_of(root)
    code, out, err = run(capsys, "add-source", str(save(tmp_path, JSON_LD_PAGE)), "--source", str(root), "--id", "record-soldiers")
    assert (code, out) == (2, "") and len(err.splitlines()) == 1 and "cannot write" in err
    assert files_of(root) == before  # the seed, written first, was removed again


def test_a_page_in_another_encoding_is_stored_as_utf8(make_site, tmp_path, capsys):
    root = make_site()
    text = page('<meta property="og:site_name" content="El Diario">', lang="es", title="Los soldados huyen", heading="Los soldados huyen")
    text = text.replace('<meta charset="utf-8">', '<meta charset="windows-1252">').replace("“", '"').replace("”", '"').replace("’", "'").replace("—", "-")
    code, _, err = run(capsys, "add-source", str(save(tmp_path, text.encode("cp1252"))), "--source", str(root))
    assert code == 0, err
    seed = (root / "seeds" / "los-soldados-huyen.txt").read_text(encoding="utf-8")
    assert seed.startswith("CÚCUTA, Colombia - Sgt. Jorge Torres") and "Simón Bolívar" in seed


def test_values_dossier_cannot_use_are_set_aside_and_named(make_site, tmp_path, capsys):
    root = make_site()
    text = page('<meta property="og:site_name" content="The Daily Record">'
                '<meta property="og:url" content="/relative/soldiers">'
                '<link rel="canonical" href="https://example.org/canonical/soldiers">'
                '<meta property="article:published_time" content="February 26, 2019">'
                '<meta name="date" content="2019-02-30">'
                '<script type="application/ld+json">{not json</script>', lang="en", title=f"{TITLE} | The Daily Record")
    code, out, err = run(capsys, "add-source", str(save(tmp_path, text)), "--source", str(root))
    assert code == 0, err
    lines = source_lines(root, "venezuelan-soldiers-cross-into-colombia")
    assert lines["title"] == f'title: "{TITLE}"  # from <title>, less " | The Daily Record" (the page\'s <h1> is the headline)'
    assert lines["url"] == 'url: "https://example.org/canonical/soldiers"  # from <link rel="canonical">'
    assert lines["published"].startswith('published: ""  # not found in the page')
    assert "  ignored: og:url '/relative/soldiers' is not an http(s) address" in out
    assert "  ignored: article:published_time 'February 26, 2019' is not a date such as 2019-02-23" in out
    assert "  ignored: <meta name=\"date\"> '2019-02-30' is not a date such as 2019-02-23" in out
    assert "  ignored: a JSON-LD block that is not valid JSON" in out
    assert run(capsys, "check", "--source", str(root))[0] == 0


def test_awkward_titles_survive_the_source_file(make_site, tmp_path, capsys):
    root = make_site()
    awkward = 'No: "the #1 story" \\ ¿qué? — yes'
    ld = {"@type": ["NewsArticle"], "headline": awkward, "publisher": {"name": "The Daily Record"}, "inLanguage": "no"}
    text = page(f'<script type="application/ld+json">{json.dumps(ld)}</script>', title="")
    code, _, err = run(capsys, "add-source", str(save(tmp_path, text)), "--source", str(root), "--id", "awkward")
    assert code == 0, err
    data, _, problems = load_yaml((root / "content" / "sources" / "awkward.yaml").read_text(encoding="utf-8"), "awkward.yaml")
    assert problems == [] and data["title"] == awkward and data["language"] == "no"
    assert run(capsys, "check", "--source", str(root))[0] == 0


def test_json_ld_in_a_graph_with_references_is_followed(make_site, tmp_path, capsys):
    root = make_site()
    graph = {"@context": "https://schema.org", "@graph": [
        {"@type": "Organization", "@id": "#org", "name": "The Daily Record"},
        {"@type": "WebPage", "@id": "https://example.org/p", "mainEntity": {"@type": "ReportageNewsArticle", "headline": "Graph headline",
                                                                         "publisher": {"@id": "#org"}, "datePublished": "2019-04-13"}},
    ]}
    text = page(f'<script type="application/ld+json">{json.dumps(graph)}</script>', lang="en", title="")
    code, out, err = run(capsys, "add-source", str(save(tmp_path, text)), "--source", str(root))
    assert code == 0, err
    lines = source_lines(root, "graph-headline")
    assert lines["outlet"] == 'outlet: "The Daily Record"  # from JSON-LD ReportageNewsArticle publisher'
    assert lines["published"] == "published: 2019-04-13  # from JSON-LD ReportageNewsArticle datePublished"


def test_a_long_title_makes_an_id_cut_between_words():
    rid = default_id("Attacked and powerless, Venezuela soldiers choose desertion as the aid convoy fails at the border")
    assert rid == "attacked-and-powerless-venezuela-soldiers-choose-desertion"
    assert len(rid) <= 60


@given(st.text())
def test_quoted_text_reads_back_as_itself(text):
    text = "".join(ch for ch in text if not 0xD800 <= ord(ch) <= 0xDFFF)  # lone surrogates: not in any decoded page
    data, _, problems = load_yaml(f"title: {quote(text)}  # from og:title\n", "t.yaml")
    assert problems == [] and data["title"] == text


# A page saved from Deutsche Welle's site, as DW wrote its pages in 2020 (written for these tests): a
# headline followed by the section, the site's short name and the date in the title and og:title; the
# outlet as the author in the meta tags; the author and date only in the visible byline.
DW_HEADLINE = "Libya conference: World leaders agree to uphold arms embargo"
DW_TITLE = f"{DW_HEADLINE} | News | DW | 19.01.2020"
DW_PARAGRAPHS = [
    "World leaders meeting in Berlin on Sunday agreed to respect a UN arms embargo on Libya and to stop supporting the warring parties.",
    "German Chancellor Angela Merkel said all participants had agreed that there could be no military solution to the conflict.",
    "The conference brought together the leaders of the countries most involved, including Russia, Turkey, France and Egypt.",
]
DW_BYLINE = '<ul class="smallList"><li><strong>Date</strong> 19.01.2020</li><li><strong>Author</strong> Ben Knight</li></ul>'


def dw_page(json_ld: dict | None) -> str:
    ld = f'<script type="application/ld+json">{json.dumps(json_ld)}</script>' if json_ld else ""
    body = "".join(f"<p>{p}</p>" for p in DW_PARAGRAPHS)
    return ('<!doctype html><html lang="en"><head><meta charset="utf-8">'
            f'<title>{DW_TITLE}</title><meta name="author" content="Deutsche Welle (www.dw.com)">'
            f'<meta property="og:title" content="{DW_TITLE}"><meta property="og:site_name" content="DW.COM">'
            '<meta property="og:url" content="https://www.dw.com/en/libya-conference/a-52054233">'
            f'{ld}</head><body>{NAV}<div id="bodyContent"><h1>{DW_HEADLINE}</h1>{DW_BYLINE}'
            f'<div class="longText">{body}</div></div><footer><p>© 2020 Deutsche Welle</p></footer></body></html>')


DW_JSON_LD = {  # the article's structured data names the outlet as its author, as many publishers' do
    "@context": "https://schema.org", "@type": "NewsArticle", "headline": DW_HEADLINE, "datePublished": "2020-01-19T16:37:00.000Z",
    "author": {"@type": "Organization", "name": "Deutsche Welle"}, "publisher": {"@type": "Organization", "name": "Deutsche Welle"},
}


def test_a_dw_page_gives_the_visible_author_and_the_headline_less_the_site_and_date(make_site, tmp_path, capsys):
    root = make_site()
    code, out, err = run(capsys, "add-source", str(save(tmp_path, dw_page(DW_JSON_LD))), "--id", "dw-libya", "--source", str(root))
    assert code == 0, err
    lines = source_lines(root, "dw-libya")
    assert lines["title"] == f'title: "{DW_HEADLINE}"  # from JSON-LD NewsArticle headline'
    assert lines["outlet"] == 'outlet: "Deutsche Welle"  # from JSON-LD NewsArticle publisher; og:site_name gives "DW.COM"'
    assert lines["byline"] == ('byline: ["Ben Knight"]  # from the page\'s visible byline ("Author Ben Knight"); JSON-LD NewsArticle author '
                               'gives "Deutsche Welle" (the outlet); <meta name="author"> gives "Deutsche Welle (www.dw.com)" (the outlet)')
    assert lines["published"] == "published: 2020-01-19  # from JSON-LD NewsArticle datePublished (2020-01-19T16:37:00.000Z)"
    assert run(capsys, "check", "--source", str(root))[0] == 0


def test_a_dw_page_without_structured_data_gives_the_same_from_its_tags_and_its_text(make_site, tmp_path, capsys):
    root = make_site()
    code, out, err = run(capsys, "add-source", str(save(tmp_path, dw_page(None))), "--source", str(root))
    assert code == 0, err
    rid = "libya-conference-world-leaders-agree-to-uphold-arms-embargo"  # from the headline, not from " | News | DW | 19.01.2020"
    lines = source_lines(root, rid)
    assert lines["title"] == f'title: "{DW_HEADLINE}"  # from og:title, less " | News | DW | 19.01.2020" (the page\'s <h1> is the headline)'
    assert lines["byline"] == ('byline: ["Ben Knight"]  # from the page\'s visible byline ("Author Ben Knight"); '
                               '<meta name="author"> gives "Deutsche Welle (www.dw.com)" (the outlet)')
    assert lines["byline_basis"].startswith("byline_basis: stated  #")
    assert lines["published"] == "published: 2020-01-19  # from the page's visible date (Date 19.01.2020)"
    assert lines["outlet"] == 'outlet: "DW.COM"  # from og:site_name'


@pytest.mark.parametrize("title, cleaned", [
    ("Soldiers cross | The Daily Record", "Soldiers cross"),
    ("Soldiers cross - The Daily Record - 26.02.2019", "Soldiers cross"),
    ("Soldiers cross | World | DW | 19.01.2020", "Soldiers cross"),
    ("Soldiers cross: the long wait | DW", "Soldiers cross: the long wait"),
    ("Venezuela - the long crisis", "Venezuela - the long crisis"),  # no site's name: a headline with a dash
])
def test_a_title_loses_the_site_s_name_and_date_after_it(title, cleaned):
    from dossier.editors.visible import clean_title

    assert clean_title(title, ["The Daily Record", "DW.COM", "Deutsche Welle"], "")[0] == cleaned


def test_a_page_already_stored_is_refused_with_the_id_that_holds_it(make_site, tmp_path, capsys):
    root = make_site()
    saved = save(tmp_path, dw_page(DW_JSON_LD))
    assert run(capsys, "add-source", str(saved), "--id", "dw-libya", "--source", str(root))[0] == 0
    before = files_of(root)
    code, out, err = run(capsys, "add-source", str(saved), "--source", str(root))
    assert code == 2 and err == (f"dossier: error: {saved} is stored already, as 'dw-libya' (content/sources/dw-libya.yaml has its address, "
                                 "https://www.dw.com/en/libya-conference/a-52054233); nothing written\n")
    assert run(capsys, "add-source", str(saved), "--id", "dw-libya", "--source", str(root))[2].startswith(f"dossier: error: {saved} is stored already")
    copy = save(tmp_path, dw_page(None).replace("a-52054233", "a-52054233?maca=en-rss"), "copy.html")  # another address, the same text
    code, out, err = run(capsys, "add-source", str(copy), "--id", "dw-again", "--source", str(root))
    assert code == 2 and err == f"dossier: error: {copy} is stored already, as 'dw-libya' (seeds/dw-libya.txt holds the same text); nothing written\n"
    assert files_of(root) == before
