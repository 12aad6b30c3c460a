"""The steps (training or inference iterations) a report holds, and where they were found.

A comparison of two runs of different length is fair only per step; the timeline marks step
boundaries. Sources, the first that has steps wins:

- the OPs table's ``step`` column (torch_npu kernel_details ``Step Id``);
- torch_npu ``step_trace_time`` (its ``Step`` column);
- msprof ``step_trace`` (``Iteration ID``, CANN 7/8 and 5/6 alike), per device;
- timeline slices named ``ProfilerStep#N`` (torch_npu's step annotations);
- timeline step-trace markers ``Iteration N`` (msprof 5/6 and MindSpore PROF folders without a
  summary, :func:`~workbench.core.profiling.timeline_ops.step_marker_mask`).

Only the given devices count where a table names its device (``Device_id``); a step seen on
several devices is one step.

Where the report records when each step ran, :attr:`Steps.spans` holds it (absolute epoch ns, a
step seen on several devices spans all of them), the first source that has times winning:
``ProfilerStep#N`` slices, ``Iteration N`` step markers, msprof ``step_trace`` (an iteration ends
at ``Iteration End`` and lasts ``Iteration Time``), the OPs table (first task start to last task end per ``Step Id``).
``step_trace_time`` has durations only.

:func:`step_breakdown` is what the Steps view and ``report steps`` show: per step the time computing,
communicating (overlapped or not), free, the stage, the bubble and the preparation, from torch_npu's
``step_trace_time`` where the report has it, else computed from the timeline's Overlap Analysis lanes
(``Computing``, ``Communication``, ``Communication(Not Overlapped)``, ``Free``; docs/cann-formats.md §3)
the way torch_npu computes that file (:func:`step_breakdown_from_timeline`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import numpy as np
import pandas as pd

from workbench.core.profiling.report import Report
from workbench.core.profiling.timeline_ops import STEP_ITERATION, step_marker_mask

PROFILER_STEP = re.compile(r"^ProfilerStep#(\d+)$")


@dataclass(frozen=True)
class StepSpan:
    """When one step ran: ``[start_ns, end_ns)`` in absolute epoch ns."""

    id: int
    start_ns: int
    end_ns: int


@dataclass(frozen=True)
class Steps:
    """The distinct step ids of a report and the table (or timeline) they came from, and when
    the steps ran where the report says (sorted by start; empty when it does not)."""

    ids: tuple[int, ...]
    source: str
    spans: tuple[StepSpan, ...] = ()
    spans_source: str = ""

    @property
    def count(self) -> int:
        return len(self.ids)


def _distinct(values: pd.Series) -> tuple[int, ...]:
    numbers = pd.to_numeric(values.astype(object), errors="coerce").dropna()
    numbers = numbers[(numbers >= 0) & (numbers == np.floor(numbers))]
    return tuple(sorted({int(v) for v in numbers}))


def _on_devices(frame: pd.DataFrame, devices: list[int] | None) -> pd.DataFrame:
    for column in ("device", "Device_id"):
        if devices is not None and column in frame.columns:
            ids = pd.to_numeric(frame[column].astype(object), errors="coerce")
            return frame[ids.isin(devices).to_numpy()]
    return frame


def _from_timeline(report: Report) -> tuple[int, ...]:
    tl = report.timeline
    if tl is None or not len(tl):
        return ()
    wanted = {i: int(m.group(1)) for i, name in enumerate(tl.names) if (m := PROFILER_STEP.match(name))}
    if not wanted:
        return ()
    present = np.unique(np.asarray(tl.name_id)[np.isin(tl.name_id, np.fromiter(wanted, dtype=np.int64))])
    return tuple(sorted({wanted[int(i)] for i in present}))


def _spans(ids: np.ndarray, start: np.ndarray, end: np.ndarray) -> tuple[StepSpan, ...]:
    """Per step id: earliest start, latest end (rows with a missing value dropped)."""
    ok = (ids >= 0) & (end >= start)
    ids, start, end = ids[ok].astype(np.int64), start[ok].astype(np.int64), end[ok].astype(np.int64)
    if not len(ids):
        return ()
    order = np.argsort(ids, kind="stable")
    ids, start, end = ids[order], start[order], end[order]
    first = np.concatenate(([0], np.flatnonzero(np.diff(ids)) + 1))
    lo, hi = np.minimum.reduceat(start, first), np.maximum.reduceat(end, first)
    spans = [StepSpan(int(i), int(a), int(b)) for i, a, b in zip(ids[first], lo, hi)]
    return tuple(sorted(spans, key=lambda sp: (sp.start_ns, sp.id)))


def _numbers(frame: pd.DataFrame, column: str) -> np.ndarray:
    """A column as float64 (missing / non-numeric: NaN)."""
    return pd.to_numeric(frame[column].astype(object), errors="coerce").to_numpy(dtype=np.float64)


def _spans_from_timeline(report: Report) -> tuple[StepSpan, ...]:
    tl = report.timeline
    if tl is None or not len(tl):
        return ()
    step_of = np.full(len(tl.names), -1, dtype=np.int64)
    for i, name in enumerate(tl.names):
        if m := PROFILER_STEP.match(name):
            step_of[i] = int(m.group(1))
    if not (step_of >= 0).any():
        return ()
    ids = step_of[np.asarray(tl.name_id)]
    hit = np.flatnonzero(ids >= 0)
    start = np.asarray(tl.start_ns, dtype=np.int64)[hit] + int(tl.origin_ns)
    return _spans(ids[hit], start, start + np.asarray(tl.dur_ns, dtype=np.int64)[hit])


def _iteration_markers(report: Report) -> tuple[np.ndarray, np.ndarray]:
    """(step ids, slice indices) of the timeline's ``Iteration N`` step markers."""
    tl = report.timeline
    empty = np.zeros(0, dtype=np.int64)
    if tl is None or not len(tl):
        return empty, empty
    step_of = np.full(len(tl.names) + 1, -1, dtype=np.int64)
    for i, name in enumerate(tl.names):
        if m := STEP_ITERATION.match(str(name)):
            step_of[i] = int(m.group(1))
    if not (step_of >= 0).any():
        return empty, empty
    ids = step_of[np.asarray(tl.name_id)]
    hit = np.flatnonzero((ids >= 0) & step_marker_mask(tl))
    return ids[hit], hit


