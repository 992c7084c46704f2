"""What a saved web page says about itself: title, outlet, byline, date, address and language, from
its JSON-LD (`NewsArticle` and the other article types), Open Graph and `<meta>` tags, each value
with where it came from."""

from __future__ import annotations

import html
import json
import re
from dataclasses import dataclass, field, replace
from typing import Any, Iterator
from urllib.parse import urlsplit

from ..model.dateparse import parse_date
from ..model.dates import DateError
from .visible import clean_title, folded, is_site_name, strip_label, visible_bylines, visible_dates

FIELDS = ("title", "outlet", "byline", "published", "url", "language")
LANGUAGE_TAG = re.compile(r"[A-Za-z]{2,3}(?:[-_][A-Za-z0-9]{1,8})*")
DATE_START = re.compile(r"(\d{4})[-/](\d{2})[-/](\d{2})(?![\d])")


@dataclass(frozen=True)
class Found:
    """A metadata value and where in the page it came from."""

    value: Any  # str, or list[str] for the byline
    origin: str  # "JSON-LD NewsArticle headline", "og:title", "<html lang>"
    raw: str = ""  # the value as the page gives it, where it was changed (a date's time of day)
    others: tuple[str, ...] = ()  # what other parts of the page give instead: 'og:site_name gives "DW.COM"'


@dataclass
class Metadata:
    """What the page says about itself: one Found (or None) per field, and values set aside."""

    found: dict[str, Found | None]
    ignored: list[str] = field(default_factory=list)  # "og:url 'ftp://x' is not an http(s) address"


def clean(text: Any) -> str:
    """Collapse white space; non-text values give ''."""
    return " ".join(text.split()) if isinstance(text, str) else ""


def meta_values(tree: Any) -> Iterator[tuple[str, str, str]]:
    """Yield (attribute, lowercased name, content) for every <meta> with a name, property, itemprop or http-equiv."""
    for meta in tree.iter("meta"):
        content = clean(meta.get("content"))
        if not content:
            continue
        for attribute in ("property", "name", "itemprop", "http-equiv"):
            name = meta.get(attribute)
            if name:
                yield attribute, name.strip().lower(), content


def is_article_type(types: Any) -> str | None:
    """Return the node's article type (NewsArticle, Article, BlogPosting, ...) or None."""
    for name in types if isinstance(types, list) else [types]:
        if isinstance(name, str):
            name = name.rpartition("/")[2]  # "https://schema.org/NewsArticle"
            if name.endswith("Article") or name in ("BlogPosting", "LiveBlogPosting", "Report"):
                return name
    return None


def json_ld_articles(tree: Any, ignored: list[str]) -> tuple[list[tuple[str, dict]], dict[str, dict]]:
    """Return the page's JSON-LD article nodes with their type, news articles first, and every node by @id."""
    nodes: list[dict] = []
    for script in tree.iter("script"):
        if (script.get("type") or "").strip().lower() != "application/ld+json":
            continue
        try:
            data = json.loads(script.text or "")
        except ValueError:
            ignored.append("a JSON-LD block that is not valid JSON")
            continue
        for item in data if isinstance(data, list) else [data]:
            graph = item.get("@graph") if isinstance(item, dict) else None
            for node in [item] + (graph if isinstance(graph, list) else []):
                if isinstance(node, dict):
                    nodes.append(node)
                    if isinstance(node.get("mainEntity"), dict):  # a WebPage whose main entity is the article
                        nodes.append(node["mainEntity"])
    by_id = {node["@id"]: node for node in nodes if isinstance(node.get("@id"), str)}
    articles = [(kind, node) for node in nodes if (kind := is_article_type(node.get("@type")))]
    return sorted(articles, key=lambda pair: "NewsArticle" not in pair[0]), by_id


def ld_text(value: Any, by_id: dict[str, dict], key: str = "name") -> list[str]:
    """Return the texts a JSON-LD value gives: a string, a node's name (following an @id), or a list of either."""
    texts = []
    for item in value if isinstance(value, list) else [value]:
        if isinstance(item, dict):
            if set(item) == {"@id"} and isinstance(item["@id"], str):  # a reference to a node given elsewhere
                item = by_id.get(item["@id"], item)
            item = item.get(key)
        text = clean(html.unescape(item)) if isinstance(item, str) else ""
        if text:
            texts.append(text)
    return texts


def ld_candidates(articles: list[tuple[str, dict]], by_id: dict[str, dict]) -> dict[str, list[tuple[str, Any]]]:
    """Return each field's candidate values from the JSON-LD articles, with their origin, in order of preference."""
    found: dict[str, list[tuple[str, Any]]] = {name: [] for name in FIELDS}
    wanted = {
        "title": [("headline", "name")],
        "outlet": [("publisher", "name")],
        "byline": [("author", "name")],
        "published": [("datePublished", "name")],
        "url": [("url", "@id"), ("mainEntityOfPage", "@id")],
        "language": [("inLanguage", "name")],
    }
    for name, properties in wanted.items():
        for kind, node in articles:
            for prop, key in properties:
                texts = ld_text(node.get(prop), by_id, key)
                if texts:
                    found[name].append((f"JSON-LD {kind} {prop}", texts if name == "byline" else texts[0]))
    return found


def byline_names(content: str) -> list[str]:
    """Split a byline such as 'By Ana Herrero and Anthony Faiola' into names."""
    content = re.sub(r"^by\s+", "", content, flags=re.IGNORECASE)
    return [name.strip() for name in re.split(r",\s*|\s+and\s+|\s*&\s*|\s*;\s*", content) if name.strip()]


