"""Compare a baseline report with a current one: :func:`compare_reports` (two open reports) and
the work function :func:`compare_paths` (opens both, naming the side that cannot be read)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

from workbench.core.compare import facts
from workbench.core.compare.model import BY, DEFAULT_TOLERANCE_PCT, CompareError, Comparison, Side
from workbench.core.compare.opdiff import OP_KEEP, duration_ns
from workbench.core.compare.overall import metric_rows, overall_rows
from workbench.core.profiling.build import open_report
from workbench.core.profiling.errors import ProfilingDataError
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
    if len(ops[0]) and len(ops[1]) and comparison.common_rows() == 0:
        warnings.append(f"no OP {by} is present in both reports: every row is added or removed")
    return comparison


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
