"""Import a saved article: its text into seeds/, its metadata into a new content/sources/ file.

The text is extracted by trafilatura. The metadata is read by pagemeta.py, from the page's JSON-LD
(`NewsArticle` and the other article types), Open Graph and `<meta>` tags, so that every value
can say where it came from; a value the page does not give is left empty and named. Nothing is
written until every step has succeeded.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterator

from .pagemeta import FIELDS, Found, Metadata, clean, page_metadata
from ..model.problems import UsageError, counted
from ..read.documents import MAX_SEED_BYTES
from ..model.slug import fold_id, is_valid_id

MAX_ID_LENGTH = 60
# Extracted text made mostly of the page's link texts is a list of links (a section front, a menu), not an article.
MAX_LINK_SHARE = 0.5
REQUIRED = ("title", "outlet", "language")  # a source file without them does not pass check


@dataclass(frozen=True)
class Imported:
    """What add_source wrote."""

    id: str
    seed_path: Path
    source_path: Path
    paragraphs: int
    words: int
    metadata: Metadata

    @property
    def missing(self) -> list[str]:
        return [name for name in FIELDS if self.metadata.found[name] is None]


# --- reading the page ---------------------------------------------------------------------------


def read_page(path: Path) -> tuple[str, Any]:
    """Return a saved page's text and its parsed HTML tree; UsageError when it is not readable HTML."""
    try:
        from trafilatura.utils import decode_file, load_html
    except ImportError as error:
        raise UsageError(f"add-source needs trafilatura ({error}): pip install -e .") from None
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        raise UsageError(f"{path} does not exist") from None
    except IsADirectoryError:
        raise UsageError(f"{path} is a folder, not a saved page") from None
    except OSError as error:
        raise UsageError(f"cannot read {path}: {error.strerror or error}") from None
    text = decode_file(data) if data.strip() else ""
    tree = load_html(text) if text and "\x00" not in text else None
    if tree is None:
        raise UsageError(f"{path} is not readable HTML: save the article's page as HTML and try again")
    return text, tree


# --- the article's text --------------------------------------------------------------------------


BLOCKS = {"p", "head", "item", "row", "code", "quote"}


def block_text(element: Any) -> str:
    """Return an extracted block's text, with its line breaks (<lb/>) and table cells kept apart."""
    parts = [element.text or ""]
    for child in element:
        if child.tag == "lb":
            parts.append("\n")
        elif child.tag == "cell":
            parts.append(" | " if parts[-1].strip() else "")
            parts.append(block_text(child))
        else:
            parts.append(block_text(child))
        parts.append(child.tail or "")
    return "".join(parts)


def blocks(element: Any) -> Iterator[str]:
    """Yield the text of every paragraph-level block of trafilatura's XML, in order."""
    for child in element:
        if child.tag in BLOCKS and not any(grandchild.tag in BLOCKS for grandchild in child):
            text = "\n".join(" ".join(line.split()) for line in block_text(child).split("\n"))
            text = "\n".join(line for line in text.split("\n") if line)
            if text:
                yield text
        elif child.tag not in ("lb", "graphic"):
            yield from blocks(child)


def article_text(page: str, tree: Any, title: str | None, name: str) -> list[str]:
    """Return the article's paragraphs as trafilatura extracts them; UsageError when there is no article."""
    import trafilatura
    from lxml import etree

    extracted = trafilatura.extract(page, output_format="xml", include_comments=False, include_tables=True,
                                    include_images=False, include_links=False)
    if not extracted:
        raise UsageError(f"{name} has no article text that could be extracted (is it an index or navigation page?); nothing written")
    main = etree.fromstring(extracted.encode("utf-8")).find("main")
    paragraphs = list(blocks(main)) if main is not None else []
    if paragraphs and title and " ".join(paragraphs[0].split()) == title:
        paragraphs = paragraphs[1:]  # the headline is the source's title, not its text
    if not paragraphs:
        raise UsageError(f"{name} has no article text that could be extracted (is it an index or navigation page?); nothing written")
    text_size = sum(len(p) for p in paragraphs)
    joined = " ".join(" ".join(p.split()) for p in paragraphs)
    link_texts = {clean(a.text_content()) for a in tree.iter("a")}
    linked = sum(len(t) for t in link_texts if len(t.split()) >= 3 and t in joined)  # headlines, not "World" or "Read more"
    if linked > MAX_LINK_SHARE * text_size:
        raise UsageError(f"{name} looks like a list of links (its extracted text is mostly link titles), not an article; nothing written")
    return paragraphs


