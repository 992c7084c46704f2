"""A build after an edit moves only the files that changed into the live site (publish/patch.py),
and a publish killed part way is finished by the next build."""

from __future__ import annotations

import signal
import subprocess
import sys
import textwrap

import pytest
from conftest import PROJECT

from dossier.cli import main
from dossier.publish.staging import MARKER, publish
from test_publish import leftovers, snapshot


def test_an_edit_moves_in_only_what_changed_and_a_deleted_record_leaves_no_folder(make_site, capsys):
    root = make_site({"content/people/ana.md": "---\nname: Ana\nsummary: A defector.\n---\n"})
    out = root / "site"
    assert main(["build", "--source", str(root)]) == 0
    before = snapshot(out)
    inodes = {path: (out / path).stat().st_ino for path in before}
    folders = {folder: folder.stat().st_ino for folder in (out, out / "sources/ap")}
    (root / "content/people/ana.md").unlink()
    (root / "content/places/cucuta.md").write_text("---\nname: Cúcuta, edited\nsummary: S.\n---\n", encoding="utf-8")
    assert main(["build", "--source", str(root)]) == 0
    after = snapshot(out)
    unchanged = [path for path in after if path in before and after[path] == before[path] and not path.startswith("pagefind/") and path != MARKER]
    assert len(unchanged) > 5 and all((out / path).stat().st_ino == inodes[path] for path in unchanged), \
        "a file the edit did not change is left where it was, not written or linked again"
    assert all(folder.stat().st_ino == inode for folder, inode in folders.items()), "the site's folders are the same folders, not made again"
    assert "Cúcuta, edited" in (out / "places/cucuta/index.html").read_text(encoding="utf-8")
    assert not (out / "people/ana").exists(), "the folder of a deleted record's page goes with it"
    listed = (out / MARKER).read_text(encoding="utf-8").splitlines()[1:]
    assert listed == sorted(snapshot(out).keys() - {MARKER}), "the marker lists exactly the files the site holds"
    assert leftovers(out) == []
    again = root.parent / "cold"
    assert main(["build", "--source", str(root), "--out", str(again)]) == 0
    assert snapshot(out) == snapshot(again), "the patched site is the site a build from scratch makes"
    capsys.readouterr()


# Patches a site in a child process that kills itself with SIGKILL at one step.
KILLER = textwrap.dedent("""
    import os, signal, sys
    from pathlib import Path
    import dossier.publish.patch as patching
    from dossier.publish.staging import Staging

    out, step = Path(sys.argv[1]), sys.argv[2]
    die = lambda: os.kill(os.getpid(), signal.SIGKILL)
    real_replace, real_rename, real_unlink = os.replace, Path.rename, Path.unlink
    moved = []

    def replace(source, target):
        if step == "journal" and str(target).endswith(patching.JOURNAL):
            die()  # everything staged, the journal not yet in place: nothing is committed
        result = real_replace(source, target)
        if not str(target).endswith((patching.JOURNAL, ".dossier-site")):
            moved.append(target)
            if step == "moving" and len(moved) == 10:
                die()  # ten of the staged files are in the site, the rest not yet
        return result

    def rename(self, target):
        result = real_rename(self, target)
        if step == "bundle" and patching.OLD_BUNDLE in Path(target).parts:
            die()  # the old search bundle (or part) is aside, the new one not yet in place
        return result

    def unlink(self, missing_ok=False):
        result = real_unlink(self, missing_ok=missing_ok)
        if step == "removing" and self.name == "index.html" and self.parent == out:
            die()  # a file the site no longer holds is deleted, the marker not yet written again
        return result

    os.replace, Path.rename, Path.unlink = replace, rename, unlink
    staging = Staging(out)
    files = {f"page-{n:03d}/index.html": b"new" for n in list(range(50)) + list(range(100, 120))} | eval(sys.argv[3])
    for relative, data in files.items():
        (staging.folder / relative).parent.mkdir(parents=True, exist_ok=True)
        (staging.folder / relative).write_bytes(data)
    staging.patch({f"page-{n:03d}/index.html" for n in range(120)} | eval(sys.argv[4])).join()
""")

OLD = {f"page-{n:03d}/index.html": b"old" for n in range(100)} | {"index.html": b"old home", "pagefind/pagefind.js": b"old bundle",
                                                                    "pagefind/fragment/a.pf_fragment": b"old"}
