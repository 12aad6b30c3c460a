"""Baseline comparison on cluster tables: two clusters (a baseline run and the current one), or two
ranks of one cluster, compared on msprof-analyze's ``cluster_step_trace_time`` rows (issue #20).

- **Rows**: per (rank, step), matched by rank id and step id, every time column of both sides (µs,
  exactly as the files have them), the change ``current - base`` and the ratio ``current / base``
  (None without a base value or with a base of 0). Ranks, steps and (rank, step) rows found on one
  side only are listed as such, and so are columns; the ``stage`` rows (a column-wise max of a stage's
  ranks) are not compared.
- **Rank means**: per rank the mean over its matched steps of each side and their difference;
  **column totals**: per column the sums over the matched rows.
- **Regressed ranks**: a rank regressed in a column when its mean change there exceeds the cluster's
  median change in that column (the median of the ranks' mean changes; 0 with fewer than three ranks,
  where no majority says what every rank shares) by more than :data:`REGRESSION_SHARE` of the rank's
  base step time (Computing + Communication (Not Overlapped) + Free, which split a step without
  overlap). Ranked are the columns of the rank's own time, :data:`RANKED`: Computing (its kernels) and
  Free (its idle gaps: the host side). Communication (Not Overlapped) is mostly waiting for the others —
  the ranks that wait for one slower rank all show it, and the slower rank waits less — so it is
  compared but not ranked (a slower link shows as a new slow link); the other columns count parts of
  these again (Communication = Communication (Not Overlapped) + Overlapped, Stage + Bubble = the step,
  Bubble inside Communication (Not Overlapped)). The median keeps a change every rank shares from
  being blamed on each rank.
- **Findings**: each side's slow ranks and slow links (:mod:`.findings`); those only in the current
  run are new problems, those only in the baseline are resolved.

:func:`compare_ranks` gives two ranks of one cluster the same shape: the first rank is the base side,
the second the current side, their rows matched by step.

msprof-analyze's peer is the recipe ``cluster_time_compare_summary`` (its table
``ClusterTimeCompareSummary``: per ``rank`` and ``step`` each column, its ``{column}Base`` and
``{column}Diff`` = current - base; unmatched rows dropped, with a warning). :func:`write_xlsx` names its
first sheet and columns that way (plus our ``{column}Ratio``); the other sheets are ours.
"""

from __future__ import annotations

import math
import os
import statistics
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from workbench.core.cluster.findings import Findings, SlowLink, SlowRank
from workbench.core.cluster.merge import COMPLEMENT, PARALLEL_HEADERS, ClusterTables, digits
from workbench.core.cluster.report import ClusterReport
from workbench.core.tasks import CancelToken, NullProgress, Progress, ScaledProgress

RANKED = ("Computing", "Free")  # a rank's own time: its kernels, its idle gaps
STEP = ("Computing", "Communication(Not Overlapped)", "Free")  # a step's time, split without overlap
REGRESSION_SHARE = 0.02  # a change beyond the cluster's by more than 2 % of the rank's step is a regression
NOT_TIMES = (*COMPLEMENT, *PARALLEL_HEADERS)
SUMMARY_SHEET = "ClusterTimeCompareSummary"  # msprof-analyze's table of cluster_time_compare_summary


class ClusterCompareError(ValueError):
    """Two clusters (or ranks) that cannot be compared: one line naming the cluster, rank or file."""


Values = tuple[float | None, ...]


@dataclass(frozen=True)
class RowDelta:
    """One matched (rank, step) row: per column of :attr:`ClusterComparison.columns` both values,
    the change and the ratio."""

    rank: int  # the current side's rank (compare_ranks: the second rank)
    step: str
    base: Values
    current: Values
    diff: Values
    ratio: Values
    base_rank: int  # the base side's rank (compare_clusters: the same rank)


