"""The Report model (Qt-free) and ``open_report``: any supported profiling output -> one Report.

A Report holds the timeline (columnar, from :mod:`workbench.core.profiling.timeline`) and
columnar tables (pandas DataFrames with categorical strings and exact int64 ns times):

- ``ops``: every task of op_summary / kernel_details (or the Ascend Hardware lanes of a timeline);
- ``op_statistic``: the tool's op_statistic file, else computed from ``ops``;
- ``api_statistic``: the tool's api_statistic (or CANN 5/6 acl_statistic/runtime_api), else
  computed from the timeline's CANN lanes;
- ``ai_core_metrics``: per-task PMU metrics of the detected ``--aic-metrics`` group;
- every other summary CSV found (step_trace, npu_mem, ...) under its base name.
"""
from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd

from workbench.core.profiling import stats, tables
from workbench.core.profiling.csvread import ProfilingDataError
from workbench.core.profiling.detect import Layout, Unit, detect
from workbench.core.tasks import CancelToken, NullProgress, Progress

if TYPE_CHECKING:
    from workbench.core.profiling.timeline import Timeline

KINDS = ("msprof", "msprof-legacy", "torch_npu", "timeline", "workbench", "cluster")
MAIN_TABLES = ("ops", "op_statistic", "api_statistic", "ai_core_metrics")
# Timeline processes whose threads are streams of device tasks (CANN 7/8 and CANN 5/6 names).
HARDWARE_PROCESSES = ("Ascend Hardware", "Task Scheduler")


@dataclass
class Report:
    """One opened profiling report: timeline + tables + facts about the collection."""

    source: Path
    kind: str
    devices: list[int] = field(default_factory=list)
    timeline: Timeline | None = None
    tables: dict[str, pd.DataFrame] = field(default_factory=dict)
    table_sources: dict[str, str] = field(default_factory=dict)   # table -> 'file' | 'computed' | 'timeline'
    info: dict[str, Any] = field(default_factory=dict)            # host/device info, profiler_info, ...
    warnings: list[str] = field(default_factory=list)
    pmu_group: str | None = None
    pmu_split: bool = False
    start_ns: int | None = None     # absolute epoch ns of the first task / event
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
        return {k: v for k, v in self.tables.items() if k not in MAIN_TABLES}

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
    return isinstance(dtype, (pd.CategoricalDtype, pd.StringDtype)) or dtype == object


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


# ---- building ----------------------------------------------------------------------------------

