"""Where the advisor's evidence is in a report's views: the timeline slices and lanes, the rows of the
OPs (Op Info) and AI Core Metrics tables, the steps. Pure lookups over the report (numpy), no widgets:
the document draws the marks and jumps with them."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from workbench.core.advisor.model import Evidence, Finding


@dataclass
class Marks:
    """Evidence placed in the views: each key (a slice index, a lane index, a row) with the titles of
    the findings about it (for the tooltips)."""

    slices: dict[int, list[str]] = field(default_factory=dict)
    lanes: dict[int, list[str]] = field(default_factory=dict)
    ops: dict[int, list[str]] = field(default_factory=dict)  # rows of report.ops (the Op Info table)
    aicore: dict[int, list[str]] = field(default_factory=dict)  # rows of the AI Core Metrics view's frame
    steps: dict[int, list[str]] = field(default_factory=dict)
    # stretches of a lane (an idle gap, a wait): (lane, start, end in timeline ns) -> finding titles
    spans: dict[tuple[int, int, int], list[str]] = field(default_factory=dict)
    # communication ops of the Communication tab: (name, start epoch ns or None: any) -> finding titles
    comm: dict[tuple[str, int | None], list[str]] = field(default_factory=dict)

    @staticmethod
    def _add(where: dict[Any, list[str]], key: Any, title: str) -> None:
        titles = where.setdefault(key if isinstance(key, tuple) else int(key), [])
        if title not in titles:
            titles.append(title)


def _lane_matches(info: Any, e: Evidence) -> bool:
    if e.device is not None and info.device is not None and int(info.device) != int(e.device):
        return False
    if not e.lane:
        return True
    return e.lane in (info.thread_name, str(info.tid), info.process_name, f"{info.process_name} · {info.thread_name}")


def slice_of(tl: Any, e: Evidence) -> int | None:
    """The timeline slice an evidence item means: ``values["index"]`` when the rule gave it, else the
    slice named ``label`` running at ``start_ns`` (epoch) on a lane matching ``lane``/``device``, else
    any slice starting exactly at ``start_ns`` on such a lane."""
    if tl is None or not len(tl.start_ns):
        return None
    index = e.values.get("index") if e.kind == "slice" else None
    if isinstance(index, (int, np.integer)) and 0 <= int(index) < len(tl.start_ns):
        return int(index)
    if e.start_ns is None:
        return None
    from workbench.core.profiling.timeline_ops import slice_named_at

    found = slice_named_at(tl, e.label, int(e.start_ns)) if e.label else None
    if found is not None and _lane_matches(tl.lanes[int(tl.lane[found])], e):
        return found
    t = int(e.start_ns) - int(tl.origin_ns)
    hits = np.flatnonzero(np.asarray(tl.start_ns, dtype=np.int64) == t)
    for i in hits:
        if _lane_matches(tl.lanes[int(tl.lane[i])], e):
            return int(i)
    return found


def lanes_of(tl: Any, e: Evidence) -> list[int]:
    if tl is None or not e.lane:
        return []
    return [i for i, info in enumerate(tl.lanes) if _lane_matches(info, e)]


def span_of(tl: Any, e: Evidence) -> tuple[int, int] | None:
    """A lane item's stretch (``start_ns`` epoch, ``dur_ns``) in timeline ns, or None."""
    if tl is None or e.start_ns is None:
        return None
    start = int(e.start_ns) - int(tl.origin_ns)
    return start, start + max(0, int(e.dur_ns or 0))


def aicore_row(frame: Any, ops: Any, op_row: int) -> int | None:
    """The AI Core Metrics view's row of ``ops`` row ``op_row``: same start ns and name."""
    if frame is None or not len(frame) or ops is None or not (0 <= op_row < len(ops)):
        return None
    if "start_ns" not in frame.columns or "start_ns" not in ops.columns:
        return None
    start = int(ops["start_ns"].iloc[op_row])
    hits = [int(i) for i in np.flatnonzero(frame["start_ns"].to_numpy(dtype=np.int64, na_value=-1) == start)]
    if "name" in frame.columns and "name" in ops.columns and len(hits) > 1:
        name = str(ops["name"].iloc[op_row])
        hits = [i for i in hits if str(frame["name"].iloc[i]) == name] or hits
    return hits[0] if hits else None


