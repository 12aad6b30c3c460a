"""Fast path of the timeline loader: the compiled scanner (``_fastscan``) fills a :class:`Part`.

The C scanner walks a buffer of the event array and writes the fields of complete (``X``) and
flow events straight into numpy columns, interning pid/tid pairs, names, cats and ids by their
exact bytes; Python decodes each distinct string once and maps the codes onto the part's tables.
Rarer events (metadata, counters, B/E, instants) are decoded by msgspec and go through
:meth:`Part._add_other`, exactly as on the pure-Python path.

Whatever the scanner does not accept (an escaped key, an odd pid, malformed JSON, the end of a
truncated file...) hands the rest of the file, from a proven event start, to
:func:`scan.scan_events`: results, warnings and error messages are those of the
pure-Python path. ``ASCEND_WORKBENCH_TRACE_FASTSCAN=0`` forces that path for a whole load.
"""

from __future__ import annotations

import enum
import io
import os
import queue
import threading
from pathlib import Path
from typing import Any, BinaryIO, cast

import msgspec
import numpy as np

from .num import NumberError, us_texts_to_ns
from .part import Part, _canonical_int
from .scan import _MODE, ScanEnd, _decode, candidate_splits, scan_events

_fastscan: Any
try:
    from . import _fastscan  # type: ignore[attr-defined,no-redef]  # the compiled extension, when built
except ImportError:  # built without a compiler: the pure-Python path does everything
    _fastscan = None

ENV_SWITCH = "ASCEND_WORKBENCH_TRACE_FASTSCAN"
CAP = 1 << 15  # events per scanner call
THREADS_MIN_BYTES = 16 << 20  # files this big are split between threads (the scan runs without the GIL)
_END, _FULL, _MORE, _ANOMALY = 0, 1, 2, 3
_COLUMNS = (  # the order _fastscan.Scanner takes them
    ("x_ts", np.int64),
    ("x_dur", np.int64),
    ("x_lane", np.int32),
    ("x_name", np.int32),
    ("x_cat", np.int32),
    ("x_alen", np.int64),
    ("x_flags", np.uint8),
    ("x_off", np.int64),
    ("x_len", np.int64),
    ("f_kind", np.uint8),
    ("f_ts", np.int64),
    ("f_lane", np.int32),
    ("f_cat", np.int32),
    ("f_enc", np.uint8),
    ("f_idnum", np.int64),
    ("f_idcode", np.int32),
    ("f_flags", np.uint8),
    ("f_off", np.int64),
    ("f_len", np.int64),
    ("r_off", np.int64),
    ("r_len", np.int64),
    ("ignored", np.int64),
    ("x_aoff", np.int64),
    ("s_name", np.int64),
)
_SLOW_TS, _SLOW_DUR = 1, 2
_TIMED = {"B", "E", "C", "i", "I", "R"}  # rare phases whose ts _add_other converts


def available() -> bool:
    """Is the compiled scanner importable and not switched off by the environment?"""
    return _fastscan is not None and os.environ.get(ENV_SWITCH, "1").strip() not in ("0", "false", "no", "off")


def read_file(
    path: Path, f: BinaryIO, start: int, size: int, block: int, tick, threads: int
) -> list[tuple[Part, ScanEnd]]:
    """[(Part, ScanEnd)] for the event array from ``start``, in file order (see module doc).

    With ``threads`` > 1 and a big file, byte ranges ending at likely event starts are scanned
    at the same time; a range that does not end exactly on its split (or needs the Python path)
    makes the whole file be read again by one thread. ``tick(offset)`` reports progress (and
    raises to cancel); it is only called from this thread.
    """
    if threads > 1 and size - start >= THREADS_MIN_BYTES:
        got = _read_threads(path, f, start, size, threads, block, tick)
        if got is not None:
            return got
    part = Part()
    end = FastReader(part).read(f, start, size, block, tick)
    part.store.finish()
    return [(part, end)]