@dataclass(frozen=True)
class RankDelta:
    """A rank's means over its matched steps (per column: base, current, their difference, ratio)."""

    rank: int
    base_rank: int
    steps: int
    base: Values
    current: Values
    diff: Values
    ratio: Values


@dataclass(frozen=True)
class ColumnTotal:
    column: str
    rows: int  # the matched rows that have the column on both sides
    base: float
    current: float
    diff: float
    ratio: float | None


@dataclass(frozen=True)
class Regression:
    """A rank whose mean change in ``column`` exceeds the cluster's median change by more than
    :data:`REGRESSION_SHARE` of its base step time."""

    rank: int
    base_rank: int
    column: str
    base_us: float  # the rank's base mean
    current_us: float
    diff_us: float  # current - base of the means
    cluster_diff_us: float  # the median of every matched rank's diff in this column (0: fewer than 3 ranks)
    step_us: float  # the rank's base step time (the sum of the STEP columns' base means)

    @property
    def excess_us(self) -> float:
        return self.diff_us - self.cluster_diff_us

    @property
    def ratio(self) -> float | None:
        return self.current_us / self.base_us if self.base_us else None


@dataclass
class FindingsDelta:
    base: Findings
    current: Findings
    new_ranks: list[SlowRank] = field(default_factory=list)  # slow in the current run only
    resolved_ranks: list[SlowRank] = field(default_factory=list)  # slow in the baseline only
    new_links: list[SlowLink] = field(default_factory=list)
    resolved_links: list[SlowLink] = field(default_factory=list)

    @property
    def persisting_ranks(self) -> list[SlowRank]:
        gone = {s.rank for s in self.new_ranks}
        return [s for s in self.current.slow_ranks if s.rank not in gone]

    @property
    def persisting_links(self) -> list[SlowLink]:
        gone = {_link_key(s) for s in self.new_links}
        return [s for s in self.current.slow_links if _link_key(s) not in gone]


@dataclass
class ClusterComparison:
    kind: str  # "clusters" or "ranks"
    base_source: str
    current_source: str
    columns: list[str]
    rows: list[RowDelta]
    rank_means: list[RankDelta]  # the most regressed rank first, then by rank
    totals: list[ColumnTotal]
    regressions: list[Regression]  # the largest excess first
    findings: FindingsDelta
    columns_only_base: list[str] = field(default_factory=list)
    columns_only_current: list[str] = field(default_factory=list)
    ranks_only_base: list[int] = field(default_factory=list)
    ranks_only_current: list[int] = field(default_factory=list)
    steps_only_base: list[str] = field(default_factory=list)
    steps_only_current: list[str] = field(default_factory=list)
    rows_only_base: list[tuple[int, str]] = field(default_factory=list)
    rows_only_current: list[tuple[int, str]] = field(default_factory=list)
    base_rank: int | None = None  # compare_ranks: the two ranks
    current_rank: int | None = None
    warnings: list[str] = field(default_factory=list)

    @property
    def regressed_ranks(self) -> list[int]:
        """The regressed ranks, the most regressed first (each once)."""
        return list(dict.fromkeys(r.rank for r in self.regressions))

    def column_index(self, column: str) -> int:
        return self.columns.index(column)


# ---- the rows of one side -----------------------------------------------------------------------------


def time_columns(header: list[str]) -> list[str]:
    """The step_trace_time columns that hold times (µs), in the file's order."""
    return [c for c in header if c not in NOT_TIMES]


def _number(value: Any) -> float | None:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    return value if math.isfinite(value) else None


def _step_key(step: str) -> tuple[int, int, str]:
    return (0, int(step), step) if digits(step) else (1, 0, step)


