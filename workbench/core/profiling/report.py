"""The Report model: one opened profiling report, whatever it was read from.

Opening a path is :func:`workbench.core.profiling.build.open_report`; this module only says what a
Report holds and derives its facts. A Report holds the timeline (columnar, from
:mod:`workbench.core.profiling.timeline`) and
columnar tables (pandas DataFrames with categorical strings and exact int64 ns times):

- ``ops``: every task of op_summary / kernel_details (or the Ascend Hardware lanes of a timeline);
- ``op_statistic``: the tool's op_statistic file, else computed from ``ops``;
- ``api_statistic``: the tool's api_statistic (or CANN 5/6 acl_statistic/runtime_api), else
  computed from the timeline's CANN lanes;
- ``ai_core_metrics``: per-task PMU metrics of the detected ``--aic-metrics`` group;
- every other summary CSV found (step_trace, npu_mem, ...) under its base name.

A report opened from its cache holds :class:`LazyTables`: the same dict of frames, each decoded on
its first use (``report.table_rows`` counts rows without decoding; ``report.table_columns`` decodes
only the columns a reader needs).
"""

from __future__ import annotations

import threading
from collections.abc import Collection, ItemsView, Iterator, ValuesView
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

import numpy as np
import pandas as pd

from workbench.core.profiling import stats
from workbench.core.profiling.detect import detect
from workbench.core.profiling.errors import ProfilingDataError

if TYPE_CHECKING:
    from workbench.core.profiling.timeline import Timeline

KINDS = ("msprof", "msprof-legacy", "torch_npu", "timeline", "workbench", "cluster")
MAIN_TABLES = ("ops", "op_statistic", "api_statistic", "ai_core_metrics")


class TableLoader(Protocol):
    """Decodes a table: all of it, or only the columns named in ``only``."""

    def __call__(self, only: Collection[str] | None = None) -> pd.DataFrame: ...


class _Pending:
    """A table not decoded yet: its row count and the function that decodes it."""

    __slots__ = ("rows", "load")

    def __init__(self, rows: int, load: TableLoader) -> None:
        self.rows = rows
        self.load = load

    def __repr__(self) -> str:
        return f"<table of {self.rows} rows, decoded on first use>"


_DECODING = threading.Lock()  # one decode at a time: the GUI thread and a worker never decode a table twice


class LazyTables(dict[str, pd.DataFrame]):
    """``report.tables`` of a report opened from its cache: a dict whose tables are decoded on first
    access (``[name]``, ``get``, ``items``, ``values``, ``pop``, ``dict(...)``), then kept.

    :meth:`rows` gives a table's row count without decoding it; :meth:`decoded` says whether it was.
    A table that fails to decode raises what its loader raises (a ProfilingDataError naming the
    cache), every time it is asked for.
    """

    def add_pending(self, name: str, rows: int, load: TableLoader) -> None:
        dict.__setitem__(self, name, _Pending(rows, load))  # type: ignore[assignment]

    def _value(self, name: str, value: Any) -> pd.DataFrame:
        if not isinstance(value, _Pending):
            return value
        with _DECODING:
            current = dict.__getitem__(self, name) if dict.__contains__(self, name) else value
            if not isinstance(current, _Pending):  # another thread decoded it meanwhile
                return current
            frame = current.load()
            dict.__setitem__(self, name, frame)
            return frame

    def __getitem__(self, name: str) -> pd.DataFrame:
        return self._value(name, dict.__getitem__(self, name))

    def __iter__(self) -> Iterator[str]:  # defined here: dict(x) and {**x} then go through __getitem__
        return dict.__iter__(self)

    def get(self, name: str, default: Any = None) -> Any:  # type: ignore[override]
        return self[name] if dict.__contains__(self, name) else default

    def items(self) -> ItemsView[str, pd.DataFrame]:  # type: ignore[override]
        return ItemsView(self)

    def values(self) -> ValuesView[pd.DataFrame]:  # type: ignore[override]
        return ValuesView(self)

    def pop(self, name: str, *default: Any) -> Any:  # type: ignore[override]
        if not dict.__contains__(self, name):
            return dict.pop(self, name, *default)
        frame = self[name]
        dict.__delitem__(self, name)
        return frame

    def popitem(self) -> tuple[str, pd.DataFrame]:
        if not len(self):
            raise KeyError("popitem(): no tables")
        name = list(dict.keys(self))[-1]
        return name, self.pop(name)

    def setdefault(self, name: str, default: Any = None) -> Any:  # type: ignore[override]
        if dict.__contains__(self, name):
            return self[name]
        self[name] = default
        return default

    def copy(self) -> LazyTables:
        out = LazyTables()
        for name, value in dict.items(self):
            dict.__setitem__(out, name, value)
        return out

    def __or__(self, other: Any) -> dict[str, pd.DataFrame]:  # type: ignore[override]
        return {**self, **other}

    def __eq__(self, other: object) -> bool:
        return isinstance(other, dict) and dict(self.items()) == dict(other.items())

    def __repr__(self) -> str:
        return "{" + ", ".join(f"{name!r}: {value!r}" for name, value in dict.items(self)) + "}"

    def rows(self, name: str) -> int:
        """The row count of table ``name``, decoded or not (KeyError if there is no such table)."""
        value = dict.__getitem__(self, name)
        return value.rows if isinstance(value, _Pending) else len(value)

    def decoded(self, name: str) -> bool:
        return not isinstance(dict.__getitem__(self, name), _Pending)

    def columns(self, name: str, columns: Collection[str]) -> pd.DataFrame:
        """Table ``name`` with at least ``columns`` (those it has): a table not decoded yet decodes only
        those, for this answer (it stays pending); a decoded one is returned whole."""
        value = dict.__getitem__(self, name)
        return value.load(columns) if isinstance(value, _Pending) else value


