"""Merge parts into timeline columns: sorted slices, nesting, flows, instants, counters.

Everything here is vectorised over the slices (sorting, depth, parents, flow binding); only
metadata, ``B``/``E`` pairs and counter samples (all rare) are handled one event at a time.
"""
from __future__ import annotations

from collections import defaultdict

import msgspec
import numpy as np

from ._trace_lanes import Proc, build_lanes, device_of, group_device, packed_pids, read_meta
from ._trace_part import Part
from ._trace_store import ArgsStore, ChainStore


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


def _depth_parent(lane: np.ndarray, start: np.ndarray, dur: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Nesting depth and parent index of sorted slices (vectorised, per lane).

    depth = slices of the lane already started minus those already ended; a zero-length slice
    counts as open at its own instant. Improperly overlapping slices still get a depth (the
    number of open slices); views lay those out on their own.
    """
    n = len(start)
    if n == 0:
        return np.zeros(0, np.int16), np.zeros(0, np.int32)
    lane_start = np.searchsorted(lane, lane, side="left")
    lo = int(start.min())
    s2 = (start - lo) * 2
    e2 = (start - lo + dur) * 2 + (dur == 0)
    bits = max(int(e2.max()), 1).bit_length()
    lane_bits = max(int(lane.max()), 1).bit_length()
    if bits + lane_bits > 62:
        raise ValueError("trace too long to index")  # > ~70 years at 1 ns with thousands of lanes
    lane64 = lane.astype(np.int64) << bits
    ends = np.sort(lane64 | e2)
    ended = np.searchsorted(ends, lane64 | s2, side="right") - lane_start
    depth = (np.arange(n) - lane_start) - ended
    np.maximum(depth, 0, out=depth)
    parent = np.full(n, -1, dtype=np.int32)
    by_level = np.argsort(depth, kind="stable")
    levels = depth[by_level]
    bounds = np.searchsorted(levels, np.arange(int(depth.max()) + 2))
    for d in range(1, int(depth.max()) + 1):
        up = by_level[bounds[d - 1]:bounds[d]]
        here = by_level[bounds[d]:bounds[d + 1]]
        pos = np.searchsorted(up, here) - 1
        parent[here] = np.where(pos >= 0, up[np.maximum(pos, 0)], -1)
    return depth.astype(np.int16 if depth.max(initial=0) < 32767 else np.int32), parent


def bind_points(lane: np.ndarray, start: np.ndarray, end: np.ndarray, parent: np.ndarray,
                p_lane: np.ndarray, p_ts: np.ndarray, enclosing: np.ndarray) -> np.ndarray:
    """Slice each point binds to: the deepest slice of its lane enclosing ``ts`` (start <= ts <=
    end), or, where ``enclosing`` is False (flow end without ``bp: e``), the next slice starting
    at or after ``ts``. -1 if none."""
    m = len(p_ts)
    out = np.full(m, -1, dtype=np.int64)
    if m == 0 or len(start) == 0:
        return out
    lane_lo = np.searchsorted(lane, p_lane, side="left")
    lane_hi = np.searchsorted(lane, p_lane, side="right")
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


def _pair_flows(keys: tuple[np.ndarray, ...], kind: np.ndarray, ts: np.ndarray) -> tuple[np.ndarray, np.ndarray, int]:
    """Pair flow starts with flow ends sharing a key (group, cat, id): (src idx, dst idx, unpaired)."""
    order = np.lexsort((ts, *reversed(keys)))
    n = len(order)
    diff = np.zeros(max(n - 1, 0), dtype=bool)
    for k in keys:
        sk = k[order]
        diff |= sk[1:] != sk[:-1]
    c = np.concatenate([[0], np.cumsum(diff)]) if n else np.zeros(0, np.int64)  # group number, sorted
    k = kind[order]
    src, dst = [], []
    # fast path: groups of exactly [s, f]
    first = np.ones(n, dtype=bool)
    first[1:] = c[1:] != c[:-1]
    starts = np.flatnonzero(first)
    sizes = np.diff(np.append(starts, n))
    simple = (sizes == 2)
    s_idx = starts[simple]
    fwd = (k[s_idx] == 0) & (k[s_idx + 1] == 2)
    rev = (k[s_idx] == 2) & (k[s_idx + 1] == 0)  # an end stamped before its start: still one flow
    ok = fwd | rev
    src.append(order[np.where(fwd, s_idx, s_idx + 1)[ok]])
    dst.append(order[np.where(fwd, s_idx + 1, s_idx)[ok]])
    unpaired = int((~ok).sum()) * 2
    for g in np.flatnonzero(~simple).tolist():
        a = int(starts[g])
        pending = -1
        for pos in range(a, a + int(sizes[g])):
            if k[pos] == 0:
                if pending >= 0:
                    unpaired += 1
                pending = pos
            elif k[pos] == 2:
                if pending >= 0:
                    src.append(order[pending:pending + 1])
                    dst.append(order[pos:pos + 1])
                    pending = -1
                else:
                    unpaired += 1
        if pending >= 0:
            unpaired += 1
    s = np.concatenate(src) if src else np.zeros(0, np.int64)
    d = np.concatenate(dst) if dst else np.zeros(0, np.int64)
    o = np.argsort(ts[s], kind="stable")
    return s[o], d[o], unpaired


def _src_names(src: np.ndarray, kind: np.ndarray, snames: list[str]) -> tuple[np.ndarray, list[str]]:
    """(codes, table) of the names of the flows' start events."""
    rank = np.cumsum(kind == 0) - 1  # position of each flow start among the starts
    table: dict[str, int] = {}
    codes = np.fromiter((table.setdefault(snames[r], len(table)) for r in rank[src].tolist()),
                        dtype=np.int32, count=len(src))
    return codes, list(table)


def _shifted(a: np.ndarray, by: int) -> np.ndarray:
    if by:
        a += by
    return a


def _recode(codes: np.ndarray, local: dict[str, int], table: dict[str, int]) -> np.ndarray:
    """Part-local text codes (-1 = none) as codes into the global ``table``."""
    if not local:
        return codes
    remap = _remap(table, local)
    return np.where(codes >= 0, remap[np.maximum(codes, 0)], -1).astype(np.int32)


def _remap(table: dict[str, int], local: dict[str, int]) -> np.ndarray:
    out = np.zeros(max(len(local), 1), dtype=np.int32)
    for text, i in local.items():
        out[i] = table.setdefault(text, len(table))
    return out


def merge_parts(parts: list[tuple[str, Part]], default_device: int | None = 0) -> dict:
    """Columns and tables for :class:`timeline.Timeline` from parts tagged with a pid group."""
    from .timeline import BytesColumn, CodeColumn, Counter, Flows, Instants  # noqa: PLC0415

    warnings: list[str] = []
    names: dict[str, int] = {}
    cats: dict[str, int] = {}
    lane_keys: dict[tuple[str, str, str], int] = {}
    groups: list[str] = []
    procs_by_group: dict[str, dict[str, Proc]] = defaultdict(dict)
    xs, fl, be_rows, inst_rows, counter_rows = [], [], [], [], []
    id_texts: dict[str, int] = {}
    snames: list[str] = []  # names of flow starts, in flow-event order
    stores = []
    base = 0
    for group, part in parts:
        if group not in groups:
            groups.append(group)
        read_meta(part.meta, procs_by_group[group])
        name_map, cat_map = _remap(names, part.names), _remap(cats, part.cats)
        lane_map = np.zeros(max(len(part.lanes), 1), dtype=np.int32)
        for (pid, tid), i in part.lanes.items():
            lane_map[i] = lane_keys.setdefault((group, pid, tid), len(lane_keys))
        cols = part.columns()
        part._cols = None  # the merged columns replace the part's: let them go as soon as used
        xs.append([lane_map[cols["x_lane"]], cols["x_ts"], cols["x_dur"], name_map[cols["x_name"]],
                   cat_map[cols["x_cat"]], _shifted(cols["x_aoff"], base), cols["x_alen"]])
        snames.extend(part.f_sname)
        part.f_sname = []
        fl.append([cols["f_kind"], lane_map[cols["f_lane"]], cols["f_ts"], cols["f_enc"],
                   np.zeros(0), cat_map[cols["f_cat"]],
                   np.full(len(cols["f_ts"]), groups.index(group), dtype=np.int32),
                   cols["f_idnum"], _recode(cols["f_idcode"], part.id_texts, id_texts)])
        del cols
        for lane, ts, ph, nm, ct, raw in part.be:
            be_rows.append((int(lane_map[lane]), ts, ph, int(name_map[nm]), int(cat_map[ct]), raw))
        for lane, ts, nm, ct in part.instants:
            inst_rows.append((int(lane_map[lane]), ts, int(name_map[nm]), int(cat_map[ct])))
        for pid, name, ts, raw in part.counters:
            counter_rows.append((group, pid, name, ts, raw))
        stores.append(part.store)
        base += part.store.size

    def cat(k: int, arrays: list, dtype) -> np.ndarray:
        """Column k of every part, joined (no copy for a single part); the parts' pieces are dropped."""
        pieces = [a[k] for a in arrays]
        for a in arrays:
            a[k] = None
        if not pieces:
            return np.zeros(0, dtype)
        out = pieces[0] if len(pieces) == 1 else np.concatenate(pieces)
        return out.astype(dtype, copy=False)

    x_lane, x_ts, x_dur = cat(0, xs, np.int32), cat(1, xs, np.int64), cat(2, xs, np.int64)
    x_name, x_cat, x_aoff, x_alen = cat(3, xs, np.int32), cat(4, xs, np.int32), cat(5, xs, np.int64), cat(6, xs, np.int64)
    event_count = len(x_ts)
    del xs

    # B/E pairs become slices (their args appended to an extra store)
    extra = ArgsStore(spill=False)
    if be_rows:
        be_slices, be_notes = _pair_be(be_rows, extra, base)
        warnings.extend(be_notes)
        if be_slices:
            b = np.array(be_slices, dtype=object).T
            x_lane = np.concatenate([x_lane, b[0].astype(np.int32)])
            x_ts = np.concatenate([x_ts, b[1].astype(np.int64)])
            x_dur = np.concatenate([x_dur, b[2].astype(np.int64)])
            x_name = np.concatenate([x_name, b[3].astype(np.int32)])
            x_cat = np.concatenate([x_cat, b[4].astype(np.int32)])
            x_aoff = np.concatenate([x_aoff, b[5].astype(np.int64)])
            x_alen = np.concatenate([x_alen, b[6].astype(np.int64)])
    extra.finish()
    stores.append(extra)

    f_kind, f_lane, f_ts = cat(0, fl, np.uint8), cat(1, fl, np.int32), cat(2, fl, np.int64)
    f_enc, f_cat = cat(3, fl, bool), cat(5, fl, np.int32)
    f_group, f_idnum, f_idcode = cat(6, fl, np.int32), cat(7, fl, np.int64), cat(8, fl, np.int32)
    del fl

    # origin: the earliest timestamp of anything
    firsts = [int(a.min()) for a in (x_ts, f_ts) if len(a)]
    firsts += [min(r[1] for r in inst_rows)] if inst_rows else []
    firsts += [min(r[3] for r in counter_rows)] if counter_rows else []
    origin = min(firsts) if firsts else 0

    packed = {g: packed_pids(procs_by_group[g]) for g in groups}
    lanes, lane_remap = build_lanes(groups, list(lane_keys), procs_by_group, packed, default_device)
    x_lane = lane_remap[x_lane] if len(x_lane) else x_lane
    f_lane = lane_remap[f_lane] if len(f_lane) else f_lane

    x_ts -= origin  # in place: these columns are ours
    order = _sort_slices(x_lane, x_ts, x_dur)
    # gather one column at a time and drop its unsorted copy at once (peak memory)
    lane_a = x_lane[order]
    del x_lane
    start = x_ts[order]
    del x_ts
    dur = x_dur[order]
    del x_dur
    name_a = x_name[order]
    del x_name
    cat_a = x_cat[order]
    del x_cat
    aoff = x_aoff[order]
    del x_aoff
    alen = x_alen[order]
    del x_alen, order
    depth, parent = _depth_parent(lane_a, start, dur)
    end = start + dur
    span = int(end.max() - start.min()) if event_count else 0

    # flows
    cat_names = list(cats)
    # flows pair within a pid group (one folder): two ranks' files reuse the same ids
    src, dst, unpaired = _pair_flows((f_group, f_cat, f_idcode, f_idnum), f_kind, f_ts)
    if unpaired:
        warnings.append(f"{unpaired} flow events without a partner (same cat and id) were ignored")
    f_rel = f_ts - origin
    bound = bind_points(lane_a, start, end, parent, f_lane, f_rel, f_enc | (f_kind != 2))
    texts = list(id_texts)
    flow_id_arr = np.array([(texts[c] if c >= 0 else str(v)).encode("utf-8")
                            for c, v in zip(f_idcode[src].tolist(), f_idnum[src].tolist())], dtype=bytes) \
        if len(src) else np.zeros(0, "S1")
    name_list = list(names)
    flows = Flows(cat=CodeColumn(f_cat[src], cat_names), id=BytesColumn(flow_id_arr),
                  name=CodeColumn(*_src_names(src, f_kind, snames)), src_slice=bound[src], dst_slice=bound[dst],
                  src_ns=f_rel[src], dst_ns=f_rel[dst], src_lane=f_lane[src], dst_lane=f_lane[dst])

    if inst_rows:
        ia = np.array(inst_rows, dtype=np.int64)
        io = np.lexsort((ia[:, 1], lane_remap[ia[:, 0]]))
        instants = Instants(lane_remap[ia[io, 0]].astype(np.int32), ia[io, 1] - origin,
                            ia[io, 2].astype(np.int32), ia[io, 3].astype(np.int32))
    else:
        z = np.zeros(0, np.int32)
        instants = Instants(z, np.zeros(0, np.int64), z, z)

    counters = _counters(counter_rows, procs_by_group, packed, default_device, origin, warnings)
    devices = sorted({ln.device for ln in lanes if ln.device is not None}
                     | {c.device for c in counters if c.device is not None})
    return dict(origin_ns=origin, lanes=lanes, lane=lane_a, start_ns=start, dur_ns=dur, name_id=name_a,
                cat_id=cat_a, depth=depth, parent=parent, names=name_list, cats=cat_names, flows=flows,
                instants=instants, counters=counters, event_count=event_count, flow_count=len(src),
                span_ns=span, devices=devices, args_off=aoff, args_len=alen,
                _store=ChainStore(stores) if len(stores) > 1 else stores[0], warnings=warnings)


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
    from .timeline import Counter  # noqa: PLC0415

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
        out.append(Counter(process_name=proc.name, name=name,
                           device=device_of(pid, proc, packed[group], group_device(group, default_device)),
                           ts_ns=np.array([s[0] for s in samples], dtype=np.int64) - origin, series=series))
    return out
