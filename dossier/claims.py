"""Claims: the sentences of a record's body (or a source's notes), each with the citations attached
to it, and how many independent sources support each one.

A citation belongs to the sentence it stands in or right after ("… the bridge.[@ap "…"]"). A
source with `derived_from` (a translation, a republication) counts as its original: a sentence
citing a story and its translation has one independent source, never two; a sentence that cites
only derivatives "rests only on" them.
"""

from __future__ import annotations

import functools
import hashlib
import re
from dataclasses import dataclass
from typing import Any, Callable, Iterator, Mapping, NamedTuple

from .link import record_line
from .markup import CITATION, CLAIM, LINK, LIST_ITEM, SUPPORT, paragraphs, unescape_quote
from .reads import link_target
from .schema import Record

MASK = "\ue000"  # stands in for each character of a citation while sentences are found: its quote may hold full stops
SENTENCE_END = re.compile(r"[.!?…]++[\"'”’)\]]*+(?:\s*+" + MASK + r"++)*+(?=\s|$)")  # possessive: runs of citations never backtrack
ABBREVIATION = re.compile(r"(?:(?:^|\b)[A-Z]|\b(?:Sgt|Lt|Col|Gen|Capt|Maj|Cpl|Pvt|Mr|Mrs|Ms|Dr|St|Jr|Sr|No|vs|etc|e\.g|i\.e|U\.S|U\.N))\.$")
LEADING = re.compile(r"(?:\s|>|\||" + LIST_ITEM.pattern[3:] + r")*")  # white space, a quote's '>', a table's '|' and a list item's bullet
EMPHASIS = re.compile(r"(\*{1,2}|_{1,2})(\S(?:.*?\S)?)\1")
SPACE = re.compile(r"\s+")
DERIVATIVE = "derivative"  # the support level of a claim that rests only on derivatives
PER_PAGE = 500  # claims on a page of the claims by support


@dataclass(frozen=True)
class ClaimCitation:
    """A citation attached to a sentence."""

    source: str
    quote: str


@dataclass(frozen=True)
class Sentence:
    """A sentence of a body: its plain text, its citations, its file line and where it lies in the body."""

    text: str
    markdown: str  # as written, citations and all
    citations: tuple[ClaimCitation, ...]
    line: int
    start: int  # offset in the body of its first word
    end: int  # offset in the body just after its last citation (or its last character)

    @property
    def digest(self) -> str:
        """Return 8 hex digits standing for the sentence as written, citations and all (white space aside)."""
        return hashlib.sha256(SPACE.sub(" ", self.markdown).strip().encode("utf-8")).hexdigest()[:8]


def masked(text: str) -> str:
    """Return text with every citation's characters replaced by MASK (same length, same offsets)."""
    return CITATION.sub(lambda m: MASK * (m.end() - m.start()), text)


def plain(text: str, label: Callable[[str], str] | None = None) -> str:
    """Return a piece of Markdown as plain words: no citations, links as their labels (label(target)
    gives a link's text where it has none; else the target's id), no emphasis marks."""
    text = CITATION.sub("", text)
    text = LINK.sub(lambda m: (m[2] or (label(m[1].strip()) if label else m[1].rpartition("/")[2])).strip(), text)
    text = EMPHASIS.sub(r"\2", text)
    return SPACE.sub(" ", text).strip()


def sentence_spans(text: str) -> Iterator[tuple[int, int]]:
    """Yield the (start, end) of each sentence of a paragraph, an end taking in the citations after it."""
    hidden = masked(text)
    start = 0
    for match in SENTENCE_END.finditer(hidden):
        following = hidden[match.end():].lstrip()
        if following and following[0].islower():
            continue  # "e.g. a town": no sentence starts with a small letter
        if match.group() == "." and ABBREVIATION.search(hidden[max(0, match.start() - 5): match.end()]):
            continue  # "Sgt. Jorge Torres", "U.S. officials"
        yield skip_space(hidden, start), match.end()
        start = match.end()
    if hidden[start:].strip():
        yield skip_space(hidden, start), len(text)


def skip_space(text: str, start: int) -> int:
    """Return the offset of the first character at or after start that is not white space."""
    return len(text) - len(text[start:].lstrip()) if text[start:].strip() else start


def sentences(body: str, first_line: int, label: Callable[[str], str] | None = None) -> list[Sentence]:
    """Return every sentence of a Markdown body (headings left out), with its citations and file line
    (label: see plain())."""
    found: list[Sentence] = []
    lines = body.split("\n")
    line_offsets = [0]
    for line in lines:
        line_offsets.append(line_offsets[-1] + len(line) + 1)
    for line, paragraph in paragraphs(body, first_line):
        offset = line_offsets[line - first_line]
        for start, end in sentence_spans(paragraph):
            lead = LEADING.match(paragraph, start).end()
            if lead >= end:
                continue
            piece = paragraph[lead:end]
            cited = tuple(ClaimCitation(m[1], unescape_quote(m[2])) for m in CITATION.finditer(piece))
            text = plain(piece, label)
            if text or cited:
                found.append(Sentence(text, piece, cited, line + paragraph.count("\n", 0, lead), offset + lead, offset + end))
    return found