def _cells(tables: ClusterTables, columns: list[str], label: str, warnings: list[str]) -> dict[tuple[int, str], Values]:
    """(rank, step) -> the values of ``columns`` of a side's rank rows (the first of a repeated row)."""
    at = [tables.step_header.index(c) for c in columns]
    out: dict[tuple[int, str], Values] = {}
    repeated = 0
    for row in tables.step_rows:
        if len(row) < 3 or row[1] != "rank" or not isinstance(row[2], int) or isinstance(row[2], bool):
            continue
        key = (row[2], str(row[0]))
        if key in out:
            repeated += 1
            continue
        out[key] = tuple(_number(row[i]) if i < len(row) else None for i in at)
    if repeated:
        warnings.append(f"{label}: {repeated} repeated (rank, step) rows of cluster_step_trace_time; the first is kept")
    return out


def _diff(base: float | None, current: float | None) -> float | None:
    return None if base is None or current is None else current - base


def _ratio(base: float | None, current: float | None) -> float | None:
    return None if base is None or current is None or base == 0 else current / base


def _delta_row(rank: int, base_rank: int, step: str, base: Values, current: Values) -> RowDelta:
    return RowDelta(
        rank,
        step,
        base,
        current,
        tuple(_diff(b, c) for b, c in zip(base, current)),
        tuple(_ratio(b, c) for b, c in zip(base, current)),
        base_rank,
    )


# ---- what is derived from the matched rows -------------------------------------------------------------


def _pairs(rows: list[RowDelta], i: int) -> list[tuple[float, float]]:
    """Column ``i``'s (base, current) of the rows that have it on both sides."""
    return [(b, c) for r in rows if (b := r.base[i]) is not None and (c := r.current[i]) is not None]


def _rank_means(rows: list[RowDelta], n: int) -> list[RankDelta]:
    by_rank: dict[int, list[RowDelta]] = {}
    for row in rows:
        by_rank.setdefault(row.rank, []).append(row)
    out = []
    for rank, mine in sorted(by_rank.items()):
        base: list[float | None] = []
        current: list[float | None] = []
        for i in range(n):
            pairs = _pairs(mine, i)
            base.append(statistics.fmean(b for b, _ in pairs) if pairs else None)
            current.append(statistics.fmean(c for _, c in pairs) if pairs else None)
        out.append(
            RankDelta(
                rank,
                mine[0].base_rank,
                len(mine),
                tuple(base),
                tuple(current),
                tuple(_diff(b, c) for b, c in zip(base, current)),
                tuple(_ratio(b, c) for b, c in zip(base, current)),
            )
        )
    return out


def _totals(rows: list[RowDelta], columns: list[str]) -> list[ColumnTotal]:
    out = []
    for i, column in enumerate(columns):
        pairs = _pairs(rows, i)
        base = math.fsum(b for b, _ in pairs)
        current = math.fsum(c for _, c in pairs)
        out.append(ColumnTotal(column, len(pairs), base, current, current - base, _ratio(base, current)))
    return out


def _regressions(means: list[RankDelta], columns: list[str]) -> list[Regression]:
    ranked = [columns.index(c) for c in RANKED if c in columns]
    parts = [columns.index(c) for c in STEP if c in columns]
    cluster: dict[int, float] = {}
    for i in ranked:
        diffs = [d for m in means if (d := m.diff[i]) is not None]
        cluster[i] = statistics.median(diffs) if len(diffs) >= 3 else 0.0
    out = []
    for m in means:
        step = math.fsum(b for i in parts if (b := m.base[i]) is not None)
        for i in ranked:
            base, current, diff = m.base[i], m.current[i], m.diff[i]
            if base is None or current is None or diff is None:
                continue
            excess = diff - cluster[i]
            if excess > 0 and excess > REGRESSION_SHARE * step:
                out.append(Regression(m.rank, m.base_rank, columns[i], base, current, diff, cluster[i], step))
    out.sort(key=lambda r: (-r.excess_us, r.rank, r.column))
    return out


def _ordered(means: list[RankDelta], regressions: list[Regression]) -> list[RankDelta]:
    """The most regressed rank first (by its largest excess), then the others by rank."""
    worst: dict[int, float] = {}
    for r in regressions:
        worst.setdefault(r.rank, r.excess_us)
    return sorted(means, key=lambda m: (m.rank not in worst, -worst.get(m.rank, 0.0), m.rank))


