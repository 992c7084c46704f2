"""Images a record shows: each a file of the project's media/ folder, with what it shows (its alt
text), who made it (its credit) and where it comes from (a source, or the licence it is under)."""

from __future__ import annotations

from dataclasses import dataclass

from .schema import spec


@dataclass(frozen=True, kw_only=True)
class Image:
    """One image of a record, shown on its page."""

    file: str = spec("text", required=True, doc="its file in media/: ferry.jpg")
    alt: str = spec("text", required=True, doc="what it shows, in words, for a reader who cannot see it", translate=True)
    caption: str | None = spec("text", doc="a line under it", translate=True)
    credit: str = spec("text", required=True, doc="who made it: 'Photo: Ana Ruiz / The Daily Record'")
    source: str | None = spec("id:sources", doc="the source it comes from, by its id (or give its licence)")
    licence: str | None = spec("text", doc="the licence it is published under, where it comes from no source: 'CC BY 4.0'")


@dataclass(frozen=True)
class MediaFile:
    """A stored image, as the reading stage found it: its size in pixels, its format and a digest of its bytes."""

    name: str  # its path in media/: 'ferry.png', 'people/ana.jpg'
    width: int
    height: int
    format: str  # Pillow's: 'PNG', 'JPEG', 'WEBP', ...
    digest: str
    path: str  # the file, for the renderer to make its sizes from
