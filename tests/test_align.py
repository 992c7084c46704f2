"""The derivative beside its original: paragraphs aligned by the build, with merges, splits,
unmatched and inserted paragraphs, and each row's word-for-word overlap."""

from __future__ import annotations

from dossier.render.align import align, marked, overlap, paragraphs, similarity

ORIGINAL = """\
The soldiers crossed the river at dawn and reached the shelter run by a priest.
WATCH: a promotional video
Torres drove the white truck across the bridge. He hit a woman who escaped serious injury.
Gomez ran through the brush for about twenty minutes before he saw the army.
Nine soldiers said commanders ordered them to stop the aid and launch tear gas.
"""
DERIVATIVE = """\
Soldiers crossed the river at dawn and came to the shelter of a priest.
Torres drove the white truck over the bridge.
He hit a woman who was seriously injured.
Behind the scenes
Gomez ran through the brush for twenty minutes before he saw the army. Nine soldiers said commanders ordered them to stop the aid and throw tear gas.
"""


def numbers(rows) -> list[tuple[list[int], list[int]]]:
    return [([p.number for p in row.original], [p.number for p in row.derivative]) for row in rows]


def test_paragraphs_are_aligned_with_a_split_a_merge_and_inserted_lines_left_unmatched():
    left = paragraphs(ORIGINAL, ["WATCH:"])
    right = paragraphs(DERIVATIVE, ["Behind the scenes"])
    assert [p.inserted for p in left] == [False, True, False, False, False]
    assert numbers(align(left, right)) == [
        ([1], [1]),
        ([2], []),  # the republisher's line, on its own
        ([3], [2, 3]),  # one paragraph of the original split in two
        ([], [4]),  # the inserted heading, unmatched
        ([4, 5], [5]),  # two paragraphs of the original merged into one
    ]


def test_a_paragraph_with_no_counterpart_stands_alone_and_order_is_kept():
    left = paragraphs("Alpha bravo charlie delta.\nEcho foxtrot golf hotel.\n")
    right = paragraphs("Completely unrelated words here.\nAlpha bravo charlie delta!\nEcho foxtrot golf hotel!\nA credit line.\n")
    assert numbers(align(left, right)) == [([], [1]), ([1], [2]), ([2], [3]), ([], [4])]


def test_an_inserted_line_never_matches_even_when_it_repeats_the_text():
    left = paragraphs("WATCH: Torres drove the truck\nTorres drove the truck.\n", ["WATCH:"])
    right = paragraphs("Torres drove the truck.\n")
    assert numbers(align(left, right)) == [([1], []), ([2], [1])]


def test_overlap_is_the_share_of_words_the_other_side_also_has():
    assert overlap("The woman escaped serious injury", "The woman was seriously injured") == 40  # the, woman on each side: 4 of 10
    assert overlap("Same words here", "here words same") == 100  # folded, in any order
    assert overlap("Guaidó spoke", "Guaido spoke") == 100  # accents and case aside
    assert similarity("a b c d", "a b x y") == 0.5


def test_the_words_a_side_lacks_are_marked_and_the_text_kept_whole():
    pieces = marked("She escaped serious injury, but he stopped.", "She was seriously injured and was forced to stop.")
    assert "".join(text for text, _ in pieces) == "She escaped serious injury, but he stopped."
    assert [text for text, lacks in pieces if lacks] == ["escaped", "serious", "injury", "but", "he", "stopped"]
    assert [text for text, lacks in marked("“I’m not”", "I'm not")] == ["“I’m not”"]  # typographic apostrophes fold


def test_texts_of_very_different_lengths_and_empty_texts_align():
    many = paragraphs("".join(f"Paragraph {n} speaks of item{n} and thing{n}.\n" for n in range(150)))
    assert numbers(align(paragraphs("Paragraph 149 speaks of item149 and thing149.\n"), many))[-1] == ([1], [150])
    assert numbers(align([], many[:3])) == [([], [1]), ([], [2]), ([], [3])]
    assert numbers(align(many[:2], [])) == [([1], []), ([2], [])]
    shifted = paragraphs("".join(f"An inserted line {n}.\n" for n in range(30))) + many
    assert sum(1 for row in align(many, shifted) if row.matched) == 150  # far from the diagonal, still matched