def _link_key(link: SlowLink) -> tuple[int, int, str]:
    return (link.src, link.dst, link.transport)


def _findings_delta(base: Findings, current: Findings) -> FindingsDelta:
    base_ranks = {s.rank for s in base.slow_ranks}
    current_ranks = {s.rank for s in current.slow_ranks}
    base_links = {_link_key(s) for s in base.slow_links}
    current_links = {_link_key(s) for s in current.slow_links}
    return FindingsDelta(
        base,
        current,
        [s for s in current.slow_ranks if s.rank not in base_ranks],
        [s for s in base.slow_ranks if s.rank not in current_ranks],
        [s for s in current.slow_links if _link_key(s) not in base_links],
        [s for s in base.slow_links if _link_key(s) not in current_links],
    )


def _columns(base: ClusterTables, current: ClusterTables) -> tuple[list[str], list[str], list[str]]:
    b, c = time_columns(base.step_header), time_columns(current.step_header)
    return [x for x in c if x in b], [x for x in b if x not in c], [x for x in c if x not in b]


def _ranks_of(cells: dict[tuple[int, str], Values]) -> list[int]:
    return sorted({rank for rank, _ in cells})


def _steps_of(cells: dict[tuple[int, str], Values]) -> list[str]:
    return sorted({step for _, step in cells}, key=_step_key)


# ---- the two comparisons ------------------------------------------------------------------------------


def compare_clusters(base: ClusterReport, current: ClusterReport) -> ClusterComparison:
    """The current cluster against the baseline, row by row (see the module docstring)."""
    columns, only_base, only_current = _columns(base.tables, current.tables)
    warnings: list[str] = []
    if not columns:
        raise ClusterCompareError(
            f"{current.source} and {base.source}: no cluster_step_trace_time column in common "
            f"({', '.join(time_columns(current.tables.step_header)) or 'none'} vs "
            f"{', '.join(time_columns(base.tables.step_header)) or 'none'})"
        )
    b = _cells(base.tables, columns, f"baseline {base.source}", warnings)
    c = _cells(current.tables, columns, f"current {current.source}", warnings)
    rows = [
        _delta_row(rank, rank, step, b[(rank, step)], values) for (rank, step), values in c.items() if (rank, step) in b
    ]
    rows.sort(key=lambda r: (r.rank, _step_key(r.step)))
    if not rows:
        raise ClusterCompareError(
            f"{current.source} and {base.source}: no (rank, step) row in common "
            f"(ranks {_ranks_of(c)} steps {_steps_of(c)} vs ranks {_ranks_of(b)} steps {_steps_of(b)})"
        )
    means = _rank_means(rows, len(columns))
    regressions = _regressions(means, columns)
    b_ranks, c_ranks = set(_ranks_of(b)), set(_ranks_of(c))
    b_steps, c_steps = set(_steps_of(b)), set(_steps_of(c))
    return ClusterComparison(
        "clusters",
        base.source,
        current.source,
        columns,
        rows,
        _ordered(means, regressions),
        _totals(rows, columns),
        regressions,
        _findings_delta(base.findings, current.findings),
        only_base,
        only_current,
        sorted(b_ranks - c_ranks),
        sorted(c_ranks - b_ranks),
        sorted(b_steps - c_steps, key=_step_key),
        sorted(c_steps - b_steps, key=_step_key),
        sorted((k for k in b if k not in c), key=lambda k: (k[0], _step_key(k[1]))),
        sorted((k for k in c if k not in b), key=lambda k: (k[0], _step_key(k[1]))),
        warnings=warnings,
    )


def _about(findings: Findings, rank: int) -> Findings:
    return Findings(
        [s for s in findings.slow_ranks if s.rank == rank],
        [s for s in findings.slow_links if rank in (s.src, s.dst)],
    )


