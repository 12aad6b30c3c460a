"""Build a Report from what a path holds: :func:`open_report`, the one way to open profiling output.

The layout (:mod:`workbench.core.profiling.detect`) says which files hold what; this module reads
each unit's tables (:mod:`workbench.core.profiling.tables`) and timelines
(:mod:`workbench.core.profiling.timeline`), derives the OPs table from the timeline where no CSV
exists, combines devices and ranks, and consults the cache and the saved-report format
(:mod:`workbench.core.profiling.storage`). A new input layout is detected in ``detect`` and read
here; a new table is a schema in ``tables``.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from workbench.core.profiling import tables
from workbench.core.profiling.dbread import read_db
from workbench.core.profiling.detect import Layout, Unit, detect
from workbench.core.profiling.errors import ProfilingDataError
from workbench.core.profiling.report import Report, concat_frames
from workbench.core.profiling.storage import cache
from workbench.core.profiling.storage.saved import load_saved
from workbench.core.profiling.timeline import (
    Timeline,
    TimelineError,
    load_timeline,
    merge_timelines,
    pick_args,
)
from workbench.core.profiling.timeline_ops import STEP_THREAD, step_marker_mask
from workbench.core.tasks import CancelToken, NullProgress, Progress, ScaledProgress

# Timeline processes whose threads are streams of device tasks (CANN 7/8 and CANN 5/6 names).
HARDWARE_PROCESSES = ("Ascend Hardware", "Task Scheduler")


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
            self._communication(unit, table_parts)
            if unit.dbs and not (unit.timelines or unit.ops):
                self._database(unit, device, ops_parts, table_parts, timelines)
                continue
            unit_timelines = [self._timeline(unit.timelines, device)] if unit.timelines else []
            timelines += unit_timelines
            if device is not None:
                self.report.devices.append(device)
            ops = concat_frames([self._read(p, tables.read_ops) for p in unit.ops])
            if not len(ops.columns) and unit_timelines:
                ops = ops_from_timeline(unit_timelines[0], self.report.warnings)
                if len(ops):
                    self.report.table_sources["ops"] = "timeline"
            elif len(ops) and unit_timelines:
                ops = self._derive(ops, unit, unit_timelines[0])
            if len(ops.columns):
                ops_parts.append(_with_device(ops, device))
            for name, part in self._unit_tables(unit).items():
                if name == "step_trace_time" and len(self.layout.units) > 1:
                    part = _with_step_device(part, device)
                table_parts.setdefault(name, []).append(part)
            self.report.info.update(self._infos(unit))
        if self.report.info.get("derived") and "op_statistic" in table_parts:
            # the tool grouped by the N/A types: statistics of the derived types are computed instead
            table_parts.pop("op_statistic")
            self.report.warnings.append(RECOMPUTED_TEMPLATE.format("op_statistic"))
        if ops_parts:
            self.report.tables["ops"] = concat_frames(ops_parts)
            self.report.table_sources.setdefault("ops", "file")
        for name, parts in table_parts.items():
            self.report.tables[name] = concat_frames(parts)
            self.report.table_sources.setdefault(name, "file")
        self.report.timeline = combine_timelines(timelines, self.report.warnings)
        self.progress.fraction(1.0)
        return self.report.finish()

    def _communication(self, unit: Unit, table_parts: dict) -> None:
        """communication.json / communication_matrix.json (:mod:`workbench.core.profiling.tables.commread`):
        their tables, each row tagged with the rank of the unit (a framework output's profiler_info_{rank};
        <NA> where the layout names none). Not "device": a rank's files do not say which device it ran on."""
        rank = unit.rank
        readers = {"communication": tables.read_communication, "communication_matrix": tables.read_communication_matrix}
        for name, paths in unit.communication.items():
            for path in paths:
                self._step(path)
                got = readers[name](path)
                self.report.warnings += got.warnings
                for table, frame in got.tables.items():
                    values = np.full(len(frame), 0 if rank is None else rank, dtype=np.int64)
                    frame.insert(0, "rank", pd.arrays.IntegerArray(values, np.full(len(frame), rank is None)))
                    table_parts.setdefault(table, []).append(frame)

    def _database(self, unit: Unit, device: int | None, ops_parts: list, table_parts: dict, timelines: list) -> None:
        """A unit read from its profiler database (+ analysis.db): :mod:`workbench.core.profiling.dbread`."""
        main = unit.dbs[0]
        analysis = unit.dbs[1] if len(unit.dbs) > 1 else None  # analysis.db or communication_analyzer.db (detect)
        for p in unit.dbs:
            self._step(p)
        data = read_db(main, analysis, default_device=device if device is not None else 0)
        self.report.warnings += data.warnings
        if data.timeline is not None:
            self.report.warnings += [str(w) for w in data.timeline.warnings]
            timelines.append(data.timeline)
        if device is not None:
            self.report.devices.append(device)
        if len(data.ops.columns):
            ops_parts.append(_with_device(data.ops, device))
        for name, part in data.tables.items():
            table_parts.setdefault(name, []).append(part)
        self.report.info.update(data.info)
        self.report.info.update(self._infos(unit))
        self.report.table_sources.setdefault("ops", "database")

    def _derive(self, ops: pd.DataFrame, unit: Unit, tl: Timeline) -> pd.DataFrame:
        """Missing task / OP types of a summary table (torch_npu Level0) from the unit's timeline,
        said in the warnings and in ``info["derived"]``."""
        source = ", ".join(p.name for p in unit.ops)
        ops, derived = fill_from_timeline(ops, tl, source)
        if derived is not None:
            columns = " and ".join(_column_label(unit, c) for c in derived["columns"])
            self.report.warnings.append(
                DERIVED_TEMPLATE.format(
                    source, columns, derived["from"], derived["rows"], derived["of"], derived["unmatched"]
                )
            )
            self.report.info.setdefault("derived", []).append(derived)
        return ops

    def _read(self, path: Path, reader: Callable[..., pd.DataFrame], *args: Any) -> pd.DataFrame:
        self._step(path)
        return reader(path, *args)

    def _timeline(self, paths: list[Path], device: int | None) -> Timeline:
        """One unit's timeline files (msprof slices, CANN 5/6 per-device file) as one Timeline."""
        base = self.bytes_done
        for path in paths:
            self._step(path)
        scaled = ScaledProgress(
            self.progress, min(1.0, base / self.bytes_total), min(1.0, self.bytes_done / self.bytes_total)
        )
        try:
            tl = load_timeline(
                paths, progress=scaled, cancel=self.cancel, default_device=device if device is not None else 0
            )
        except TimelineError as exc:
            raise ProfilingDataError(str(exc)) from exc
        self.report.warnings += [str(w) for w in tl.warnings]
        return tl

    def _unit_tables(self, unit: Unit) -> dict[str, pd.DataFrame]:
        out: dict[str, pd.DataFrame] = {}
        if unit.op_statistic:
            out["op_statistic"] = concat_frames(
                [self._read(p, tables.read_table, tables.OP_STATISTIC) for p in unit.op_statistic]
            )
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
            except RecursionError:
                self.report.warnings.append(f"{path}: ignored, nested too deeply to be an info file")
        return info


