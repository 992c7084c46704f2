"""The content model: one frozen dataclass per record type, each field typed and documented.

A field's metadata names its content type ('text', 'ids:groups', 'date', ...), which the
validating stage checks and the `new` command scaffolds from.
"""

from __future__ import annotations

import sys
import unicodedata
from dataclasses import dataclass, field, fields
from typing import Any

from .dates import EDate


def spec(kind: str, *, required: bool = False, default: Any = None, doc: str = "", inverse: str = "", facet: str = "", evidence: bool = False,
         translate: bool = False) -> Any:
    """Declare a content field: its type name, whether it is required, and its default. A field that
    names records ('id:places', 'ids:groups') may give the heading under which the named record's
    page lists the records that name it (inverse, '{name}' standing for its name); a field of events
    may be a timeline facet (facet: how a heading phrases the filter, 'involving'). A field that
    states a fact about the world carries evidence (evidence=True): each value is cited under the
    record's `evidence:` or, for an id, linked from a cited sentence of its body (see evidence.py). A
    field a reader sees as words (translate=True) may be given again in a translation file, in that
    language (see check/translations.py); every other field is a fact the languages share."""
    factory = list if default == [] else dict if default == {} else None
    metadata = {"type": kind, "required": required, "doc": doc, "inverse": inverse, "facet": facet, "evidence": evidence, "translate": translate}
    if factory:
        return field(default_factory=factory, metadata=metadata)
    return field(default=default, metadata=metadata)


def folded(text: str) -> str:
    """Return text without accents and case, for sorting: 'Álvarez' -> 'alvarez'."""
    return "".join(c for c in unicodedata.normalize("NFD", text) if not unicodedata.combining(c)).casefold()


@dataclass(frozen=True, kw_only=True, slots=True)  # many: one per citation
class Citation:
    """A verbatim passage of a source that supports a claim."""

    source: str
    quote: str
    line: int = 0
    sole: bool = False  # the editor states that only this (derivative) source carries the passage
    source_line: int = field(default=0, compare=False)  # where front matter names the source, if not on `line`
    column: int = field(default=0, compare=False)  # where on its line the citation starts, from 1 (0 where not known)
    source_column: int = field(default=0, compare=False)  # where on source_line the source is named (0 where not known)

    def __reduce__(self) -> tuple:
        """Pickle as the arguments that make it: the build's saved session holds 170,000 citations at
        10,000 records, and dataclasses pickle a frozen class with slots field by field, in Python."""
        return citation_again, (self.source, self.quote, self.line, self.sole, self.source_line, self.column, self.source_column)


def citation_again(source: str, quote: str, line: int, sole: bool, source_line: int, column: int = 0, source_column: int = 0) -> Citation:
    """Make a citation again from its pickled arguments (see Citation.__reduce__), its slots set
    directly: a frozen class's __init__ sets each field through object.__setattr__, 1.3 µs a citation
    against 0.5 µs, and a saved session holds 280,000 of them at 10,000 records."""
    citation = _new(Citation)
    _set_source(citation, sys.intern(source))  # as scan() does: one string for each source's id
    _set_quote(citation, quote)
    _set_line(citation, line)
    _set_sole(citation, sole)
    _set_source_line(citation, source_line)
    _set_column(citation, column)
    _set_source_column(citation, source_column)
    return citation


_new = object.__new__
_set_source, _set_quote, _set_line, _set_sole, _set_source_line, _set_column, _set_source_column = (
    Citation.__dict__[spec.name].__set__ for spec in fields(Citation))


@dataclass(frozen=True, kw_only=True)
class Age:
    """An age as a source reports it, and as of when."""

    years: int = spec("int", required=True, doc="age in years as reported")
    as_of: EDate = spec("date", required=True, doc="when the age applied (EDTF)")
    source: str = spec("id:sources", required=True, doc="source that reports it")
    quote: str = spec("text", required=True, doc="verbatim passage stating the age")


