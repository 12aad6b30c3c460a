"""Several ranks' timelines aligned on one event before they are merged (issue #20, the Cluster document's
"Open Timelines Aligned…"): the start of step N, or the k-th start of a communication operator (its name as
the timeline shows it, e.g. ``hcom_allReduce__586_0_1``).

Every rank after the first (the reference) is shifted by an exact integer offset in ns so that its event
starts when the reference's does: its timeline by moving its origin (every slice, flow, instant and counter
time is relative to the origin, so all of them move together and nothing is rounded), its tables' time
points by the same integer (:func:`shift_frame`). A rank that lacks the event (the step has no start time
there, the operator does not start that often on its communication lanes) stays unshifted and is named in
the warnings; when the reference lacks it, the first rank that has it is the reference. The lines saying
what was shifted by how much come first in the merged report's warnings (templates below, for the UI to
translate), and ``info["alignment"]`` holds the same as data.

Where the event is read:

- step N: :func:`~workbench.core.profiling.steps.report_steps`' spans (``ProfilerStep#N`` slices, step
  markers, step_trace, the OPs table; absolute epoch ns), the earliest span of that id;
- an operator: the slices of that name on the operator lanes of the ``Communication`` (older CANN:
  ``HCCL``) processes, i.e. every thread but the ``Plane N`` ones of the small tasks (docs/cann-formats.md:
  ``Group {name} Communication``), in start order; the ``occurrence``-th one (1-based).

Merging keeps each input's lanes together and in order (:mod:`workbench.core.profiling.timeline.combine`),
so each rank stays one block of lanes, labelled by its device as any merged report's are.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from workbench.core.profiling.errors import ProfilingDataError
from workbench.core.profiling.report import Report
from workbench.core.profiling.steps import report_steps

STEP, OP = "step", "op"
COMM_PROCESSES = ("Communication", "HCCL")
PLANE_THREAD = re.compile(r"^Plane\b")
RANK_INFO = re.compile(r"^profiler_info_(\d+)$")
# A table's time point is epoch ns: after 1973-03-03 (a duration or a placeholder 0 is far below)
EPOCH_MIN_NS = 10**17
TIME_POINT_COLUMNS = ("start_ns", "end_ns")

# The lines of the merged report's warnings (the UI translates them by these templates)
STEP_TEMPLATE = "Timelines aligned on the start of step {0}; the reference is {1}"
OP_TEMPLATE = "Timelines aligned on the start of {0} (occurrence {1}); the reference is {2}"
SHIFT_TEMPLATE = "{0}: shifted by {1} ns"
MISSING_STEP_TEMPLATE = "{0}: step {1} has no start time there; left unshifted"
MISSING_OP_TEMPLATE = (
    "{0}: occurrence {1} of {2} is not on its communication lanes (it starts there {3} times); left unshifted"
)
TEMPLATES = (STEP_TEMPLATE, OP_TEMPLATE, SHIFT_TEMPLATE, MISSING_STEP_TEMPLATE, MISSING_OP_TEMPLATE)


@dataclass(frozen=True)
class Alignment:
    """What the ranks are aligned on: :meth:`step_start` or :meth:`op_start`."""

    on: str  # STEP | OP
    step: int = 0
    op: str = ""
    occurrence: int = 1  # the k-th start of ``op`` (1-based)

    def __post_init__(self) -> None:
        if self.on not in (STEP, OP):
            raise ProfilingDataError(f"align: {self.on!r} is no event to align on (expected {STEP!r} or {OP!r})")
        if self.on == OP and not self.op.strip():
            raise ProfilingDataError(
                "align: no communication operator name given (expected e.g. hcom_allReduce__586_0_1)"
            )
        if self.on == OP and self.occurrence < 1:
            raise ProfilingDataError(f"align: occurrence {self.occurrence} of {self.op} (expected 1 or more)")

    @classmethod
    def step_start(cls, step: int) -> Alignment:
        return cls(STEP, step=int(step))

    @classmethod
    def op_start(cls, name: str, occurrence: int = 1) -> Alignment:
        return cls(OP, op=name.strip(), occurrence=int(occurrence))

    def describe(self) -> str:
        if self.on == STEP:
            return f"the start of step {self.step}"
        return f"the start of {self.op} (occurrence {self.occurrence})"


def rank_name(report: Report) -> str:
    """``rank N`` where the report is one framework rank (its ``profiler_info_N.json``), else its folder's name."""
    ranks = {int(m.group(1)) for key in report.info if (m := RANK_INFO.match(str(key)))}
    return f"rank {ranks.pop()}" if len(ranks) == 1 else (Path(report.source).name or str(report.source))


def op_starts(report: Report, name: str) -> np.ndarray:
    """Absolute epoch ns (int64, in order) of every start of the operator ``name`` on the report's
    communication operator lanes."""
    tl = report.timeline
    if tl is None or not len(tl):
        return np.zeros(0, dtype=np.int64)
    name_id = next((i for i, n in enumerate(tl.names) if n == name), None)
    lanes = [
        ln.index for ln in tl.lanes if ln.process_name in COMM_PROCESSES and not PLANE_THREAD.match(str(ln.thread_name))
    ]
    if name_id is None or not lanes:
        return np.zeros(0, dtype=np.int64)
    hit = np.flatnonzero((np.asarray(tl.name_id) == name_id) & np.isin(np.asarray(tl.lane), lanes))
    return np.sort(np.asarray(tl.start_ns, dtype=np.int64)[hit]) + np.int64(tl.origin_ns)


