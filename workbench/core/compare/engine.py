"""Compare a baseline report with a current one: :func:`compare_reports` (two open reports) and
the work function :func:`compare_paths` (opens both, naming the side that cannot be read)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

from workbench.core.compare import commdiff, facts, memdiff
from workbench.core.compare.model import BY, DEFAULT_TOLERANCE_PCT, CompareError, Comparison, Side
from workbench.core.compare.opdiff import OP_KEEP, duration_ns
from workbench.core.compare.overall import metric_rows, overall_rows
from workbench.core.profiling.build import open_report
from workbench.core.profiling.comm import communication_view
from workbench.core.profiling.errors import ProfilingDataError
from workbench.core.profiling.memory import memory_view
from workbench.core.profiling.report import Report
from workbench.core.profiling.steps import report_steps
from workbench.core.tasks import CancelToken, NullProgress, Progress, ScaledProgress


def _side(role: str, report: Report, devices: list[int], ops: pd.DataFrame) -> Side:
    total = float(np.nansum(duration_ns(ops))) / 1000.0
    steps = report_steps(report, devices)
    return Side(
        role=role,
        source=str(report.source),
        kind=report.kind,
        devices=[int(d) for d in report.devices],
        compared_devices=devices,
        chip=facts.chip_of(report),
        cann_version=facts.cann_of(report),
        model_name=facts.model_of(report),
        pmu_group=report.pmu_group,
        op_count=len(ops),
        total_us=total,
        span_us=report.span_ns / 1000.0,
        tables=sorted(report.tables),
        steps=steps.count if steps else None,
        step_source=steps.source if steps else None,
    )


def compare_reports(
    base: Report,
    current: Report,
    by: str = "type",
    tolerance_pct: float = DEFAULT_TOLERANCE_PCT,
    pairs: list[tuple[int, int]] | None = None,
) -> Comparison:
    """Compare two open reports.

    ``pairs``: (base device, current device) pairs; default the same device IDs (or, when the
    sides share none, the devices in order, with a warning). ``tolerance_pct``: a row whose time
    changed by at most this many percent is ``same``."""
    if by not in BY:
        raise CompareError(f"compare by {by!r}: expected 'type' or 'name'")
    if not tolerance_pct >= 0:
        raise CompareError(f"tolerance {tolerance_pct}: expected a percentage >= 0")
    warnings: list[str] = []
    chosen = facts.pair_devices(facts.op_devices(base), facts.op_devices(current), pairs, warnings)
    devices = ([b for b, _ in chosen], [c for _, c in chosen])
    ops = tuple(_kept(facts.device_slice(r.tables.get("ops"), d)) for r, d in zip((base, current), devices))
    metrics = [facts.device_slice(r.tables.get("ai_core_metrics"), d) for r, d in zip((base, current), devices)]
    sides = (_side("base", base, devices[0], ops[0]), _side("current", current, devices[1], ops[1]))
    warnings += facts.fact_warnings(base, current, sides[0].__dict__, sides[1].__dict__)
    comparison = Comparison(
        base=sides[0],
        current=sides[1],
        by=by,
        tolerance_pct=float(tolerance_pct),
        pairs=chosen,
        overall=overall_rows(
            ops[0], ops[1], base, current, devices, tolerance_pct, warnings, (sides[0].steps, sides[1].steps)
        ),
        metrics=metric_rows(metrics[0], metrics[1], tolerance_pct, warnings),
        warnings=warnings,
        base_report=base,
        current_report=current,
        _ops=ops,
    )
    steps = (sides[0].steps, sides[1].steps)
    _compare_memory(comparison, (base, current), devices, steps, warnings)
    _compare_communication(comparison, (base, current), devices, steps, warnings)
    if len(ops[0]) and len(ops[1]) and comparison.common_rows() == 0:
        warnings.append(f"no OP {by} is present in both reports: every row is added or removed")
    return comparison


ROLES = ("base", "current")


def on_devices(frame: pd.DataFrame, devices: list[int]) -> pd.DataFrame:
    """The rows of ``frame`` on ``devices`` when it records several devices (a report of one device
    or rank, whatever its number, is that device: communication files name the rank, not the device)."""
    if "device" not in frame.columns or not len(frame):
        return frame
    ids = pd.to_numeric(frame["device"].astype(object), errors="coerce")
    if ids.dropna().nunique() <= 1:
        return frame
    return frame[ids.isin(devices).to_numpy()].reset_index(drop=True)


def _one_sided(has: tuple[bool, bool], what: str, effect: str, warnings: list[str]) -> bool:
    """True when both sides have ``what``; when only one has it, a warning names the other."""
    if has[0] != has[1]:
        warnings.append(f"{ROLES[0] if has[1] else ROLES[1]} has no {what}: {effect}")
    return all(has)


def _compare_memory(
    comparison: Comparison,
    reports: tuple[Report, Report],
    devices: tuple[list[int], list[int]],
    steps: tuple[int | None, int | None],
    warnings: list[str],
) -> None:
    """Memory peaks and per-operator allocations; a side without memory data is a warning, never a
    failure (the views are built from the tables the report read when it opened)."""
    b, c = (memdiff.memory_side(memory_view(report), devs) for report, devs in zip(reports, devices))
    if _one_sided(
        (b.has_peaks, c.has_peaks), "memory_record (memory per component)", "memory peaks are not compared", warnings
    ):
        comparison.memory_peaks = memdiff.peak_rows(b.peaks, c.peaks, comparison.tolerance_pct)
    if _one_sided(
        (b.has_operators, c.has_operators),
        "operator_memory (memory per operator)",
        "operator memory is not compared",
        warnings,
    ):
        comparison.memory_ops = memdiff.memory_op_rows(b.operators, c.operators, comparison.tolerance_pct, steps)


def _compare_communication(
    comparison: Comparison,
    reports: tuple[Report, Report],
    devices: tuple[list[int], list[int]],
    steps: tuple[int | None, int | None],
    warnings: list[str],
) -> None:
    """Communication op types; a side without communication data is a warning."""
    frames = []
    for report, devs in zip(reports, devices):
        view = communication_view(report)
        frames.append(commdiff.comm_ops(on_devices(view.ops, devs) if view is not None else None))
    if _one_sided(
        (bool(len(frames[0])), bool(len(frames[1]))),
        "communication.json (communication operators)",
        "communication is not compared",
        warnings,
    ):
        comparison.communication = commdiff.communication_rows(frames[0], frames[1], comparison.tolerance_pct, steps)


def _kept(ops: pd.DataFrame) -> pd.DataFrame:
    """Only the OPs columns the comparison needs (a view of them, not a copy of the PMU columns)."""
    return ops[[c for c in OP_KEEP if c in ops.columns]] if len(ops.columns) else ops


def open_side(
    role: str, path: str | Path, progress: Progress, cancel: CancelToken, use_cache: bool | None = None
) -> Report:
    """``open_report`` whose failure names the side: ``base report /x: <why>``."""
    try:
        return open_report(path, progress=progress, cancel=cancel, use_cache=use_cache)
    except (ProfilingDataError, OSError) as exc:
        raise CompareError(_named(role, path, exc)) from exc
    except Exception as exc:
        if type(exc).__name__ == "TimelineError":  # the timeline reader's own error type
            raise CompareError(_named(role, path, exc)) from exc
        raise


def _named(role: str, path: str | Path, exc: Exception) -> str:
    """``base report: <why>``, with the path when the reason does not already name it."""
    if isinstance(exc, OSError) and not isinstance(exc, ProfilingDataError):
        reason = f"{exc.filename}: {exc.strerror or exc}" if exc.filename else str(exc.strerror or exc)
    else:
        reason = str(exc)
    return f"{role} report: {reason}" if str(path) in reason else f"{role} report {path}: {reason}"


def compare_paths(
    base: str | Path,
    current: str | Path,
    *,
    by: str = "type",
    tolerance_pct: float = DEFAULT_TOLERANCE_PCT,
    pairs: list[tuple[int, int]] | None = None,
    use_cache: bool | None = None,
    progress: Progress | None = None,
    cancel: CancelToken | None = None,
) -> Comparison:
    """Work function: open both reports and compare them."""
    progress = progress or NullProgress()
    cancel = cancel or CancelToken()
    reports = []
    for n, (role, path) in enumerate((("base", base), ("current", current))):
        progress.status(f"Opening {role} report {Path(path).name}")
        reports.append(open_side(role, path, ScaledProgress(progress, 0.45 * n, 0.45 * (n + 1)), cancel, use_cache))
    cancel.raise_if_cancelled()
    progress.status("Comparing")
    result = compare_reports(reports[0], reports[1], by=by, tolerance_pct=tolerance_pct, pairs=pairs)
    progress.fraction(1.0)
    return result
