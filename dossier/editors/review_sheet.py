"""The review sheet written out: as plain text for a terminal (`review`), or as one HTML page for a
browser (`review --html`, and the preview's /_review/), each sentence beside the passages it cites,
what needs a review first.
"""

from __future__ import annotations

import html

from ..model.schema import Record
from .review import Check, RecordSheet, SentenceSheet, by_need


def support_words(item: SentenceSheet) -> str:
    """Return how a sentence's support reads on the sheet."""
    if not item.sentence.sources:
        return "cites no source"
    if item.rests_on:
        return f"rests only on {', '.join(item.rests_on)} (derived from {', '.join(item.independent)})"
    count = len(item.independent)
    return f"single source ({item.independent[0]})" if count == 1 else f"{count} independent sources ({', '.join(item.independent)})"


def text_sheet(found: list[RecordSheet]) -> str:
    """Return the sheet as plain text for a terminal, what needs a review first."""
    out: list[str] = []
    for sheet in by_need(found):
        record = sheet.record
        out += [f"{record.path}: {sheet.title}: {sheet.summary}", ""]
        for item in sheet.sentences:
            mark = "  [changed]" if item.changed else ""
            out.append(f"  {record.path}:{item.sentence.line}: {item.sentence.text}{mark}")
            out.append(f"    {support_words(item)}")
            out += check_lines(distinct(item.checks))
            out.append("")
        for fact in sheet.evidence:
            out.append(f"  {record.path}:{fact.line}: fact {fact.label}")
            out.append(f"    {fact.how}")
            out += check_lines(distinct(fact.checks)) if not fact.how.startswith("derived") else []
            out.append("")
        for line, check in sheet.other_citations:
            out.append(f"  {record.path}:{line}: front matter")
            out += check_lines([check])
            out.append("")
    return "\n".join(out)


def distinct(checks: list[Check]) -> list[Check]:
    """Return the checks once each (a sentence may cite one passage twice)."""
    return list(dict.fromkeys(checks))


def check_lines(checks: list[Check]) -> list[str]:
    """Return the lines showing citations: the whole quote, then the article's sentence around it."""
    lines = []
    for check in checks:
        lines.append(f"    [{check.source}] “{check.quote}”")
        if check.context is None:
            lines.append("      (not found in the stored text)")
        else:
            c = check.context
            lines.append(f"      line {c.line}: …{c.before}»{c.quote}«{c.after}…")
    return lines


def html_sheet(found: list[RecordSheet], title: str = "Review sheet") -> str:
    """Return the sheet as a standalone HTML page: what needs a review first, listed at the top, then
    one section per record, folded (those needing a review open), which a link to it opens alone;
    it reads at a phone's width (no line runs wider than the screen)."""
    e = html.escape
    found = by_need(found)
    waiting = [sheet for sheet in found if sheet.state != "unchanged"]
    done = [sheet for sheet in found if sheet.state == "unchanged"]

    def listed(sheets: list[RecordSheet]) -> str:
        return "".join(f'<li><a href="#{e(anchor(s.record))}">{e(s.record.path)}</a>: {e(s.summary)}</li>' for s in sheets)

    toc = (f'<h2>Needs a review ({len(waiting)})</h2><ul>{listed(waiting)}</ul>' if waiting else "<p>Every record is reviewed and unchanged since.</p>")
    toc += f'<h2>Reviewed and unchanged ({len(done)})</h2><ul>{listed(done)}</ul>' if done else ""
    parts = []
    for sheet in found:
        items = []
        for item in sheet.sentences:
            flag = ' <strong class="changed">changed</strong>' if item.changed else ""
            single = " single" if len(item.independent) == 1 or item.rests_on else ""
            items.append(f'<li><p><span class="line">{item.sentence.line}</span> {e(item.sentence.text)}{flag}</p>'
                         f'<p class="support{single}">{e(support_words(item))}</p>{html_checks(distinct(item.checks))}</li>')
        for fact in sheet.evidence:
            unsupported = " single" if fact.how == "no evidence" else ""
            items.append(f'<li><p><span class="line">{fact.line}</span> Fact: {e(fact.label)}</p><p class="support{unsupported}">{e(fact.how)}</p>'
                         f'{"" if fact.how.startswith("derived") else html_checks(distinct(fact.checks))}</li>')
        for line, check in sheet.other_citations:
            items.append(f'<li><p><span class="line">{e(line)}</span> Front matter</p>{html_checks([check])}</li>')
        state = "" if sheet.state == "unchanged" else " open"
        parts.append(f'<details class="record" id="{e(anchor(sheet.record))}"{state}><summary><h2>{e(sheet.title)} <small>{e(sheet.record.path)}</small></h2>'
                     f'<p class="state {e(sheet.state.replace(" ", "-"))}">{e(sheet.summary)}</p></summary><ol class="sentences">{"".join(items)}</ol></details>')
    return (
        '<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        f"<title>{e(title)}</title>\n<style>{SHEET_STYLE}</style>\n</head>\n<body>\n<main>\n<h1>{e(title)}</h1>\n"
        "<p>Each sentence beside the whole of each quote it cites and the stored article's sentence around it. "
        "What needs a review comes first; open a record to see its sentences.</p>\n"
        f'<nav aria-label="Records">{toc}</nav>\n{"".join(parts)}\n</main>\n<script>{OPEN_TARGET}</script>\n</body>\n</html>\n'
    )


# A link to a record's section (#people-jorge-torres) opens it: a folded <details> would hide its target.
OPEN_TARGET = ("function openTarget(){var t=document.getElementById(decodeURIComponent(location.hash.slice(1)));"
               "if(t&&t.tagName==='DETAILS'){t.open=true;t.scrollIntoView();}}"
               "addEventListener('hashchange',openTarget);openTarget();")


def html_checks(checks: list[Check]) -> str:
    """Return citations as HTML: the quote, then the article's sentence with the quote marked."""
    e = html.escape
    out = []
    for check in checks:
        c = check.context
        around = (f'<blockquote>line {c.line}: …{e(c.before)}<mark>{e(c.quote)}</mark>{e(c.after)}…</blockquote>' if c
                  else "<p>(not found in the stored text)</p>")
        out.append(f'<li><p><cite>{e(check.source)}</cite> <q>{e(check.quote)}</q></p>{around}</li>')
    return f'<ul class="checks">{"".join(out)}</ul>'


SHEET_STYLE = ("body{font:16px/1.5 system-ui,sans-serif;max-width:60rem;margin:1rem auto;padding:0 1rem;color:#222;overflow-wrap:anywhere}"
               "details.record{border-top:1px solid #aaa;margin-top:1rem}summary{cursor:pointer;padding:.25rem 0}summary h2{display:inline;font-size:1.25rem}"
               "summary .state{margin:.25rem 0 0}.line{color:#555;font-size:.85em}ol.sentences,ul.checks{padding-left:1.25rem}"
               ".support{color:#444;font-size:.9em;margin:0}.support.single{color:#8a4b00}.changed{color:#a00}"
               "blockquote{margin:.25rem 0 .5rem .5rem;color:#333}mark{background:#fff1a8;color:#000}"
               "h2 small{font-weight:normal;color:#555;font-size:.7em}.state{font-weight:bold}.state.never-reviewed,.state.changed{color:#a00}"
               "nav h2{font-size:1.1rem}")


def anchor(record: Record) -> str:
    """Return the id of a record's part of the HTML sheet (a translation's: with its language)."""
    lang = getattr(record, "lang", None)
    return f"{record.collection}-{record.id}" + (f"-{lang}" if lang else "")
