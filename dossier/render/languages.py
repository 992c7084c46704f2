"""What a page of a site in several languages says of the others: the language switcher's note where
the other language's page shows its record's text in the first, and the page for a missing address
carrying its version in each other language (see 404.html)."""

from __future__ import annotations

from typing import Any

from markupsafe import Markup

from ..check.link import Site
from ..model.i18n import NOT_TRANSLATED, translations
from ..model.language_view import left_untranslated, translatable_fields
from ..model.schema import Record
from .reads import unwrap


def switch_note(site: Site, record: Record, lang: str) -> str:
    """Return what the switcher says after a language's name where that language's page of a record
    shows its body or summary in the site's first language ('sin traducir', in that language), else ''."""
    record = unwrap(record)
    rtype = site.model[record.collection]
    left = left_untranslated(record, translatable_fields(site.model, record.collection), lang, rtype.body_field)
    return translations(lang).gettext(NOT_TRANSLATED) if {rtype.body_field, "summary"} & set(left) else ""


def not_found_version(lang: str, prefix: str, html: str) -> dict[str, Any]:
    """Return what the page for a missing address carries of its version in another language: its
    language and folder, its title, its body's attributes (the interface's strings) and its body."""
    head, _, rest = html.partition("<body")
    attributes, _, body = rest.partition(">")
    title = head.partition("<title>")[2].partition("</title>")[0]
    return {"lang": lang, "prefix": prefix, "title": Markup(title), "attributes": Markup(attributes), "body": Markup(body.rpartition("</body>")[0])}