@functools.lru_cache(maxsize=1 << 15)  # the claims pages go through every body after each edit
def cited_sentences(body: str, first_line: int = 1) -> tuple[Sentence, ...]:
    """Return the sentences of a body that cite at least one source: its claims."""
    return tuple(s for s in sentences(body, first_line) if s.citations)


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
    return DERIVATIVE if rests_on(sources, derived_from) else str(len(independent(sources, derived_from)))


def support_words(level: str, lang: str = "en") -> tuple[str, str]:
    """Return how a claim's support level reads after it, in a page's language: short, and in words."""
    from .i18n import translations

    words = translations(lang)
    if level == DERIVATIVE:
        return words.gettext("derivative only"), words.gettext("only a derivative source, a translation or copy, supports this sentence")
    count = int(level)
    return (words.ngettext("%(num)d source", "%(num)d sources", count) % {"num": count},
            words.ngettext("one independent source supports this sentence", "%(num)d independent sources support this sentence", count) % {"num": count})


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
    return "".join(pieces), [tuple(c.source for c in sentence.citations) for sentence in claims]


class Claim(NamedTuple):  # a tuple: the preview compares every claims page's claims after each edit
    """A claim as the claims pages list it."""

    text: str
    url: str  # its place on its record's page
    page: str  # the name of that page
    level: str


LINKED = re.compile("\0([^\0]*)\0")  # a link without a label in a claim's text, to be named (see body_claims)


@functools.lru_cache(maxsize=1 << 15)
def body_claims(body: str) -> tuple[tuple[str, tuple[str, ...]], ...]:
    """Return each claim of a body as its plain text (a link without a label kept as its target
    between NULs, to be named) and the sources it cites."""
    return tuple((plain(s.markdown, lambda target: f"\0{target}\0"), tuple(c.source for c in s.citations)) for s in cited_sentences(body))


def level_order(level: str) -> tuple[int, int]:
    """Order support levels from the most sources down, 'derivative' last."""
    return (1, 0) if level == DERIVATIVE else (0, -int(level))


class ClaimIndex:
    """The claims of a site by support level, kept between versions of the site: a record's claims
    are worked out again only when the record changed (or what a source derives from did)."""

    def __init__(self) -> None:
        self.derived_from: dict[str, str | None] = {}
        self.records: dict[tuple[str, str], tuple[Record, list[Claim], tuple]] = {}  # its claims, and the names of the records it links to

    def claims(self, site: Any) -> dict[str, list[Claim]]:
        """Return every claim of a linked site by support level, most sources first, each level in the records' order."""
        derived_from = {sid: getattr(source, "derived_from", None) for sid, source in site.records["sources"].items()}
        if derived_from != self.derived_from:
            self.derived_from, self.records = derived_from, {}
        found: dict[str, list[Claim]] = {}
        kept = {}
        for record in site.all_records():
            key = (record.collection, record.id)
            cached = self.records.get(key)
            names = tuple(site.get(linked).label for linked in site.links.get(key, ()))  # what its links show
            if cached is None or cached[0] is not record or cached[2] != names:
                cached = (record, record_claims(site, record, derived_from), names)
            kept[key] = cached
            for claim in cached[1]:
                found.setdefault(claim.level, []).append(claim)
        self.records = kept
        return {level: found[level] for level in sorted(found, key=level_order)}


def record_claims(site: Any, record: Record, derived_from: Mapping[str, str | None]) -> list[Claim]:
    """Return the claims of one record's body, each with its support level and its links named."""
    body, _ = body_of(site, record)
    found = []
    url, label = record.page_url, record.label
    for number, (text, sources) in enumerate(body_claims(body) if body else (), start=1):
        if "\0" in text:
            text = LINKED.sub(lambda m: link_target(site, m[1]).label, text)
        found.append(Claim(text, f"{url}#claim-{number}", label, support_level(sources, derived_from)))
    return found


def site_claims(site: Any) -> dict[str, list[Claim]]:
    """Return every claim of a linked site by support level (see ClaimIndex)."""
    return ClaimIndex().claims(site)


def level_slug(level: str) -> str:
    """Return the folder of a support level's pages under claims/."""
    return "derivative-only" if level == DERIVATIVE else f"{level}-source{'s' * (level != '1')}"


def level_title(level: str, lang: str = "en") -> str:
    """Return a support level's heading, in a page's language."""
    from .i18n import translations

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
