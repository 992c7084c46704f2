"""Properties: no input makes the parsers raise anything but the project's own errors.

Id folding, EDTF dates, front-matter splitting and YAML, and the link and citation scanner each
get arbitrary text and text built from their own syntax's pieces; they must return values and
Problems (dates: raise DateError), never crash.
"""

from __future__ import annotations

import string

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from dossier.model.dateparse import parse_date
from dossier.model.dates import DateError
from dossier.text.markup import scan
from dossier.model.problems import Problem
from dossier.read.documents import Document, load_yaml, parse_markdown_file, parse_yaml_file
from dossier.model.slug import fold_id, is_valid_id

SETTINGS = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
TEXT = st.text(st.characters(codec="utf-8", exclude_categories=["Cs"]), max_size=200)


def pieces(*options: str, max_size: int = 30) -> st.SearchStrategy[str]:
    """Text assembled from a syntax's own pieces, which reaches deeper than random characters.

    No carriage returns: reading turns every line ending into '\\n' before parsing.
    """
    return st.lists(st.sampled_from(options) | st.text(string.printable.replace("\r", ""), max_size=4), max_size=max_size).map("".join)


# ---- ids -----------------------------------------------------------------------------------

@SETTINGS
@given(TEXT)
def test_fold_id_always_gives_a_valid_id_or_nothing_and_is_idempotent(name):
    folded = fold_id(name)
    assert folded == "" or is_valid_id(folded)
    assert fold_id(folded) == folded


@SETTINGS
@given(TEXT)
def test_is_valid_id_accepts_exactly_what_folding_keeps(text):
    assert is_valid_id(text) == (text != "" and fold_id(text) == text)


# ---- dates ---------------------------------------------------------------------------------

DATE_PIECES = pieces(
    "2019", "0000", "0001", "9999", "201X", "19XX", "1XXX", "XXXX", "-", "-02", "-13", "-00", "-21", "-24", "-25",
    "-XX", "-2X", "-29", "-30", "-31", "/", "..", "?", "~", "%", "1", "0", "X", " ", "٢", "+",
)


def check_date(text: str) -> None:
    try:
        date = parse_date(text)
    except DateError:
        return
    # A date that parses must be usable everywhere pages and the timeline use it.
    date.display()
    date.sort_key()
    date.earliest(), date.latest()
    assert date.start is not None or date.end is not None


@SETTINGS
@given(TEXT)
def test_any_text_is_a_date_or_a_date_error(text):
    check_date(text)


@SETTINGS
@given(DATE_PIECES)
def test_date_like_text_is_a_date_or_a_date_error(text):
    check_date(text)


@SETTINGS
@given(st.from_regex(r"\A[0-9X]{4}(-[0-9X]{2}(-[0-9X]{2})?)?[?~%]?(/([0-9X]{4}(-[0-9X]{2}(-[0-9X]{2})?)?[?~%]?|\.\.)?)?\Z"))
def test_edtf_shaped_text_is_a_date_or_a_date_error(text):
    check_date(text)


# ---- front matter and YAML -----------------------------------------------------------------

YAML_PIECES = pieces(
    "---\n", "\n", "name: ", "summary: ", "aliases:", "  - ", "- ", "? ", ": ", "[", "]", "{", "}", ", ", "&a ", "*a", "&b ",
    "*b", "!!python/object:os.system", "!!binary ", "!!set ", "!!timestamp ", "!!omap ", "<<: ", '"', "'", "\\u", "\\ud800", "\\e",
    "\t", "#", "|", ">", "%YAML 1.1\n", "...\n", "\ufeff", "\x00", "\x85", "2019-02-30", "no", "~", "null", "1e9999", "0x",
    "0x_", "0b_", "12:30", "&a [*a]", "&a [x, *a]", "? [k]\n: v\n", "? {k: v}\n: w\n", "k: &a [x]\nj: *a\n",
    max_size=40,
)


