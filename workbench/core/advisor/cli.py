"""The ``advise`` verb: ``ascend-workbench advise PATH [--json] [--html OUT] [--xlsx OUT] [--force]
[--only RULE_OR_CATEGORY,...]``.

PATH is a report (anything ``report`` opens) or a cluster: a ``cluster.wbcluster``, a
``cluster_analysis_output`` folder (or a folder holding one), or a job folder of two or more rank
folders (analysed in memory: nothing is written into it); on a cluster the report rules also run over the
reports of the ranks msprof-analyze's advisor analyses there, their findings marked "rank N". The findings
are printed sorted by severity, one block each (severity, title, facts, the top evidence, advice), or as
JSON; ``--html`` and ``--xlsx`` also write the page / the workbook (atomically, an existing file only with
``--force``). Exit 0 whatever was found (the ``compare`` gate is the CI gate); bad input is one line
and exit 2.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from workbench.core.verbs import register_verb, run_guarded

HELP = "say what is wrong in a report or a cluster and what to try (the advisor's findings)"
TOP_EVIDENCE = 5  # evidence items printed per finding


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "path",
        metavar="PATH",
        help="a report (anything `report` opens) or a cluster (cluster.wbcluster, cluster_analysis_output, "
        "a job folder of rank folders)",
    )
    p.add_argument("--json", action="store_true", help="JSON output (default: readable text)")
    p.add_argument("--html", metavar="OUT", help="also write the findings to one self-contained HTML page")
    p.add_argument("--xlsx", metavar="OUT", help="also write the findings to an Excel workbook")
    p.add_argument("--force", action="store_true", help="replace --html / --xlsx if they exist")
    p.add_argument(
        "--only",
        metavar="RULE_OR_CATEGORY,...",
        help="run only these rules (ids such as compute.aicpu_has_aicore) or categories (compute, schedule, ...)",
    )


class AdviseError(ValueError):
    """Bad input of the verb (an --only name no rule has): one line."""


def is_cluster(path: str) -> bool:
    """Does ``path`` name a cluster rather than one report?"""
    from workbench.core.cluster import analyze, ranks
    from workbench.core.cluster.report import REPORT_NAME

    p = Path(path)
    if p.name == REPORT_NAME and p.is_file():
        return True
    if not p.is_dir():
        return False
    if analyze.output_folder(p) is not None:
        return True
    return len(ranks.discover(str(p)).ranks) >= 2


def _only(text: str | None, target: str) -> list[str] | None:
    if not text:
        return None
    from workbench.core.advisor import model

    names = [n.strip() for n in text.split(",") if n.strip()]
    if not names:
        raise AdviseError(f"--only {text!r}: expected rule ids or categories, e.g. --only compute")
    # a cluster runs the report rules too, over the reports of the ranks msprof-analyze would analyse
    known = model.rules(target) + (model.rules("report") if target == "cluster" else [])
    ids = {r.id for r in known}
    categories = {r.category for r in known}
    unknown = [n for n in names if n not in ids and n not in categories]
    if unknown:
        offered = ", ".join(sorted(categories)) or "none registered"
        raise AdviseError(
            f"--only {unknown[0]}: no {target} rule or category of that name (categories: {offered}; "
            f"rule ids: see `advise PATH --json` rules_run)"
        )
    return names


def block(finding: Any, top: int = TOP_EVIDENCE) -> list[str]:
    """One finding as text lines: severity and title, its facts, the top evidence, the advice."""
    from workbench.core.advisor import export

    rank = export.rank_label(finding)
    where = f"{rank} · " if rank else ""
    lines = [f"[{finding.severity.value.upper()}] {where}{finding.title()}  ({finding.rule})"]
    for label, value in finding.fact_lines():
        lines.append(f"    {label}: {value}")
    if finding.evidence:
        total = len(finding.evidence) if finding.evidence_total is None else finding.evidence_total
        shown = finding.evidence[:top]
        head = "evidence" if total == len(shown) else f"evidence (top {len(shown)} of {total})"
        lines.append(f"    {head}:")
        for e in shown:
            bits = [e.kind, e.label]
            place = export.where(e)
            if place:
                bits.append(place)
            if e.start_ns is not None:
                bits.append(f"start {int(e.start_ns)} ns")
            if e.dur_ns is not None:
                bits.append(f"dur {int(e.dur_ns)} ns")
            lines.append("      - " + " · ".join(bits))
    advice = finding.advice()
    if advice:
        lines.append(f"    advice: {advice}")
    return lines


def as_text(result: Any, written: list[str]) -> str:
    from workbench.core.advisor import export

    counts = export.counts(result)
    findings = result.sorted()
    lines = [
        f"advisor: {result.source}",
        f"{len(findings)} findings: "
        + ", ".join(f"{n} {sev}" for sev, n in counts.items())
        + f" ({len(result.rules_run)} rules run)",
    ]
    for f in findings:
        lines.append("")
        lines += block(f)
    if result.warnings:
        lines.append("")
    lines += [f"warning: {w}" for w in result.warnings]
    lines += [f"wrote {p}" for p in written]
    return "\n".join(lines) + "\n"


def advise_path(path: str, only_text: str | None, cancel: Any) -> Any:
    """The advisor's result over ``path`` (a report or a cluster)."""
    from workbench.core.advisor import run

    if not Path(path).exists():
        raise FileNotFoundError(2, "no such file or folder", path)
    if is_cluster(path):
        from workbench.core.cluster import analyze
        from workbench.core.cluster.report import REPORT_NAME

        only = _only(only_text, "cluster")
        where = Path(path).parent if Path(path).name == REPORT_NAME else Path(path)
        cluster = analyze.open_cluster(where, write=False, cancel=cancel).report
        return run.advise_cluster(cluster, only=only, cancel=cancel)
    from workbench.core.profiling.build import open_report
    from workbench.core.tasks import run_inline

    only = _only(only_text, "report")
    report = run_inline(open_report, path, cancel=cancel)
    return run.advise(report, only=only, cancel=cancel)


