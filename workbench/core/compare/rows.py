"""The row vocabulary shared by the comparison model and the code that builds its tables.

Row statuses, the column lists of every table, the percentage / status rules and the
"regressions first" order. It imports nothing else of the comparison, so both
:mod:`workbench.core.compare.model` and :mod:`workbench.core.compare.opdiff` (and
:mod:`~workbench.core.compare.overall`) can build on it.
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


def statuses(pct: np.ndarray, diff: np.ndarray, tolerance_pct: float, times: bool = True) -> np.ndarray:
    """slower/faster/same (``times``) or higher/lower/same by the rounded percentage and tolerance.

    A zero base with a positive current (percent n/a) counts as slower / higher."""
    pct = np.asarray(pct, dtype=np.float64)
    diff = np.asarray(diff, dtype=np.float64)
    up, down = ("slower", "faster") if times else ("higher", "lower")
    worse = np.where(np.isnan(pct), diff > 0, pct > tolerance_pct)
    better = np.where(np.isnan(pct), diff < 0, pct < -tolerance_pct)
    return np.where(worse, up, np.where(better, down, "same")).astype(object)


def sort_regressions_first(frame: pd.DataFrame) -> pd.DataFrame:
    """Worse first (slower, added), then unchanged, then better; larger differences first."""
    if not len(frame):
        return frame
    diff = "diff_us" if "diff_us" in frame.columns else "diff"
    rank = frame["status"].map(STATUS_RANK).fillna(3).to_numpy()
    size = np.nan_to_num(frame[diff].to_numpy(dtype=np.float64), nan=0.0)
    # slower/added: biggest increase first; faster/removed: biggest decrease first
    order = np.lexsort((np.where(rank >= 4, size, -size), rank))
    return frame.iloc[order].reset_index(drop=True)
