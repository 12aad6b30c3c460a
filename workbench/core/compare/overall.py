"""Overall rows (total device time, AI Core / AI CPU / communication / free time, span, step
trace) and AI Core metric rows (per OP type means of the PMU ratios and times), both diffed."""

from __future__ import annotations

import numpy as np
import pandas as pd

from workbench.core.compare.opdiff import basis_of, duration_ns, start_ns, union_codes
from workbench.core.compare.rows import METRIC_COLUMNS, OVERALL_COLUMNS, percent, statuses
from workbench.core.profiling.report import Report
from workbench.core.profiling.stats import AICORE_ID_COLUMNS

TOTAL = "Total device time"
PER_STEP = "Device time per step"
# Task types summed into each time row (docs/cann-formats.md §2.1 Task Type values).
TASK_GROUPS = (
    ("AI Core time", ("AI_CORE", "AI_VECTOR_CORE", "MIX_AIC", "MIX_AIV")),
    ("AI CPU time", ("AI_CPU",)),
    ("Communication time", ("HCCL", "COMMUNICATION")),
)
FREE = "Free time (device idle between tasks)"
SPAN = "End-to-end span"
# step_trace_time columns (µs per step) summed over steps when both sides have them.
STEP_COLUMNS = ("Computing", "Communication(Not Overlapped)", "Overlapped", "Free", "Bubble")


def _group_ns(ops: pd.DataFrame, dur: np.ndarray, wanted: tuple[str, ...]) -> float:
    tt = ops["task_type"]
    cat = tt if isinstance(tt.dtype, pd.CategoricalDtype) else tt.astype("category")
    hits = np.array([str(c).upper() in wanted for c in cat.cat.categories] + [False])
    codes = np.asarray(cat.cat.codes, dtype=np.int64)
    mask = hits[codes] & ~np.isnan(dur)  # code -1 (missing) indexes the trailing False
    return float(dur[mask].sum())


def free_ns(ops: pd.DataFrame, dur: np.ndarray) -> float | None:
    """Per device: from the first task start to the last task end, the time no task runs; summed."""
    starts, has = start_ns(ops)
    valid = has & ~np.isnan(dur)
    if not valid.any():
        return None
    if "device" in ops.columns:
        devices = np.asarray(ops["device"].fillna(-1), dtype=np.int64)
    else:
        devices = np.zeros(len(ops), np.int64)
    total = 0
    for device in np.flatnonzero(np.bincount(devices[valid] + 1)) - 1:  # device ids are >= 0, -1 = none
        sel = valid & (devices == device)
        s = starts[sel]
        e = s + dur[sel].astype(np.int64)
        if np.any(s[1:] < s[:-1]):
            order = np.argsort(s, kind="stable")
            s, e = s[order], e[order]
        reach = np.maximum.accumulate(e)
        gaps = s[1:] - reach[:-1]
        total += int(gaps[gaps > 0].sum())
    return float(total)


def _times(ops: pd.DataFrame) -> dict[str, float | None]:
    dur = duration_ns(ops)
    out: dict[str, float | None] = {
        TOTAL: float(np.nansum(dur)) / 1000.0,
        "Device tasks": float((~np.isnan(dur)).sum()),
    }
    if "task_type" in ops.columns:
        for label, wanted in TASK_GROUPS:
            out[label] = _group_ns(ops, dur, wanted) / 1000.0
    free = free_ns(ops, dur) if len(ops) else None
    if free is not None:
        out[FREE] = free / 1000.0
    return out


def _with_per_step(times: dict[str, float | None], steps: int | None) -> dict[str, float | None]:
    """``times`` with the per-step device time right after the total."""
    total = times[TOTAL]
    out = {TOTAL: total, PER_STEP: None if total is None or not steps else round(total / steps, 3)}
    out.update((k, v) for k, v in times.items() if k != TOTAL)
    return out


def _step_sums(report: Report, devices: list[int]) -> dict[str, float]:
    frame = report.tables.get("step_trace_time")
    if frame is None or not len(frame):
        return {}
    if "Device_id" in frame.columns:
        ids = pd.to_numeric(frame["Device_id"].astype(object), errors="coerce")
        if ids.notna().any():
            frame = frame[ids.isin(devices).to_numpy()]
    return {
        f"Step trace: {c}": float(pd.to_numeric(frame[c], errors="coerce").sum())
        for c in STEP_COLUMNS
        if c in frame.columns
    }


