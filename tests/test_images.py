"""Images a record shows: stored in media/, each with alt text, a credit and a source or licence, made at
the widths a page needs (srcset, width and height given); every mistake an error at its line."""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest

from dossier.cli import main
from dossier.pipeline import build


def png(width: int, height: int, colour: tuple[int, int, int] = (200, 80, 40)) -> bytes:
    from PIL import Image

    out = io.BytesIO()
    Image.new("RGB", (width, height), colour).save(out, "PNG")
    return out.getvalue()


def place(images: str) -> str:
    return f"---\nname: Cúcuta\nsummary: A border city.\n{images}---\nA city.[@ap \"across the bridge\"]\n"


BRIDGE = ("images:\n  - file: bridge.png\n    alt: The Simón Bolívar bridge at dawn, trucks waiting on it\n    caption: The bridge the convoy meant to cross.\n"
          "    credit: 'Photo: Ana Ruiz'\n    source: ap\n")


def run(capsys, *args: str) -> tuple[int, str]:
    code = main(list(args))
    return code, capsys.readouterr().err


def test_a_records_image_is_shown_at_the_sizes_a_page_needs_with_its_alt_text_credit_and_source(make_site):
    root = make_site({"media/bridge.png": png(2000, 1000), "content/places/cucuta.md": place(BRIDGE)})
    build(root, root / "site")
    html = (root / "site/places/cucuta/index.html").read_text(encoding="utf-8")
    figure = re.search(r'<figure class="record-image">.*?</figure>', html, re.S).group(0)
    assert ('<img src="../../media/bridge-1440w.png" srcset="../../media/bridge-480w.png 480w, ../../media/bridge-960w.png 960w, '
            '../../media/bridge-1440w.png 1440w" sizes="(min-width: 46rem) 42rem, calc(100vw - 2rem)" width="1440" height="720" '
            'alt="The Simón Bolívar bridge at dawn, trucks waiting on it">') in figure
    assert ('<span class="caption">The bridge the convoy meant to cross.</span> <span class="credit">Photo: Ana Ruiz</span> · '
            '<span class="image-source">from <a href="../../sources/ap/">The Associated Press</a></span>') in figure
    from PIL import Image

    for width, height in ((480, 240), (960, 480), (1440, 720)):
        with Image.open(root / f"site/media/bridge-{width}w.png") as made:
            assert made.size == (width, height)
    assert not (root / "site/media/bridge.png").exists()  # the stored file itself is not published


def test_a_small_image_is_published_at_its_own_size_only(make_site):
    root = make_site({"media/bridge.png": png(300, 200), "content/places/cucuta.md": place(BRIDGE)})
    build(root, root / "site")
    html = (root / "site/places/cucuta/index.html").read_text(encoding="utf-8")
    assert 'srcset="../../media/bridge-300w.png 300w"' in html and 'width="300" height="200"' in html
    assert sorted(p.name for p in (root / "site/media").iterdir()) == ["bridge-300w.png"]


@pytest.mark.parametrize("images, expected", [
    (BRIDGE.replace("    alt: The Simón Bolívar bridge at dawn, trucks waiting on it\n", ""),
     "content/places/cucuta.md:5: error: 'images.0' needs 'alt' (what it shows, in words, for a reader who cannot see it)"),
    (BRIDGE.replace("    credit: 'Photo: Ana Ruiz'\n", ""),
     "content/places/cucuta.md:5: error: 'images.0' needs 'credit' (who made it: 'Photo: Ana Ruiz / The Daily Record')"),
    (BRIDGE.replace("alt: The Simón Bolívar bridge at dawn, trucks waiting on it", 'alt: ""'),
     "content/places/cucuta.md:6: error: 'images.0' needs 'alt' (what it shows, in words, for a reader who cannot see it)"),
    (BRIDGE.replace("    source: ap\n", ""),
     "content/places/cucuta.md:8: error: 'images.0' says neither where it comes from nor under what licence: give 'source' (a source's id) or 'licence'"),
    (BRIDGE.replace("file: bridge.png", "file: brige.png"),
     "content/places/cucuta.md:5: error: 'media/brige.png' is not an image of the project's media/ folder (did you mean 'bridge.png'?)"),
    (BRIDGE.replace("source: ap", "source: apx"),
     "content/places/cucuta.md:9: error: unknown source 'apx' in 'images.0.source' (did you mean 'ap'?)"),
])
def test_an_image_without_alt_text_credit_source_or_file_is_refused_at_its_line(make_site, capsys, images, expected):
    root = make_site({"media/bridge.png": png(600, 400), "content/places/cucuta.md": place(images)})
    code, err = run(capsys, "check", "--source", str(root))
    assert code == 1 and err.splitlines()[0] == expected