def check_result(result: tuple, path: str) -> None:
    document, problems = result
    assert all(isinstance(problem, Problem) and problem.path == path for problem in problems)
    assert (document is None) == bool(problems)
    assert document is None or isinstance(document, Document) and isinstance(document.meta, dict)
    for problem in problems:
        assert "\n" not in str(problem)


@SETTINGS
@given(TEXT)
def test_any_text_splits_into_a_document_or_problems(text):
    check_result(parse_markdown_file(text, "content/people/x.md", "people", "x"), "content/people/x.md")


@SETTINGS
@given(YAML_PIECES, TEXT)
def test_yaml_like_front_matter_splits_into_a_document_or_problems(front, body):
    text = "---\n" + front + "\n---\n" + body
    check_result(parse_markdown_file(text, "content/people/x.md", "people", "x"), "content/people/x.md")
    check_result(parse_yaml_file(front, "content/sources/x.yaml", "sources", "x"), "content/sources/x.yaml")


@SETTINGS
@given(YAML_PIECES, st.integers(0, 5))
def test_yaml_problems_point_inside_the_file(text, offset):
    value, lines, problems = load_yaml(text, "x.yaml", line_offset=offset)
    last_line = text.count("\n") + 1 + offset
    # An error at the end of the text points just past it: in front matter, the closing '---'.
    assert all(offset < problem.line <= last_line + 1 for problem in problems)
    assert all(offset < line <= last_line + 1 for line in lines.values())


# ---- links and citations -------------------------------------------------------------------

BODY_PIECES = pieces(
    "[[", "]]", "|", "[@", "@", '"', '\\"', "\\", " sole", "]", "[", "jorge-torres", "people/", "ap", " ", "\n", "\n\n",
    "“", "”", "quote", "<script>", "`", "*",
)


def check_scan(body: str, first_line: int) -> None:
    links, citations, problems = scan(body, first_line, "content/people/x.md")
    last_line = first_line + body.count("\n")
    assert all(link.target and first_line <= link.line <= last_line for link in links)
    assert all(citation.source and citation.quote.strip() and first_line <= citation.line <= last_line for citation in citations)
    assert all(isinstance(problem, Problem) and first_line <= problem.line <= last_line for problem in problems)


@SETTINGS
@given(TEXT, st.integers(1, 100))
def test_any_body_scans_into_links_citations_and_problems(body, first_line):
    check_scan(body, first_line)


@SETTINGS
@given(BODY_PIECES, st.integers(1, 100))
def test_link_and_citation_like_bodies_scan_without_raising(body, first_line):
    check_scan(body, first_line)


@SETTINGS
@given(st.from_regex(r"\A[a-z0-9]+(-[a-z0-9]+)*\Z"), st.text(st.characters(exclude_characters='"\\\n', codec="utf-8", exclude_categories=["Cs"]), min_size=1, max_size=40))
def test_a_well_formed_citation_is_found_with_its_exact_quote(source, quote):
    _, citations, problems = scan(f'Text.[@{source} "{quote}"] More.', 7, "x.md")
    if quote.strip():
        assert problems == [] and [(c.source, c.quote, c.line) for c in citations] == [(source, quote, 7)]
    else:
        assert citations == [] and [p.message for p in problems] == [f"citation of '{source}' has an empty quote"]


@SETTINGS
@given(pieces("[[", "]]", "[@", "|", "@", "]", "[", "x", " ", "sole", "people/", max_size=12).filter(lambda q: '"' not in q and "\\" not in q and "\n" not in q and q.strip()))
def test_a_quote_may_hold_link_and_citation_syntax_as_plain_text(quote):
    links, citations, problems = scan(f'Text.[@ap "{quote}"] More [[jorge-torres]].', 1, "x.md")
    assert problems == [] and [c.quote for c in citations] == [quote]
    assert [link.target for link in links] == ["jorge-torres"]