def _spans_from_markers(report: Report) -> tuple[StepSpan, ...]:
    ids, hit = _iteration_markers(report)
    if not len(hit):
        return ()
    tl = report.timeline
    assert tl is not None
    start = np.asarray(tl.start_ns, dtype=np.int64)[hit] + int(tl.origin_ns)
    return _spans(ids, start, start + np.asarray(tl.dur_ns, dtype=np.int64)[hit])


def _ints(frame: pd.DataFrame, column: str) -> tuple[np.ndarray, np.ndarray]:
    """An integer column exactly as int64 (epoch ns do not survive float64) and where it is set."""
    values = pd.to_numeric(frame[column].astype(object), errors="coerce").astype("Float64")
    ok = values.notna().to_numpy() & np.isfinite(values.fillna(0).to_numpy(dtype=np.float64))
    exact = pd.array(frame[column].where(ok, 0).to_numpy(), dtype="object")
    return np.array([int(v) for v in exact], dtype=np.int64), ok


def _spans_from_step_trace(report: Report, devices: list[int] | None) -> tuple[StepSpan, ...]:
    frame = report.tables.get("step_trace")
    if frame is None or not len(frame) or "Iteration ID" not in frame.columns:
        return ()
    frame = _on_devices(frame, devices)
    if "Iteration End(ns)" not in frame.columns:
        return ()
    end, ok = _ints(frame, "Iteration End(ns)")
    if "Iteration Time(us)" in frame.columns:
        dur = _numbers(frame, "Iteration Time(us)")
        ok &= np.isfinite(dur)
        start = end - np.round(np.nan_to_num(dur) * 1000.0).astype(np.int64)
    elif "FP Start(ns)" in frame.columns:
        start, has = _ints(frame, "FP Start(ns)")
        ok &= has
    else:
        return ()
    ids = _numbers(frame, "Iteration ID")
    ok &= np.isfinite(ids)
    return _spans(ids[ok], start[ok], end[ok])


