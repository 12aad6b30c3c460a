"""Merge several reports (PROF folders, devices, ranks) into one: MindStudio's "Merge Reports".

Tables are concatenated (each keeps its ``device`` column), statistics are recomputed over the
merged OPs table, timelines are combined. Two sources claiming the same device are reported in
the warnings (their rows stay apart by source in the ``source`` column of ``ops``).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import pandas as pd

from workbench.core.profiling import build
from workbench.core.profiling.align import Alignment, align_reports
from workbench.core.profiling.build import open_report
from workbench.core.profiling.errors import ProfilingDataError
from workbench.core.profiling.report import Report, concat_frames
from workbench.core.tasks import CancelToken, NullProgress, Progress

# Tables recomputed after merging (a per-source copy would double count nothing, but the
# computed ones must cover every source).
RECOMPUTED = ("op_statistic", "ai_core_metrics")


def merge_reports(
    paths: Sequence[str | Path],
    progress: Progress | None = None,
    cancel: CancelToken | None = None,
    align: Alignment | None = None,
) -> Report:
    """Open every path and merge them (work function); ``align``: the timelines shifted so that its event
    starts together (:mod:`workbench.core.profiling.align`; the first path is the reference)."""
    progress = progress or NullProgress()
    cancel = cancel or CancelToken()
    if not paths:
        raise ProfilingDataError("merge: no report given (expected one or more paths)")
    reports = []
    for n, path in enumerate(paths):
        cancel.raise_if_cancelled()
        progress.status(f"Opening {Path(path).name} ({n + 1}/{len(paths)})")
        progress.fraction(n / len(paths))
        reports.append(open_report(path, cancel=cancel))
    progress.fraction(1.0)
    if align is None:
        return merge_opened(reports)
    aligned = align_reports(reports, align)
    return aligned.annotate(merge_opened(aligned.reports))


def merge_opened(reports: Sequence[Report]) -> Report:
    """Merge already opened reports into a new Report of kind ``cluster`` (or the common kind)."""
    kinds = {r.kind for r in reports}
    kind = kinds.pop() if len(kinds) == 1 and len(reports) == 1 else "cluster"
    merged = Report(source=reports[0].source if len(reports) == 1 else Path(_common_parent(reports)), kind=kind)
    seen: dict[int, Path] = {}
    for r in reports:
        for d in r.devices:
            if d in seen and seen[d] != r.source:
                merged.warnings.append(f"device {d} appears in both {seen[d]} and {r.source}")
            seen.setdefault(d, r.source)
        merged.warnings += r.warnings
        merged.info[str(r.source)] = r.info
    names: list[str] = []
    for r in reports:
        names += [n for n in r.tables if n not in names]
    for name in names:
        if name in RECOMPUTED and any(r.table_sources.get(name) == "computed" for r in reports):
            continue
        parts = [_tagged(r.tables[name], r.source) for r in reports if name in r.tables]
        merged.tables[name] = concat_frames(parts)
        sources = {r.table_sources.get(name, "file") for r in reports if name in r.tables}
        merged.table_sources[name] = sources.pop() if len(sources) == 1 else "merged"
    merged.devices = sorted({d for r in reports for d in r.devices})
    merged.timeline = build.combine_timelines([r.timeline for r in reports if r.timeline is not None], merged.warnings)
    return merged.finish()


def _tagged(frame: pd.DataFrame, source: Path) -> pd.DataFrame:
    if "source" in frame.columns:
        return frame
    frame = frame.copy()
    frame["source"] = pd.Categorical([str(source)] * len(frame))
    return frame


def _common_parent(reports: Sequence[Report]) -> str:
    import os

    try:
        return os.path.commonpath([str(Path(r.source).resolve()) for r in reports])
    except ValueError:
        return str(reports[0].source)