PAGES = {f"page-{n:03d}/index.html": b"new" for n in list(range(50)) + list(range(100, 120))} | {f"page-{n:03d}/index.html": b"old" for n in range(50, 100)}
# A bundle staged whole; and one in parts (search/indexing.py patches) of which only the second part
# was indexed again: the first stays where it is (kept), and the delta, no longer listed, goes.
STAGED = {"whole": {"pagefind/pagefind.js": b"new bundle", "pagefind/fragment/b.pf_fragment": b"new"},
          "parts": {"pagefind/parts/2/pagefind.js": b"new part", "pagefind/parts/2/fragment/e.pf_fragment": b"new", "pagefind/parts.json": b"new list"}}
IN_PARTS = {"pagefind/parts.json": b"old list", "pagefind/parts/1/pagefind.js": b"old part", "pagefind/parts/1/fragment/c.pf_fragment": b"old",
            "pagefind/parts/2/pagefind.js": b"old part", "pagefind/parts/2/fragment/d.pf_fragment": b"old", "pagefind/delta/pagefind.js": b"old delta"}
KEPT = {"whole": set(), "parts": {"pagefind/pagefind.js", "pagefind/fragment/a.pf_fragment", "pagefind/parts/1/pagefind.js", "pagefind/parts/1/fragment/c.pf_fragment"}}


def without_marker(files: dict[str, bytes]) -> dict[str, bytes]:
    return {path: data for path, data in files.items() if path != MARKER}


@pytest.mark.parametrize("bundle", ["whole", "parts"])
@pytest.mark.parametrize("step", ["journal", "moving", "bundle", "removing", "done"])
def test_a_patch_killed_at_any_step_is_undone_or_finished_by_the_next_build(tmp_path, make_site, capsys, step, bundle):
    out = tmp_path / "site"
    old = OLD | (IN_PARTS if bundle == "parts" else {})
    publish(old, out)
    result = subprocess.run([sys.executable, "-c", KILLER, str(out), step, repr(STAGED[bundle]), repr(KEPT[bundle])], cwd=PROJECT, capture_output=True)
    if step == "done":
        assert result.returncode == 0, result.stderr.decode()
    else:
        assert result.returncode == -signal.SIGKILL, result.stderr.decode()
        assert leftovers(out), "the kill left nothing to recover: the step was not reached"
    # Even a build that fails on its content first undoes (before the journal) or finishes (after it) the publish ...
    broken = make_site({"content/places/cucuta.md": "---\nname: C\n---\n"})
    assert main(["build", "--source", str(broken), "--out", str(out)]) == 1, capsys.readouterr().err
    expected = old if step == "journal" else PAGES | STAGED[bundle] | {path: old[path] for path in KEPT[bundle]}
    assert without_marker(snapshot(out)) == expected
    assert (out / MARKER).read_text(encoding="utf-8").splitlines()[1:] == sorted(expected)
    assert leftovers(out) == []
    # ... and the next good build replaces it, leaving nothing beside it.
    assert main(["build", "--source", str(make_site()), "--out", str(out)]) == 0
    assert (out / "people/jorge-torres/index.html").is_file() and leftovers(out) == []
    capsys.readouterr()


def test_a_portable_site_patched_after_an_edit_is_the_portable_site_built_from_scratch(make_site, capsys):
    # A portable build remakes its plain search index from every page: those the edit left in the
    # live site are read from there, not from the staging folder, which holds only the new ones.
    root = make_site({"content/people/ana.md": "---\nname: Ana\nsummary: A defector.\n---\nAna crossed.\n"})
    out = root / "site"
    assert main(["build", "--portable", "--source", str(root)]) == 0
    (root / "content/people/ana.md").write_text("---\nname: Ana Edited\nsummary: A defector.\n---\nAna crossed twice.\n", encoding="utf-8")
    assert main(["build", "--portable", "--source", str(root)]) == 0
    cold = root.parent / "cold"
    assert main(["build", "--portable", "--source", str(root), "--out", str(cold)]) == 0
    assert snapshot(out) == snapshot(cold) and b"Ana Edited" in snapshot(out)["people/ana/index.html"]
    assert leftovers(out) == []
    capsys.readouterr()
