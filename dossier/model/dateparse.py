"""Reading EDTF levels 0 and 1 (see dates.py for what they hold), with a precise message for each refusal."""

from __future__ import annotations

import re
from typing import Any, NoReturn

from .dates import MONTHS, SEASON_MONTHS, SEASONS, DateError, EDate, Point, year_label
from .days import days_in_month

POINT = re.compile(r"(?P<sign>-)?(?P<year>[0-9X]{4})(?:-(?P<month>[0-9X]{2})(?:-(?P<day>[0-9X]{2}))?)?(?:T(?P<time>[^?~%]*))?(?P<qual>[?~%])?")
LONG_YEAR = re.compile(r"Y(?P<year>-?[0-9]+)(?P<rest>.*)")
TIME = re.compile(r"(?P<hour>[0-9]{2}):(?P<minute>[0-9]{2})(?::(?P<second>[0-9]{2}))?(?P<zone>Z|[+-][0-9]{2}(?::[0-9]{2})?)?")
GENERIC = "is not a date; write YYYY, YYYY-MM or YYYY-MM-DD, optionally ending in ~ (approximate) or ? (uncertain)"


def parse_point(text: str, *, interval: str | None = None) -> Point:
    """Parse one EDTF date such as '2019-02-23', '2019-03~', '201X', '-0044' or '2019-04-30T05:00:00'.

    interval is the whole interval text when the date is one of its ends, where EDTF level 1 allows
    less: no time, no unspecified digits (X), no Y year, and a qualified season.
    """
    if text.startswith("Y"):
        return _parse_long_year(text, interval)
    if re.fullmatch(r"-?[0-9]{5,}", text):
        _fail(f"'{text}': a year of more than four digits is written with Y, as in 'Y{text}'")
    match = POINT.fullmatch(text)
    if not match:
        _fail(f"'{text}' {GENERIC}")
    sign, year_text, month_text, day_text = match["sign"], match["year"], match["month"], match["day"]
    qual = match["qual"] or ""
    flags: dict[str, Any] = {"approximate": qual in ("~", "%"), "uncertain": qual in ("?", "%")}
    if interval is not None and "X" in text:
        _fail(f"'{interval}': an interval's ends cannot have unspecified digits (X); '{text}' has")
    stripped = year_text.rstrip("X")
    if "X" in stripped or (len(stripped) < 4 and (month_text or day_text or match["time"] is not None)):
        _fail(f"'{text}': unspecified digits (X) may only end the year, as in '201X'")
    if not stripped:
        _fail(f"'{text}': give at least the first digit of the year, as in '1XXX'")
    if sign and year_text == "0000":
        _fail(f"'{text}': there is no year -0000; write 0000")
    if len(stripped) < 4:
        scale = 10 ** (4 - len(stripped))
        first = int(stripped) * scale if not sign else -(int(stripped) * scale + scale - 1)
        return Point(first, year_digits=len(stripped), **flags)
    year = -int(year_text) if sign else int(year_text)
    if match["time"] is not None:
        return _parse_date_time(match, year, interval)
    if month_text is None or month_text == "XX":
        if day_text not in (None, "XX"):
            _fail(f"'{text}': a day needs a month")
        return Point(year, **flags)
    if "X" in month_text:
        _fail(f"'{text}': a month is either written in full or as XX")
    number = int(month_text)
    if number in SEASONS and day_text is None:
        if qual and interval is None:
            _fail(f"'{text}': EDTF does not qualify a season on its own; write {text[:-1]}, or qualify its months, as in "
                  f"{year_text if not sign else '-' + year_text}-{SEASON_MONTHS[number][0]:02d}{qual}/"
                  f"{year_text if not sign else '-' + year_text}-{SEASON_MONTHS[number][1]:02d}{qual}")
        return Point(year, season=number, **flags)
    if not 1 <= number <= 12:
        _fail(f"'{text}' has no month {number}; months run from 01 to 12 (21–24 are seasons)")
    if day_text is None or day_text == "XX":
        return Point(year, number, **flags)
    if "X" in day_text:
        _fail(f"'{text}': a day is either written in full or as XX")
    day = int(day_text)
    length = days_in_month(year, number)
    if not 1 <= day <= length:
        _fail(f"'{text}' is not a real day: {MONTHS[number]} {year_label(year)} has {length} days")
    return Point(year, number, day, **flags)


