"""The benchmark's measure of a build's memory (benchmarks/run.py): the proportional set size of
the build's process tree, each process's memory counted once."""

from __future__ import annotations

import subprocess
import sys
import textwrap
import time
from pathlib import Path

BENCHMARKS = Path(__file__).resolve().parent.parent / "benchmarks"
sys.path.insert(0, str(BENCHMARKS))

import run  # noqa: E402  # the benchmark's script, beside the tests' path


def test_a_program_started_by_vfork_is_not_counted_as_a_second_copy_of_its_parent():
    # Python starts a program with vfork: until the program is loaded, the child runs in its parent's
    # memory and reports it as its own. Sampled while a process of 200 MB starts short programs, the
    # tree never counts more than that process and a little.
    starter = subprocess.Popen([sys.executable, "-c", textwrap.dedent("""
        import subprocess, sys
        held = bytearray(200 * 1024 * 1024)
        held[::4096] = b"\\1" * len(held[::4096])
        print("ready", flush=True)
        for _ in range(400):
            subprocess.run(["true"])
    """)], stdout=subprocess.PIPE, text=True)
    assert starter.stdout is not None and starter.stdout.readline() == "ready\n"
    alone, highest = run.memory(starter.pid), 0
    started = time.perf_counter()
    while starter.poll() is None and time.perf_counter() - started < 60:
        highest = max(highest, run.memory(starter.pid))
    starter.wait()
    assert alone > 200 * 1024 * 1024 and highest < alone + 50 * 1024 * 1024
