"""Tables the Cluster document and ``cluster show`` display, derived from the merged tables.

- :func:`step_grid`: one step_trace_time column as a rank × step grid (the heatmap);
- :func:`breakdown`: per rank, the mean over steps (or one step) of Computing, Communication (Not
  Overlapped), Free and Bubble (the stacked bars);
- :func:`group_rows`: the communication groups (type, parallel name, hash, ranks);
- :func:`op_rows` / :func:`op_summary`: per group, step and operator each rank's elapse / wait /
  transit / synchronization time, and per operator the rank the others waited for (the one with the
  least wait) and by how much (the largest wait minus the least);
- :func:`link_rows`: the matrix's links summed over steps (bandwidth per src → dst and transport);
- :func:`link_matrix`: the Matrix tab's src × dst grid for one transport or all of them (``transport``
  None; ``""`` is the transport of links whose data names none): per cell its links and one bandwidth,
  the cell's sizes summed over its links divided by their times summed (for all transports: the pair's
  traffic over every transport), and the slow links of that transport; :func:`matrix_transports` the
  transports it can be asked for.
"""

from __future__ import annotations

import statistics
from collections.abc import Sequence
from dataclasses import dataclass, field

from workbench.core.cluster.findings import SlowLink, link_totals
from workbench.core.cluster.merge import TIME_INFO, TOTAL_OP, ClusterTables, digits, num, ratio

STACK = ("Computing", "Communication(Not Overlapped)", "Free", "Bubble")


@dataclass(frozen=True)
class Grid:
    column: str
    ranks: list[int]
    steps: list[str]
    values: list[list[float | None]]  # [rank][step]


def _rank_rows(tables: ClusterTables) -> list[list]:
    return [r for r in tables.step_rows if len(r) > 2 and r[1] == "rank" and isinstance(r[2], int)]


def steps_of(tables: ClusterTables) -> list[str]:
    seen: dict[str, None] = {}
    for row in _rank_rows(tables):
        seen.setdefault(str(row[0]), None)
    return sorted(seen, key=lambda s: (0, int(s)) if digits(s) else (1, s))


def step_grid(tables: ClusterTables, column: str) -> Grid:
    at = tables.step_header.index(column) if column in tables.step_header else None
    ranks = sorted({r[2] for r in _rank_rows(tables)})
    steps = steps_of(tables)
    cells: dict[tuple[int, str], float] = {}
    if at is not None:
        for row in _rank_rows(tables):
            if len(row) > at and isinstance(row[at], (int, float)):
                cells[(row[2], str(row[0]))] = float(row[at])
    return Grid(column, ranks, steps, [[cells.get((r, s)) for s in steps] for r in ranks])


def breakdown(tables: ClusterTables, step: str | None = None) -> tuple[list[int], dict[str, list[float]]]:
    """Ranks and, per :data:`STACK` column, each rank's mean over the steps (or ``step``'s value)."""
    ranks = sorted({r[2] for r in _rank_rows(tables)})
    out: dict[str, list[float]] = {}
    for column in STACK:
        grid = step_grid(tables, column)
        pick = [grid.steps.index(step)] if step is not None and step in grid.steps else range(len(grid.steps))
        means = []
        for row in grid.values:
            vals = [row[i] for i in pick if row[i] is not None]
            means.append(statistics.fmean(vals) if vals else 0.0)  # type: ignore[arg-type]
        out[column] = means
    return ranks, out


def _ranks(value: object) -> list[int]:
    return [r for r in value if isinstance(r, int)] if isinstance(value, list) else []


def group_rows(tables: ClusterTables) -> list[tuple[str, str, str, list[int]]]:
    """(type, parallel group name, group hash, ranks) of every communication group."""
    records = tables.groups.get("comm_group_parallel_info")
    if isinstance(records, list) and records:
        return [
            (
                str(r.get("type", "")),
                str(r.get("pg_name", "")),
                str(r.get("group_name", "")),
                list(r.get("rank_set", [])),
            )
            for r in records
            if isinstance(r, dict)
        ]
    out = []
    for kind in ("collective", "p2p"):
        for ranks in tables.groups.get(kind, []):
            out.append((kind, "", "", sorted(ranks)))
    return out


@dataclass(frozen=True)
class OpRow:
    group: str  # the rank tuple's text, "(0, 1)"
    step: str
    op: str
    rank: int
    elapse_ms: float
    wait_ms: float
    transit_ms: float
    sync_ms: float
    idle_ms: float
    wait_ratio: float


