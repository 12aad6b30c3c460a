"""Turn decoded chunks of trace events into columns (one :class:`Part` per file or file range).

Complete ``X`` events and flow events, the bulk of every trace, are converted a whole chunk at
a time with C-level ``map``/``join`` and numpy (no per-event Python statements); rarer phases
(metadata, counters, B/E, instants) go through a small per-event path. Strings are
interned into part-local tables; :mod:`timeline` remaps them when it merges parts. Args stay raw
JSON bytes, concatenated into one blob per chunk with their lengths.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from operator import attrgetter, itemgetter

import msgspec
import numpy as np

from .num import NumberError, us_texts_to_ns
from .scan import FieldError
from .store import ArgsStore

_NAME, _CAT, _PID, _TID, _TS, _DUR, _ARGS, _ID, _BP, _PH = (
    attrgetter(a) for a in ("name", "cat", "pid", "tid", "ts", "dur", "args", "id", "bp", "ph")
)
_POW10 = np.array([10**k for k in range(19)], dtype=np.int64)
_INT64_MIN, _INT64_MAX = np.int64(-(2**63)), np.int64(2**63 - 1)
_FLOW_KIND = np.full(256, 255, dtype=np.uint8)
_FLOW_KIND[[ord("s"), ord("t"), ord("f")]] = [0, 1, 2]
INSTANT_PHASES = ("i", "I", "R")
_COLUMNS = (
    "x_lane",
    "x_ts",
    "x_dur",
    "x_name",
    "x_cat",
    "x_alen",
    "x_aoff",
    "f_kind",
    "f_lane",
    "f_ts",
    "f_enc",
    "f_cat",
    "f_idnum",
    "f_idcode",
)


def raw_text(raw: bytes) -> str:
    """Text of a raw JSON id/pid/tid: strings unquoted, numbers as written."""
    b = bytes(raw)
    if b[:1] == b'"':
        return str(msgspec.json.decode(b))
    return b.decode("utf-8", "replace")


def _text(v) -> str:
    """A pid/tid/id as text, whichever decoder produced it."""
    if isinstance(v, str):
        return v
    if isinstance(v, int):
        return str(v)
    return raw_text(v)


def _canonical_int(text: str) -> int | None:
    """The int whose decimal text is exactly ``text`` (and fits int64, below its maximum), else None."""
    body = text[1:] if text.startswith("-") else text
    if not (body.isascii() and body.isdigit()) or (body[0] == "0" and len(body) > 1) or text == "-0":
        return None
    v = int(text)
    return v if -(2**63) <= v < 2**63 - 1 else None


def _canonical_ints(joined: str, n: int) -> np.ndarray | None:
    """The n comma-separated texts as int64 if every one is a canonical integer text, else None."""
    if not joined.isascii():
        return None
    a = np.frombuffer(joined.encode("ascii"), dtype=np.uint8)
    seps = np.flatnonzero(a == 44)
    if len(seps) != n - 1:
        return None
    try:
        values = np.fromstring(joined, dtype=np.int64, sep=",")  # noqa: NPY201 - text mode
    except ValueError:
        return None
    if len(values) != n:
        return None
    lengths = np.diff(np.concatenate(([-1], seps, [len(a)]))) - 1
    inside = (values > _INT64_MIN) & (values < _INT64_MAX)  # fromstring saturates out-of-range text
    digits = np.maximum(np.searchsorted(_POW10, np.abs(np.where(inside, values, 0)), side="right"), 1)
    # same length as the canonical text: no sign '+', no leading zero, no blank, no "-0"
    if not (inside & (lengths == digits + (values < 0))).all():
        return None
    return values


def _intern(values: Sequence[str], table: dict[str, int]) -> np.ndarray:
    for v in set(values).difference(table):
        table[v] = len(table)
    return np.fromiter(map(table.__getitem__, values), dtype=np.int32, count=len(values))


def _factorize_small(key: np.ndarray, limit: int = 16) -> tuple[np.ndarray, list[int]] | None:
    """Codes of an int64 array with few distinct values (one compare per value); None if many."""
    codes = np.empty(len(key), dtype=np.int32)
    todo = np.ones(len(key), dtype=bool)
    values: list[int] = []
    at = 0
    while len(values) < limit:
        value = key[at]
        hit = key == value
        codes[hit] = len(values)
        values.append(int(value))
        todo &= ~hit
        at = int(todo.argmax())
        if not todo[at]:
            return codes, values
    return None


def _take(seq: Sequence, idx: np.ndarray) -> Sequence:
    if len(idx) == len(seq):
        return seq
    if len(idx) == 0:
        return ()
    if len(idx) == 1:
        return (seq[int(idx[0])],)
    return itemgetter(*idx.tolist())(seq)


@dataclass
class Part:
    """Columns gathered from one file (or one byte range of it), in file order."""

    names: dict[str, int] = field(default_factory=dict)
    cats: dict[str, int] = field(default_factory=dict)
    lanes: dict[tuple[str, str], int] = field(default_factory=dict)
    # X slices
    x_lane: list = field(default_factory=list)
    x_ts: list = field(default_factory=list)
    x_dur: list = field(default_factory=list)
    x_name: list = field(default_factory=list)
    x_cat: list = field(default_factory=list)
    x_alen: list = field(default_factory=list)
    x_aoff: list = field(default_factory=list)
    store: ArgsStore = field(default_factory=ArgsStore)
    # flows: kind(0 s,1 t,2 f), lane, ts, enclosing, cat, id
    f_kind: list = field(default_factory=list)
    f_lane: list = field(default_factory=list)
    f_ts: list = field(default_factory=list)
    f_enc: list = field(default_factory=list)
    f_sname: list = field(default_factory=list)  # names of the 's' (start) events, in order
    f_cat: list = field(default_factory=list)
    f_idnum: list = field(default_factory=list)  # numeric ids (canonical decimal text)
    f_idcode: list = field(default_factory=list)  # else a code into id_texts (-1: numeric)
    id_texts: dict[str, int] = field(default_factory=dict)
    # rare phases, row tuples
    be: list = field(default_factory=list)  # (lane, ts, 'B'|'E', name_id, cat_id, args bytes)
    instants: list = field(default_factory=list)  # (lane, ts, name_id, cat_id)
    counters: list = field(default_factory=list)  # (pid, name, ts, args bytes)
    meta: list = field(default_factory=list)  # (pid, tid, name, args bytes)
    ignored: dict[str, int] = field(default_factory=dict)
    events: int = 0
    _cols: dict | None = None

    # -- chunk intake -------------------------------------------------------------------------
    def add_chunk(self, events: list, offset: int, first_index: int) -> None:
        """Sink for :func:`scan.scan_events`."""
        n = len(events)
        self.events += n
        ph_list = list(map(_PH, events))
        phs = "".join(ph_list)
        # one ASCII character each (n characters and none empty: "XX" next to "" must not pass)
        if len(phs) == n and phs.isascii() and "" not in ph_list:
            codes = np.frombuffer(phs.encode("ascii"), dtype=np.uint8)
        else:
            codes = np.array([ord(p[0]) if len(p) == 1 and p.isascii() else 0 for p in ph_list], dtype=np.uint8)
        is_x = codes == ord("X")
        x_idx = np.flatnonzero(is_x)
        if len(x_idx):
            self._add_x(_take(events, x_idx), x_idx)
        is_flow = (codes == ord("s")) | (codes == ord("f")) | (codes == ord("t"))
        f_idx = np.flatnonzero(is_flow)
        if len(f_idx):
            self._add_flows(_take(events, f_idx), f_idx, codes[f_idx])
        for i in np.flatnonzero(~(is_x | is_flow)).tolist():
            self._add_other(events[i], i)

    def _lanes_of(self, pids: Sequence, tids: Sequence) -> np.ndarray:
        """Part-local lane index of each (pid, tid); vectorised for integer ids."""
        n = len(pids)
        p: np.ndarray | None
        t: np.ndarray | None
        if isinstance(pids[0], int) and isinstance(tids[0], int):
            p = np.fromiter(pids, dtype=np.int64, count=n)
            t = np.fromiter(tids, dtype=np.int64, count=n)
        else:
            jp, jt = b",".join(pids), b",".join(tids)
            p = t = None
            if b'"' not in jp and b'"' not in jt:
                try:
                    p = np.fromstring(jp, dtype=np.int64, sep=",")  # noqa: NPY201 - text mode
                    t = np.fromstring(jt, dtype=np.int64, sep=",")  # noqa: NPY201
                except ValueError:
                    p = t = None
        if (
            p is not None
            and t is not None
            and len(p) == n
            and len(t) == n
            and n
            and p.min() >= 0
            and p.max() < 2**40
            and t.min() >= 0
            and t.max() < 2**23
        ):
            key = (p << 23) | t
            small = _factorize_small(key)
            if small is not None:
                codes, uniq = small
            else:
                uniq_arr, codes = np.unique(key, return_inverse=True)
                uniq = uniq_arr.tolist()
            ids = np.array([self._lane_id(str(k >> 23), str(k & (2**23 - 1))) for k in uniq], dtype=np.int32)
            return ids[codes.reshape(-1)]
        return np.fromiter((self._lane_id(_text(a), _text(b)) for a, b in zip(pids, tids)), dtype=np.int32, count=n)

    def _lane_id(self, pid: str, tid: str) -> int:
        key = (pid, tid)
        got = self.lanes.get(key)
        if got is None:
            got = self.lanes[key] = len(self.lanes)
        return got

    def _times(self, texts: Sequence, where: np.ndarray, field_name: str, empty_ns: int | None) -> np.ndarray:
        try:
            return us_texts_to_ns(texts, empty_ns)
        except NumberError as e:
            raise FieldError(int(where[e.index]), f"trace event field '{field_name}': {e}") from None

    def _add_x(self, xs: Sequence, idx: np.ndarray) -> None:
        # one C-level pass per field (transposing with zip(*rows) is slower)
        names, cats, pids, tids, tss, durs, argss = (
            list(map(g, xs)) for g in (_NAME, _CAT, _PID, _TID, _TS, _DUR, _ARGS)
        )
        self.x_ts.append(self._times(tss, idx, "ts", None))
        self.x_dur.append(self._times(durs, idx, "dur", 0))
        self.x_lane.append(self._lanes_of(pids, tids))
        self.x_name.append(_intern(names, self.names))
        self.x_cat.append(_intern(cats, self.cats))
        lens = np.fromiter(map(len, argss), dtype=np.int64, count=len(argss))
        base = self.store.append(b"".join(argss))
        self.x_alen.append(lens)
        self.x_aoff.append(np.cumsum(lens) - lens + base)

    def _add_flows(self, fs: Sequence, idx: np.ndarray, codes: np.ndarray) -> None:
        cats, pids, tids, tss, ids, bps = (list(map(g, fs)) for g in (_CAT, _PID, _TID, _TS, _ID, _BP))
        kind = _FLOW_KIND[codes]
        self.f_kind.append(kind)
        self.f_ts.append(self._times(tss, idx, "ts", None))
        self.f_lane.append(self._lanes_of(pids, tids))
        self.f_enc.append(np.fromiter(map("e".__eq__, bps), dtype=bool, count=len(bps)))
        # a flow is named by its start: keep the names of 's' events only (no interning: ids
        # such as HostToDevice<id> make most names unique)
        self.f_sname.extend(map(_NAME, _take(fs, np.flatnonzero(kind == 0))))
        self.f_cat.append(_intern(cats, self.cats))
        num, code = self._flow_ids(ids)
        self.f_idnum.append(num)
        self.f_idcode.append(code)

    def _flow_ids(self, ids: list) -> tuple[np.ndarray, np.ndarray]:
        """Flow ids as (number, -1) when their text is a canonical integer, else (0, text code).

        Ids are compared as text ("5" and 5 are the same flow id); big HostToDevice ids stay exact.
        """
        n = len(ids)
        numeric = np.full(n, -1, dtype=np.int32)
        if isinstance(ids[0], int):
            try:
                values = np.fromiter(ids, dtype=np.int64, count=n)
                if int(values.max()) < 2**63 - 1:
                    return values, numeric
            except (TypeError, OverflowError, ValueError):
                pass
        try:
            texts = ids
            joined = ",".join(ids)
        except TypeError:  # ints among strings, or raw JSON values
            texts = [_text(i) for i in ids]
            joined = ",".join(texts)
        canonical = _canonical_ints(joined, n)
        if canonical is not None:
            return canonical, numeric
        # one by one, with the same rule: canonical int64 text -> number, anything else -> text code
        table = self.id_texts
        nums = np.zeros(n, dtype=np.int64)
        for i, t in enumerate(texts):
            t = str(t)
            v = _canonical_int(t)
            if v is None:
                numeric[i] = table.setdefault(t, len(table))
            else:
                nums[i] = v
        return nums, numeric

    def _add_other(self, e, i: int) -> None:
        ph = e.ph
        if ph in ("B", "E"):
            lane = self._lane_id(_text(e.pid), _text(e.tid))
            ts = int(self._times([e.ts], np.array([i]), "ts", None)[0])
            self.be.append(
                (lane, ts, ph, _intern([e.name], self.names)[0], _intern([e.cat], self.cats)[0], bytes(e.args))
            )
        elif ph in INSTANT_PHASES:
            lane = self._lane_id(_text(e.pid), _text(e.tid))
            ts = int(self._times([e.ts], np.array([i]), "ts", None)[0])
            self.instants.append((lane, ts, int(_intern([e.name], self.names)[0]), int(_intern([e.cat], self.cats)[0])))
        elif ph == "C":
            ts = int(self._times([e.ts], np.array([i]), "ts", None)[0])
            self.counters.append((_text(e.pid), e.name, ts, bytes(e.args)))
        elif ph == "M":
            self.meta.append((_text(e.pid), _text(e.tid), e.name, bytes(e.args)))
        else:
            self.ignored[ph] = self.ignored.get(ph, 0) + 1

    # -- output ---------------------------------------------------------------------------------
    def take_chunks(self) -> dict[str, list[np.ndarray]]:
        """The per-chunk pieces of every column (or the joined columns as single pieces); the part
        lets go of them, so whoever joins them can free each piece once copied."""
        out = (
            {k: [v] for k, v in self._cols.items()}
            if self._cols is not None
            else {k: getattr(self, k) for k in _COLUMNS}
        )
        self._cols = None
        for k in _COLUMNS:
            setattr(self, k, [])
        return out

    def columns(self) -> dict[str, np.ndarray]:
        """Concatenate the chunk columns (and free the per-chunk pieces); idempotent."""
        if self._cols is not None:
            return self._cols

        def cat(parts: list, dtype) -> np.ndarray:
            out = np.concatenate(parts).astype(dtype, copy=False) if parts else np.zeros(0, dtype=dtype)
            parts.clear()
            return out

        self._cols = {
            "x_lane": cat(self.x_lane, np.int32),
            "x_ts": cat(self.x_ts, np.int64),
            "x_dur": cat(self.x_dur, np.int64),
            "x_name": cat(self.x_name, np.int32),
            "x_cat": cat(self.x_cat, np.int32),
            "x_alen": cat(self.x_alen, np.int64),
            "x_aoff": cat(self.x_aoff, np.int64),
            "f_kind": cat(self.f_kind, np.uint8),
            "f_lane": cat(self.f_lane, np.int32),
            "f_ts": cat(self.f_ts, np.int64),
            "f_enc": cat(self.f_enc, bool),
            "f_cat": cat(self.f_cat, np.int32),
            "f_idnum": cat(self.f_idnum, np.int64),
            "f_idcode": cat(self.f_idcode, np.int32),
        }
        return self._cols
