"""Days of the proleptic Gregorian calendar for any year, where datetime.date holds only 1 to 9999."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

_CYCLE_DAYS = 146097  # days in 400 Gregorian years: the calendar repeats after them


def is_leap(year: int) -> bool:
    """Return whether a year (astronomical: 0 is 1 BC, -1 is 2 BC) is a leap year in the proleptic Gregorian calendar."""
    return year % 4 == 0 and (year % 100 != 0 or year % 400 == 0)


def days_in_month(year: int, month: int) -> int:
    return 29 if month == 2 and is_leap(year) else (31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31)[month - 1]


@dataclass(frozen=True, order=True)
class Day:
    """A day of the proleptic Gregorian calendar in any year, for those datetime.date cannot hold.

    Years are astronomical (0000 is 1 BC). It answers what callers ask of a date: year, month, day,
    isoformat(), toordinal() (the same numbering as datetime.date's), adding or subtracting a
    timedelta, and the timedelta between two days (a Day or a datetime.date).
    """

    year: int
    month: int
    day: int

    @classmethod
    def of(cls, year: int, month: int, day: int) -> dt.date | Day:
        """Return a datetime.date where one can hold the day, else a Day."""
        return dt.date(year, month, day) if dt.MINYEAR <= year <= dt.MAXYEAR else cls(year, month, day)

    @classmethod
    def from_date(cls, date: dt.date | Day) -> Day:
        return cls(date.year, date.month, date.day)

    @classmethod
    def fromordinal(cls, number: int) -> Day:
        cycles = (number - 1) // _CYCLE_DAYS
        date = dt.date.fromordinal(number - cycles * _CYCLE_DAYS)
        return cls(date.year + 400 * cycles, date.month, date.day)

    def toordinal(self) -> int:
        """Return the day's number: 1 for 1 January 0001, 0 for 31 December 0000, as datetime.date counts."""
        cycles, year = divmod(self.year - 1, 400)  # shift into 1..400, where datetime.date can count
        return dt.date(year + 1, self.month, self.day).toordinal() + cycles * _CYCLE_DAYS

    def isoformat(self) -> str:
        """Return the ISO 8601 form: '2019-02-23', '-0044-03-15', '+170000002-01-01' (expanded years carry a sign)."""
        year = f"{self.year:04d}" if 0 <= self.year <= 9999 else f"{self.year:+05d}"
        return f"{year}-{self.month:02d}-{self.day:02d}"

    __str__ = isoformat

    def __add__(self, other: object) -> Day:
        if isinstance(other, dt.timedelta):
            return Day.fromordinal(self.toordinal() + other.days)
        return NotImplemented

    __radd__ = __add__

    def __sub__(self, other: object):  # -> dt.timedelta | Day
        if isinstance(other, (Day, dt.date)):
            return dt.timedelta(days=self.toordinal() - other.toordinal())
        if isinstance(other, dt.timedelta):
            return Day.fromordinal(self.toordinal() - other.days)
        return NotImplemented

    def __rsub__(self, other: object) -> dt.timedelta:
        if isinstance(other, dt.date):
            return dt.timedelta(days=other.toordinal() - self.toordinal())
        return NotImplemented
