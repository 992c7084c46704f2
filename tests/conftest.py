"""Shared fixtures: tiny test sites written inline, and the real project's folder."""

from __future__ import annotations

import os
import shutil
import textwrap
from pathlib import Path

import pytest

PROJECT = Path(__file__).resolve().parent.parent
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
    "--disable-component-update", "--disable-sync", "--disable-dev-shm-usage",
]

SEED = (
    "Sgt. Jorge Torres drove an armoured truck across the bridge.\n"
    "“We’re going to change history,” Torres said.\n"
    "WATCH: something promotional\n"
)
SPOKE = '[@ap "We\'\'re going to change history"]'  # facts cite the passages their bodies cite, keeping the reference numbers
BASE_FILES = {
    "content/site.yaml": "title: Test dossier\nlanguage: en\n",
    "content/sources/ap.yaml": "title: AP story\noutlet: The Associated Press\nlanguage: en\nseed: ap.txt\ninserted_lines: ['WATCH:']\n",
    "seeds/ap.txt": SEED,
    "content/people/jorge-torres.md": (
        "---\nname: Jorge Torres\naliases: [Jorge Torres]\nsummary: A sergeant.\nplaces: [cucuta]\n"
        "evidence: {places: {cucuta: \"[@ap \\\"drove an armoured truck across the bridge\\\"]\"}}\n---\n"  # escaped: an edit of the body's marker leaves it
        'Torres drove a truck.[@ap "drove an armoured truck across the bridge"] See [[aid-convoy]].\n'
    ),
    "content/events/aid-convoy.md": (
        "---\ntitle: Aid convoy\ndate: 2019-02-23\npeople: [jorge-torres]\nplaces: [cucuta]\nsummary: The convoy.\n"
        f"evidence: {{date: '{SPOKE}', people: {{jorge-torres: '{SPOKE}'}}, places: {{cucuta: '{SPOKE}'}}}}\n---\n"
        'Torres spoke.[@ap "We\'re going to change history"]\n'
    ),
    "content/places/cucuta.md": "---\nname: Cúcuta\nsummary: A border city.\n---\nA city.[@ap \"across the bridge\"]\n",
}


def write_site(root: Path, files: dict[str, str | bytes | None], *, base: bool = True) -> Path:
    """Write a project folder from {relative path: text}; None removes a base file."""
    merged: dict[str, str | bytes | None] = {**BASE_FILES, **files} if base else dict(files)
    for relative, text in merged.items():
        if text is None:
            continue
        path = root / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(text, bytes):
            path.write_bytes(text)
        else:
            path.write_text(text if relative.startswith("seeds/") else textwrap.dedent(text), encoding="utf-8")
    return root


@pytest.fixture
def make_site(tmp_path: Path):
    """Return a function that writes a small project into a fresh folder and returns its path."""
    counter = iter(range(1000))

    def make(files: dict[str, str | bytes | None] | None = None, *, base: bool = True) -> Path:
        root = tmp_path / f"project{next(counter)}"
        root.mkdir()
        return write_site(root, files or {}, base=base)

    return make


@pytest.fixture(scope="session")
def real_site(tmp_path_factory) -> Path:
    """Build the real documentary once into a temporary folder and return it."""
    from dossier.pipeline import build

    out = tmp_path_factory.mktemp("real") / "site"
    build(PROJECT, out)
    return out


def chromium_or_skip() -> str:
    """Return the chromium path, skipping (or failing under CI=true) when it is missing."""
    if Path(CHROMIUM).exists():
        return CHROMIUM
    message = "Debian's chromium is not installed: run `apt-get install -y --no-install-recommends chromium` to run browser tests"
    if os.environ.get("CI") == "true":
        pytest.fail(message)
    pytest.skip(message)


@pytest.fixture(scope="session")
def browser():
    """A headless chromium driven by Playwright, shared by the session."""
    path = chromium_or_skip()
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        instance = playwright.chromium.launch(executable_path=path, headless=True, args=CHROMIUM_ARGS)
        yield instance
        instance.close()


@pytest.fixture
def page(browser):
    """A fresh browser page; console errors are collected in page.console_errors."""
    context = browser.new_context()
    page = context.new_page()
    page.console_errors = []
    page.on("console", lambda message: message.type == "error" and page.console_errors.append(message.text))
    yield page
    context.close()


@pytest.fixture
def package_theme(tmp_path: Path, monkeypatch) -> Path:
    """Point dossier at a copy of the theme its package ships, for a test to edit; return the copy."""
    from dossier.render import theme

    copy = tmp_path / "installed/dossier/templates"
    shutil.copytree(theme.PACKAGE_TEMPLATES, copy)
    monkeypatch.setattr(theme, "PACKAGE_TEMPLATES", copy)
    monkeypatch.setattr(theme, "THEME_ROOT", copy.parent.parent)
    return copy


@pytest.fixture
def package_catalogs(tmp_path: Path, monkeypatch):
    """Point dossier at a copy of the interface catalogs its package ships (dossier/locale/), for a
    test to edit; return the copy."""
    from dossier.model import i18n

    copy = tmp_path / "installed/dossier/locale"
    shutil.copytree(i18n.LOCALE, copy)
    monkeypatch.setattr(i18n, "LOCALE", copy)
    i18n.forget_catalogs()
    yield copy
    i18n.forget_catalogs()  # the next test reads the package's own again


def copy_project(destination: Path) -> Path:
    """Copy the real project's content and seeds (and its templates/, if it has any) to a scratch folder."""
    for name in ("content", "seeds", "templates"):
        if (PROJECT / name).is_dir():
            shutil.copytree(PROJECT / name, destination / name)
    return destination


def tree(folder: Path) -> dict[str, bytes]:
    """Return every file of a folder by relative path."""
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def edit(root: Path, path: str, old: str, new: str, *, later: bool = False) -> None:
    """Replace the first occurrence of old in a project file, which must hold it; later: its time
    set 3 s on, as if saved later (a build's scan must then read it whatever its size)."""
    file = root / path
    text = file.read_text(encoding="utf-8")
    assert old in text
    file.write_text(text.replace(old, new, 1), encoding="utf-8")
    if later:
        stat = file.stat()
        os.utime(file, ns=(stat.st_atime_ns, stat.st_mtime_ns + 3_000_000_000))
