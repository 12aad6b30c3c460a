"""The ``report`` verb: ``ascend-workbench report info|ops|api|export|save|merge``.

JSON on stdout with stable keys; exit 0 ok, 2 bad input (message on stderr), 1 unexpected error
(a one-line message, never a traceback). Each sub-command runs the same work functions the GUI
runs on its task runner, inline.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from typing import Any

import pandas as pd

from workbench.core import fsutil
from workbench.core.profiling import stats
from workbench.core.profiling.errors import ProfilingDataError
from workbench.core.tasks import run_inline
from workbench.core.verbs import register_verb, run_guarded

HELP = "read msprof / torch_npu profiling output: summary, OP and API statistics, export, save, merge"


def _add_path(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "path",
        help="PROF_* folder, *_ascend_pt folder, timeline JSON, op_summary/kernel_details CSV, "
        "a folder of these, or a saved .wbreport",
    )
    p.add_argument(
        "--cache",
        choices=("auto", "on", "off"),
        default="auto",
        help="columnar cache of the parsed source (default: auto, for large sources)",
    )


def add_arguments(parser: argparse.ArgumentParser) -> None:
    sub = parser.add_subparsers(dest="action", required=True, metavar="ACTION")
    p = sub.add_parser("info", help="kind, devices, event/flow/op counts, time span, warnings")
    _add_path(p)
    p.add_argument("--json", action="store_true", help="JSON output (default: readable text)")
    p = sub.add_parser("ops", help="OP statistics from the OPs table (op_summary / kernel_details)")
    _add_path(p)
    p.add_argument("--json", action="store_true")
    p.add_argument("--by", choices=("type", "name"), default="type", help="group by OP type (default) or op name")
    p.add_argument("--top", type=int, default=None, metavar="N", help="only the N most expensive rows")
    p = sub.add_parser("api", help="API statistics by level (acl, runtime, node, model, communication, osrt)")
    _add_path(p)
    p.add_argument("--json", action="store_true")
    p = sub.add_parser("export", help="write the tables to .xlsx (one sheet per table), .csv (--table) or .json")
    _add_path(p)
    p.add_argument("--out", required=True, metavar="FILE")
    p.add_argument("--force", action="store_true", help="replace --out if it exists (never an input)")
    p.add_argument("--table", metavar="NAME", help="the table to export (required for .csv)")
    p = sub.add_parser("save", help="save as a single-file workbench report (.wbreport)")
    _add_path(p)
    p.add_argument("--out", required=True, metavar="FILE")
    p.add_argument("--force", action="store_true", help="replace --out if it exists (never an input)")
    p = sub.add_parser("merge", help="merge several reports (PROF folders, devices, ranks) into one .wbreport")
    p.add_argument("paths", nargs="+", metavar="PATH")
    p.add_argument("--out", required=True, metavar="FILE")
    p.add_argument("--force", action="store_true", help="replace --out if it exists (never an input)")


def _clean(value: Any) -> Any:
    if value is None or value is pd.NA:
        return None
    if hasattr(value, "item"):
        value = value.item()
    if isinstance(value, float) and math.isnan(value):
        return None
    return value


def _records(frame: pd.DataFrame, columns: list[str]) -> list[dict[str, Any]]:
    data = {c: frame[c].astype(object).tolist() for c in columns}
    return [{c: _clean(data[c][i]) for c in columns} for i in range(len(frame))]


def _open(args: argparse.Namespace):
    from workbench.core.profiling.build import open_report

    use_cache = {"auto": None, "on": True, "off": False}[args.cache]
    return run_inline(open_report, args.path, use_cache=use_cache)


def info_dict(report) -> dict[str, Any]:
    """The ``report info`` object (stable keys)."""
    return {
        "source": str(report.source),
        "kind": report.kind,
        "devices": [int(d) for d in report.devices],
        "event_count": report.event_count,
        "flow_count": report.flow_count,
        "span_us": report.span_ns / 1000.0,
        "span_source": "timeline" if report.event_count else ("ops" if report.span_ns else None),
        "start_ns": report.start_ns,
        "op_count": len(report.ops),
        "tables": {name: len(frame) for name, frame in report.tables.items()},
        "table_sources": dict(report.table_sources),
        "pmu_group": report.pmu_group,
        "pmu_split": report.pmu_split,
        "warnings": list(report.warnings),
    }


def _emit(obj: Any, as_json: bool) -> None:
    if as_json:
        sys.stdout.write(json.dumps(obj, ensure_ascii=False, indent=1, default=str) + "\n")
        return
    if isinstance(obj, dict):
        for key, value in obj.items():
            sys.stdout.write(f"{key}: {value}\n")
    else:
        for row in obj:
            sys.stdout.write("  ".join(f"{k}={v}" for k, v in row.items()) + "\n")


def _run(args: argparse.Namespace) -> int:
    action = args.action
    if action in ("export", "save", "merge"):  # before any work: an existing file needs --force
        from workbench.core.profiling.storage.saved import saved_path

        fsutil.refuse_existing(args.out if action == "export" else saved_path(args.out), args.force)
    if action == "merge":
        from workbench.core.profiling.merge import merge_reports
        from workbench.core.profiling.storage.saved import save_report

        merged = run_inline(merge_reports, args.paths)
        out = run_inline(save_report, merged, args.out, inputs=args.paths)
        _emit({"out": str(out), **info_dict(merged)}, True)
        return 0
    report = _open(args)
    if action == "info":
        _emit(info_dict(report), args.json)
    elif action == "ops":
        if args.top is not None and args.top < 0:
            raise ProfilingDataError(f"--top {args.top}: expected a positive number")
        table = stats.op_statistics(report.ops, args.by)
        if args.top is not None:
            table = table.head(args.top)
        _emit(_records(table, stats.STAT_COLUMNS), args.json)
    elif action == "api":
        table = stats.api_rows(report.api_statistic)
        _emit(_records(table, ["level", "name", "count", "total_us", "avg_us", "min_us", "max_us"]), args.json)
    elif action == "export":
        from workbench.core.profiling.export import export_report

        out = run_inline(export_report, report, args.out, table=args.table)
        _emit({"out": str(out), "tables": [args.table] if args.table else list(report.tables)}, True)
    elif action == "save":
        from workbench.core.profiling.storage.saved import save_report

        out = run_inline(save_report, report, args.out)
        _emit({"out": str(out), "tables": {n: len(f) for n, f in report.tables.items()}}, True)
    return 0


def handler(args: argparse.Namespace) -> int:
    from workbench.core.profiling.timeline import TimelineError

    return run_guarded(_run, args, (ProfilingDataError, TimelineError, fsutil.OutputRefused))


register_verb("report", HELP, add_arguments, handler)
