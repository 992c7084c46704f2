"""A person's own words: direct speech the source attributes to them by name, never by pronoun alone."""

from __future__ import annotations

import pytest

from dossier.pipeline import load
from dossier.render.quotes import name_words, own_quotes

SEED = (
    "“I was tired of it,” said Sgt. Jorge Torres, referring to President Nicolas Maduro’s government.\n"
    "“We are history,” he said.\n"
    "“The bridge was closed,” Maduro said.\n"
    "Torres drove across the bridge.\n"
    "“You know there is no rice,” said the female soldier. “Why stay?”\n"
)


def person_page(quotes: list[str], *, name: str = "Jorge Torres", anonymous: bool = False) -> dict[str, str]:
    body = " ".join(f'Text.[@ap "{quote}"]' for quote in quotes)
    return {
        "seeds/ap.txt": SEED,
        "content/people/jorge-torres.md": f"---\nname: {name}\nanonymous: {str(anonymous).lower()}\nsummary: S.\n---\n{body}\n",
        "content/events/aid-convoy.md": "---\ntitle: Aid convoy\ndate: 2019-02-23\nsummary: S.\n---\n",
        "content/places/cucuta.md": "---\nname: Cúcuta\nsummary: A border city.\n---\n",
    }


@pytest.mark.parametrize("quote, counted", [
    ("I was tired of it", True),  # 'said Sgt. Jorge Torres': verb and surname close together
    ("We are history", False),  # 'he said': a pronoun is not followed
    ("The bridge was closed", False),  # someone else's words, cited on his page
    ("Torres drove across the bridge", False),  # narration, not speech
])
def test_a_cited_passage_is_their_own_words_only_when_the_attribution_names_them(make_site, quote, counted):
    site, problems = load(make_site(person_page([quote])))
    assert [p for p in problems if p.severity == "error"] == []
    found = own_quotes(site, site.records["people"]["jorge-torres"])
    assert [q.quote for q in found] == ([quote] if counted else [])


def test_an_anonymous_person_is_named_by_their_description_and_a_follow_on_quotation_counts(make_site):
    files = person_page(["You know there is no rice", "Why stay?"], name="Female soldier who fears for her children", anonymous=True)
    site, _ = load(make_site(files))
    person = site.records["people"]["jorge-torres"]
    assert name_words(person) == {"female", "soldier"}
    assert [q.quote for q in own_quotes(site, person)] == ["You know there is no rice", "Why stay?"]


def test_the_person_page_shows_their_words_linked_to_the_passage(make_site):
    from dossier.pipeline import build

    root = make_site(person_page(["I was tired of it"]))
    build(root, root / "site")
    html = (root / "site/people/jorge-torres/index.html").read_text(encoding="utf-8")
    assert '<h2 id="words-heading">In their own words</h2>' in html
    assert "<blockquote><p>I was tired of it</p></blockquote>" in html
    assert '<figcaption>— <a href="../../sources/ap/#passage-' in html


def test_passages_the_page_shows_in_full_are_not_listed_again(make_site):
    files = person_page([])
    files["content/people/jorge-torres.md"] = files["content/people/jorge-torres.md"].replace("\n\n", "\n") + (
        'He was tired.[@ap "I was tired of it,"] Sgt. Torres said so.[@ap "I was tired"]\n\n'
        "## What he said\n\n"
        '- [@ap "I was tired of it" show]\n'
    )
    files["seeds/ap.txt"] = SEED + "“Nothing else,” Torres said.\n"
    site, problems = load(make_site(files))
    assert [p for p in problems if p.severity == "error"] == []
    person = site.records["people"]["jorge-torres"]
    assert own_quotes(site, person) == []  # shown in full above, and the same words cited twice in the prose
    files["content/people/jorge-torres.md"] += 'Also.[@ap "Nothing else"]\n'
    site, _ = load(make_site(files))
    assert [q.quote for q in own_quotes(site, site.records["people"]["jorge-torres"])] == ["Nothing else"]


def test_no_person_page_of_the_documentary_lists_the_same_words_twice(real_site):
    import re

    for page in sorted((real_site / "people").glob("*/index.html")):
        html = page.read_text(encoding="utf-8")
        shown = {re.sub(r"\W+", " ", q).strip() for q in re.findall(r'<span class="shown-quote"><q>(.*?)</q>', html)}
        listed = [re.sub(r"\W+", " ", q).strip() for q in re.findall(r"<blockquote><p>(.*?)</p></blockquote>", html)]
        assert len(set(listed)) == len(listed), page
        assert [q for q in listed if any(q in s or s in q for s in shown)] == [], page
        quoted_list = re.findall(r'<li>[^<]*<span class="shown-quote">', html)  # a body's own list of what the person said
        assert not (quoted_list and listed), f"{page}: one list of quotations per page"