def _column_label(unit: Unit, column: str) -> str:
    """A canonical OPs column by the header the unit's file uses (kernel_details or op_summary)."""
    kernel = any(p.name.startswith("kernel_details") for p in unit.ops)
    header = {"task_type": ("Accelerator Core", "Task Type"), "type": ("Type", "OP Type")}[column]
    return header[0] if kernel else header[1]


def _size(path: Path) -> int:
    try:
        return path.stat().st_size
    except OSError:
        return 0


def _with_step_device(frame: pd.DataFrame, device: int | None) -> pd.DataFrame:
    """torch_npu's step_trace_time.csv (2025 layout) names no device: in a job of several ranks each
    rank's rows get its device (or rank), else the ranks' steps could not be told apart."""
    if device is None or not len(frame) or any(c.lower() == "device_id" for c in frame.columns):
        return frame
    out = frame.copy()
    out.insert(0, "Device_id", pd.array([device] * len(frame), dtype="Int64"))
    return out


def combine_timelines(timelines: list[Timeline], warnings: list[str]) -> Timeline | None:
    """One timeline from several (devices, ranks, merged reports)."""
    if not timelines:
        return None
    if len(timelines) == 1:
        return timelines[0]
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


# Args keys that hold a task's OP type, by era (the first present wins).
OP_TYPE_KEYS = ("OP Type", "Op Type", "op_type", "OpType")
# A MindSpore kernel's full name ends in its type: "Default/network/.../Conv2D-op520".
MINDSPORE_NAME = re.compile(r"(?:^|/)([A-Za-z_][A-Za-z0-9_]*)-op\d+$")

DERIVED_TEMPLATE = (
    "{0}: {1} derived from {2} (Ascend Hardware slices matched by stream, task id and start) for {3} of {4} "
    "rows; {5} rows have no timeline partner and stay N/A"
)
RECOMPUTED_TEMPLATE = "{0}: the file groups by the types that were N/A; computed from the OPs table instead"
NAME_TYPES_TEMPLATE = "{0}: no OP Type in the args of {1} device tasks; their type is read from the op name ({2})"
MARKER_TEMPLATE = (
    "{0}: {1} slices on a device stream named like step markers ({2}) have no Task Type; kept as step markers, not OPs"
)


