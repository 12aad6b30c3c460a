"""Run the advisor's rules over a report or a cluster.

:func:`advise` takes an opened :class:`~workbench.core.profiling.report.Report`; :func:`advise_cluster`
a :class:`~workbench.core.cluster.report.ClusterReport`. Every registered rule of the target runs on
its own: a rule that raises is one warning line of the result (its id and the error), the others still
run. Between rules the run polls ``cancel`` and reports ``progress`` (fraction of rules done).

Rules receive a *subject*: the report (or cluster report) plus a per-run cache (:meth:`ReportSubject.
cached`), so rules that need the same derived table (device busy intervals, the OPs with their task
types, ...) compute it once.

On a cluster, :func:`advise_cluster` also runs the report rules over the own reports of the ranks
msprof-analyze's advisor analyses in cluster mode (``AnalyzerController.cluster_*_analysis``), chosen
as it chooses them (:func:`analysed_ranks`), each finding marked with its ``rank``.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from workbench.core.advisor import rules as _load_rules  # noqa: F401  (registers every rule module)
from workbench.core.advisor.model import AdvisorResult, Finding, Rule, rules
from workbench.core.tasks import CancelToken, NullProgress, Progress, ScaledProgress


@dataclass
class ReportSubject:
    report: Any  # workbench.core.profiling.report.Report
    _cache: dict[str, Any] = field(default_factory=dict, repr=False)

    def cached(self, key: str, make: Callable[[], Any]) -> Any:
        """``make()`` once per run under ``key``."""
        if key not in self._cache:
            self._cache[key] = make()
        return self._cache[key]

    def table(self, name: str):
        """The report's table ``name``, or None when the report has no such table."""
        return self.report.tables.get(name)


@dataclass
class ClusterSubject:
    cluster: Any  # workbench.core.cluster.report.ClusterReport
    _cache: dict[str, Any] = field(default_factory=dict, repr=False)

    def cached(self, key: str, make: Callable[[], Any]) -> Any:
        if key not in self._cache:
            self._cache[key] = make()
        return self._cache[key]


def _run(
    subject: Any,
    target: str,
    source: str,
    only: Sequence[str] | None,
    progress: Progress | None,
    cancel: CancelToken | None,
) -> AdvisorResult:
    progress = progress or NullProgress()
    chosen: list[Rule] = [r for r in rules(target) if not only or r.id in only or r.category in only]
    result = AdvisorResult(source=source)
    for i, r in enumerate(chosen):
        if cancel is not None:
            cancel.raise_if_cancelled()
        progress.fraction(i / len(chosen) if chosen else None)
        try:
            found: list[Finding] = list(r.check(subject) or ())
        except Exception as exc:  # noqa: BLE001  (one rule's failure is a warning, never a failed run)
            result.warnings.append(f"advisor rule {r.id} could not run: {exc}")
            continue
        result.rules_run.append(r.id)
        result.findings.extend(found)
    progress.fraction(1.0)
    return result


def advise(
    report: Any,
    *,
    only: Sequence[str] | None = None,
    progress: Progress | None = None,
    cancel: CancelToken | None = None,
) -> AdvisorResult:
    """Every report rule (or those whose id or category is in ``only``) over ``report``."""
    return _run(ReportSubject(report), "report", str(report.source), only, progress, cancel)


def advise_cluster(
    cluster: Any,
    *,
    only: Sequence[str] | None = None,
    progress: Progress | None = None,
    cancel: CancelToken | None = None,
    rank_rules: bool = True,
) -> AdvisorResult:
    """Every cluster rule over ``cluster`` (a ClusterReport), then (``rank_rules``) the report rules over
    the reports of the ranks :func:`analysed_ranks` picks, each category on its dimension's ranks; those
    findings carry their ``rank``. A rank without data on this machine (no folder: a cluster read from
    msprof-analyze's output; a rank on a remote host; a folder that does not open) is one warning line."""
    progress = progress or NullProgress()
    plan = _rank_plan(cluster, only) if rank_rules else {}
    share = 1.0 / (1 + len(plan))
    result = _run(
        ClusterSubject(cluster), "cluster", str(cluster.source), only, ScaledProgress(progress, 0, share), cancel
    )
    for i, (rank, categories) in enumerate(sorted(plan.items()), 1):
        if cancel is not None:
            cancel.raise_if_cancelled()
        chosen = [r.id for r in rules("report") if r.category in categories and _chosen(r, only)]
        if not chosen:  # (only=[] would run every rule)
            continue
        report, why = _open_rank(cluster, rank, cancel)
        if report is None:
            result.warnings.append(f"rank {rank}: its rules did not run: {why}")
            continue
        part = ScaledProgress(progress, i * share, (i + 1) * share)
        sub = _run(ReportSubject(report), "report", str(report.source), chosen, part, cancel)
        result.findings.extend(replace(f, rank=rank) for f in sub.findings)
        result.rules_run.extend(r for r in sub.rules_run if r not in result.rules_run)
        result.warnings.extend(f"rank {rank}: {w}" for w in sub.warnings)
    progress.fraction(1.0)
    return result