def op_rows(tables: ClusterTables, *, totals: bool = False) -> list[OpRow]:
    out = []
    for group, steps in tables.communication.items():
        if not isinstance(steps, dict):
            continue
        for step, ops in steps.items():
            if not isinstance(ops, dict):
                continue
            for op, by_rank in ops.items():
                if op.startswith(TOTAL_OP) != totals or not isinstance(by_rank, dict):
                    continue
                for rank, info in by_rank.items():
                    if not (isinstance(rank, int) or (isinstance(rank, str) and digits(rank))):
                        continue
                    t = info.get(TIME_INFO) if isinstance(info, dict) else None
                    t = t if isinstance(t, dict) else {}

                    def f(key: str, t: dict = t) -> float:
                        return float(num(t.get(key, 0)))

                    out.append(
                        OpRow(
                            group,
                            str(step),
                            op,
                            int(rank),
                            f("Elapse Time(ms)"),
                            f("Wait Time(ms)"),
                            f("Transit Time(ms)"),
                            f("Synchronization Time(ms)"),
                            f("Idle Time(ms)"),
                            ratio(f("Wait Time(ms)"), f("Wait Time(ms)") + f("Transit Time(ms)")),
                        )
                    )
    return out


@dataclass(frozen=True)
class OpSummary:
    group: str
    step: str
    op: str
    ranks: int
    max_elapse_ms: float
    waited_for: int  # the rank with the least wait: the others waited for it
    wait_spread_ms: float  # the largest wait minus the least


def op_summary(tables: ClusterTables) -> list[OpSummary]:
    by_op: dict[tuple[str, str, str], list[OpRow]] = {}
    for row in op_rows(tables):
        by_op.setdefault((row.group, row.step, row.op), []).append(row)
    out = []
    for (group, step, op), rows in by_op.items():
        least = min(rows, key=lambda r: (r.wait_ms, r.rank))
        out.append(
            OpSummary(
                group,
                step,
                op,
                len(rows),
                max(r.elapse_ms for r in rows),
                least.rank,
                max(r.wait_ms for r in rows) - least.wait_ms,
            )
        )
    out.sort(key=lambda s: -s.wait_spread_ms)
    return out


@dataclass(frozen=True)
class LinkRow:
    src: int
    dst: int
    transport: str
    size_mb: float
    time_ms: float
    bandwidth: float


def link_rows(tables: ClusterTables) -> list[LinkRow]:
    return [
        LinkRow(src, dst, transport, size, time, ratio(size, time))
        for (src, dst, transport), (size, time, _ops) in sorted(link_totals(tables).items())
    ]


@dataclass(frozen=True)
class MatrixCell:
    """One src → dst cell: its links (one per transport shown) and their bandwidth together (GB/s)."""

    src: int
    dst: int
    links: tuple[LinkRow, ...]
    size_mb: float
    time_ms: float
    bandwidth: float


@dataclass(frozen=True)
class LinkMatrix:
    """The Matrix tab's grid: ``ranks`` are its rows (src) and columns (dst); ``cells`` keyed by (row,
    column) index, only where a link is; ``slow``: the slow links of the transport shown, on the grid."""

    transport: str | None  # None: every transport
    ranks: list[int]
    cells: dict[tuple[int, int], MatrixCell] = field(default_factory=dict)
    slow: list[SlowLink] = field(default_factory=list)

    def index(self, rank: int) -> int | None:
        return self.ranks.index(rank) if rank in self.ranks else None


def matrix_transports(links: Sequence[LinkRow]) -> list[str]:
    """The transports the links use, sorted (``""``: a link whose transport the data does not name)."""
    return sorted({link.transport for link in links})


def link_matrix(
    tables: ClusterTables,
    transport: str | None = None,
    slow_links: Sequence[SlowLink] = (),
    links: Sequence[LinkRow] | None = None,
) -> LinkMatrix:
    """The src × dst grid of ``transport``'s links (None: every transport, a cell's
    bandwidth the sum of its links' sizes over the sum of their times); the rows and columns are every
    rank of the cluster and every rank a link names. ``links``: :func:`link_rows` of ``tables`` when
    the caller has them already."""
    rows = list(link_rows(tables) if links is None else links)
    ranks = sorted({*tables.ranks, *(r.src for r in rows), *(r.dst for r in rows)})
    at = {rank: i for i, rank in enumerate(ranks)}
    chosen: dict[tuple[int, int], list[LinkRow]] = {}
    for link in rows:
        if transport is None or link.transport == transport:
            chosen.setdefault((at[link.src], at[link.dst]), []).append(link)
    cells = {}
    for (i, j), group in chosen.items():
        size = sum(r.size_mb for r in group)
        time = sum(r.time_ms for r in group)
        cells[(i, j)] = MatrixCell(ranks[i], ranks[j], tuple(group), size, time, ratio(size, time))
    slow = [s for s in slow_links if (transport is None or s.transport == transport) and s.src in at and s.dst in at]
    return LinkMatrix(transport, ranks, cells, slow)
