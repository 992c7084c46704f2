"""Publishing stage: stage the whole site in a folder beside the output, then swap it into place, so
that a failed or killed build leaves the old site intact.

Files are written through this module's functions: the render sinks (sinks.py) write pages and
exports into the staging folder with them, and the preview updates its folder with
update_in_place. Pagefind's runs (search.py) write the search index into the staging folder
before the swap.
"""

from __future__ import annotations

import contextlib
import os
import secrets
import shutil
import sys
import threading
from pathlib import Path, PurePosixPath
from typing import Iterable, Iterator

from ..model.problems import UsageError
from .folders import MARKER, MARKER_NOTE, FolderTimes, changed_folders, listed_files, remove_tree, walk_files
from .patch import commit, committed, roll_forward

PROJECT_FOLDERS = ("content", "templates", "seeds")
SEARCH_TEXTS = ".search-text"  # in a staging folder: each searchable page's text as Pagefind reads it (search/pagetext.py), never published
# Where a build puts those texts instead, if the system has it: memory-backed scratch space (tmpfs).
# Each text is written once, read once by Pagefind and deleted; on a journalling disk, making and
# deleting their 10,000 files and folders at 10,000 records took 3 s of a 50-60 s cold build (three
# builds each way, alternating). At least SCRATCH_ROOM must be free there (the texts of 10,000
# records take about 50 MB, 34 MB of text in 4 KB pages; each part's go once Pagefind has read them).
SCRATCH = Path("/dev/shm")
SCRATCH_ROOM = 2 << 30
SCRATCH_TEXTS = "dossier-search-text-"  # and a build's process number


def check_output(out: Path, project: Path, known: FolderTimes | None = None) -> None:
    """Refuse an output folder the build must not replace: project folders, or one it did not make
    (known: its folders' times, as noted when the last build published it there)."""
    out, project = out.resolve(), project.resolve()
    protected = [project] + [project / name for name in PROJECT_FOLDERS]
    for folder in protected:
        if out == folder or folder.is_relative_to(out) or (folder != project and out.is_relative_to(folder)):
            raise UsageError(f"refusing to write the site to {out}: it would replace {folder}")
    if out.is_file():
        raise UsageError(f"refusing to write the site to {out}: it is a file")
    if out.is_dir() and any(out.iterdir()) and not (out / MARKER).exists():
        raise UsageError(f"refusing to write the site to {out}: the folder is not empty and was not made by dossier")
    foreign = files_not_made(out, known)
    if foreign:
        shown = ", ".join(foreign[:3]) + (f" and {len(foreign) - 3} more" if len(foreign) > 3 else "")
        raise UsageError(f"refusing to write the site to {out}: it holds files dossier did not make ({shown}); move them out first")


def files_not_made(out: Path, known: FolderTimes | None = None) -> list[str]:
    """Return the files in a site folder that its last build did not write (added by hand, say).
    known: its folders' times as noted when it was published (folders.FolderTimes): then only the
    folders whose time changed since are listed (21,000 files walked take about 130 ms)."""
    made = listed_files(out)
    if not made:
        return []  # a marker from before markers listed their files
    if known is None:
        return sorted(path for path in walk_files(out, follow=True) if path not in made and path != MARKER)
    folders, found = known[1], []
    for folder in changed_folders(out, known):
        try:
            entries = list(os.scandir(out / folder))
        except OSError:  # no longer a folder: its parent's listing finds what took its place
            continue
        for entry in entries:
            path = f"{folder}/{entry.name}" if folder else entry.name
            if not entry.is_dir():
                found.append(path)
            elif path not in folders:  # a folder of the site's is listed if its own time changed
                found += [f"{path}/{inner}" for inner in walk_files(Path(entry.path), follow=True)]
    return sorted(path for path in found if path not in made and path != MARKER)