def _chosen(r: Rule, only: Sequence[str] | None) -> bool:
    return not only or r.id in only or r.category in only


# --- the ranks msprof-analyze analyses in cluster mode -------------------------------------------------------

RATIO_THRESHOLD = 0.05  # msprof-analyze SlowRankAnalyzer / SlowLinkAnalyzer.RATIO_THRESHOLD
DEFAULT_STEP = "-1"  # msprof-analyze Constant.DEFAULT_STEP (a row without a step)
# our rule categories -> msprof-analyze's dimension whose rank(s) they run on (environment: the schedule
# dimension's rank, whose settings ours reads from its report; msprof-analyze reads them from the job folder)
DIMENSION_OF = {
    "compute": "computation",
    "schedule": "schedule",
    "environment": "schedule",
    "memory": "memory",
    "communication": "communication",
}


def analysed_ranks(cluster: Any) -> dict[str, list[int]]:
    """msprof-analyze advisor's choice of ranks in cluster mode, per dimension (``AnalyzerController``):

    - ``computation``: per pipeline stage (cluster_step_trace_time's stage rows) whose (step, rank) rows
      differ in ``Computing`` by RATIO_THRESHOLD of their mean or more, the stage's rank of the longest;
      without such a stage, the rank of the longest ``Computing`` of all rows (the same threshold);
    - ``schedule`` and ``memory``: the rank of the longest ``Free`` (the same threshold);
    - ``communication``: for SDMA and for RDMA, the rank of the (step, rank) with the lowest bandwidth
      (cluster_communication.json's transit sizes / times, summed over groups and operators; the same
      threshold);

    and where no rank stands out, the default rank (msprof-analyze: the first rank folder it lists; ours:
    the lowest rank)."""
    tables = cluster.tables
    rows = _step_rows(tables)
    known = sorted({r for _step, r, *_ in rows} | set(getattr(tables, "ranks", []) or []))
    known = known or sorted(getattr(cluster, "rank_paths", {}) or {})
    if not known:
        return {}
    default = known[0]
    compute = [(step, rank, c) for step, rank, c, _free in rows]
    free = [(step, rank, f) for step, rank, _c, f in rows]
    chosen_compute: list[int] = []
    for stage in getattr(tables, "stages", []) or []:
        hit = _extreme([x for x in compute if x[1] in stage], maximum=True)
        if hit is not None and hit not in chosen_compute:
            chosen_compute.append(hit)
    if not chosen_compute:
        hit = _extreme(compute, maximum=True)
        chosen_compute = [default if hit is None else hit]
    slow_free = _extreme(free, maximum=True)
    comm: list[int] = []
    for rows_bw in _bandwidth_rows(getattr(tables, "communication", {}) or {}):
        hit = _extreme(rows_bw, maximum=False)
        rank = default if hit is None else hit
        if rank not in comm:
            comm.append(rank)
    free_rank = default if slow_free is None else slow_free
    return {"computation": chosen_compute, "schedule": [free_rank], "memory": [free_rank], "communication": comm}


def _number(value: Any) -> float:
    try:
        return float(value)
    except (TypeError, ValueError):
        return 0.0


def _int(value: Any) -> int | None:
    try:
        return int(str(value).strip())
    except ValueError:
        return None