def ops_from_timeline(tl: Timeline, notes: list[str] | None = None) -> pd.DataFrame:
    """The OPs table from the device task lanes of a timeline (when no CSV exists): every slice of
    a hardware stream except step markers, its type from the args (``OP Type``; a MindSpore name's
    ``Type-opN`` where no args say it). Lines about what was inferred go to ``notes``."""
    hw = {lane.index: lane for lane in tl.lanes if lane.process_name in HARDWARE_PROCESSES}
    if not hw or tl.event_count == 0:
        return pd.DataFrame()
    lane = np.asarray(tl.lane)
    idx = np.flatnonzero(np.isin(lane, np.fromiter(hw, dtype=np.int64)))
    if idx.size == 0:
        return pd.DataFrame()
    # step-trace markers sharing the device process (CANN 5/6 merged timelines): steps, not OPs
    lane_is_step = {i for i, ln in hw.items() if STEP_THREAD.match(str(ln.thread_name))}
    if lane_is_step:
        idx = idx[~np.isin(lane[idx], np.fromiter(lane_is_step, dtype=np.int64))]
    marker = step_marker_mask(tl)[idx]
    if marker.any():  # named like a marker on a stream: a marker only where no Task Type says it is a task
        typed = pick_args(tl, idx[marker], ("Task Type",)).codes[0] >= 0
        drop = np.flatnonzero(marker)[~typed]
        if len(drop) and notes is not None:
            found = sorted({tl.names[int(i)] for i in np.asarray(tl.name_id)[idx[drop]][:1000]})
            notes.append(MARKER_TEMPLATE.format(_sources(tl), len(drop), ", ".join(found[:4])))
        idx = np.delete(idx, drop)
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
    frame = pd.DataFrame(
        {
            "device": pd.arrays.IntegerArray(device, device < 0),
            "stream_id": pd.arrays.IntegerArray(stream, stream < 0),
            "name": _categorical(name_id, tl.names),
            "start_ns": pd.array(np.asarray(tl.start_ns)[idx].astype(np.int64) + int(tl.origin_ns), dtype="Int64"),
            "duration_us": np.asarray(tl.dur_ns)[idx].astype(np.float64) / 1000.0,
        }
    )
    _add_task_args(frame, tl, idx)
    _types_from_names(frame, tl, notes)
    return frame


def _sources(tl: Timeline) -> str:
    files = [Path(p).name for p in (tl.source or [])]
    if len(files) > 3:
        return f"{files[0]} and {len(files) - 1} more timeline files"
    return ", ".join(files) or "the timeline"


def _types_from_names(frame: pd.DataFrame, tl: Timeline, notes: list[str] | None) -> None:
    """Where no args give an OP type: a MindSpore full name ``.../Conv2D-op520`` names its type."""
    has = frame["type"].notna().to_numpy() if "type" in frame.columns else np.zeros(len(frame), dtype=bool)
    if has.all():
        return
    names = frame["name"].cat.categories
    found = [m.group(1) if (m := MINDSPORE_NAME.search(str(n))) else None for n in names]
    if not any(found):
        return
    derived = np.asarray([*found, None], dtype=object)[frame["name"].cat.codes.to_numpy()]  # code -1: None
    use = ~has & pd.notna(derived)
    if not use.any():
        return
    current = frame["type"].astype(object).to_numpy() if "type" in frame.columns else np.full(len(frame), None)
    column = pd.Categorical(np.where(use, derived, current))
    if "type" in frame.columns:
        frame["type"] = column
    else:
        frame.insert(4, "type", column)
    if notes is not None:
        notes.append(NAME_TYPES_TEMPLATE.format(_sources(tl), int(use.sum()), "MindSpore Type-opN"))


