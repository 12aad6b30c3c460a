"""Aggregations the tools write next to the per-task tables (op_statistic, api_statistic, task_time).

Computed from integer ns so a file's totals equal the sum of the rows it summarises.
"""

from __future__ import annotations

from dataclasses import dataclass

from .schedule import HostEvent, Task


@dataclass
class Agg:
    key: tuple
    count: int
    total_ns: int
    min_ns: int
    max_ns: int
    sq_us: float  # sum of squared µs, for the variance

    @property
    def avg_us(self) -> float:
        return self.total_ns / self.count / 1000

    @property
    def variance(self) -> float:
        mean = self.avg_us
        return max(0.0, self.sq_us / self.count - mean * mean)


def aggregate(items, key_of, dur_of) -> list[Agg]:
    """Group items by key; sorted by total time descending, then key (deterministic)."""
    groups: dict[tuple, Agg] = {}
    for it in items:
        k, d = key_of(it), dur_of(it)
        a = groups.get(k)
        if a is None:
            groups[k] = Agg(k, 1, d, d, d, (d / 1000) ** 2)
        else:
            a.count += 1
            a.total_ns += d
            a.min_ns = min(a.min_ns, d)
            a.max_ns = max(a.max_ns, d)
            a.sq_us += (d / 1000) ** 2
    return sorted(groups.values(), key=lambda a: (-a.total_ns, a.key))


def op_statistic(tasks: list[Task]) -> list[Agg]:
    """By (OP type, task type) — the op_statistic table of one device."""
    return aggregate(tasks, lambda t: (t.op.type, t.task_type), lambda t: t.dur_ns)


def api_statistic(events: list[HostEvent]) -> list[Agg]:
    """By (level, API name) — the api_statistic table."""
    return aggregate(events, lambda e: (e.level, e.name), lambda e: e.dur_ns)