def overall_rows(
    base_ops: pd.DataFrame,
    current_ops: pd.DataFrame,
    base: Report,
    current: Report,
    devices: tuple[list[int], list[int]],
    tolerance_pct: float,
    warnings: list[str],
    steps: tuple[int | None, int | None] = (None, None),
) -> pd.DataFrame:
    """Rows of :data:`OVERALL_COLUMNS`; the first is always the total device time, the second
    (when both sides record steps) the device time per step."""
    b, c = _times(base_ops), _times(current_ops)
    if basis_of(steps) == "step":
        b, c = _with_per_step(b, steps[0]), _with_per_step(c, steps[1])
    for side, ops, other in (("base", base_ops, current_ops), ("current", current_ops, base_ops)):
        if len(ops) and "task_type" not in ops.columns and "task_type" in other.columns:
            warnings.append(f"{side} OPs have no task type: AI Core / AI CPU / communication times left out")
    b[SPAN], c[SPAN] = base.span_ns / 1000.0 or None, current.span_ns / 1000.0 or None
    b.update(_step_sums(base, devices[0]))
    c.update(_step_sums(current, devices[1]))
    labels = [k for k in b if k in c and b[k] is not None and c[k] is not None]
    # Task groups only where the data has them (some time on either side).
    labels = [k for k in labels if k not in dict(TASK_GROUPS) or b[k] or c[k]]
    base_v = np.array([b[k] for k in labels], dtype=np.float64)
    cur_v = np.array([c[k] for k in labels], dtype=np.float64)
    diff = np.round(cur_v - base_v, 3)  # µs to the ns, as the sources write them
    pct = percent(base_v, diff)
    counts = np.array([k == "Device tasks" for k in labels])
    status = np.where(counts, statuses(pct, diff, tolerance_pct, times=False), statuses(pct, diff, tolerance_pct))
    if PER_STEP in labels and labels[0] == TOTAL:  # a longer run's total is bigger: its verdict is per step
        status[0] = status[labels.index(PER_STEP)]
    return pd.DataFrame(
        {
            "metric": labels,
            "unit": ["count" if k == "Device tasks" else "us" for k in labels],
            "status": status,
            "base": base_v,
            "current": cur_v,
            "diff": diff,
            "diff_pct": pct,
        },
        columns=OVERALL_COLUMNS,
    )


def _metric_columns(frame: pd.DataFrame) -> list[str]:
    return [c for c in frame.columns if c not in AICORE_ID_COLUMNS and pd.api.types.is_numeric_dtype(frame[c])]


def _means(frame: pd.DataFrame, codes: np.ndarray, size: int, columns: list[str]) -> np.ndarray:
    """(size, len(columns)) means per key code, NaN values left out."""
    out = np.full((size, len(columns)), np.nan)
    keep = codes >= 0
    every = bool(keep.all())
    g = codes if every else codes[keep]
    counts = np.bincount(g, minlength=size)
    for j, col in enumerate(columns):
        v = np.asarray(frame[col], dtype=np.float64)
        v = v if every else v[keep]
        missing = np.isnan(v)
        if missing.any():  # leave the NaN values out of both sum and count
            n = np.bincount(g[~missing], minlength=size)
            s = np.bincount(g[~missing], weights=v[~missing], minlength=size)
        else:
            n, s = counts, np.bincount(g, weights=v, minlength=size)
        out[:, j] = np.where(n > 0, s / np.maximum(n, 1), np.nan)
    return out


def is_time_metric(metric: str) -> bool:
    return "(us)" in metric or metric.endswith("_time")


def metric_rows(base: pd.DataFrame, current: pd.DataFrame, tolerance_pct: float, warnings: list[str]) -> pd.DataFrame:
    """AI Core metrics per OP type: long rows (key, metric) of :data:`METRIC_COLUMNS`."""
    if not len(base.columns) or not len(current.columns):
        return pd.DataFrame({c: [] for c in METRIC_COLUMNS})
    b_cols, c_cols = _metric_columns(base), _metric_columns(current)
    columns = [m for m in b_cols if m in c_cols]
    only = [m for m in b_cols if m not in c_cols], [m for m in c_cols if m not in b_cols]
    for side, names in zip(("base", "current"), only):
        if names:
            warnings.append(f"AI Core metrics only in {side} (not compared): {', '.join(names)}")
    b_codes, c_codes, union = union_codes(base, current, "type")
    size = len(union)
    b_mean, c_mean = _means(base, b_codes, size, columns), _means(current, c_codes, size, columns)
    b_has = np.bincount(b_codes[b_codes >= 0], minlength=size) > 0
    c_has = np.bincount(c_codes[c_codes >= 0], minlength=size) > 0
    order = np.argsort(np.asarray(union, dtype=str), kind="stable")
    keys = np.repeat(np.asarray(union, dtype=object)[order], len(columns))
    bv, cv = b_mean[order].ravel(), c_mean[order].ravel()
    # a metric that is 0 (or missing) on both sides, e.g. cube ratios of vector ops, says nothing
    shown = ~(((bv == 0) | np.isnan(bv)) & ((cv == 0) | np.isnan(cv)))
    diff = cv - bv
    pct = percent(bv, diff)
    times = np.tile([is_time_metric(m) for m in columns], size)
    status = np.where(times, statuses(pct, diff, tolerance_pct), statuses(pct, diff, tolerance_pct, times=False))
    status = np.where(
        np.repeat(~b_has[order], len(columns)),
        "added",
        np.where(np.repeat(~c_has[order], len(columns)), "removed", status),
    ).astype(object)
    frame = pd.DataFrame(
        {
            "key": keys,
            "metric": np.tile(np.asarray(columns, dtype=object), size),
            "status": status,
            "base": bv,
            "current": cv,
            "diff": diff,
            "diff_pct": pct,
        },
        columns=METRIC_COLUMNS,
    )
    return frame[shown].reset_index(drop=True)