def compare_ranks(report: ClusterReport, rank_a: int, rank_b: int) -> ClusterComparison:
    """Rank ``rank_b`` against rank ``rank_a`` of one cluster, step by step: the same shape as
    :func:`compare_clusters` (``rank_a`` is the base side); the findings are those naming each rank."""
    if rank_a == rank_b:
        raise ClusterCompareError(f"rank {rank_a}: compare two different ranks")
    columns = time_columns(report.tables.step_header)
    warnings: list[str] = []
    cells = _cells(report.tables, columns, report.source, warnings)
    ranks = _ranks_of(cells)
    for rank in (rank_a, rank_b):
        if rank not in ranks:
            raise ClusterCompareError(
                f"rank {rank}: {report.source} has no cluster_step_trace_time rows of it (ranks: "
                f"{', '.join(map(str, ranks)) or 'none'})"
            )
    a = {step: v for (rank, step), v in cells.items() if rank == rank_a}
    b = {step: v for (rank, step), v in cells.items() if rank == rank_b}
    rows = [_delta_row(rank_b, rank_a, step, a[step], b[step]) for step in sorted(b, key=_step_key) if step in a]
    if not rows:
        raise ClusterCompareError(
            f"ranks {rank_a} and {rank_b} of {report.source}: no step in common "
            f"({', '.join(sorted(a, key=_step_key))} vs {', '.join(sorted(b, key=_step_key))})"
        )
    means = _rank_means(rows, len(columns))
    regressions = _regressions(means, columns)
    return ClusterComparison(
        "ranks",
        report.source,
        report.source,
        columns,
        rows,
        means,
        _totals(rows, columns),
        regressions,
        FindingsDelta(_about(report.findings, rank_a), _about(report.findings, rank_b)),
        steps_only_base=sorted((s for s in a if s not in b), key=_step_key),
        steps_only_current=sorted((s for s in b if s not in a), key=_step_key),
        rows_only_base=[(rank_a, s) for s in sorted(a, key=_step_key) if s not in b],
        rows_only_current=[(rank_b, s) for s in sorted(b, key=_step_key) if s not in a],
        base_rank=rank_a,
        current_rank=rank_b,
        warnings=warnings,
    )


# ---- work functions: open, then compare ---------------------------------------------------------------


def _open(path: str | os.PathLike[str], progress: Progress, cancel: CancelToken) -> ClusterReport:
    from workbench.core.cluster import analyze

    return analyze.open_cluster(path, write=False, progress=progress, cancel=cancel).report


def compare_with(
    base_path: str | os.PathLike[str],
    current: ClusterReport,
    progress: Progress | None = None,
    cancel: CancelToken | None = None,
) -> ClusterComparison:
    """Work function: open the baseline at ``base_path`` (whatever ``analyze.open_cluster`` opens,
    nothing written) and compare ``current`` with it."""
    progress = progress or NullProgress()
    cancel = cancel or CancelToken()
    base = _open(base_path, progress, cancel)
    cancel.raise_if_cancelled()
    return compare_clusters(base, current)


def compare_paths(
    base_path: str | os.PathLike[str],
    current_path: str | os.PathLike[str],
    progress: Progress | None = None,
    cancel: CancelToken | None = None,
) -> ClusterComparison:
    """Work function: open both clusters (nothing written) and compare them."""
    progress = progress or NullProgress()
    cancel = cancel or CancelToken()
    base = _open(base_path, ScaledProgress(progress, 0.0, 0.5), cancel)
    current = _open(current_path, ScaledProgress(progress, 0.5, 1.0), cancel)
    return compare_clusters(base, current)


# ---- what the CLI prints ------------------------------------------------------------------------------


def _values(columns: list[str], values: Values) -> dict[str, float | None]:
    return dict(zip(columns, values))


def _slow_rank(s: SlowRank) -> dict[str, Any]:
    return {
        "rank": s.rank,
        "step": s.step,
        "computing_us": s.computing_us,
        "median_us": s.median_us,
        "excess_us": s.excess_us,
        "peers": list(s.peers),
    }


