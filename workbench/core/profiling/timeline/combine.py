"""One timeline from several already loaded ones (devices, ranks, merged reports), without re-reading.

Lanes are appended in order (each keeps its own; indices and sort order shifted), times are
re-based on the earliest origin, slice / flow / parent indices shifted, name and category tables
unified; the raw args stay where they are (a chain of the inputs' stores).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from .model import SLICE_ARRAYS, Counter, Flows, Instants, Lane, Timeline, TimelineError
from .store import ArgsStore, ChainStore


def merge_timelines(timelines: Sequence[Timeline]) -> Timeline:
    """One :class:`Timeline` holding every slice, flow, instant and counter of ``timelines``."""
    if not timelines:
        raise TimelineError("no timeline to merge")
    if len(timelines) == 1:
        return timelines[0]
    origin = min(t.origin_ns for t in timelines)
    names: dict[str, int] = {}
    cats: dict[str, int] = {}
    lanes: list[Lane] = []
    cols: dict[str, list] = {k: [] for k in SLICE_ARRAYS}
    fl: dict[str, list] = {
        k: [] for k in ("cat", "id", "name", "src_slice", "dst_slice", "src_ns", "dst_ns", "src_lane", "dst_lane")
    }
    inst: dict[str, list] = {k: [] for k in ("lane", "ts_ns", "name_id", "cat_id")}
    counters: list[Counter] = []
    stores: list[ArgsStore] = []
    lane_base = slice_base = arg_base = 0
    for t in timelines:
        shift = t.origin_ns - origin
        name_map = np.array([names.setdefault(n, len(names)) for n in t.names] or [0], dtype=np.int32)
        cat_map = np.array([cats.setdefault(c, len(cats)) for c in t.cats] or [0], dtype=np.int32)
        for ln in t.lanes:
            lanes.append(Lane(**{**vars(ln), "index": lane_base + ln.index, "sort_index": lane_base + ln.sort_index}))
        cols["lane"].append(t.lane + lane_base)
        cols["start_ns"].append(t.start_ns + shift)
        cols["dur_ns"].append(np.asarray(t.dur_ns))
        cols["name_id"].append(name_map[t.name_id])
        cols["cat_id"].append(cat_map[t.cat_id])
        cols["depth"].append(np.asarray(t.depth))
        cols["parent"].append(np.where(t.parent >= 0, t.parent + slice_base, -1).astype(np.int32))
        cols["args_off"].append(t.args_off + arg_base)
        cols["args_len"].append(np.asarray(t.args_len))
        f = t.flows
        fl["cat"] += list(f.cat)
        fl["id"] += list(f.id)
        fl["name"] += list(f.name)
        for k in ("src_slice", "dst_slice"):
            fl[k].append(np.where(getattr(f, k) >= 0, getattr(f, k) + slice_base, -1))
        for k in ("src_ns", "dst_ns"):
            fl[k].append(getattr(f, k) + shift)
        for k in ("src_lane", "dst_lane"):
            fl[k].append(getattr(f, k) + lane_base)
        inst["lane"].append(t.instants.lane + lane_base)
        inst["ts_ns"].append(t.instants.ts_ns + shift)
        inst["name_id"].append(name_map[t.instants.name_id])
        inst["cat_id"].append(cat_map[t.instants.cat_id])
        counters += [Counter(c.process_name, c.name, c.device, c.ts_ns + shift, c.series) for c in t.counters]
        stores.append(t._store)
        lane_base += len(t.lanes)
        slice_base += len(t)
        arg_base += t._store.size
    joined = {k: np.concatenate(v) for k, v in cols.items()}
    joined["depth"] = joined["depth"].astype(np.int16 if int(joined["depth"].max(initial=0)) < 32767 else np.int32)
    flows = Flows(
        cat=fl["cat"],
        id=fl["id"],
        name=fl["name"],
        **{k: np.concatenate(fl[k]) for k in ("src_slice", "dst_slice", "src_ns", "dst_ns", "src_lane", "dst_lane")},
    )
    start, end = joined["start_ns"], joined["start_ns"] + joined["dur_ns"]
    return Timeline(
        source=[s for t in timelines for s in t.source],
        origin_ns=origin,
        lanes=lanes,
        **joined,
        names=list(names),
        cats=list(cats),
        flows=flows,
        instants=Instants(**{k: np.concatenate(v) for k, v in inst.items()}),
        counters=counters,
        event_count=sum(t.event_count for t in timelines),
        flow_count=sum(t.flow_count for t in timelines),
        span_ns=int(end.max() - start.min()) if len(start) else 0,
        warnings=[w for t in timelines for w in t.warnings],
        devices=sorted({d for t in timelines for d in t.devices}),
        _store=ChainStore(stores),
    )
