"""Images on a record's page: each stored image (media/) made at the widths a page may need, so that a
phone loads a small one and a wide screen a sharp one (a `srcset`), each with its width and height
given, so that the page keeps the image's place before it loads (no layout shift)."""

from __future__ import annotations

import io
from dataclasses import dataclass
from pathlib import PurePosixPath
from typing import Any

from ..model.media import Image, MediaFile

WIDTHS = (480, 960, 1440)  # a phone, the reading column, the column on a dense screen
SIZES = "(min-width: 46rem) 42rem, calc(100vw - 2rem)"  # the reading measure, or the screen less the page's margins
FORMATS = {"JPEG": ("JPEG", ".jpg"), "PNG": ("PNG", ".png"), "WEBP": ("WEBP", ".webp")}  # any other is made a PNG
MADE: dict[tuple[str, int], bytes] = {}  # (digest, width) -> bytes: an image is resized once a process, however often the preview rebuilds


@dataclass(frozen=True)
class Variant:
    """One size of an image, as the site publishes it."""

    path: str  # 'media/ferry-960w.png'
    width: int
    height: int


def variants(media: MediaFile) -> list[Variant]:
    """Return the sizes the site publishes of an image: each width of WIDTHS it is wider than, and its own (at most the widest)."""
    widths = sorted({w for w in WIDTHS if w < media.width} | {min(media.width, WIDTHS[-1])})
    name = PurePosixPath(media.name)
    suffix = FORMATS.get(media.format, ("PNG", ".png"))[1]
    return [Variant(f"media/{name.with_suffix('').as_posix()}-{w}w{suffix}", w, max(1, round(media.height * w / media.width))) for w in widths]


def image_view(site: Any, image: Image) -> dict[str, Any]:
    """Return what a page shows of an image: its largest size as src (with its width and height), and every size for srcset."""
    media = getattr(site, "site", site).media[image.file]
    sizes = variants(media)
    return {"src": sizes[-1].path, "width": sizes[-1].width, "height": sizes[-1].height, "variants": sizes, "sizes": SIZES}


def resized(media: MediaFile, variant: Variant) -> bytes:
    """Return an image made at one width, in its own format (a format browsers may not show, as a PNG)."""
    key = (media.digest, variant.width)
    if key not in MADE:
        from PIL import Image as Pillow, ImageOps

        with Pillow.open(media.path) as original:
            picture = ImageOps.exif_transpose(original)  # a photo's orientation, as a camera records it
            kind = FORMATS.get(media.format, ("PNG", ".png"))[0]
            if picture.mode in ("P", "1", "LA", "PA") or picture.mode.startswith("I;"):
                picture = picture.convert("RGBA")  # a palette resamples only by its nearest colours: jagged edges
            if kind == "JPEG" and picture.mode not in ("RGB", "L"):
                picture = picture.convert("RGB")
            if variant.width != picture.width:
                picture = picture.resize((variant.width, variant.height), Pillow.Resampling.LANCZOS)
            out = io.BytesIO()
            options = {"quality": 85, "optimize": True} if kind in ("JPEG", "WEBP") else {"optimize": True}
            picture.save(out, kind, **options)
            MADE[key] = out.getvalue()
    return MADE[key]


def image_files(site: Any) -> dict[str, bytes]:
    """Return every size of every image a record of the site shows, by output path."""
    files: dict[str, bytes] = {}
    for record in site.all_records():
        for image in getattr(record, "images", None) or []:
            media = site.media.get(image.file)
            if media is not None:
                for variant in variants(media):
                    if variant.path not in files:
                        files[variant.path] = resized(media, variant)
    return files
