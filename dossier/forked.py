"""Work shared with a forked process: the load of a large project (reading its files, linking its
records) does every other item in a second process, which would otherwise leave one core of two
waiting; the rendering pool (incremental/pool.py) sends its workers' outcomes back the same way."""

from __future__ import annotations

import multiprocessing
import os
import signal
from multiprocessing.connection import Connection
from typing import Any, Callable

from .model.problems import BuildFailure
from .timings import children_cpu, layer, start_worker, take_report, worker_report

SPLIT_FROM = 2000  # items (content files, records): fewer are done in this process alone (forking and sending back would cost more)


def in_two_processes(work: Callable[[list], list], items: list, layer_name: str, processes: int) -> list:
    """Return work(items), a forked process doing every other item while this one does the rest
    (for the load, which would otherwise keep one core of two waiting), its CPU counted to the layer
    named. Fewer than SPLIT_FROM items, or fewer than two processes allowed, are done here alone."""
    if processes < 2 or len(items) < SPLIT_FROM or not hasattr(os, "fork"):
        return work(items)
    context = multiprocessing.get_context("fork")
    reader, writer = context.Pipe(duplex=False)
    before = children_cpu()
    process = context.Process(target=work_in_worker, args=(work, items[1::2], layer_name, writer, [reader]), daemon=True)
    process.start()
    writer.close()
    try:
        done = [None] * len(items)
        done[0::2] = work(items[0::2])
        done[1::2], (layers, total) = worker_result(process, reader)
    finally:
        if process.is_alive():
            process.terminate()
        process.join()
        reader.close()
    sending = max(0.0, children_cpu() - before - total)  # after its report: sending its share back, which is this work too
    take_report(({**layers, layer_name: layers.get(layer_name, 0.0) + sending}, total + sending))
    return done


def work_in_worker(work: Callable[[list], list], items: list, layer_name: str, writer: Connection, inherited: list[Connection]) -> None:
    """Do a forked process's share of in_two_processes' work and send it back (or what it raised);
    inherited: the parent's ends of the pipes, which the worker closes (see send_from_worker)."""
    def share() -> list:
        with layer(layer_name):
            return work(items)

    send_from_worker(writer, share, inherited)


def send_from_worker(writer: Connection, make: Callable[[], Any], inherited: list[Connection]) -> None:
    """In a forked worker: send back what make() returns with the worker's CPU by layer, or what it
    raised. It first closes the ends of the pipes it inherited from its parent (inherited), which
    are the parent's to read: if the parent dies (killed, as when memory runs out), sending then
    fails and the worker ends, where it would wait for ever to send, holding the output's lock."""
    for connection in inherited:
        connection.close()
    quiet_worker()
    start_worker()
    try:
        outcome: tuple[str, Any] = ("done", (make(), worker_report()))
    except BaseException as error:  # raised again in the parent
        outcome = ("failed", error)
    try:
        writer.send(outcome)
    except OSError:  # the parent is gone: there is no one to tell
        return
    except Exception:  # what was raised does not pickle
        writer.send(("failed", RuntimeError(repr(outcome[1]))))


def worker_result(process: multiprocessing.process.BaseProcess, reader: Connection) -> Any:
    """Return what a forked worker sent back; raise what it raised, or a clear error if it died."""
    try:
        kind, value = reader.recv()
    except EOFError:  # it ended without a word (this process holds no writing end): killed, most often for want of memory
        process.join()
        code = process.exitcode or 0
        how = f"was killed by signal {-code}" if code < 0 else f"stopped with exit code {code}"
        raise BuildFailure(f"a process of the build {how} (out of memory?); try again with fewer processes (build --jobs 1)") from None
    if kind == "failed":
        raise value
    return value


def quiet_worker() -> None:
    """Let forked workers die quietly: the build stops them with SIGTERM, and Ctrl+C is the parent's to handle."""
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
