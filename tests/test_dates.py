import datetime as dt

import pytest
from hypothesis import given, strategies as st

from dossier.model.dateparse import parse_date
from dossier.model.dates import DateError, Day, month_key


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
    # an unknown end is not an open one: the interval ends, but when is not known
    ("2004-06-01/", "1 June 2004 – ?"),
    ("/2006", "? – 2006"),
    # years as EDTF counts them (astronomically: 0 is 1 BC), long years grouped
    ("-0999", "-999"),
    ("0000", "0"),
    ("-0044-03-15", "15 March -44"),
    ("-2005/-1999-02", "-2005 – February -1999"),
    ("Y170000002", "170,000,002"),
    ("Y-170000002", "-170,000,002"),
    # unspecified digits
    ("19XX", "20th century"),
    ("20XX", "21st century"),
    ("1XXX", "1000–1999"),
    ("-01XX", "-199 to -100"),
    ("16XX~", "c. 17th century"),
    ("1999-XX", "1999"),
    ("1999-01-XX", "January 1999"),
    # a day with a time
    ("2019-04-30T05:00:00", "30 April 2019, 05:00"),
    ("2001-02-03T09:30:01", "3 February 2001, 09:30:01"),
    ("2004-01-01T10:10:10Z", "1 January 2004, 10:10:10 UTC"),
    ("2004-01-01T10:10:10+05:00", "1 January 2004, 10:10:10 UTC+05:00"),
    # qualified seasons and dates at an interval's ends
    ("2019-21~/2019-22", "c. Spring 2019 – Summer 2019"),
    ("1984?/2004%", "1984 (uncertain) – c. 2004 (uncertain)"),
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
    ("2019-02-29", "'2019-02-29' is not a real day: February 2019 has 28 days"),
    ("-0001-02-29", "'-0001-02-29' is not a real day: February -1 has 28 days"),
    ("-0000", "'-0000': there is no year -0000; write 0000"),
    ("XXXX", "'XXXX': give at least the first digit of the year, as in '1XXX'"),
    ("1X5X", "'1X5X': unspecified digits (X) may only end the year, as in '201X'"),
    ("201X-03", "'201X-03': unspecified digits (X) may only end the year, as in '201X'"),
    ("2019-XX-23", "'2019-XX-23': a day needs a month"),
    ("20190", "'20190': a year of more than four digits is written with Y, as in 'Y20190'"),
    ("Y2019", "'Y2019': Y is for years of more than four digits; write 2019"),
    ("Y-44", "'Y-44': Y is for years of more than four digits; write -0044"),
    ("Y01000", "'Y01000': a year written with Y does not start with 0"),
    ("Y170000002~", "'Y170000002~': a year written with Y cannot carry ~, ? or %"),
    ("Y170000002-03", "'Y170000002-03': a year written with Y stands alone, without month or day"),
    ("2019-04-30T05:00", "'2019-04-30T05:00': write the time with seconds, as in 2019-04-30T05:00:00"),
    ("2019-04-30T25:00:00", "'2019-04-30T25:00:00' has no hour 25; hours run from 00 to 23 (24:00:00 is the end of the day)"),
    ("2019-04-30T05:60:00", "'2019-04-30T05:60:00' has no minute 60; minutes run from 00 to 59"),
    ("2019-04-30T05:00:60", "'2019-04-30T05:00:60' has no second 60; seconds run from 00 to 59"),
    ("2019-04-30T05:00:00+00:00", "'2019-04-30T05:00:00+00:00': a time in UTC ends in Z, not +00:00"),
    ("2019-04-30T05:00:00+15:00", "'2019-04-30T05:00:00+15:00': the offset +15:00 is too large; offsets run from -14:00 to +14:00"),
    ("2019-04T05:00:00", "'2019-04T05:00:00': a time needs a full date (YYYY-MM-DD) before the T"),
    ("2019-04-30T05:00:00~", "'2019-04-30T05:00:00~': a date with a time cannot carry ~, ? or %"),
    ("2019-04-30T05:00:00/2019-05", "'2019-04-30T05:00:00/2019-05': an interval's ends are dates without a time; '2019-04-30T05:00:00' has one"),
    ("201X/2020", "'201X/2020': an interval's ends cannot have unspecified digits (X); '201X' has"),
    ("Y170000002/..", "'Y170000002/..': an interval's ends cannot be years written with Y; 'Y170000002' is"),
    ("2019-21~", "'2019-21~': EDTF does not qualify a season on its own; write 2019-21, or qualify its months, as in 2019-03~/2019-05~"),
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


def test_far_years_have_bounds_and_iso_forms():
    far = parse_date("Y-170000002")
    assert (far.earliest().isoformat(), far.latest().isoformat()) == ("-170000002-01-01", "-170000002-12-31")
    assert far.start.iso() == "Y-170000002" and far.start.precision == "year"
    assert parse_date("0000-02-29").earliest().isoformat() == "0000-02-29"  # year 0 is a leap year
    ides = parse_date("-0044-03-15")
    assert (ides.start.iso(), ides.earliest().toordinal()) == ("-0044-03-15", dt.date(356, 3, 15).toordinal() - 400 * 365 - 97)
    assert parse_date("-01XX").start.iso() == "-01" and parse_date("1XXX").start.precision == "millennium"
    timed = parse_date("2004-01-01T10:10:10+05:00")
    assert timed.start.iso() == "2004-01-01T10:10:10+05:00" and timed.precision == "day" and timed.start.time == (10, 10, 10)
    assert parse_date("9999-12-31").latest() == dt.date(9999, 12, 31)  # datetime.date where it can hold the day


