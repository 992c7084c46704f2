"""Claims: the sentences of a record's body (or a source's notes), each with the citations attached
to it, and how many independent sources support each one.

A citation belongs to the sentence it stands in or right after ("… the bridge.[@ap "…"]"). A
source with `derived_from` (a translation, a republication) counts as its original: a sentence
citing a story and its translation has one independent source, never two; a sentence that cites
only derivatives "rests only on" them.
"""

from __future__ import annotations

import functools
import re
from sys import intern
from typing import Any, Mapping, NamedTuple

from ..check.link import record_line
from ..text.markup import CLAIM, SUPPORT
from ..text.sentences import LEADING, Sentence, plain, sentences_of
from .reads import link_target
from ..model.i18n import translations
from ..model.schema import Record

DERIVATIVE = "derivative"  # the support level of a claim that rests only on derivatives
PER_PAGE = 500  # claims on a page of the claims by support


def cited_sentences(body: str) -> tuple[Sentence, ...]:
    """Return the sentences of a body that cite at least one source: its claims (made from the
    body's kept sentences, see sentences_of)."""
    return tuple(s for s in sentences_of(body) if s.sources)


def body_of(site: Any, record: Record) -> tuple[str, int]:
    """Return the Markdown a record's page renders (a source's notes) and its first file line."""
    name = site.model[record.collection].body_field
    if name == "body":
        return record.body, record.body_line
    return getattr(record, name, None) or "", record_line(record, name) + 1


def original_of(source: str, derived_from: Mapping[str, str | None]) -> str:
    """Return the source a source derives from in the end (itself if it derives from none)."""
    seen = {source}
    while derived_from.get(source) and derived_from[source] not in seen:
        source = derived_from[source]  # type: ignore[assignment]
        seen.add(source)
    return source


def independent(sources: list[str] | tuple[str, ...], derived_from: Mapping[str, str | None]) -> list[str]:
    """Return the independent sources behind some cited sources: each mapped to its original, once."""
    return sorted({original_of(s, derived_from) for s in sources})


def rests_on(sources: list[str] | tuple[str, ...], derived_from: Mapping[str, str | None]) -> list[str]:
    """Return the derivatives a claim rests on when it cites nothing else (else nothing)."""
    if sources and all(derived_from.get(s) for s in sources):
        return sorted(set(sources))
    return []


def support_level(sources: list[str] | tuple[str, ...], derived_from: Mapping[str, str | None]) -> str:
    """Return a claim's support level: the number of its independent sources ('1', '2', ...), or
    'derivative' when it rests only on derivatives."""
    return DERIVATIVE if rests_on(sources, derived_from) else intern(str(len(independent(sources, derived_from))))  # one string a level: 186,000 claims at 10,000 records


def support_words(level: str, lang: str = "en") -> tuple[str, str]:
    """Return how a claim's support level reads after it, in a page's language: short, and in words."""
    words = translations(lang)
    found = _SUPPORT_WORDS.get((words, level))
    if found is None:
        found = _SUPPORT_WORDS[(words, level)] = _support_words(level, words)
    return found


_SUPPORT_WORDS: dict[tuple[Any, str], tuple[str, str]] = {}  # by catalog and level: a page asks for each claim's


def _support_words(level: str, words: Any) -> tuple[str, str]:
    if level == DERIVATIVE:
        return words.gettext("derivative only"), words.gettext("only a derivative source, a translation or copy, supports this sentence")
    count = int(level)
    return (words.ngettext("%(num)d source", "%(num)d sources", count) % {"num": count},
            words.ngettext("one independent source supports this sentence", "%(num)d independent sources support this sentence", count) % {"num": count})


def derivative_note(lang: str = "en") -> str:
    """Return what a body says once, before its text, when every claim of it rests only on derivatives."""
    return translations(lang).gettext("Every sentence below rests only on a derivative source, a translation or copy of another.")


def mark_claims(body: str) -> tuple[str, list[tuple[str, ...]]]:
    """Return a body with each claim's place marked for rendering, and the sources each claim cites,
    by number from 1: CLAIM before the claim (its anchor: after the white space that ends the
    sentence before it, so that the quotation marks around it read as they did) and SUPPORT after
    its last citation (its count of independent sources)."""
    claims = cited_sentences(body)
    inserts: list[tuple[int, int, str]] = []
    for number, sentence in enumerate(claims, start=1):
        at = sentence.start
        line_start = body.rfind("\n", 0, at) + 1
        if not LEADING.fullmatch(body, line_start, at):  # not first on its line: the anchor goes before the space
            at = len(body[:at].rstrip(" \t"))
        inserts += [(at, 1, CLAIM.format(number)), (sentence.end, 0, SUPPORT.format(number))]
    pieces, previous = [], 0
    for offset, _, mark in sorted(inserts):
        pieces += [body[previous:offset], mark]
        previous = offset
    pieces.append(body[previous:])
    return "".join(pieces), [sentence.sources for sentence in claims]


