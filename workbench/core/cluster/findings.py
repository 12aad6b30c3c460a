"""Slow ranks and slow links of a merged cluster, each with the evidence that names it.

- **Slow rank**: per step, a rank whose ``Computing`` exceeds the median of its peers (its pipeline
  stage's ranks, or every rank when the job has no stages) by more than :data:`RANK_THRESHOLD`. That
  is the cause; the symptom is in the others: the ranks sharing a communication group with it wait
  for it (their ``Wait Time(ms)`` in ``Total Op Info`` is larger than its own), which the finding
  quotes. A rank is listed once, with its worst step and how many steps it was slow in.
- **Slow link**: the ``Total Op Info`` links of the matrix (src != dst), summed over steps and groups
  per (src, dst, transport); a link whose bandwidth is below :data:`LINK_THRESHOLD` of the median of
  its transport's links is slow.

The thresholds follow msprof-analyze's advisor in spirit (it flags a max-min gap over 5% of the mean);
comparing with the median keeps one outlier from hiding behind itself.
"""

from __future__ import annotations

import statistics
from collections import defaultdict
from dataclasses import dataclass, field

from workbench.core.cluster.merge import TIME_INFO, TOTAL_OP, ClusterTables, digits, num

RANK_THRESHOLD = 0.05  # Computing above the peers' median by more than 5%
LINK_THRESHOLD = 0.7  # bandwidth under 70% of its transport's median


@dataclass(frozen=True)
class SlowRank:
    rank: int
    step: str  # the worst step
    peers: tuple[int, ...]  # the ranks it was compared with (its stage, or all)
    computing_us: float
    median_us: float
    slow_steps: int
    steps: int
    others_wait_ms: float | None  # mean Total Op Info wait of the ranks sharing its groups
    own_wait_ms: float | None

    @property
    def excess_us(self) -> float:
        return self.computing_us - self.median_us

    @property
    def ratio(self) -> float:
        return self.computing_us / self.median_us if self.median_us else float("inf")


@dataclass(frozen=True)
class SlowLink:
    src: int
    dst: int
    transport: str
    bandwidth: float  # GB/s
    median: float  # GB/s of the transport's links
    size_mb: float
    time_ms: float
    ops: tuple[str, ...] = ()

    @property
    def ratio(self) -> float:
        return self.bandwidth / self.median if self.median else 0.0


@dataclass
class Findings:
    slow_ranks: list[SlowRank] = field(default_factory=list)
    slow_links: list[SlowLink] = field(default_factory=list)


def _column(tables: ClusterTables, name: str) -> int | None:
    return tables.step_header.index(name) if name in tables.step_header else None


def _is_rank(key: object) -> bool:
    return isinstance(key, int) or (isinstance(key, str) and digits(key))


def _waits(tables: ClusterTables) -> tuple[dict[int, float], dict[int, set[int]]]:
    """Each rank's Total Op Info wait (ms, summed) and the ranks it shares a group with."""
    wait: dict[int, float] = defaultdict(float)
    peers: dict[int, set[int]] = defaultdict(set)
    for steps in tables.communication.values():
        if not isinstance(steps, dict):
            continue
        for ops in steps.values():
            for name, by_rank in ops.items():
                if not name.startswith(TOTAL_OP) or not isinstance(by_rank, dict):
                    continue
                ranks = [int(r) for r in by_rank if _is_rank(r)]
                for r, info in by_rank.items():
                    if not _is_rank(r):
                        continue
                    times = info.get(TIME_INFO, {}) if isinstance(info, dict) else {}
                    wait[int(r)] += num(times.get("Wait Time(ms)", 0)) if isinstance(times, dict) else 0.0
                    peers[int(r)].update(x for x in ranks if x != int(r))
    return wait, peers


def slow_ranks(tables: ClusterTables, threshold: float = RANK_THRESHOLD) -> list[SlowRank]:
    at = _column(tables, "Computing")
    if at is None:
        return []
    stage_of = {r: tuple(sorted(s)) for s in tables.stages for r in s}
    by_step: dict[tuple[str, tuple[int, ...]], list[tuple[int, float]]] = defaultdict(list)
    rows = [r for r in tables.step_rows if len(r) > 2 and r[1] == "rank" and isinstance(r[2], int)]
    all_ranks = tuple(sorted({row[2] for row in rows}))
    for row in rows:
        if len(row) <= at or not isinstance(row[at], (int, float)):
            continue
        by_step[(row[0], stage_of.get(row[2], all_ranks))].append((row[2], float(row[at])))
    hits: dict[int, list[tuple[float, str, tuple[int, ...], float, float]]] = defaultdict(list)
    steps_of: dict[int, int] = defaultdict(int)
    for (step, peers), values in by_step.items():
        if len(values) < 3:  # two ranks: no majority says which one is slow
            continue
        median = statistics.median(v for _, v in values)
        for rank, value in values:
            steps_of[rank] += 1
            if median > 0 and value > median * (1 + threshold):
                hits[rank].append((value - median, step, peers, value, median))
    wait, shared = _waits(tables)
    out = []
    for rank, found in hits.items():
        _excess, step, peers, value, median = max(found)
        others = [wait[r] for r in shared.get(rank, ()) if r in wait]
        out.append(
            SlowRank(
                rank,
                step,
                peers,
                value,
                median,
                len(found),
                steps_of[rank],
                statistics.fmean(others) if others else None,
                wait.get(rank),
            )
        )
    out.sort(key=lambda s: -s.excess_us)
    return out


def link_totals(tables: ClusterTables) -> dict[tuple[int, int, str], tuple[float, float, set[str]]]:
    """(src, dst, transport) -> (size MB, time ms, op names) of the matrix's Total Op Info links."""
    acc: dict[tuple[int, int, str], list] = {}
    for steps in tables.matrix.values():
        if not isinstance(steps, dict):
            continue
        for ops in steps.values():
            for name, links in ops.items():
                if not name.startswith(TOTAL_OP) or not isinstance(links, dict):
                    continue
                for key, link in links.items():
                    src, _, dst = key.partition("-")
                    if not (digits(src) and digits(dst)) or src == dst or not isinstance(link, dict):
                        continue
                    k = (int(src), int(dst), str(link.get("Transport Type") or ""))
                    entry = acc.setdefault(k, [0.0, 0.0, set()])
                    entry[0] += num(link.get("Transit Size(MB)", 0))
                    entry[1] += num(link.get("Transit Time(ms)", 0))
                    if link.get("Op Name"):
                        entry[2].add(str(link["Op Name"]))
    return {k: (v[0], v[1], v[2]) for k, v in acc.items()}


def slow_links(tables: ClusterTables, threshold: float = LINK_THRESHOLD) -> list[SlowLink]:
    totals = link_totals(tables)
    by_transport: dict[str, list[tuple[tuple[int, int, str], float]]] = defaultdict(list)
    for key, (size, time, _ops) in totals.items():
        if time > 0 and size > 0:
            by_transport[key[2]].append((key, size / time))
    out = []
    for transport, links in by_transport.items():
        if len(links) < 3:
            continue
        median = statistics.median(bw for _, bw in links)
        for key, bw in links:
            if bw < median * threshold:
                size, time, ops = totals[key]
                out.append(
                    SlowLink(key[0], key[1], transport, round(bw, 4), round(median, 4), size, time, tuple(sorted(ops)))
                )
    out.sort(key=lambda s: s.ratio)
    return out


def find(tables: ClusterTables) -> Findings:
    return Findings(slow_ranks(tables), slow_links(tables))