def _read_threads(path: Path, f: BinaryIO, start: int, size: int, n: int, block: int, tick):
    """Threads scan ranges (reading and the C scan run without the GIL); this thread adds every
    scan result to the parts, so numpy allocates in one place (no per-thread malloc arenas)."""
    splits = list(candidate_splits(f, start, size, n))
    bounds = [start, *splits, size]
    if len(splits) != n - 1 or any(b <= a for a, b in zip(bounds, bounds[1:])):
        return None
    halt = threading.Event()
    readers = [FastReader(Part()) for _ in range(n)]
    results: list = [None] * n
    todo: queue.Queue = queue.Queue()

    def work(k: int) -> None:
        try:
            with open(path, "rb") as fk:
                results[k] = readers[k].scan_range(
                    fk,
                    bounds[k],
                    size,
                    block,
                    None,
                    halt=halt,
                    hand_over=todo.put,
                    stop=bounds[k + 1] if k < n - 1 else None,
                )
        except _Halted:
            results[k] = (RangeEnd.MISS, 0, 0)
        except BaseException as e:  # noqa: BLE001 - handed to the calling thread
            results[k] = e
            halt.set()

    workers = [threading.Thread(target=work, args=(k,), name=f"trace-scan-{k}", daemon=True) for k in range(n)]
    for t in workers:
        t.start()
    try:
        while any(t.is_alive() for t in workers) or not todo.empty():
            try:
                blk = todo.get(timeout=0.05)
            except queue.Empty:
                continue
            blk.reader._add(blk)
            blk.ready.set()
            if tick is not None:
                tick(start + sum(max(r.done - b, 0) for r, b in zip(readers, bounds)))
    finally:
        halt.set()  # on cancel: the others stop at their next block
        for t in workers:
            t.join()
    for r in results:
        if isinstance(r, BaseException):
            raise r
    if any(results[k][0] != RangeEnd.STOP for k in range(n - 1)):
        return None
    out = []
    before = 0
    for k, (reader, (kind, offset, count)) in enumerate(zip(readers, results)):
        end = ScanEnd(count)
        if k == n - 1 and kind == RangeEnd.REST:  # the Python path finishes the last range, numbering on
            end = reader._python_rest(f, offset, size, count, block, tick, before=before)
        reader.part.store.finish()
        out.append((reader.part, end))
        before += count
    return out


class _Halted(Exception):
    """Another thread failed or the load was cancelled."""


class RangeEnd(enum.Enum):
    """How :meth:`FastReader.scan_range` ended (its result is ``(RangeEnd, offset, events)``)."""

    END = "end"  # the event array closed
    REST = "rest"  # the pure-Python path must go on from ``offset``
    STOP = "stop"  # the range ended exactly at its ``stop`` (an event start)
    MISS = "miss"  # the range did not end at ``stop`` (or another thread halted it): read again


class _Fallback(Exception):
    """Something in this call needs the pure-Python path (which then reports it exactly)."""


def _text(key: bytes) -> str:
    """A JSON string's content (or a number's text) as msgspec would decode it."""
    if key.isascii() and b"\\" not in key:
        return key.decode("ascii")
    try:
        return msgspec.json.decode(b'"' + key + b'"')
    except msgspec.DecodeError:
        raise _Fallback() from None


def _ns(raw, empty_ns: int | None) -> int:
    try:
        return int(us_texts_to_ns([raw], empty_ns)[0])
    except NumberError:
        raise _Fallback() from None


class _Tables:
    """Scanner code -> part code, grown as the scanner reports new distinct keys."""

    def __init__(self) -> None:
        self.name: list[int] = []
        self.cat: list[int] = []
        self.lane: list[int] = []
        self.id_num: list[int] = []
        self.id_code: list[int] = []
        self.arrays: dict[str, np.ndarray] = {}

    def array(self, key: str) -> np.ndarray:
        got = self.arrays.get(key)
        values = getattr(self, key)
        if got is None or len(got) != len(values):
            got = self.arrays[key] = np.array(values or [0], dtype=np.int64 if key == "id_num" else np.int32)
        return got


class _Block:
    """One scanner call's output, waiting to be added to the part."""

    def __init__(self, reader: FastReader, buf: bytearray, cols: dict, res: tuple, keys: list, start: int) -> None:
        self.reader, self.buf, self.cols, self.res, self.keys, self.start = reader, buf, cols, res, keys, start
        self.error: BaseException | None = None
        self.ready = threading.Event()