@dataclass(frozen=True, kw_only=True)
class Figure:
    """A number one source gives for something, shown beside other sources' figures."""

    label: str = spec("text", required=True, doc="what is counted", translate=True)
    value: str = spec("text", required=True, doc="the figure as the source gives it", translate=True)
    source: str = spec("id:sources", required=True, doc="source that gives it")
    quote: str = spec("text", required=True, doc="verbatim passage giving the figure")
    headline: bool = spec("bool", default=False, doc="one of the story's key figures, shown on the home page")


@dataclass(frozen=True, kw_only=True)
class Claim:
    """What one source says of a point on which the sources disagree."""

    source: str = spec("id:sources", required=True, doc="source that says it")
    quote: str = spec("text", required=True, doc="verbatim passage saying it")
    says: str = spec("text", required=True, doc="a short plain account of what the source says", translate=True)


@dataclass(frozen=True, kw_only=True)
class Review:
    """The last review of a record: who, when, and digests of what was reviewed (see review.py)."""

    by: str = spec("text", required=True, doc="who reviewed it")
    date: EDate = spec("date", required=True, doc="the day of the review")
    digest: str = spec("text", required=True, doc="12 hex digits standing for the record's text and the passages it cites, as reviewed")
    sentences: list[str] = spec("texts", default=[], doc="8 hex digits for each sentence reviewed, to tell which changed since")
    original: str | None = spec("text", doc="a translation's review: 12 hex digits standing for its original as it was then, to tell whether it changed since")


@dataclass(frozen=True, kw_only=True)
class Record:
    """Fields every record has: where it came from and its Markdown body."""

    collection: str  # people, events, places, groups, sources, pages or site
    id: str
    path: str
    body: str = ""
    body_line: int = 1
    lines: dict = field(default_factory=dict, compare=False, repr=False)
    # The fields every record type has (model.field_specs gives them to each, and to the project's own types).
    draft: bool = spec("bool", default=False, doc="true while being written: previewed under a banner, left out of build unless --drafts")
    reviewed: Review | None = spec("review", doc="written by `review --record`: who checked the record against its sources, when, and what they saw")
    translations: dict = field(default_factory=dict, repr=False)  # language -> Translation, from <id>.<lang>.md beside the file
    original: Any = field(default=None, compare=False, repr=False)  # in another language's view of the site: the record as its own file writes it

    @property
    def page_url(self) -> str:
        """Return the record's URL relative to the site root, such as 'people/jorge-torres/'."""
        if self.collection == "pages":
            return "" if self.id == "home" else f"{self.id}/"
        return f"{self.collection}/{self.id}/"

    @property
    def label(self) -> str:
        """Return the name a link to this record shows."""
        title: str = getattr(self, "title", self.id)
        return getattr(self, "name", None) or title


@dataclass(frozen=True, kw_only=True)
class Person(Record):
    """Someone the sources name or describe."""

    name: str = spec("text", required=True, doc="name as the best source writes it, or a descriptive label if anonymous", translate=True)
    aliases: list[str] = spec("texts", default=[], doc="spelling variants the sources use")
    anonymous: bool = spec("bool", default=False, doc="true when the sources do not name the person")
    summary: str = spec("text", required=True, doc="one plain sentence", translate=True)
    roles: list[str] = spec("texts", default=[], doc="ranks, posts, occupations", evidence=True, translate=True)
    affiliations: list[str] = spec("ids:groups", default=[], doc="group ids", inverse="Members", evidence=True)
    places: list[str] = spec("ids:places", default=[], doc="place ids", inverse="People", evidence=True)
    age: Age | None = spec("age", doc="{years, as_of, source, quote}")
    status: str | None = spec("text", doc="situation as of the sources, in a few words", evidence=True, translate=True)
    part: str | None = spec("enum:", doc="the person's group on the people index: one of the parts content/site.yaml declares under people_groups")
    sort_name: str | None = spec("text", doc="what the people index sorts by when it is not the last word of the name: a two-word surname such as 'Pérez Jiménez'")
    images: list = spec("images", default=[], doc="images stored in media/, each {file, alt, credit, source or licence, caption}", translate=True)
    evidence: dict | None = spec("evidence", doc="citations for the facts: each field, or each value of a list, with its citation markers written as in the body")

    @property
    def sort_key(self) -> tuple[str, str]:
        """Order people by surname (sort_name, or the last word of the name; an anonymous person's
        description as a whole), ignoring case and accents, then by name."""
        surname = self.sort_name or (self.name if self.anonymous else self.name.split()[-1])
        return folded(surname), folded(self.name)


