"""dossier's EDTF reading checked against the edtf package, an independent implementation of the
Library of Congress grammar: its own level 0 and 1 examples, and generated strings and near-misses.

Where the package's grammar is wider than the specification, dossier keeps to the specification,
and the property below says so case by case:

- EDTF has no blanks inside a date; the package's parser skips them between tokens ('1984 / 2004');
- significant digits ('1950S2') are level 2; the package's year rule carries them at every level;
- a day must exist: the package lets February have 29 days in every year ('2019-02-29');
- level 1 fills a year with X from the right only ('1X5X' is level 2's internal unspecified digit);
- an interval needs a date at one end at least ('../..' says nothing about when);
- an interval may not end before it starts ('2019/2018').
"""

from __future__ import annotations

import calendar
import re

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from dossier.model.dateparse import parse_date
from dossier.model.dates import DateError

grammar = pytest.importorskip("edtf.parser.grammar")
LEVELS_0_AND_1 = grammar.level0Expression ^ grammar.level1Expression

# The level 0 and 1 examples of the edtf package's own tests (tests/test_parser.py in edtf 5.0.2),
# with the first and last day each can mean. None where dossier gives no day: the package puts an
# unknown end ten years off and an open one at infinity.
EXAMPLES = [
    ("2001-02-03", "2001-02-03", "2001-02-03"),
    ("2008-12", "2008-12-01", "2008-12-31"),
    ("2008", "2008-01-01", "2008-12-31"),
    ("-0999", "-0999-01-01", "-0999-12-31"),
    ("0000", "0000-01-01", "0000-12-31"),
    ("2001-02-03T09:30:01", "2001-02-03", "2001-02-03"),
    ("2004-01-01T10:10:10Z", "2004-01-01", "2004-01-01"),
    ("2004-01-01T10:10:10+05:00", "2004-01-01", "2004-01-01"),
    ("1985-04-12T23:20:30", "1985-04-12", "1985-04-12"),
    ("1964/2008", "1964-01-01", "2008-12-31"),
    ("2004-06/2006-08", "2004-06-01", "2006-08-31"),
    ("2004-02-01/2005-02-08", "2004-02-01", "2005-02-08"),
    ("2004-02-01/2005-02", "2004-02-01", "2005-02-28"),
    ("2004-02-01/2005", "2004-02-01", "2005-12-31"),
    ("2005/2006-02", "2005-01-01", "2006-02-28"),
    ("-2005/-1999-02", "-2005-01-01", "-1999-02-28"),
    ("1984?", "1984-01-01", "1984-12-31"),
    ("2004-06-11?", "2004-06-11", "2004-06-11"),
    ("2004-06?", "2004-06-01", "2004-06-30"),
    ("1984~", "1984-01-01", "1984-12-31"),
    ("1984%", "1984-01-01", "1984-12-31"),
    ("199X", "1990-01-01", "1999-12-31"),
    ("19XX", "1900-01-01", "1999-12-31"),
    ("1999-XX", "1999-01-01", "1999-12-31"),
    ("1999-01-XX", "1999-01-01", "1999-01-31"),
    ("1999-XX-XX", "1999-01-01", "1999-12-31"),
    ("-01XX", "-0199-01-01", "-0100-12-31"),
    ("-0275~", "-0275-01-01", "-0275-12-31"),
    ("-0001~", "-0001-01-01", "-0001-12-31"),
    ("0000~", "0000-01-01", "0000-12-31"),
    ("16XX~", "1600-01-01", "1699-12-31"),
    ("16XX%", "1600-01-01", "1699-12-31"),
    ("1XXX", "1000-01-01", "1999-12-31"),
    ("1XXX~", "1000-01-01", "1999-12-31"),
    ("156X~", "1560-01-01", "1569-12-31"),
    ("-01XX~", "-0199-01-01", "-0100-12-31"),
    ("/2006", None, "2006-12-31"),
    ("2004-06-01/", "2004-06-01", None),
    ("../2006", None, "2006-12-31"),
    ("2004-01-01/..", "2004-01-01", None),
    ("1984~/2004-06", "1984-01-01", "2004-06-30"),
    ("1984/2004-06~", "1984-01-01", "2004-06-30"),
    ("1984?/2004%", "1984-01-01", "2004-12-31"),
    ("1984~/2004~", "1984-01-01", "2004-12-31"),
    ("1984-06?/2004-08?", "1984-06-01", "2004-08-31"),
    ("1984-06-02?/2004-08-08~", "1984-06-02", "2004-08-08"),
    ("1984-06-02?/", "1984-06-02", None),
    ("Y170000002", "+170000002-01-01", "+170000002-12-31"),
    ("Y-170000002", "-170000002-01-01", "-170000002-12-31"),
    ("2001-21", "2001-03-01", "2001-05-31"),
    ("2003-22", "2003-06-01", "2003-08-31"),
    ("2000-23", "2000-09-01", "2000-11-30"),
    ("2010-24", "2010-12-01", "2010-12-31"),
]


