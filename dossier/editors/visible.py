"""What a saved page shows its reader, where its tags say less or otherwise: the byline and date
printed with the article ("Author Ben Knight", "Date 19.01.2020"), and the headline without what a
title adds after it (" | News | DW | 19.01.2020"). pagemeta.py weighs them against the tags."""

from __future__ import annotations

import re
import unicodedata
from typing import Any, Iterator

SEPARATORS = (" | ", " – ", " — ", " - ", " :: ", " · ", "| ", " |")
BYLINE_LABELS = {"author", "authors", "by", "byline", "written by", "autor", "autora", "autores", "por", "reporter"}
DATE_LABELS = {"date", "published", "publication date", "fecha", "datum"}
NUMERIC_DATE = re.compile(r"(?<!\d)([0-3]?\d)[./]([01]?\d)[./](\d{4})(?!\d)")  # 19.01.2020, 19/01/2020: day first, as outside the US
ISO_DATE = re.compile(r"(?<!\d)(\d{4})-(\d{2})-(\d{2})(?!\d)")
MONTHS = {name: number for number, names in enumerate(
    [("january", "jan"), ("february", "feb"), ("march", "mar"), ("april", "apr"), ("may",), ("june", "jun"), ("july", "jul"),
     ("august", "aug"), ("september", "sep", "sept"), ("october", "oct"), ("november", "nov"), ("december", "dec")], start=1) for name in names}
WORDS_DATE = re.compile(r"(?i)\b(?:([0-3]?\d)\s+([a-z]{3,9})\.?,?\s+(\d{4})|([a-z]{3,9})\.?\s+([0-3]?\d),?\s+(\d{4}))\b")
SHORT_PART = 3  # words of a section's name between a headline and the site's name ("News", "World")


def text_of(element: Any) -> str:
    """Return an element's text with its white space collapsed."""
    return " ".join(element.text_content().split())


def folded(name: str) -> str:
    """Return a site's name as compared with another's: 'DW.COM', 'www.dw.com' and 'DW' all give 'dw'."""
    name = "".join(c for c in unicodedata.normalize("NFD", name.casefold()) if not unicodedata.combining(c))
    name = re.sub(r"^(?:https?://)?(?:www\.)?", "", name.strip())
    name = re.sub(r"\.(?:com|org|net|de|es|co\.uk|co|info)(?:/.*)?$", "", name)
    return re.sub(r"[^a-z0-9]", "", name)


def is_site_name(text: str, site_names: list[str]) -> bool:
    """Tell whether a piece of a title, or an author, is the site's own name or its address:
    'DW' for the site DW.COM, 'Deutsche Welle (www.dw.com)' for Deutsche Welle."""
    names = {folded(name) for name in site_names} - {""}
    inside = re.findall(r"\(([^)]*)\)", text)
    keys = {folded(text), folded(re.sub(r"\([^)]*\)", "", text))} | {folded(part) for part in inside}
    return bool(names & (keys - {""}))


def day_of(text: str) -> str | None:
    """Return the day a short text states ('19.01.2020', '2020-01-19', '19 January 2020'), as 2020-01-19, or None."""
    for pattern, order in ((ISO_DATE, (0, 1, 2)), (NUMERIC_DATE, (2, 1, 0))):
        match = pattern.search(text)
        if match:
            year, month, day = (int(match.group(i + 1)) for i in order)
            return f"{year:04d}-{month:02d}-{day:02d}" if 1 <= month <= 12 and 1 <= day <= 31 else None
    match = WORDS_DATE.search(text)
    if match:
        day_text, month_name, year_text = (match[1], match[2], match[3]) if match[1] else (match[5], match[4], match[6])
        number = MONTHS.get(month_name.lower())
        if number and 1 <= int(day_text) <= 31:
            return f"{int(year_text):04d}-{number:02d}-{int(day_text):02d}"
    return None


