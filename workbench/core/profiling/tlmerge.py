"""Merge several loaded Timelines into one (several ranks, devices or reports in one view).

Works on the public ``Timeline.to_arrays()`` / ``Timeline.from_arrays()`` description, so it
holds for timelines loaded from JSON, from a cache or from a saved report alike. Each input keeps
its own lanes (appended after the previous ones, so the (lane, start, -dur) order holds), times
are re-based on the earliest origin, and name / category / flow tables are unified.
"""
from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

if TYPE_CHECKING:
    from workbench.core.profiling.timeline import Timeline


def _remap(table: list[str], items: list[str]) -> np.ndarray:
    """Codes of ``items`` in the growing ``table`` (extended in place)."""
    index = {s: i for i, s in enumerate(table)}
    out = np.empty(len(items), dtype=np.int64)
    for i, s in enumerate(items):
        if s not in index:
            index[s] = len(table)
            table.append(s)
        out[i] = index[s]
    return out


def _take(mapping: np.ndarray, codes: np.ndarray, dtype: Any) -> np.ndarray:
    codes = np.asarray(codes)
    if codes.size == 0:
        return codes.astype(dtype)
    out = np.where(codes >= 0, mapping[np.clip(codes, 0, max(len(mapping) - 1, 0))], codes)
    return out.astype(dtype)


def merge_timelines(timelines: Sequence[Timeline]) -> Timeline:
    """One Timeline holding every slice, flow, instant and counter of ``timelines``."""
    from workbench.core.profiling.timeline import Timeline

    if len(timelines) == 1:
        return timelines[0]
    described = [t.to_arrays() for t in timelines]
    origin = min(int(m["origin_ns"]) for m, _ in described)
    names: list[str] = []
    cats: list[str] = []
    flow_cats: list[str] = []
    flow_names: list[str] = []
    out: dict[str, list[np.ndarray]] = {}
    lanes: list[dict[str, Any]] = []
    counters: list[dict[str, Any]] = []
    counter_arrays: dict[str, np.ndarray] = {}
    slices = blob = 0
    meta_out: dict[str, Any] = {"warnings": [], "source": [], "devices": set(), "event_count": 0, "flow_count": 0}

    def add(key: str, array: np.ndarray) -> None:
        out.setdefault(key, []).append(np.asarray(array))

    for meta, arr in described:
        shift = int(meta["origin_ns"]) - origin
        lane_base = len(lanes)
        for lane in meta["lanes"]:
            lanes.append({**lane, "index": lane["index"] + lane_base})
        name_map = _remap(names, list(meta["names"]))
        cat_map = _remap(cats, list(meta["cats"]))
        n = len(arr["start_ns"])
        add("lane", np.asarray(arr["lane"]) + lane_base)
        add("start_ns", np.asarray(arr["start_ns"]) + shift)
        add("dur_ns", arr["dur_ns"])
        add("name_id", _take(name_map, arr["name_id"], np.asarray(arr["name_id"]).dtype))
        add("cat_id", _take(cat_map, arr["cat_id"], np.asarray(arr["cat_id"]).dtype))
        add("depth", arr["depth"])
        parent = np.asarray(arr["parent"])
        add("parent", np.where(parent >= 0, parent + slices, parent))
        add("args_off", np.asarray(arr["args_off"]) + blob)
        add("args_len", arr["args_len"])
        args_blob = np.asarray(arr.get("args_blob", np.zeros(0, np.uint8)))
        add("args_blob", args_blob)
        add("flow_cat", _take(_remap(flow_cats, list(meta["flow_cats"])), arr["flow_cat"], np.int32))
        add("flow_name", _take(_remap(flow_names, list(meta["flow_names"])), arr["flow_name"], np.int32))
        add("flow_id", arr["flow_id"])
        for side in ("src", "dst"):
            s = np.asarray(arr[f"flow_{side}_slice"])
            add(f"flow_{side}_slice", np.where(s >= 0, s + slices, s))
            add(f"flow_{side}_ns", np.asarray(arr[f"flow_{side}_ns"]) + shift)
            add(f"flow_{side}_lane", np.asarray(arr[f"flow_{side}_lane"]) + lane_base)
        add("inst_lane", np.asarray(arr["inst_lane"]) + lane_base)
        add("inst_ts", np.asarray(arr["inst_ts"]) + shift)
        add("inst_name", _take(name_map, arr["inst_name"], np.asarray(arr["inst_name"]).dtype))
        add("inst_cat", _take(cat_map, arr["inst_cat"], np.asarray(arr["inst_cat"]).dtype))
        for k, c in enumerate(meta["counters"]):
            j = len(counters)
            counters.append(c)
            counter_arrays[f"counter{j}_ts"] = np.asarray(arr[f"counter{k}_ts"]) + shift
            for s_idx in range(len(c["series"])):
                counter_arrays[f"counter{j}_s{s_idx}"] = arr[f"counter{k}_s{s_idx}"]
        slices += n
        blob += len(args_blob)
        meta_out["warnings"] += list(meta["warnings"])
        meta_out["source"] += list(meta["source"])
        meta_out["devices"] |= {int(d) for d in meta["devices"]}
        meta_out["event_count"] += int(meta["event_count"])
        meta_out["flow_count"] += int(meta["flow_count"])

    arrays = {k: np.concatenate(v) if v else np.zeros(0) for k, v in out.items()}
    arrays.update(counter_arrays)
    start, end = arrays["start_ns"], arrays["start_ns"] + arrays["dur_ns"]
    span = int(end.max() - start.min()) if len(start) else 0
    meta = {**described[0][0], "origin_ns": str(origin), "lanes": lanes, "names": names, "cats": cats,
            "flow_cats": flow_cats, "flow_names": flow_names, "counters": counters,
            "event_count": meta_out["event_count"], "flow_count": meta_out["flow_count"], "span_ns": str(span),
            "warnings": meta_out["warnings"], "devices": sorted(meta_out["devices"]), "source": meta_out["source"]}
    return Timeline.from_arrays(meta, arrays)