def op_row_of(ops: Any, e: Evidence) -> int | None:
    """The OPs table row of an "op" item (``table`` "ops", ``row``), or the row starting at its ns."""
    if ops is None or not len(ops):
        return None
    if e.row is not None and (e.table in (None, "ops")) and 0 <= int(e.row) < len(ops):
        return int(e.row)
    if e.start_ns is not None and "start_ns" in ops.columns:
        hit = np.flatnonzero(ops["start_ns"].to_numpy(dtype=np.int64, na_value=-1) == int(e.start_ns))
        return int(hit[0]) if len(hit) else None
    return None


COMM_TABLES = ("communication", "communication_bandwidth")


def comm_key(report: Any, e: Evidence) -> tuple[str, int | None] | None:
    """A communication row's op in the Communication tab: its name and, where the row has one, its
    start (epoch ns)."""
    if e.kind != "row" or e.table not in COMM_TABLES or not e.label:
        return None
    start = None if e.start_ns is None else int(e.start_ns)
    frame = report.tables.get(e.table) if hasattr(report, "tables") else None
    row = e.row
    if (
        start is None
        and frame is not None
        and row is not None
        and "start_ns" in frame.columns
        and 0 <= row < len(frame)
    ):
        value = frame["start_ns"].iloc[int(row)]
        start = int(value) if value == value and value is not None else None
    return str(e.label), start


def step_of(e: Evidence) -> int | None:
    value = e.values.get("step")
    if isinstance(value, (int, np.integer)):
        return int(value)
    digits = "".join(ch for ch in str(e.label).split()[-1] if ch.isdigit()) if e.label else ""
    return int(digits) if digits else None


def place(report: Any, findings: Iterable[Finding], title: Callable[[Finding], str], aicore_frame: Any = None) -> Marks:
    """Every evidence item of ``findings`` placed in the report's views."""
    marks = Marks()
    tl = report.timeline
    ops = report.ops
    for f in findings:
        text = title(f)
        for e in f.evidence:
            if e.kind == "slice":
                index = slice_of(tl, e)
                if index is not None:
                    Marks._add(marks.slices, index, text)
                    Marks._add(marks.lanes, int(tl.lane[index]), text)
            elif e.kind == "lane":
                for lane in lanes_of(tl, e):
                    Marks._add(marks.lanes, lane, text)
                    span = span_of(tl, e)
                    if span is not None:
                        Marks._add(marks.spans, (lane, *span), text)
            elif e.kind == "op" or (e.kind == "row" and e.table == "ops"):
                row = op_row_of(ops, e)
                if row is None:
                    continue
                Marks._add(marks.ops, row, text)
                a = aicore_row(aicore_frame, ops, row)
                if a is not None:
                    Marks._add(marks.aicore, a, text)
                if tl is not None and "name" in ops.columns and "start_ns" in ops.columns:
                    from workbench.core.profiling.timeline_ops import slice_named_at

                    index = slice_named_at(tl, str(ops["name"].iloc[row]), int(ops["start_ns"].iloc[row]))
                    if index is not None:
                        Marks._add(marks.slices, index, text)
                        Marks._add(marks.lanes, int(tl.lane[index]), text)
            elif e.kind == "row" and e.table == "ai_core_metrics" and e.row is not None:
                if aicore_frame is not None and 0 <= int(e.row) < len(aicore_frame):
                    Marks._add(marks.aicore, int(e.row), text)
            elif e.kind == "row" and e.table in COMM_TABLES:
                key = comm_key(report, e)
                if key is not None:
                    Marks._add(marks.comm, key, text)
            elif e.kind == "step":
                step = step_of(e)
                if step is not None:
                    Marks._add(marks.steps, step, text)
    return marks