def _spans_from_ops(report: Report, devices: list[int] | None) -> tuple[StepSpan, ...]:
    frame = report.tables.get("ops")
    if frame is None or not len(frame) or not {"step", "start_ns", "duration_us"} <= set(frame.columns):
        return ()
    frame = _on_devices(frame, devices)
    ids, start, dur = _numbers(frame, "step"), _numbers(frame, "start_ns"), _numbers(frame, "duration_us")
    ok = np.isfinite(ids) & np.isfinite(start) & np.isfinite(dur)
    start_ns = frame["start_ns"].to_numpy()[ok].astype(np.int64)  # exact: int64 ns, not through float
    return _spans(ids[ok], start_ns, start_ns + np.round(dur[ok] * 1000.0).astype(np.int64))


def step_spans(report: Report, devices: list[int] | None = None) -> tuple[tuple[StepSpan, ...], str]:
    """When the report's steps ran (on ``devices``) and where that was read, or ``((), "")``."""
    for source, find in (
        ("timeline (ProfilerStep#N)", lambda: _spans_from_timeline(report)),
        ("timeline step markers (Iteration N)", lambda: _spans_from_markers(report)),
        ("step_trace (Iteration End, Iteration Time)", lambda: _spans_from_step_trace(report, devices)),
        ("OPs table (Step Id, task start and duration)", lambda: _spans_from_ops(report, devices)),
    ):
        spans = find()
        if spans:
            return spans, source
    return (), ""


def report_steps(report: Report, devices: list[int] | None = None) -> Steps | None:
    """The report's steps (on ``devices``, default all) with their time spans where known, or
    None when it records none."""
    steps = _report_step_ids(report, devices)
    if steps is None:
        return None
    spans, source = step_spans(report, devices)
    return Steps(steps.ids, steps.source, spans, source)


def _report_step_ids(report: Report, devices: list[int] | None) -> Steps | None:
    tables = (
        ("ops", "step", "OPs table (Step Id)"),
        ("step_trace_time", "Step", "step_trace_time"),
        ("step_trace", "Iteration ID", "step_trace (Iteration ID)"),
    )
    for name, column, source in tables:
        frame = report.tables.get(name)
        if frame is not None and column in frame.columns and len(frame):
            ids = _distinct(_on_devices(frame, devices)[column])
            if ids:
                return Steps(ids, source)
    ids = _from_timeline(report)
    if ids:
        return Steps(ids, "timeline (ProfilerStep#N)")
    marked = tuple(sorted({int(i) for i in _iteration_markers(report)[0]}))
    return Steps(marked, "timeline step markers (Iteration N)") if marked else None


# ---- per-step breakdown (step_trace_time, or the Overlap Analysis lanes) ------------------------------------

BREAKDOWN_COLUMNS = (
    "step",
    "computing_us",
    "communication_not_overlapped_us",
    "overlapped_us",
    "communication_us",
    "free_us",
    "stage_us",
    "bubble_us",
    "communication_not_overlapped_exclude_receive_us",
    "preparing_us",
)
# step_trace_time's header of each column (torch_npu _trace_step_time_parser; the .db export's names are
# the same words in snake case, compared without case, spaces, brackets and underscores)
STEP_TRACE_HEADERS = {
    "computing_us": "Computing",
    "communication_not_overlapped_us": "Communication(Not Overlapped)",
    "overlapped_us": "Overlapped",
    "communication_us": "Communication",
    "free_us": "Free",
    "stage_us": "Stage",
    "bubble_us": "Bubble",
    "communication_not_overlapped_exclude_receive_us": "Communication(Not Overlapped and Exclude Receive)",
    "preparing_us": "Preparing",
}
OVERLAP_PROCESS = "Overlap Analysis"
COMPUTING, COMMUNICATION, NOT_OVERLAPPED, FREE = "Computing", "Communication", "Communication(Not Overlapped)", "Free"
RECEIVE_PREFIX = "hcom_receive"  # torch_npu counts these ops' time as the bubble
FRAMEWORK_PROCESSES = ("Python", "python")
HARDWARE = ("Ascend Hardware", "Task Scheduler")