def fill_from_timeline(ops: pd.DataFrame, tl: Timeline, source: str) -> tuple[pd.DataFrame, dict | None]:
    """Fill an OPs table's missing ``task_type`` / ``type`` (torch_npu Level0 writes ``N/A`` in
    kernel_details ``Accelerator Core`` and ``Type``) from the timeline's device tasks of the same run,
    matched by (device, stream, task id, start ns). Returns the table and what was derived (or None)."""
    if not len(ops) or not {"stream_id", "task_id", "start_ns"} <= set(ops.columns):
        return ops, None
    want = [c for c in ("task_type", "type") if c in ops.columns and ops[c].isna().any()]
    want += [c for c in ("task_type", "type") if c not in ops.columns]
    if not want:
        return ops, None
    missing = np.zeros(len(ops), dtype=bool)
    for c in want:
        missing |= ops[c].isna().to_numpy() if c in ops.columns else True
    tasks = ops_from_timeline(tl)
    if not len(tasks) or "task_id" not in tasks.columns:
        return ops, None
    keys = ["stream_id", "task_id", "start_ns"]
    right = tasks[[*keys, *[c for c in want if c in tasks.columns]]].dropna(subset=keys)
    right = right.drop_duplicates(subset=keys, keep="first")
    right_key = _key_frame(right, keys)
    left_key = _key_frame(ops, keys)
    at = pd.Index(pd.MultiIndex.from_frame(right_key)).get_indexer(pd.MultiIndex.from_frame(left_key))
    at[left_key.isna().any(axis=1).to_numpy()] = -1
    filled_cols: list[str] = []
    filled_rows = np.zeros(len(ops), dtype=bool)
    ops = ops.copy()
    for c in want:
        if c not in right.columns:
            continue
        values = right[c].astype(object).to_numpy()
        current = ops[c].astype(object).to_numpy() if c in ops.columns else np.full(len(ops), None, dtype=object)
        hole = pd.isna(current)
        take = hole & (at >= 0)
        if take.any():
            got = values[np.where(take, at, 0)]
            take &= ~pd.isna(got)
        if not take.any():
            continue
        current = current.copy()
        current[take] = values[at[take]]
        if c in ops.columns:
            ops[c] = pd.Categorical(current)
        else:
            ops[c] = pd.Categorical(current)
        filled_cols.append(c)
        filled_rows |= take
    if not filled_cols:
        return ops, None
    still = missing & ~filled_rows
    return ops, {
        "table": "ops",
        "file": source,
        "columns": filled_cols,
        "from": _sources(tl),
        "rows": int(filled_rows.sum()),
        "of": int(missing.sum()),
        "unmatched": int(still.sum()),
    }


def _key_frame(frame: pd.DataFrame, keys: list[str]) -> pd.DataFrame:
    """The match keys as nullable int64 (exact: start ns do not survive float64)."""
    return pd.DataFrame({k: pd.array(frame[k].to_numpy(dtype=object, na_value=None), dtype="Int64") for k in keys})


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
    got = pick_args(tl, idx, ("Task Type", "Task Id", *OP_TYPE_KEYS), int_keys=("Task Id",))
    # Task Id: an int, or a string of decimal digits ("²" is a digit int() refuses); anything else is missing
    ids = got.values(1)
    lut = np.zeros(len(ids) + 2, dtype=np.int64)  # [-2] and [-1] stay "missing" here
    ok = np.zeros(len(ids) + 2, dtype=bool)
    for n, v in enumerate(ids):
        if isinstance(v, bool):
            continue
        # beyond int64: missing, never a wrapped number
        if (isinstance(v, int) or (isinstance(v, str) and v.isdecimal())) and -(2**63) <= int(v) < 2**63:
            lut[n], ok[n] = int(v), True
    codes = got.codes[1]
    numeric = codes == -2
    task_ints = got.ints[1]
    assert task_ints is not None  # "Task Id" is asked as an int key
    task_id = np.where(numeric, task_ints, lut[codes])
    frame.insert(2, "task_id", pd.arrays.IntegerArray(task_id, ~(ok[codes] | numeric)))
    op_type = _op_types(got)
    if (op_type.codes >= 0).any():
        frame.insert(4, "type", op_type)
    frame["task_type"] = _categorical(got.codes[0], _texts(got.values(0)))


def _op_types(got) -> pd.Categorical:
    """The OP type of each task: the first of :data:`OP_TYPE_KEYS` its args hold."""
    texts: list[str | None] = []
    codes = np.full(len(got.codes[0]), -1, dtype=np.int64)
    at: dict[str, int] = {}
    for k in range(2, 2 + len(OP_TYPE_KEYS)):
        values = _texts(got.values(k))
        lut = np.array([at.setdefault(v, len(at)) if v not in (None, "", "N/A") else -1 for v in values] + [-1])
        key_codes = got.codes[k]
        take = (codes < 0) & (key_codes >= 0)
        codes[take] = lut[key_codes[take]]
    texts = list(at)
    return _categorical(codes, texts)


def _texts(values: list) -> list[str | None]:
    """Decoded args values as the table shows them: text, None where absent."""
    return [None if v is None else str(v) for v in values]


def open_report(
    path: str | Path,
    progress: Progress | None = None,
    cancel: CancelToken | None = None,
    use_cache: bool | None = None,
    cache_later: bool = False,
) -> Report:
    """Open any supported profiling output (work function: progress/cancel).

    ``use_cache``: True always reads/writes the columnar cache, False never, None (default) only
    for sources bigger than :data:`workbench.core.profiling.storage.cache.AUTO_CACHE_BYTES`.
    ``cache_later``: do not write the cache now (it takes about as long as the load); leave it in
    ``report.pending_cache`` for :func:`workbench.core.profiling.views.write_cache`.
    """
    progress = progress or NullProgress()
    cancel = cancel or CancelToken()
    layout = detect(Path(path))
    if layout.saved is not None:
        return load_saved(layout.saved, progress=progress, cancel=cancel)
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