@dataclass
class Report:
    """One opened profiling report: timeline + tables + facts about the collection."""

    source: Path
    kind: str
    devices: list[int] = field(default_factory=list)
    timeline: Timeline | None = None
    tables: dict[str, pd.DataFrame] = field(default_factory=dict)
    table_sources: dict[str, str] = field(default_factory=dict)  # 'file' | 'database' | 'computed' | 'timeline'
    info: dict[str, Any] = field(default_factory=dict)  # host/device info, profiler_info, ...
    warnings: list[str] = field(default_factory=list)
    pmu_group: str | None = None
    pmu_split: bool = False
    start_ns: int | None = None  # absolute epoch ns of the first task / event
    end_ns: int | None = None
    # the layout whose cache is still to be written (open_report(cache_later=True)); see views.write_cache
    pending_cache: Any = field(default=None, repr=False, compare=False)

    # --- convenience -----------------------------------------------------------------------
    def table(self, name: str) -> pd.DataFrame:
        return self.tables.get(name, pd.DataFrame())

    @property
    def ops(self) -> pd.DataFrame:
        return self.table("ops")

    @property
    def op_statistic(self) -> pd.DataFrame:
        return self.table("op_statistic")

    @property
    def api_statistic(self) -> pd.DataFrame:
        return self.table("api_statistic")

    @property
    def ai_core_metrics(self) -> pd.DataFrame:
        return self.table("ai_core_metrics")

    @property
    def summary(self) -> dict[str, pd.DataFrame]:
        """The other summary tables (step trace, memory, bandwidth ...), by name."""
        return {k: self.tables[k] for k in self.tables if k not in MAIN_TABLES}  # the main ones stay undecoded

    def table_columns(self, name: str, columns: Collection[str]) -> pd.DataFrame:
        """Table ``name`` (empty if absent) holding at least ``columns`` (those it has), for a reader of
        only these: a table of a cached report that is not decoded yet decodes only them."""
        if isinstance(self.tables, LazyTables) and name in self.tables:
            return self.tables.columns(name, columns)
        return self.table(name)

    @property
    def table_rows(self) -> dict[str, int]:
        """Row count of every table, in order, without decoding any (see :class:`LazyTables`)."""
        tables = self.tables
        if isinstance(tables, LazyTables):
            return {name: tables.rows(name) for name in tables}
        return {name: len(frame) for name, frame in tables.items()}

    @property
    def span_ns(self) -> int:
        if self.start_ns is None or self.end_ns is None:
            return 0
        return self.end_ns - self.start_ns

    @property
    def event_count(self) -> int:
        return int(self.timeline.event_count) if self.timeline is not None else 0

    @property
    def flow_count(self) -> int:
        return int(self.timeline.flow_count) if self.timeline is not None else 0

    def input_paths(self) -> list[Path]:
        """What the report was read from: the source file, or the files its layout reads in the
        source folder (a writer never replaces one of them)."""
        source = Path(self.source)
        if not source.is_dir():
            return [source]
        try:
            return [source, *detect(source).files]
        except ProfilingDataError:
            return [source]

    def finish(self) -> Report:
        """Fill the derived tables and facts (statistics, PMU metrics, devices, span)."""
        ops = self.tables.get("ops")
        if ops is not None and len(ops) and "op_statistic" not in self.tables:
            self.tables["op_statistic"] = stats.op_statistics(ops, "type")
            self.table_sources["op_statistic"] = "computed"
        if "api_statistic" not in self.tables and self.timeline is not None:
            api = stats.api_statistics_from_timeline(self.timeline)
            if len(api):
                self.tables["api_statistic"] = api
                self.table_sources["api_statistic"] = "timeline"
        if ops is not None and "ai_core_metrics" not in self.tables:
            metrics, self.pmu_group, self.pmu_split = stats.ai_core_metrics(ops)
            if len(metrics.columns):
                self.tables["ai_core_metrics"] = metrics
                self.table_sources["ai_core_metrics"] = "computed"
        self.devices = sorted(set(self.devices) | _devices_of(self))
        self.start_ns, self.end_ns = _span(self)
        return self