def _key(header: object) -> str:
    text = re.sub(r"\((us|μs|µs)\)\s*$", "", str(header).strip(), flags=re.IGNORECASE)
    return re.sub(r"[^0-9a-z]+", "", text.lower())


def _breakdown_frame(rows: dict[str, object], n: int, source: str, warnings: list[str]) -> pd.DataFrame:
    frame = pd.DataFrame(rows, index=pd.RangeIndex(n))
    frame["source"] = source
    order = [c for c in ("device", "step") if c in frame.columns]
    frame = frame.sort_values(order, kind="stable", na_position="last").reset_index(drop=True) if n else frame
    frame.attrs["warnings"] = warnings
    return frame


def _int_column(frame: pd.DataFrame, column: str) -> tuple[np.ndarray, np.ndarray]:
    """An id column as int64 and where it is one (Int64 exactly; text or floats where integral)."""
    series = frame[column]
    if isinstance(series.dtype, pd.Int64Dtype):
        return series.to_numpy(dtype=np.int64, na_value=0), series.notna().to_numpy()
    values = _numbers(frame, column)
    ok = np.isfinite(values) & (np.abs(values) < 2.0**63)
    ok &= values == np.floor(np.where(ok, values, 0))
    return np.where(ok, values, 0).astype(np.int64), ok


def _from_step_trace_time(frame: pd.DataFrame) -> pd.DataFrame:
    by_key = {_key(c): c for c in reversed(list(frame.columns))}  # the first of equal keys wins
    warnings: list[str] = []
    n = len(frame)
    rows: dict[str, object] = {}
    device = by_key.get(_key("Device_id"))
    values, valid = _int_column(frame, device) if device is not None else (np.zeros(n, np.int64), np.zeros(n, bool))
    rows["device"] = pd.arrays.IntegerArray(values, ~valid)
    step = by_key.get(_key("Step"))
    if step is None:
        warnings.append("step_trace_time: no column 'Step'; its rows are steps without an id")
        rows["step"] = pd.arrays.IntegerArray(np.zeros(n, dtype=np.int64), np.ones(n, dtype=bool))
    else:
        values, valid = _int_column(frame, step)
        rows["step"] = pd.arrays.IntegerArray(values, ~valid)
        odd = int((~valid & frame[step].notna().to_numpy()).sum())
        if odd:
            warnings.append(f"step_trace_time: {odd} rows have a 'Step' that is not a step number; left empty")
    missing = []
    for column, header in STEP_TRACE_HEADERS.items():
        found = by_key.get(_key(header))
        if found is None:
            missing.append(header)
            rows[column] = np.full(n, np.nan)
        else:
            rows[column] = _numbers(frame, found)
    if missing:
        names = ", ".join(repr(m) for m in missing)
        warnings.append(f"step_trace_time: no column {names} (older torch_npu); left empty")
    return _breakdown_frame(rows, n, "step_trace_time", warnings)


Window = tuple[int | None, int, int, int | None]  # step id, start, end, framework start (timeline-relative ns)


