"""The comparison result a view binds to: :class:`Side` summaries and :class:`Comparison`.

Tables are pandas DataFrames (columnar, so a view model can serve a million by-name rows without
building Python objects per row). Missing values are NaN; :meth:`Comparison.records` turns a
table into JSON-ready dicts with ``None`` for them (a percentage of ``None`` is shown as "n/a").
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd

from workbench.core.compare.opdiff import basis_of, instances, op_rows

# The row vocabulary lives in rows.py (opdiff builds on it too); re-exported here for the views.
from workbench.core.compare.rows import (
    BETTER,
    COMM_COLUMNS,
    MEMORY_OP_COLUMNS,
    MEMORY_PEAK_COLUMNS,
    METRIC_STATUSES,  # noqa: F401
    STATUSES,
    WORSE,
    percent,
    sort_regressions_first,
)
from workbench.core.profiling.errors import ProfilingDataError

if TYPE_CHECKING:
    from workbench.core.profiling.report import Report

DEFAULT_TOLERANCE_PCT = 1.0
BY = ("type", "name")

# Display names of the columns (core returns English; the UI translates these).
LABELS = {
    "key": "Key",
    "task_type": "Task Type",
    "status": "Status",
    "metric": "Metric",
    "unit": "Unit",
    "base_count": "Base Count",
    "current_count": "Current Count",
    "base_total_us": "Base Total(us)",
    "current_total_us": "Current Total(us)",
    "diff_us": "Diff(us)",
    "diff_pct": "Diff(%)",
    "base_avg_us": "Base Avg(us)",
    "current_avg_us": "Current Avg(us)",
    "avg_diff_us": "Avg Diff(us)",
    "avg_diff_pct": "Avg Diff(%)",
    "base_per_step_us": "Base Per Step(us)",
    "current_per_step_us": "Current Per Step(us)",
    "per_step_diff_pct": "Per Step Diff(%)",
    "base_min_us": "Base Min(us)",
    "current_min_us": "Current Min(us)",
    "base_max_us": "Base Max(us)",
    "current_max_us": "Current Max(us)",
    "base_first_ns": "Base First Start(ns)",
    "current_first_ns": "Current First Start(ns)",
    "base": "Base",
    "current": "Current",
    "diff": "Diff",
    "ordinal": "#",
    "base_name": "Base Name",
    "current_name": "Current Name",
    "base_start_ns": "Base Start(ns)",
    "current_start_ns": "Current Start(ns)",
    "base_duration_us": "Base Duration(us)",
    "current_duration_us": "Current Duration(us)",
    # memory and communication tables (memdiff, commdiff)
    "component": "Component",
    "diff_ratio": "Diff Ratio",
    "base_peak_ns": "Base Peak Time(ns)",
    "current_peak_ns": "Current Peak Time(ns)",
    "name": "Operator Name",
    "base_size_kb": "Base Size(KB)",
    "current_size_kb": "Current Size(KB)",
    "diff_size_kb": "Diff Size(KB)",
    "base_avg_kb": "Base Avg Size(KB)",
    "current_avg_kb": "Current Avg Size(KB)",
    "base_per_step_kb": "Base Per Step(KB)",
    "current_per_step_kb": "Current Per Step(KB)",
    "diff_duration_us": "Diff Duration(us)",
    "comm_op": "Communication OP Name",
    "base_calls": "Base Calls",
    "current_calls": "Current Calls",
}


class CompareError(ProfilingDataError):
    """Bad comparison input; the message names the side (base / current) and why."""


def clean(value: Any) -> Any:
    """A JSON-ready scalar: numpy -> Python, NaN/NA -> None."""
    if value is None or value is pd.NA:
        return None
    if isinstance(value, np.generic):
        value = value.item()
    if isinstance(value, float) and math.isnan(value):
        return None
    return value


def records(frame: pd.DataFrame, columns: Iterable[str] | None = None) -> list[dict[str, Any]]:
    columns = list(frame.columns if columns is None else columns)
    data = [frame[c].astype(object).tolist() for c in columns]
    return [{c: clean(v) for c, v in zip(columns, values)} for values in zip(*data)]


@dataclass
class Side:
    """What the view shows of one report beside the other: source, kind and collection facts."""

    role: str  # "base" | "current"
    source: str
    kind: str
    devices: list[int]  # devices of the report
    compared_devices: list[int]  # devices taken into the comparison
    chip: str | None = None
    cann_version: str | None = None
    model_name: str | None = None
    pmu_group: str | None = None
    op_count: int = 0
    total_us: float = 0.0
    span_us: float = 0.0
    tables: list[str] = field(default_factory=list)
    steps: int | None = None  # steps on the compared devices (None: the report records none)
    step_source: str | None = None  # the table (or timeline) the steps came from

    def as_dict(self) -> dict[str, Any]:
        return {k: clean(v) if not isinstance(v, list) else list(v) for k, v in self.__dict__.items()}


@dataclass
class Comparison:
    """A baseline report compared with a current one.

    ``rows`` are the OP rows of the chosen grouping (``by``); :meth:`op_rows` gives either grouping
    (the other is computed on first use). ``memory_peaks`` / ``memory_ops`` / ``communication``:
    the memory and communication rows (:mod:`~workbench.core.compare.memdiff`,
    :mod:`~workbench.core.compare.commdiff`; empty when a side has no such data, which
    ``warnings`` then says). All tables come sorted regressions first."""

    base: Side
    current: Side
    by: str
    tolerance_pct: float
    pairs: list[tuple[int, int]]
    overall: pd.DataFrame
    metrics: pd.DataFrame
    warnings: list[str]
    base_report: Report | None = field(default=None, repr=False)
    current_report: Report | None = field(default=None, repr=False)
    memory_peaks: pd.DataFrame = field(default_factory=lambda: _empty(MEMORY_PEAK_COLUMNS), repr=False)
    memory_ops: pd.DataFrame = field(default_factory=lambda: _empty(MEMORY_OP_COLUMNS), repr=False)
    communication: pd.DataFrame = field(default_factory=lambda: _empty(COMM_COLUMNS), repr=False)
    _rows: dict[str, pd.DataFrame] = field(default_factory=dict, repr=False)
    _ops: tuple[pd.DataFrame, pd.DataFrame] | None = field(default=None, repr=False)

    # --- OP rows ------------------------------------------------------------------------------
    @property
    def rows(self) -> pd.DataFrame:
        return self.op_rows(self.by)

    def op_rows(self, by: str) -> pd.DataFrame:
        """OP comparison rows by OP ``type`` or op ``name`` (cached)."""
        if by not in BY:
            raise ValueError(f"compare by {by!r}: expected 'type' or 'name'")
        if by not in self._rows:
            base_ops, current_ops = self._ops if self._ops is not None else (pd.DataFrame(), pd.DataFrame())
            self._rows[by] = op_rows(base_ops, current_ops, by, self.tolerance_pct, self.steps)
        return self._rows[by]

    @property
    def steps(self) -> tuple[int | None, int | None]:
        return self.base.steps, self.current.steps

    @property
    def basis(self) -> str:
        """``step`` (both reports record steps: times per step decide) or ``call`` (average time
        per call decides); the totals are shown either way."""
        return basis_of(self.steps)

    def basis_text(self) -> str:
        """Which rule decided the statuses (and the gate), in words."""
        if self.basis == "step":
            return (
                f"per step: {self.base.steps} base steps ({self.base.step_source}) vs "
                f"{self.current.steps} current steps ({self.current.step_source})"
            )
        missing = [s.role for s in (self.base, self.current) if not s.steps]
        return f"per call (average time per call; the {' and '.join(missing)} report records no steps)"

    def instances(self, key: str, by: str | None = None) -> pd.DataFrame:
        """Each occurrence of ``key`` on both sides, paired in order of appearance (k-th with k-th)."""
        base_ops, current_ops = self._ops if self._ops is not None else (pd.DataFrame(), pd.DataFrame())
        return instances(base_ops, current_ops, by or self.by, key, self.tolerance_pct)

    # --- view helpers ---------------------------------------------------------------------------
    def total(self) -> dict[str, Any]:
        """The total device time row: base_total_us, current_total_us, diff_us, diff_pct, status."""
        row = self.overall.iloc[0] if len(self.overall) else None
        if row is None:
            return {
                "base_total_us": None,
                "current_total_us": None,
                "diff_us": None,
                "diff_pct": None,
                "status": "same",
            }
        return {
            "base_total_us": clean(row["base"]),
            "current_total_us": clean(row["current"]),
            "diff_us": clean(row["diff"]),
            "diff_pct": clean(row["diff_pct"]),
            "status": row["status"],
        }

    @staticmethod
    def sort_regressions_first(frame: pd.DataFrame) -> pd.DataFrame:
        """Worse first (slower, added), then unchanged, then better; larger differences first."""
        return sort_regressions_first(frame)

    @staticmethod
    def filter_status(frame: pd.DataFrame, wanted: Iterable[str]) -> pd.DataFrame:
        """Only the rows whose status is in ``wanted`` (e.g. ``{"slower", "added"}``)."""
        return frame[frame["status"].isin(set(wanted))].reset_index(drop=True)

    def status_counts(self, by: str | None = None) -> dict[str, int]:
        counts = self.op_rows(by or self.by)["status"].value_counts()
        return {s: int(counts.get(s, 0)) for s in STATUSES}

    def top(self, n: int = 10, by: str | None = None) -> tuple[pd.DataFrame, pd.DataFrame]:
        """The ``n`` largest regressions and improvements by diff µs (for a bar chart)."""
        rows = self.op_rows(by or self.by)
        worse = rows[rows["status"].isin(WORSE)].nlargest(n, "diff_us")
        better = rows[rows["status"].isin(BETTER)].nsmallest(n, "diff_us")
        return worse.reset_index(drop=True), better.reset_index(drop=True)

    def common_rows(self, by: str | None = None) -> int:
        rows = self.op_rows(by or self.by)
        return int(((rows["base_count"] > 0) & (rows["current_count"] > 0)).sum())

    def regressions(self, threshold_pct: float, by: str | None = None) -> list[str]:
        """What exceeds a CI gate, by the same rule as the statuses (:attr:`basis`): per step, the
        device time per step or a row's time per step; per call, a row's average time per call;
        slower by more than ``threshold_pct`` % (a zero base time that grew counts as exceeding).
        The same for each communication op type, and a memory peak (allocated / reserved per
        component) that grew by more than ``threshold_pct`` %. Only rows present on both sides
        count."""
        hits = []
        rows = self.op_rows(by or self.by)
        both = rows[(rows["base_count"] > 0) & (rows["current_count"] > 0)]
        if self.basis == "step":
            total = self.total()
            if total["base_total_us"] is not None and total["current_total_us"] is not None:
                b_step = total["base_total_us"] / float(self.base.steps or 1)
                c_step = total["current_total_us"] / float(self.current.steps or 1)
                pct = clean(percent(np.array([b_step]), np.array([c_step - b_step]))[0])
                if _exceeds(pct, c_step - b_step, threshold_pct):
                    hits.append(f"device time per step: {b_step:.3f} -> {c_step:.3f} us ({_pct_text(pct)})")
            columns = ("per_step_diff_pct", "base_per_step_us", "current_per_step_us", "per step")
        else:
            columns = ("avg_diff_pct", "base_avg_us", "current_avg_us", "per call")
        pct_col, b_col, c_col, unit = columns
        for key, pct, b, c in zip(both["key"], both[pct_col], both[b_col], both[c_col]):
            if _exceeds(clean(pct), c - b, threshold_pct):
                hits.append(f"{key}: {b:.3f} -> {c:.3f} us {unit} ({_pct_text(clean(pct))})")
        comm = self.communication
        comm = comm[(comm["base_calls"] > 0) & (comm["current_calls"] > 0)]
        for key, pct, b, c in zip(comm["comm_op"], comm[pct_col], comm[b_col], comm[c_col]):
            if _exceeds(clean(pct), c - b, threshold_pct):
                hits.append(f"communication {key}: {b:.3f} -> {c:.3f} us {unit} ({_pct_text(clean(pct))})")
        peaks = self.memory_peaks
        peaks = peaks[peaks["base"].notna() & peaks["current"].notna()]
        for component, metric, pct, b, c in zip(
            peaks["component"], peaks["metric"], peaks["diff_pct"], peaks["base"], peaks["current"]
        ):
            if _exceeds(clean(pct), c - b, threshold_pct):
                hits.append(f"memory {metric.lower()} {component}: {b:.3f} -> {c:.3f} MB ({_pct_text(clean(pct))})")
        return hits

    def records(self, frame: pd.DataFrame, columns: Iterable[str] | None = None) -> list[dict[str, Any]]:
        return records(frame, columns)


def _empty(columns: list[str]) -> pd.DataFrame:
    return pd.DataFrame({c: [] for c in columns}, columns=columns)


def _exceeds(pct: float | None, diff: float | None, threshold: float) -> bool:
    if pct is None:
        return bool(diff is not None and diff > 0)
    return pct > threshold


def _pct_text(pct: float | None) -> str:
    return "n/a" if pct is None else f"{pct:+.2f} %"