@dataclass(frozen=True, kw_only=True)
class Event(Record):
    """Something that happened at a date the sources give or allow us to infer."""

    title: str = spec("text", required=True, doc="short title", translate=True)
    date: EDate = spec("date", required=True, doc="EDTF date: 2019-02-23, 2019-03~, 2019-02-23/2019-02-25", evidence=True)
    date_basis: str = spec("enum:stated|inferred", default="stated", doc="whether a source states the date or it is inferred")
    date_note: str | None = spec("text", doc="how the date was established (required when inferred)", translate=True)
    people: list[str] = spec("ids:people", default=[], doc="person ids", inverse="Timeline", facet="involving", evidence=True)
    places: list[str] = spec("ids:places", default=[], doc="place ids", inverse="Events here", facet="at", evidence=True)
    groups: list[str] = spec("ids:groups", default=[], doc="group ids", inverse="Events", facet="involving", evidence=True)
    tags: list[str] = spec("slugs", default=[], doc="lowercase tags", facet="tagged")
    summary: str = spec("text", required=True, doc="one plain sentence", translate=True)
    figures: list[Figure] = spec("figures", default=[], doc="figures sources give: {label, value, source, quote}", translate=True)
    images: list = spec("images", default=[], doc="images stored in media/, each {file, alt, credit, source or licence, caption}", translate=True)
    evidence: dict | None = spec("evidence", doc="citations for the facts: each field, or each value of a list, with its citation markers written as in the body")


@dataclass(frozen=True, kw_only=True)
class Place(Record):
    """A city, border crossing, river, building or country in the story."""

    name: str = spec("text", required=True, doc="name with accents", translate=True)
    aliases: list[str] = spec("texts", default=[], doc="spelling variants the sources use")
    kind: str | None = spec("text", doc="city, river, bridge, hotel, country…", translate=True)
    summary: str = spec("text", required=True, doc="one plain sentence", translate=True)
    located_in: str | None = spec("id:places", doc="place id", inverse="Places in {name}", evidence=True)
    images: list = spec("images", default=[], doc="images stored in media/, each {file, alt, credit, source or licence, caption}", translate=True)
    evidence: dict | None = spec("evidence", doc="citations for the facts: each field, or each value of a list, with its citation markers written as in the body")


@dataclass(frozen=True, kw_only=True)
class Group(Record):
    """An organisation, unit, party, ministry or armed group."""

    name: str = spec("text", required=True, doc="name", translate=True)
    aliases: list[str] = spec("texts", default=[], doc="other names the sources use")
    kind: str | None = spec("text", doc="armed force, party, ministry…", translate=True)
    summary: str = spec("text", required=True, doc="one plain sentence", translate=True)
    part_of: str | None = spec("id:groups", doc="group id", inverse="Parts of {name}", evidence=True)
    images: list = spec("images", default=[], doc="images stored in media/, each {file, alt, credit, source or licence, caption}", translate=True)
    evidence: dict | None = spec("evidence", doc="citations for the facts: each field, or each value of a list, with its citation markers written as in the body")


@dataclass(frozen=True, kw_only=True)
class Conflict(Record):
    """A point on which sources (or a derivative and its original) disagree, each claim set beside the others."""

    title: str = spec("text", required=True, doc="short title", translate=True)
    summary: str = spec("text", required=True, doc="one plain sentence", translate=True)
    claims: list[Claim] = spec("claims", default=[], doc="what each source says: {source, quote, says}", translate=True)
    people: list[str] = spec("ids:people", default=[], doc="person ids", inverse="Conflicting accounts")
    events: list[str] = spec("ids:events", default=[], doc="event ids", inverse="Conflicting accounts")
    images: list = spec("images", default=[], doc="images stored in media/, each {file, alt, credit, source or licence, caption}", translate=True)