def _step_windows(report: Report, lanes_of_device: np.ndarray) -> list[Window]:
    """(step id, window start, window end, framework start) in timeline-relative ns, in step order, as
    torch_npu assigns work to steps: from the first device task the step launched (its ``ProfilerStep#N``
    slice's flows to the device) to the later of its last task's end and the step's own end."""
    tl = report.timeline
    assert tl is not None
    step_of = np.full(len(tl.names) + 1, -1, dtype=np.int64)
    for i, name in enumerate(tl.names):
        if m := PROFILER_STEP.match(name):
            step_of[i] = int(m.group(1))
    ids = step_of[np.asarray(tl.name_id)]
    hit = np.flatnonzero(ids >= 0)
    if not len(hit):
        return []
    start = np.asarray(tl.start_ns, dtype=np.int64)
    end = start + np.asarray(tl.dur_ns, dtype=np.int64)
    spans: dict[int, list[int]] = {}
    for i in hit.tolist():
        got = spans.setdefault(int(ids[i]), [int(start[i]), int(end[i])])
        got[0], got[1] = min(got[0], int(start[i])), max(got[1], int(end[i]))
    flows = tl.flows
    n_flows = len(flows)
    dst = np.asarray(flows.dst_slice, dtype=np.int64) if n_flows else np.zeros(0, dtype=np.int64)
    src_ns = np.asarray(flows.src_ns, dtype=np.int64) if n_flows else np.zeros(0, dtype=np.int64)
    lane = np.asarray(tl.lane)
    linked = dst >= 0
    on_device = np.zeros(n_flows, dtype=bool)
    on_device[linked] = np.isin(lane[dst[linked]], lanes_of_device)
    host_hop = linked & ~on_device  # e.g. async_task_queue: enqueue (in the step) -> dequeue (may run later)
    out: list[Window] = []
    for step_id, (lo, hi) in sorted(spans.items(), key=lambda kv: (kv[1][0], kv[0])):
        # where the step's work is launched: its own span and the host slices its flows lead to
        hops = dst[host_hop & (src_ns >= lo) & (src_ns <= hi)]
        starts = np.concatenate(([lo], start[hops]))
        ends = np.concatenate(([hi], end[hops]))
        inside = _within(src_ns, starts, ends) & on_device
        first, last = lo, hi
        if inside.any():
            tasks = dst[inside]
            first = int(start[tasks].min())
            last = max(hi, int(end[tasks].max()))
        out.append((step_id, first, last, lo))
    return out


def _within(points: np.ndarray, starts: np.ndarray, ends: np.ndarray) -> np.ndarray:
    """Which ``points`` lie in one of the closed intervals ``[starts, ends]``."""
    if not len(points) or not len(starts):
        return np.zeros(len(points), dtype=bool)
    order = np.argsort(starts, kind="stable")
    starts, ends = starts[order], np.maximum.accumulate(ends[order])
    at = np.searchsorted(starts, points, side="right") - 1
    ok = at >= 0
    ok[ok] = points[ok] <= ends[at[ok]]
    return ok


