"""Benchmark dossier against the floor, on synthetic projects of 1,000 and 10,000 entities.

Every figure is the median of several runs, each in a fresh process, and is also given as a ratio
to the floor (benchmarks/floor.py) measured in the same run:

- cold build (no cache), warm build (nothing changed), warm build after one file changed;
- in `serve`: from a file write to the rebuild being done, and to the browser showing the change
  (Playwright driving Debian's chromium), for an edit of a person's prose; also on a copy of this
  documentary (two languages);
- peak memory of the build (the sum over its processes of the proportional set size, sampled), in
  builds of their own after the timed ones: reading a large process's memory map takes CPU that a
  build on two cores would feel (some 5 ms a read at 500 MB, ten reads a second).
- CPU time of the floor and of the cold build (user and system, over every process it waited for);
- where the cold build's CPU goes, layer by layer, each against its budget (benchmarks/breakdown.py:
  over budget is printed, not a failure), beside the CPU of Hugo + Pagefind in the same run;
- beside Hugo (Debian's `hugo`) and Hugo with Pagefind on an equivalent site (benchmarks/hugo.py),
  measured in the same runs, alternating with dossier: the cold build against Hugo + Pagefind (both
  index their search with Pagefind), warm builds against Hugo alone. Without `hugo`, it says so.

    python benchmarks/run.py [--sizes 1000 10000] [--runs 3] [--no-browser]
"""

from __future__ import annotations

import argparse
import ctypes
import fcntl
import os
import platform
import queue
import re
import resource
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

from breakdown import budget_lines, parse_timings, records_of

HERE = Path(__file__).resolve().parent
PROJECT = HERE.parent
OUT = HERE / "out"
PYTHON = sys.executable
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--disable-dev-shm-usage"]


def family(pid: int) -> dict[int, int | None]:
    """Return a process and all its descendants, each with its parent (None for the first)."""
    found: dict[int, int | None] = {}
    todo: list[tuple[int, int | None]] = [(pid, None)]
    while todo:
        current, parent = todo.pop()
        found[current] = parent
        try:
            for task in Path(f"/proc/{current}/task").glob("*/children"):
                todo += [(int(child), current) for child in task.read_text().split()]
        except OSError:  # it ended meanwhile
            pass
    return found


def memory(pid: int) -> int:
    """Return the proportional set size of a process tree, in bytes, each address space counted
    once: Python starts a program (Pagefind) with vfork, and until the program is loaded the child
    runs in its parent's memory, which each then reports as its own (a sample taken then counted the
    build's process twice, 384 MB more)."""
    total = 0
    for member, parent in family(pid).items():
        if parent is not None and shares_memory(member, parent):
            continue
        try:
            for line in Path(f"/proc/{member}/smaps_rollup").read_text().splitlines():
                if line.startswith("Pss:"):
                    total += int(line.split()[1]) * 1024
        except OSError:
            pass
    return total


KCMP = {"x86_64": 312, "aarch64": 272}.get(platform.machine())  # the kcmp system call's number, where known
LIBC = ctypes.CDLL(None, use_errno=True)


def shares_memory(pid: int, other: int) -> bool:
    """Tell whether two processes run in one address space (kcmp(2) KCMP_VM): a child started with
    vfork, until its program is loaded. False where that cannot be told."""
    return KCMP is not None and sys.platform == "linux" and LIBC.syscall(KCMP, pid, other, 1, 0, 0) == 0


TIMINGS: dict[int, list[dict[str, float]]] = {}  # each cold build's CPU by layer (build --timings), by project size


