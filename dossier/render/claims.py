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
from typing import Any, Iterable, Mapping, NamedTuple

from ..check.link import record_line
from .. import forked
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


class ClaimIndex:
    """The claims of a site by support level, kept between versions of the site: a record's claims
    are worked out again only when the record changed (every record's, when what a source derives
    from did, or a record's name, which other records' claims may show). `version` counts the
    changes to what claims() returns, so that an edit that changes no claim costs no more."""

    def __init__(self, lang: str | None = None) -> None:
        self.lang = lang  # the language whose view of the site it is given, when not the site's first
        self.derived_from: dict[str, str | None] = {}
        self.records: dict[tuple[str, str], tuple[Record, list[Claim], tuple]] = {}  # its claims, and the names of the records it links to
        self.found: dict[str, list[Claim]] | None = None
        self.version = 0

    def __getstate__(self) -> dict:
        """Pickle each record's claims as their texts and levels, which with the record make them
        again (its page's address and name: see record_claims), and the claims by level as True when
        they are the records' claims gathered in turn (as they are but for a bug). At 10,000 records
        the 186,000 claims pickled one tuple at a time took 0.7 s of the 2 s that saving a build's
        session takes."""
        records: dict[tuple[str, str], tuple] = {}
        for key, (record, claims, names) in self.records.items():
            url, label = record.page_url, record.label
            lang = claims[0].lang if claims else ""
            made = all(c.page_url == url and c.number == n and c.page == label and c.lang == lang for n, c in enumerate(claims, start=1))
            records[key] = (record, names, *texts_and_levels(claims)) if made else (record, names, claims)
        found = self.found
        return {**self.__dict__, "records": records, "found": True if found is not None and found == gathered(self.records.values()) else found}

    def __setstate__(self, state: dict) -> None:
        """Make the claims again from their texts and levels (see __getstate__), and gather them by level."""
        records = {}
        for key, (record, names, *kept) in state["records"].items():
            if len(kept) == 1:
                claims = kept[0]
            else:
                claims = claims_again(record, *kept)
            records[key] = (record, claims, names)
        found = state["found"]
        self.__dict__.update(state, records=records, found=gathered(records.values()) if found is True else found)

    def claims(self, site: Any, edited: set[tuple[str, str]] | None = None, processes: int = 1) -> dict[str, list[Claim]]:
        """Return every claim of a linked site by support level, most sources first, each level in the
        records' order. edited: the only records that can have changed since the last call, if known
        (an edit in the preview: then the other 10,000 are not looked at)."""
        derived_from = {sid: getattr(source, "derived_from", None) for sid, source in site.records["sources"].items()}
        if derived_from != self.derived_from:
            self.derived_from, self.records, self.found = derived_from, {}, None
        count = sum(len(site.records.get(kind, {})) for kind in site.model)
        known = self.found is not None and count == len(self.records)
        candidates = [site.get(key) for key in edited if key[1] in site.records.get(key[0], {})] if known and edited is not None else site.all_records()
        changed = [r for r in candidates if (cached := self.records.get((r.collection, r.id))) is None or cached[0] is not r]
        if known and not changed:
            return self.found  # type: ignore[return-value]
        renamed = any(key in self.records and self.records[key][0].label != r.label for r in changed for key in [(r.collection, r.id)])
        if not known or renamed or any((r.collection, r.id) not in self.records for r in changed):
            return self.recount(site, site.all_records(), processes)
        moved = False
        for record in changed:
            key = (record.collection, record.id)
            claims = record_claims(site, record, derived_from, self.lang)
            moved = moved or claims != self.records[key][1]
            self.records[key] = (record, claims, self.names(site, key))
        return self.gather(site.all_records()) if moved else self.found  # type: ignore[return-value]

    def recount(self, site: Any, records: list[Record], processes: int = 1) -> dict[str, list[Claim]]:
        """Work out again the claims of every record whose claims, or the names they show, may differ
        (with processes 2 or more, those of many records in two processes: forked.in_two_processes)."""
        kept: dict[tuple[str, str], Any] = {}  # in the records' order: those to work out again are filled in below
        todo = []
        for record in records:
            key = (record.collection, record.id)
            cached = self.records.get(key)
            names = self.names(site, key)
            if cached is None or cached[0] is not record or cached[2] != names:
                todo.append((record, names))
            kept[key] = cached
        if processes < 2 or len(todo) < forked.SPLIT_FROM:
            kept.update({(record.collection, record.id): (record, record_claims(site, record, self.derived_from, self.lang), names) for record, names in todo})
        else:
            work = functools.partial(records_texts_and_levels, site, self.derived_from, self.lang)
            for (record, names), made in zip(todo, forked.in_two_processes(work, [record for record, _ in todo], "plan", processes)):
                kept[(record.collection, record.id)] = (record, claims_again(record, *made), names)
        self.records = kept
        return self.gather(records)

    def gather(self, records: list[Record]) -> dict[str, list[Claim]]:
        """Put every record's claims together by support level; count a new version if they differ."""
        found = gathered(self.records[(record.collection, record.id)] for record in records)
        if found != self.found:
            self.found, self.version = found, self.version + 1
        return self.found

    @staticmethod
    def names(site: Any, key: tuple[str, str]) -> tuple:
        """Return the names of the records a record links to: its claims show them."""
        return tuple(site.get(linked).label for linked in site.links.get(key, ()))


def gathered(entries: Iterable[tuple[Record, list[Claim], tuple]]) -> dict[str, list[Claim]]:
    """Return the claims of records (ClaimIndex.records' entries) by support level, most sources first, each level in the records' order."""
    found: dict[str, list[Claim]] = {}
    for _, claims, _ in entries:
        for claim in claims:
            found.setdefault(claim.level, []).append(claim)
    return {level: found[level] for level in sorted(found, key=level_order)}


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


def texts_and_levels(claims: list[Claim]) -> tuple[list[str], list[str], str]:
    """Return one record's claims (as record_claims makes them) as their texts, their levels and the
    language they are written in: the rest is the record's (claims_again). So a saved session keeps
    them, and a forked process sends them back."""
    return [c.text for c in claims], [intern(c.level) for c in claims], claims[0].lang if claims else ""


def claims_again(record: Record, texts: list[str], levels: list[str], lang: str) -> list[Claim]:
    """Return a record's claims made again from their texts and levels (see texts_and_levels)."""
    url, label = record.page_url, record.label
    return [_tuple(Claim, (text, url, n, label, level, lang)) for n, (text, level) in enumerate(zip(texts, levels), start=1)]


_tuple = tuple.__new__  # makes a Claim without the named tuple's __new__, a Python call: a build after one edit makes 186,000 again at 10,000 records


def records_texts_and_levels(site: Any, derived_from: Mapping[str, str | None], lang: str | None, records: list[Record]) -> list[tuple]:
    """Return the claims of records as texts_and_levels gives them: a forked process's share of recount."""
    return [texts_and_levels(record_claims(site, record, derived_from, lang)) for record in records]


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
