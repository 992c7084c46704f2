"""Dates in Library of Congress EDTF level 0/1 notation: parse, show at their precision, sort.

Supported: 2019, 2019-02, 2019-02-23, seasons (2019-21 spring … 2019-24 winter), unspecified
digits (201X, 2019-XX), qualifiers ? (uncertain) ~ (approximate) % (both), and intervals
(2019-02-23/2019-02-25, with '..' for an open end and an empty side for an unknown one).
"""

from __future__ import annotations

import calendar
import datetime as dt
import re
from dataclasses import dataclass

MONTHS = [None] + list(calendar.month_name)[1:]
SEASONS = {21: "Spring", 22: "Summer", 23: "Autumn", 24: "Winter"}
SEASON_MONTHS = {21: (3, 5), 22: (6, 8), 23: (9, 11), 24: (12, 12)}
POINT = re.compile(r"(?P<year>\d[\dX]{3})(?:-(?P<month>[\dX]{2})(?:-(?P<day>[\dX]{2}))?)?(?P<qual>[?~%])?", re.ASCII)  # ASCII: no other scripts' digits


class DateError(ValueError):
    """A date that is not valid EDTF or names a day that does not exist."""


@dataclass(frozen=True)
class Point:
    """One EDTF date: a year, month or day, possibly approximate or uncertain."""

    year: int
    month: int | None = None
    day: int | None = None
    season: int | None = None
    year_digits: int = 4  # specified leading digits of the year: 3 for '201X'
    approximate: bool = False
    uncertain: bool = False

    @property
    def precision(self) -> str:
        if self.year_digits < 4:
            return "decade" if self.year_digits == 3 else "century"
        if self.day is not None:
            return "day"
        if self.month is not None:
            return "month"
        if self.season is not None:
            return "season"
        return "year"

    def earliest(self) -> dt.date:
        """Return the first day this date can mean."""
        if self.year_digits < 4:
            return dt.date(max(self.year, 1), 1, 1)
        if self.season is not None:
            return dt.date(self.year, SEASON_MONTHS[self.season][0], 1)
        return dt.date(self.year, self.month or 1, self.day or 1)

    def latest(self) -> dt.date:
        """Return the last day this date can mean."""
        if self.year_digits < 4:
            return dt.date(self.year + 10 ** (4 - self.year_digits) - 1, 12, 31)
        if self.season is not None:
            month = SEASON_MONTHS[self.season][1]
            return dt.date(self.year, month, calendar.monthrange(self.year, month)[1])
        month = self.month or 12
        return dt.date(self.year, month, self.day or calendar.monthrange(self.year, month)[1])

    def iso(self) -> str:
        """Return the ISO form at this date's precision: '2019', '2019-02' or '2019-02-23'."""
        if self.year_digits < 4:
            return str(self.year)[: self.year_digits]
        if self.season is not None:
            return f"{self.year:04d}-{self.season}"
        parts = [f"{self.year:04d}"]
        if self.month is not None:
            parts.append(f"{self.month:02d}")
        if self.day is not None:
            parts.append(f"{self.day:02d}")
        return "-".join(parts)

    def bare(self, *, with_year: bool = True, with_month: bool = True) -> str:
        """Show the date without qualifiers: '23 February 2019', 'February 2019', '2010s'."""
        if self.year_digits == 3:
            return f"{self.year}s"
        if self.year_digits < 3:
            return f"{self.year // 100 + 1}th century"
        year = str(self.year) if with_year else ""
        if self.season is not None:
            return f"{SEASONS[self.season]} {year}".strip()
        if self.month is None:
            return year
        month = MONTHS[self.month] if with_month else ""
        day = str(self.day) if self.day is not None else ""
        return " ".join(part for part in (day, month, year) if part)

    def qualify(self, text: str) -> str:
        """Add this date's qualifiers to text: 'c. March 2019', 'March 2019 (uncertain)'."""
        if self.approximate:
            text = "c. " + text
        if self.uncertain:
            text += " (uncertain)"
        return text