class FastReader:
    """Reads one file's event array (or a byte range of it) into ``part`` with the compiled scanner.

    Two sets of columns and two buffers alternate, so that a worker thread scans the next block
    while the calling thread adds the previous one to the part (see :func:`_read_threads`).
    """

    def __init__(self, part: Part) -> None:
        self.part = part
        self.colsets = [self._columns(), self._columns()]
        self.scanner = _fastscan.Scanner(CAP)
        self.maps = _Tables()
        self.done = 0  # file offset scanned so far (progress of a thread)

    @staticmethod
    def _columns() -> dict[str, np.ndarray]:
        sizes = {"ignored": 256, "s_name": 3 * CAP}
        return {name: np.zeros(sizes.get(name, CAP), dtype=dt) for name, dt in _COLUMNS}

    def read(self, f: BinaryIO, start: int, size: int, block: int, tick) -> ScanEnd:
        """Scan from ``start`` (just after the array's ``[``) to the end of the array."""
        kind, offset, count = self.scan_range(f, start, size, block, tick)
        if kind == RangeEnd.END:
            return ScanEnd(count)
        return self._python_rest(f, offset, size, count, block, tick)

    def scan_range(
        self,
        f: BinaryIO,
        start: int,
        size: int,
        block: int,
        tick,
        *,
        stop: int | None = None,
        halt: threading.Event | None = None,
        hand_over=None,
    ) -> tuple[RangeEnd, int, int]:
        """Scan from ``start``: just after the array's ``[``, or an event's ``{``.

        Returns ``(RangeEnd.END, _, events)`` when the array closed; ``(RangeEnd.REST, offset, events)`` when
        the pure-Python path must go on from byte ``offset``; with ``stop`` (a range ending at an
        event start), ``(RangeEnd.STOP, stop, events)`` when the range ends exactly there, else
        ``(RangeEnd.MISS, ...)``, as when ``halt`` is set. ``hand_over(block)`` has a block added to the
        part (by default at once; a worker thread queues it for the calling thread, which sets
        ``block.ready``).
        """
        buf = bytearray(max(4 * block, 4096))  # bigger blocks than msgspec's: fewer Python steps
        spare = bytearray(len(buf))
        limit_all = size if stop is None else min(size, stop + 1)  # see the '{' that starts `stop`
        have, base, pos, count, at_start, which = 0, start, 0, 0, True, 0
        eof = start >= limit_all
        pending: _Block | None = None
        f.seek(start)
        _MODE.fast = True

        def settle() -> tuple[RangeEnd, int, int] | None:
            """Wait for the pending block; the outcome when it needs the Python path."""
            nonlocal count, pending
            if pending is None:
                return None
            blk, pending = pending, None
            while not blk.ready.wait(0.1):
                if halt is not None and halt.is_set():
                    raise _Halted()
            if isinstance(blk.error, _Fallback):
                return (RangeEnd.REST, blk.start, count) if stop is None else (RangeEnd.MISS, start, count)
            if blk.error is not None:
                raise blk.error
            count += blk.res[1]
            return None

        while True:
            if halt is not None and halt.is_set():
                raise _Halted()
            if not eof and have < len(buf):
                limit = min(len(buf), limit_all - base)
                with memoryview(buf) as mv:
                    while have < limit:
                        got = cast(io.BufferedIOBase, f).readinto(mv[have:limit])
                        if not got:
                            break
                        have += got
                eof = have < len(buf)
                if tick is not None:
                    tick(base + pos)
            cols = self.colsets[which]
            res = self.scanner.scan(buf, pos, have, at_start, tuple(cols.values()))
            keys = [self.scanner.new_keys(k) for k in range(4)]
            status, events, resume = res[0], res[1], res[2]
            outcome = settle()  # the block before this one
            if outcome is not None:
                return outcome
            pending = _Block(self, buf, cols, res, keys, base + pos)
            if hand_over is None:
                self._add(pending)
                pending.ready.set()
            else:
                hand_over(pending)
            which ^= 1
            self.done = base + resume
            at_start = at_start and events == 0
            if status == _FULL:
                pos = resume
                continue
            if status in (_END, _ANOMALY) or eof:
                outcome = settle()
                if outcome is not None:
                    return outcome
                if status == _END:
                    return (RangeEnd.END, base + resume, count) if stop is None else (RangeEnd.MISS, start, count)
                if stop is None:
                    return RangeEnd.REST, base + resume, count
                ok = status == _MORE and base + resume == stop
                return (RangeEnd.STOP, stop, count) if ok else (RangeEnd.MISS, start, count)
            # the data ends inside an event: carry its start over to the other buffer and read on
            # (the pending block may still read this one); a bigger buffer for a huge event
            rest = have - resume
            if rest == len(buf):
                spare = bytearray(2 * len(buf))
            spare[:rest] = memoryview(buf)[resume:have]
            buf, spare = spare, buf
            base += resume
            have, pos = rest, 0

    def _add(self, blk: _Block) -> None:
        """Add a scanned block to the part, or set ``blk.error`` (a :class:`_Fallback` when the
        pure-Python path must redo it)."""
        try:
            self._commit(blk.buf, blk.res, blk.cols, blk.keys)
        except BaseException as e:  # noqa: BLE001 - reported by the reading thread
            blk.error = e

    def _python_rest(
        self, f: BinaryIO, offset: int, size: int, count: int, block: int, tick, before: int = 0
    ) -> ScanEnd:
        """The pure-Python path from byte ``offset`` on, into the same part (``count`` events of
        this part and ``before`` of earlier parts read)."""
        end = scan_events(f, offset, size, self.part.add_chunk, block=block, first_index=before + count, tick=tick)
        cut = None if end.cut is None else (end.cut[0], count + end.cut[1], end.cut[2])
        return ScanEnd(count + end.events, cut)

    # -- one scanner call -----------------------------------------------------------------------
    def _commit(self, buf: bytearray, res: tuple, c: dict, new: list) -> None:
        """Check everything that could fail, then add the call's events to the part."""
        _, events, _, nx, nf, nr, ns = res
        blob, snames, odd_names = _fastscan.collect(buf, tuple(c.values()), nx, ns)
        part, maps = self.part, self.maps
        names, cats, ids = _texts_all(new[0]), _texts_all(new[1]), _texts_all(new[3])
        lanes = [tuple(_texts_all(key.split(b"\0", 1))) for key in new[2]]
        x_ts, x_dur = c["x_ts"][:nx].copy(), c["x_dur"][:nx].copy()
        self._slow_times(buf, c["x_flags"][:nx], c["x_off"], c["x_len"], x_ts, x_dur)
        f_ts = c["f_ts"][:nf].copy()
        self._slow_times(buf, c["f_flags"][:nf], c["f_off"], c["f_len"], f_ts, None)
        rare = []
        for off, length in zip(c["r_off"][:nr].tolist(), c["r_len"][:nr].tolist()):
            e = _event(buf, off, length)
            if e.ph in _TIMED:
                _ns(e.ts, None)
            rare.append(e)
        if odd_names:  # (offset, length) of escaped names: decode them as msgspec would
            snames = [s if isinstance(s, str) else _text(bytes(buf[s[0] : s[0] + s[1]])) for s in snames]

        # nothing below fails: update the part
        maps.name += [part.names.setdefault(t, len(part.names)) for t in names]
        maps.cat += [part.cats.setdefault(t, len(part.cats)) for t in cats]
        maps.lane += [part._lane_id(p, t) for p, t in lanes]
        for t in ids:
            v = _canonical_int(t)
            maps.id_num.append(0 if v is None else v)
            maps.id_code.append(part.id_texts.setdefault(t, len(part.id_texts)) if v is None else -1)
        part.events += events
        if nx:
            part.x_ts.append(x_ts)
            part.x_dur.append(x_dur)
            part.x_lane.append(maps.array("lane")[c["x_lane"][:nx]])
            part.x_name.append(maps.array("name")[c["x_name"][:nx]])
            part.x_cat.append(maps.array("cat")[c["x_cat"][:nx]])
            lens = c["x_alen"][:nx].copy()
            at = part.store.append(blob)
            part.x_alen.append(lens)
            part.x_aoff.append(np.cumsum(lens) - lens + at)
        if nf:
            part.f_kind.append(c["f_kind"][:nf].copy())
            part.f_ts.append(f_ts)
            part.f_lane.append(maps.array("lane")[c["f_lane"][:nf]])
            part.f_enc.append(c["f_enc"][:nf].astype(bool))
            part.f_sname.extend(snames)
            part.f_cat.append(maps.array("cat")[c["f_cat"][:nf]])
            local = c["f_idcode"][:nf]
            texts = local >= 0
            at = np.maximum(local, 0)
            part.f_idnum.append(np.where(texts, maps.array("id_num")[at], c["f_idnum"][:nf]))
            part.f_idcode.append(np.where(texts, maps.array("id_code")[at], -1).astype(np.int32))
        for i, e in enumerate(rare):
            part._add_other(e, i)
        ignored = c["ignored"]
        for ph in np.flatnonzero(ignored).tolist():
            part.ignored[chr(ph)] = part.ignored.get(chr(ph), 0) + int(ignored[ph])

    @staticmethod
    def _slow_times(
        buf, flags: np.ndarray, offs: np.ndarray, lens: np.ndarray, ts: np.ndarray, dur: np.ndarray | None
    ) -> None:
        """Times the scanner left to Python (exponents, long or quoted-odd texts, bad values)."""
        for j in np.flatnonzero(flags).tolist():
            e = _event(buf, int(offs[j]), int(lens[j]))
            if flags[j] & _SLOW_TS:
                ts[j] = _ns(e.ts, None)
            if dur is not None and flags[j] & _SLOW_DUR:
                dur[j] = _ns(e.dur, 0)


def _texts_all(keys: list[bytes]) -> list[str]:
    return [_text(k) for k in keys]


def _event(buf: bytearray, off: int, length: int):
    try:
        return _decode(bytes(buf[off : off + length]))[0]
    except (msgspec.DecodeError, msgspec.ValidationError):
        raise _Fallback() from None
