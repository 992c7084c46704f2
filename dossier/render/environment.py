"""The templates' environment in each language: Jinja over the theme's folders, and the filters and
functions templates call (dates and numbers as the language writes them, a source's article with
its cited passages marked, the timeline grouped by month, links to many records at once, ...).
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from pathlib import Path
from types import FunctionType, MethodType
from typing import Any, Callable, Iterable, Mapping, cast

import jinja2
from markupsafe import Markup

from . import export, theme
from .align import aligned_rows, aligned_url, has_aligned_page
from ..model.dates import MONTHS, month_key
from ..check.link import Key, Passage, Site
from ..text.markup import inner_quotes
from .overlap import Overlap, overlap
from ..text.passages import passage_id, text_fragment
from .provenance import mark_inferred, marker
from .quotes import own_quotes, shows_quotes
from .reads import SiteReads, token
from .views import fact_evidence, facts
from ..model.schema import Event, Source
from ..model.settings import in_language
from .axis import axis_figure
from .footnotes import reference_list
from .contents import contents_marker
from .glance import at_a_glance
from .images import image_view
from ..model.language_view import InLanguage, plain
from ..model.i18n import display_date, interface_strings, language_name, month_abbreviation, month_heading, month_names, number, translations, untranslated_note
from .timeline import Filter, Part, facet_values, facets, has_filter_page, timeline_filters

OFTEN_CITED = 3  # records citing a piece of an article for its mark to be the stronger one on the source page


class QuickCalls(jinja2.runtime.Context):
    """A template's context that calls a function (a method, a cached function) as Jinja's does,
    with fewer checks: a record page makes about 180 calls, 'gettext' two for each string, and
    Jinja looks each time for marks that such a function keeps in its __dict__ if it has them."""

    def call(__self, __obj: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:  # named as Jinja names them: a call may pass any keyword
        function = __obj.__func__ if type(__obj) is MethodType else __obj
        if type(function) not in FUNCTIONS:
            return super().call(__obj, *args, **kwargs)
        mark = function.__dict__.get("jinja_pass_arg")
        if mark is not None and (mark is not TAKES_CONTEXT or kwargs.get("_loop_vars") or kwargs.get("_block_vars")):
            return super().call(__obj, *args, **kwargs)  # the environment, or a context with a loop's or block's names
        kwargs.pop("_block_vars", None)
        kwargs.pop("_loop_vars", None)
        try:
            return __obj(__self, *args, **kwargs) if mark is not None else __obj(*args, **kwargs)
        except StopIteration:
            return __self.environment.undefined("value was undefined because a callable raised a StopIteration exception")


FUNCTIONS = (FunctionType, type(functools.lru_cache(maxsize=1)(len)))  # each keeps Jinja's mark (pass_context) in its __dict__
TAKES_CONTEXT = jinja2.pass_context(lambda context: None).jinja_pass_arg  # type: ignore[attr-defined]


class CompiledTemplates(jinja2.BytecodeCache):
    """Templates compiled once a process, shared by every renderer it makes (the preview makes one
    again after a template edit): only a template whose source changed is compiled again. A build
    keeps them in its session, for the next build's process (incremental/lastbuild.py): compiling
    the three templates of a person's page takes about 60 ms."""

    def __init__(self) -> None:
        self.compiled: dict[str, bytes] = {}

    def take(self, compiled: dict[str, bytes]) -> None:
        """Add the templates another process compiled (as `compiled`); Jinja checks each against its
        template's source before using it, and compiles a changed one again."""
        self.compiled = {**compiled, **self.compiled}

    def load_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        code = self.compiled.get(bucket.key)
        if code is not None:
            bucket.bytecode_from_string(code)  # Jinja checks it against the source's checksum

    def dump_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        self.compiled[bucket.key] = bucket.bytecode_to_string()


COMPILED = CompiledTemplates()


def remembered_gettext(gettext: Callable[..., str]) -> Callable[..., str]:
    """Return the templates' gettext, each string without variables translated once: a page asks
    for about sixty, each a lookup, a Markup and a formatting (about a tenth of a record page's time)."""
    known: dict[tuple[str, bool], str] = {}

    @jinja2.pass_context
    def remembered(context: jinja2.runtime.Context, string: str, **variables: Any) -> str:
        if variables:
            return gettext(context, string, **variables)
        key = (string, context.eval_ctx.autoescape)
        found = known.get(key)
        if found is None:
            found = known[key] = gettext(context, string)
        return found

    return remembered


def published(source: Source, lang: str, gettext: Callable[[str], str]) -> Markup:
    """Return a source's date of publication as a reference gives it, saying so where the text does
    not give it (worked out, or taken from a public copy); the source's page gives the reasoning."""
    if not source.published:
        return Markup("")
    shown = Markup.escape(display_date(source.published, lang))
    basis = {"inferred": gettext("date inferred"), "public-copy": gettext("date from a public copy")}.get(source.published_basis)
    return shown + Markup(" ") + marker(source.published_note or basis, basis) if basis else shown  # its reasoning a tap away, as elsewhere