# --- the source file ----------------------------------------------------------------------------


# Characters a YAML file may not hold as they are, or that YAML reads as line breaks or a byte-order mark.
UNPRINTABLE = re.compile("[^\x20-\x7e\xa0-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]|[\u2028\u2029\ufeff]")


def quote(text: str) -> str:
    """Return text as a YAML double-quoted scalar: JSON's escapes are YAML's, and the characters
    YAML forbids or reads as line breaks are escaped too."""
    return UNPRINTABLE.sub(lambda match: f"\\u{ord(match.group()):04x}", json.dumps(text, ensure_ascii=False))


def origin_comment(found: Found | None, required: bool, hint: str) -> str:
    """Say where a value came from, or what to fill in."""
    if found is None:
        return f"not found in the page: fill in {hint}" + (" (required: check fails until then)" if required else "")
    return f"from {found.origin}" + (f" ({found.raw})" if found.raw else "") + "".join(f"; {other}" for other in found.others)


def source_yaml(metadata: Metadata, seed: str, page_name: str) -> str:
    """Return the new source file: every field of a source, each found value marked with where it came from."""
    f = metadata.found

    def line(key: str, value: str, comment: str) -> str:
        return f"{key}: {value}  # {comment}"

    byline, published = f["byline"], f["published"]
    return "\n".join([
        line("title", quote(f["title"].value) if f["title"] else '""', origin_comment(f["title"], True, "the headline")),
        line("outlet", quote(f["outlet"].value) if f["outlet"] else '""', origin_comment(f["outlet"], True, "the publisher")),
        line("byline", "[" + ", ".join(quote(n) for n in byline.value) + "]" if byline else "[]", origin_comment(byline, False, "the authors")),
        line("byline_basis", "stated" if byline else '""',
             "the page's own metadata names the authors" if byline else "stated, inferred or public-copy, once the byline is filled in"),
        line("published", published.value if published else '""', origin_comment(published, False, "an EDTF date such as 2019-02-23")),
        line("published_basis", "stated" if published else '""',
             "the page's own metadata states the date" if published else "stated, inferred or public-copy, once the date is filled in"),
        line("published_note", '""', "how the date was established, where it is not stated"),
        line("url", quote(f["url"].value) if f["url"] else '""', origin_comment(f["url"], False, "the original's address, if known")),
        line("language", quote(f["language"].value) if f["language"] else '""', origin_comment(f["language"], True, "a language code such as en")),
        line("seed", quote(seed), f"the article's text, extracted from {page_name}"),
        line("derived_from", '""', "the source a translation or copy derives from"),
        line("inserted_lines", "[]", "line prefixes a republisher inserted, such as 'WATCH:'"),
        line("notes", '""', "Markdown notes on reliability; may cite"),
    ]) + "\n"


# --- the command --------------------------------------------------------------------------------


def default_id(title: str) -> str:
    """Fold a title to an id of at most MAX_ID_LENGTH characters, cut between words."""
    rid = fold_id(title)
    while len(rid) > MAX_ID_LENGTH and "-" in rid:
        rid = rid.rpartition("-")[0]
    return rid[:MAX_ID_LENGTH].strip("-")