def step_breakdown_from_timeline(report: Report) -> pd.DataFrame | None:
    """The per-step breakdown computed from the timeline (None without Overlap Analysis lanes), as
    torch_npu computes step_trace_time: a slice belongs to the first step whose window holds its start
    (:func:`_step_windows`; the whole timeline when there are no steps); Computing, Communication,
    Communication(Not Overlapped) and Free are the sums of those lanes' slices, the bubble the sum of the
    ``hcom_receive*`` ops, Overlapped = Communication - Not Overlapped, Not Overlapped and Exclude Receive
    = Not Overlapped - Bubble, Stage = the step's first start to last end over these slices - Bubble,
    Preparing = its first Computing / Communication start - the step's (framework) start."""
    tl = report.timeline
    if tl is None or not len(tl):
        return None
    overlap = [ln for ln in tl.lanes if ln.process_name == OVERLAP_PROCESS]
    if not overlap:
        return None
    kinds = (COMPUTING, COMMUNICATION, NOT_OVERLAPPED, FREE)
    name_kind = np.full(len(tl.names) + 1, -1, dtype=np.int64)
    receive = np.zeros(len(tl.names) + 1, dtype=bool)
    for i, name in enumerate(tl.names):
        if name in kinds:
            name_kind[i] = kinds.index(name)
        receive[i] = str(name).startswith(RECEIVE_PREFIX)
    lane = np.asarray(tl.lane)
    name_id = np.asarray(tl.name_id)
    start = np.asarray(tl.start_ns, dtype=np.int64)
    dur = np.asarray(tl.dur_ns, dtype=np.int64)
    framework = np.array([ln.index for ln in tl.lanes if ln.process_name in FRAMEWORK_PROCESSES], dtype=np.int64)
    devices = list(dict.fromkeys(ln.device for ln in overlap))
    rows: dict[str, list] = {c: [] for c in ("device", *BREAKDOWN_COLUMNS)}
    for device in devices:
        lanes = np.array([ln.index for ln in overlap if ln.device == device], dtype=np.int64)
        hardware = np.array(
            [ln.index for ln in tl.lanes if ln.process_name in HARDWARE and ln.device == device], dtype=np.int64
        )
        same = np.array([ln.index for ln in tl.lanes if ln.device == device], dtype=np.int64)
        kind = np.where(np.isin(lane, lanes), name_kind[name_id], -1)
        picked = np.flatnonzero((kind >= 0) | (receive[name_id] & np.isin(lane, same)))
        if not len(picked):
            continue
        windows = _step_windows(report, hardware)
        if not windows:  # no steps: one row over everything, prepared since the first framework op
            fw = np.flatnonzero(np.isin(lane, framework))
            first_fw = int(start[fw].min()) if len(fw) else None
            windows = [(None, int(start[picked].min()), int((start[picked] + dur[picked]).max()) + 1, first_fw)]
        at = np.full(len(picked), -1, dtype=np.int64)
        for n, (_step_id, lo, hi, _fw) in enumerate(windows):  # the first window holding the start wins
            free = (at < 0) & (start[picked] >= lo) & (start[picked] < hi)
            at[free] = n
        for n, (step_id, _lo, _hi, fw_start) in enumerate(windows):
            mine = picked[at == n]
            if not len(mine):
                continue
            k = kind[mine]
            sums = [int(dur[mine[k == j]].sum()) for j in range(len(kinds))]
            bubble = int(dur[mine[(k < 0) & receive[name_id[mine]]]].sum())
            e2e = int((start[mine] + dur[mine]).max() - start[mine].min())
            tasks = mine[(k == 0) | (k == 1)]
            prepare = float(int(start[tasks].min()) - fw_start) / 1000.0 if len(tasks) and fw_start is not None else 0.0
            computing, comm, not_overlapped, free_ns = sums
            rows["device"].append(device)
            rows["step"].append(step_id)
            rows["computing_us"].append(computing / 1000.0)
            rows["communication_not_overlapped_us"].append(not_overlapped / 1000.0)
            rows["overlapped_us"].append((comm - not_overlapped) / 1000.0)
            rows["communication_us"].append(comm / 1000.0)
            rows["free_us"].append(free_ns / 1000.0)
            rows["stage_us"].append((e2e - bubble) / 1000.0)
            rows["bubble_us"].append(bubble / 1000.0)
            rows["communication_not_overlapped_exclude_receive_us"].append((not_overlapped - bubble) / 1000.0)
            rows["preparing_us"].append(prepare)
    if not rows["step"]:
        return None
    n = len(rows["step"])
    data: dict[str, object] = {}
    for c in ("device", "step"):
        values = rows[c]
        data[c] = pd.arrays.IntegerArray(
            np.array([0 if v is None else v for v in values], dtype=np.int64),
            np.array([v is None for v in values], dtype=bool),
        )
    for c in BREAKDOWN_COLUMNS[1:]:
        data[c] = np.asarray(rows[c], dtype=np.float64)
    return _breakdown_frame(data, n, "timeline", [])


def step_breakdown(report: Report) -> pd.DataFrame | None:
    """One row per step (per device where the report holds several): device, step, computing_us,
    communication_not_overlapped_us, overlapped_us, communication_us, free_us, stage_us, bubble_us,
    communication_not_overlapped_exclude_receive_us, preparing_us (µs) and ``source``
    (``"step_trace_time"`` or ``"timeline"``); None when the report has neither. A column the file lacks
    is empty and said in ``frame.attrs["warnings"]``."""
    frame = report.tables.get("step_trace_time")
    if frame is not None and len(frame):
        return _from_step_trace_time(frame)
    return step_breakdown_from_timeline(report)
