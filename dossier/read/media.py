"""Reading the project's media/ folder: every stored image with its size and format (Pillow reads a
file's header, not its pixels); a file that is no image Pillow reads is an error at its path."""

from __future__ import annotations

import hashlib
import io
import os
from pathlib import Path

from ..model.media import MediaFile
from ..model.problems import Problem
from .documents import is_editor_artifact

MAX_MEDIA_BYTES = 20_000_000


def read_media(root: Path) -> tuple[dict[str, MediaFile], list[Problem]]:
    """Return every image in media/ by its path there, and the problems of the files that are no images."""
    from PIL import Image, UnidentifiedImageError

    folder = root / "media"
    found: dict[str, MediaFile] = {}
    problems: list[Problem] = []
    if not folder.is_dir():
        return found, problems
    real = os.path.realpath(root)
    for file in sorted(path for path in folder.rglob("*") if path.is_file()):
        name = file.relative_to(folder).as_posix()
        relative = f"media/{name}"
        if any(is_editor_artifact(part) for part in file.relative_to(folder).parts):
            continue
        if not os.path.realpath(file).startswith(real + os.sep):
            problems.append(Problem(relative, 0, 0, "error", f"links to {os.path.realpath(file)}, outside the project; copy the file in instead"))
            continue
        data = file.read_bytes()
        if len(data) > MAX_MEDIA_BYTES:
            problems.append(Problem(relative, 0, 0, "error", f"file is {len(data):,} bytes; the limit is {MAX_MEDIA_BYTES:,} bytes"))
            continue
        try:
            with Image.open(io.BytesIO(data)) as image:
                width, height, kind = image.width, image.height, image.format or ""
        except (UnidentifiedImageError, OSError, ValueError):
            problems.append(Problem(relative, 0, 0, "error", "not an image that can be read (PNG, JPEG, WebP or GIF); remove it from media/ or save it again"))
            continue
        found[name] = MediaFile(name, width, height, kind, hashlib.blake2b(data, digest_size=12).hexdigest(), str(file))
    return found, problems