def _slow_link(s: SlowLink) -> dict[str, Any]:
    return {
        "src": s.src,
        "dst": s.dst,
        "transport": s.transport,
        "bandwidth_gb_s": s.bandwidth,
        "median_gb_s": s.median,
    }


def as_dict(c: ClusterComparison) -> dict[str, Any]:
    """The comparison as plain JSON values (the CLI's ``--json``)."""
    f = c.findings
    return {
        "kind": c.kind,
        "base": c.base_source,
        "current": c.current_source,
        "base_rank": c.base_rank,
        "current_rank": c.current_rank,
        "columns": c.columns,
        "columns_only_base": c.columns_only_base,
        "columns_only_current": c.columns_only_current,
        "ranks_only_base": c.ranks_only_base,
        "ranks_only_current": c.ranks_only_current,
        "steps_only_base": c.steps_only_base,
        "steps_only_current": c.steps_only_current,
        "rows_only_base": [{"rank": r, "step": s} for r, s in c.rows_only_base],
        "rows_only_current": [{"rank": r, "step": s} for r, s in c.rows_only_current],
        "regressed_ranks": c.regressed_ranks,
        "regressions": [
            {
                "rank": r.rank,
                "column": r.column,
                "base_us": r.base_us,
                "current_us": r.current_us,
                "diff_us": r.diff_us,
                "cluster_diff_us": r.cluster_diff_us,
                "excess_us": r.excess_us,
                "step_us": r.step_us,
                "ratio": r.ratio,
            }
            for r in c.regressions
        ],
        "totals": [
            {"column": t.column, "rows": t.rows, "base": t.base, "current": t.current, "diff": t.diff, "ratio": t.ratio}
            for t in c.totals
        ],
        "rank_means": [
            {
                "rank": m.rank,
                "steps": m.steps,
                "base": _values(c.columns, m.base),
                "current": _values(c.columns, m.current),
                "diff": _values(c.columns, m.diff),
                "ratio": _values(c.columns, m.ratio),
            }
            for m in c.rank_means
        ],
        "rows": [
            {
                "rank": r.rank,
                "step": r.step,
                "base": _values(c.columns, r.base),
                "current": _values(c.columns, r.current),
                "diff": _values(c.columns, r.diff),
                "ratio": _values(c.columns, r.ratio),
            }
            for r in c.rows
        ],
        "findings": {
            "new_slow_ranks": [_slow_rank(s) for s in f.new_ranks],
            "resolved_slow_ranks": [_slow_rank(s) for s in f.resolved_ranks],
            "persisting_slow_ranks": [_slow_rank(s) for s in f.persisting_ranks],
            "new_slow_links": [_slow_link(s) for s in f.new_links],
            "resolved_slow_links": [_slow_link(s) for s in f.resolved_links],
            "persisting_slow_links": [_slow_link(s) for s in f.persisting_links],
        },
        "warnings": c.warnings,
    }


def _pct(ratio: float | None) -> str:
    return "n/a" if ratio is None else f"{(ratio - 1.0) * 100:+.2f}%"


def _listed(items: list[Any]) -> str:
    return ", ".join(map(str, items))