def package_reading(text: str):
    """Return the package's reading of text if its level 0 and 1 grammar accepts it, else None."""
    try:
        LEVELS_0_AND_1.parse_string(text.strip(), parse_all=True)
        return grammar.parse_edtf(text)
    except Exception:  # its parse errors, and a TypeError for '../' and '/..', which its grammar matches
        return None


def day_tuple(value) -> tuple[int, int, int] | None:
    """Return (year, month, day) from a dossier day or the package's struct_time; None for its infinities."""
    if isinstance(value, float):
        return None
    if hasattr(value, "tm_year"):
        return (value.tm_year, value.tm_mon, value.tm_mday)
    return (value.year, value.month, value.day)


def real_days(text: str) -> bool:
    """Return whether every day written in text exists (the package lets February have 29 days in any year)."""
    for sign, year, month, day in re.findall(r"(-?)([0-9]{4})-([0-9]{2})-([0-9]{2})", text):
        y, m, d = int(sign + year), int(month), int(day)
        if 1 <= m <= 12 and d > [31, 29 if calendar.isleap(y) else 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][m - 1]:
            return False
    return True


def specification_accepts(text: str) -> bool:
    """Return whether text is EDTF at level 0 or 1: the package's reading, less where it is wider (see the top)."""
    reading = package_reading(text)
    if reading is None:
        return False
    written = text.strip()
    if re.search(r"\s", written) or "S" in written or re.search(r"X[0-9]", written) or not real_days(written):
        return False
    left, slash, right = written.partition("/")
    if slash and left in ("", "..") and right in ("", ".."):
        return False
    if slash and left not in ("", "..") and right not in ("", ".."):
        return day_tuple(reading.lower_strict()) <= day_tuple(reading.upper_strict())
    return True


@pytest.mark.parametrize("text, first, last", EXAMPLES)
def test_the_packages_level_0_and_1_examples_parse_with_their_first_and_last_days(text, first, last):
    date = parse_date(text)
    assert (date.earliest().isoformat() if first else date.earliest(), date.latest().isoformat() if last else date.latest()) == (first, last)
    date.display()
    reading = grammar.parse_edtf(text)  # and the package agrees on every day dossier gives
    if first:
        assert day_tuple(reading.lower_strict()) == day_tuple(date.earliest())
    if last:
        assert day_tuple(reading.upper_strict()) == day_tuple(date.latest())


def test_the_example_list_is_the_packages_53_level_0_and_1_examples():
    assert len(EXAMPLES) == 53 and all(package_reading(text) is not None for text, _, _ in EXAMPLES)


# ---- generated EDTF and near-misses ---------------------------------------------------------

