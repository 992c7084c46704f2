"""Dates in Library of Congress EDTF levels 0 and 1: show them at their precision, and sort them
(dateparse.py reads them).

Level 0: 2019, 2019-02, 2019-02-23; negative years and year 0 (-0044, 0000: years are counted
astronomically, so 0000 is 1 BC); a day with a time (2019-04-30T05:00:00, optionally ending in Z or
an offset such as +05:00); intervals of dates (2019-02-23/2019-02-25).

Level 1: qualifiers ? (uncertain) ~ (approximate) % (both) at the end of a date; unspecified digits
from the right (201X, 19XX, 1XXX, 2019-XX, 2019-02-XX, 2019-XX-XX); years of more than four digits
written with Y (Y170000002, Y-170000002); seasons (2019-21 spring … 2019-24 winter); and intervals
whose ends are dates or seasons, each possibly qualified, with '..' for an open end (the interval
goes on) and an empty side for an unknown one (it ends, but when is not known).

As in the EDTF grammar, a season is qualified only as an interval's end, and an interval's ends have
no times, unspecified digits or Y years. Besides: a day must exist (2019-02-29 does not), an interval
may not end before it starts, and at least one of its ends must be a date.

datetime.date holds only the years 1 to 9999: earliest() and latest() return one where it can and a
Day, its proleptic stand-in, for other years; sort keys are tuples of integers.
"""

from __future__ import annotations

import calendar
import datetime as dt
from dataclasses import dataclass
from typing import Callable

from .days import Day, days_in_month

MONTHS = [None] + list(calendar.month_name)[1:]
SEASONS = {21: "Spring", 22: "Summer", 23: "Autumn", 24: "Winter"}
SEASON_MONTHS = {21: (3, 5), 22: (6, 8), 23: (9, 11), 24: (12, 12)}
# [0-9], not \d: no other scripts' digits. A time is taken loosely here and checked piece by piece.
class DateError(ValueError):
    """A date that is not valid EDTF or names a day that does not exist."""


def year_label(year: int) -> str:
    """Show a year as written in EDTF, signed and astronomical: '2019', '0', '-44'; long years grouped: '170,000,002'."""
    return f"{year:,}" if abs(year) > 9999 else str(year)


def ordinal_suffix(number: int) -> str:
    return "th" if 10 <= number % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(number % 10, "th")


@dataclass(frozen=True)
class Point:
    """One EDTF date: a year, month or day (with a time or not), possibly approximate or uncertain.

    year is astronomical (0 is 1 BC); for unspecified digits ('201X', '-01XX') it is the first year
    the date can mean and year_digits says how many digits were given.
    """

    year: int
    month: int | None = None
    day: int | None = None
    season: int | None = None
    year_digits: int = 4  # specified leading digits of the year: 3 for '201X', 1 for '1XXX'
    approximate: bool = False
    uncertain: bool = False
    long_year: bool = False  # written with Y: 'Y170000002'
    time: tuple[int, int, int] | None = None  # (hour, minute, second) of a date with a time
    zone: str | None = None  # the time's 'Z' or offset ('+05:00', '-03') as written

    @property
    def precision(self) -> str:
        """'day' (also for a date with a time), 'month', 'season', 'year', 'decade', 'century' or 'millennium'."""
        if self.year_digits < 4:
            return {3: "decade", 2: "century"}.get(self.year_digits, "millennium")
        if self.day is not None:
            return "day"
        if self.month is not None:
            return "month"
        if self.season is not None:
            return "season"
        return "year"

    def years(self) -> tuple[int, int]:
        """Return the first and last year this date can mean."""
        return self.year, self.year + 10 ** (4 - self.year_digits) - 1

    def first_day(self) -> Day:
        """Return the first day this date can mean, in any year."""
        if self.season is not None:
            return Day(self.year, SEASON_MONTHS[self.season][0], 1)
        return Day(self.year, self.month or 1, self.day or 1)

    def last_day(self) -> Day:
        """Return the last day this date can mean, in any year."""
        year = self.years()[1]
        month = SEASON_MONTHS[self.season][1] if self.season is not None else self.month or 12
        return Day(year, month, self.day or days_in_month(year, month))

    def earliest(self) -> dt.date | Day:
        """Return the first day this date can mean: a datetime.date where one can hold it, else a Day."""
        first = self.first_day()
        return Day.of(first.year, first.month, first.day)

    def latest(self) -> dt.date | Day:
        """Return the last day this date can mean: a datetime.date where one can hold it, else a Day."""
        last = self.last_day()
        return Day.of(last.year, last.month, last.day)

    def iso(self) -> str:
        """Return the EDTF form at this date's precision, without qualifiers: '2019', '2019-02', '2019-02-23',
        '2019-04-30T05:00:00Z', '-0044', 'Y170000002'; unspecified years give their digits: '201' for '201X'."""
        if self.long_year:
            return f"Y{self.year}"
        if self.year_digits < 4:
            first, last = self.years()
            return (f"{first:04d}" if first >= 0 else f"-{-last:04d}")[: self.year_digits + (first < 0)]
        year = f"{self.year:04d}" if self.year >= 0 else f"-{-self.year:04d}"
        if self.season is not None:
            return f"{year}-{self.season}"
        parts = [year]
        if self.month is not None:
            parts.append(f"{self.month:02d}")
        if self.day is not None:
            parts.append(f"{self.day:02d}")
        text = "-".join(parts)
        if self.time is not None:
            text += "T{:02d}:{:02d}:{:02d}".format(*self.time) + (self.zone or "")
        return text

    def bare(self, *, with_year: bool = True, with_month: bool = True) -> str:
        """Show the date without qualifiers: '23 February 2019', 'February 2019', '2010s', '30 April 2019, 05:00'."""
        if self.year_digits < 4:
            return self._span()
        year = year_label(self.year) if with_year else ""
        if self.season is not None:
            return f"{SEASONS[self.season]} {year}".strip()
        if self.month is None:
            return year
        month = MONTHS[self.month] if with_month else ""
        day = str(self.day) if self.day is not None else ""
        text = " ".join(part for part in (day, month, year) if part)
        return text + (", " + self._clock() if self.time is not None else "")

    def _span(self) -> str:
        """Show years with unspecified digits: '2010s', '20th century', '1000–1999', '-199 to -100'."""
        first, last = self.years()
        if first < 0:
            return f"{year_label(first)} to {year_label(last)}"
        if first > 0 and self.year_digits == 3:
            return f"{first}s"
        if first > 0 and self.year_digits == 2:
            century = first // 100 + 1
            return f"{century}{ordinal_suffix(century)} century"
        return f"{first}–{last}"

    def _clock(self) -> str:
        """Show the time: '05:00', '09:30:01', '10:10:10 UTC', '10:10:10 UTC+05:00'."""
        assert self.time is not None
        hour, minute, second = self.time
        text = f"{hour:02d}:{minute:02d}" + (f":{second:02d}" if second else "")
        if self.zone:
            text += " UTC" + ("" if self.zone == "Z" else self.zone)
        return text

    def qualify(self, text: str) -> str:
        """Add this date's qualifiers to text: 'c. March 2019', 'March 2019 (uncertain)'."""
        if self.approximate:
            text = "c. " + text
        if self.uncertain:
            text += " (uncertain)"
        return text


