"""The site in its readers' languages: dates and numbers as each language writes them (with Babel's
locale data), and the interface's translations from the gettext catalogs in dossier/locale/.

English is the language dates.py writes, so its dates are EDate.display() exactly; every other
language has a table of words and patterns below, with the month names from Babel.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from pathlib import Path

from babel.dates import get_month_names
from babel.numbers import format_decimal

from .dates import EDate, Point

LOCALE = Path(__file__).resolve().parent / "locale"
DOMAIN = "dossier"
LANGUAGES = ("en", "es")  # the languages whose interface dossier carries


@dataclass(frozen=True)
class DateWords:
    """How one language writes a date: its patterns ('{day} de {month} de {year}') and words."""

    day: str
    month: str
    season: str
    seasons: dict[int, str]
    approximate: str  # put before the date
    uncertain: str  # put after it
    since: str  # an open end: 'desde 2019'
    until: str  # an open start: 'hasta abril de 2019'
    decade: str
    century: str
    negative_span: str  # '{first} a {last}'
    time: str  # '{date}, {clock}'


SPANISH = DateWords(
    day="{day} de {month} de {year}", month="{month} de {year}", season="{season} de {year}",
    seasons={21: "primavera", 22: "verano", 23: "otoño", 24: "invierno"},
    approximate="c. ", uncertain=" (incierta)", since="desde ", until="hasta ",
    decade="década de {first}", century="siglo {roman}", negative_span="{first} a {last}", time="{date}, {clock}",
)
WORDS = {"es": SPANISH}


def number(value: int, lang: str) -> str:
    """Write a whole number as the language does: 1,410 in English, 1.410 in Spanish."""
    return format_decimal(value, locale=lang)


@cache
def month_names(lang: str) -> list[str | None]:
    """Return the language's month names, indexed from 1 (as they stand inside a date)."""
    names = get_month_names("wide", context="format", locale=lang)
    return [None] + [names[m] for m in range(1, 13)]


def display_date(date: EDate, lang: str = "en") -> str:
    """Show a date at its precision in a language: '23 de febrero de 2019', 'c. marzo de 2019'."""
    if lang not in WORDS:
        return date.display()
    words = WORDS[lang]
    start, end = date.start, date.end
    if not date.is_interval:
        return _qualified(start, lang)  # type: ignore[arg-type]
    if start is None:
        return (words.until if date.open_start else "? – ") + _qualified(end, lang)  # type: ignore[arg-type]
    if end is None:
        return (words.since if date.open_end else "") + _qualified(start, lang) + ("" if date.open_end else " – ?")
    return _range(start, end, lang)


def _range(start: Point, end: Point, lang: str) -> str:
    """Show an interval with both ends known, sharing what the ends share: '23–25 de febrero de 2019'."""
    plain = not (start.approximate or start.uncertain or end.approximate or end.uncertain)
    if plain and start.precision == end.precision and start.year == end.year and start.year_digits == 4:
        if start.precision == "day" and start.month == end.month:
            return f"{start.day}–{_bare(end, lang)}"
        if start.precision == "day":
            return f"{_bare(start, lang, with_year=False)} – {_bare(end, lang)}"
        if start.precision in ("month", "season"):
            return f"{_bare(start, lang, with_year=False)}–{_bare(end, lang)}"
    close = plain and start.precision == "year" == end.precision and start.year >= 0 and end.year >= 0
    return _qualified(start, lang) + ("–" if close else " – ") + _qualified(end, lang)


def _qualified(point: Point, lang: str) -> str:
    words = WORDS[lang]
    text = _bare(point, lang)
    if point.approximate:
        text = words.approximate + text
    if point.uncertain:
        text += words.uncertain
    return text


def _year(year: int, lang: str) -> str:
    return number(year, lang) if abs(year) > 9999 else str(year)


def _bare(point: Point, lang: str, *, with_year: bool = True) -> str:
    """Show one date without qualifiers; without its year, the pattern stops before ' de {year}'."""
    words = WORDS[lang]
    if point.year_digits < 4:
        return _span(point, lang)
    year = _year(point.year, lang)
    if point.season is not None:
        pattern, values = words.season, {"season": words.seasons[point.season]}
    elif point.month is None:
        return year
    elif point.day is None:
        pattern, values = words.month, {"month": month_names(lang)[point.month]}
    else:
        pattern, values = words.day, {"day": point.day, "month": month_names(lang)[point.month]}
    if not with_year:
        pattern = pattern[: pattern.index("{year}")].rstrip().removesuffix(" de")
    text = pattern.format(year=year, **values)
    if point.time is not None:
        text = words.time.format(date=text, clock=_clock(point))
    return text


def _clock(point: Point) -> str:
    assert point.time is not None
    hour, minute, second = point.time
    text = f"{hour:02d}:{minute:02d}" + (f":{second:02d}" if second else "")
    if point.zone:
        text += " UTC" + ("" if point.zone == "Z" else point.zone)
    return text


def _span(point: Point, lang: str) -> str:
    """Show years with unspecified digits: 'década de 2010', 'siglo XX', '1000–1999'."""
    words = WORDS[lang]
    first, last = point.years()
    if first < 0:
        return words.negative_span.format(first=_year(first, lang), last=_year(last, lang))
    if first > 0 and point.year_digits == 3:
        return words.decade.format(first=first)
    if first > 0 and point.year_digits == 2:
        return words.century.format(roman=roman(first // 100 + 1))
    return f"{first}–{last}"


def roman(value: int) -> str:
    """Write 1–3999 in Roman numerals, as Spanish numbers centuries: 20 -> 'XX'."""
    text = ""
    for amount, letters in ((1000, "M"), (900, "CM"), (500, "D"), (400, "CD"), (100, "C"), (90, "XC"), (50, "L"),
                            (40, "XL"), (10, "X"), (9, "IX"), (5, "V"), (4, "IV"), (1, "I")):
        count, value = divmod(value, amount)
        text += letters * count
    return text
