"""The site as one of its languages shows it: each record with its translation's words (see
check/translations.py) over its own, and what no translation gives shown in the record's own
language, marked as such.

A value in another language than the page's is an InLanguage string: it prints as itself in its
language (`<span lang="en">`), wherever a template shows it. A value a translation leaves out is
Untranslated: marked too, and visibly ("in English"), as a body without a translation is. A
figure whose value is a bare number ("1,410") is written as the page's language writes numbers.
A name is the record's own unless the translation gives one: only an anonymous person's name is a
description, and so shown as untranslated.
"""

from __future__ import annotations

import dataclasses
import re
from decimal import Decimal
from functools import cache
from typing import Any, Self, cast

from babel.numbers import NumberFormatError, format_decimal, parse_decimal
from markupsafe import Markup, escape

from .i18n import site_languages
from .record_types import NESTED, FieldSpec, Model, field_specs
from .schema import Record, SiteConfig

NAMES = ("name", "outlet")  # a record's proper name, shared where no translation gives it (and a site's title)
BARE_NUMBER = re.compile(r"[\d.,\u00a0\u202f ]*\d")  # a figure's value written as the source writes a number: '1,410', '300'


class InLanguage(str):
    """Text in another language than the page that shows it (lang): a source's headline, a spelling
    the sources use. It prints marked with its language."""

    lang: str

    def __new__(cls, text: str, lang: str) -> Self:
        self = super().__new__(cls, text)
        self.lang = lang
        return self

    def __getnewargs__(self) -> tuple:  # pickled as the arguments that make it (pages render in other processes)
        return str(self), self.lang

    def __html__(self) -> Markup:
        return self.wrap(escape(str(self)))

    def wrap(self, html: str) -> Markup:
        """Return HTML made of this text (a provenance marker put in it) marked with its language."""
        return Markup('<span lang="{}">{}</span>').format(self.lang, Markup(html))


class Untranslated(InLanguage):
    """A value that a record's translation does not give, shown in the record's own language (lang)
    and marked as such in the page's (note: 'en inglés', shown after it by the stylesheet)."""

    note: str

    def __new__(cls, text: str, lang: str, note: str = "") -> Self:
        self = super().__new__(cls, text, lang)
        self.note = note
        return self

    def __getnewargs__(self) -> tuple:
        return str(self), self.lang, self.note

    def wrap(self, html: str) -> Markup:
        return Markup('<span class="untranslated" data-untranslated="{}"><span lang="{}">{}</span></span>').format(self.note, self.lang, Markup(html))


def plain(text: Any) -> Any:
    """Return text without its language's mark, for an attribute or a page's title."""
    return str.__str__(text) if isinstance(text, InLanguage) else text


@dataclasses.dataclass(frozen=True)
class Language:
    """The language a view shows (lang), the language its records are written in (first), and the
    note that marks a value left in that language ('en inglés')."""

    lang: str
    first: str
    note: str

    def untranslated(self, text: str) -> Untranslated:
        """Return a value of the record's own, marked as left untranslated."""
        return Untranslated(text, self.first, self.note)


def translatable_fields(model: Model, collection: str) -> tuple[FieldSpec, ...]:
    """Return the fields of a collection (or of the settings) that a reader sees as words."""
    fields = model[collection].fields if collection in model else field_specs(SiteConfig)
    return tuple(spec for spec in fields if spec.translate)


@cache
def item_words(kind: str) -> tuple[str, ...]:
    """Return the words each item of a list of mappings has ('figures': label and value; 'claims': says)."""
    return tuple(f.name for f in field_specs(NESTED[kind]) if f.translate)


def missing(record: Record, fields: tuple[FieldSpec, ...], given: dict[str, Any]) -> list[str]:
    """Return the translatable fields of a record that a view shows in the record's own language:
    those holding words that the translation's values (given) leave out; for a list of figures or
    claims, an item's words other than a bare number. A name counts only where it describes."""
    found = []
    for spec in fields:
        own = value_of(record, spec.name)
        if not own or shared_name(record, spec.name):
            continue
        words = given.get(spec.name)
        if spec.type in NESTED:
            items = words or [{}] * len(own)
            if any(getattr(item, key) and key not in shown and not bare_number(getattr(item, key))
                   for item, shown in zip(own, items) for key in item_words(spec.type)):
                found.append(spec.name)
        elif not words:
            found.append(spec.name)
    return found


def left_untranslated(record: Record, fields: tuple[FieldSpec, ...], lang: str, body_field: str = "body") -> list[str]:
    """Return what of a record its page in a language shows in the record's own: its body (a source's
    notes: body_field) where it has one that no translation gives, then the translatable fields (see
    missing()); everything, where the record has no translation into the language."""
    record = record.original or record  # a view's record: what its own file and its translations say
    translation = record.translations.get(lang)
    given = translation.values if translation is not None else {}
    own_body = value_of(record, body_field) if body_field != "body" else record.body
    found = [body_field] if own_body and own_body.strip() and (translation is None or not translation.body.strip()) else []
    return found + [name for name in missing(record, fields, given) if name != body_field]


