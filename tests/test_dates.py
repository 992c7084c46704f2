import datetime as dt

import pytest
from hypothesis import given, strategies as st

from dossier.dates import DateError, month_key, parse_date


@pytest.mark.parametrize("text, shown", [
    ("2019", "2019"),
    ("2019-02", "February 2019"),
    ("2019-02-23", "23 February 2019"),
    ("2019-03~", "c. March 2019"),
    ("2019-03?", "March 2019 (uncertain)"),
    ("2019-03%", "c. March 2019 (uncertain)"),
    ("2019-02-23/2019-02-25", "23–25 February 2019"),
    ("2019-02-28/2019-03-02", "28 February – 2 March 2019"),
    ("2019-02/2019-03", "February–March 2019"),
    ("2018/2019", "2018–2019"),
    ("2019-03~/2019-05", "c. March 2019 – May 2019"),
    ("201X", "2010s"),
    ("2019-21", "Spring 2019"),
    ("2019/..", "from 2019"),
    ("../2019-04", "until April 2019"),
])
def test_dates_show_at_their_precision(text, shown):
    assert parse_date(text).display() == shown


@pytest.mark.parametrize("text, message", [
    ("2019-02-30", "'2019-02-30' is not a real day: February 2019 has 28 days"),
    ("2020-02-30", "'2020-02-30' is not a real day: February 2020 has 29 days"),
    ("2019-13", "'2019-13' has no month 13; months run from 01 to 12 (21–24 are seasons)"),
    ("2019-02-25/2019-02-23", "'2019-02-25/2019-02-23': the interval ends before it starts"),
    ("23 Feb 2019", "'23 Feb 2019' is not a date; write YYYY, YYYY-MM or YYYY-MM-DD, optionally ending in ~ (approximate) or ? (uncertain)"),
    ("../..", "'../..': an interval needs at least one known end"),
])
def test_impossible_dates_are_explained(text, message):
    with pytest.raises(DateError) as error:
        parse_date(text)
    assert str(error.value) == message


def test_bounds_and_iso_forms():
    date = parse_date("2019-02/2019-03")
    assert (date.earliest(), date.latest()) == (dt.date(2019, 2, 1), dt.date(2019, 3, 31))
    assert (date.start.iso(), date.end.iso()) == ("2019-02", "2019-03")
    assert parse_date("2019-03~").approximate and not parse_date("2019-03").approximate


def test_sorting_puts_vaguer_dates_before_precise_ones_that_start_with_them():
    texts = ["2019-02-23", "2019", "2019-02", "2018-12~", "2019-02-23/2019-02-25", "2019-03"]
    ordered = sorted(texts, key=lambda t: parse_date(t).sort_key())
    assert ordered == ["2018-12~", "2019", "2019-02", "2019-02-23", "2019-02-23/2019-02-25", "2019-03"]


def test_month_key_groups_by_month_only_when_the_month_is_known():
    assert month_key(parse_date("2019-02-23")) == (2019, 2)
    assert month_key(parse_date("2019-02-23/2019-02-25")) == (2019, 2)
    assert month_key(parse_date("2019-02/2019-03")) == (2019, None)
    assert month_key(parse_date("2019")) == (2019, None)


@given(st.text(max_size=30))
def test_any_text_parses_or_raises_date_error(text):
    try:
        parse_date(text)
    except DateError:
        pass


@given(st.dates(min_value=dt.date(1000, 1, 1), max_value=dt.date(2999, 12, 31)))
def test_every_real_day_round_trips(day):
    parsed = parse_date(day.isoformat())
    assert parsed.earliest() == parsed.latest() == day
    assert parsed.start.iso() == day.isoformat()