def as_text(c: ClusterComparison, written: str | None = None) -> str:
    """The comparison as the CLI prints it: what was compared, the regressed ranks and columns, the
    column totals, the new and resolved findings, what one side only has."""
    f = c.findings
    lines = [
        f"baseline: {c.base_source}",
        f"current:  {c.current_source}",
        f"compared: {len({r.rank for r in c.rows})} ranks, {len({r.step for r in c.rows})} steps, "
        f"{len(c.rows)} rows, {len(c.columns)} columns (us)",
    ]
    if c.regressions:
        lines.append(
            "regressed ranks (mean change beyond the cluster's median change by more than "
            f"{REGRESSION_SHARE * 100:g}% of the rank's step):"
        )
        for r in c.regressions:
            lines.append(
                f"  rank {r.rank}: {r.column} {r.diff_us:+.3f} us ({r.base_us:.3f} -> {r.current_us:.3f} us, "
                f"{_pct(r.ratio)}); the cluster's median change {r.cluster_diff_us:+.3f} us, "
                f"excess {r.excess_us:+.3f} us"
            )
    else:
        lines.append("regressed ranks: none")
    lines.append("column totals (us, over the compared rows):")
    for t in c.totals:
        lines.append(f"  {t.column}: {t.base:.3f} -> {t.current:.3f} ({t.diff:+.3f}, {_pct(t.ratio)})")
    for title, ranks, links in (
        ("new problems", f.new_ranks, f.new_links),
        ("resolved", f.resolved_ranks, f.resolved_links),
    ):
        if not ranks and not links:
            lines.append(f"{title}: none")
            continue
        lines.append(f"{title}:")
        for s in ranks:
            lines.append(
                f"  slow rank {s.rank}: Computing {s.computing_us:.3f} us in step {s.step} vs the median "
                f"{s.median_us:.3f} us of its peers (+{s.excess_us:.3f} us)"
            )
        for link in links:
            lines.append(
                f"  slow link {link.src} -> {link.dst} ({link.transport}): {link.bandwidth:.4f} GB/s vs the median "
                f"{link.median:.4f} GB/s of its transport"
            )
    for label, items in (
        ("columns only in the baseline", c.columns_only_base),
        ("columns only in the current", c.columns_only_current),
        ("ranks only in the baseline", c.ranks_only_base),
        ("ranks only in the current", c.ranks_only_current),
        ("steps only in the baseline", c.steps_only_base),
        ("steps only in the current", c.steps_only_current),
    ):
        if items:
            lines.append(f"{label}: {_listed(items)}")
    for label, pairs in (("baseline", c.rows_only_base), ("current", c.rows_only_current)):
        if pairs:
            lines.append(f"rows only in the {label}: {len(pairs)} (rank, step) rows, not compared")
    for w in c.warnings:
        lines.append(f"warning: {w}")
    if written:
        lines.append(f"wrote {written}")
    return "\n".join(lines) + "\n"


# ---- the Excel workbook -------------------------------------------------------------------------------


def check_out(out: str | os.PathLike[str], force: bool) -> Path:
    """Refuse an ``--out`` that is no .xlsx name, or exists without ``force`` (before any work)."""
    from workbench.core.fsutil import refuse_existing

    path = Path(out)
    if path.suffix.lower() != ".xlsx":
        raise ClusterCompareError(f"--out {out}: expected an .xlsx file name")
    refuse_existing(path, force)
    return path


def _sheet(book: Any, title: str, header: list[str], rows: list[list[Any]]) -> None:
    from openpyxl.cell import WriteOnlyCell
    from openpyxl.styles import Font

    sheet = book.create_sheet(title)
    sheet.freeze_panes = "A2"
    bold = Font(bold=True)
    cells = []
    for name in header:
        cell = WriteOnlyCell(sheet, name)
        cell.font = bold
        cells.append(cell)
    sheet.append(cells)
    for row in rows:
        sheet.append(row)


def _findings_rows(f: FindingsDelta) -> list[list[Any]]:
    out: list[list[Any]] = []
    for status, ranks, links in (
        ("new", f.new_ranks, f.new_links),
        ("resolved", f.resolved_ranks, f.resolved_links),
        ("persisting", f.persisting_ranks, f.persisting_links),
    ):
        for s in ranks:
            out.append([status, "slow rank", str(s.rank), s.step, s.computing_us, s.median_us, "us"])
        for link in links:
            out.append(
                [
                    status,
                    "slow link",
                    f"{link.src}-{link.dst} {link.transport}",
                    "",
                    link.bandwidth,
                    link.median,
                    "GB/s",
                ]
            )
    return out