def test_a_file_in_media_that_is_no_image_is_an_error_at_its_path(make_site, capsys):
    root = make_site({"media/notes.txt": "not a picture\n"})
    code, err = run(capsys, "check", "--source", str(root))
    assert code == 1 and err.splitlines()[0] == "media/notes.txt: error: not an image that can be read (PNG, JPEG, WebP or GIF); remove it from media/ or save it again"


def test_an_image_in_markdown_says_where_images_go(make_site, capsys):
    root = make_site({"content/places/cucuta.md": "---\nname: Cúcuta\nsummary: S.\n---\nA city.[@ap \"across the bridge\"] ![The bridge](bridge.jpg)\n"})
    code, err = run(capsys, "check", "--source", str(root))
    assert code == 0 and ("content/places/cucuta.md:5:34: warning: an image in Markdown is not shown: list it under 'images:' in the front matter, "
                          "with its file in media/, its alt text, credit and source or licence") in err.splitlines()


def test_an_images_alt_text_and_caption_are_translated_and_its_credit_shared(make_site):
    translation = ("---\nsummary: Una ciudad fronteriza.\nimages:\n  - {alt: El puente Simón Bolívar al amanecer, caption: El puente que el convoy quería cruzar.}\n---\n"
                   "Una ciudad.[@ap \"across the bridge\"]\n")
    root = make_site({"media/bridge.png": png(600, 400), "content/places/cucuta.md": place(BRIDGE), "content/places/cucuta.es.md": translation,
                      "content/site.yaml": "title: T\nlanguages: [en, es]\n"})
    build(root, root / "site")
    spanish = (root / "site/es/places/cucuta/index.html").read_text(encoding="utf-8")
    assert 'alt="El puente Simón Bolívar al amanecer"' in spanish and "El puente que el convoy quería cruzar." in spanish
    assert '<span class="credit">Photo: Ana Ruiz</span>' in spanish and 'src="../../../media/bridge-600w.png"' in spanish


def test_a_replaced_image_is_made_again_by_the_next_build_and_the_preview(make_site):
    from dossier.incremental.session import Session

    root = make_site({"media/bridge.png": png(600, 400), "content/places/cucuta.md": place(BRIDGE)})
    build(root, root / "site")
    session = Session(root)
    session.load()
    session.render()
    (root / "media/bridge.png").write_bytes(png(800, 200, (10, 20, 30)))
    outcome = session.update(["media/bridge.png"])
    assert 'width="800" height="200"' in outcome.files["places/cucuta/index.html"].decode("utf-8") and "media/bridge-800w.png" in outcome.files
    build(root, root / "site")
    assert 'width="800" height="200"' in (root / "site/places/cucuta/index.html").read_text(encoding="utf-8")
    assert (root / "site/media/bridge-800w.png").is_file() and not (root / "site/media/bridge-600w.png").exists()


def test_the_examples_image_was_made_for_it_and_says_so(tmp_path, capsys):
    assert main(["init", str(tmp_path / "ferry")]) == 0
    capsys.readouterr()
    assert main(["build", "--source", str(tmp_path / "ferry")]) == 0
    html = (tmp_path / "ferry/site/events/ferry-stops/index.html").read_text(encoding="utf-8")
    assert "drawn for this example; not a photograph" in html and 'alt="A drawing of a small white ferry' in html
    assert Path(tmp_path / "ferry/site/media/ferry-960w.png").is_file()