def template_environment(folders: list[Path], lang: str, first_language: str) -> jinja2.Environment:
    """Return the templates' environment in one language: the theme's folders (theme.py), its
    interface strings, dates and numbers, and the functions templates call."""
    # auto_reload=False: a template's file is not looked at again each time a page asks for it (a
    # system call for each of the 9,500 timeline entries at 10,000 records, each letting another
    # thread take the interpreter's lock, which then starved the threads that run Pagefind). A
    # template edit makes a new renderer, with new environments (incremental/rendered.py).
    env = jinja2.Environment(
        loader=theme.template_loader(folders), autoescape=True, undefined=jinja2.StrictUndefined, auto_reload=False,
        trim_blocks=True, lstrip_blocks=True, keep_trailing_newline=True, bytecode_cache=COMPILED, extensions=["jinja2.ext.i18n"],
    )
    env.context_class = QuickCalls
    words = translations(lang)
    env.install_gettext_translations(words, newstyle=True)  # type: ignore[attr-defined]
    env.globals["gettext"] = remembered_gettext(cast(Callable[..., str], env.globals["gettext"]))
    env.filters["date"] = lambda d: display_date(d, lang) if d else ""
    env.filters["number"] = lambda n: str(n) if lang == "en" else number(n, lang)  # English as the site always wrote counts
    env.globals.update(month_heading=lambda year, month: month_heading(year, month, lang), month_abbreviation=lambda month: month_abbreviation(month, lang),
                       phrase=lambda f: f"{words.gettext(f.preposition)} {f.label}", interface_strings=interface_strings(lang))
    env.globals["first_language"] = first_language  # what a page's text is in where it has no translation
    env.globals["words"] = lambda value: in_language(value, lang, first_language)  # a setting's text in the page's language (settings.py)
    env.globals["asset"] = asset
    env.globals["image_view"] = image_view
    env.globals["untranslated_note"] = untranslated_note(first_language, lang)  # how a text left in it is marked: 'en inglés'
    env.globals.update(part_heading=lambda part: part_heading(part, lang), month_name=lambda month: month_name(month, lang))
    env.filters["lookup"] = lambda ids, mapping: [mapping[i] for i in ids]
    env.filters["inner_quotes"] = inner_quotes
    env.filters["provenance"] = lambda text: text.wrap(mark_inferred(str(text), words.gettext("inferred"))) if isinstance(text, InLanguage) else mark_inferred(text, words.gettext("inferred"))
    env.filters["plain"] = plain  # a value without its language's mark: for an attribute, or a page's title
    env.globals["tag_name"] = lambda config, tag: config.tag_names.get(tag, tag)
    env.globals["provenance_marker"] = lambda note, label=None: marker(note, label or words.gettext("inferred"))
    env.filters["published"] = lambda source: published(source, lang, words.gettext)
    env.globals["reference_list"] = lambda references, site, rel: reference_list(references, site, rel, lang, words.gettext, env.filters["published"])
    env.globals.update(facts=facts, fact_evidence=fact_evidence, text_fragment=text_fragment, article_paragraphs=article_paragraphs, link_items=link_items, timeline_groups=timeline_groups, month_names=MONTHS)
    env.globals.update(facets=facets, timeline_filters=timeline_filters, has_filter_page=has_filter_page, axis_figure=axis_figure, facet_values=facet_values,
        own_quotes=own_quotes, shows_quotes=shows_quotes, source_overlap=source_overlap, json_ld=export.json_ld, absolute=export.absolute,
        passage_id=passage_id, contents=contents_marker, at_a_glance=at_a_glance,
        aligned_rows=aligned_rows, aligned_url=aligned_url, has_aligned_page=has_aligned_page,
        language_name=lambda code, within=None: language_name(code, within))
    return env


def asset(address: str, rel: Callable[[str], str]) -> str:
    """Return the link to a stylesheet or script that extra_css or extra_js names: an address on the
    web as it is, a file of the site ('static/print.css') relative to the page."""
    return address if address.startswith(("https://", "http://", "//")) else rel(address)


def part_heading(part: Part, lang: str) -> str:
    """Return how a page of a large timeline is named, in a language: '', '2019', 'March 2019' ('Marzo
    de 2019'), '2019, month not known'."""
    if part.year is None or part.month is None or lang == "en":
        return part.heading
    if part.month:
        return month_heading(part.year, part.month, lang)
    return translations(lang).gettext("%(year)s, month not known") % {"year": part.year}


def month_name(month: int, lang: str) -> str:
    """Return a month's full name, capitalized, for an overview of a year's months."""
    name = MONTHS[month] if lang == "en" else month_names(lang)[month] or MONTHS[month]
    assert name is not None  # the lists' None is month 0
    return name[:1].upper() + name[1:]


@dataclass
class ArticleParagraph:
    """One paragraph of a stored article, with cited passages marked."""

    html: Markup
    inserted: bool
    passages: list  # passages that start in this paragraph
    citing: list  # the keys of the records that cite them, in order


