"""Pick a few keys out of the raw ``args`` of many slices, without decoding whole objects.

The OPs table built from a timeline needs "Task Type", "Task Id" (and "OP Type" where present)
of every device task: hundreds of thousands to millions of small JSON objects. The compiled
``_fastscan.arg_values`` walks them in windows of the args store and interns each key's raw
value text, so Python decodes every distinct value once; rows it does not take (escaped keys,
a non-object) and the pure-Python path decode the object with msgspec. Both give the same result:
per key, a code per slice (-1 = absent) into a list of decoded values.

Windows keep memory flat: the store of a big trace is a memory map, and each window's pages are
dropped from the process (MADV_DONTNEED) once read.
"""

from __future__ import annotations

import contextlib
import mmap
from typing import Any

import msgspec
import numpy as np

from .fast import _fastscan, available

WINDOW = 4 << 20  # bytes of args text per call (pages dropped after each)
_decode = msgspec.json.Decoder()


class Picked:
    """Per key: ``codes`` (int32, one per requested slice, -1 = absent) into ``values(k)``; for
    keys asked as integers, code -2 marks a canonical integer (number or digit string) held in
    ``ints[k]``."""

    def __init__(self, n: int, keys: tuple[str, ...], int_keys: tuple[str, ...] = ()) -> None:
        self.keys = keys
        self.codes = [np.full(n, -1, dtype=np.int32) for _ in keys]
        self.ints = [np.zeros(n, dtype=np.int64) if k in int_keys else None for k in keys]
        self._raw: list[dict[bytes, int]] = [{} for _ in keys]

    def code(self, k: int, raw: bytes) -> int:
        table = self._raw[k]
        got = table.get(raw)
        if got is None:
            got = table[raw] = len(table)
        return got

    def values(self, k: int) -> list[Any]:
        return [_value(raw) for raw in self._raw[k]]


def _value(raw: bytes) -> Any:
    """A raw value decoded; one that does not decode (bytes that are not UTF-8, nesting deeper than
    any tool writes) comes back as its text, as :meth:`Timeline.args` shows it."""
    try:
        return _decode.decode(raw)
    except (msgspec.DecodeError, RecursionError):
        text = bytes(raw[:512]).decode("utf-8", errors="replace")
        return text[1:-1] if len(text) > 1 and text[0] == text[-1] == '"' else text


def pick(tl: Any, idx: np.ndarray, keys: tuple[str, ...], int_keys: tuple[str, ...] = ()) -> Picked:
    """The values of top-level ``keys`` in the args of slices ``idx`` of timeline ``tl``
    (``int_keys``: those whose canonical integers may come back in ``Picked.ints``)."""
    idx = np.asarray(idx, dtype=np.int64)
    out = Picked(len(idx), keys, int_keys)
    store = getattr(tl, "_store", None)
    if len(idx) == 0 or store is None or getattr(tl, "args_off", None) is None:
        return out
    off = np.asarray(tl.args_off)[idx].astype(np.int64)
    length = np.asarray(tl.args_len)[idx].astype(np.int64)
    order = np.argsort(off, kind="stable")
    bkeys = tuple(k.encode() for k in keys)
    fast = available()
    parts = store.buffers()
    bases = np.array([b for b, _ in parts], dtype=np.int64)
    part_of = np.searchsorted(bases, off[order], side="right") - 1
    for p, (base, buf) in enumerate(parts):
        rows = order[part_of == p]
        rows = rows[length[rows] > 0]
        if not len(rows):
            continue
        view = memoryview(buf).cast("B") if not isinstance(buf, np.ndarray) else buf.reshape(-1).view(np.uint8).data
        rel = off[rows] - base
        end = rel + length[rows]
        at = 0
        while at < len(rows):
            lo = int(rel[at])
            stop = max(at + 1, int(np.searchsorted(rel, lo + WINDOW, side="left")))
            hi = int(end[at:stop].max())
            _window(out, view[lo:hi], rows[at:stop], rel[at:stop] - lo, length[rows[at:stop]], bkeys, fast)
            if isinstance(buf, mmap.mmap) and hasattr(buf, "madvise"):
                page = mmap.PAGESIZE
                a = lo // page * page
                with contextlib.suppress(OSError, ValueError):
                    buf.madvise(mmap.MADV_DONTNEED, a, hi - a)
            at = stop
    return out


def _window(
    out: Picked,
    view: memoryview,
    rows: np.ndarray,
    off: np.ndarray,
    length: np.ndarray,
    bkeys: tuple[bytes, ...],
    fast: bool,
) -> None:
    if fast:
        wcodes = tuple(np.empty(len(rows), dtype=np.int32) for _ in bkeys)
        wints = tuple(None if a is None else np.empty(len(rows), dtype=np.int64) for a in out.ints)
        uniques, slow = _fastscan.arg_values(
            view, np.ascontiguousarray(off), np.ascontiguousarray(length), bkeys, wcodes, wints
        )
        for k, (wc, uniq) in enumerate(zip(wcodes, uniques)):
            lut = np.fromiter((out.code(k, raw) for raw in uniq), dtype=np.int32, count=len(uniq))
            hit = wc >= 0
            out.codes[k][rows[hit]] = lut[wc[hit]]
            ints_k, wints_k = out.ints[k], wints[k]
            if ints_k is not None and wints_k is not None:
                num = wc == -2
                out.codes[k][rows[num]] = -2
                ints_k[rows[num]] = wints_k[num]
        todo = slow
    else:
        todo = range(len(rows))
    for j in todo:
        o, n = int(off[j]), int(length[j])
        try:
            obj = _decode.decode(view[o : o + n])
        except msgspec.DecodeError:
            continue
        if not isinstance(obj, dict):
            continue
        for k, key in enumerate(out.keys):
            if key in obj:
                out.codes[k][rows[j]] = out.code(k, msgspec.json.encode(obj[key]))
