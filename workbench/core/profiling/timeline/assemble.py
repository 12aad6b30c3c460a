"""Merge parts into timeline columns: sorted slices, nesting, flows, instants, counters.

Everything here is vectorised over the slices (sorting, depth, parents, flow binding); only
metadata, ``B``/``E`` pairs and counter samples (all rare) are handled one event at a time.
Where the compiled ``_fastscan`` is available, nesting, flow binding and the flow name/id tables
use its one-pass loops (same definitions; ``ASCEND_WORKBENCH_TRACE_FASTSCAN=0`` keeps numpy).
Name and cat tables come out sorted, so codes never depend on how the files were read.
"""

from __future__ import annotations

import threading
from collections import defaultdict
from dataclasses import dataclass, field

import msgspec
import numpy as np

from .fast import _fastscan
from .fast import available as _fast  # the compiled helpers, unless switched off
from .lanes import Proc, build_lanes, device_of, group_device, packed_pids, read_meta
from .model import BytesColumn, CodeColumn, Counter, Flows, Instants
from .part import Part
from .store import ArgsStore, ChainStore


def _sort_slices(lane: np.ndarray, start: np.ndarray, dur: np.ndarray) -> np.ndarray:
    """Permutation ordering slices by (lane, start, -dur)."""
    n = len(start)
    if n == 0:
        return np.zeros(0, dtype=np.int64)
    lo, hi = int(start.min()), int(start.max())
    lane_bits = max(int(lane.max()), 1).bit_length()
    span_bits = max(hi - lo, 1).bit_length()
    if lane_bits + span_bits <= 62:
        key = (lane.astype(np.int64) << span_bits) | (start - lo)
        order = np.argsort(key, kind="stable")
        skey = key[order]
        tie = np.flatnonzero(skey[1:] == skey[:-1])
        if len(tie):
            # equal (lane, start): longer first, so parents precede their children
            idx = np.unique(np.concatenate([tie, tie + 1]))
            sub = order[idx]
            sub_order = np.lexsort((-dur[sub], skey[idx]))
            order[idx] = sub[sub_order]
        return order
    return np.lexsort((-dur, start, lane))


def _c(a: np.ndarray, dtype) -> np.ndarray:
    return np.ascontiguousarray(a, dtype=dtype)


def _check_span(e2_max: int, lane: np.ndarray, overflow: bool = False) -> int:
    """Bits of the doubled time span; raises when lane and time do not fit one int64 key."""
    bits = max(e2_max, 1).bit_length()
    lane_bits = max(int(lane.max()), 1).bit_length()
    if overflow or bits + lane_bits > 62:
        raise ValueError("trace too long to index")  # > ~70 years at 1 ns with thousands of lanes
    return bits


def _lane_bounds(lane: np.ndarray, top: int) -> np.ndarray:
    """bounds[k]:bounds[k + 1] is the index range of lane k in the sorted ``lane`` column."""
    return np.searchsorted(lane, np.arange(top + 2, dtype=lane.dtype))


