"""Read one big trace file with several processes, each decoding a byte range of whole events.

Split points are candidate event starts near equal fractions of the file. The process reading
the range *before* a split proves it (its last piece must decode up to exactly that byte), so a
wrong guess is detected; then, as on any worker error, the caller falls back to one process and
its exact error messages. Workers are started with ``spawn`` (safe from a threaded GUI process).
"""

from __future__ import annotations

import multiprocessing as mp
from pathlib import Path

from .part import Part
from .scan import ScanEnd, ScanError, SplitError, candidate_splits, scan_events
from .store import ArgsStore


def _work(path: str, start: int, end: int, is_range: bool, block: int) -> tuple[Part, ScanEnd]:
    part = Part(store=ArgsStore(named=True))
    with open(path, "rb") as f:
        done = scan_events(f, start, end, part.add_chunk, block=block, is_range=is_range)
    part.store.finish_for_transfer()
    part.columns()
    return part, done


def read_parallel(path: Path, f, start: int, size: int, n: int, block: int, tick, cancel):
    """[(Part, ScanEnd)] in file order, or None when the file cannot be split (caller reads it alone)."""
    splits = list(candidate_splits(f, start, size, n))
    bounds = [start, *splits, size]
    if len(splits) != n - 1 or any(b <= a for a, b in zip(bounds, bounds[1:])):
        return None
    ctx = mp.get_context("spawn")
    try:
        pool = ctx.Pool(n - 1)
    except (OSError, RuntimeError):
        return None
    cancel.on_cancel(pool.terminate)
    try:
        jobs = [pool.apply_async(_work, (str(path), bounds[k], bounds[k + 1], k < n - 1, block)) for k in range(1, n)]
        first = Part()
        try:
            done0 = scan_events(f, bounds[0], bounds[1], first.add_chunk, block=block, is_range=True, tick=tick)
        except (SplitError, ScanError):
            return None
        first.store.finish()
        out = [(first, done0)]
        for job in jobs:
            while not job.ready():
                job.wait(0.1)
                cancel.raise_if_cancelled()
            try:
                out.append(job.get())
            except Exception:  # noqa: BLE001 - a split off target, bad input, a dead worker:
                return None  # the caller re-reads in one process and reports exactly
        return out
    finally:
        pool.terminate()
        pool.join()