def article_paragraphs(site: Site, source: Source) -> list[ArticleParagraph]:
    """Split a source's stored text into paragraphs with every cited passage highlighted and anchored."""
    text = site.seed_of(source).text
    passages = sorted(site.passages.get(source.id, {}).values(), key=lambda p: (p.start, p.end, p.id))
    result = []
    offset = 0
    following, here = 0, []  # the next passage to start, and those that reach into the current line
    for line in text.split("\n"):
        start, end = offset, offset + len(line)
        offset = end + 1
        while following < len(passages) and passages[following].start < end:
            here.append(passages[following])
            following += 1
        here = [p for p in here if p.end > start]  # in the passages' order: those that start before the line ends and end after it starts
        if not line.strip():
            continue
        inserted = any(line.lstrip().startswith(prefix) for prefix in source.inserted_lines)
        pieces = marked_pieces(text, start, end, here)
        starting = [p for p in here if start <= p.start < end]
        result.append(ArticleParagraph(Markup("".join(pieces)), inserted, starting, sorted({key for p in starting for key in p.cited_by})))
    return result


def marked_pieces(text: str, start: int, end: int, here: list[Passage]) -> list[str]:
    """Return one line of an article (text[start:end]) as pieces of HTML: each stretch between two
    passage boundaries, marked with the passages covering it (in the order of here) and preceded by
    the anchors of those starting there. One sweep across the line's boundaries, adding and dropping
    passages as it goes: a line of a much-cited article is crossed by a hundred passages."""
    from markupsafe import escape

    starts: dict[int, list[int]] = {}
    ends: dict[int, list[int]] = {}
    for index, passage in enumerate(here):
        starts.setdefault(max(passage.start, start), []).append(index)
        ends.setdefault(min(passage.end, end), []).append(index)
    cuts = sorted({start, end} | starts.keys() | ends.keys())
    # The passages across the current stretch, in the order of here: here is in the order of their
    # starts, so they join in that order (an empty passage joins and leaves at once).
    covering: dict[int, Passage] = {}
    pieces = []
    for left, right in zip(cuts, cuts[1:]):
        for index in starts.get(left, ()):
            covering[index] = here[index]
        for index in ends.get(left, ()):
            del covering[index]
        anchors = "".join(f'<span class="anchor" id="{here[index].id}"></span>' for index in starts.get(left, ()) if here[index].start == left)
        chunk = escape(text[left:right])
        if covering:
            # Each piece names the passages it belongs to, so that the page can highlight exactly one.
            names = " ".join(p.id for p in covering.values())
            often = " often" if len({key for p in covering.values() for key in p.cited_by}) >= OFTEN_CITED else ""
            pieces.append(f'{anchors}<mark class="cited{often}" data-passages="{names}">{chunk}</mark>')
        else:
            pieces.append(anchors + str(chunk))
    return pieces


def link_items(site: SiteReads, keys: Iterable[Key], rel: Callable[[str], str], kinds: Mapping[str, str] | None = None,
               lang: str = "en", end: str = "", memo: dict | None = None) -> Markup:
    """Return a list item linking to each record (with its kind's name after it, from kinds, in the
    page's language), each followed by end: a source page lists hundreds, which a template loop makes
    slowly. Items are kept in memo (the renderer's, emptied when the site may have changed) for the
    other pages at the same depth in the same language, which list many of the same records."""
    from markupsafe import escape

    translate = translations(lang).gettext
    shown = site.site
    # A record's link depends on the page's depth, its label on the language the site is shown in.
    kept = (memo if memo is not None else {}).setdefault((id(shown), rel(""), tuple(sorted(kinds.items())) if kinds is not None else None, lang, end),
                                                          (shown, {}))[1]  # the view held while kept: its id is not another's
    items = []
    for key in keys:
        site.reads.add(token("label", key))  # as reading its address and label through site.get() notes
        item = kept.get(key)
        if item is None:
            record = shown.get(key)
            kind = f' <span class="kind">({escape(translate(kinds[record.collection]))})</span>' if kinds is not None else ""
            item = kept[key] = f'<li><a href="{escape(rel(record.page_url))}">{escape(record.label)}</a>{kind}</li>{end}'
        items.append(item)
    return Markup("".join(items))


def source_overlap(site: Site, derivative: Source, original: Source) -> Overlap:
    """Return how much text a derivative source shares word for word with its original."""
    return overlap(site.seed_of(derivative).text, site.seed_of(original).text)


def timeline_groups(site: Site, active: Filter | None = None, events: list[str] | None = None) -> list[tuple[int, list[tuple[int | None, list[Event]]]]]:
    """Group the timeline (or one filter's events, or those given) by year, then by the month each
    starts in; events whose month is not known (a bare year) come after the year's known months."""
    years: dict[int, dict[int | None, list[Event]]] = {}
    for eid in events if events is not None else active.events if active else site.timeline:
        event = site.records["events"][eid]
        assert isinstance(event, Event)
        year, month = month_key(event.date)
        years.setdefault(year, {}).setdefault(month, []).append(event)
    return [
        (year, sorted(months.items(), key=lambda item: 13 if item[0] is None else item[0]))
        for year, months in sorted(years.items())
    ]