def _run(args: argparse.Namespace) -> int:
    import json

    from workbench.core.advisor import export
    from workbench.core.services.cli import SignalCancel
    from workbench.core.tasks import CancelToken

    # refused before the work: an output of the wrong kind or one that exists without --force
    if args.html:
        export.check_out(args.html, args.force, (".html", ".htm"))
    if args.xlsx:
        export.check_out(args.xlsx, args.force, (".xlsx",))
    cancel = CancelToken()
    with SignalCancel(cancel).active():
        result = advise_path(args.path, args.only, cancel)
    written: list[str] = []
    if args.html:
        written.append(str(export.write_html(result, args.html, force=args.force)))
    if args.xlsx:
        written.append(str(export.write_xlsx(result, args.xlsx, force=args.force)))
    if args.json:
        doc = {**export.to_dict(result), "written": written}
        sys.stdout.write(json.dumps(doc, ensure_ascii=False, indent=1) + "\n")
    else:
        sys.stdout.write(as_text(result, written))
    return 0


def _run_data_errors(args: argparse.Namespace) -> int:
    """:func:`_run`, a timeline's error given as bad input too (as the ``report`` verb does)."""
    from workbench.core.profiling.errors import ProfilingDataError

    try:
        return _run(args)
    except Exception as exc:
        timeline = sys.modules.get("workbench.core.profiling.timeline")
        if timeline is not None and isinstance(exc, timeline.TimelineError):
            raise ProfilingDataError(str(exc)) from exc
        raise


def handler(args: argparse.Namespace) -> int:
    from workbench.core.cluster.analyze import ClusterError
    from workbench.core.cluster.files import ClusterFileError
    from workbench.core.cluster.report import ClusterReportError
    from workbench.core.fsutil import OutputRefused
    from workbench.core.profiling.errors import ProfilingDataError

    bad = (AdviseError, ProfilingDataError, ClusterError, ClusterFileError, ClusterReportError, OutputRefused)
    return run_guarded(_run_data_errors, args, bad)


register_verb("advise", HELP, add_arguments, handler)
