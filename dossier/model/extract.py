"""The words of the model that readers see, gathered for the interface's catalog from the model
itself: babel.cfg runs extract_model() (`make messages-extract`), so that a record type, a heading
under which records are listed back, a timeline facet or a basis declared in the model reaches the
catalog without being restated by hand."""

from __future__ import annotations

from typing import IO, Any, Iterator

from .record_types import BUILT_IN, Model, facet_fields, facet_title


def reader_words(model: Model = BUILT_IN) -> list[str]:
    """Return the words of a model that pages show: each record type's title and singular name, each
    field's heading on the pages of the records it names and its timeline preposition, the title of a
    facet that names no record type ('Tags'), and the bases a date or byline is given with."""
    words: list[str] = []
    for rtype in model.values():
        words += [rtype.title, rtype.singular]
        for spec in rtype.fields:
            words += [word for word in (spec.inverse, spec.facet) if word]
            if spec.name.endswith("_basis") and spec.type.startswith("enum:"):  # shown beside a date or a byline: 'public copy'
                words += [choice.replace("-", " ") for choice in spec.type[5:].split("|")]
    words += [facet_title(model, collection, spec) for _, collection, spec in facet_fields(model)]
    return list(dict.fromkeys(words))


def extract_model(fileobj: IO[bytes], keywords: Any, comment_tags: Any, options: Any) -> Iterator[tuple[int, str, str, list[str]]]:
    """Babel's extraction method for the model (see babel.cfg): each word readers see, at the line of
    the file that declares it (or its first line, where the word is made from a name: 'Tags')."""
    lines = fileobj.read().decode("utf-8").splitlines()
    for word in reader_words():
        line = next((number for number, text in enumerate(lines, start=1) if f'"{word}"' in text), 1)
        yield line, "gettext", word, []