@dataclass(frozen=True, kw_only=True)
class Source(Record):
    """A stored article that citations are checked against."""

    title: str = spec("text", required=True, doc="headline")
    outlet: str = spec("text", required=True, doc="publisher", translate=True)
    byline: list[str] = spec("texts", default=[], doc="authors")
    byline_basis: str = spec("enum:stated|inferred|public-copy", default="stated", doc="where the byline comes from")
    published: EDate | None = spec("date", doc="EDTF publication date")
    published_basis: str = spec("enum:stated|inferred|public-copy", default="stated", doc="where the date comes from")
    published_note: str | None = spec("text", doc="how the date was established", translate=True)
    url: str | None = spec("url", doc="address of the original, only where known")
    language: str = spec("text", required=True, doc="language code, such as en")
    seed: str = spec("text", required=True, doc="file name in seeds/")
    derived_from: str | None = spec("id:sources", doc="source id this one translates or copies", inverse="Derivatives")
    inserted_lines: list[str] = spec("texts", default=[], doc="line prefixes a republisher inserted, such as 'WATCH:'")
    notes: str | None = spec("text", doc="Markdown notes on reliability; may cite", translate=True)


@dataclass(frozen=True, kw_only=True)
class Page(Record):
    """A free page: the home page (id 'home') or the about page."""

    title: str = spec("text", required=True, doc="title", translate=True)
    summary: str | None = spec("text", doc="one plain sentence", translate=True)
    featured: list[str] = spec("ids:people", default=[], doc="the home page: the people at the centre of the story")


@dataclass(frozen=True, kw_only=True)
class SiteConfig(Record):
    """Site settings from content/site.yaml."""

    title: str = spec("text", required=True, doc="site title", translate=True)
    description: str | None = spec("text", doc="one sentence for search engines and feeds", translate=True)
    language: str = spec("text", default="en", doc="language code")
    languages: list[str] = spec("texts", default=[], doc="languages of the site, the first at the root and each other under its own folder (es/): en, es")
    base_url: str | None = spec("url", doc="public address, for canonical links and feeds")
    not_people: list[str] = spec("texts", default=[], doc="capitalised phrases in the seeds that are not people")
    name_check: Any = spec("name_check", doc="the name check: {enabled, skip: [source ids], strict} (see 'The name check' in dossier's docs/writing/content.md)")
    people_groups: list = spec("people_groups", default=[], doc="the people index's groups, in order: [{part, heading}]; a person's `part` names one")
    home_headings: Any = spec("home_headings", doc="the home page's headings: {figures, featured}, each a text or {en: ..., es: ...}")
    timeline: Any = spec("timeline", doc="the timeline: {filter_pages_over: 5}, a record's filter page only where it has more events than that (see dossier's docs/writing/content.md)")
    extra_css: list[str] = spec("texts", default=[], doc="stylesheets every page loads after the theme's: files of the site such as static/print.css (from templates/static/), or https:// addresses")
    extra_js: list[str] = spec("texts", default=[], doc="scripts every page loads (deferred) after the theme's: files of the site such as static/counter.js, or https:// addresses")
    types: dict | None = spec("types", doc="record types of the project's own (see dossier's docs/writing/record-types.md)")
    translations: dict = spec("site-translations", default={}, doc="the site in each other language: {es: {title, description, tags: {tag: its name}}}")
    require_translations: bool = spec("bool", default=False, doc="warn (an error under --strict) about every page of another language that shows text in the first")
    tag_names: dict = field(default_factory=dict, repr=False)  # in another language's view of the site: each tag's name there


@dataclass(frozen=True, kw_only=True)
class Translation(Record):
    """A record's words in another language, from content/<collection>/<id>.<lang>.md beside its file
    (a source's <id>.<lang>.yaml): its body (a source's notes) and the values of its fields declared
    translate=True, converted (a list of figures or claims item by item: each a mapping of its own
    words); the structured facts stay the record's own."""

    lang: str
    values: dict = field(default_factory=dict)

    @property
    def title(self) -> str | None:
        """Return the translated title, if the translation gives one."""
        return self.values.get("title")

    @property
    def summary(self) -> str | None:
        """Return the translated summary, if the translation gives one."""
        return self.values.get("summary")

    @property
    def label(self) -> str | None:  # type: ignore[override]
        """Return the name a link to the record shows in this language, if the translation gives one."""
        return self.values.get("name") or self.values.get("title")