def _parse_long_year(text: str, interval: str | None) -> Point:
    """Parse 'Y170000002' or 'Y-170000002': a year of more than four digits, alone and unqualified."""
    match = LONG_YEAR.fullmatch(text)
    if not match:
        _fail(f"'{text}': Y starts a year of more than four digits, as in 'Y170000002'")
    digits, rest = match["year"].lstrip("-"), match["rest"]
    if interval is not None:
        _fail(f"'{interval}': an interval's ends cannot be years written with Y; '{text}' is")
    if rest[:1] in ("?", "~", "%") and len(rest) == 1:
        _fail(f"'{text}': a year written with Y cannot carry ~, ? or %")
    if rest:
        _fail(f"'{text}': a year written with Y stands alone, without month or day" if rest.startswith("-") else f"'{text}' {GENERIC}")
    if len(digits) <= 4:
        _fail(f"'{text}': Y is for years of more than four digits; write {match['year'][:-len(digits)]}{int(digits):04d}")
    if digits.startswith("0"):
        _fail(f"'{text}': a year written with Y does not start with 0")
    return Point(int(match["year"]), long_year=True)


def _parse_date_time(match: re.Match[str], year: int, interval: str | None) -> Point:
    """Parse a day with a time: '2019-04-30T05:00:00', with 'Z' or an offset ('+05:00', '-03') or neither."""
    text, date_text = match[0], match[0].split("T")[0]
    if interval is not None:
        _fail(f"'{interval}': an interval's ends are dates without a time; '{text}' has one")
    if match["qual"]:
        _fail(f"'{text}': a date with a time cannot carry ~, ? or %")
    if match["day"] is None or "X" in date_text:
        _fail(f"'{text}': a time needs a full date (YYYY-MM-DD) before the T")
    date = parse_point(date_text)
    time = TIME.fullmatch(match["time"])
    if not time:
        _fail(f"'{text}': write the time as hh:mm:ss, optionally followed by Z or an offset such as +05:00")
    if time["second"] is None:
        _fail(f"'{text}': write the time with seconds, as in {date_text}T{time['hour']}:{time['minute']}:00{time['zone'] or ''}")
    hour, minute, second = int(time["hour"]), int(time["minute"]), int(time["second"])
    if (hour, minute, second) != (24, 0, 0):
        if hour > 23:
            _fail(f"'{text}' has no hour {hour}; hours run from 00 to 23 (24:00:00 is the end of the day)")
        if minute > 59:
            _fail(f"'{text}' has no minute {minute}; minutes run from 00 to 59")
        if second > 59:
            _fail(f"'{text}' has no second {second}; seconds run from 00 to 59")
    zone = time["zone"]
    if zone and zone != "Z":
        hours, _, minutes = zone[1:].partition(":")
        if int(hours) == 0 and int(minutes or 0) == 0:
            _fail(f"'{text}': a time in UTC ends in Z, not {zone}")
        if minutes and int(minutes) > 59:
            _fail(f"'{text}': the offset {zone} has no minute {int(minutes)}; minutes run from 00 to 59")
        if int(hours) > 14 or (int(hours) == 14 and minutes not in ("", "00")):
            _fail(f"'{text}': the offset {zone} is too large; offsets run from -14:00 to +14:00")
        if int(hours) == 14 and not minutes:
            _fail(f"'{text}': an offset of 14 hours is written with its minutes: {zone}:00")
        if int(hours) == 0 and not minutes:
            _fail(f"'{text}': a time in UTC ends in Z, not {zone}")
    return Point(year, date.month, date.day, time=(hour, minute, second), zone=zone)


def _fail(message: str) -> NoReturn:
    raise DateError(message)


def parse_date(text: str) -> EDate:
    """Parse an EDTF date or interval, raising DateError with a plain explanation."""
    text = text.strip()
    if "/" not in text:
        point = parse_point(text)
        return EDate(text, point, point)
    if text.count("/") > 1:
        raise DateError(f"'{text}': an interval has exactly one '/'")
    left, right = text.split("/")
    if left in ("", "..") and right in ("", ".."):
        raise DateError(f"'{text}': an interval needs at least one known end")
    start = None if left in ("", "..") else parse_point(left, interval=text)
    end = None if right in ("", "..") else parse_point(right, interval=text)
    if start and end and end.last_day() < start.first_day():
        raise DateError(f"'{text}': the interval ends before it starts")
    return EDate(text, start, end, open_start=left == "..", open_end=right == "..")