SIGN = st.sampled_from(["", "", "", "-"])
YEAR = st.one_of(
    st.integers(0, 9999).map(lambda y: f"{y:04d}"),
    st.sampled_from(["0000", "1900", "2000", "2019", "2020", "0004", "9999"]),
)
MONTH = st.one_of(st.integers(1, 12).map(lambda m: f"{m:02d}"), st.sampled_from(["00", "13", "20", "21", "22", "23", "24", "25", "XX", "1X", "X1"]))
DAY = st.one_of(st.integers(1, 31).map(lambda d: f"{d:02d}"), st.sampled_from(["00", "28", "29", "30", "31", "32", "XX", "3X", "X1"]))
CLOCK = st.builds(
    lambda h, m, s, zone: f"{h:02d}:{m:02d}" + (f":{s:02d}" if s is not None else "") + zone,
    st.integers(0, 25), st.sampled_from([0, 30, 59, 60]), st.none() | st.sampled_from([0, 1, 59, 60]),
    st.sampled_from(["", "", "Z", "+05:00", "-03", "+00:00", "-00:30", "+00", "+14:00", "+14", "+14:30", "+13:59", "+15:00", "+05:60", "+5"]),
)
QUALIFIER = st.sampled_from(["", "", "?", "~", "%"])


@st.composite
def edtf_point(draw) -> str:
    """A date as EDTF writes one, or nearly: any level 0/1 form, with pieces that are sometimes wrong."""
    kind = draw(st.sampled_from(["year", "month", "day", "time", "unspecified", "long"]))
    year = draw(SIGN) + draw(YEAR)
    if kind == "unspecified":
        year = draw(SIGN) + draw(st.from_regex(r"[0-9X]{4}", fullmatch=True))
        text = year + draw(st.sampled_from(["", "", "-XX", "-XX-XX", "-01-XX", "-02-XX", "-XX-01"]))
    elif kind == "long":
        text = "Y" + draw(SIGN) + str(draw(st.integers(0, 10**12)))
    else:
        text = year
        if kind != "year":
            text += "-" + draw(MONTH)
        if kind in ("day", "time"):
            text += "-" + draw(DAY)
        if kind == "time":
            text += "T" + draw(CLOCK)
    return text + draw(QUALIFIER)


END = st.one_of(edtf_point(), st.sampled_from(["", ".."]))
EDTF_TEXT = st.one_of(edtf_point(), st.builds(lambda a, b: f"{a}/{b}", END, END))


@st.composite
def near_miss(draw) -> str:
    """EDTF text with one character inserted, removed or replaced."""
    text = draw(EDTF_TEXT)
    at = draw(st.integers(0, len(text)))
    piece = draw(st.sampled_from(list("0123456789X-/.?~%TZ:+YS ")))
    action = draw(st.sampled_from(["insert", "remove", "replace"]))
    if action == "insert":
        return text[:at] + piece + text[at:]
    return text[:at] + (piece if action == "replace" else "") + text[at + 1:]


SETTINGS = settings(max_examples=500, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def dossier_reading(text: str):
    try:
        return parse_date(text)
    except DateError:
        return None


def check_against_package(text: str) -> None:
    date = dossier_reading(text)
    assert (date is not None) == specification_accepts(text), f"dossier {'accepts' if date else 'refuses'} {text!r}"
    if date is None:
        return
    reading = package_reading(text)
    lower, upper = day_tuple(reading.lower_strict()), day_tuple(reading.upper_strict())
    if re.fullmatch(r"-[0-9]{4}-.*XX.*", text.strip()):
        # For a negative year with an unspecified month or day the package mirrors the year, from
        # -2019-12-01 to -2019-01-31 for '-2019-XX': only its year is right.
        assert (date.earliest().year, date.latest().year) == (lower[0], upper[0]), text
        return
    if date.earliest() is not None and lower is not None:
        assert day_tuple(date.earliest()) == lower, text
    if date.latest() is not None and upper is not None:
        assert day_tuple(date.latest()) == upper, text
    date.display(), date.sort_key()


@SETTINGS
@given(EDTF_TEXT)
@example("1950S2").via("significant digits are level 2")
@example("2019-02-29").via("not a real day")
@example("1X5X").via("internal unspecified digit")
@example("../..").via("no date at either end")
@example("2019/2018").via("ends before it starts")
@example("-2019-XX").via("the package's mirrored bounds")
@example("2019-21~").via("a season qualified on its own")
@example("1984 / 2004").via("blanks inside")
def test_dossier_accepts_exactly_the_level_0_and_1_edtf_the_package_accepts(text):
    check_against_package(text)


@SETTINGS
@given(near_miss())
def test_near_misses_are_refused_exactly_when_the_package_refuses_them(text):
    check_against_package(text)