def write_xlsx(
    comparison: ClusterComparison,
    out: str | os.PathLike[str],
    *,
    force: bool = False,
    progress: Progress | None = None,
    cancel: CancelToken | None = None,
) -> Path:
    """Write the comparison to ``out`` (.xlsx, atomically; an existing file only with ``force``).

    Sheets: ``ClusterTimeCompareSummary`` (msprof-analyze's: ``rank``, ``step``, then per column the
    current value under the column's name, ``{column}Base``, ``{column}Diff`` and our ``{column}Ratio``),
    ``RankMeans`` (the same per rank, means over its steps, with ``steps``), ``ColumnTotals``,
    ``RegressedRanks``, ``Findings``, ``Unmatched`` (what one side only has), ``Sources`` and ``Warnings``."""
    from openpyxl import Workbook

    from workbench.core.fsutil import atomic_open, refuse_inputs

    progress = progress or NullProgress()
    cancel = cancel or CancelToken()
    path = check_out(out, force)
    refuse_inputs(path, [comparison.base_source, comparison.current_source], inside=False)
    c = comparison
    progress.status(f"Writing {path.name}")
    per_column = [name for col in c.columns for name in (col, f"{col}Base", f"{col}Diff", f"{col}Ratio")]

    def spread(base: Values, current: Values, diff: Values, ratio: Values) -> list[Any]:
        return [v for i in range(len(c.columns)) for v in (current[i], base[i], diff[i], ratio[i])]

    book = Workbook(write_only=True)
    _sheet(
        book,
        SUMMARY_SHEET,
        ["rank", "step", *per_column],
        [[r.rank, r.step, *spread(r.base, r.current, r.diff, r.ratio)] for r in c.rows],
    )
    cancel.raise_if_cancelled()
    _sheet(
        book,
        "RankMeans",
        ["rank", "steps", *per_column],
        [[m.rank, m.steps, *spread(m.base, m.current, m.diff, m.ratio)] for m in c.rank_means],
    )
    _sheet(
        book,
        "ColumnTotals",
        ["column", "rows", "current", "base", "diff", "ratio"],
        [[t.column, t.rows, t.current, t.base, t.diff, t.ratio] for t in c.totals],
    )
    _sheet(
        book,
        "RegressedRanks",
        ["rank", "column", "current", "base", "diff", "clusterDiff", "excess", "ratio", "stepBase"],
        [
            [r.rank, r.column, r.current_us, r.base_us, r.diff_us, r.cluster_diff_us, r.excess_us, r.ratio, r.step_us]
            for r in c.regressions
        ],
    )
    _sheet(
        book,
        "Findings",
        ["status", "finding", "subject", "step", "value", "median", "unit"],
        _findings_rows(c.findings),
    )
    unmatched: list[list[Any]] = []
    for side, cols, ranks, steps, pairs in (
        ("baseline", c.columns_only_base, c.ranks_only_base, c.steps_only_base, c.rows_only_base),
        ("current", c.columns_only_current, c.ranks_only_current, c.steps_only_current, c.rows_only_current),
    ):
        unmatched += [[side, "column", col, None, None] for col in cols]
        unmatched += [[side, "rank", None, rank, None] for rank in ranks]
        unmatched += [[side, "step", None, None, step] for step in steps]
        unmatched += [[side, "row", None, rank, step] for rank, step in pairs]
    _sheet(book, "Unmatched", ["side", "what", "column", "rank", "step"], unmatched)
    sources = [["baseline", c.base_source, c.base_rank], ["current", c.current_source, c.current_rank]]
    _sheet(book, "Sources", ["side", "source", "rank"], sources)
    _sheet(book, "Warnings", ["#", "warning"], [[n, w] for n, w in enumerate(c.warnings, 1)])
    with atomic_open(path, "wb", encoding=None) as fh:
        book.save(fh)
    progress.fraction(1.0)
    return path
