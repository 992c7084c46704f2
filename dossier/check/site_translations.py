"""The site's own words in each of its other languages, from `translations:` in content/site.yaml:
its title and description, and the name each tag shows (a tag is a slug, which its pages' addresses
keep in every language):

    translations:
      es: {title: A la deriva, description: …, tags: {aid: ayuda, border: frontera}}
"""

from __future__ import annotations

from typing import Any

from ..model.i18n import LANGUAGES
from ..model.schema import Translation
from ..model.slug import is_valid_id

WORDS = ("title", "description")  # besides tags


def convert_site_translations(value: Any, key: tuple, check: Any) -> dict[str, Translation] | None:
    """Check `translations:` and return a Translation of the settings for each language it gives."""
    if not isinstance(value, dict):
        return check.error(key, "'translations' should be a mapping of languages, each with its title, description and tags: translations: {es: {title: …}}")
    found = {}
    for lang, words in value.items():
        where = key + (lang,)
        if lang not in LANGUAGES:
            check.error(where, f"'translations' gives '{lang}', a language dossier has no interface in; languages may be {', '.join(LANGUAGES)}")
            continue
        if not isinstance(words, dict):
            check.error(where, f"'translations.{lang}' should be a mapping of title, description and tags, not {type_name(words)}")
            continue
        values = language_words(lang, words, where, check)
        if values is not None:
            found[lang] = Translation(collection="site", id="site", path=check.document.path, lines=check.document.lines, lang=lang, values=values)
    return found


def language_words(lang: str, words: dict, where: tuple, check: Any) -> dict[str, Any] | None:
    """Check one language's words for the site and return them."""
    values: dict[str, Any] = {}
    for name, text in words.items():
        if name == "tags":
            values["tags"] = tag_names(lang, text, where + (name,), check)
        elif name not in WORDS:
            check.error(where + (name,), f"unknown field '{name}' in translations.{lang} (it translates title, description and tags)")
        elif not isinstance(text, str) or not text.strip():
            check.error(where + (name,), f"'translations.{lang}.{name}' should be text, not {type_name(text)}")
        else:
            values[name] = text.strip()
    return values


def tag_names(lang: str, value: Any, where: tuple, check: Any) -> dict[str, str]:
    """Check the names a language gives the site's tags: each tag (a slug) with its name."""
    if not isinstance(value, dict):
        check.error(where, f"'translations.{lang}.tags' should be a mapping of each tag to its name: {{aid: ayuda}}")
        return {}
    names = {}
    for tag, name in value.items():
        if not isinstance(tag, str) or not is_valid_id(tag):
            check.error(where + (tag,), f"'translations.{lang}.tags' names {tag!r}, which is not a tag: tags are lowercase words joined by hyphens, such as 'aid'")
        elif not isinstance(name, str) or not name.strip():
            check.error(where + (tag,), f"'translations.{lang}.tags.{tag}' should be the tag's name, not {type_name(name)}")
        else:
            names[tag] = name.strip()
    return names


def type_name(value: Any) -> str:
    """Name a YAML value's type as an editor would recognise it (as fields.describe does, for the values met here)."""
    if value is None:
        return "nothing"
    return "a list" if isinstance(value, list) else "a mapping" if isinstance(value, dict) else "true/false" if isinstance(value, bool) else "a number" if isinstance(value, (int, float)) else "text"
