"""Publishing a build that changed a few files of a large site: only they are staged, then moved
into the live site one by one, where a whole new folder would make every folder of the site again.

A build after an edit stages the files it made anew and, of the search bundle, the parts indexed
again (the bundle whole, its unchanged parts hard links, where its first part was: its files are
the bundle's top folder); the other files stay where they are. Once everything is
staged, commit() writes the journal, the list of every file the site will hold, into the staging
folder: from then on the publish goes forward. roll_forward() moves the staged files in (each by an
atomic rename), swaps the search bundle's folder (or each of its parts' staged), deletes the files
the site no longer holds and rewrites the marker. A build killed before the journal is written leaves the site as it was (the
staging folder is removed by the next build); one killed after it is rolled forward by the next
build's recover(), which only repeats what is not done yet.
"""

from __future__ import annotations

import json
import os
import threading
from pathlib import Path

from .folders import MARKER, MARKER_NOTE, listed_files, removal, walk_files

JOURNAL = ".dossier-publish"  # in a staging folder: the files of the site once published; written last, it commits the publish
BUNDLE = "pagefind"  # the search bundle's folder: replaced whole, or part by part (each a folder holding its own pagefind.js)
BUNDLE_ENTRY = "pagefind.js"  # a part's (and a whole bundle's, at its top) script: where it is, the part is there
LISTING = "parts.json"  # the bundle's list of its parts, which the search page reads first: put in place last
OLD_BUNDLE = ".old-bundle"  # in a staging folder: the bundle it replaced, deleted with the folder


def commit(folder: Path, files: set[str]) -> None:
    """Write the journal of a staging folder whose files are all in place: every file the site will
    hold (the staged ones, and the live ones left as they are). Written aside and renamed, it is
    there whole or not at all."""
    temporary = folder / f"{JOURNAL}.tmp"
    temporary.write_text(json.dumps(sorted(files)), encoding="utf-8")
    os.replace(temporary, folder / JOURNAL)


def committed(folder: Path) -> bool:
    """Tell whether a staging folder's publish was committed (then it must go forward, not back)."""
    return (folder / JOURNAL).is_file()


def roll_forward(folder: Path, out: Path) -> threading.Thread:
    """Publish a committed staging folder into the live site, or finish publishing it; return the
    thread deleting the staging folder (with the search bundle it replaced)."""
    files = set(json.loads((folder / JOURNAL).read_text(encoding="utf-8")))
    old = listed_files(out)
    write_marker(folder, out, old | files)  # while files come and go, the marker names every one of them
    base, staged = str(out), str(folder)
    made: set[str] = set()
    for relative in sorted(walk_files(folder)):
        if relative == JOURNAL or relative.split("/")[0] in (BUNDLE, OLD_BUNDLE):
            continue
        target = os.path.join(base, relative)
        parent = os.path.dirname(target)
        if parent not in made:
            os.makedirs(parent, exist_ok=True)
            made.add(parent)
        os.replace(os.path.join(staged, relative), target)
    swap_bundle(folder, out)
    for relative in sorted(old - files):  # (the replaced bundle, or parts, went into the staging folder)
        remove_file(out, relative)
    write_marker(folder, out, files)
    return removal(folder)


def swap_bundle(folder: Path, out: Path) -> None:
    """Put the staged search bundle in place of the live one, which moves into the staging folder;
    or, where only some parts of it were staged (no BUNDLE_ENTRY at its top), each of those parts in
    place of the live one, and then the bundle's list of parts."""
    new, live, aside = folder / BUNDLE, out / BUNDLE, folder / OLD_BUNDLE
    if not new.is_dir():
        return  # swapped already, or this site has no search bundle
    if (new / BUNDLE_ENTRY).is_file() or not live.is_dir():
        if live.exists():
            live.rename(aside)  # (a roll forward stopped between the two renames has moved it already)
        new.rename(live)
        return
    for part in staged_parts(new):
        if (live / part).exists():
            (aside / part).parent.mkdir(parents=True, exist_ok=True)
            (live / part).rename(aside / part)
        (live / part).parent.mkdir(parents=True, exist_ok=True)
        (new / part).rename(live / part)
    if (new / LISTING).is_file():
        os.replace(new / LISTING, live / LISTING)


def staged_parts(bundle: Path) -> list[str]:
    """Return the folders of a bundle staged in parts that hold a part (a BUNDLE_ENTRY), by their path in it."""
    return sorted(current[len(str(bundle)) + 1:].replace(os.sep, "/") for current, _, names in os.walk(bundle)
                  if BUNDLE_ENTRY in names and current != str(bundle))


def remove_file(out: Path, relative: str) -> None:
    """Delete a file the site no longer holds, and the folders it leaves empty (a record's page's)."""
    path = out / relative
    path.unlink(missing_ok=True)
    for parent in path.parents:
        if parent == out or not parent.is_relative_to(out):
            return
        try:
            parent.rmdir()
        except OSError:  # not empty, or gone
            return


def write_marker(folder: Path, out: Path, files: set[str]) -> None:
    """Write the marker that says the site folder is dossier's and lists its files, atomically (by
    way of the staging folder, so that the site never holds a file the marker does not list)."""
    temporary = folder / f"{MARKER}.tmp"
    temporary.write_text("\n".join([MARKER_NOTE, *sorted(files)]) + "\n", encoding="utf-8")
    os.replace(temporary, out / MARKER)