def _step_rows(tables: Any) -> list[tuple[str, int, float, float]]:
    """cluster_step_trace_time's rank rows as (step, rank, Computing, Free), summed per (step, rank) and
    sorted by (step, rank) as msprof-analyze's SlowRankAnalyzer.format_details has them."""
    header = list(getattr(tables, "step_header", []) or [])
    need = ("Step", "Type", "Index", "Computing", "Free")
    if not all(n in header for n in need):
        return []
    at = {n: header.index(n) for n in need}
    sums: dict[tuple[str, int], list[float]] = defaultdict(lambda: [0.0, 0.0])
    for row in getattr(tables, "step_rows", []) or []:
        if len(row) <= max(at.values()) or str(row[at["Type"]]).strip() != "rank":
            continue
        rank = _int(row[at["Index"]])
        if rank is None:
            continue
        step = str(row[at["Step"]]).replace(" ", "") or DEFAULT_STEP
        acc = sums[(step, rank)]
        acc[0] += _number(row[at["Computing"]])
        acc[1] += _number(row[at["Free"]])
    keyed = sorted(sums.items(), key=lambda kv: (_int(kv[0][0]) or 0, kv[0][1]))
    return [(step, rank, c, f) for (step, rank), (c, f) in keyed]


def _bandwidth_rows(communication: dict[str, Any]) -> list[list[tuple[str, int, float]]]:
    """Per transport (SDMA, then RDMA): (step, rank, bandwidth GB/s) of every (step, rank) of
    cluster_communication.json, as msprof-analyze's ClusterCommunicationDataset sums them (every group and
    operator, "Total Op Info" included), sorted by (step, rank)."""
    acc: dict[tuple[str, int], dict[str, list[float]]] = defaultdict(lambda: {"SDMA": [0.0, 0.0], "RDMA": [0.0, 0.0]})
    for group in communication.values():
        if not isinstance(group, dict):
            continue
        for step, ops in group.items():
            if not isinstance(ops, dict):
                continue
            key_step = re.sub(r"^[step]+", "", str(step).lower()) or DEFAULT_STEP  # str.lstrip("step")
            for op in ops.values():
                if not isinstance(op, dict):
                    continue
                for rank_id, info in op.items():
                    rank = _int(rank_id)
                    if rank is None or not isinstance(info, dict):
                        continue
                    entry = acc[(key_step, rank)]
                    for transport, bw in (info.get("Communication Bandwidth Info") or {}).items():
                        if transport in entry and isinstance(bw, dict):
                            entry[transport][0] += _number(bw.get("Transit Size(MB)"))
                            entry[transport][1] += _number(bw.get("Transit Time(ms)"))
    keyed = sorted(acc.items(), key=lambda kv: (_int(kv[0][0]) or 0, kv[0][1]))
    out = []
    for transport in ("SDMA", "RDMA"):
        rows = []
        for (step, rank), entry in keyed:
            size, time = entry[transport]
            rows.append((step, rank, round(size / time, 4) if abs(time) >= 1e-15 else 0.0))
        if rows:
            out.append(rows)
    return out


def _extreme(rows: Sequence[tuple[str, int, float]], *, maximum: bool) -> int | None:
    """The rank of the first row with the largest (smallest) value, or None when the values differ by less
    than RATIO_THRESHOLD of their mean (msprof-analyze's compute_max_gap_ratio) or there are none."""
    values = [v for _s, _r, v in rows]
    if not values:
        return None
    mean = sum(values) / len(values)
    if mean == 0 or (max(values) - min(values)) / mean < RATIO_THRESHOLD:
        return None
    return rows[values.index(max(values) if maximum else min(values))][1]


def _rank_plan(cluster: Any, only: Sequence[str] | None) -> dict[int, set[str]]:
    """rank -> the categories of report rules to run over its report (those ``only`` leaves)."""
    wanted = {r.category for r in rules("report") if _chosen(r, only)}
    if not wanted:
        return {}
    picked = analysed_ranks(cluster)
    plan: dict[int, set[str]] = defaultdict(set)
    for category in wanted:
        for rank in picked.get(DIMENSION_OF.get(category, ""), []):
            plan[rank].add(category)
    return dict(plan)


def _open_rank(cluster: Any, rank: int, cancel: CancelToken | None) -> tuple[Any, str]:
    """(the rank's report, "") or (None, why it has none here)."""
    from workbench.core.profiling.build import open_report
    from workbench.core.profiling.errors import ProfilingDataError

    info = next((r for r in getattr(cluster, "ranks", []) or [] if r.rank == rank), None)
    path = getattr(info, "path", "") if info is not None else ""
    if not path:
        return None, f"{cluster.source} names no folder for it (read without the ranks' folders)"
    host = getattr(info, "host", None)
    if host:
        return None, f"its folder {path} is on the remote host {host}"
    if not Path(path).is_dir():
        return None, f"its folder {path} is not on this machine"
    try:
        return open_report(path, cancel=cancel, use_cache=False), ""  # nothing written into the job's folders
    except (ProfilingDataError, OSError) as exc:
        return None, str(exc)
