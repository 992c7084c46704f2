"""How much text a derivative shares with its original, in runs of five words or more."""

from __future__ import annotations

from dossier.render.overlap import overlap


def test_only_runs_of_five_words_or_more_count():
    original = "one two three four five six seven eight nine ten"
    derivative = "one two three four five X seven eight nine Y"
    result = overlap(derivative, original)
    assert (result.shared, result.runs, result.longest) == (5, 1, 5)
    assert (result.derivative_share, result.original_share) == (50, 50)


def test_typography_and_case_do_not_count_as_differences():
    assert overlap("“We’re going HOME now, he said”", "\"We're going home now, he said\"").derivative_share == 100


def test_empty_texts_share_nothing():
    assert overlap("", "").derivative_share == 0


def test_source_pages_show_the_overlap_both_ways(make_site):
    from dossier.pipeline import build

    root = make_site({
        "content/sources/copy.yaml": "title: Copy\noutlet: Copier\nlanguage: en\nseed: copy.txt\nderived_from: ap\n",
        "seeds/copy.txt": "Sgt. Jorge Torres drove an armoured truck across the bridge.\nSomething else entirely here.\n",
    })
    build(root, root / "site")
    copy = (root / "site/sources/copy/index.html").read_text(encoding="utf-8")
    assert "This text derives from <a href=\"../../sources/ap/\">AP story</a>" in copy
    assert "<strong>71%</strong> of the derivative's 14 words, and 50% of the original's 20, are the same word for word, in 1 shared run (the longest 10 words)" in copy
    original = (root / "site/sources/ap/index.html").read_text(encoding="utf-8")
    assert "derives from this text." in original and "<strong>71%</strong>" in original