class Claim(NamedTuple):  # a tuple: the preview compares every claims page's claims after each edit
    """A claim as the claims pages list it."""

    text: str
    page_url: str  # its record's page (the record's own string: 186,000 claims at 10,000 records keep no address each)
    number: int  # its number on that page, from 1
    page: str  # the name of that page
    level: str
    lang: str = ""  # the language of its text where it is not the page's: the site's first, where a body has no translation

    @property
    def url(self) -> str:
        """Return its place on its record's page."""
        return f"{self.page_url}#claim-{self.number}"


LINKED = re.compile("\0([^\0]*)\0")  # a link without a label in a claim's text, to be named (see body_claims)


@functools.lru_cache(maxsize=1 << 15)
def body_claims(body: str) -> tuple[tuple[str, ...], tuple[tuple[str, ...], ...]]:
    """Return the claims of a body as their plain texts (a link without a label kept as its target
    between NULs, to be named) and the sources each cites: two tuples, not a pair a claim (kept
    for every body: 186,000 claims at 10,000 records)."""
    claims = cited_sentences(body)
    texts = tuple(plain(s.markdown, lambda target: f"\0{target}\0") for s in claims)
    return texts, tuple(s.sources for s in claims)


def level_order(level: str) -> tuple[int, int]:
    """Order support levels from the most sources down, 'derivative' last."""
    return (1, 0) if level == DERIVATIVE else (0, -int(level))


def record_claims(site: Any, record: Record, derived_from: Mapping[str, str | None], lang: str | None = None) -> list[Claim]:
    """Return the claims of one record's body, each with its support level and its links named (in
    the view of a language other than the site's first, lang: the claims of the body its page shows)."""
    body, _ = body_of(site, record)
    found = []
    url, label = record.page_url, record.label
    written_in = untranslated_in(site, record, lang) if lang else ""
    for number, (text, sources) in enumerate(zip(*body_claims(body)) if body else (), start=1):
        if "\0" in text:
            text = LINKED.sub(lambda m: link_target(site, m[1]).label, text)
        found.append(Claim(text, url, number, label, support_level(sources, derived_from), written_in))
    return found


def untranslated_in(site: Any, record: Record, lang: str) -> str:
    """Return the language a record's body is shown in on a page of lang where it has no translation
    there (the site's first), else ''."""
    from ..model.i18n import site_languages

    translation = record.translations.get(lang)
    return "" if translation is not None and translation.body.strip() else site_languages(site.config)[0]


def level_slug(level: str) -> str:
    """Return the folder of a support level's pages under claims/."""
    return "derivative-only" if level == DERIVATIVE else f"{level}-source{'s' * (level != '1')}"


def level_title(level: str, lang: str = "en") -> str:
    """Return a support level's heading, in a page's language."""
    words = translations(lang)
    if level == DERIVATIVE:
        return words.gettext("Resting only on a derivative source")
    count = int(level)
    return words.ngettext("%(num)d independent source", "%(num)d independent sources", count) % {"num": count}


def page_of(claims: list[Claim], number: int) -> tuple[int, list[Claim]]:
    """Return the place in its level of the first claim on a level's page (pages numbered from 1), and the page's claims."""
    first = (number - 1) * PER_PAGE
    return first + 1, claims[first: first + PER_PAGE]


def page_urls(level: str, count: int) -> list[str]:
    """Return the addresses of a level's pages, PER_PAGE claims each: claims/2-sources/, claims/2-sources/2/, ..."""
    pages = max(1, -(-count // PER_PAGE))
    return [f"claims/{level_slug(level)}/" + (f"{n}/" if n > 1 else "") for n in range(1, pages + 1)]


def claims_page(found: dict[str, list[Claim]], lang: str, level: str | None, number: int) -> dict[str, Any]:
    """Return what a claims page shows of the claims by level: every level with its count and pages
    (the index), or one page of a level's claims with links to the levels and to its other pages."""
    levels = [{"title": level_title(lv, lang), "count": len(claims), "urls": page_urls(lv, len(claims))} for lv, claims in found.items()]
    if level is None:
        return {"levels": levels}
    claims = found.get(level, [])
    first, shown = page_of(claims, number)
    return {"levels": levels, "title": level_title(level, lang), "number": number, "urls": page_urls(level, len(claims)), "first": first, "claims": shown}