def abandoned(folder: Path) -> bool:
    """Tell whether a staging or moved-aside folder was left by a process that no longer runs."""
    pid = folder.name.rpartition("-")[2]
    if not pid.isdigit() or int(pid) == os.getpid() or os.name != "posix":
        return True
    try:
        os.kill(int(pid), 0)  # signal 0 only asks whether the process exists
    except ProcessLookupError:
        return True
    except OSError:
        return False  # exists, but belongs to someone else
    return False


@contextlib.contextmanager
def exclusive(out: Path) -> Iterator[None]:
    """Let one build at a time publish to a folder: a second build of it waits for the first to finish.
    The lock is an advisory lock on a file beside the folder, removed by the build that holds it."""
    out = out.resolve()
    lock = out.parent / f".{out.name}.lock"
    try:
        import fcntl
        out.parent.mkdir(parents=True, exist_ok=True)
    except (ImportError, OSError):  # no advisory locks here, or no room beside the folder: publish() will say so
        yield
        return
    said = False
    while True:
        handle = open(lock, "a")
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            if not said:
                print(f"dossier: waiting for another build into {out} to finish", file=sys.stderr, flush=True)
                said = True
            fcntl.flock(handle, fcntl.LOCK_EX)
        try:  # the build that held it may have removed the file meanwhile: then lock the new one
            if os.stat(lock).st_ino == os.fstat(handle.fileno()).st_ino:
                break
        except FileNotFoundError:
            pass
        handle.close()
    try:
        yield
    finally:
        lock.unlink(missing_ok=True)  # while still holding it, so that a waiter sees it went and tries again
        handle.close()


def recover(out: Path) -> None:
    """Undo what an interrupted publish left: restore a moved-aside site, remove stray staging folders
    (and the texts for search that builds no longer running left in scratch space).

    Folders of a build still running (another process publishing to the same place) are left alone.
    """
    for texts in SCRATCH.glob(SCRATCH_TEXTS + "*") if SCRATCH.is_dir() else ():
        if abandoned(texts):
            shutil.rmtree(texts, ignore_errors=True)
    out = out.resolve()
    parent = out.parent
    if not parent.is_dir():
        return
    olds = sorted(folder for folder in parent.glob(f".{out.name}.old-*") if abandoned(folder))
    if olds and not out.exists():
        olds[-1].rename(out)
        olds = olds[:-1]
    staging = sorted(folder for folder in parent.glob(f".{out.name}.staging-*") if abandoned(folder))
    for folder in staging:
        if committed(folder) and out.is_dir():  # its publish had begun: finish it
            roll_forward(folder, out).join()
    for stray in olds + staging:
        remove_tree(stray)


def scratch() -> Path | None:
    """Return memory-backed scratch space (SCRATCH) if the system has it, with room."""
    try:
        room = os.statvfs(SCRATCH)
        return SCRATCH if os.access(SCRATCH, os.W_OK) and room.f_bavail * room.f_frsize >= SCRATCH_ROOM else None
    except (OSError, AttributeError):  # no such place, or no statvfs (not POSIX)
        return None


def scratch_texts(place: Path) -> Path:
    """Return a new folder's name in place for the pages' texts for search, which names this process
    (see abandoned(): in scratch space, recover() deletes it once the process no longer runs)."""
    return place / f"{SCRATCH_TEXTS}{secrets.token_hex(4)}-{os.getpid()}"


def texts_folder(staging: Path) -> Path:
    """Return where a build staged in this folder writes the pages' texts for Pagefind: a folder of
    its own in scratch space where there is some, else in the staging folder."""
    space = scratch()
    return scratch_texts(space) if space else staging / SEARCH_TEXTS


def inside(folder: Path, relative: str) -> Path:
    """Return where a site file goes in folder, refusing paths that would lead out of it."""
    parts = PurePosixPath(relative).parts
    if not parts or relative.startswith("/") or "\\" in relative or ".." in parts or relative == MARKER:
        raise ValueError(f"refusing to write {relative!r}: not a path inside the site folder")
    return folder / relative