def test_an_unknown_end_and_an_open_one_are_told_apart():
    unknown, open_ = parse_date("2004-06-01/"), parse_date("2004-06-01/..")
    assert unknown.unknown_end and not unknown.open_end and open_.open_end and not open_.unknown_end
    assert unknown.display() != open_.display()
    assert parse_date("/2006").unknown_start and parse_date("../2006").open_start and not parse_date("../2006").unknown_start


@given(st.integers(-1_000_000, 1_000_000))
def test_days_count_like_datetime_and_round_trip_in_any_year(number):
    day = Day.fromordinal(number)
    assert day.toordinal() == number and Day(day.year, day.month, day.day) == day
    assert (day + dt.timedelta(days=1)) - day == dt.timedelta(days=1)
    if 1 <= number <= dt.date.max.toordinal():
        assert Day.from_date(dt.date.fromordinal(number)) == day


def test_sorting_puts_vaguer_dates_before_precise_ones_that_start_with_them():
    texts = ["2019-02-23", "2019", "2019-02", "2018-12~", "2019-02-23/2019-02-25", "2019-03"]
    ordered = sorted(texts, key=lambda t: parse_date(t).sort_key())
    assert ordered == ["2018-12~", "2019", "2019-02", "2019-02-23", "2019-02-23/2019-02-25", "2019-03"]


def test_sorting_runs_from_the_far_past_to_the_far_future():
    texts = ["Y170000002", "2019", "0000", "-0044-03-15", "Y-170000002", "-01XX", "9999-12-31", "../0001"]
    ordered = sorted(texts, key=lambda t: parse_date(t).sort_key())
    assert ordered == ["Y-170000002", "-01XX", "-0044-03-15", "0000", "../0001", "2019", "9999-12-31", "Y170000002"]


def test_month_key_places_a_date_at_its_first_known_month_and_a_bare_year_nowhere():
    assert month_key(parse_date("2019-02-23")) == (2019, 2)
    assert month_key(parse_date("2019-02-23/2019-02-25")) == (2019, 2)
    assert month_key(parse_date("2019-02/2019-03")) == (2019, 2)  # a span goes where it starts
    assert month_key(parse_date("2019-05/2019-12")) == (2019, 5)
    assert month_key(parse_date("2019-02-28/2019-04-06")) == (2019, 2)
    assert month_key(parse_date("2018-11/2019-02")) == (2018, 11)
    assert month_key(parse_date("2019-03~")) == (2019, 3)
    assert month_key(parse_date("2019-21")) == (2019, 3)  # spring starts in March
    assert month_key(parse_date("../2019-01-22")) == (2019, 1)  # no start: where it is known to be
    assert month_key(parse_date("2019-05/..")) == (2019, 5)
    assert month_key(parse_date("2019")) == (2019, None)
    assert month_key(parse_date("2018/2019-04")) == (2018, None)
    assert month_key(parse_date("2019-XX")) == (2019, None)
    assert month_key(parse_date("201X")) == (2010, None)


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


# ---- dates datetime.date cannot hold, and the other level 0/1 forms, on a built site -------------

FAR_DATES = {
    "ides": ("-0044-03-15", "15 March -44"),
    "year-zero": ("0000", "0"),
    "deep-future": ("Y170000002", "170,000,002"),
    "deep-past": ("Y-170000002", "-170,000,002"),
    "millennium": ("1XXX", "1000–1999"),
    "bc-century": ("-01XX", "-199 to -100"),
    "last-day": ("9999-12-31", "31 December 9999"),
    "at-dawn": ("2019-04-30T05:00:00", "30 April 2019, 05:00"),
    "unknown-end": ("2004-06-01/", "1 June 2004 – ?"),
    "open-end": ("2004-06-01/..", "from 1 June 2004"),
    "unknown-start": ("/2006", "? – 2006"),
    "bc-interval": ("-2005/-1999-02", "-2005 – February -1999"),
}


def test_a_site_with_dates_beyond_datetime_builds_its_timeline_and_exports(make_site):
    import csv
    import io
    import json

    from dossier.pipeline import build

    root = make_site({
        f"content/events/{eid}.md": f"---\ntitle: Event {eid}\ndate: \"{text}\"\nsummary: S.\n---\n"
        for eid, (text, _) in FAR_DATES.items()
    })
    build(root, root / "site")
    timeline = (root / "site/timeline/index.html").read_text(encoding="utf-8")
    for eid, (_, shown) in FAR_DATES.items():
        assert f"{shown}</time>" in (root / f"site/events/{eid}/index.html").read_text(encoding="utf-8")
        assert f'data-event="{eid}"' in timeline  # a mark on the axis
    rows = {row["id"]: row for row in csv.DictReader(io.StringIO((root / "site/data/events.csv").read_text(encoding="utf-8")))}
    assert (rows["ides"]["start"], rows["ides"]["end"]) == ("-0044-03-15", "-0044-03-15")
    assert (rows["deep-future"]["start"], rows["deep-future"]["end"]) == ("+170000002-01-01", "+170000002-12-31")
    assert (rows["unknown-end"]["start"], rows["unknown-end"]["end"]) == ("2004-06-01", "")
    assert list(rows) == [  # the events in date order, however far out
        "deep-past", "bc-interval", "bc-century", "ides", "year-zero", "millennium", "unknown-end", "open-end",
        "unknown-start", "aid-convoy", "at-dawn", "last-day", "deep-future",
    ]
    events = {e["unique_id"]: e for e in json.loads((root / "site/data/timeline.json").read_text(encoding="utf-8"))["events"]}
    assert events["ides"]["start_date"] == {"year": -44, "month": 3, "day": 15}
    assert (root / "site/feed.xml").exists()
