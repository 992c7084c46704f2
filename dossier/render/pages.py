"""Rendering stage: turn the linked Site into {output path: bytes}. It reads the templates and the
static files, and writes nothing: where the bytes go is the sinks' affair (sinks.py).

Each page renders with a PageContext (context.py) through the templates' environment in its
language (environment.py).
"""

from __future__ import annotations

import functools
from pathlib import Path
from typing import Any, Callable, Mapping, cast

import jinja2
from markupsafe import Markup

from . import export, theme
from .align import aligned_url, has_aligned_page
from .context import ROOTWARD, SHARED_ROOTWARD, PageContext, relative, rootward
from .environment import link_items, template_environment
from .fallback import fallback_index
from .images import image_files
from ..check.link import Key, Site, front_matter_citations
from .claim_index import ClaimIndex
from .claims import DERIVATIVE, Claim, claims_page, derivative_note, mark_claims, page_of, page_urls
from ..text.markup import BodyRenderer, escape_text
from .reads import RecordReads, SiteReads, body_tokens, reads_hold, token, unwrap
from .views import related
from ..model.schema import Event, Record
from .contents import add_contents
from ..model.i18n import catalog_digest, site_languages, translations, untranslated_note
from ..model.language_view import site_in
from .languages import not_found_version, switch_note
from .timeline import Filter, Part, asks_filtered, entry_on, filter_for, homes, on_filter_pages, split, timeline_filters, timeline_page


