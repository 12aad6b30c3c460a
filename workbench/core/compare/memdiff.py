"""Memory rows: peak allocated / reserved memory per component (memory_record) and the allocations
per operator name (operator_memory, as msprof-analyze's MemoryCompare / MemoryCompareStatistic
count them), both sides read by :func:`workbench.core.profiling.memory.memory_view` and diffed.

- Peaks: one row per (component, peak allocated | peak reserved) present on either side: base,
  current (MB), diff, diff %, Diff Ratio (current / base) and when each peak was reached. Status
  ``higher`` / ``lower`` / ``same`` by the percentage and the tolerance (a peak does not grow with
  the length of a run); a component on one side only is ``added`` / ``removed``.
- Operators: per operator name, the number of allocations, their total size (KB) and total
  duration (µs; an allocation without a release counts 0, as in msprof-analyze), diffs and Diff
  Ratio of the sizes. Status by the OP rows' rule: the size per step when both sides record steps,
  else the average size per allocation (a longer run allocates more in total, not more per step).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import numpy as np
import pandas as pd

from workbench.core.compare.opdiff import basis_of, union_codes
from workbench.core.compare.rows import (
    MEMORY_OP_COLUMNS,
    MEMORY_PEAK_COLUMNS,
    percent,
    ratio,
    sort_regressions_first,
    statuses,
)

# The peaks compared and their metric names (memory_view's kinds; "active" is not compared).
PEAK_METRICS = {"allocated": "Peak allocated", "reserved": "Peak reserved"}


@dataclass
class MemorySide:
    """What the comparison takes of one report's memory view."""

    peaks: pd.DataFrame  # component, kind ("allocated" | "reserved"), value_mb, ts_ns
    operators: pd.DataFrame  # name, size_kb, duration_us (operator_memory rows of the compared devices)

    @property
    def has_peaks(self) -> bool:
        return bool(len(self.peaks))

    @property
    def has_operators(self) -> bool:
        return bool(len(self.operators))


def _kind(kind: object) -> str | None:
    text = str(getattr(kind, "value", kind)).lower()
    if "alloc" in text:
        return "allocated"
    if "reserv" in text:
        return "reserved"
    return None


# a component of a report that records memory on several devices: "PTA (NPU:1)" (memory_view)
_ON_DEVICE = re.compile(r"^(?P<name>.*) \((?:NPU|DEVICE)?\s*:?\s*(?P<device>\d+)\)$", re.IGNORECASE)


def _component(name: str, devices: list[int] | None) -> str | None:
    """The component as compared: a device's component only when that device is compared, without
    its device when only one is (so base device 0 meets current device 1); None: left out."""
    m = _ON_DEVICE.match(name)
    if m is None or devices is None:
        return name
    if int(m.group("device")) not in devices:
        return None
    return m.group("name") if len(devices) == 1 else name


def memory_side(view, devices: list[int] | None = None) -> MemorySide:
    """The peaks and operator allocations of a memory view (``None``: a report without memory
    data) on ``devices`` (rows of other devices are left out where the rows name their device)."""
    peaks: list[tuple[str, str, float, int | None]] = []
    for peak in getattr(view, "peaks", None) or []:
        kind = _kind(peak.kind)
        component = _component(str(peak.component), devices)
        if kind is not None and component is not None and not pd.isna(peak.value_mb):
            ts = None if peak.ts_ns is None or pd.isna(peak.ts_ns) else int(peak.ts_ns)
            peaks.append((component, kind, float(peak.value_mb), ts))
    frame = pd.DataFrame(
        {
            "component": [p[0] for p in peaks],
            "kind": [p[1] for p in peaks],
            "value_mb": np.array([p[2] for p in peaks], dtype=np.float64),
            "ts_ns": pd.array([p[3] for p in peaks], dtype="Int64"),  # exact epoch ns (no float64)
        }
    )
    if len(frame):  # one peak per component and kind (the highest)
        frame = frame.sort_values("value_mb", ascending=False, kind="stable").drop_duplicates(["component", "kind"])
    ops = getattr(view, "operators", None)
    if ops is None or not len(ops) or "name" not in ops.columns or "size_kb" not in ops.columns:
        ops = pd.DataFrame({"name": [], "size_kb": [], "duration_us": []})
    elif devices is not None and "device" in ops.columns:  # several devices: the compared ones
        dev = pd.to_numeric(ops["device"].astype(object), errors="coerce")
        if dev.dropna().nunique() > 1:
            ops = ops[dev.isin(devices).to_numpy()].reset_index(drop=True)
    return MemorySide(frame.reset_index(drop=True), ops)


