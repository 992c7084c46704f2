"""Preview server (placeholder until live reload): build, then serve site/ on localhost."""

from __future__ import annotations

import functools
import http.server
from pathlib import Path

from .pipeline import build


def serve(root: Path, *, host: str = "127.0.0.1", port: int = 8000) -> int:
    """Build the site and serve it until interrupted."""
    out = root / "site"
    build(root, out)
    handler = functools.partial(http.server.SimpleHTTPRequestHandler, directory=str(out))
    with http.server.ThreadingHTTPServer((host, port), handler) as server:
        print(f"serving http://{host}:{port}/")
        server.serve_forever()
    return 0
