"""The Overlap Analysis lanes of a torch_npu trace and the step_trace_time rows torch_npu derives from them.

Lanes (docs/cann-formats.md §3: process ``Overlap Analysis``, tid 0 ``Computing``, 1 ``Communication``,
2 ``Communication(Not Overlapped)``, 3 ``Free``): Computing = the union of the compute tasks' spans,
Communication = the union of the communication operators' spans, Not Overlapped = Communication minus
Computing, Free = the gaps between the first and the last task where neither runs; one slice per piece.

Steps (torch_npu ``_trace_step_time_parser``, docs §4.4): a step's window runs from the first device task
it launched to the later of its own end and its last task's end; every lane slice and every slice named
``hcom_receive*`` on a device process belongs to the first window holding its start; per step Computing,
Communication, Not Overlapped and Free are the sums of those slices, Bubble the sum of the
``hcom_receive*`` slices, Overlapped = Communication - Not Overlapped, Not Overlapped and Exclude Receive
= Not Overlapped - Bubble, Stage = the span from the first start to the last end over all these slices -
Bubble, Preparing = the first Computing / Communication start - the step's (framework) start.

Everything is integer ns; :func:`step_rows` gives ns, the writers format µs.
"""

from __future__ import annotations

import bisect
from collections.abc import Iterable
from dataclasses import dataclass

from .schedule import Run, Task

LANES = ("Computing", "Communication", "Communication(Not Overlapped)", "Free")  # tid = index
RECEIVE = "hcom_receive"


def merge(spans: Iterable[tuple[int, int]]) -> list[tuple[int, int]]:
    """Union of half-open spans, sorted, touching spans joined."""
    out: list[tuple[int, int]] = []
    for s, e in sorted(spans):
        if e <= s:
            continue
        if out and s <= out[-1][1]:
            if e > out[-1][1]:
                out[-1] = (out[-1][0], e)
        else:
            out.append((s, e))
    return out


def subtract(a: list[tuple[int, int]], b: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """The parts of the merged spans ``a`` that no span of the merged ``b`` covers."""
    out: list[tuple[int, int]] = []
    j = 0
    for s, e in a:
        at = s
        while j < len(b) and b[j][1] <= at:
            j += 1
        k = j
        while k < len(b) and b[k][0] < e:
            if b[k][0] > at:
                out.append((at, b[k][0]))
            at = max(at, b[k][1])
            k += 1
        if at < e:
            out.append((at, e))
    return out


@dataclass(frozen=True, slots=True)
class LaneSlice:
    name: str
    start_ns: int
    end_ns: int

    @property
    def tid(self) -> int:
        return LANES.index(self.name)

    @property
    def dur_ns(self) -> int:
        return self.end_ns - self.start_ns


def lane_slices(tasks: list[Task], comm: set[int]) -> list[LaneSlice]:
    """The four lanes' slices of one device, by start (``comm``: ids of the communication tasks)."""
    compute = merge((t.start_ns, t.end_ns) for t in tasks if id(t) not in comm)
    communication = merge((t.start_ns, t.end_ns) for t in tasks if id(t) in comm)
    busy = merge(compute + communication)
    free = [(busy[i][1], busy[i + 1][0]) for i in range(len(busy) - 1)]
    out = [LaneSlice("Computing", s, e) for s, e in compute]
    out += [LaneSlice("Communication", s, e) for s, e in communication]
    out += [LaneSlice("Communication(Not Overlapped)", s, e) for s, e in subtract(communication, compute)]
    out += [LaneSlice("Free", s, e) for s, e in free]
    out.sort(key=lambda x: (x.start_ns, x.tid))
    return out


Window = tuple[int | None, int, int, int | None]  # step id, start, end, framework start


def step_windows(run: Run, dev: int) -> list[Window]:
    """torch_npu's step ranges: (step, first task start, max(step end, last task end), step start)."""
    by_step: dict[int, list[Task]] = {}
    for t in run.tasks[dev]:
        by_step.setdefault(t.step, []).append(t)
    out: list[Window] = []
    for e in run.python[dev]:
        if not e.name.startswith("ProfilerStep#"):
            continue
        step = int(e.name.split("#")[1])
        ts = by_step.get(step, [])
        if not ts:
            continue
        lo = min(t.start_ns for t in ts)
        hi = max(e.start_ns + e.dur_ns, max(t.end_ns for t in ts))
        out.append((step, lo, hi, e.start_ns))
    out.sort(key=lambda w: (w[1], w[0] or 0))
    return out


@dataclass(frozen=True, slots=True)
class StepRow:
    """One row of step_trace_time (all ns)."""

    step: int | None
    computing: int
    not_overlapped: int
    overlapped: int
    communication: int
    free: int
    stage: int
    bubble: int
    not_overlapped_exclude_receive: int
    preparing: int

    def values(self) -> tuple[int, ...]:
        """The numbers in step_trace_time's column order (after Step)."""
        return (
            self.computing,
            self.not_overlapped,
            self.overlapped,
            self.communication,
            self.free,
            self.stage,
            self.bubble,
            self.not_overlapped_exclude_receive,
            self.preparing,
        )


def step_rows(lanes: list[LaneSlice], receives: list[tuple[int, int]], windows: list[Window]) -> list[StepRow]:
    """step_trace_time of one device from its lane slices and its ``hcom_receive*`` slices ((start, end))."""
    if not windows:
        return []
    acc = [dict.fromkeys((*LANES, RECEIVE), 0) for _ in windows]
    first: list[int | None] = [None] * len(windows)
    e2e: list[list[int] | None] = [None] * len(windows)

    los = [lo for _s, lo, _hi, _f in windows]
    disjoint = all(windows[i][2] <= windows[i + 1][1] for i in range(len(windows) - 1))

    def window_of(ts: int) -> int | None:
        """The first window holding ``ts``: by bisection when the windows are in order and disjoint (a long
        run has thousands of steps), else by a scan."""
        if disjoint:
            i = bisect.bisect_right(los, ts) - 1
            return i if i >= 0 and windows[i][1] <= ts < windows[i][2] else None
        return next((i for i, (_s, lo, hi, _f) in enumerate(windows) if lo <= ts < hi), None)

    items = [(x.name, x.start_ns, x.end_ns) for x in lanes] + [(RECEIVE, s, e) for s, e in receives]
    for name, s, e in items:
        i = window_of(s)
        if i is None:
            continue
        acc[i][name] += e - s
        span = e2e[i]
        e2e[i] = [s, e] if span is None else [min(span[0], s), max(span[1], e)]
        if name in ("Computing", "Communication") and (first[i] is None or s < (first[i] or 0)):
            first[i] = s
    out = []
    for i, (step, _lo, _hi, fwk) in enumerate(windows):
        a = acc[i]
        span = e2e[i]
        if span is None:
            continue
        bubble = a[RECEIVE]
        not_ov = a["Communication(Not Overlapped)"]
        ready = first[i]
        out.append(
            StepRow(
                step,
                a["Computing"],
                not_ov,
                a["Communication"] - not_ov,
                a["Communication"],
                a["Free"],
                span[1] - span[0] - bubble,
                bubble,
                not_ov - bubble,
                ready - fwk if ready is not None and fwk is not None else 0,
            )
        )
    return out


__all__ = ["LANES", "LaneSlice", "StepRow", "lane_slices", "merge", "step_rows", "step_windows", "subtract"]