def timed(command: list[str], printed: list[str] | None = None, sampled: bool = False) -> tuple[float, int, float]:
    """Run a command; return its wall time, the peak memory of its process tree (if sampled, else 0),
    and the CPU time (user and system) of it and every process it waited for. printed, if given,
    takes what it printed."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    with tempfile.TemporaryFile("w+") as errors, tempfile.TemporaryFile("w+") as output:  # files, not pipes: a pipe nobody reads fills and stops the build
        process = subprocess.Popen(command, stdout=output if printed is not None else subprocess.DEVNULL, stderr=errors, text=True)
        peak = 0
        while sampled and process.poll() is None:
            peak = max(peak, memory(process.pid))
            time.sleep(0.1)
        process.wait()
        seconds = time.perf_counter() - started
        if process.returncode != 0:
            errors.seek(0)
            raise SystemExit(f"{' '.join(command)} failed:\n{errors.read()[-3000:]}")
        if printed is not None:
            output.seek(0)
            printed.append(output.read())
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return seconds, peak, after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime


def state_kept(root: Path) -> float:
    """Wait until the build just returned has kept its state for the next build (a process of its own
    does so after the build returns, holding the state's lock until it is done); return how long that took."""
    started = time.perf_counter()
    lock = root / ".dossier-cache" / "state.lock"
    if lock.exists():
        with open(lock, "a") as held:
            fcntl.flock(held, fcntl.LOCK_EX)
    return time.perf_counter() - started


KEPT: dict[int, dict[str, list[float]]] = {}  # how long after each build returned its state was kept, by project size and kind of build


def project(size: int) -> Path:
    """Generate (once) the synthetic project of this size."""
    root = OUT / f"project-{size}"
    if not (root / "content").is_dir():
        subprocess.run([PYTHON, str(HERE / "generate.py"), str(size), str(root)], check=True)
    return root


def size_of(root: Path) -> int:
    """Return the size a generated project was made for (project-N)."""
    return int(root.name.rsplit("-", 1)[1])


def person_file(root: Path) -> Path:
    """Return the content file that the edits change: the first person (not a translation, x.es.md)."""
    return sorted(path for path in (root / "content/people").glob("*.md") if "." not in path.stem)[0]


def change(file: Path, number: int) -> str:
    """Change one sentence of a person's prose; return a phrase that only the new version shows."""
    marker = f"Edited sentence number {number} here"
    text = re.sub(r"\nEdited sentence number \d+ here\.\n", "", file.read_text(encoding="utf-8"))
    first = text.index("\n\n", text.index("---", 3))
    file.write_text(text[:first] + f"\n{marker}.\n" + text[first:], encoding="utf-8")
    return marker


def hugo_site(root: Path) -> Path | None:
    """Write (once) the Hugo site equivalent to a project; None when Hugo is not installed."""
    if shutil.which("hugo") is None:
        return None
    site = OUT / f"hugo-{root.name}"
    if not (site / "content").is_dir():
        subprocess.run([PYTHON, str(HERE / "hugo.py"), str(root), str(site)], check=True)
    return site


def hugo_builds(site: Path, result: dict[str, list[tuple[float, int, float]]]) -> None:
    """Time a cold Hugo build, and one followed by Pagefind over its pages."""
    public = OUT / f"{site.name}-public"
    for name, search in (("hugo", False), ("hugo + pagefind", True)):
        shutil.rmtree(public, ignore_errors=True)
        shutil.rmtree(site / "resources", ignore_errors=True)
        command = ["sh", "-c", f'hugo --quiet -s "{site}" -d "{public}"' + (f' && "{PYTHON}" -m pagefind --site "{public}" --silent' if search else "")]
        result.setdefault(name, []).append(timed(command))


def builds(root: Path, runs: int) -> dict[str, list[tuple[float, int]]]:
    """Time floor, cold, warm and warm-after-one-change builds, and Hugo's, alternating."""
    site = root / "site"  # where `make serve` then finds it, as after `make build`
    build = [PYTHON, str(PROJECT / "build.py"), "build", "--source", str(root), "--out", str(site)]
    result: dict[str, list[tuple[float, int]]] = {"floor": [], "cold": [], "warm": [], "one change": []}
    hugo = hugo_site(root)
    for run in range(runs):
        shutil.rmtree(OUT / "floor", ignore_errors=True)
        result["floor"].append(timed([PYTHON, str(HERE / "floor.py"), str(root), str(OUT / "floor")], sampled=True))  # small: its sampling costs little
        if hugo is not None:
            hugo_builds(hugo, result)
        shutil.rmtree(root / ".dossier-cache", ignore_errors=True)
        shutil.rmtree(site, ignore_errors=True)
        printed: list[str] = []
        kept = KEPT.setdefault(size_of(root), {})
        result["cold"].append(timed(build + ["--timings"], printed))  # --timings adds nothing to the build but its table
        kept.setdefault("cold", []).append(state_kept(root))  # not timed as the build's: it returned before (the next build would wait)
        TIMINGS.setdefault(size_of(root), []).append(parse_timings(printed[0]))
        result["warm"].append(timed(build))
        change(person_file(root), run)
        result["one change"].append(timed(build))
        kept.setdefault("one change", []).append(state_kept(root))
        print(f"  run {run + 1}: " + ", ".join(f"{name} {values[-1][0]:.2f} s" for name, values in result.items()), flush=True)
    PEAKS[size_of(root)] = peaks(root, site, build, runs)
    return result


PEAKS: dict[int, int] = {}  # the peak memory of a cold, a warm and a one-change build, by project size


def peaks(root: Path, site: Path, build: list[str], number: int) -> int:
    """Build the project cold into site, warm and after one change, sampling each build's memory
    (number: the change's); return the highest peak."""
    shutil.rmtree(root / ".dossier-cache", ignore_errors=True)
    shutil.rmtree(site, ignore_errors=True)
    found = [timed(build, sampled=True)[1]]
    state_kept(root)
    found.append(timed(build, sampled=True)[1])
    change(person_file(root), number)
    found.append(timed(build, sampled=True)[1])
    state_kept(root)
    return max(found)


def floors(root: Path, runs: int) -> dict[str, list[tuple[float, int]]]:
    """Time only the floor (for a run that measures only serve)."""
    result: dict[str, list[tuple[float, int]]] = {"floor": [], "cold": [], "warm": [], "one change": []}
    for _ in range(runs):
        shutil.rmtree(OUT / "floor", ignore_errors=True)
        result["floor"].append(timed([PYTHON, str(HERE / "floor.py"), str(root), str(OUT / "floor")], sampled=True))
    return result


def serving(root: Path, runs: int, browser: bool) -> tuple[list[float], list[float], int]:
    """Time a save to the rebuild being done and to the browser showing it; return those and peak memory."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    process = subprocess.Popen([PYTHON, str(PROJECT / "build.py"), "serve", "--source", str(root), "--port", str(port)],
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env={**os.environ, "PYTHONUNBUFFERED": "1"})
    lines: queue.Queue[tuple[float, str]] = queue.Queue()
    threading.Thread(target=lambda: [lines.put((time.perf_counter(), line)) for line in process.stdout], daemon=True).start()

    def wait(pattern: str, timeout: float = 600) -> float:
        deadline = time.perf_counter() + timeout
        while time.perf_counter() < deadline:
            try:
                when, line = lines.get(timeout=0.5)
            except queue.Empty:
                continue
            if re.search(pattern, line):
                return when
        raise SystemExit(f"serve never printed {pattern!r}")

    rebuild, shown, peak = [], [], 0
    try:
        wait(r"^serving ")
        file = person_file(root)
        url = f"http://127.0.0.1:{port}/people/{file.stem}/"
        page = None
        if browser:
            from playwright.sync_api import sync_playwright

            playwright = sync_playwright().start()
            chromium = playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
            page = chromium.new_page()
            page.goto(url)
            page.wait_for_function("() => window.LiveReload && LiveReload.connector && LiveReload.connector.protocol > 0")
        for number in range(runs * 3):
            time.sleep(0.5)  # let the previous reload settle
            started = time.perf_counter()
            marker = change(file, 1000 + number)
            rebuild.append(wait(r"rendered \d+ page") - started)
            if page is not None:
                while True:
                    try:
                        if marker in page.evaluate("document.body ? document.body.innerText : ''"):
                            break
                    except Exception:
                        pass
                    if time.perf_counter() - started > 30:
                        raise SystemExit("the browser never showed the change")
                shown.append(time.perf_counter() - started)
            peak = max(peak, memory(process.pid))
        if page is not None:
            chromium.close()
            playwright.stop()
    finally:
        process.terminate()
        process.wait(timeout=30)
    return rebuild, shown, peak


def documentary_serving(runs: int, browser: bool) -> str:
    """Time the preview on a copy of this documentary (two languages: an edit relinks a record with
    its translation); return the line the report gives it."""
    with tempfile.TemporaryDirectory() as folder:
        root = Path(folder) / "documentary"
        for name in ("content", "seeds", "media", "templates"):
            if (PROJECT / name).is_dir():
                shutil.copytree(PROJECT / name, root / name)
        subprocess.run([PYTHON, str(PROJECT / "build.py"), "build", "--source", str(root)], check=True, capture_output=True)
        records = records_of(root)
        rebuild, shown, _ = serving(root, runs, browser)
    browser_part = f", save → browser {statistics.median(shown) * 1000:.0f} ms" if shown else ""
    return (f"- this documentary ({records} records, in two languages): save → rebuilt {statistics.median(rebuild) * 1000:.0f} ms{browser_part}"
            f" (medians of {len(rebuild)} edits)")


def compile_modules() -> None:
    """Compile dossier's modules to bytecode before any run, as installing a package does (pip compiles
    what it installs): an editable install where PYTHONDONTWRITEBYTECODE is set, as on some CI
    machines, would otherwise compile them again in every build, about 0.2 s a command."""
    subprocess.run([PYTHON, "-m", "compileall", "-q", str(PROJECT / "dossier")], check=True)


def machine() -> str:
    """Describe the machine: cores and processor."""
    model = next((line.split(":", 1)[1].strip() for line in Path("/proc/cpuinfo").read_text().splitlines() if line.startswith("model name")), platform.processor())
    memory_total = next((int(line.split()[1]) // 1024 for line in Path("/proc/meminfo").read_text().splitlines() if line.startswith("MemTotal")), 0)
    return f"{os.cpu_count()} cores ({model}), {memory_total} MB RAM, Python {platform.python_version()}, {platform.system()} {platform.release()}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[1000, 10000])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--no-browser", action="store_true")
    parser.add_argument("--serve-only", action="store_true", help="measure only the floor and serve (the project must have been built)")
    args = parser.parse_args()
    OUT.mkdir(exist_ok=True)
    compile_modules()
    report = [f"Machine: {machine()}; {time.strftime('%Y-%m-%d')}", "",
              "Hugo: " + (subprocess.run(["hugo", "version"], capture_output=True, text=True).stdout.strip() if shutil.which("hugo")
                          else "not installed (apt-get install hugo): no comparison in this run"), "",
              "| entities | floor | cold build | warm, no change | warm, one change | serve: save → rebuilt | serve: save → browser | peak memory (build) | peak memory (serve) |",
              "|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
    details: list[str] = []
    cpu_lines: list[str] = []
    kept_after: list[str] = []
    beside = ["| entities | Hugo | Hugo + Pagefind | cold ÷ (Hugo + Pagefind) | cold ÷ Hugo | warm ÷ Hugo | one change ÷ Hugo |",
              "|---:|---:|---:|---:|---:|---:|---:|"]
    for size in args.sizes:
        root = project(size)
        print(f"{size} entities ({root})", flush=True)
        result = floors(root, args.runs) if args.serve_only else builds(root, args.runs)
        rebuild, shown, serve_peak = serving(root, args.runs, not args.no_browser)
        if not args.serve_only:
            runs = TIMINGS.get(size, [])
            layers = {name: statistics.median(run.get(name, 0.0) for run in runs) for name in {name for run in runs for name in run}}
            records = records_of(root)
            section = [f"{size:,} entities ({records:,} records): the cold build's CPU by layer (build --timings, median of {len(runs)}), "
                       "the rendering workers' and Pagefind's included, against its budget (benchmarks/breakdown.py):", ""]
            section += budget_lines(layers, records) + [""]
            cold_cpu = statistics.median(c for *_, c in result["cold"])
            beside_cpu = f"the cold build's CPU measured from outside (every process it waited for; median) {cold_cpu:.1f} s"
            if "hugo" in result:
                searched_cpu = statistics.median(c for *_, c in result["hugo + pagefind"])
                hugo_cpu = statistics.median(c for *_, c in result["hugo"])
                beside_cpu += f"; in the same runs Hugo {hugo_cpu:.1f} s and Hugo + Pagefind {searched_cpu:.1f} s of CPU ({cold_cpu / searched_cpu:.2f}× the latter)"
            section += [f"Beside it: {beside_cpu}.", ""]
            details += section
            print("\n".join(section), flush=True)
        floor = statistics.median(s for s, *_ in result["floor"])

        def cell(seconds: float) -> str:
            if seconds != seconds:  # not measured in this run
                return "–"
            return f"{seconds:.2f} s ({seconds / floor:.2f}×)" if seconds >= 1 else f"{seconds * 1000:.0f} ms ({seconds / floor:.3f}×)"  # noqa: B023 (called in this pass of the loop only)

        median = {name: statistics.median(s for s, *_ in values) if values else float("nan") for name, values in result.items()}
        build_peak = PEAKS.get(size, 0)
        report.append(
            f"| {size:,} | {median['floor']:.2f} s (1×) | {cell(median['cold'])} | {cell(median['warm'])} | {cell(median['one change'])} "
            f"| {cell(statistics.median(rebuild))} | {cell(statistics.median(shown)) if shown else 'not measured'} "
            f"| {build_peak / 2**20:.0f} MB (floor {max(m for _, m, _ in result['floor']) / 2**20:.0f} MB) | {serve_peak / 2**20:.0f} MB |"
        )
        if "hugo" in result:
            hugo, searched = statistics.median(s for s, *_ in result["hugo"]), statistics.median(s for s, *_ in result["hugo + pagefind"])
            beside.append(
                f"| {size:,} | {hugo:.2f} s | {searched:.2f} s | {median['cold'] / searched:.2f}× | {median['cold'] / hugo:.2f}× "
                f"| {median['warm'] / hugo:.3f}× | {median['one change'] / hugo:.2f}× |")
        if KEPT.get(size):
            kept_after.append(f"- {size:,} entities: " + ", ".join(f"{name} {statistics.median(values):.2f} s" for name, values in KEPT[size].items()))
        if not args.serve_only:
            cpu = {name: statistics.median(c for *_, c in result[name]) for name in ("floor", "cold")}
            cpu_lines.append(f"- {size:,} entities: floor {cpu['floor']:.1f} s, cold build {cpu['cold']:.1f} s ({cpu['cold'] / cpu['floor']:.2f}× the floor's;"
                             f" {cpu['cold'] / median['cold'] / (os.cpu_count() or 1):.0%} of {os.cpu_count()} cores over its wall time)")
        print("\n".join(report), flush=True)
    report += ["", "The preview on this documentary, in the same run:", "", documentary_serving(args.runs, not args.no_browser)]
    if len(beside) > 2:
        report += ["", "Beside Hugo on an equivalent site, in the same runs (medians):", ""] + beside
    if kept_after:
        report += ["", "A build returns once its site is published; a process of its own then keeps its state for the next build,",
                   "which waits for it if it comes sooner. How long after the build returned that was done (medians; not in the",
                   "times above, nor in the CPU below):", ""] + kept_after
    if cpu_lines:
        report += ["", "CPU time, user and system, of the build and every process it waited for (medians):", ""] + cpu_lines
    report += ["", "Where a cold build's CPU goes, layer by layer against its budget (benchmarks/breakdown.py):", ""] + details
    print("\n".join(report), flush=True)
    (OUT / ("results-serve.md" if args.serve_only else "results.md")).write_text("\n".join(report) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
