"""The site in its readers' languages: dates and numbers as each language writes them (with Babel's
locale data), and the interface's translations from the gettext catalogs in dossier/locale/.

English is the language dates.py writes, so its dates are EDate.display() exactly; every other
language has a table of words and patterns below, with the month names from Babel.
"""

from __future__ import annotations

import gettext
import hashlib
import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from babel import Locale, UnknownLocaleError
from babel.dates import get_month_names
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from babel.numbers import format_decimal

from .dates import MONTHS, EDate, Point, display_range

TRANSLATION = re.compile(r"(?P<id>[^.]+)\.(?P<lang>[a-z]{2,3})")  # the stem of content/people/x.es.md
LOCALE = Path(__file__).resolve().parent.parent / "locale"
CATALOGS = "dossier/locale"  # how the catalogs are named among a build's inputs (incremental/inputs.py): dossier/locale/es/LC_MESSAGES/dossier.po
DOMAIN = "dossier"
LANGUAGES = ("en", "es")  # the languages whose interface dossier carries


def N_(text: str) -> str:
    """Mark a string for the catalog without translating it here (templates translate it as they show it)."""
    return text


AXIS_NAME = N_("Time axis: each mark links to its event")  # the timeline axis's accessible name (axis.py)
NOT_TRANSLATED = N_("not translated")  # after a language's name in the switcher, where that language's page shows the original's text


# Interface strings that Python code translates with gettext as it writes them (the contents' title,
# the feed's link, the axis's name, the switcher's note), for the catalog. The words of the model that
# readers see (record types, the headings that list records back, facets, bases) are gathered from the
# model itself (model/extract.py, which babel.cfg runs).
DECLARED = [N_("Contents"), N_("Read more"), N_("note"), AXIS_NAME, NOT_TRANSLATED,
            N_("date inferred"), N_("date from a public copy")]  # after a source's date where the text does not give it (render/environment.py published)


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


def site_languages(config: object) -> list[str]:
    """Return a site's languages, the first at the root: `languages` in site.yaml, else its one `language`."""
    return list(getattr(config, "languages", None) or [getattr(config, "language", "en")])


def language_prefixes(config: object) -> list[str]:
    """Return the folder of each language's pages: '' for the first (the root), 'es/' for Spanish."""
    return [""] + [f"{lang}/" for lang in site_languages(config)[1:]]


def language_name(lang: str, within: str | None = None) -> str:
    """Return a language's name in that language, as a language switcher offers it ('Español',
    'English'), or as another language writes it in a sentence (('en', 'es') -> 'inglés'); a code
    Babel does not know (a source's language may be any text) as it is."""
    try:
        name = Locale.parse(lang).get_display_name(within or lang) or lang
    except (UnknownLocaleError, ValueError, TypeError):
        return lang
    return name if within else name[:1].upper() + name[1:]


def untranslated_note(first: str, lang: str) -> str:
    """Return how a page in a language marks a value left in the site's first language: 'en inglés'."""
    return translations(lang).gettext("in %(language)s") % {"language": language_name(first, lang)}


def month_heading(year: int, month: int, lang: str) -> str:
    """Return a month's heading on the timeline: 'February 2019', 'Febrero de 2019'."""
    if lang not in WORDS:
        return f"{MONTHS[month]} {year}"
    text = WORDS[lang].month.format(month=month_names(lang)[month], year=year)
    return text[:1].upper() + text[1:]


def month_abbreviation(month: int, lang: str) -> str:
    """Return a month's short name for the timeline's navigation: 'Feb', 'Feb' (febrero)."""
    if lang not in WORDS:
        return MONTHS[month][:3]  # type: ignore[index]
    name = get_month_names("abbreviated", context="stand-alone", locale=lang)[month].rstrip(".")
    return name[:1].upper() + name[1:]


