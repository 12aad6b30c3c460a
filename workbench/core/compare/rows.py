"""The row vocabulary shared by the comparison model and the code that builds its tables.

Row statuses, the column lists of every table, the percentage / ratio / status rules and the
"regressions first" order. It imports nothing else of the comparison, so both
:mod:`workbench.core.compare.model` and :mod:`workbench.core.compare.opdiff` (and
:mod:`~workbench.core.compare.overall`, :mod:`~workbench.core.compare.memdiff`,
:mod:`~workbench.core.compare.commdiff`) can build on it.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

# Row statuses. Time rows: slower / faster / same; rows on one side only: added / removed;
# metrics that are not times (ratios, counts): higher / lower / same.
STATUSES = ("slower", "added", "same", "removed", "faster")
METRIC_STATUSES = ("higher", "lower", "same")
# "Regressions first": slower and added rows, then unchanged, then improvements.
STATUS_RANK = {"slower": 0, "added": 1, "higher": 2, "same": 3, "lower": 4, "removed": 5, "faster": 6}
WORSE = frozenset({"slower", "added"})
BETTER = frozenset({"faster", "removed"})

OP_COLUMNS = [
    "key",
    "task_type",
    "status",
    "base_count",
    "current_count",
    "base_total_us",
    "current_total_us",
    "diff_us",
    "diff_pct",
    "base_avg_us",
    "current_avg_us",
    "avg_diff_us",
    "avg_diff_pct",
    "base_per_step_us",
    "current_per_step_us",
    "per_step_diff_pct",
    "base_min_us",
    "current_min_us",
    "base_max_us",
    "current_max_us",
    "base_first_ns",
    "current_first_ns",
]
METRIC_COLUMNS = ["key", "metric", "status", "base", "current", "diff", "diff_pct"]
OVERALL_COLUMNS = ["metric", "unit", "status", "base", "current", "diff", "diff_pct"]
# Memory (memdiff): peaks per component of memory_record, allocations per operator of operator_memory.
MEMORY_PEAK_COLUMNS = [
    "component",
    "metric",
    "unit",
    "status",
    "base",
    "current",
    "diff",
    "diff_pct",
    "diff_ratio",
    "base_peak_ns",
    "current_peak_ns",
]
MEMORY_OP_COLUMNS = [
    "name",
    "status",
    "base_count",
    "current_count",
    "base_size_kb",
    "current_size_kb",
    "diff_size_kb",
    "diff_pct",
    "diff_ratio",
    "base_avg_kb",
    "current_avg_kb",
    "avg_diff_pct",
    "base_per_step_kb",
    "current_per_step_kb",
    "per_step_diff_pct",
    "base_duration_us",
    "current_duration_us",
    "diff_duration_us",
]
# Communication (commdiff): per communication op type, as msprof-analyze's CommunicationCompare.
COMM_COLUMNS = [
    "comm_op",
    "status",
    "base_calls",
    "current_calls",
    "base_total_us",
    "current_total_us",
    "diff_us",
    "diff_pct",
    "diff_ratio",
    "base_avg_us",
    "current_avg_us",
    "avg_diff_us",
    "avg_diff_pct",
    "base_per_step_us",
    "current_per_step_us",
    "per_step_diff_pct",
    "base_max_us",
    "current_max_us",
    "base_min_us",
    "current_min_us",
]
INSTANCE_COLUMNS = [
    "ordinal",
    "status",
    "base_name",
    "current_name",
    "base_start_ns",
    "current_start_ns",
    "base_duration_us",
    "current_duration_us",
    "diff_us",
    "diff_pct",
]


def percent(base: np.ndarray, diff: np.ndarray) -> np.ndarray:
    """``diff / base`` in %, two decimals; 0 when both are 0; NaN ("n/a") for a zero base otherwise."""
    base = np.asarray(base, dtype=np.float64)
    diff = np.asarray(diff, dtype=np.float64)
    with np.errstate(divide="ignore", invalid="ignore"):
        pct = np.round(diff * 100.0 / base, 2)
    pct = np.where(base == 0, np.where(diff == 0, 0.0, np.nan), pct)
    return np.where(np.isnan(base) | np.isnan(diff), np.nan, pct)


def ratio(base: np.ndarray, current: np.ndarray) -> np.ndarray:
    """msprof-analyze's ``Diff Ratio``: ``current / base``, four decimals; 1 when both are 0; NaN
    ("n/a", where msprof-analyze writes inf) for a zero base otherwise."""
    base = np.asarray(base, dtype=np.float64)
    current = np.asarray(current, dtype=np.float64)
    with np.errstate(divide="ignore", invalid="ignore"):
        out = np.round(current / base, 4)
    out = np.where(base == 0, np.where(current == 0, 1.0, np.nan), out)
    return np.where(np.isnan(base) | np.isnan(current), np.nan, out)


def statuses(pct: np.ndarray, diff: np.ndarray, tolerance_pct: float, times: bool = True) -> np.ndarray:
    """slower/faster/same (``times``) or higher/lower/same by the rounded percentage and tolerance.

    A zero base with a positive current (percent n/a) counts as slower / higher."""
    pct = np.asarray(pct, dtype=np.float64)
    diff = np.asarray(diff, dtype=np.float64)
    up, down = ("slower", "faster") if times else ("higher", "lower")
    worse = np.where(np.isnan(pct), diff > 0, pct > tolerance_pct)
    better = np.where(np.isnan(pct), diff < 0, pct < -tolerance_pct)
    return np.where(worse, up, np.where(better, down, "same")).astype(object)


def sort_regressions_first(frame: pd.DataFrame, diff: str | None = None) -> pd.DataFrame:
    """Worse first (slower, added, higher), then unchanged, then better; larger differences (of
    column ``diff``: default ``diff_us``, else ``diff``) first."""
    if not len(frame):
        return frame
    if diff is None:
        diff = "diff_us" if "diff_us" in frame.columns else "diff"
    rank = frame["status"].map(STATUS_RANK).fillna(3).to_numpy()
    size = np.nan_to_num(frame[diff].to_numpy(dtype=np.float64), nan=0.0)
    # slower/added: biggest increase first; faster/removed: biggest decrease first
    order = np.lexsort((np.where(rank >= 4, size, -size), rank))
    return frame.iloc[order].reset_index(drop=True)