def _depth_parent(lane: np.ndarray, start: np.ndarray, dur: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Nesting depth and parent index of sorted slices (vectorised, per lane).

    depth = slices of the lane already started minus those already ended; a zero-length slice
    counts as open at its own instant. Improperly overlapping slices still get a depth (the
    number of open slices); views lay those out on their own.
    """
    n = len(start)
    if n == 0:
        return np.zeros(0, np.int16), np.zeros(0, np.int32)
    if _fast():  # one pass with a heap of open ends, same definition
        depth = np.empty(n, dtype=np.int32)
        parent = np.empty(n, dtype=np.int32)
        top, e2_max, overflow = _fastscan.nest(
            _c(lane, np.int32), _c(start, np.int64), _c(dur, np.int64), depth, parent
        )
        _check_span(e2_max, lane, overflow)
        return (depth.astype(np.int16) if top < 32767 else depth), parent
    lane_start = _lane_bounds(lane, int(lane.max()))[lane]
    lo = int(start.min())
    s2 = (start - lo) * 2
    e2 = (start - lo + dur) * 2 + (dur == 0)
    bits = _check_span(int(e2.max()), lane)
    lane64 = lane.astype(np.int64) << bits
    ends = np.sort(lane64 | e2)
    ended = np.searchsorted(ends, lane64 | s2, side="right") - lane_start
    depth = (np.arange(n) - lane_start) - ended
    np.maximum(depth, 0, out=depth)
    parent = np.full(n, -1, dtype=np.int32)
    depth = depth.astype(np.int16 if depth.max(initial=0) < 32767 else np.int32)
    by_level = np.argsort(depth, kind="stable")  # radix sort for 16-bit keys
    levels = depth[by_level]
    bounds = np.searchsorted(levels, np.arange(int(depth.max()) + 2))
    for d in range(1, int(depth.max()) + 1):
        up = by_level[bounds[d - 1] : bounds[d]]
        here = by_level[bounds[d] : bounds[d + 1]]
        pos = np.searchsorted(up, here) - 1
        parent[here] = np.where(pos >= 0, up[np.maximum(pos, 0)], -1)
    return depth, parent


def bind_points(
    lane: np.ndarray,
    start: np.ndarray,
    end: np.ndarray,
    parent: np.ndarray,
    p_lane: np.ndarray,
    p_ts: np.ndarray,
    enclosing: np.ndarray,
) -> np.ndarray:
    """Slice each point binds to: the deepest slice of its lane enclosing ``ts`` (start <= ts <=
    end), or, where ``enclosing`` is False (flow end without ``bp: e``), the next slice starting
    at or after ``ts``. -1 if none."""
    m = len(p_ts)
    out = np.full(m, -1, dtype=np.int64)
    if m == 0 or len(start) == 0:
        return out
    if _fast():  # the same searches and climbs, one point at a time
        _fastscan.bind(
            _c(lane, np.int32),
            _c(start, np.int64),
            _c(end, np.int64),
            _c(parent, np.int32),
            _c(p_lane, np.int32),
            _c(p_ts, np.int64),
            _c(enclosing, np.bool_),
            out,
        )
        return out
    bounds = _lane_bounds(lane, max(int(lane.max()), int(p_lane.max())))
    lane_lo, lane_hi = bounds[p_lane], bounds[p_lane + 1]
    # index of the last slice (in lane order) starting at or before ts: starts are sorted per lane
    j = np.empty(m, dtype=np.int64)
    for ln in np.unique(p_lane).tolist():
        sel = np.flatnonzero(p_lane == ln)
        lo, hi = int(lane_lo[sel[0]]), int(lane_hi[sel[0]])
        j[sel] = lo + np.searchsorted(start[lo:hi], p_ts[sel], side="right") - 1
        if not enclosing[sel].all():
            nxt = sel[~enclosing[sel]]
            k = lo + np.searchsorted(start[lo:hi], p_ts[nxt], side="left")
            # the outermost slice starting there comes first in (start, -dur) order
            out[nxt] = np.where(k < hi, k, -1)
    enc = np.flatnonzero(enclosing & (j >= lane_lo))
    cur = j[enc]
    ts = p_ts[enc]
    while len(enc):
        inside = end[cur] >= ts
        done = inside | (parent[cur] < 0)
        out[enc[done & inside]] = cur[done & inside]
        keep = ~done
        enc, cur, ts = enc[keep], parent[cur[keep]], ts[keep]
    return out


def _pair_flows(
    keys: tuple[np.ndarray, ...], kind: np.ndarray, ts: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray, int]:
    """Pair flow points sharing a key (group, cat, id) in time order: (src idx, dst idx, name idx,
    unpaired). A chain ``s``, ``t``..., ``f`` (the ``t`` steps of the Chrome trace format) is one
    arrow per hop (s->t, t->t, t->f), each named by the chain's ``s`` (``name idx``); a chain that
    ends in a step (``s``, ``t``: msprof's ``Data_aug Bound``) ends there."""
    order = np.lexsort((ts, *reversed(keys)))
    n = len(order)
    diff = np.zeros(max(n - 1, 0), dtype=bool)
    for k in keys:
        sk = k[order]
        diff |= sk[1:] != sk[:-1]
    c = np.concatenate([[0], np.cumsum(diff)]) if n else np.zeros(0, np.int64)  # group number, sorted
    k = kind[order]
    src, dst, names = [], [], []
    # fast path: groups of exactly [s, f] or [s, t]
    first = np.ones(n, dtype=bool)
    first[1:] = c[1:] != c[:-1]
    starts = np.flatnonzero(first)
    sizes = np.diff(np.append(starts, n))
    simple = sizes == 2
    s_idx = starts[simple]
    fwd = (k[s_idx] == 0) & (k[s_idx + 1] != 0)
    rev = (k[s_idx] == 2) & (k[s_idx + 1] == 0)  # an end stamped before its start: still one flow
    ok = fwd | rev
    src.append(order[np.where(fwd, s_idx, s_idx + 1)[ok]])
    dst.append(order[np.where(fwd, s_idx + 1, s_idx)[ok]])
    names.append(src[-1])
    unpaired = int((~ok).sum()) * 2
    hops: list[tuple[int, int, int]] = []
    for g in np.flatnonzero(~simple).tolist():
        a = int(starts[g])
        prev = head = -1  # the chain's last point and its start
        hopped = False
        for pos in range(a, a + int(sizes[g])):
            if k[pos] == 0:
                if prev >= 0 and not hopped:
                    unpaired += 1
                prev = head = pos
                hopped = False
            elif prev >= 0:  # a step or the end: one hop from the chain's last point
                hops.append((prev, pos, head))
                hopped = True
                prev = -1 if k[pos] == 2 else pos
            else:
                unpaired += 1
        if prev >= 0 and not hopped:
            unpaired += 1
    if hops:
        h = np.array(hops, dtype=np.int64)
        src.append(order[h[:, 0]])
        dst.append(order[h[:, 1]])
        names.append(order[h[:, 2]])
    s = np.concatenate(src) if src else np.zeros(0, np.int64)
    d = np.concatenate(dst) if dst else np.zeros(0, np.int64)
    o = np.argsort(ts[s], kind="stable")
    s, d = s[o], d[o]
    if not hops:  # no chains: every flow is named by its own start (no second index array)
        return s, d, s, unpaired
    return s, d, np.concatenate(names)[o], unpaired


class _Background:
    """``fn(*args)`` on another thread; :meth:`result` waits for it (and re-raises its error)."""

    def __init__(self, fn, *args) -> None:
        self._out: list = []
        self._thread = threading.Thread(target=self._run, args=(fn, args), name="timeline-merge", daemon=True)
        self._thread.start()

    def _run(self, fn, args) -> None:
        try:
            self._out.append((True, fn(*args)))
        except BaseException as e:  # noqa: BLE001 - handed to the caller by result()
            self._out.append((False, e))

    def result(self):
        self._thread.join()
        ok, value = self._out[0]
        if not ok:
            raise value
        return value


def _src_names(src: np.ndarray, kind: np.ndarray, snames: list[str]) -> tuple[np.ndarray, list[str]]:
    """(codes, table) of the names of the flows' start events, numbered in order of first use."""
    rank = np.cumsum(kind == 0) - 1  # position of each flow start among the starts
    at = rank[src].astype(np.int64)
    if _fast():
        codes = np.empty(len(at), dtype=np.int32)
        return codes, _fastscan.first_codes(snames, at, codes)
    table: dict[str, int] = {}
    codes = np.fromiter((table.setdefault(snames[r], len(table)) for r in at.tolist()), dtype=np.int32, count=len(src))
    return codes, list(table)


def _flow_id_texts(codes: np.ndarray, nums: np.ndarray, texts: list[str]) -> np.ndarray:
    """Flow ids as UTF-8 bytes (``S`` as wide as the longest): ``texts[code]``, or the decimal
    text of ``num`` where code is -1."""
    if not len(codes):
        return np.zeros(0, "S1")
    numeric = codes < 0
    if _fast():
        raw, w = _fastscan.decimal_texts(np.ascontiguousarray(nums[numeric], dtype=np.int64))
        digits = np.frombuffer(raw, dtype=f"S{w}")
    else:
        digits = nums[numeric].astype("S20")  # the exact decimal text of each int64
    if numeric.all() and _fast():
        return digits
    table = np.array([t.encode("utf-8") for t in texts] or [b""], dtype=bytes)
    named = table[codes[~numeric]]
    width = max([1] + [int(np.char.str_len(a).max()) for a in (digits, named) if len(a)])
    out = np.zeros(len(codes), dtype=f"S{width}")
    out[numeric] = digits
    out[~numeric] = named
    return out


def _join(pieces: list, dtype) -> np.ndarray:
    """One array from chunk pieces, each an array or ``(codes, table, k)``: ``table[codes + k]``,
    or ``codes + k`` without a table. Each piece is released as soon as it is copied (peak memory:
    the result plus what is left of the pieces). A single plain piece is returned as it is."""
    if len(pieces) == 1 and isinstance(pieces[0], np.ndarray):
        return pieces[0].astype(dtype, copy=False)
    total = sum(len(p[0] if isinstance(p, tuple) else p) for p in pieces)
    out = np.empty(total, dtype=dtype)
    at = 0
    pieces.reverse()
    while pieces:
        p = pieces.pop()
        if isinstance(p, tuple):
            codes, table, k = p
            n = len(codes)
            if table is None:
                np.add(codes, k, out=out[at : at + n], casting="unsafe")
            else:
                np.take(table, codes + k if k else codes, out=out[at : at + n])
        else:
            n = len(p)
            out[at : at + n] = p
        at += n
        del p
    return out


def _sorted_table(table: dict[str, int]) -> tuple[list[str], np.ndarray]:
    """The strings of ``table`` sorted, and old code -> new code."""
    texts = sorted(table)
    perm = np.zeros(max(len(texts), 1), dtype=np.int32)
    perm[[table[t] for t in texts]] = np.arange(len(texts), dtype=np.int32)
    return texts, perm


def _remap(table: dict[str, int], local: dict[str, int]) -> np.ndarray:
    out = np.zeros(max(len(local), 1), dtype=np.int32)
    for text, i in local.items():
        out[i] = table.setdefault(text, len(table))
    return out


class _Pieces:
    """Named columns gathered from every part, each a list of chunk pieces for :func:`_join`.

    A piece is an array, or ``(codes, table, shift)`` whose values are ``table[codes + shift]``
    (``codes + shift`` without a table). Columns are joined one at a time by :meth:`take`, which
    drops their pieces, so the peak memory is one joined column beside what is left.
    """

    def __init__(self, names: tuple[str, ...]) -> None:
        self.columns: dict[str, list] = {name: [] for name in names}

    def add(self, name: str, pieces: list) -> None:
        self.columns[name].extend(pieces)

    def recode(self, name: str, perm: np.ndarray) -> None:
        """Send the codes of column ``name`` through ``perm`` (old code -> new code)."""
        self.columns[name] = [(c, perm[table], shift) for c, table, shift in self.columns[name]]

    def take(self, name: str, dtype) -> np.ndarray:
        return _join(self.columns.pop(name), dtype)


SLICE_COLUMNS = ("lane", "ts", "dur", "name", "cat", "args_off", "args_len")
FLOW_COLUMNS = ("kind", "lane", "ts", "enclosing", "cat", "group", "id_num", "id_code")


@dataclass
class _Gathered:
    """What every part holds, in one code space: the first stage of :func:`merge_parts`."""

    names: dict[str, int] = field(default_factory=dict)
    cats: dict[str, int] = field(default_factory=dict)
    lane_keys: dict[tuple[str, str, str], int] = field(default_factory=dict)  # (group, pid, tid) -> lane
    groups: list[str] = field(default_factory=list)
    procs: dict[str, dict[str, Proc]] = field(default_factory=lambda: defaultdict(dict))
    slices: _Pieces = field(default_factory=lambda: _Pieces(SLICE_COLUMNS))
    flows: _Pieces = field(default_factory=lambda: _Pieces(FLOW_COLUMNS))
    be_rows: list = field(default_factory=list)
    inst_rows: list = field(default_factory=list)
    counter_rows: list = field(default_factory=list)
    id_texts: dict[str, int] = field(default_factory=dict)
    start_names: list[str] = field(default_factory=list)  # names of flow starts, in flow-event order
    stores: list = field(default_factory=list)
    args_size: int = 0

    def add(self, group: str, part: Part) -> None:
        if group not in self.groups:
            self.groups.append(group)
        read_meta(part.meta, self.procs[group])
        name_map, cat_map = _remap(self.names, part.names), _remap(self.cats, part.cats)
        lane_map = np.zeros(max(len(part.lanes), 1), dtype=np.int32)
        for (pid, tid), i in part.lanes.items():
            lane_map[i] = self.lane_keys.setdefault((group, pid, tid), len(self.lane_keys))
        ch = part.take_chunks()
        id_map = np.concatenate([[-1], _remap(self.id_texts, part.id_texts)]).astype(np.int32)  # code + 1 -> code
        x = self.slices
        x.add("lane", [(c, lane_map, 0) for c in ch["x_lane"]])
        x.add("ts", ch["x_ts"])
        x.add("dur", ch["x_dur"])
        x.add("name", [(c, name_map, 0) for c in ch["x_name"]])
        x.add("cat", [(c, cat_map, 0) for c in ch["x_cat"]])
        x.add("args_off", [(c, None, self.args_size) for c in ch["x_aoff"]])
        x.add("args_len", ch["x_alen"])
        self.start_names.extend(part.f_sname)
        part.f_sname = []
        n_flows = sum(len(c) for c in ch["f_ts"])
        f = self.flows
        f.add("kind", ch["f_kind"])
        f.add("lane", [(c, lane_map, 0) for c in ch["f_lane"]])
        f.add("ts", ch["f_ts"])
        f.add("enclosing", ch["f_enc"])
        f.add("cat", [(c, cat_map, 0) for c in ch["f_cat"]])
        f.add("group", [np.full(n_flows, self.groups.index(group), dtype=np.int32)])
        f.add("id_num", ch["f_idnum"])
        f.add("id_code", [(c, id_map, 1) for c in ch["f_idcode"]])
        del ch
        for lane, ts, ph, nm, ct, raw in part.be:
            self.be_rows.append((int(lane_map[lane]), ts, ph, int(name_map[nm]), int(cat_map[ct]), raw))
        for lane, ts, nm, ct in part.instants:
            self.inst_rows.append((int(lane_map[lane]), ts, int(name_map[nm]), int(cat_map[ct])))
        for pid, name, ts, raw in part.counters:
            self.counter_rows.append((group, pid, name, ts, raw))
        self.stores.append(part.store)
        self.args_size += part.store.size


@dataclass
class _Tables:
    """The sorted name and category tables and, for each, old code -> new code."""

    names: list[str]
    name_perm: np.ndarray
    cats: list[str]
    cat_perm: np.ndarray


def _sort_tables(g: _Gathered) -> _Tables:
    """Name and cat tables in sorted order, so codes do not depend on how the files were read
    (the new codes are folded into each piece's code table before the columns are joined)."""
    tables = _Tables(*_sorted_table(g.names), *_sorted_table(g.cats))
    g.slices.recode("name", tables.name_perm)
    g.slices.recode("cat", tables.cat_perm)
    g.flows.recode("cat", tables.cat_perm)
    return tables


def _slice_columns(g: _Gathered, tables: _Tables, warnings: list[str]) -> tuple[dict[str, np.ndarray], int]:
    """The complete slices as joined columns (unsorted), B/E pairs appended as slices (their args
    in an extra store); and the count of complete (``X``) events, which the pairs do not add to."""
    x = g.slices
    cols = {
        "lane": x.take("lane", np.int32),
        "ts": x.take("ts", np.int64),
        "dur": x.take("dur", np.int64),
        "name": x.take("name", np.int32),
        "cat": x.take("cat", np.int32),
        "args_off": x.take("args_off", np.int64),
        "args_len": x.take("args_len", np.int64),
    }
    complete = len(cols["ts"])
    extra = ArgsStore(spill=False)
    if g.be_rows:
        be_slices, be_notes = _pair_be(g.be_rows, extra, g.args_size)
        warnings.extend(be_notes)
        if be_slices:
            b = np.array(be_slices, dtype=object).T
            added = {
                "lane": b[0].astype(np.int32),
                "ts": b[1].astype(np.int64),
                "dur": b[2].astype(np.int64),
                "name": tables.name_perm[b[3].astype(np.int64)],
                "cat": tables.cat_perm[b[4].astype(np.int64)],
                "args_off": b[5].astype(np.int64),
                "args_len": b[6].astype(np.int64),
            }
            for k, more in added.items():
                cols[k] = np.concatenate([cols[k], more])
    extra.finish()
    g.stores.append(extra)
    return cols, complete


def _flow_columns(g: _Gathered) -> dict[str, np.ndarray]:
    f = g.flows
    dtypes = {
        "kind": np.uint8,
        "lane": np.int32,
        "ts": np.int64,
        "enclosing": bool,
        "cat": np.int32,
        "group": np.int32,
        "id_num": np.int64,
        "id_code": np.int32,
    }
    return {k: f.take(k, dtype) for k, dtype in dtypes.items()}


def _origin(x_ts: np.ndarray, f_ts: np.ndarray, g: _Gathered) -> int:
    """The earliest timestamp of anything."""
    firsts = [int(a.min()) for a in (x_ts, f_ts) if len(a)]
    firsts += [min(r[1] for r in g.inst_rows)] if g.inst_rows else []
    firsts += [min(r[3] for r in g.counter_rows)] if g.counter_rows else []
    return min(firsts) if firsts else 0


def _sorted_slices(x: dict[str, np.ndarray], origin: int) -> dict[str, np.ndarray]:
    """Slices in (lane, start, -dur) order, times relative to ``origin``, with depth and parent.
    Each column is gathered and its unsorted copy dropped at once (peak memory)."""
    x["ts"] -= origin  # in place: these columns are ours
    order = _sort_slices(x["lane"], x["ts"], x["dur"])
    out = {}
    for key, name in (
        ("lane", "lane"),
        ("ts", "start_ns"),
        ("dur", "dur_ns"),
        ("name", "name_id"),
        ("cat", "cat_id"),
        ("args_off", "args_off"),
        ("args_len", "args_len"),
    ):
        out[name] = x.pop(key)[order]
    del order
    out["depth"], out["parent"] = _depth_parent(out["lane"], out["start_ns"], out["dur_ns"])
    return out


def _flows(
    f: dict[str, np.ndarray],
    pairing: _Background,
    s: dict[str, np.ndarray],
    origin: int,
    g: _Gathered,
    cat_names: list[str],
    warnings: list[str],
) -> tuple[Flows, int]:
    """Paired flows bound to the slices they start and end on; returns (flows, flow count)."""
    src, dst, name_at, unpaired = pairing.result()
    flow_id_arr = _flow_id_texts(f["id_code"][src], f["id_num"][src], list(g.id_texts))
    flow_names = _src_names(name_at, f["kind"], g.start_names)
    if unpaired:
        warnings.append(f"{unpaired} flow events without a partner (same cat and id) were ignored")
    f_rel = f["ts"] - origin
    end = s["start_ns"] + s["dur_ns"]
    bound = bind_points(s["lane"], s["start_ns"], end, s["parent"], f["lane"], f_rel, f["enclosing"] | (f["kind"] != 2))
    flows = Flows(
        cat=CodeColumn(f["cat"][src], cat_names),
        id=BytesColumn(flow_id_arr),
        name=CodeColumn(*flow_names),
        src_slice=bound[src],
        dst_slice=bound[dst],
        src_ns=f_rel[src],
        dst_ns=f_rel[dst],
        src_lane=f["lane"][src],
        dst_lane=f["lane"][dst],
    )
    return flows, len(src)


def _instants(g: _Gathered, lane_remap: np.ndarray, tables: _Tables, origin: int) -> Instants:
    if not g.inst_rows:
        z = np.zeros(0, np.int32)
        return Instants(z, np.zeros(0, np.int64), z, z)
    ia = np.array(g.inst_rows, dtype=np.int64)
    io = np.lexsort((ia[:, 1], lane_remap[ia[:, 0]]))
    return Instants(
        lane_remap[ia[io, 0]].astype(np.int32),
        ia[io, 1] - origin,
        tables.name_perm[ia[io, 2]],
        tables.cat_perm[ia[io, 3]],
    )


def merge_parts(parts: list[tuple[str, Part]], default_device: int | None = 0) -> dict:
    """Columns and tables for :class:`~.model.Timeline` from parts tagged with a pid group.

    Stages: gather every part into one code space; sort the name/cat tables; join the slice
    columns (B/E pairs added); join the flow columns; find the origin; build the lanes; pair the
    flows (on a second thread: numpy sorts release the GIL) while the slices are sorted and
    nested; bind the flows; instants and counters.
    """
    warnings: list[str] = []
    g = _Gathered()
    for group, part in parts:
        g.add(group, part)
    tables = _sort_tables(g)
    x, event_count = _slice_columns(g, tables, warnings)
    f = _flow_columns(g)
    origin = _origin(x["ts"], f["ts"], g)

    packed = {grp: packed_pids(g.procs[grp]) for grp in g.groups}
    lanes, lane_remap = build_lanes(g.groups, list(g.lane_keys), g.procs, packed, default_device)
    x["lane"] = lane_remap[x["lane"]] if len(x["lane"]) else x["lane"]
    f["lane"] = lane_remap[f["lane"]] if len(f["lane"]) else f["lane"]

    # flows pair within a pid group (one folder): two ranks' files reuse the same ids
    pairing = _Background(_pair_flows, (f["group"], f["cat"], f["id_code"], f["id_num"]), f["kind"], f["ts"])
    s = _sorted_slices(x, origin)
    span = int((s["start_ns"] + s["dur_ns"]).max() - s["start_ns"].min()) if event_count else 0
    flows, flow_count = _flows(f, pairing, s, origin, g, tables.cats, warnings)
    instants = _instants(g, lane_remap, tables, origin)
    counters = _counters(g.counter_rows, g.procs, packed, default_device, origin, warnings)
    devices = sorted(
        {ln.device for ln in lanes if ln.device is not None} | {c.device for c in counters if c.device is not None}
    )
    stores = g.stores
    return dict(
        origin_ns=origin,
        lanes=lanes,
        **s,
        names=tables.names,
        cats=tables.cats,
        flows=flows,
        instants=instants,
        counters=counters,
        event_count=event_count,
        flow_count=flow_count,
        span_ns=span,
        devices=devices,
        _store=ChainStore(stores) if len(stores) > 1 else stores[0],
        warnings=warnings,
    )


def _pair_be(rows: list, store: ArgsStore, base: int) -> tuple[list, list[str]]:
    """Match B with E per lane (a stack, in file order)."""
    stacks: dict[int, list] = defaultdict(list)
    out, lone_e = [], 0
    for lane, ts, ph, nm, ct, raw in rows:
        if ph == "B":
            stacks[lane].append((ts, nm, ct, raw))
        elif stacks[lane]:
            bts, bnm, bct, braw = stacks[lane].pop()
            off = base + store.append(braw)
            out.append((lane, bts, max(ts - bts, 0), bnm, bct, off, len(braw)))
        else:
            lone_e += 1
    notes = []
    lone_b = sum(len(s) for s in stacks.values())
    if lone_b:
        notes.append(f"{lone_b} 'B' events without a matching 'E' were ignored")
    if lone_e:
        notes.append(f"{lone_e} 'E' events without a matching 'B' were ignored")
    return out, notes


def _counters(rows: list, procs_by_group: dict, packed: dict, default_device, origin: int, warnings: list):

    grouped: dict[tuple[str, str, str], list] = defaultdict(list)
    for group, pid, name, ts, raw in rows:
        grouped[(group, pid, name)].append((ts, raw))
    out = []
    for (group, pid, name), samples in grouped.items():
        samples.sort(key=lambda s: s[0])
        proc = procs_by_group[group].get(pid) or Proc()
        series: dict[str, np.ndarray] = {}
        bad = 0
        for k, (_, raw) in enumerate(samples):
            try:
                args = msgspec.json.decode(raw) if raw else {}
            except msgspec.DecodeError:
                args = None
            if not isinstance(args, dict):
                bad += 1
                continue
            for key, v in args.items():
                if isinstance(v, (int, float)) and not isinstance(v, bool):
                    arr = series.get(key)
                    if arr is None:
                        arr = series[key] = np.full(len(samples), np.nan)
                    arr[k] = v
        if bad:
            warnings.append(f"counter {name!r}: {bad} samples without an args object were ignored")
        out.append(
            Counter(
                process_name=proc.name,
                name=name,
                device=device_of(pid, proc, packed[group], group_device(group, default_device)),
                ts_ns=np.array([s[0] for s in samples], dtype=np.int64) - origin,
                series=series,
            )
        )
    return out
