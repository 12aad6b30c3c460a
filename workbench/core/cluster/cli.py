"""The ``cluster`` verb: ``ascend-workbench cluster analyze PATH [--out DIR] [--force]
[--scheduler ADDR | --hosts H1,H2,... | --workers N] [--json]`` and ``cluster show PATH [--json]``.

``analyze`` finds the ranks under PATH (torch_npu ``*_ascend_pt`` / MindSpore ``*_ascend_ms`` folders with
``profiler_info_{rank}.json``, their text or db export; else msprof ``PROF_*`` folders with
``device_{id}/info.json.{id}``, text or ``msprof_*.db``: as msprof-analyze finds them), reduces them on the
engine (embedded by default: the in-process path for a couple of ranks, a local Dask cluster on this
machine's cores beyond; a Dask cluster started over SSH on the CANN machines named by ``--hosts``; or the
scheduler at ``--scheduler``), merges them and writes msprof-analyze's files plus ``cluster.wbcluster`` into
DIR (default ``PATH/cluster_analysis_output``; a job of db ranks also gets ``cluster_analysis.db``), never
over existing files without ``--force``. Ctrl-C cancels: every worker's task stops (the SSH-started workers
end on their hosts).

``show`` prints a cluster (a saved report, msprof-analyze's output, or the ranks analysed without
writing anything): ranks, steps, stages, slow ranks and slow links with their evidence.

``compare BASE CURRENT [--json] [--out FILE.xlsx] [--force]`` compares two clusters (each any path
``show`` takes; nothing written into them) on their cluster_step_trace_time rows: the regressed ranks
and columns, the column totals, the new and resolved slow ranks and links (core ``cluster.compare``).
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from workbench.core.verbs import register_verb, run_guarded

HELP = "cluster analysis of a multi-rank job (msprof-analyze's files, slow ranks and links)"


def add_arguments(p: argparse.ArgumentParser) -> None:
    sub = p.add_subparsers(dest="cluster_cmd", required=True, metavar="{analyze,show,compare}")
    a = sub.add_parser("analyze", help="analyse the ranks under PATH and write the cluster files")
    a.add_argument(
        "path",
        metavar="PATH",
        help="the job folder: its *_ascend_pt / *_ascend_ms rank folders (text or .db export), or its msprof "
        "PROF_* folders (with device_<id>/info.json.<id>; text or msprof_*.db)",
    )
    a.add_argument(
        "--out",
        metavar="DIR",
        help="output folder (default: PATH/cluster_analysis_output; db ranks also get cluster_analysis.db)",
    )
    a.add_argument("--force", action="store_true", help="replace existing output files")
    where = a.add_mutually_exclusive_group()
    where.add_argument("--scheduler", metavar="ADDR", help="a running Dask scheduler (tcp://host:port)")
    where.add_argument(
        "--hosts", metavar="H1,H2", help="configured CANN machines: a Dask cluster over SSH, PATH on each host"
    )
    where.add_argument("--workers", type=int, metavar="N", help="local worker processes (default: the cores)")
    a.add_argument(
        "--remote-python", metavar="CMD", help="with --hosts: the Python with Dask on the hosts (default: python3)"
    )
    a.add_argument("--json", action="store_true", help="JSON output (default: readable text)")
    s = sub.add_parser("show", help="print a cluster: saved report, msprof-analyze output or the ranks")
    s.add_argument("path", metavar="PATH")
    s.add_argument("--json", action="store_true", help="JSON output (default: readable text)")
    c = sub.add_parser("compare", help="compare a cluster with a baseline: regressed ranks, totals, new findings")
    c.add_argument("base", metavar="BASE", help="the baseline cluster (any path show takes)")
    c.add_argument("current", metavar="CURRENT", help="the cluster compared with it")
    c.add_argument("--json", action="store_true", help="JSON output (default: readable text)")
    c.add_argument("--out", metavar="FILE.xlsx", help="also write the comparison to an Excel workbook")
    c.add_argument("--force", action="store_true", help="replace --out if it exists")


def _spec(args: argparse.Namespace) -> Any:
    from workbench.core.cluster.engine import EngineSpec

    if getattr(args, "scheduler", None):
        return EngineSpec("address", address=args.scheduler)
    if getattr(args, "hosts", None):
        from workbench.core.services.hosts import HostStore

        store = HostStore()
        names = [n.strip() for n in args.hosts.split(",") if n.strip()]
        if not names:
            raise ValueError("--hosts: expected host names, e.g. --hosts node1,node2")
        return EngineSpec("ssh", hosts=tuple(store.get(n) for n in names), remote_python=args.remote_python)
    if getattr(args, "remote_python", None):
        raise ValueError("--remote-python: only with --hosts (the Python on the CANN machines)")
    workers = getattr(args, "workers", None)
    if workers is not None:
        if workers < 1:
            raise ValueError(f"--workers {workers}: expected 1 or more")
        return EngineSpec("sync" if workers == 1 else "local", workers=workers)
    return EngineSpec("auto")


class _StderrProgress:
    """Each finished rank on stderr (a long run shows it is moving); nothing for --json."""

    def __init__(self, quiet: bool) -> None:
        self.quiet = quiet

    def status(self, text: str) -> None:
        if not self.quiet:
            sys.stderr.write(text + "\n")

    def fraction(self, value: float | None) -> None:
        pass

    def partial(self, item: Any) -> None:
        pass


def summary(report: Any, written: list[str], warnings: list[str]) -> dict[str, Any]:
    from workbench.core.cluster import views

    t = report.tables
    return {
        "source": report.source,
        "engine": report.engine,
        "ranks": t.ranks,
        "steps": views.steps_of(t),
        "stages": t.stages,
        "groups": [{"type": g[0], "name": g[1], "hash": g[2], "ranks": g[3]} for g in views.group_rows(t)],
        "slow_ranks": [
            {
                "rank": s.rank,
                "step": s.step,
                "computing_us": s.computing_us,
                "median_us": s.median_us,
                "excess_us": round(s.excess_us, 3),
                "slow_steps": s.slow_steps,
                "steps": s.steps,
                "peers": list(s.peers),
                "others_wait_ms": s.others_wait_ms,
                "own_wait_ms": s.own_wait_ms,
            }
            for s in report.findings.slow_ranks
        ],
        "slow_links": [
            {
                "src": s.src,
                "dst": s.dst,
                "transport": s.transport,
                "bandwidth_gb_s": s.bandwidth,
                "median_gb_s": s.median,
                "size_mb": s.size_mb,
                "time_ms": s.time_ms,
            }
            for s in report.findings.slow_links
        ],
        "retried_ranks": [r.rank for r in report.ranks if r.retried],
        "failed_ranks": [{"rank": r.rank, "error": r.error} for r in report.ranks if r.error],
        "written": written,
        "warnings": warnings,
    }


def _text(doc: dict[str, Any]) -> str:
    lines = [
        f"cluster: {doc['source']}",
        f"  {len(doc['ranks'])} ranks, {len(doc['steps'])} steps, {len(doc['stages'])} stages, "
        f"{len(doc['groups'])} communication groups (engine: {doc['engine']})",
    ]
    if doc["slow_ranks"]:
        lines.append("slow ranks:")
        for s in doc["slow_ranks"]:
            wait = ""
            if s["others_wait_ms"] is not None and s["own_wait_ms"] is not None:
                others, own = s["others_wait_ms"], s["own_wait_ms"]
                wait = f"; its groups' other ranks waited {others:.3f} ms, it waited {own:.3f} ms"
            lines.append(
                f"  rank {s['rank']}: Computing {s['computing_us']:.3f} us in step {s['step']} vs the median "
                f"{s['median_us']:.3f} us of ranks {s['peers'][0]}..{s['peers'][-1]} (+{s['excess_us']:.3f} us; "
                f"slow in {s['slow_steps']} of {s['steps']} steps){wait}"
            )
    else:
        lines.append("slow ranks: none")
    if doc["slow_links"]:
        lines.append("slow links:")
        for s in doc["slow_links"]:
            lines.append(
                f"  {s['src']} -> {s['dst']} ({s['transport']}): {s['bandwidth_gb_s']:.4f} GB/s vs the median "
                f"{s['median_gb_s']:.4f} GB/s of its transport ({s['size_mb']:.3f} MB in {s['time_ms']:.3f} ms)"
            )
    else:
        lines.append("slow links: none")
    for r in doc["failed_ranks"]:
        lines.append(f"failed: rank {r['rank']}: {r['error']}")
    for w in doc["warnings"][:20]:
        lines.append(f"warning: {w}")
    if len(doc["warnings"]) > 20:
        lines.append(f"warning: ... {len(doc['warnings']) - 20} more")
    for path in doc["written"]:
        lines.append(f"wrote {path}")
    return "\n".join(lines) + "\n"


def _compare(args: argparse.Namespace, cancel: Any) -> int:
    from workbench.core.cluster import compare

    out = compare.check_out(args.out, args.force) if args.out else None  # refused before the work
    comparison = compare.compare_paths(args.base, args.current, cancel=cancel)
    written = str(compare.write_xlsx(comparison, out, force=args.force, cancel=cancel)) if out else None
    doc = {**compare.as_dict(comparison), "written": written}
    sys.stdout.write(
        json.dumps(doc, ensure_ascii=False, indent=1) + "\n" if args.json else compare.as_text(comparison, written)
    )
    return 0


def _run(args: argparse.Namespace) -> int:
    from workbench.core.cluster import analyze
    from workbench.core.services.cli import SignalCancel
    from workbench.core.tasks import CancelToken

    cancel = CancelToken()
    guard = SignalCancel(cancel)
    with guard.active():
        if args.cluster_cmd == "compare":
            return _compare(args, cancel)
        if args.cluster_cmd == "analyze":
            result = analyze.analyze(
                args.path,
                out=args.out,
                force=args.force,
                spec=_spec(args),
                progress=_StderrProgress(args.json),
                cancel=cancel,
            )
        else:
            result = analyze.open_cluster(args.path, write=False, cancel=cancel)
    doc = summary(result.report, [str(p) for p in result.written], result.warnings)
    sys.stdout.write(json.dumps(doc, ensure_ascii=False, indent=1) + "\n" if args.json else _text(doc))
    return 0


def handler(args: argparse.Namespace) -> int:
    from workbench.core.cluster.analyze import ClusterError
    from workbench.core.cluster.engine import EngineError
    from workbench.core.cluster.files import ClusterFileError
    from workbench.core.cluster.report import ClusterReportError
    from workbench.core.fsutil import OutputRefused
    from workbench.core.services.hosts import HostError

    bad = (ClusterError, ClusterFileError, ClusterReportError, EngineError, OutputRefused, HostError, ValueError)
    return run_guarded(_run, args, bad)


register_verb("cluster", HELP, add_arguments, handler)
