"""Provenance in the reading text: a small marker ("inferred") whose note opens on a tap, hover or
focus, and stays in the page's text for screen readers (static/site.js, style.css `.prov`)."""

from __future__ import annotations

import re

from markupsafe import Markup, escape

# A parenthesis that says how a date was established: "(year inferred)", "(date inferred)",
# "(inferred date)", "(inferred from the article's date of about 13 April)"; in a Spanish translation,
# "(año inferido)", "(fecha inferida)".
INFERRED = re.compile(r"\s*\(((?:(?:year |date )?inferred(?: date)?|(?:año |fecha )?inferid[oa])(?:[^()]*))\)")


def marker(note: str, label: str = "inferred") -> Markup:
    """Return a marker whose note is shown on demand, and read in place by screen readers."""
    return Markup('<span class="prov"><button type="button" class="prov-mark">{}</button>'
                  '<span class="prov-note"> ({})</span></span>').format(label, note)


def mark_inferred(text: str | None, label: str = "inferred") -> Markup:
    """Return text with each parenthesis on an inferred date turned into a marker carrying it."""
    if not text:
        return Markup("")
    parts = INFERRED.split(str(escape(text)))
    out = [Markup(parts[0])]
    for note, after in zip(parts[1::2], parts[2::2]):
        out.append(Markup(" ") + marker(Markup(note[0].upper() + note[1:]), label))
        out.append(Markup(after))
    return Markup("").join(out)
