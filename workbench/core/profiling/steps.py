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
