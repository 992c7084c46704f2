"""Build the documentary site: python build.py init|build|check|new|quote|schema|add-source|serve (see --help).

Run with an interpreter that lacks dossier's dependencies (the system python3, after `make
install` put them in .venv), it runs itself again with .venv/bin/python, or says what to run.
"""
import importlib.util
import os
import sys
from pathlib import Path

NEEDED = ("jinja2", "markdown", "yaml", "livereload", "nh3", "slugify")  # what every command imports
HERE = Path(__file__).resolve().parent
VENV = HERE / ".venv"


def missing() -> list[str]:
    """Return the dependencies this interpreter cannot import."""
    return [name for name in NEEDED if importlib.util.find_spec(name) is None]


if missing():
    python = VENV / "bin" / "python"
    if python.exists() and Path(sys.prefix).resolve() != VENV.resolve():
        os.execv(str(python), [str(python), str(HERE / "build.py"), *sys.argv[1:]])
    sys.stderr.write(f"dossier: error: {sys.executable} lacks dossier's dependencies ({', '.join(missing())}): run `make install`, "
                     "or `python3 -m venv .venv && .venv/bin/pip install -e .`, then this command again\n")
    raise SystemExit(2)

from dossier.cli import run  # noqa: E402 (after the check above)

run()
