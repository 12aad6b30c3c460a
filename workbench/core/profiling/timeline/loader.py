"""Chrome-trace timelines (msprof ``msprof_*.json``, torch_npu ``trace_view.json``) as columns.

:func:`load_timeline` reads one or several trace files into a :class:`Timeline`: complete slices
(``X`` and matched ``B``/``E``) as numpy columns sorted by (lane, start, -duration), flows paired
by (cat, id) and bound to the slices they start and end on, instants and counter series. Times
are exact integer nanoseconds (decimal ``ts`` text is never read as float64), relative to
``origin_ns``. Processes are identified by their ``process_name`` metadata, never by pid value.
Args are kept as raw JSON and decoded on demand with :meth:`Timeline.args`.

Reading is chunked: a compiled scanner (:mod:`.fast` over the C extension ``_fastscan``) fills
the columns when it is built, and hands anything unusual to the msgspec path (:mod:`.scan`,
the fallback, with identical results). Memory stays near the size of the columns, a file that
ends early loads every complete event and says so in ``warnings``, and bad input raises
:class:`TimelineError` naming the file, byte offset, line and what was expected.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence
from pathlib import Path

from workbench.core.tasks import CancelToken, NullProgress

from .assemble import merge_parts
from .fast import available as fast_available
from .fast import read_file as read_fast
from .model import Timeline, TimelineError
from .part import Part
from .scan import ScanEnd, ScanError, iter_lines_offsets, locate_events, scan_events

PARALLEL_MIN_BYTES = 64 << 20


def load_timeline(
    paths: str | os.PathLike | Sequence[str | os.PathLike],
    progress=None,
    cancel: CancelToken | None = None,
    *,
    workers: int | None = None,
    block: int = 1 << 20,
    default_device: int = 0,
    max_bytes: int | None = None,
) -> Timeline:
    """Read one or more Chrome-trace JSON files into one :class:`Timeline` (a work function).

    Several files (several devices, or the ``msprof_*.json`` slices of one run) are merged.
    ``workers``: with the compiled scanner (``_fastscan``, the default when it is built), threads
    sharing one file of 16 MB or more (default: 2 on a multi-core machine, see
    :func:`_thread_count`); on the pure-Python path, processes reading one file (default 1, or
    $ASCEND_WORKBENCH_TRACE_WORKERS for files of 64 MB and more, see :func:`_worker_count`).
    ``ASCEND_WORKBENCH_TRACE_FASTSCAN=0`` forces the pure-Python path; both give identical results.
    ``block``: bytes decoded at a time; ~1 MB keeps the decoded objects in the CPU cache while
    they are turned into columns (measured faster than 4-16 MB blocks); the compiled path reads
    4 x ``block`` at a time.
    ``default_device``: device of device-side processes whose pid/labels carry no device id
    (torch_npu writes one trace per device; the caller knows which from profiler_info).
    ``max_bytes``: read only the first that many bytes of each file (a preview while the whole
    file loads): the events complete within them, with the usual "truncated" warning.
    """
    progress = progress or NullProgress()
    cancel = cancel or CancelToken()
    _one_malloc_arena()
    files = [Path(paths)] if isinstance(paths, (str, os.PathLike)) else [Path(p) for p in paths]
    if not files:
        raise TimelineError("no timeline file given")
    sizes = []
    for p in files:
        try:
            size = p.stat().st_size
            sizes.append(size if max_bytes is None else min(size, max_bytes))
        except OSError as e:
            raise TimelineError(f"{p}: cannot read the timeline: {e.strerror or e}") from None
    total = max(sum(sizes), 1)
    done_before = 0
    parts: list[tuple[str, Part]] = []
    warnings: list[str] = []
    for p, size in zip(files, sizes):
        progress.status(f"Reading {p.name}")

        def tick(offset: int, _base=done_before) -> None:
            progress.fraction(min(1.0, (_base + offset) / total))
            cancel.raise_if_cancelled()

        pieces = _read_file(p, size, tick, cancel, workers, block)
        group = str(p.resolve().parent)
        base = 0
        for part, end in pieces:
            parts.append((group, part))
            note = end.note(base)
            if note:
                warnings.append(f"{p}: {note}")
            base += end.events
        for ph, n in sorted(_ignored(pieces).items()):
            warnings.append(f"{p}: ignored {n} events of phase {ph!r} (not shown in the timeline)")
        done_before += size
    cancel.raise_if_cancelled()
    progress.status("Building the timeline")
    try:
        built = merge_parts(parts, default_device=default_device)
    except ValueError as e:  # timestamps too far apart for one int64 sort key
        raise TimelineError(f"{', '.join(str(p) for p in files)}: {e} (the event times span too far)") from None
    warnings.extend(built.pop("warnings"))
    progress.fraction(1.0)
    return Timeline(source=[str(p) for p in files], warnings=warnings, **built)


def _one_malloc_arena() -> None:
    """glibc gives every thread its own malloc arena and keeps freed memory there: with the
    scanner threads that costs 10-13 % more peak memory (measured on 0.2-1 GB traces) and no
    speed. One arena for the process (M_ARENA_MAX = 1, set once, before the threads start) gives it
    back; Python's small objects and the GIL make arena contention moot. No-op off glibc."""
    global _ARENA_SET
    if _ARENA_SET:
        return
    _ARENA_SET = True
    if sys.platform.startswith("linux"):
        try:
            import ctypes

            ctypes.CDLL("libc.so.6").mallopt(-8, 1)  # M_ARENA_MAX
        except (OSError, AttributeError):
            pass