def peak_rows(base: pd.DataFrame, current: pd.DataFrame, tolerance_pct: float) -> pd.DataFrame:
    """Rows of :data:`MEMORY_PEAK_COLUMNS` from two :attr:`MemorySide.peaks` frames."""
    keys = pd.concat([base[["component", "kind"]], current[["component", "kind"]]]).drop_duplicates()
    b = base.set_index(["component", "kind"])
    c = current.set_index(["component", "kind"])
    index = pd.MultiIndex.from_frame(keys)
    b_v = b["value_mb"].reindex(index).to_numpy(dtype=np.float64)
    c_v = c["value_mb"].reindex(index).to_numpy(dtype=np.float64)
    diff = c_v - b_v
    pct = percent(b_v, diff)
    status = statuses(pct, diff, tolerance_pct, times=False)
    status = np.where(np.isnan(b_v), "added", np.where(np.isnan(c_v), "removed", status)).astype(object)

    def when(side: pd.DataFrame) -> pd.arrays.IntegerArray:
        return pd.array(side["ts_ns"].astype("Int64").reindex(index).array, dtype="Int64")

    frame = pd.DataFrame(
        {
            "component": keys["component"].astype(object).to_numpy(),
            "metric": [PEAK_METRICS[k] for k in keys["kind"]],
            "unit": "MB",
            "status": status,
            "base": b_v,
            "current": c_v,
            "diff": diff,
            "diff_pct": pct,
            "diff_ratio": ratio(b_v, c_v),
            "base_peak_ns": when(b),
            "current_peak_ns": when(c),
        },
        columns=MEMORY_PEAK_COLUMNS,
    )
    return sort_regressions_first(frame.reset_index(drop=True), "diff")


def _sums(codes: np.ndarray, ops: pd.DataFrame, size: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per key code: allocations, total size KB, total duration µs (no release: 0). Durations are
    summed as integer ns (the files write µs to the ns), so equal inputs differ by exactly 0."""
    sizes = np.asarray(pd.to_numeric(ops["size_kb"], errors="coerce"), dtype=np.float64) if len(ops) else np.zeros(0)
    keep = (codes >= 0) & ~np.isnan(sizes)
    if "duration_us" in ops.columns and len(ops):
        dur = np.asarray(pd.to_numeric(ops["duration_us"], errors="coerce"), dtype=np.float64)
        dur_ns = np.rint(np.nan_to_num(dur) * 1000.0)
    else:
        dur_ns = np.zeros(len(ops))
    g = codes[keep]
    return (
        np.bincount(g, minlength=size),
        np.bincount(g, weights=sizes[keep], minlength=size),
        np.bincount(g, weights=dur_ns[keep], minlength=size) / 1000.0,
    )


def memory_op_rows(
    base: pd.DataFrame,
    current: pd.DataFrame,
    tolerance_pct: float,
    steps: tuple[int | None, int | None] = (None, None),
) -> pd.DataFrame:
    """Rows of :data:`MEMORY_OP_COLUMNS` from two :attr:`MemorySide.operators` frames."""
    b_codes, c_codes, union = union_codes(base, current, "name")
    size = len(union)
    b_n, b_kb, b_us = _sums(b_codes, base, size)
    c_n, c_kb, c_us = _sums(c_codes, current, size)
    diff = c_kb - b_kb
    with np.errstate(divide="ignore", invalid="ignore"):
        b_avg = np.where(b_n > 0, b_kb / np.maximum(b_n, 1), np.nan)
        c_avg = np.where(c_n > 0, c_kb / np.maximum(c_n, 1), np.nan)
    avg_pct = percent(b_avg, c_avg - b_avg)
    if basis_of(steps) == "step":
        b_step, c_step = b_kb / float(steps[0] or 1), c_kb / float(steps[1] or 1)
        step_pct = percent(b_step, c_step - b_step)
        status = statuses(step_pct, c_step - b_step, tolerance_pct, times=False)
    else:
        b_step = c_step = step_pct = np.full(size, np.nan)
        status = statuses(avg_pct, c_avg - b_avg, tolerance_pct, times=False)
    status = np.where(b_n == 0, "added", np.where(c_n == 0, "removed", status)).astype(object)
    frame = pd.DataFrame(
        {
            "name": np.asarray(union, dtype=object),
            "status": status,
            "base_count": b_n.astype(np.int64),
            "current_count": c_n.astype(np.int64),
            "base_size_kb": b_kb,
            "current_size_kb": c_kb,
            "diff_size_kb": diff,
            "diff_pct": percent(b_kb, diff),
            "diff_ratio": ratio(b_kb, c_kb),
            "base_avg_kb": b_avg,
            "current_avg_kb": c_avg,
            "avg_diff_pct": avg_pct,
            "base_per_step_kb": b_step,
            "current_per_step_kb": c_step,
            "per_step_diff_pct": step_pct,
            "base_duration_us": b_us,
            "current_duration_us": c_us,
            "diff_duration_us": c_us - b_us,
        },
        columns=MEMORY_OP_COLUMNS,
    )
    seen = (b_n > 0) | (c_n > 0)
    return sort_regressions_first(frame[seen].reset_index(drop=True), "diff_size_kb")