def page_metadata(tree: Any) -> Metadata:
    """Read title, outlet, byline, date, URL and language from the page's JSON-LD, Open Graph and <meta> tags."""
    ignored: list[str] = []
    articles, by_id = json_ld_articles(tree, ignored)
    candidates = ld_candidates(articles, by_id)
    metas = list(meta_values(tree))

    def meta(field_name: str, *names: str) -> None:
        """Add the <meta> values of these names, in this order of preference."""
        for wanted in names:
            for attribute, name, content in metas:
                if name == wanted:
                    label = name if name.startswith(("og:", "article:", "twitter:")) else f"<meta {attribute}=\"{name}\">"
                    candidates[field_name].append((label, byline_names(content) if field_name == "byline" else content))

    meta("title", "og:title", "twitter:title")
    title = clean(tree.findtext(".//title"))
    if title:
        candidates["title"].append(("<title>", title))
    heading = next((clean(h.text_content()) for h in tree.iter("h1") if clean(h.text_content())), "")
    if heading:
        candidates["title"].append(("the page's first <h1>", heading))
    meta("outlet", "og:site_name", "application-name")
    for names, shown in visible_bylines(tree):  # what the article prints beats what the tags say of the page
        candidates["byline"].append((f'the page\'s visible byline ("{shown}")', byline_names(strip_label(names))))
    meta("byline", "author", "article:author", "byl", "dc.creator", "dcterms.creator")
    meta("published", "article:published_time", "datepublished", "date", "pubdate", "publishdate", "dc.date.issued",
         "dcterms.issued", "dc.date", "citation_publication_date", "parsely-pub-date", "sailthru.date")
    for day, shown in visible_dates(tree):
        candidates["published"].append((f"the page's visible date ({shown})", day))
    meta("url", "og:url")
    canonical = next((clean(link.get("href")) for link in tree.iter("link")
                      if "canonical" in (link.get("rel") or "").lower().split() and clean(link.get("href"))), "")
    if canonical:
        candidates["url"].append(('<link rel="canonical">', canonical))
    root_language = clean(tree.getroottree().getroot().get("lang"))
    if root_language:
        candidates["language"].append(("<html lang>", root_language))
    meta("language", "og:locale", "content-language", "language", "dc.language")

    sites = [value for _, value in candidates["outlet"]] + [urlsplit(value).netloc for _, value in candidates["url"] if isinstance(value, str)]
    candidates["title"] = [cleaned(origin, value, sites, heading) for origin, value in candidates["title"]]
    found: dict[str, Found | None] = {}
    for name in FIELDS:
        found[name] = None
        accepted: list[tuple[str, Any, Found]] = []
        for origin, value in candidates[name]:  # what dossier cannot use is noted until a value is taken
            found_value = accept(name, origin, value, ignored if not accepted else [])
            if found_value is not None:
                accepted.append((origin, value, found_value))
        usable = [item for item in accepted if not (name == "byline" and all(is_site_name(n, sites) for n in item[2].value))]
        if usable:
            chosen = usable[0][2]
            found[name] = replace(chosen, others=disagreeing(name, chosen, [item[2] for item in accepted if item[2] is not chosen], sites))
    return Metadata(found, ignored)


def cleaned(origin: str, title: str, sites: list[str], heading: str) -> tuple[str, str]:
    """Return a title candidate without what the site adds after the headline, its origin saying so."""
    value, tail = clean_title(title, sites, heading)
    if not tail:
        return origin, title
    how = " (the page's <h1> is the headline)" if value == heading and origin != "the page's first <h1>" else ""
    return f'{origin}, less "{tail}"{how}', value


def disagreeing(name: str, chosen: Found, others: list[Found], sites: list[str]) -> tuple[str, ...]:
    """Say what other parts of the page give for an author, a date or an outlet where it differs from
    the value taken (a title's other forms differ too often to be worth saying: a social headline)."""
    if name not in ("byline", "published", "outlet"):
        return ()
    said, seen = [], {chosen.origin}
    for other in others:
        same = other.value == chosen.value if name != "outlet" else folded(other.value) == folded(chosen.value)
        if same or other.origin in seen:
            continue
        seen.add(other.origin)
        shown = ", ".join(other.value) if isinstance(other.value, list) else other.raw or other.value
        outlet = name == "byline" and all(is_site_name(n, sites) for n in other.value)
        said.append(f'{other.origin.split(" (")[0] if other.origin.startswith("the page") else other.origin} gives "{shown}"' + (" (the outlet)" if outlet else ""))
    return tuple(said)


def accept(name: str, origin: str, value: Any, ignored: list[str]) -> Found | None:
    """Return the value as the source file holds it, or None (noting why) when dossier cannot use it."""
    if name == "byline":
        names = [n for n in value if not n.startswith(("http://", "https://"))]  # article:author is often a profile URL
        return Found(names, origin) if names else None
    if name == "published":
        match = DATE_START.match(value)
        if match:
            try:
                day = "-".join(match.groups())
                parse_date(day)
                return Found(day, origin, raw=value if value != day else "")
            except DateError:
                pass
        ignored.append(f"{origin} '{value}' is not a date such as 2019-02-23")
        return None
    if name == "url":
        if value.startswith(("https://", "http://")):
            return Found(value, origin)
        ignored.append(f"{origin} '{value}' is not an http(s) address")
        return None
    if name == "language":
        if LANGUAGE_TAG.fullmatch(value):
            primary, _, rest = value.replace("_", "-").partition("-")
            return Found(primary.lower() + ("-" + rest if rest else ""), origin)
        ignored.append(f"{origin} '{value}' is not a language code such as en")
        return None
    return Found(value, origin)


# --- the article's text -------------------------------------------------------------------------