def update_in_place(folder: Path, files: dict[str, bytes], removed: Iterable[str] = ()) -> None:
    """Write files into a live folder one at a time, each by an atomic rename, and delete removed ones.

    For the preview: a browser never reads a half-written page, and unchanged files are not touched.
    """
    for relative, data in sorted(files.items()):
        target = inside(folder, relative)
        target.parent.mkdir(parents=True, exist_ok=True)
        temporary = target.with_name(f".{target.name}.{os.getpid()}.tmp")
        temporary.write_bytes(data)
        os.replace(temporary, target)
    for relative in sorted(removed):
        inside(folder, relative).unlink(missing_ok=True)


def write_into(folder: Path, files: dict[str, bytes]) -> None:
    """Write files into a folder that is not live yet (a staging folder)."""
    for relative, data in sorted(files.items()):
        target = inside(folder, relative)
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(data)


def carry_over(previous: Path, folder: Path, paths: Iterable[str]) -> None:
    """Hard-link unchanged files of the previous site into a staging folder (copy where links fail):
    they are not written again, and the previous site stays as it was until the swap. Paths are
    joined as strings: a large site carries over 25,000 files, and pathlib's objects cost more than
    the links."""
    source, target_folder = str(previous), str(folder)
    made: set[str] = set()  # folders known to exist
    for relative in sorted(paths):
        if not plainly_inside(relative):
            inside(folder, relative)  # raises, naming the path
        target = os.path.join(target_folder, relative)
        parent = os.path.dirname(target)
        if parent not in made:
            os.makedirs(parent, exist_ok=True)
            made.add(parent)
        try:
            os.link(os.path.join(source, relative), target)
        except OSError:
            shutil.copy2(os.path.join(source, relative), target)


def plainly_inside(relative: str) -> bool:
    """Tell quickly whether a site path is one inside() takes as it is: 'a/b.html', with no empty,
    '.' or '..' part, no backslash, and not the marker."""
    return bool(relative) and relative != MARKER and "\\" not in relative and not relative.startswith("/") and not any(
        part in ("", ".", "..") for part in relative.split("/"))


class Staging:
    """A staging folder beside the output: filled, then swapped into place or discarded."""

    def __init__(self, out: Path):
        self.out = out.resolve()
        self.out.parent.mkdir(parents=True, exist_ok=True)
        recover(self.out)
        self.folder = self.out.parent / f".{self.out.name}.staging-{os.getpid()}"
        shutil.rmtree(self.folder, ignore_errors=True)
        self.folder.mkdir()
        self.texts = texts_folder(self.folder)  # made when the first text is written (see sinks.FolderSink)

    def discard(self) -> None:
        """Delete the staging folder (and the pages' texts for search): the output stays as it was."""
        shutil.rmtree(self.folder, ignore_errors=True)
        shutil.rmtree(self.texts, ignore_errors=True)

    def patch(self, files: set[str]) -> threading.Thread:
        """Move the staged files into the live site, which keeps its other files as they are (see
        patch.py); files: every file of the site once published but those staged (the search
        bundle's, or its parts indexed again) need not be named. Return the thread deleting the
        staging folder."""
        commit(self.folder, files | set(walk_files(self.folder)))
        return roll_forward(self.folder, self.out)

    def swap(self) -> Path | None:
        """Mark the staged files as dossier's and put the folder in place of the output; return the
        old output, moved aside, for the caller to delete (see folders.removal), if there was one."""
        written = sorted(walk_files(self.folder))
        (self.folder / MARKER).write_text("\n".join([MARKER_NOTE, *written]) + "\n", encoding="utf-8")
        if not self.out.exists():
            self.folder.rename(self.out)
            return None
        old = self.out.parent / f".{self.out.name}.old-{os.getpid()}"
        self.out.rename(old)
        self.folder.rename(self.out)
        return old



def publish(files: dict[str, bytes], out: Path) -> None:
    """Write files into a staging folder beside out, then swap it into place."""
    staging = Staging(out)
    try:
        write_into(staging.folder, files)
    except BaseException:
        staging.discard()
        raise
    old = staging.swap()
    if old is not None:
        remove_tree(old)
