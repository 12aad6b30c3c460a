"""The ``report`` verb: ``ascend-workbench report info|ops|api|steps|memory|communication|export|save|merge|query``.

JSON on stdout with stable keys; exit 0 ok, 2 bad input (message on stderr), 1 unexpected error
(a one-line message, never a traceback). Each sub-command runs the same work functions the GUI
runs on its task runner, inline.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from decimal import Decimal
from typing import TYPE_CHECKING, Any

from workbench.core import fsutil
from workbench.core.profiling.errors import ProfilingDataError
from workbench.core.tasks import run_inline
from workbench.core.verbs import register_verb, run_guarded

if TYPE_CHECKING:  # pandas (and stats, which uses it) are imported by the handlers: `report --help` needs neither
    import pandas as pd

# The OPs columns stats.op_statistics reads (a test checks the statistics of these alone are the same).
OP_STATISTICS_READS = ("name", "type", "task_type", "duration_us")

HELP = (
    "read msprof / torch_npu profiling output: summary, OP and API statistics, steps, memory, communication, "
    "export, save, merge, SQL"
)


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
    p = sub.add_parser("steps", help="per step: computing, communication (overlapped or not), free, stage, bubble (µs)")
    _add_path(p)
    p.add_argument("--json", action="store_true")
    p = sub.add_parser("memory", help="per memory component: peak allocated / reserved / active MB and when")
    _add_path(p)
    p.add_argument("--json", action="store_true")
    p = sub.add_parser(
        "communication", help="per communication op: elapse, transit, wait, sync, idle (ms); bandwidth per transport"
    )
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
    p = sub.add_parser(
        "query",
        help="one read-only SQL query (DuckDB) over the report's tables: slices, flows, counters, ops, ...; "
        "a .db export is queried as it is",
    )
    _add_path(p)
    p.add_argument("sql", metavar="SQL", help='one SELECT statement, e.g. "SELECT name, dur_ns FROM ops LIMIT 5"')
    shape = p.add_mutually_exclusive_group()
    shape.add_argument("--csv", metavar="OUT", help="write every row to OUT (.csv)")
    shape.add_argument("--json", action="store_true", help="every row as JSON on stdout")
    shape.add_argument("--xlsx", metavar="OUT", help="write every row to OUT (.xlsx)")
    p.add_argument("--force", action="store_true", help="replace OUT if it exists (never an input)")
    p.add_argument("--limit", type=int, default=50, metavar="N", help="rows the text table shows (default 50)")
    p = sub.add_parser("merge", help="merge several reports (PROF folders, devices, ranks) into one .wbreport")
    p.add_argument("paths", nargs="+", metavar="PATH")
    p.add_argument("--out", required=True, metavar="FILE")
    p.add_argument("--force", action="store_true", help="replace --out if it exists (never an input)")


def _clean(value: Any) -> Any:
    if value is None or type(value).__name__ == "NAType":  # pandas.NA, known without importing pandas
        return None
    if hasattr(value, "item"):
        value = value.item()
    if isinstance(value, float) and math.isnan(value):
        return None
    if isinstance(value, Decimal):  # DuckDB's sum() of integers
        return int(value) if value == value.to_integral_value() else float(value)
    return value


def _records(frame: pd.DataFrame, columns: list[str]) -> list[dict[str, Any]]:
    data = {c: frame[c].astype(object).tolist() for c in columns}
    return [{c: _clean(data[c][i]) for c in columns} for i in range(len(frame))]


def _open(args: argparse.Namespace):
    from workbench.core.profiling.build import open_report

    use_cache = {"auto": None, "on": True, "off": False}[args.cache]
    return run_inline(open_report, args.path, use_cache=use_cache)


def info_dict(report) -> dict[str, Any]:
    """The ``report info`` object (stable keys) of a Report, or of the facts a cache keeps of one
    (:class:`workbench.core.profiling.storage.cache.Facts`): no table is decoded for it."""
    rows = report.table_rows
    return {
        "source": str(report.source),
        "kind": report.kind,
        "devices": [int(d) for d in report.devices],
        "event_count": report.event_count,
        "flow_count": report.flow_count,
        "span_us": report.span_ns / 1000.0,
        "span_source": "timeline" if report.event_count else ("ops" if report.span_ns else None),
        "start_ns": report.start_ns,
        "op_count": rows.get("ops", 0),
        "tables": dict(rows),
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


def _text_table(result, limit: int) -> str:
    """An aligned text table of the first ``limit`` rows, with a note on the rows left out."""
    columns = result.columns
    rows = result.table.slice(0, limit).to_pylist()

    def cell(value: Any) -> str:
        value = _clean(value)
        text = "NULL" if value is None else str(value)
        text = text.replace("\n", " ")
        return text if len(text) <= 60 else text[:59] + "…"

    cells = [[cell(row[c]) for c in columns] for row in rows]
    widths = [max([len(c)] + [len(r[i]) for r in cells]) for i, c in enumerate(columns)]
    numeric = [all(_is_number(row[c]) for row in rows) and bool(rows) for c in columns]

    def line(values: list[str]) -> str:
        return "  ".join(v.rjust(w) if n else v.ljust(w) for v, w, n in zip(values, widths, numeric)).rstrip()

    out = [line(list(columns)), "  ".join("-" * w for w in widths)] + [line(r) for r in cells]
    shown, total = len(rows), result.total_rows
    if shown < total:
        out.append(f"({shown:,} of {total:,} rows shown; --limit N, or --csv / --json / --xlsx OUT for every row)")
    else:
        out.append(f"({total:,} row{'s' if total != 1 else ''})")
    return "\n".join(out) + "\n"


def _is_number(value: Any) -> bool:
    return (
        value is None
        or (isinstance(value, (int, float)) and not isinstance(value, bool))
        or hasattr(value, "is_finite")
    )


def _query(args: argparse.Namespace) -> int:
    """``report query PATH SQL``: the query runs on a thread, so Ctrl-C interrupts it at once."""
    import threading
    from pathlib import Path

    from workbench.core.profiling.query import QuerySession, run_query
    from workbench.core.tasks import Cancelled, CancelToken

    out = args.csv or args.xlsx
    if out:
        suffix = ".csv" if args.csv else ".xlsx"
        if Path(out).suffix.lower() != suffix:
            raise ProfilingDataError(f"--{suffix[1:]} {out}: expected a file name ending in {suffix}")
        fsutil.refuse_existing(out, args.force)
    if args.limit < 0:
        raise ProfilingDataError(f"--limit {args.limit}: expected a positive number")
    source = Path(args.path)
    if source.suffix.lower() == ".db" and source.is_file():
        session, inputs = QuerySession(db=source), [source]
    else:
        report = _open(args)
        session, inputs = QuerySession(report), report.input_paths()
    if out:
        fsutil.refuse_inputs(out, inputs, inside=False)
    cancel = CancelToken()
    done: dict[str, Any] = {}

    def work() -> None:
        try:
            done["result"] = run_query(session, args.sql, None if (out or args.json) else args.limit, cancel=cancel)
        except BaseException as exc:  # noqa: BLE001 - raised again on the main thread
            done["error"] = exc

    worker = threading.Thread(target=work, name="wb-query", daemon=True)
    worker.start()
    try:
        while worker.is_alive():
            worker.join(0.1)
    except KeyboardInterrupt:
        cancel.cancel()
        worker.join()
        raise Cancelled() from None
    finally:
        session.close()
    if "error" in done:
        raise done["error"]
    result = done["result"]
    if out:
        from workbench.core.profiling.query import export_result

        written = run_inline(export_result, result, out, source)
        _emit({"out": str(written), "rows": result.total_rows, "columns": result.columns}, True)
    elif args.json:
        rows = [[_clean(v) for v in row.values()] for row in result.table.to_pylist()]
        _emit({"columns": result.columns, "types": [str(t) for t in result.table.schema.types], "rows": rows}, True)
    else:
        sys.stdout.write(_text_table(result, args.limit))
    return 0


def _run(args: argparse.Namespace) -> int:
    action = args.action
    if action == "query":
        return _query(args)
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
    if action == "info":
        from workbench.core.profiling.storage import cache

        # a valid cache answers from its report.json: no array read, neither numpy nor pandas imported
        use_cache = {"auto": None, "on": True, "off": False}[args.cache]
        facts = cache.facts(args.path, use_cache) if use_cache is not False else None
        _emit(info_dict(facts if facts is not None else _open(args)), args.json)
        return 0
    if action in ("steps", "memory", "communication"):
        return _views(args)
    from workbench.core.profiling import stats

    report = _open(args)
    if action == "ops":
        if args.top is not None and args.top < 0:
            raise ProfilingDataError(f"--top {args.top}: expected a positive number")
        # op_statistics reads these columns only: a cached report decodes no other (its PMU columns)
        table = stats.op_statistics(report.table_columns("ops", OP_STATISTICS_READS), args.by)
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
        _emit({"out": str(out), "tables": report.table_rows}, True)
    return 0


NO_STEPS = "{0}: no step data (no step_trace_time and no Overlap Analysis lanes in a timeline)"
NO_MEMORY = "{0}: no memory data (no memory_record, operator_memory or npu_module_mem)"
NO_COMMUNICATION = "{0}: no communication data (no communication.json or communication_matrix.json with ops)"


def _rows(frame: pd.DataFrame, columns: list[str] | tuple[str, ...]) -> list[dict[str, Any]]:
    return _records(frame, [c for c in columns if c in frame.columns])


def steps_dict(report) -> dict[str, Any] | None:
    """``report steps``: per step (and device) the breakdown columns in µs, where it was read."""
    from workbench.core.profiling.steps import BREAKDOWN_COLUMNS, step_breakdown

    frame = step_breakdown(report)
    if frame is None or not len(frame):
        return None
    return {
        "source": str(frame["source"].iloc[0]),
        "steps": _rows(frame, ("device", *BREAKDOWN_COLUMNS)),
        "warnings": list(frame.attrs.get("warnings", [])),
    }


def memory_dict(report) -> dict[str, Any] | None:
    """``report memory``: per component the peak of each kind (MB) and when (epoch ns), the
    operators and modules counted."""
    from workbench.core.profiling.memory import KINDS, memory_view

    view = memory_view(report)
    if view is None:
        return None
    components = []
    for component in view.components:
        row: dict[str, Any] = {"component": component}
        for kind in KINDS:
            peak = view.peak(component, kind)
            row[f"peak_{kind}_mb"] = None if peak is None else peak.value_mb
            row[f"peak_{kind}_ns"] = None if peak is None else peak.ts_ns
        components.append(row)
    modules = []
    for module in view.modules:
        _ts, mb = view.module_curve(module)
        finite = [float(v) for v in mb if v == v]
        modules.append({"module": module, "peak_reserved_mb": max(finite) if finite else None})
    return {
        "components": components,
        "operators": len(view.operators),
        "modules": modules,
        "warnings": list(view.warnings),
        "notes": list(view.notes),
    }


def communication_dict(report) -> dict[str, Any] | None:
    """``report communication``: per op its times (ms) and ratios, the Total Op Info rows, per transport
    the transit size, time and bandwidth (GB/s) over the ops, the aggregated rank matrix."""
    from workbench.core.profiling.comm import OP_COLUMNS, communication_view

    view = communication_view(report)
    if view is None or not (len(view.ops) or len(view.totals) or len(view.matrix)):
        return None
    ranks, bandwidth, transports = view.matrix_grid()
    links = [
        {"src": s, "dst": d, "transport": transports[i, j], "bandwidth_gbs": float(bandwidth[i, j])}
        for i, s in enumerate(ranks)
        for j, d in enumerate(ranks)
        if bandwidth[i, j] == bandwidth[i, j]
    ]
    columns = ("rank", *OP_COLUMNS)
    return {
        "ops": _rows(view.ops, columns),
        "totals": _rows(view.totals, columns),
        "transports": _rows(view.transports(), ("transport", "size_mb", "time_ms", "bandwidth_gbs")),
        "matrix": {"ranks": ranks, "links": links},
        "warnings": list(view.warnings),
    }


def _text_lines(obj: dict[str, Any]) -> str:
    out = []
    for key, value in obj.items():
        if isinstance(value, list) and value and isinstance(value[0], dict):
            out.append(f"{key}:")
            out += ["  " + "  ".join(f"{k}={_short(v)}" for k, v in row.items()) for row in value]
        elif isinstance(value, dict):
            out.append(f"{key}: " + "  ".join(f"{k}={_short(v)}" for k, v in value.items()))
        else:
            out.append(f"{key}: {value}")
    return "\n".join(out) + "\n"


def _short(value: Any) -> str:
    if isinstance(value, float):
        return f"{value:.6g}"
    if isinstance(value, list) and len(value) > 8:
        return f"[{len(value)} items]"
    return str(value)


def _views(args: argparse.Namespace) -> int:
    """``report steps|memory|communication PATH``: the models the views show, as JSON or text."""
    report = _open(args)
    make, missing = {
        "steps": (steps_dict, NO_STEPS),
        "memory": (memory_dict, NO_MEMORY),
        "communication": (communication_dict, NO_COMMUNICATION),
    }[args.action]
    obj = make(report)
    if obj is None:
        raise ProfilingDataError(missing.format(args.path))
    if args.json:
        _emit(obj, True)
    else:
        sys.stdout.write(_text_lines(obj))
    return 0


def _run_timeline_errors(args: argparse.Namespace) -> int:
    """:func:`_run`, a timeline's error given as bad input too. The timeline package (numpy and the
    loader) is not imported for it: a cached ``report info`` never loads it, so whatever raised
    one had imported it."""
    try:
        return _run(args)
    except Exception as exc:
        timeline = sys.modules.get("workbench.core.profiling.timeline")
        if timeline is not None and isinstance(exc, timeline.TimelineError):
            raise ProfilingDataError(str(exc)) from exc
        raise


def handler(args: argparse.Namespace) -> int:
    return run_guarded(_run_timeline_errors, args, (ProfilingDataError, fsutil.OutputRefused))


register_verb("report", HELP, add_arguments, handler)