class Renderer:
    """Render every page of a site through the project's Jinja templates (templates: its templates/
    folder), falling back to the package's file by file (see theme.py)."""

    def __init__(self, site: Site, templates: Path | None = None, *, portable: bool = False):
        self.site = site
        self.portable = portable
        self.folders = theme.template_folders(templates)
        self.envs: dict[str, jinja2.Environment] = {}  # one a language: its translations and date filter
        self.views: tuple[Site | None, dict[str, Site]] = (None, {})  # the site in each language, for the site last asked
        self.earlier: dict[str, Site] = {}  # the last view made in each language: its records are kept where the site's are the same
        self.bodies = BodyRenderer()
        self.cache: Any = None  # a cache.BodyCache, when builds keep rendered bodies
        self.static = [folder / "static" for folder in self.folders if (folder / "static").is_dir()]  # the first holding a file wins
        self.homes: dict[str, str] = {}  # see timeline_home(); emptied by forget()
        self.parts: dict[str, dict[Part, list[str] | None]] = {}  # see timeline_parts(); emptied by forget()
        self.timeline_entries: dict[tuple[str, bool, str], tuple[str, frozenset]] = {}  # see timeline_entry(); emptied by forget()
        self.link_items: dict[tuple, dict[Key, str]] = {}  # the link_items of pages alike, see environment.link_items; emptied by forget()
        self.found_claims: dict[str, dict[str, list[Claim]]] = {}  # by language: see claims(); emptied by forget()
        self.claim_indexes: dict[str, ClaimIndex] = {}  # by language: each language's pages list its own claims
        self.claims_edited: set[Key] | None = None  # the only records whose claims can have changed since the claims were last asked for, if known
        self.processes = 1  # how many may work out the claims of a large site (see ClaimIndex.recount)
        self.env = self.environment(site_languages(site.config)[0])
        self.reads: dict[str, frozenset] = {}  # what each page rendered since last asked read (see reads.py), by output path

    @property
    def languages(self) -> list[str]:
        """Return the site's languages, the first at the root."""
        return site_languages(self.site.config)

    def prefix(self, lang: str) -> str:
        """Return the folder of a language's pages: '' for the site's first language, 'es/' for Spanish."""
        return "" if lang == self.languages[0] else lang + "/"

    def environment(self, lang: str) -> jinja2.Environment:
        """Return the templates' environment in one language (see environment.py), with the functions
        of this renderer that work out once what many pages show."""
        env = self.envs.get(lang)
        if env is None:
            env = self.envs[lang] = template_environment(self.folders, lang, self.languages[0])
            env.globals["timeline_entry"] = self.timeline_entry
            env.globals["link_items"] = functools.partial(link_items, memo=self.link_items)
            env.globals["timeline_home"] = self.timeline_home
            env.globals["claims_page"] = self.claims_page
        return env

    def site_in(self, lang: str) -> Site:
        """Return the site as a language shows it: each record with its translation's prose, where it has one."""
        site, views = self.views
        if site is not self.site:
            self.views = (self.site, {})
            views = self.views[1]
        if lang not in views:
            views[lang] = self.site if lang == self.languages[0] else site_in(self.site, lang, untranslated_note(self.languages[0], lang), self.earlier.get(lang))
            self.earlier[lang] = views[lang]
        return views[lang]

    def forget(self) -> None:
        """Drop what was rendered for reuse across pages: the site may have changed since."""
        for kept in (self.timeline_entries, self.homes, self.parts, self.link_items):
            kept.clear()
        self.found_claims = {}

    def timeline_parts(self, view: SiteReads, active: Filter | None) -> dict[Part, list[str] | None]:
        """Return the pages a timeline view is split into (see timeline.split), worked out once for
        all of them. A split view's pages read the month of each of its events as one token, which
        an edit changes when an event is added, removed or now starts in another month (graph.py)."""
        events, key = (active.events, active.url) if active else (view.timeline, "timeline/")
        parts = self.parts.get(key) or split(self.site, events)
        if len(parts) > 1:
            view.reads.add(token("timeline_months", "*"))
            self.parts[key] = parts
        return parts

    def timeline_home(self, site: Site | SiteReads, event: Event) -> str:
        """Return the address of the timeline page that lists an event (its year's or month's on a
        large site), noting that the page that asks reads it."""
        if not self.homes:
            self.homes = homes(self.site)
        if isinstance(site, SiteReads):
            site.reads.add(token("timeline_home", event.id))
        return self.homes[event.id]

    def claims(self, lang: str) -> dict[str, list[Claim]]:
        """Return the site's claims in a language by support level (each language's pages number the
        claims of the bodies they show), worked out once for every claims page."""
        if lang not in self.found_claims:
            self.claim_counts(lang)
            self.found_claims[lang] = self.claim_indexes[lang].found  # type: ignore[assignment]
        return self.found_claims[lang]

    def claim_counts(self, lang: str) -> dict[str, int]:
        """Return how many claims each level has in a language, without gathering them (see ClaimIndex.counts)."""
        index = self.claim_indexes.setdefault(lang, ClaimIndex(None if lang == self.languages[0] else lang))
        return index.counts(self.site_in(lang), self.claims_edited, self.processes)

    def claims_page(self, page: PageContext, level: str | None, number: int) -> dict[str, Any]:
        """Return what a claims page shows: every level with its count and pages (the index), or one
        page of a level's claims with links to the levels and to its other pages. A claims page notes
        no reads: the preview renders it again when what it shows changes (claims_shown)."""
        return claims_page(self.claims(page.lang), page.lang, level, number)

    def claims_version(self) -> tuple[int, ...]:
        """Return the version of the site's claims in each language (ClaimIndex.version), working them out if need be."""
        for lang in self.languages:
            self.claim_counts(lang)
        return tuple(self.claim_indexes[lang].version for lang in self.languages)

    def claims_shown(self) -> dict[str, tuple]:
        """Return what each claims page shows, by output path: the pages an edit changes are those whose entry differs."""
        shown: dict[str, tuple] = {}
        for lang in self.languages:
            prefix, found = self.prefix(lang), self.claims(lang)
            levels = tuple(found)  # a level's pages link to every level, without counts
            shown[output_path(prefix + "claims/")] = tuple((lv, len(claims)) for lv, claims in found.items())
            for level, claims in found.items():
                for number, url in enumerate(page_urls(level, len(claims)), start=1):
                    shown[output_path(prefix + url)] = (levels, len(page_urls(level, len(claims))), page_of(claims, number))
        return shown

    def timeline_entry(self, page: PageContext, event: Event, filtered: bool) -> Markup:
        """Return an event's entry on a timeline page, rendered once for all (a large site's filter pages
        list 100,000), the way up to the root left for each page to fill in; each page reads what it read."""
        event, env = unwrap(event), self.environment(page.lang)
        key = (event.id, filtered and asks_filtered(env), page.lang)
        entry = self.timeline_entries.get(key)
        if entry is None:
            view = SiteReads(page.site)
            html = env.get_template("timeline_event.html").render(site=view, config=page.site.config, rel=functools.partial(rootward, page, self.portable),
                                                                  event=RecordReads(event, view.reads), filtered=filtered, on_filter_pages=on_filter_pages)
            entry = self.timeline_entries[key] = (html, frozenset(view.reads))
        page.tokens.update(entry[1])
        up = "../" * page.url.count("/")
        return Markup(entry_on(entry[0], filtered).replace(ROOTWARD, up).replace(SHARED_ROOTWARD, "../" + up))

    def page(self, template: str | list[str], url: str, *, lang: str | None = None, **values: Any) -> tuple[str, bytes]:
        """Render one page at a site URL (in a language: the site's first by default) and return its
        output path and bytes; note what it read in self.reads."""
        languages = self.languages
        lang = lang or languages[0]
        site = self.site_in(lang)
        context = PageContext(site, url, portable=self.portable, lang=lang, prefix=self.prefix(lang))
        view = SiteReads(site, context.tokens)
        read_site = cast(Site, view)  # the view functions take a Site, and a SiteReads reads as one
        record = values.get("record")
        untranslated = None  # the language a page shows its record's body in, when not the page's own
        if record is not None:
            record = values["record"] = site.get((record.collection, record.id))
            translation = record.translations.get(lang)
            if lang != languages[0] and (translation is None or not translation.body.strip() and values.get("body")):
                untranslated = languages[0]
            values["record"] = RecordReads(record, context.tokens)
            context.tokens.add(token("record", (record.collection, record.id)))
            if "related" in values:
                values["related"] = related(read_site, record)
                if lang != "en":  # each list's heading, the field's declared inverse, in the page's language
                    gettext = translations(lang).gettext
                    for found in values["related"].values():
                        found.heading = gettext(site.model[found.collection].field(found.field).inverse).replace("{name}", record.label)
        if isinstance(values.get("active"), tuple):  # a timeline filter page: its events, as this page reads them
            values["active"] = filter_for(read_site, *values["active"])
        if "part" in values:  # a timeline page: which of its view's pages, and what that page lists
            values.update(timeline_page(read_site, values["active"], values.pop("part"), self.timeline_parts(view, values["active"])))
        body_html = self.body_html(values.pop("body", ""), context, record) if values.get("has_body", True) else Markup("")
        if untranslated and body_html:
            body_html = Markup(f'<div lang="{untranslated}">{body_html}</div>')
        for citation in front_matter_citations(self.site.model, record) if record is not None else ():
            context.reference(citation.source, citation.quote)  # after the body's: its markers are numbered as a reader meets them
        context.tokens.update(body_tokens(context.reads))
        model = self.site.model
        html = self.environment(lang).select_template(template if isinstance(template, list) else [template]).render(
            site=view, config=site.config, page=context, rel=context.rel, body_html=body_html, url=url,
            singular={c: t.singular for c, t in model.items()}, collection_titles={c: t.title for c, t in model.items() if t.indexed},
            lang=lang, alternates=self.alternates(context, record) if url != "404.html" else [], untranslated=untranslated, **values,
        )
        path = output_path(context.site_url)
        self.reads[path] = frozenset(context.tokens)
        return path, add_contents(html, translations(lang).gettext("Contents")).encode("utf-8")

    def body_html(self, body: str, context: PageContext, record: Record | None) -> Markup:
        """Render a body to HTML, or take it from the body cache: a body is kept under a digest of its
        text and its page's address, with what it read of the site as it rendered (context.reads), and
        taken only if the site still gives the same. Its citations are the page's first (see page())."""
        if self.cache is None or record is None or not body:
            return Markup(self.render_body(body, context))
        key = self.cache.key(f"{context.lang}:{catalog_digest(context.lang)}:{context.site_url}", body, self.portable, [])  # a quote's lang depends on the page's, the counts of sources on its catalog
        cached = self.cache.get(key)
        if cached is not None and reads_hold(context.site, cached[2]):  # the site as the page's language shows it
            html, references, context.reads = cached
            context.footnotes.from_cache(references, context.site.records["sources"])
            context.tokens.update(t for r in context.references for t in (token("label", ("sources", r.source.id)), token("record", ("sources", r.source.id))))
            return Markup(html)
        html = self.render_body(body, context)
        self.cache.put(key, (html, context.footnotes.to_cache(), context.reads))
        return Markup(html)

    def render_body(self, body: str, context: PageContext) -> str:
        """Render a body to HTML, each claim anchored and followed by its count of independent sources
        (a body whose every claim rests only on derivatives says so once, before its text)."""
        marked, context.claims = mark_claims(body)
        levels = {context.support_of(number)[0] for number in range(1, len(context.claims) + 1)}
        context.quiet = len(context.claims) > 1 and levels == {DERIVATIVE}
        html = self.bodies.render(marked, context)
        if context.quiet:
            html = f'<p class="page-support">{escape_text(derivative_note(context.lang))}</p>\n{html}'
        return html

    def not_found(self, lang: str) -> tuple[str, bytes]:
        """Render the page a host serves for a missing address, in a language, carrying the page in
        each other language (see 404.html) for a script to show where the address asked for is one
        of that language's: the header, text and footer of each, its title and its interface's strings."""
        others = [not_found_version(other, self.prefix(other), self.page("404.html", "404.html", lang=other, body="", others=None)[1].decode("utf-8"))
                  for other in self.languages if other != lang]
        return self.page("404.html", "404.html", lang=lang, body="", others=others)

    def alternates(self, context: PageContext, record: Record | None = None) -> list[dict[str, str]]:
        """Return the page in each language of the site (none for a site of one): its language, its
        link from this page and its address; and, where that page shows its record's body or summary
        in the site's first language, the words that say so in its own ('sin traducir')."""
        languages = self.languages
        if len(languages) == 1:
            return []
        found = []
        for lang in languages:
            url = self.prefix(lang) + context.url
            note = switch_note(self.site, record, lang) if record is not None and lang != languages[0] else ""
            found.append({"lang": lang, "href": export.absolute(self.site, url) or relative(context.site_url, url, portable=self.portable),
                          "link": relative(context.site_url, url, portable=self.portable), "untranslated": note})
        return found

    def record_page(self, record: Record, lang: str | None = None) -> tuple[str, bytes]:
        """Render the page of one record (in a language), with the records that name it."""
        key: Key = (record.collection, record.id)
        rtype = self.site.model[record.collection]
        lang = lang or self.languages[0]
        shown = self.site_in(lang).get(key)
        body = getattr(shown, rtype.body_field) or ""
        template = "home.html" if key == ("pages", "home") else rtype.page_template
        return self.page([template, "record.html"], record.page_url, lang=lang, record=record, key=key, body=body,
                         record_type=rtype, related={})

    def pages(self) -> dict[str, Callable[[], bytes]]:
        """List every HTML page of the site by output path; each is rendered only when called."""
        site = self.site
        pages: dict[str, Callable[[], bytes]] = {}
        for lang in self.languages:
            prefix = self.prefix(lang)

            def add(template: str, url: str, **values: Any) -> None:
                pages[output_path(prefix + url)] = lambda: self.page(template, url, **values)[1]  # noqa: B023 (add is called in this pass of the loop only)

            for record in site.all_records():
                # By key, so that after an edit the page renders the record as it is then.
                pages[output_path(prefix + record.page_url)] = functools.partial(
                    lambda key, lang: self.record_page(self.site.get(key), lang)[1], (record.collection, record.id), lang)
            if ("pages", "home") not in {(r.collection, r.id) for r in site.all_records()}:
                add("home.html", "", lang=lang, record=None, key=None, body="")
            for collection, rtype in site.model.items():
                if rtype.indexed:
                    add("index.html", f"{collection}/", lang=lang, collection=collection, body="")
            for source in site.records["sources"].values():
                if has_aligned_page(site, source):
                    add("aligned.html", aligned_url(source.id), lang=lang, derivative_id=source.id, body="")
            for part in split(site, site.timeline):
                add("timeline.html", "timeline/" + part.suffix, lang=lang, body="", active=None, part=part)
            all_filters = timeline_filters(site)
            for filters in all_filters.values():
                for active in filters:
                    for part in split(site, active.events) if active.paged else ():  # a record of few events: its own page lists them
                        add("timeline.html", active.url + part.suffix, lang=lang, body="", active=(active.facet, active.value), part=part)
            if len(split(site, site.timeline)) > 1:  # a large timeline lists its filters on a page per facet
                for name, filters in all_filters.items():
                    if filters:
                        add("timeline_filters.html", f"timeline/{name}/", lang=lang, body="", facet=name)
            add("claims.html", "claims/", lang=lang, body="", level=None, number=1)
            for level, count in self.claim_counts(lang).items():
                for number, url in enumerate(page_urls(level, count), start=1):
                    add("claims.html", url, lang=lang, body="", level=level, number=number)
            add("search.html", "search/", lang=lang, body="")
            # A host serves one page for every missing address (some the nearest one above it): each
            # language's says its message in every language, shown by the address asked for.
            pages[output_path(prefix + "404.html")] = functools.partial(lambda lang: self.not_found(lang)[1], lang)
        return pages

    def extras(self, pages: Mapping[str, bytes]) -> dict[str, bytes]:
        """Render the files made from the whole site or from its pages: data exports, search fallback, static assets."""
        languages = self.languages
        several = len(languages) > 1  # then each language's exports say which they hold
        output: dict[str, bytes] = {}
        for lang in languages:
            prefix = self.prefix(lang)
            output.update(export.exports(self.site_in(lang), sorted({*pages, "data/site.json"}), lang if several else None, prefix))
            if self.portable:
                others = tuple(self.prefix(other) for other in languages if other != lang and self.prefix(other))
                output[prefix + "search/fallback.js"] = fallback_index({path[len(prefix):]: data for path, data in pages.items()
                                                                        if path.startswith(prefix) and not path.startswith(others)})
        output.update(image_files(self.site))
        for folder in self.static:
            for file in sorted(folder.rglob("*")):
                relative_path = "static/" + file.relative_to(folder).as_posix()
                if file.is_file() and relative_path not in output and relative_path not in pages:
                    output[relative_path] = file.read_bytes()
        return output

    def render_all(self) -> dict[str, bytes]:
        """Render every page, index, export and asset of the site."""
        output = {path: render() for path, render in self.pages().items()}
        output.update(self.extras(output))
        return output


def output_path(url: str) -> str:
    """Return the file a site URL is written to: 'people/x/' -> 'people/x/index.html'."""
    return url + "index.html" if url == "" or url.endswith("/") else url
