"""OP rows: both sides' OPs grouped by OP type or op name, matched on the key, diffed.

Vectorised over categorical codes: each side's keys are mapped into one union of keys, then
count / total / min / max / first start per key come from ``bincount`` and ``ufunc.at``. Totals
are summed as integer nanoseconds (CANN writes durations to the ns), so identical inputs give a
diff of exactly 0 and a scaled copy gives exactly the expected difference.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from workbench.core.compare.rows import INSTANCE_COLUMNS, OP_COLUMNS, percent, sort_regressions_first, statuses

NO_START = np.iinfo(np.int64).max
# The OPs table columns the comparison keeps per side (the rest stay in the report).
OP_KEEP = ("device", "name", "type", "task_type", "start_ns", "duration_us")


def keys_of(ops: pd.DataFrame, by: str) -> tuple[np.ndarray, list[str]]:
    """Integer key codes (-1 = no key) and the keys; by type, an op without a type is keyed by
    its name (as in the report's own statistics)."""
    if not len(ops) or "name" not in ops.columns and by not in ops.columns:
        return np.full(len(ops), -1, dtype=np.int64), []
    column = ops[by] if by in ops.columns else ops["name"]
    if by == "type" and "name" in ops.columns and column.isna().any():
        column = column.astype(object).where(column.notna(), ops["name"].astype(object))
    cat = column if isinstance(column.dtype, pd.CategoricalDtype) else column.astype("category")
    return np.asarray(cat.cat.codes, dtype=np.int64), [str(k) for k in cat.cat.categories]


def union_codes(base: pd.DataFrame, current: pd.DataFrame, by: str) -> tuple[np.ndarray, np.ndarray, pd.Index]:
    """Both sides' key codes mapped into one union of keys (base keys first)."""
    b_codes, b_keys = keys_of(base, by)
    c_codes, c_keys = keys_of(current, by)
    union = pd.Index(b_keys, dtype=object).append(pd.Index(c_keys, dtype=object)).drop_duplicates()

    def remap(codes: np.ndarray, keys: list[str]) -> np.ndarray:
        if not keys:
            return codes
        lookup = union.get_indexer(pd.Index(keys, dtype=object))
        return np.where(codes >= 0, lookup[np.maximum(codes, 0)], -1)

    return remap(b_codes, b_keys), remap(c_codes, c_keys), union


def duration_ns(ops: pd.DataFrame) -> np.ndarray:
    """Durations as integer-valued float64 ns (NaN where missing): exact sums below 2^53 ns."""
    if "duration_us" not in ops.columns:
        return np.full(len(ops), np.nan)
    return np.rint(np.asarray(ops["duration_us"], dtype=np.float64) * 1000.0)


def start_ns(ops: pd.DataFrame) -> tuple[np.ndarray, np.ndarray]:
    """Exact int64 start ns and the mask of rows that have one."""
    if "start_ns" not in ops.columns:
        return np.zeros(len(ops), dtype=np.int64), np.zeros(len(ops), dtype=bool)
    col = ops["start_ns"]
    if isinstance(col.dtype, pd.api.extensions.ExtensionDtype):
        arr = col.array
        valid = ~np.asarray(arr.isna())
        return np.asarray(arr.to_numpy(dtype=np.int64, na_value=0)), valid
    values = np.asarray(col)
    return values.astype(np.int64), np.ones(len(values), dtype=bool)


@dataclass
class _Agg:
    count: np.ndarray
    total_ns: np.ndarray
    min_us: np.ndarray
    max_us: np.ndarray
    first_ns: np.ndarray


def _aggregate(codes: np.ndarray, ops: pd.DataFrame, size: int) -> _Agg:
    dur = duration_ns(ops)
    keep = (codes >= 0) & ~np.isnan(dur)
    g, d = codes[keep], dur[keep]
    count = np.bincount(g, minlength=size)
    total = np.bincount(g, weights=d, minlength=size)
    low, high = np.full(size, np.inf), np.full(size, -np.inf)
    np.minimum.at(low, g, d)
    np.maximum.at(high, g, d)
    present = count > 0
    low = np.where(present, low / 1000.0, np.nan)
    high = np.where(present, high / 1000.0, np.nan)
    first = np.full(size, NO_START, dtype=np.int64)
    starts, has_start = start_ns(ops)
    sel = keep & has_start
    np.minimum.at(first, codes[sel], starts[sel])
    return _Agg(count, total, low, high, first)


def _task_types(codes: np.ndarray, ops: pd.DataFrame, found: dict[int, set[str]]) -> None:
    """Collect the task types (AI_CORE, AI_CPU ...) seen per key."""
    if "task_type" not in ops.columns or not len(ops):
        return
    tt = ops["task_type"]
    cat = tt if isinstance(tt.dtype, pd.CategoricalDtype) else tt.astype("category")
    tcodes = np.asarray(cat.cat.codes, dtype=np.int64)
    names = [str(c) for c in cat.cat.categories]
    width = len(names) + 1
    keep = (codes >= 0) & (tcodes >= 0)
    if not keep.all():
        codes, tcodes = codes[keep], tcodes[keep]
    seen = np.flatnonzero(np.bincount(codes * width + tcodes, minlength=int(codes.max(initial=0) + 1) * width))
    for pair in seen:
        found.setdefault(int(pair // width), set()).add(names[int(pair % width)])


def basis_of(steps: tuple[int | None, int | None]) -> str:
    """``step`` when both sides know their step count, else ``call``: what decides a row's status."""
    return "step" if all(n is not None and n > 0 for n in steps) else "call"


def op_rows(
    base: pd.DataFrame,
    current: pd.DataFrame,
    by: str,
    tolerance_pct: float,
    steps: tuple[int | None, int | None] = (None, None),
) -> pd.DataFrame:
    """The OP comparison rows (:data:`OP_COLUMNS`), sorted regressions first.

    A longer run is no slower run: a key present on both sides is ``slower`` / ``faster`` by its
    time per step when both sides know their step count (``steps``), else by its average time
    per call; the totals stay in the row."""
    b_codes, c_codes, union = union_codes(base, current, by)
    size = len(union)
    b, c = _aggregate(b_codes, base, size), _aggregate(c_codes, current, size)
    seen = (b.count > 0) | (c.count > 0)
    task_types: dict[int, set[str]] = {}
    _task_types(b_codes, base, task_types)
    _task_types(c_codes, current, task_types)
    diff_ns = c.total_ns - b.total_ns
    pct = percent(b.total_ns, diff_ns)
    with np.errstate(divide="ignore", invalid="ignore"):
        b_avg = np.where(b.count > 0, b.total_ns / np.maximum(b.count, 1) / 1000.0, np.nan)
        c_avg = np.where(c.count > 0, c.total_ns / np.maximum(c.count, 1) / 1000.0, np.nan)
    avg_diff = c_avg - b_avg
    avg_pct = percent(b_avg, avg_diff)
    if basis_of(steps) == "step":
        b_step, c_step = b.total_ns / 1000.0 / float(steps[0] or 1), c.total_ns / 1000.0 / float(steps[1] or 1)
        step_diff = c_step - b_step
        step_pct = percent(b_step, step_diff)
        status = statuses(step_pct, step_diff, tolerance_pct)
    else:
        b_step = c_step = step_pct = np.full(size, np.nan)
        status = statuses(avg_pct, avg_diff, tolerance_pct)
    status = np.where(b.count == 0, "added", np.where(c.count == 0, "removed", status)).astype(object)
    frame = pd.DataFrame(
        {
            "key": np.asarray(union, dtype=object),
            "task_type": np.array(["/".join(sorted(task_types.get(i, ()))) or None for i in range(size)], dtype=object),
            "status": status,
            "base_count": b.count.astype(np.int64),
            "current_count": c.count.astype(np.int64),
            "base_total_us": b.total_ns / 1000.0,
            "current_total_us": c.total_ns / 1000.0,
            "diff_us": diff_ns / 1000.0,
            "diff_pct": pct,
            "base_avg_us": b_avg,
            "current_avg_us": c_avg,
            "avg_diff_us": avg_diff,
            "avg_diff_pct": avg_pct,
            "base_per_step_us": b_step,
            "current_per_step_us": c_step,
            "per_step_diff_pct": step_pct,
            "base_min_us": b.min_us,
            "current_min_us": c.min_us,
            "base_max_us": b.max_us,
            "current_max_us": c.max_us,
            "base_first_ns": _first(b.first_ns),
            "current_first_ns": _first(c.first_ns),
        },
        columns=OP_COLUMNS,
    )
    return sort_regressions_first(frame[seen].reset_index(drop=True))


def _first(first: np.ndarray) -> pd.arrays.IntegerArray:
    return pd.arrays.IntegerArray(np.where(first == NO_START, 0, first), first == NO_START)


def _occurrences(ops: pd.DataFrame, by: str, key: str) -> pd.DataFrame:
    """The ops of ``key`` in order of appearance (start time, then row order)."""
    codes, keys = keys_of(ops, by)
    if key not in keys:
        return pd.DataFrame({"name": [], "start": [], "dur": []})
    idx = np.flatnonzero(codes == keys.index(key))
    starts, has = start_ns(ops)
    order = np.lexsort((idx, np.where(has[idx], starts[idx], NO_START)))
    idx = idx[order]
    names = ops["name"].iloc[idx].astype(object).to_numpy() if "name" in ops.columns else np.full(idx.size, key)
    return pd.DataFrame(
        {"name": names, "start": pd.arrays.IntegerArray(starts[idx], ~has[idx]), "dur": duration_ns(ops)[idx]}
    )


def instances(base: pd.DataFrame, current: pd.DataFrame, by: str, key: str, tolerance_pct: float) -> pd.DataFrame:
    """Occurrences of ``key`` paired by order of appearance: the k-th base op with the k-th
    current op; extra occurrences on one side are ``removed`` / ``added``."""
    b, c = _occurrences(base, by, key), _occurrences(current, by, key)
    n = max(len(b), len(c))
    b, c = b.reindex(range(n)), c.reindex(range(n))
    diff = c["dur"].to_numpy() - b["dur"].to_numpy()
    pct = percent(b["dur"].to_numpy(), diff)
    status = statuses(pct, diff, tolerance_pct)
    status = np.where(
        b["dur"].isna() & c["dur"].notna(), "added", np.where(c["dur"].isna() & b["dur"].notna(), "removed", status)
    ).astype(object)
    return pd.DataFrame(
        {
            "ordinal": np.arange(1, n + 1),
            "status": status,
            "base_name": b["name"].astype(object).to_numpy(),
            "current_name": c["name"].astype(object).to_numpy(),
            "base_start_ns": b["start"].astype("Int64").array,
            "current_start_ns": c["start"].astype("Int64").array,
            "base_duration_us": b["dur"].to_numpy() / 1000.0,
            "current_duration_us": c["dur"].to_numpy() / 1000.0,
            "diff_us": diff / 1000.0,
            "diff_pct": pct,
        },
        columns=INSTANCE_COLUMNS,
    )
