"""The steps (training or inference iterations) a report holds, and where they were found.

A comparison of two runs of different length is fair only per step; the timeline marks step
boundaries. Sources, the first that has steps wins:

- the OPs table's ``step`` column (torch_npu kernel_details ``Step Id``);
- torch_npu ``step_trace_time`` (its ``Step`` column);
- msprof ``step_trace`` (``Iteration ID``, CANN 7/8 and 5/6 alike), per device;
- timeline slices named ``ProfilerStep#N`` (torch_npu's step annotations).

Only the given devices count where a table names its device (``Device_id``); a step seen on
several devices is one step.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import numpy as np
import pandas as pd

from workbench.core.profiling.report import Report

PROFILER_STEP = re.compile(r"^ProfilerStep#(\d+)$")


@dataclass(frozen=True)
class Steps:
    """The distinct step ids of a report and the table (or timeline) they came from."""

    ids: tuple[int, ...]
    source: str

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


def report_steps(report: Report, devices: list[int] | None = None) -> Steps | None:
    """The report's steps (on ``devices``, default all), or None when it records none."""
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
    return Steps(ids, "timeline (ProfilerStep#N)") if ids else None