class _Builder:
    """Reads every unit of a layout into one Report."""

    def __init__(self, layout: Layout, progress: Progress, cancel: CancelToken) -> None:
        self.layout = layout
        self.progress = progress
        self.cancel = cancel
        self.report = Report(layout.root, layout.kind)
        self.bytes_done = 0
        self.bytes_total = max(1, sum(_size(p) for p in layout.files))

    def _step(self, path: Path) -> None:
        """Report reading ``path``: fractions follow bytes, so a big timeline dominates."""
        self.cancel.raise_if_cancelled()
        self.progress.status(f"Reading {path.name}")
        self.progress.fraction(min(1.0, self.bytes_done / self.bytes_total))
        self.bytes_done += _size(path)

    def build(self) -> Report:
        ops_parts: list[pd.DataFrame] = []
        table_parts: dict[str, list[pd.DataFrame]] = {}
        timelines: list[Timeline] = []
        for unit in self.layout.units:
            device = unit.device if unit.device is not None else unit.rank
            unit_timelines = [self._timeline(unit.timelines, device)] if unit.timelines else []
            timelines += unit_timelines
            if device is not None:
                self.report.devices.append(device)
            ops = concat_frames([self._read(p, tables.read_ops) for p in unit.ops])
            if not len(ops.columns) and unit_timelines:
                ops = ops_from_timeline(unit_timelines[0])
                if len(ops):
                    self.report.table_sources["ops"] = "timeline"
            if len(ops.columns):
                ops_parts.append(_with_device(ops, device))
            for name, part in self._unit_tables(unit).items():
                table_parts.setdefault(name, []).append(part)
            self.report.info.update(self._infos(unit))
        if ops_parts:
            self.report.tables["ops"] = concat_frames(ops_parts)
            self.report.table_sources.setdefault("ops", "file")
        for name, parts in table_parts.items():
            self.report.tables[name] = concat_frames(parts)
            self.report.table_sources.setdefault(name, "file")
        self.report.timeline = combine_timelines(timelines, self.report.warnings)
        self.progress.fraction(1.0)
        return self.report.finish()

    def _read(self, path: Path, reader: Callable[..., pd.DataFrame], *args: Any) -> pd.DataFrame:
        self._step(path)
        return reader(path, *args)

    def _timeline(self, paths: list[Path], device: int | None) -> Timeline:
        """One unit's timeline files (msprof slices, CANN 5/6 per-device file) as one Timeline."""
        from workbench.core.profiling import timeline as tlmod

        base = self.bytes_done
        for path in paths:
            self._step(path)
        scaled = _ScaledProgress(self.progress, min(1.0, base / self.bytes_total),
                                 min(1.0, self.bytes_done / self.bytes_total))
        try:
            tl = tlmod.load_timeline(paths, progress=scaled, cancel=self.cancel,
                                     default_device=device if device is not None else 0)
        except tlmod.TimelineError as exc:
            raise ProfilingDataError(str(exc)) from exc
        self.report.warnings += [str(w) for w in tl.warnings]
        return tl

    def _unit_tables(self, unit: Unit) -> dict[str, pd.DataFrame]:
        out: dict[str, pd.DataFrame] = {}
        if unit.op_statistic:
            out["op_statistic"] = concat_frames(
                [self._read(p, tables.read_table, tables.OP_STATISTIC) for p in unit.op_statistic])
        api_parts = [self._read(p, tables.read_api_statistic) for p in unit.api_statistic]
        legacy_levels = set()
        for path, level in unit.api_legacy:
            api_parts.append(self._read(path, tables.read_api_statistic, level))
            legacy_levels.add(level)
        for path, level in unit.api_calls:
            if level not in legacy_levels:
                api_parts.append(self._read(path, tables.aggregate_api_calls, level))
        if api_parts:
            out["api_statistic"] = concat_frames(api_parts)
        for name, paths in unit.summaries.items():
            out[name] = concat_frames([self._read(p, tables.read_table) for p in paths])
        return out

    def _infos(self, unit: Unit) -> dict[str, Any]:
        info: dict[str, Any] = {}
        for path in unit.infos:
            try:
                key = path.stem if path.name.startswith("profiler_") else f"{path.parent.name}/{path.name}"
                info[key] = json.loads(path.read_text(encoding="utf-8"))
            except (OSError, ValueError) as exc:
                self.report.warnings.append(f"{path}: ignored, not readable JSON ({exc})")
        return info


def _size(path: Path) -> int:
    try:
        return path.stat().st_size
    except OSError:
        return 0


class _ScaledProgress:
    """Forwards a sub-task's 0..1 fractions into [lo, hi] of the whole job."""

    def __init__(self, progress: Progress, lo: float, hi: float) -> None:
        self.progress, self.lo, self.hi = progress, lo, hi

    def status(self, text: str) -> None:
        self.progress.status(text)

    def fraction(self, value: float | None) -> None:
        self.progress.fraction(None if value is None else self.lo + (self.hi - self.lo) * value)

    def partial(self, item: Any) -> None:
        self.progress.partial(item)


def combine_timelines(timelines: list[Timeline], warnings: list[str]) -> Timeline | None:
    """One timeline from several (devices, ranks, merged reports)."""
    if not timelines:
        return None
    if len(timelines) == 1:
        return timelines[0]
    from workbench.core.profiling.tlmerge import merge_timelines

    return merge_timelines(timelines)


def _with_device(ops: pd.DataFrame, device: int | None) -> pd.DataFrame:
    """Make sure the OPs table has a device column (the layout's device where the file has none)."""
    if "device" in ops.columns and not ops["device"].isna().all():
        return ops
    fill = 0 if device is None else device
    column = pd.array(np.full(len(ops), fill, dtype=np.int64), dtype="Int64")
    ops = ops.drop(columns=["device"]) if "device" in ops.columns else ops
    ops.insert(0, "device", column)
    return ops