def _devices_of(report: Report) -> set[int]:
    found: set[int] = set()
    if report.timeline is not None:
        found |= {int(d) for d in getattr(report.timeline, "devices", []) if d is not None and int(d) >= 0}
    ops = report.tables.get("ops")
    if ops is not None and "device" in ops.columns:
        found |= {int(d) for d in pd.unique(ops["device"].dropna())}
    cluster = report.tables.get("cluster_step_trace_time")
    if cluster is not None and {"Type", "Index"} <= set(cluster.columns):
        ranks = cluster.loc[cluster["Type"].astype(object) == "rank", "Index"]
        found |= {int(r) for r in pd.to_numeric(ranks.astype(object), errors="coerce").dropna()}
    return found


def _span(report: Report) -> tuple[int | None, int | None]:
    """First start and last end: over the timeline's X events, else over the OPs table."""
    tl = report.timeline
    if tl is not None and tl.event_count:
        start = np.asarray(tl.start_ns)
        end = start + np.asarray(tl.dur_ns)
        return int(tl.origin_ns) + int(start.min()), int(tl.origin_ns) + int(end.max())
    ops = report.tables.get("ops")
    if ops is not None and len(ops) and "start_ns" in ops.columns:
        start = ops["start_ns"].astype("float64")  # only to find the rows; values below are exact ints
        valid = ~start.isna() & ~ops["duration_us"].isna()
        if valid.any():
            s = ops["start_ns"][valid].astype(np.int64).to_numpy()
            d = np.rint(ops["duration_us"][valid].to_numpy() * 1000).astype(np.int64)
            return int(s.min()), int((s + d).max())
    return None, None


# ---- concatenation -------------------------------------------------------------------------


def _is_text(dtype: Any) -> bool:
    return isinstance(dtype, (pd.CategoricalDtype, pd.StringDtype)) or pd.api.types.is_object_dtype(dtype)


def concat_frames(frames: list[pd.DataFrame]) -> pd.DataFrame:
    """Concatenate keeping string columns categorical (union of categories), numbers numeric
    (a column missing from one frame is missing there: NaN / <NA>, never object)."""
    frames = [f for f in frames if f is not None and len(f.columns)]
    if not frames:
        return pd.DataFrame()
    if len(frames) == 1:
        return frames[0]
    text = {c for f in frames for c in f.columns if _is_text(f[c].dtype)}
    plain = [f.astype({c: object for c in text if c in f.columns}) for f in frames]
    out = pd.concat(plain, ignore_index=True)
    for c in text:
        out[c] = pd.Categorical(out[c])
    return out