def clean_title(title: str, site_names: list[str], heading: str) -> tuple[str, str]:
    """Return a title without what a site adds after the headline, and what was taken off: the
    rest after the page's <h1> when the title starts with it, or the site's name, a date and the
    short section names before them ('Soldiers cross | World | DW | 19.01.2020' -> 'Soldiers cross')."""
    if heading and title != heading and title.startswith(heading) and title[len(heading):].startswith(SEPARATORS):
        return heading, title[len(heading):]
    for separator in SEPARATORS[:5]:
        parts = title.split(separator)
        if len(parts) < 2:
            continue
        keep, named = len(parts), False
        while keep > 1 and (day_of(parts[keep - 1]) or is_site_name(parts[keep - 1], site_names)):
            named = named or is_site_name(parts[keep - 1], site_names)
            keep -= 1
        while named and keep > 1 and len(parts[keep - 1].split()) <= SHORT_PART:
            keep -= 1
        if named:
            return separator.join(parts[:keep]).strip(), separator + separator.join(parts[keep:])
    return title, ""


def label_and_rest(element: Any) -> Iterator[tuple[str, str]]:
    """Yield (label, what follows it) for every short label in the page: '<strong>Author</strong> Ben
    Knight', '<dt>Date</dt><dd>19.01.2020</dd>', 'Author: Ben Knight'."""
    for node in element.iter("strong", "b", "dt", "th", "span", "label", "em"):
        label = text_of(node).rstrip(":").strip().lower()
        if not label or len(label) > 20:
            continue
        rest = " ".join((node.tail or "").split()).lstrip(":").strip()
        if not rest:
            following = node.getnext()
            rest = text_of(following) if following is not None else ""
        if rest:
            yield label, rest


def visible_bylines(tree: Any) -> list[tuple[str, str]]:
    """Return the bylines a page prints, each as (its names as printed, the text shown), in the order found:
    a link marked rel="author", an element marked itemprop="author", one whose class names a byline,
    then a label such as 'Author' with the names after it."""
    found: list[tuple[str, str]] = []
    for link in tree.iter("a"):
        if "author" in (link.get("rel") or "").lower().split() and text_of(link):
            found.append((text_of(link), text_of(link)))
    for node in tree.iter():
        if not isinstance(node.tag, str):
            continue
        if (node.get("itemprop") or "").lower() == "author":
            names = [text_of(n) for n in node.iter() if (n.get("itemprop") or "").lower() == "name"]
            found.append((", ".join(names) if names else text_of(node), text_of(node)))
        elif re.search(r"\bbyline\b|\bauthor(?:-name)?s?\b", node.get("class") or "", re.IGNORECASE) and 0 < len(text_of(node)) <= 120:
            found.append((strip_label(text_of(node)), text_of(node)))
    for label, rest in label_and_rest(tree):
        if label in BYLINE_LABELS and len(rest) <= 120:
            found.append((rest, f"{label.capitalize()} {rest}"))
    return [(names, shown) for names, shown in found if names and not day_of(names)]


def strip_label(text: str) -> str:
    """Return a byline without its label: 'Author: Ben Knight' -> 'Ben Knight' ('By ...' is byline_names')."""
    return re.sub(r"^(?:authors?|written by|autora?|autores)\s*:?\s+", "", text, flags=re.IGNORECASE)


def visible_dates(tree: Any) -> list[tuple[str, str]]:
    """Return the days a page prints as its own, each as (2020-01-19, the text shown): a <time> marked
    as the publication's, then a label such as 'Date' with a day after it, then the page's one <time>."""
    marked: list[tuple[str, str]] = []
    labelled: list[tuple[str, str]] = []
    others: list[tuple[str, str]] = []
    for node in tree.iter("time"):
        day = day_of(node.get("datetime") or "") or day_of(text_of(node))
        if day:
            shown = f'<time datetime="{node.get("datetime")}">' if node.get("datetime") else text_of(node)
            is_marked = (node.get("itemprop") or "").lower() == "datepublished" or node.get("pubdate") is not None
            (marked if is_marked else others).append((day, shown))
    for label, rest in label_and_rest(tree):
        day = day_of(rest) if label in DATE_LABELS and len(rest) <= 40 else None
        if day:
            labelled.append((day, f"{label.capitalize()} {rest}"))
    return marked + labelled + (others if len(others) == 1 else [])  # of several unmarked <time>s, none says which is the article's