def ops_from_timeline(tl: Timeline) -> pd.DataFrame:
    """The OPs table from the device task lanes of a timeline (when no CSV exists)."""
    hw = {lane.index: lane for lane in tl.lanes if lane.process_name in HARDWARE_PROCESSES}
    if not hw or tl.event_count == 0:
        return pd.DataFrame()
    lane = np.asarray(tl.lane)
    idx = np.flatnonzero(np.isin(lane, np.fromiter(hw, dtype=np.int64)))
    if idx.size == 0:
        return pd.DataFrame()
    # per lane: its device and stream (-1 = none), looked up for every task at once
    lane_device = np.full(max(hw) + 1, -1, dtype=np.int64)
    lane_stream = np.full(max(hw) + 1, -1, dtype=np.int64)
    for i, ln in hw.items():
        lane_device[i] = -1 if ln.device is None else ln.device
        if ln.is_stream or str(ln.thread_name).startswith("Stream"):
            lane_stream[i] = int(ln.tid)
    lanes = lane[idx]
    device, stream = lane_device[lanes], lane_stream[lanes]
    name_id = np.asarray(tl.name_id)[idx]
    frame = pd.DataFrame({
        "device": pd.arrays.IntegerArray(device, device < 0),
        "stream_id": pd.arrays.IntegerArray(stream, stream < 0),
        "name": _categorical(name_id, tl.names),
        "start_ns": pd.array(np.asarray(tl.start_ns)[idx].astype(np.int64) + int(tl.origin_ns), dtype="Int64"),
        "duration_us": np.asarray(tl.dur_ns)[idx].astype(np.float64) / 1000.0,
    })
    _add_task_args(frame, tl, idx)
    return frame


def _categorical(codes: np.ndarray, labels: list) -> pd.Categorical:
    """``labels[codes]`` as a pd.Categorical without a Python object per row: code -1 or a None
    label is missing; categories are the labels that occur, sorted (as pd.Categorical sorts)."""
    codes = np.asarray(codes)
    used = np.unique(codes[codes >= 0]).tolist()
    cats = sorted({labels[i] for i in used if labels[i] is not None})
    at = {c: n for n, c in enumerate(cats)}
    lut = np.array([-1 if t is None else at.get(t, -1) for t in labels] + [-1], dtype=np.int32)
    return pd.Categorical.from_codes(lut[codes], cats)


def _add_task_args(frame: pd.DataFrame, tl: Timeline, idx: np.ndarray) -> None:
    """Task type / id (and OP type where present) from each hardware event's args."""
    from workbench.core.profiling._trace_args import pick

    got = pick(tl, idx, ("Task Type", "Task Id", "OP Type"), int_keys=("Task Id",))
    # Task Id: an int, or a string of digits; anything else is missing
    ids = got.values(1)
    lut = np.zeros(len(ids) + 2, dtype=np.int64)   # [-2] and [-1] stay "missing" here
    ok = np.zeros(len(ids) + 2, dtype=bool)
    for n, v in enumerate(ids):
        if isinstance(v, bool):
            continue
        if isinstance(v, int) or (isinstance(v, str) and v.isdigit()):
            if -2**63 <= int(v) < 2**63:  # beyond int64: missing, never a wrapped number
                lut[n], ok[n] = int(v), True
    codes = got.codes[1]
    numeric = codes == -2
    task_id = np.where(numeric, got.ints[1], lut[codes])
    frame.insert(2, "task_id", pd.arrays.IntegerArray(task_id, ~(ok[codes] | numeric)))
    op_type = _categorical(got.codes[2], _texts(got.values(2)))
    if (op_type.codes >= 0).any():
        frame.insert(4, "type", op_type)
    frame["task_type"] = _categorical(got.codes[0], _texts(got.values(0)))


def _texts(values: list) -> list[str | None]:
    """Decoded args values as the table shows them: text, None where absent."""
    return [None if v is None else str(v) for v in values]


def open_report(path: str | Path, progress: Progress | None = None, cancel: CancelToken | None = None,
                use_cache: bool | None = None, cache_later: bool = False) -> Report:
    """Open any supported profiling output (work function: progress/cancel).

    ``use_cache``: True always reads/writes the columnar cache, False never, None (default) only
    for sources bigger than :data:`workbench.core.profiling.cache.AUTO_CACHE_BYTES`.
    ``cache_later``: do not write the cache now (it takes about as long as the load); leave it in
    ``report.pending_cache`` for :func:`workbench.core.profiling.views.write_cache`.
    """
    progress = progress or NullProgress()
    cancel = cancel or CancelToken()
    layout = detect(Path(path))
    if layout.saved is not None:
        from workbench.core.profiling.saved import load_saved

        return load_saved(layout.saved, progress=progress, cancel=cancel)
    from workbench.core.profiling import cache

    if cache.wanted(layout, use_cache):
        cached = cache.load(layout)
        if cached is not None:
            return cached
    report = _Builder(layout, progress, cancel).build()
    if cache.wanted(layout, use_cache):
        if cache_later:
            report.pending_cache = layout
        else:
            cache.store(layout, report)
    return report
