"""Find what could run script in an HTML page: the checks the XSS tests apply to every built page."""

from __future__ import annotations

import json
import re
from html.parser import HTMLParser
from pathlib import Path

VECTORS = [
    line.replace("\\n", "\n")
    for line in (Path(__file__).parent / "data/owasp_xss.txt").read_text(encoding="utf-8").splitlines()
    if line.strip()
]
FORBIDDEN_TAGS = {"iframe", "object", "embed", "style", "frame", "frameset", "applet", "base"}
URL_ATTRIBUTES = {
    "href", "src", "action", "formaction", "xlink:href", "background", "data", "poster", "dynsrc", "lowsrc",
    "srcset", "cite", "codebase", "longdesc", "usemap", "icon", "manifest", "ping", "profile",
}
SCRIPT_SCHEMES = ("javascript:", "data:", "vbscript:", "livescript:")
# The site's own inline scripts, exactly as its templates write them (the 404 page finds the site's root).
OWN_SCRIPTS = {
    text for template in (Path(__file__).parent.parent / "dossier/templates").glob("*.html")
    for text in re.findall(r"<script>(.*?)</script>", template.read_text(encoding="utf-8"), re.S)
}
BAD_STYLE = re.compile(r"url\s*\(|expression|javascript|behavior|binding|@import|\\|/\*", re.I)


def url_is_script(value: str) -> bool:
    """Tell whether a URL attribute (entities already decoded) would run as script or load inline data."""
    # Browsers drop ASCII white space and control characters anywhere in the scheme.
    squeezed = re.sub(r"[\x00-\x20\x7f]+", "", value).lower().lstrip("`'\"")  # old IE took `quoted` values
    return squeezed.startswith(SCRIPT_SCHEMES)


class _Inspector(HTMLParser):
    # Parse like a browser with scripting on: no tags inside these, so that a '</noscript>' hidden in
    # an attribute ends the element and what follows it is inspected (mutation XSS).
    CDATA_CONTENT_ELEMENTS = ("script", "style", "noscript", "xmp", "iframe", "noembed", "noframes", "title", "textarea")

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.findings: list[str] = []
        self.json_ld: list[str] = []
        self._script: list[str] | None = None
        self._inline: list[str] | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = {name: value or "" for name, value in attrs}
        if tag == "script":
            kind = values.get("type", "").lower()
            src = values.get("src", "")
            if kind == "application/ld+json" and not src:
                self._script = []
            elif not kind and not src and not attrs:
                self._inline = []  # allowed only if it is one of the site's own (see handle_endtag)
            elif src and ":" not in src and not src.startswith("//") and re.search(r"(^|/)static/[\w./-]+\.js$", src):
                pass  # the site's own script, shipped in static/
            else:
                self.findings.append(f"<script {' '.join(f'{k}={v!r}' for k, v in attrs)}>")
        if tag in FORBIDDEN_TAGS:
            self.findings.append(f"<{tag}> element")
        if tag == "meta" and values.get("http-equiv", "").lower() in ("refresh", "set-cookie", "content-type", "link"):
            self.findings.append(f"<meta http-equiv={values['http-equiv']!r}>")
        for name, value in values.items():
            if name.startswith("on"):
                self.findings.append(f"event handler {name}={value!r} on <{tag}>")
            if name in URL_ATTRIBUTES and url_is_script(value):
                self.findings.append(f"script URL {name}={value!r} on <{tag}>")
            if name == "style" and BAD_STYLE.search(value):
                self.findings.append(f"style attribute {value!r} on <{tag}>")

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.handle_starttag(tag, attrs)
        if tag == "script":
            self.handle_endtag(tag)

    def handle_data(self, data: str) -> None:
        if self._script is not None:
            self._script.append(data)
        if self._inline is not None:
            self._inline.append(data)

    def handle_endtag(self, tag: str) -> None:
        if tag == "script" and self._inline is not None:
            raw = "".join(self._inline)
            self._inline = None
            if raw not in OWN_SCRIPTS:
                self.findings.append(f"inline <script>: {raw[:80]!r}")
        if tag == "script" and self._script is not None:
            raw = "".join(self._script)
            self._script = None
            self.json_ld.append(raw)
            try:
                json.loads(raw)
            except ValueError:
                self.findings.append(f"JSON-LD that is not JSON (broken out of?): {raw[:80]!r}")
            if "</" in raw or "<!--" in raw:
                self.findings.append(f"JSON-LD with an unescaped '</' or '<!--': {raw[:80]!r}")


def inspect_html(html: str) -> tuple[list[str], list[str]]:
    """Return (what in this page could run script, the raw text of its JSON-LD blocks)."""
    inspector = _Inspector()
    inspector.feed(html)
    inspector.close()
    return inspector.findings, inspector.json_ld


def unsafe(html: str) -> list[str]:
    """Return what in this page could run script or load active content; [] when it is safe."""
    return inspect_html(html)[0]