def add_source(root: Path, page_path: Path, rid: str | None = None) -> Imported:
    """Extract a saved page into seeds/<id>.txt and content/sources/<id>.yaml; write nothing unless every step succeeds."""
    if not (root / "content").is_dir():
        raise UsageError(f"{root} has no content/ folder: give the project folder with --source")
    if rid is not None and not is_valid_id(rid):
        raise UsageError(f"--id should be an id such as '{fold_id(rid) or 'ap-desertion'}', not {rid!r}")
    page, tree = read_page(page_path)
    metadata = page_metadata(tree)
    title = metadata.found["title"]
    if rid is None:
        rid = default_id(title.value) if title else ""
        if not rid:
            raise UsageError(f"{page_path} has no title to make an id from: give one with --id")
    paragraphs = article_text(page, tree, title.value if title else None, str(page_path))
    seed_text = "\n\n".join(paragraphs) + "\n"
    if len(seed_text.encode("utf-8")) > MAX_SEED_BYTES:
        raise UsageError(f"the article's text from {page_path} is over {MAX_SEED_BYTES // 1_000_000} MB, more than a seed may hold")
    url = metadata.found["url"]
    stored = stored_as(root, url.value if url else None, seed_text)
    if stored:  # before the id's files: saving the same page again is the likelier mistake
        raise UsageError(f"{page_path} is stored already, as '{stored[0]}' ({stored[1]}); nothing written")
    seed_path = root / "seeds" / f"{rid}.txt"
    source_path = root / "content" / "sources" / f"{rid}.yaml"
    for path in (source_path, seed_path):
        if path.exists():
            raise UsageError(f"{path} already exists; choose another id with --id")
    source_text = source_yaml(metadata, seed_path.name, page_path.name)
    write_new({seed_path: seed_text, source_path: source_text})
    return Imported(rid, seed_path, source_path, len(paragraphs), len(seed_text.split()), metadata)


def address_key(url: str) -> str:
    """Return an address as compared with another: without its scheme, 'www.', fragment or final '/'."""
    return re.sub(r"^https?://(?:www\.)?", "", url.split("#")[0]).rstrip("/").lower()


def stored_as(root: Path, url: str | None, text: str) -> tuple[str, str] | None:
    """Return the id of the source that already holds this page, and how it shows (the same address in
    its file, or the same text in its seed), or None."""
    from ..read.frontmatter import load_yaml

    words = text.split()
    folder = root / "content" / "sources"
    for path in sorted(folder.glob("*.y*ml")) if folder.is_dir() else []:
        try:
            meta, _, _ = load_yaml(path.read_text(encoding="utf-8"), str(path))
        except (OSError, UnicodeDecodeError):
            continue
        if not isinstance(meta, dict):
            continue
        given = meta.get("url")
        if url and isinstance(given, str) and given and address_key(given) == address_key(url):
            return path.stem, f"content/sources/{path.name} has its address, {given}"
        seed = root / "seeds" / str(meta.get("seed") or "")
        try:
            if seed.is_file() and seed.read_text(encoding="utf-8").split() == words:
                return path.stem, f"seeds/{seed.name} holds the same text"
        except (OSError, UnicodeDecodeError):
            continue
    return None


def write_new(files: dict[Path, str]) -> None:
    """Create every file, none of which may exist; on any failure remove the ones made."""
    made: list[Path] = []
    try:
        for path, text in files.items():
            path.parent.mkdir(parents=True, exist_ok=True)
            with path.open("x", encoding="utf-8", newline="\n") as handle:
                made.append(path)
                handle.write(text)
    except OSError as error:
        for path in made:
            path.unlink(missing_ok=True)
        if isinstance(error, FileExistsError) and error.filename in {str(path) for path in files}:  # made meanwhile
            raise UsageError(f"{error.filename} already exists; choose another id with --id") from None
        raise UsageError(f"cannot write {error.filename}: {error.strerror or error}") from None


def summary(imported: Imported) -> list[str]:
    """Return the lines the command prints: what was written, where each value came from, what is missing."""
    lines = [f"created {imported.seed_path}: {counted(imported.paragraphs, 'paragraph')}, {counted(imported.words, 'word')}",
             f"created {imported.source_path}"]
    for name in FIELDS:
        found = imported.metadata.found[name]
        if found is not None:
            lines.append(f"  {name}: from {found.origin}")
    for note in imported.metadata.ignored:
        lines.append(f"  ignored: {note}")
    missing = imported.missing
    if missing:
        lines.append(f"not found in the page: {', '.join(missing)}; fill {'it' if len(missing) == 1 else 'them'} in {imported.source_path}")
        required = [name for name in missing if name in REQUIRED]
        if required:
            lines.append(f"check fails until {' and '.join(required)} {'is' if len(required) == 1 else 'are'} filled in")
    return lines
