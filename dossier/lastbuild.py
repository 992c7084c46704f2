"""The last build's state, kept in .dossier-cache/: a summary to tell at once that nothing changed,
and the session itself, so that the next build reads, relinks and renders only what changed since."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from . import cache
from .cache import BodyCache
from .inputs import scan_inputs
from .problems import Problem
from .session import Session

@dataclass
class Summary:
    """What a build leaves for the next one to check quickly: its inputs, its output files and problems."""

    inputs: dict[str, bytes]  # digest of every input file
    published: tuple[str, dict[str, tuple[int, int]]]  # where it went, and each file's size and time
    problems: list[Problem]


def intact(published: tuple[str, dict[str, tuple[int, int]]] | None, out: Path) -> bool:
    """Tell whether out still holds exactly the files a build published there, as it left them: the
    same size, and the same time of last change to within a second (an archive keeps whole seconds,
    or a rounded fraction of one: a deploy restores the last site from one)."""
    if published is None or published[0] != str(out.resolve()):
        return False
    for path, expected in published[1].items():
        try:
            stat = (out / path).stat()
        except OSError:
            return False
        size, changed = expected
        if stat.st_size != size or abs(stat.st_mtime_ns - changed) >= 1_000_000_000:
            return False
    return True


def last_build(root: Path, out: Path, options: tuple) -> tuple[Summary | None, dict[str, bytes]]:
    """Return the last build's summary when no input changed since and out is as it left it (there
    is nothing to do), and the digests of the inputs as they are now."""
    inputs = scan_inputs(root)
    summary = cache.load(cache.state_file(root, options, "summary"))
    if isinstance(summary, Summary) and summary.inputs == inputs and intact(summary.published, out):
        return summary, inputs
    return None, inputs


def open_session(root: Path, out: Path, *, portable: bool = False, base_url: str | None = None, use_cache: bool = True,
                 inputs: dict[str, bytes] | None = None, drafts: str = "out") -> tuple[Session, Path | None]:
    """Return a session for building root into out, brought up to date, and the folder holding its
    last output (None when everything must be rendered): restored from the cache when the last build
    used the same code and options, else loaded afresh. inputs are the input digests, if known."""
    session = cache.load(cache.state_file(root, (portable, base_url, drafts))) if use_cache else None
    previous: Path | None = None
    if isinstance(session, Session) and session.site is not None:
        session.inputs.root = root
        changed = session.inputs.changed(inputs)
        if changed:
            session.take(session.inputs.refresh(changed))
        previous = out if intact(session.published, out) and set(session.published[1]) == set(session.written) else None  # type: ignore[index]
    else:
        session = Session(root, portable=portable, base_url=base_url, drafts=drafts)
        session.load()
    session.body_cache = BodyCache(root / cache.FOLDER / "bodies.sqlite") if use_cache else None
    return session, previous


def close_session(session: Session, out: Path, use_cache: bool = True) -> None:
    """Note what the build published, and keep the session (and a summary of it) for the next build."""
    files = {}
    for path in session.written:
        stat = (out / path).stat()
        files[path] = (stat.st_size, stat.st_mtime_ns)
    session.published = (str(out.resolve()), files)
    if session.body_cache is not None:
        session.body_cache.close()
    if use_cache:
        options = (session.portable, session.base_url, session.draft_mode)
        cache.save(cache.state_file(session.root, options, "summary"), None)  # never a summary without its session
        cache.save(cache.state_file(session.root, options), session)
        cache.save(cache.state_file(session.root, options, "summary"), Summary(session.inputs.digests, session.published, session.problems))
