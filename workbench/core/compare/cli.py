"""The ``compare`` verb: ``ascend-workbench compare BASE CURRENT [--json] [--by type|name]
[--out FILE.xlsx] [--fail-on-regression PCT] [--tolerance PCT] [--pair B:C ...]``.

Made for CI: exit 0 ok, 3 when ``--fail-on-regression PCT`` is given and the total device time, any
OP row or any communication op type present on both sides got slower by more than PCT percent, or a
memory peak (allocated / reserved per component) grew by more than PCT percent; 2 bad input (message
on stderr, naming the side), 1 unexpected error (one line, never a traceback). The JSON has the OP
rows, the AI Core metrics, ``memory`` (``peaks``, ``operators``) and ``communication``.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from workbench.core import fsutil
from workbench.core.profiling.errors import ProfilingDataError
from workbench.core.verbs import register_verb, run_guarded

HELP = (
    "compare a profiling report with a baseline: OP, AI Core metric, memory, communication and overall diffs, "
    "xlsx, CI regression gate"
)
EXIT_REGRESSION = 3
# ``compare.model.DEFAULT_TOLERANCE_PCT`` for --help: the model imports pandas, which `compare --help`
# must not wait for (tests/core/shell/test_cli_verbs.py keeps the two equal).
DEFAULT_TOLERANCE_PCT = 1.0


def _pair(text: str) -> tuple[int, int]:
    base, sep, current = text.partition(":")
    try:
        if not sep:
            raise ValueError
        return int(base), int(current)
    except ValueError:
        raise argparse.ArgumentTypeError(f"--pair {text!r}: expected BASE_DEVICE:CURRENT_DEVICE, e.g. 0:1") from None


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "base",
        metavar="BASE",
        help="the baseline report (PROF_* folder, *_ascend_pt folder, timeline "
        "JSON, op_summary / kernel_details CSV or .wbreport)",
    )
    p.add_argument("current", metavar="CURRENT", help="the report to compare with the baseline")
    p.add_argument("--json", action="store_true", help="JSON output (default: readable text)")
    p.add_argument("--by", choices=("type", "name"), default="type", help="match OPs by OP type (default) or op name")
    p.add_argument("--out", metavar="FILE.xlsx", help="also write the comparison to an Excel workbook")
    p.add_argument("--force", action="store_true", help="replace --out if it exists (never an input)")
    p.add_argument(
        "--fail-on-regression",
        type=float,
        metavar="PCT",
        default=None,
        help="exit 3 when the total, an OP row or a communication op type on both sides is slower by more than "
        "PCT percent, or a memory peak (allocated / reserved per component) grew by more than PCT percent",
    )
    p.add_argument(
        "--tolerance",
        type=float,
        metavar="PCT",
        default=DEFAULT_TOLERANCE_PCT,
        help=f"changes within PCT percent count as 'same' (default {DEFAULT_TOLERANCE_PCT:g})",
    )
    p.add_argument(
        "--pair",
        type=_pair,
        action="append",
        metavar="B:C",
        help="compare base device B with current device C (repeatable; default: same device IDs)",
    )
    p.add_argument("--top", type=int, metavar="N", default=None, help="only the first N OP rows (regressions first)")
    p.add_argument(
        "--cache",
        choices=("auto", "on", "off"),
        default="auto",
        help="columnar cache of the parsed sources (default: auto, for large sources)",
    )


def result_dict(comparison, args: argparse.Namespace, regressions: list[str] | None, out: str | None) -> dict[str, Any]:
    """The JSON document (stable keys)."""
    from workbench.core.compare.model import records
    from workbench.core.compare.rows import (
        COMM_COLUMNS,
        MEMORY_OP_COLUMNS,
        MEMORY_PEAK_COLUMNS,
        METRIC_COLUMNS,
        OP_COLUMNS,
        OVERALL_COLUMNS,
    )

    rows = comparison.rows if args.top is None else comparison.rows.head(args.top)
    return {
        "base": args.base,
        "current": args.current,
        "by": comparison.by,
        "basis": comparison.basis,
        "basis_text": comparison.basis_text(),
        "tolerance_pct": comparison.tolerance_pct,
        "pairs": [list(p) for p in comparison.pairs],
        "base_summary": comparison.base.as_dict(),
        "current_summary": comparison.current.as_dict(),
        "warnings": list(comparison.warnings),
        "overall": {**comparison.total(), "rows": records(comparison.overall, OVERALL_COLUMNS)},
        "status_counts": comparison.status_counts(),
        "rows": records(rows, OP_COLUMNS),
        "ai_core_metrics": records(comparison.metrics, METRIC_COLUMNS),
        "memory": {
            "peaks": records(comparison.memory_peaks, MEMORY_PEAK_COLUMNS),
            "operators": records(comparison.memory_ops, MEMORY_OP_COLUMNS),
        },
        "communication": records(comparison.communication, COMM_COLUMNS),
        "fail_on_regression": args.fail_on_regression,
        "regressions": regressions,
        "out": out,
    }


def _pct(value: Any) -> str:
    return "n/a" if value is None else f"{value:+.2f}%"


def _num(value: Any) -> str:
    return "n/a" if value is None else f"{value:.3f}"


def _text(doc: dict[str, Any]) -> str:
    o = doc["overall"]
    lines = [
        f"base:    {doc['base']} ({doc['base_summary']['kind']})",
        f"current: {doc['current']} ({doc['current_summary']['kind']})",
        f"total device time: {o['base_total_us']:.3f} -> {o['current_total_us']:.3f} us, "
        f"{o['diff_us']:+.3f} us ({_pct(o['diff_pct'])}) {o['status']}",
    ]
    per_step = [r for r in o["rows"] if r["metric"] == "Device time per step"]
    if per_step:
        r = per_step[0]
        lines.append(
            f"device time per step: {r['base']:.3f} -> {r['current']:.3f} us, {r['diff']:+.3f} us "
            f"({_pct(r['diff_pct'])}) {r['status']}"
        )
    lines.append(f"statuses and the gate compare {doc['basis_text']}")
    lines += [f"warning: {w}" for w in doc["warnings"]]
    # the figure that decided each status, then the totals (which a longer run makes bigger)
    pct, head = ("per_step_diff_pct", "step(%)") if doc["basis"] == "step" else ("avg_diff_pct", "call(%)")
    lines.append(f"{'status':<8} {head:>9} {'total(us)':>12} {'total(%)':>9}  {doc['by']}")
    lines += [
        f"{r['status']:<8} {_pct(r[pct]):>9} {r['diff_us']:>12.3f} {_pct(r['diff_pct']):>9}  {r['key']}"
        for r in doc["rows"]
    ]
    if doc["communication"]:
        lines.append(f"{'status':<8} {head:>9} {'total(us)':>12} {'total(%)':>9}  communication op type")
        lines += [
            f"{r['status']:<8} {_pct(r[pct]):>9} {_num(r['diff_us']):>12} {_pct(r['diff_pct']):>9}  {r['comm_op']}"
            for r in doc["communication"]
        ]
    if doc["memory"]["peaks"]:
        lines.append(f"{'status':<8} {'peak(%)':>9} {'diff(MB)':>12} {'base(MB)':>12}  memory peak")
        lines += [
            f"{r['status']:<8} {_pct(r['diff_pct']):>9} {_num(r['diff']):>12} {_num(r['base']):>12}  "
            f"{r['component']} {r['metric'].lower()}"
            for r in doc["memory"]["peaks"]
        ]
    lines += [f"regression: {r}" for r in doc["regressions"] or []]
    return "\n".join(lines) + "\n"


def _run(args: argparse.Namespace) -> int:
    from workbench.core.compare.engine import compare_paths
    from workbench.core.tasks import run_inline

    gate = args.fail_on_regression
    if gate is not None and not gate >= 0:
        raise ProfilingDataError(f"--fail-on-regression {gate}: expected a percentage >= 0")
    if args.top is not None and args.top < 0:
        raise ProfilingDataError(f"--top {args.top}: expected a positive number")
    if args.out is not None and not args.out.lower().endswith(".xlsx"):
        raise ProfilingDataError(f"--out {args.out}: expected an .xlsx file name")
    if args.out is not None:
        fsutil.refuse_existing(args.out, args.force)
    use_cache = {"auto": None, "on": True, "off": False}[args.cache]
    comparison = run_inline(
        compare_paths,
        args.base,
        args.current,
        by=args.by,
        tolerance_pct=args.tolerance,
        pairs=args.pair,
        use_cache=use_cache,
    )
    out = None
    if args.out:
        from workbench.core.compare.xlsx import write_xlsx

        out = str(run_inline(write_xlsx, comparison, args.out))
    regressions = comparison.regressions(gate) if gate is not None else None
    doc = result_dict(comparison, args, regressions, out)
    text = json.dumps(doc, ensure_ascii=False, indent=1) + "\n" if args.json else _text(doc)
    sys.stdout.write(text)
    return EXIT_REGRESSION if regressions else 0


def handler(args: argparse.Namespace) -> int:
    return run_guarded(_run, args, (ProfilingDataError, fsutil.OutputRefused))


register_verb("compare", HELP, add_arguments, handler)