def shared_name(record: Record, name: str) -> bool:
    """Tell whether a field is a proper name, which every language shares unless a translation gives
    one: a name, a source's outlet, a site's title; not an anonymous person's name, a description."""
    if isinstance(record, SiteConfig):
        return name == "title"
    return name in NAMES and not getattr(record, "anonymous", False)


def value_of(record: Record, name: str) -> Any:
    """Return a field's value, of dossier's types or a project's own (CustomRecord keeps them in values)."""
    values = record.__dict__.get("values")
    return values.get(name) if isinstance(values, dict) and name in values and not hasattr(type(record), name) else getattr(record, name, None)


def bare_number(text: Any) -> bool:
    """Tell whether a figure's value is only a number (as the source writes it: '1,410', '300')."""
    return isinstance(text, str) and BARE_NUMBER.fullmatch(text.strip()) is not None


def number_in(text: str, written_in: str, lang: str) -> str:
    """Return a bare number as a language writes it ('1,410' in English is '1.410' in Spanish), or the
    text as it is where it does not read as a number of the language it is written in."""
    try:
        value = parse_decimal(text.strip().replace("\u00a0", "").replace("\u202f", ""), locale=written_in, strict=True)
    except NumberFormatError:
        return text
    return format_decimal(value if value != value.to_integral() else Decimal(int(value)), locale=lang, decimal_quantization=False)


def shown_value(record: Record, spec: FieldSpec, given: Any, language: Language) -> Any:
    """Return one translatable field's value as the view shows it: the translation's words, the
    record's own marked as untranslated, or a proper name as it is."""
    own = value_of(record, spec.name)
    if not own:
        return own
    if spec.type in NESTED:  # figures, claims: each item's words, its own where the translation gives none
        items = given or [{}] * len(own)
        return [dataclasses.replace(item, **{key: shown_item(getattr(item, key), words.get(key), language) for key in item_words(spec.type)})
                for item, words in zip(own, items)]
    if given:
        return given
    if shared_name(record, spec.name):
        return own
    if isinstance(own, list):
        return [language.untranslated(item) for item in own]
    return language.untranslated(own)


def shown_item(own: Any, given: str | None, language: Language) -> Any:
    """Return one word of a figure or claim: the translation's, a bare number in the page's language, or the record's own marked."""
    if given:
        return given
    if not own:
        return own
    if bare_number(own):
        return number_in(own, language.first, language.lang)
    return language.untranslated(own)


def translated(record: Record, fields: tuple[FieldSpec, ...], language: Language, body_field: str = "body") -> Record:
    """Return a record as a language shows it (see the module's docstring); body_field is the
    Markdown its page renders (a source's notes), given by the translation's body."""
    translation = record.translations.get(language.lang)
    given = translation.values if translation is not None else {}
    words: dict[str, Any] = {spec.name: shown_value(record, spec, given.get(spec.name), language) for spec in fields if spec.name != body_field}
    if translation is not None and translation.body.strip():
        words[body_field] = translation.body
        if body_field == "body":
            words["body_line"] = translation.body_line
    if record.collection == "sources" and getattr(record, "language", language.lang) != language.lang:
        words["title"] = InLanguage(record.title, record.language)  # type: ignore[attr-defined]
        if "outlet" not in given:
            words["outlet"] = InLanguage(record.outlet, record.language)  # type: ignore[attr-defined]
    aliases = value_of(record, "aliases")
    if aliases and isinstance(aliases, list):
        words["aliases"] = [InLanguage(alias, language.first) for alias in aliases]
    if isinstance(record, SiteConfig) and translation is not None:
        words["tag_names"] = given.get("tags", {})
    return with_values(record, words)


def with_values(record: Record, words: dict[str, Any]) -> Record:
    """Return a copy of a record with some fields' values replaced (a project's type keeps them in values)."""
    own = {name: value for name, value in words.items() if name in record.__dataclass_fields__}
    if len(own) < len(words):
        values = {**record.__dict__["values"], **{name: value for name, value in words.items() if name not in own}}
        own["values"] = values
    return dataclasses.replace(record, **own, original=record)


def site_in(site: Any, lang: str, note: str, previous: Any = None) -> Any:
    """Return the linked site as a language other than its first shows it (note: how a value left
    in the first reads marked, 'en inglés'). previous: the view of an earlier version of the site,
    whose records are kept where the site's record is the same."""
    language = Language(lang, site_languages(site.config)[0], note)
    same = previous is not None and previous.model is site.model and site_languages(previous.config)[0] == language.first
    kept = previous.records if same else {}
    records = {}
    for kind, found in site.records.items():
        fields = translatable_fields(site.model, kind) if kind in site.model or kind == "site" else ()
        body_field = site.model[kind].body_field if kind in site.model else "body"
        before = kept.get(kind, {})
        records[kind] = {rid: shown if (shown := before.get(rid)) is not None and shown.original is record else translated(record, fields, language, body_field)
                         for rid, record in found.items()}
    config = cast(SiteConfig, translated(site.config, translatable_fields(site.model, "site"), language))
    given = config.tag_names
    tags = sorted({tag for event in site.records.get("events", {}).values() for tag in getattr(event, "tags", None) or []})
    config = dataclasses.replace(config, tag_names={tag: given.get(tag) or language.untranslated(tag) for tag in tags})
    return dataclasses.replace(site, records=records, config=config)