_ARENA_SET = False


def _read_file(
    path: Path, size: int, tick, cancel: CancelToken, workers: int | None, block: int
) -> list[tuple[Part, ScanEnd]]:
    try:
        with open(path, "rb") as f:
            try:
                start = locate_events(f, size)
                if fast_available():
                    return read_fast(path, f, start, size, block, tick, _thread_count(workers))
                n_workers = _worker_count(size, workers)
                if n_workers > 1:
                    from .parallel import read_parallel

                    got = read_parallel(path, f, start, size, n_workers, block, tick, cancel)
                    if got is not None:
                        return got
                part = Part()
                end = scan_events(f, start, size, part.add_chunk, block=block, tick=tick)
                part.store.finish()
                return [(part, end)]
            except ScanError as e:
                raise TimelineError(_describe(path, f, e)) from None
            except RecursionError:
                raise TimelineError(f"{path}: an event nested too deeply to be a trace event") from None
    except OSError as e:
        raise TimelineError(f"{path}: cannot read the timeline: {e.strerror or e}") from None


def _ignored(pieces: list[tuple[Part, ScanEnd]]) -> dict[str, int]:
    out: dict[str, int] = {}
    for part, _ in pieces:
        for ph, n in part.ignored.items():
            out[ph] = out.get(ph, 0) + n
    return out


def _worker_count(size: int, workers: int | None) -> int:
    """Processes for one file: ``workers``, else $ASCEND_WORKBENCH_TRACE_WORKERS, else 1.

    One process is the default: it keeps peak memory below the file size, and on a busy 2-core
    machine a second process did not pay (see benchmarks/bench_timeline.py).
    """
    if getattr(sys, "frozen", False):
        return 1  # frozen (PyInstaller) builds would need multiprocessing.freeze_support() first
    if workers is None:
        if size < PARALLEL_MIN_BYTES:
            return 1
        try:
            workers = int(os.environ.get("ASCEND_WORKBENCH_TRACE_WORKERS", "1"))
        except ValueError:
            workers = 1
    return max(1, workers)


def _thread_count(workers: int | None) -> int:
    """Threads sharing one file on the compiled path: ``workers``, else
    $ASCEND_WORKBENCH_TRACE_WORKERS, else 2 on a machine with two cores or more (threads share
    memory, so unlike worker processes they cost no extra peak RSS)."""
    if workers is None:
        try:
            workers = int(os.environ.get("ASCEND_WORKBENCH_TRACE_WORKERS", "0"))
        except ValueError:
            workers = 0
        workers = workers or min(2, os.cpu_count() or 1)
    return max(1, workers)


def _describe(path: Path, f, e: ScanError) -> str:
    line, col = iter_lines_offsets(f, e.offset)
    where = f"byte {e.offset} (line {line}, column {col})"
    if e.event is not None:
        where += f", event {e.event}"
    return f"{path}: {where}: {e.message}"
