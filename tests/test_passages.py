import pytest
from hypothesis import given, strategies as st

from dossier.text.passages import SeedText, mark_differences, normalize, passage_id, text_fragment

TEXT = "He said: “We’re going to change history.”\n\nIt was a long—very long   day.\n"


def test_quotes_match_across_typographic_marks_dashes_and_white_space():
    seed = SeedText(TEXT)
    start, end = seed.locate('"We\'re going to change history."')
    assert TEXT[start:end] == "“We’re going to change history.”"
    start, end = seed.locate("a long-very long day")
    assert TEXT[start:end] == "a long—very long   day"


def test_case_and_words_still_matter():
    seed = SeedText(TEXT)
    assert seed.locate("we're going to change history") is None
    assert seed.locate("We are going to change history") is None


def test_closest_passage_points_at_the_near_miss():
    assert SeedText(TEXT).closest("We are going to change history") == '"We\'re going to change history."'
    assert SeedText(TEXT).closest("zzzz qqqq") is None


STORY = "The soldiers waited for hours at the border. Torres climbed into one of the white-painted trucks and drove it across the bridge.\n"


@pytest.mark.parametrize("quote, shown", [
    # the quote's first words are not the text's: the passage starts where they would stand, not in the sentence before
    ("The guards then climbed into one of the white-painted trucks", "[The guards then→Torres] climbed into one of the white-painted trucks"),
    ("He climbed into one of the white-painted trucks", "[He→Torres] climbed into one of the white-painted trucks"),
    # shorter words than the text's: the passage still ends where the quote does
    ("Torres climb into one of the white trucks and drove it", "Torres [climb→climbed] into one of the [white→white-painted] trucks and drove it"),
    ("Torres climbed into one of the white-painted trucks and drove on", "Torres climbed into one of the white-painted trucks and drove [on→it]"),
])
def test_the_closest_passage_is_aligned_to_the_quote_word_by_word(quote, shown):
    assert mark_differences(quote, SeedText(STORY).closest(quote)) == shown


def test_passage_ids_are_stable_and_ignore_typography():
    assert passage_id("We’re here") == passage_id("We're  here")
    assert passage_id("We're here").startswith("passage-") and len(passage_id("We're here")) == 18
    assert passage_id("a") != passage_id("b")


def test_text_fragments_encode_dashes_and_shorten_long_quotes():
    assert text_fragment("pro- and anti-Maduro") == "#:~:text=pro%2D%20and%20anti%2DMaduro"
    long = "one two three four five six seven eight nine ten eleven twelve"
    assert text_fragment(long) == "#:~:text=one%20two%20three%20four,nine%20ten%20eleven%20twelve"


@given(st.text(max_size=200), st.text(max_size=30))
def test_locate_finds_exactly_what_normalisation_finds(text, quote):
    span = SeedText(text).locate(quote)
    wanted = normalize(quote)
    if not wanted or wanted not in normalize(text):
        assert span is None
    else:
        assert span is not None and normalize(text[span[0]:span[1]]) == wanted


def test_differences_are_marked_your_words_then_the_sources():
    from dossier.text.passages import mark_differences

    assert mark_differences("the cat began to scrape the door", "the cat began to scratch the door.") == "the cat began to [scrape→scratch] the door."
    assert mark_differences("he said it loudly", "he said it") == "he said it [loudly→]"
    assert mark_differences("he said it", "he said it quietly") == "he said it [→quietly]"


def test_find_gives_the_passages_that_match_closest_first_with_their_lines():
    text = "The convoy stopped.\nSoldiers crossed the bridge at dawn. Others waited.\nA soldier crossed the river.\n"
    found = SeedText(text).find("crossed the bridge")
    assert found[0] == (2, "Soldiers crossed the bridge at dawn.")
    assert (3, "A soldier crossed the river.") in found
    assert all(line != 1 for line, _ in found)
    assert len(SeedText("\n".join(f"Line {n} crossed." for n in range(20))).find("crossed")) == 5