def month_letter(month: int, lang: str) -> str:
    """Return a month's initial, where the axis has no room for more: 'J' (January), 'E' (enero)."""
    if lang not in WORDS:
        return "JFMAMJJASOND"[month - 1]
    return get_month_names("narrow", context="stand-alone", locale=lang)[month].upper()


@cache
def interface_strings(lang: str) -> dict[str, str]:
    """Return the translations of the strings the site's scripts show (those the catalog found in
    static/*.js), for a page to carry: nothing in English, the scripts' own language."""
    if lang not in LANGUAGES or lang == "en":
        return {}
    po = LOCALE / lang / "LC_MESSAGES" / f"{DOMAIN}.po"
    with po.open("rb") as file:
        messages = read_po(file, locale=lang, domain=DOMAIN)
    found: dict[str, str] = {}
    for message in messages:
        if message.id and any("static/" in path and path.endswith(".js") for path, _ in message.locations):
            ids = tuple(message.id) if isinstance(message.id, (tuple, list)) else (message.id,)  # a script's text may be a template's plural too
            texts = tuple(message.string) if isinstance(message.string, (tuple, list)) else (message.string,)
            found.update((text_id, text) for text_id, text in zip(ids, texts) if text)
    return found


def catalog(lang: str) -> Path:
    """Return the compiled catalog of a language's interface strings, compiling it from its .po file
    when it is missing or older (a fresh clone has only the .po files)."""
    po = LOCALE / lang / "LC_MESSAGES" / f"{DOMAIN}.po"
    mo = po.with_suffix(".mo")
    if po.exists() and (not mo.exists() or mo.stat().st_mtime < po.stat().st_mtime):
        compile_catalog(po, mo)
    return mo


def compile_catalog(po: Path, mo: Path) -> None:
    """Compile a .po catalog to the .mo file gettext reads (as `pybabel compile` does), written whole or not at all."""
    with po.open("rb") as file:
        messages = read_po(file, locale=po.parent.parent.name, domain=DOMAIN)
    partial = mo.with_name(mo.name + ".tmp")
    with partial.open("wb") as file:
        write_mo(file, messages)
    partial.replace(mo)


def catalog_language(relative: str) -> str | None:
    """Return the language whose catalog an input's name is (dossier/locale/es/LC_MESSAGES/dossier.po -> 'es'), or None."""
    parts = relative.split("/")
    if relative.startswith(CATALOGS + "/") and len(parts) == 5 and parts[3:] == ["LC_MESSAGES", f"{DOMAIN}.po"]:
        return parts[2]
    return None


@cache
def catalog_digest(lang: str) -> str:
    """Return a digest of a language's catalog (empty for English, which has none): a rendered body
    holds words from it (its claims' counts of sources), so the body cache keeps it under this too."""
    po = LOCALE / lang / "LC_MESSAGES" / f"{DOMAIN}.po"
    if lang == "en" or lang not in LANGUAGES or not po.is_file():
        return ""
    return hashlib.blake2b(po.read_bytes(), digest_size=8).hexdigest()


def forget_catalogs() -> None:
    """Forget the catalogs read so far, after one was edited: the next page reads it again."""
    for cached in (translations, interface_strings, catalog_digest):
        cached.cache_clear()


@cache
def translations(lang: str) -> gettext.NullTranslations:
    """Return the interface's translations into a language (English is the templates' own: no catalog;
    a site whose one language dossier has no interface in keeps the English one)."""
    if lang not in LANGUAGES or lang == "en":
        return gettext.NullTranslations()
    with catalog(lang).open("rb") as file:
        return gettext.GNUTranslations(file)


def translation_of(stem: str) -> tuple[str, str] | None:
    """Return the record id and language a content file's stem names when it is a translation: 'x.es' -> ('x', 'es')."""
    found = TRANSLATION.fullmatch(stem)
    return (found["id"], found["lang"]) if found else None


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
    return display_range(start, end, lambda point, with_year=True: _bare(point, lang, with_year=with_year), lambda point: _qualified(point, lang))


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
    values: dict[str, Any]
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
