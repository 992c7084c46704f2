"""Dates against their evidence: a date cited under `evidence:` whose quotes name a day, month or
year, none of which the date can mean ('2018-12-26' cited to "a 26 December 2019 ruling"), is a
warning at the date's line (an error under --strict).

Only what a quote states outright is read: '26 December 2019', 'Dec. 26, 2019', 'December 26',
'December 2019', 'in December', '2019-12-26', '26/12/2019', '26 de diciembre de 2019', a year
such as '2019'. Relative words ('Saturday', 'last month') say nothing on their own, and a quote
that names no date is no evidence against one. An inferred date (`date_basis: inferred`) is worked
out from other dates, which its evidence names ("Feb. 23, the Saturday" for the Monday after): it
is not compared.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Iterator

from ..model.dates import EDate
from ..model.days import days_in_month
from ..model.problems import Problem
from ..model.schema import Citation, Record

MONTH_NAMES = {
    "january": 1, "february": 2, "march": 3, "april": 4, "may": 5, "june": 6, "july": 7, "august": 8,
    "september": 9, "october": 10, "november": 11, "december": 12,
    "jan": 1, "feb": 2, "mar": 3, "apr": 4, "jun": 6, "jul": 7, "aug": 8, "sep": 9, "sept": 9, "oct": 10, "nov": 11, "dec": 12,
    "enero": 1, "febrero": 2, "marzo": 3, "abril": 4, "mayo": 5, "junio": 6, "julio": 7, "agosto": 8,
    "septiembre": 9, "setiembre": 9, "octubre": 10, "noviembre": 11, "diciembre": 12,
}
# A month's name as a writer capitalises it in English ('Dec.', 'December'), or a Spanish one in small letters.
MONTH = r"(?P<{}>(?:January|February|March|April|May|June|July|August|September|October|November|December|Jan|Feb|Mar|Apr|Jun|Jul|Aug|Sept|Sep|Oct|Nov|Dec)\.?|" \
        r"enero|febrero|marzo|abril|mayo|junio|julio|agosto|septiembre|setiembre|octubre|noviembre|diciembre)"
DAY = r"(?P<{}>[0-3]?\d)(?:st|nd|rd|th)?"
YEAR = r"(?P<{}>(?:1[5-9]|20)\d\d)"
NOT_DIGIT_BEFORE, NOT_DIGIT_AFTER = r"(?<![\d,.])", r"(?!\d|,\d|s\b)"  # '1,410' and '1990s' are no years
MAY_LEAD = re.compile(r"\b(?:in|of|since|until|by|early|late|mid-?|from|to|through|and)\s*$")
PATTERNS = [  # the most specific first: what one matches, the others do not read again
    re.compile(NOT_DIGIT_BEFORE + YEAR.format("y") + r"-(?P<n>[01]\d)(?:-(?P<d>[0-3]\d))?" + NOT_DIGIT_AFTER),
    re.compile(NOT_DIGIT_BEFORE + r"(?P<a>[0-3]?\d)[/.](?P<b>[01]?\d)[/.]" + YEAR.format("y") + NOT_DIGIT_AFTER),
    re.compile(r"\b" + MONTH.format("m") + r"\s+" + DAY.format("d") + r"(?:,?\s+" + YEAR.format("y") + r")?" + NOT_DIGIT_AFTER),
    re.compile(NOT_DIGIT_BEFORE + DAY.format("d") + r"\s+(?:de\s+|of\s+)?" + MONTH.format("m") + r"(?:,?\s+(?:de\s+|del\s+)?" + YEAR.format("y") + r")?" + NOT_DIGIT_AFTER),
    re.compile(r"\b" + MONTH.format("m") + r",?\s+(?:de\s+|del\s+)?" + YEAR.format("y") + NOT_DIGIT_AFTER),
    re.compile(r"\b" + MONTH.format("m") + r"(?![\w-])"),
    re.compile(NOT_DIGIT_BEFORE + r"\b" + YEAR.format("y") + NOT_DIGIT_AFTER),
]


@dataclass(frozen=True)
class Mention:
    """A date a quote names, as far as it names it: any of year, month and day may be missing."""

    text: str
    year: int | None = None
    month: int | None = None
    day: int | None = None


def mentions(quote: str) -> list[Mention]:
    """Return the dates a quote names outright, in the order found by PATTERNS."""
    found: list[Mention] = []
    taken = list(quote)
    for pattern in PATTERNS:
        for match in pattern.finditer("".join(taken)):
            for mention in readings(match):
                found.append(mention)
            taken[match.start():match.end()] = " " * (match.end() - match.start())
    return found


def readings(match: re.Match) -> Iterator[Mention]:
    """Yield what a match can mean: a numeric day and month both up to 12 read either way round."""
    groups = match.groupdict()
    text = match.group(0)
    year = int(groups["y"]) if groups.get("y") else None
    month: int | None
    day: int | None
    if "a" in groups:  # 26/02/2019, or 02/26/2019 where the first cannot be a month
        first, second = int(groups["a"]), int(groups["b"])
        pairs = [(second, first)] + ([(first, second)] if first <= 12 and second <= 12 and first != second else [])
        if first > 12 >= second or second > 12 >= first:
            pairs = [(second, first)] if first > 12 else [(first, second)]
        for month, day in pairs:
            if 1 <= month <= 12 and 1 <= day <= 31:
                yield Mention(text, year, month, day)
        return
    month = MONTH_NAMES.get(groups["m"].rstrip(".").lower()) if groups.get("m") else int(groups["n"]) if groups.get("n") else None
    before = match.string[max(0, match.start() - 8):match.start()].lower()
    if groups.get("m") == "May" and not (groups.get("d") or year or MAY_LEAD.search(before)):
        return  # 'May' alone is as likely the verb, but 'in May'
    if month is not None and not 1 <= month <= 12:
        return
    day = int(groups["d"]) if groups.get("d") else None
    if month is not None and day is not None and not 1 <= day <= 31:
        return
    yield Mention(text, year, month, day)


def can_mean(date: EDate, mention: Mention) -> bool:
    """Tell whether some day the date can mean has the year, month and day the mention names."""
    first, last = date.first_day(), date.last_day()
    low = (first.year, first.month, first.day) if first else None
    high = (last.year, last.month, last.day) if last else None
    if mention.year is not None:
        years: list[int] = [mention.year]
    elif low is None or high is None or high[0] - low[0] >= 2:
        return True  # an open date, or one of two years or more, holds every month and day
    else:
        years = list(range(low[0], high[0] + 1))
    for year in years:
        for month in [mention.month] if mention.month is not None else [1, 12]:
            length = days_in_month(year, month)
            if mention.day is not None and mention.day > length:
                continue
            earliest = (year, month if mention.month else 1, mention.day or 1)
            latest = (year, month if mention.month else 12, mention.day or (length if mention.month else 31))
            if (low is None or latest >= low) and (high is None or earliest <= high):
                return True
    return False


def date_fields(rtype: Any) -> list[str]:
    """Return the fields of a record type that hold a date and carry evidence."""
    return [spec.name for spec in rtype.evidence_fields if spec.type == "date"]


def contradicted_dates(record: Record, rtype: Any) -> list[Problem]:
    """Warn about each date of a record whose evidence names dates, none of which it can mean."""
    problems = []
    evidence = getattr(record, "evidence", None) or {}
    for name in date_fields(rtype):
        date, cited = getattr(record, name, None), evidence.get(name)
        if not isinstance(date, EDate) or not cited or getattr(record, f"{name}_basis", None) == "inferred":
            continue
        named = [(citation, mention) for citation in cited for mention in mentions(citation.quote)]
        if not named or any(can_mean(date, mention) for _, mention in named):
            continue
        citation, mention = named[0]
        line = record.lines.get((name,), 1)
        problems.append(Problem(record.path, line, 0, "warning", f"'{date.text}' ({date.display()}) is not the date its evidence gives: "
                                f"{quoted(citation)} names {mention.text}, {difference(date, mention)}; correct the date or cite the passage that gives it",
                                kind="date its evidence contradicts"))
    return problems


def quoted(citation: Citation) -> str:
    """Return a citation's quote, shortened, as the message shows it."""
    words = " ".join(citation.quote.split())
    return "“" + (words if len(words) <= 60 else words[:60].rsplit(" ", 1)[0] + "…") + "”"


def difference(date: EDate, mention: Mention) -> str:
    """Say what differs: the year, the month or the day."""
    first = date.first_day()
    if mention.year is not None and (first is None or not can_mean(date, Mention("", mention.year))):
        return "another year"
    if mention.month is not None and not can_mean(date, Mention("", mention.year, mention.month)):
        return "another month"
    return "another day"