def event_ns(report: Report, alignment: Alignment) -> int | None:
    """When the event of ``alignment`` starts in ``report`` (absolute epoch ns), or None."""
    if alignment.on == STEP:
        steps = report_steps(report)
        starts = [sp.start_ns for sp in (steps.spans if steps is not None else ()) if sp.id == alignment.step]
        return min(starts) if starts else None
    ops = op_starts(report, alignment.op)
    return int(ops[alignment.occurrence - 1]) if len(ops) >= alignment.occurrence else None


def shift_frame(frame: pd.DataFrame, offset_ns: int) -> pd.DataFrame:
    """``frame`` with its time points moved by ``offset_ns``: the integer columns ``start_ns`` / ``end_ns``
    / ``…(ns)``, in their cells that hold epoch ns (≥ :data:`EPOCH_MIN_NS`), integer arithmetic only."""
    changed: dict[str, Any] = {}
    for column in frame.columns:
        name = str(column)
        if name not in TIME_POINT_COLUMNS and not name.endswith("(ns)"):
            continue
        values = frame[column]
        if not pd.api.types.is_integer_dtype(values.dtype) or pd.api.types.is_bool_dtype(values.dtype):
            continue
        epoch = (values >= EPOCH_MIN_NS).fillna(False).to_numpy(dtype=bool)
        if epoch.any():
            changed[column] = values.where(~epoch, values + offset_ns)
    return frame.assign(**changed) if changed else frame


def shift_report(report: Report, offset_ns: int) -> Report:
    """A copy of ``report`` whose timeline and tables are ``offset_ns`` later (the input is not changed)."""
    if offset_ns == 0:
        return report
    tl = report.timeline
    timeline = dataclasses.replace(tl, origin_ns=int(tl.origin_ns) + offset_ns) if tl is not None else None
    tables = {name: shift_frame(frame, offset_ns) for name, frame in report.tables.items()}
    moved = [v + offset_ns if v is not None else None for v in (report.start_ns, report.end_ns)]
    return dataclasses.replace(
        report, timeline=timeline, tables=tables, start_ns=moved[0], end_ns=moved[1], pending_cache=None
    )


@dataclass
class Aligned:
    """The reports shifted for merging, and what the merged report is to say about it."""

    reports: list[Report]
    names: list[str]
    offsets_ns: list[int | None]  # None: the event is missing there (left unshifted)
    reference: int  # index of the reference rank
    alignment: Alignment
    warnings: list[str] = field(default_factory=list)

    def annotate(self, merged: Report) -> Report:
        """``merged`` with the alignment's lines first in its warnings and ``info["alignment"]``."""
        merged.warnings[:0] = self.warnings
        merged.info["alignment"] = {
            "on": self.alignment.on,
            "step": self.alignment.step if self.alignment.on == STEP else None,
            "op": self.alignment.op if self.alignment.on == OP else None,
            "occurrence": self.alignment.occurrence if self.alignment.on == OP else None,
            "reference": self.names[self.reference],
            "offsets_ns": [[name, offset] for name, offset in zip(self.names, self.offsets_ns)],
        }
        return merged


def align_reports(reports: Sequence[Report], alignment: Alignment) -> Aligned:
    """Shift every report so that the event of ``alignment`` starts with the reference's (see the module
    docstring). Raises ProfilingDataError when no report has the event."""
    names = [rank_name(r) for r in reports]
    events = [event_ns(r, alignment) for r in reports]
    reference = next((i for i, t in enumerate(events) if t is not None), None)
    if reference is None:
        raise ProfilingDataError(f"align: {alignment.describe()} is in none of {', '.join(names)}")
    ref_ns = events[reference]
    assert ref_ns is not None
    if alignment.on == STEP:
        lines = [STEP_TEMPLATE.format(alignment.step, names[reference])]
    else:
        lines = [OP_TEMPLATE.format(alignment.op, alignment.occurrence, names[reference])]
    shifted: list[Report] = []
    offsets: list[int | None] = []
    for report, name, at in zip(reports, names, events):
        if at is None:
            offsets.append(None)
            shifted.append(report)
            if alignment.on == STEP:
                lines.append(MISSING_STEP_TEMPLATE.format(name, alignment.step))
            else:
                found = len(op_starts(report, alignment.op))
                lines.append(MISSING_OP_TEMPLATE.format(name, alignment.occurrence, alignment.op, found))
            continue
        offset = int(ref_ns) - int(at)  # Python ints: exact, whatever the magnitude
        offsets.append(offset)
        shifted.append(shift_report(report, offset))
        if report is not reports[reference]:
            lines.append(SHIFT_TEMPLATE.format(name, f"{offset:+,}"))
    return Aligned(shifted, names, offsets, reference, alignment, lines)
