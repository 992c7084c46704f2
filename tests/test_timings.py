"""`build --timings`: where a build's CPU goes, by layer, the rendering workers' and Pagefind's included."""

from __future__ import annotations

import resource
import time
from pathlib import Path

from conftest import PROJECT

from dossier.cli import main
from dossier.pipeline import build
from dossier.timings import layer, page_layer, spent


def cpu_of_build(tmp_path: Path, workers: int) -> tuple[dict[str, float], float]:
    """Build the documentary from scratch; return its CPU by layer and the CPU it took, measured from outside."""
    def used() -> float:
        own, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
        return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime

    before = used()
    report = build(PROJECT, tmp_path / f"site-{workers}", use_cache=False, workers=workers)
    return report.cpu, used() - before


def pages_cpu(layers: dict[str, float]) -> float:
    return sum(seconds for name, seconds in layers.items() if name.startswith("pages: ") or name == "timeline")


def test_the_layers_account_for_the_build_and_name_each_kind_of_page_and_search(tmp_path):
    layers, measured = cpu_of_build(tmp_path, workers=1)
    assert {"read", "validate and link", "audit", "plan", "pages: people", "pages: events", "pages: sources", "timeline", "search",
            "exports and static files", "publish"} <= set(layers)
    assert abs(sum(layers.values()) - measured) <= 0.05 * measured + 0.05  # every CPU second is in some layer, and none twice
    assert layers.get("other", 0.0) <= 0.15 * measured  # and nearly all of them in a named one


def test_the_rendering_workers_report_their_cpu(tmp_path):
    alone, _ = cpu_of_build(tmp_path, workers=1)
    shared, measured = cpu_of_build(tmp_path, workers=2)
    assert abs(sum(shared.values()) - measured) <= 0.05 * measured + 0.05
    # Without the workers' reports their pages would count as search (another process's CPU), and the
    # pages' layers would hold about half of what they hold with one process.
    assert pages_cpu(shared) >= 0.75 * pages_cpu(alone)


def test_a_layer_leaves_the_time_of_the_layers_inside_it_to_them():
    spent.clear()
    with layer("outer"):
        with layer("inner"):
            deadline = time.process_time() + 0.05
            while time.process_time() < deadline:
                pass
    assert spent["inner"] >= 0.05 and spent["outer"] < 0.02


def test_pages_are_named_by_their_kind_whatever_their_language():
    languages = ("en", "es")
    assert page_layer("people/jorge-torres/index.html", languages) == "pages: people"
    assert page_layer("es/people/jorge-torres/index.html", languages) == "pages: people"
    assert page_layer("timeline/people/jorge-torres/index.html", languages) == "timeline"
    assert page_layer("es/timeline/index.html", languages) == "timeline"
    assert page_layer("people/index.html", languages) == "pages: indexes"
    assert page_layer("index.html", languages) == "pages: indexes"


def test_build_timings_prints_the_table(tmp_path, capsys):
    assert main(["build", "--source", str(PROJECT), "--out", str(tmp_path / "site"), "--timings"]) == 0
    printed = capsys.readouterr().out
    rows = {line.split()[0] for line in printed.splitlines()[2:]}
    assert {"search", "timeline", "pages:", "total"} <= rows
    assert "CPU by layer" in printed


def test_build_timings_counts_the_pages_rendered_in_words(make_site, capsys):
    root = make_site()
    command = ["build", "--source", str(root), "--out", str(root / "site"), "--timings"]

    def rendered() -> str:
        assert main(command) == 0
        return next(line for line in capsys.readouterr().out.splitlines() if " rendered; " in line).split(" rendered; ")[0]

    assert int(rendered().removesuffix(" pages")) > 1  # every page
    assert rendered() == "0 pages"
    person = root / "content/people/jorge-torres.md"
    person.write_text(person.read_text(encoding="utf-8") + "\n<!-- editorial -->\nA sentence no page but his shows.\n", encoding="utf-8")
    assert rendered() == "1 page"  # not "1 pages"


def test_a_build_runs_the_collector_less_often_and_gives_its_thresholds_back_even_when_it_fails(tmp_path, make_site, monkeypatch):
    import gc

    from dossier import pipeline
    from dossier.model.problems import ContentError

    seen = []
    real = pipeline.build_exclusively
    monkeypatch.setattr(pipeline, "build_exclusively", lambda *args, **kwargs: (seen.append(gc.get_threshold()), real(*args, **kwargs))[1])
    before = gc.get_threshold()
    build(make_site(), tmp_path / "site")
    broken = make_site({"content/places/cucuta.md": "---\nname: C\n---\n"})
    try:
        build(broken, tmp_path / "broken")
    except ContentError:
        pass
    assert seen == [pipeline.BUILD_THRESHOLDS] * 2 and gc.get_threshold() == before != pipeline.BUILD_THRESHOLDS


class CostlyToSend:
    """A result that takes a tenth of a second of CPU to pickle."""

    def __reduce__(self) -> tuple:
        ended = time.process_time() + 0.1
        while time.process_time() < ended:
            pass
        return (CostlyToSend, ())


def test_a_second_process_of_the_load_counts_its_sending_back_to_its_layer(monkeypatch):
    """The CPU a load's second process spends sending its share back is its layer's, not search's
    (the CPU of children that reported none is Pagefind's)."""
    from dossier import forked
    from dossier.timings import BuildClock

    monkeypatch.setattr(forked, "SPLIT_FROM", 2)
    clock = BuildClock()
    with layer("read"):
        done = forked.in_two_processes(lambda items: [CostlyToSend() if item == 1 else item for item in items], [0, 1], "read", 2)
    assert done[0] == 0 and isinstance(done[1], CostlyToSend)
    layers = clock.by_layer()
    assert "search" not in layers and layers["read"] >= 0.1
