"""How whole each of the site's other languages is: the records whose page in a language shows some of
their own text in the first (no translation, or one that leaves out the body, a summary, a role...;
see model/language_view.py). `check` counts them ("es: 179 of 179 pages translated"), and a site that
sets `require_translations: true` in content/site.yaml is warned of each (an error under --strict).
"""

from __future__ import annotations

from pathlib import PurePosixPath

from .link import Site
from ..model.i18n import language_name, site_languages
from ..model.language_view import left_untranslated, translatable_fields
from ..model.problems import Problem
from ..model.schema import Record


def untranslated(site: Site) -> dict[str, list[tuple[Record, list[str]]]]:
    """Return, for each language of the site but its first, each record whose page there shows some
    of its own text, with what (see left_untranslated), in the site's order."""
    found: dict[str, list[tuple[Record, list[str]]]] = {}
    for lang in site_languages(site.config)[1:]:
        found[lang] = []
        for record in site.all_records():
            rtype = site.model[record.collection]
            left = left_untranslated(record, translatable_fields(site.model, record.collection), lang, rtype.body_field)
            if left:
                found[lang].append((record, left))
    return found


def translation_path(record: Record, lang: str) -> str:
    """Return the file that translates a record into a language: content/people/x.es.md, content/sources/x.es.yaml."""
    path = PurePosixPath(record.path)
    return str(path.with_name(f"{path.stem}.{lang}{path.suffix}"))


def untranslated_problems(site: Site) -> list[Problem]:
    """Warn about each page of another language that shows text in the first, where the site requires
    its translations (require_translations: true in content/site.yaml)."""
    if not getattr(site.config, "require_translations", False):
        return []
    first = site_languages(site.config)[0]
    problems = []
    for lang, records in untranslated(site).items():
        name, shown = f"{language_name(lang, 'en')} ({lang})", language_name(first, "en")
        for record, left in records:
            translation = record.translations.get(lang)
            if translation is None:
                problems.append(Problem(record.path, 1, 0, "warning", f"no translation into {name}: its page in {lang}/ shows it in {shown}; "
                                                                      f"write {translation_path(record, lang)}", kind="page not translated"))
            else:
                what = [("the " + part) if part in ("body", "notes") else part for part in left]
                listed = ", ".join(what[:-1]) + " and " + what[-1] if len(what) > 1 else what[0]
                problems.append(Problem(translation.path, 1, 0, "warning", f"the translation into {name} leaves out {listed}: "
                                                                           f"its page in {lang}/ shows {'them' if len(what) > 1 else 'it'} in {shown}",
                                                                           kind="page not translated"))
    return problems