@dataclass(frozen=True)
class EDate:
    """A parsed date or interval, as written and as points."""

    text: str
    start: Point | None
    end: Point | None
    open_start: bool = False
    open_end: bool = False

    @property
    def is_interval(self) -> bool:
        return self.start != self.end

    @property
    def approximate(self) -> bool:
        return any(p is not None and (p.approximate or p.uncertain) for p in (self.start, self.end))

    @property
    def precision(self) -> str:
        point = self.start or self.end
        return "range" if self.is_interval else point.precision  # type: ignore[union-attr]

    def earliest(self) -> dt.date | None:
        return self.start.earliest() if self.start else None

    def latest(self) -> dt.date | None:
        return self.end.latest() if self.end else None

    def sort_key(self) -> tuple:
        """Order by first possible day, then the shorter span first, then as written."""
        first = self.earliest() or self.latest()
        last = self.latest() or self.earliest()
        return (first, last, self.text)

    def display(self) -> str:
        """Show the date at its precision: '23–25 February 2019', 'c. March 2019'."""
        if not self.is_interval:
            return self.start.qualify(self.start.bare())  # type: ignore[union-attr]
        if self.start is None:
            return ("until " if self.open_start else "? – ") + self.end.qualify(self.end.bare())  # type: ignore[union-attr]
        if self.end is None:
            return ("from " if self.open_end else "") + self.start.qualify(self.start.bare()) + ("" if self.open_end else " – ?")
        return _display_range(self.start, self.end)


def _display_range(start: Point, end: Point) -> str:
    plain = not (start.approximate or start.uncertain or end.approximate or end.uncertain)
    same_precision = start.precision == end.precision
    if plain and same_precision and start.year == end.year and start.year_digits == 4:
        if start.precision == "day" and start.month == end.month:
            return f"{start.day}–{end.bare()}"
        if start.precision == "day":
            return f"{start.bare(with_year=False)} – {end.bare()}"
        if start.precision in ("month", "season"):
            return f"{start.bare(with_year=False)}–{end.bare()}"
    separator = "–" if plain and start.precision == "year" == end.precision else " – "
    return start.qualify(start.bare()) + separator + end.qualify(end.bare())


def parse_point(text: str) -> Point:
    """Parse one EDTF date such as '2019-02-23', '2019-03~' or '201X'."""
    match = POINT.fullmatch(text)
    if not match:
        raise DateError(f"'{text}' is not a date; write YYYY, YYYY-MM or YYYY-MM-DD, optionally ending in ~ (approximate) or ? (uncertain)")
    year_text, month_text, day_text = match["year"], match["month"], match["day"]
    qual = match["qual"] or ""
    approximate, uncertain = qual in ("~", "%"), qual in ("?", "%")
    stripped = year_text.rstrip("X")
    if "X" in stripped or (len(stripped) < 4 and (month_text or day_text)):
        raise DateError(f"'{text}': unspecified digits (X) may only end the year, as in '201X'")
    if len(stripped) < 4:
        if len(stripped) < 2:
            raise DateError(f"'{text}': give at least the century, as in '19XX'")
        return Point(int(stripped) * 10 ** (4 - len(stripped)), year_digits=len(stripped), approximate=approximate, uncertain=uncertain)
    year = int(year_text)
    if year == 0:
        raise DateError(f"'{text}': there is no year 0000; years run from 0001")
    if month_text is None or month_text == "XX":
        if day_text not in (None, "XX"):
            raise DateError(f"'{text}': a day needs a month")
        return Point(year, approximate=approximate, uncertain=uncertain)
    if "X" in month_text:
        raise DateError(f"'{text}': a month is either written in full or as XX")
    number = int(month_text)
    if number in SEASONS and day_text is None:
        return Point(year, season=number, approximate=approximate, uncertain=uncertain)
    if not 1 <= number <= 12:
        raise DateError(f"'{text}' has no month {number}; months run from 01 to 12 (21–24 are seasons)")
    if day_text is None or day_text == "XX":
        return Point(year, number, approximate=approximate, uncertain=uncertain)
    if "X" in day_text:
        raise DateError(f"'{text}': a day is either written in full or as XX")
    day = int(day_text)
    days_in_month = calendar.monthrange(year, number)[1]
    if not 1 <= day <= days_in_month:
        raise DateError(f"'{text}' is not a real day: {MONTHS[number]} {year} has {days_in_month} days")
    return Point(year, number, day, approximate=approximate, uncertain=uncertain)


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
    start = None if left in ("", "..") else parse_point(left)
    end = None if right in ("", "..") else parse_point(right)
    if start and end and end.latest() < start.earliest():
        raise DateError(f"'{text}': the interval ends before it starts")
    return EDate(text, start, end, open_start=left == "..", open_end=right == "..")


def month_key(date: EDate) -> tuple[int, int | None]:
    """Group key for timelines: (year, month) or (year, None) when the month is not known."""
    point = date.start or date.end
    assert point is not None
    if point.precision in ("day", "month") and (not date.is_interval or (date.end and date.start and date.end.year == point.year and date.end.month == point.month)):
        return (point.year, point.month)
    return (point.year, None)