@dataclass(frozen=True)
class EDate:
    """A parsed date or interval, as written and as points.

    An interval's missing end is open ('2019/..': it goes on; open_end) or unknown ('2019/': it
    ends, but when is not known; unknown_end). Either way its point is None.
    """

    text: str
    start: Point | None
    end: Point | None
    open_start: bool = False
    open_end: bool = False

    @property
    def is_interval(self) -> bool:
        return self.start != self.end

    @property
    def unknown_start(self) -> bool:
        return self.start is None and not self.open_start

    @property
    def unknown_end(self) -> bool:
        return self.end is None and not self.open_end

    @property
    def approximate(self) -> bool:
        return any(p is not None and (p.approximate or p.uncertain) for p in (self.start, self.end))

    @property
    def precision(self) -> str:
        point = self.start or self.end
        return "range" if self.is_interval else point.precision  # type: ignore[union-attr]

    def earliest(self) -> dt.date | Day | None:
        """Return the first day the date can mean (None for an open or unknown start); a Day outside years 1–9999."""
        return self.start.earliest() if self.start else None

    def latest(self) -> dt.date | Day | None:
        """Return the last day the date can mean (None for an open or unknown end); a Day outside years 1–9999."""
        return self.end.latest() if self.end else None

    def first_day(self) -> Day | None:
        """Return the first day the date can mean as a Day, in any year (None for an open or unknown start)."""
        return self.start.first_day() if self.start else None

    def last_day(self) -> Day | None:
        """Return the last day the date can mean as a Day, in any year (None for an open or unknown end)."""
        return self.end.last_day() if self.end else None

    def sort_key(self) -> tuple:
        """Order by first possible day, then the shorter span first, then as written: ((y, m, d), (y, m, d), text)."""
        first = self.first_day() or self.last_day()
        last = self.last_day() or self.first_day()
        assert first is not None and last is not None
        return ((first.year, first.month, first.day), (last.year, last.month, last.day), self.text)

    def display(self) -> str:
        """Show the date at its precision: '23–25 February 2019', 'c. March 2019'."""
        if not self.is_interval:
            return self.start.qualify(self.start.bare())  # type: ignore[union-attr]
        if self.start is None:
            return ("until " if self.open_start else "? – ") + self.end.qualify(self.end.bare())  # type: ignore[union-attr]
        if self.end is None:
            return ("from " if self.open_end else "") + self.start.qualify(self.start.bare()) + ("" if self.open_end else " – ?")
        return display_range(self.start, self.end)


def display_range(start: Point, end: Point, bare: Callable[..., str] | None = None, qualified: Callable[[Point], str] | None = None) -> str:
    """Show an interval with both ends known, sharing what the ends share: '23–25 February 2019'.
    bare(point, with_year=...) and qualified(point) show one end (another language's, see i18n.py)."""
    bare = bare or (lambda point, with_year=True: point.bare(with_year=with_year))
    qualified = qualified or (lambda point: point.qualify(point.bare()))
    plain = not (start.approximate or start.uncertain or end.approximate or end.uncertain)
    if plain and start.precision == end.precision and start.year == end.year and start.year_digits == 4:
        if start.precision == "day" and start.month == end.month:
            return f"{start.day}–{bare(end)}"
        if start.precision == "day":
            return f"{bare(start, with_year=False)} – {bare(end)}"
        if start.precision in ("month", "season"):
            return f"{bare(start, with_year=False)}–{bare(end)}"
    close = plain and start.precision == "year" == end.precision and start.year >= 0 and end.year >= 0
    return qualified(start) + ("–" if close else " – ") + qualified(end)


def month_key(date: EDate) -> tuple[int, int | None]:
    """Group key for timelines: (year, month) of the first month the date is known to fall in (a
    span's first month, a season's first month), or (year, None) when its month is not known (a bare year)."""
    point = date.start or date.end
    assert point is not None
    if point.precision in ("day", "month"):
        return (point.year, point.month)
    if point.precision == "season":
        return (point.year, SEASON_MONTHS[point.season][0])  # type: ignore[index]
    return (point.year, None)
