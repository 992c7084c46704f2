"""The documentary reads as a story: short ledes without method, and its proof one step away but out of the way."""

from __future__ import annotations

import re

import pytest

from conftest import PROJECT

from dossier.text.markup import paragraphs
from dossier.pipeline import load
from dossier.text.sentences import plain

SUMMARY_WORDS, FIRST_PARAGRAPH_WORDS = 35, 90
LONGER = {"en": 1.0, "es": 1.2}  # Spanish takes about a fifth more words to say the same
METHOD = re.compile(r"\b(?:dates? (?:is|are) inferred|inferred from|is dated|are dated|dated (?:to|by)|was written on|how we know)\b", re.I)


@pytest.fixture(scope="module")
def documentary():
    site, problems = load(PROJECT)
    assert [p for p in problems if p.severity == "error"] == []
    return site


def ledes(site):
    """Yield (path, language, summary, first paragraph) of every record and translation, as plain words."""
    def label(target: str) -> str:
        for records in site.records.values():
            if target.rpartition("/")[2] in records:
                return records[target.rpartition("/")[2]].label
        return target

    for records in site.records.values():
        for record in records.values():
            for lang, text in [("en", record), *record.translations.items()]:
                prose = [p for _, p in paragraphs(text.body, text.body_line) if not p.lstrip().startswith(("-", "*", ">", "|"))]
                yield (text.path, lang, plain(getattr(text, "summary", "") or "", label), plain(prose[0], label) if prose else "")


def test_every_summary_and_first_paragraph_is_short(documentary):
    long = []
    for path, lang, summary, first in ledes(documentary):
        if len(summary.split()) > SUMMARY_WORDS * LONGER[lang] or len(first.split()) > FIRST_PARAGRAPH_WORDS * LONGER[lang]:
            long.append((path, len(summary.split()), len(first.split())))
    assert long == []


def test_no_lede_explains_how_it_was_worked_out(documentary):
    found = [(path, METHOD.search(text)[0]) for path, lang, *texts in ledes(documentary) for text in texts if lang == "en" and METHOD.search(text)]
    assert found == []


def test_no_page_prints_a_count_after_every_sentence(real_site):
    every = []
    for page in real_site.rglob("*.html"):
        html = page.read_text(encoding="utf-8")
        counts = re.findall(r'<span class="support (single|several|derivative|derivative quiet)"', html)
        if len(counts) >= 3 and not {"single", "derivative quiet"} & set(counts):
            every.append(page.relative_to(real_site).as_posix())
    assert every == []
    person = (real_site / "people/jorge-torres/index.html").read_text(encoding="utf-8")
    assert person.count('class="support single"') > 2 * person.count('class="support several"')
