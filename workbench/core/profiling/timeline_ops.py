"""Timeline operations the views need, kept Qt-free: area-selection aggregates, name search,
time formatting and the MindStudio Timeline Color rule."""

from __future__ import annotations

import re
from dataclasses import dataclass

import numpy as np

# --- area selection ---------------------------------------------------------------------------


def selected_slices(tl, lanes: list[int] | None, t0: int, t1: int) -> np.ndarray:
    """Indices of slices on ``lanes`` (all when None) that overlap [t0, t1)."""
    start = np.asarray(tl.start_ns)
    end = start + np.asarray(tl.dur_ns)
    mask = (start < t1) & (end > t0)
    if lanes is not None:
        mask &= np.isin(np.asarray(tl.lane), np.asarray(lanes, dtype=np.int64))
    return np.flatnonzero(mask)


def aggregate(tl, indices: np.ndarray) -> list[dict]:
    """Per name: count, total, avg, min, max (ns) over ``indices`` — sorted by total descending.

    Like Perfetto's area selection and Insight's Slice List, a slice counts with its whole
    duration when it overlaps the selected time range.
    """
    if len(indices) == 0:
        return []
    names = np.asarray(tl.name_id)[indices]
    durs = np.asarray(tl.dur_ns)[indices].astype(np.int64)
    order = np.argsort(names, kind="stable")
    names, durs = names[order], durs[order]
    bounds = np.flatnonzero(np.diff(names)) + 1
    starts = np.concatenate(([0], bounds))
    counts = np.diff(np.concatenate((starts, [len(names)])))
    totals = np.add.reduceat(durs, starts)
    mins = np.minimum.reduceat(durs, starts)
    maxs = np.maximum.reduceat(durs, starts)
    rows = []
    for k, a in enumerate(starts):
        rows.append(
            {
                "name": tl.names[int(names[a])],
                "count": int(counts[k]),
                "total_ns": int(totals[k]),
                "avg_ns": float(totals[k]) / int(counts[k]),
                "min_ns": int(mins[k]),
                "max_ns": int(maxs[k]),
            }
        )
    rows.sort(key=lambda r: (-r["total_ns"], r["name"]))
    return rows


# --- search -------------------------------------------------------------------------------------


class SearchError(ValueError):
    pass


def search(tl, pattern: str, regex: bool = False) -> np.ndarray:
    """Slice indices whose name matches (case-insensitive substring, or a regex), by start time."""
    if not pattern:
        return np.empty(0, dtype=np.int64)
    if regex:
        try:
            rx = re.compile(pattern, re.IGNORECASE)
        except re.error as exc:
            raise SearchError(f"invalid regular expression {pattern!r}: {exc}") from exc
        ids = [i for i, n in enumerate(tl.names) if rx.search(n)]
    else:
        low = pattern.lower()
        ids = [i for i, n in enumerate(tl.names) if low in n.lower()]
    if not ids:
        return np.empty(0, dtype=np.int64)
    hits = np.flatnonzero(np.isin(np.asarray(tl.name_id), np.asarray(ids)))
    return hits[np.argsort(np.asarray(tl.start_ns)[hits], kind="stable")]


# --- time formatting ----------------------------------------------------------------------------

UNITS = (("s", 1_000_000_000), ("ms", 1_000_000), ("us", 1_000), ("ns", 1))


def unit_for(span_ns: float) -> tuple[str, int]:
    """The unit a time axis should use for a visible span (ns … s)."""
    for name, scale in UNITS:
        if span_ns >= scale:
            return name, scale
    return "ns", 1


def format_ns(value_ns: float, span_ns: float | None = None) -> str:
    """Human time: unit follows ``span_ns`` (or the value itself), 3 significant decimals."""
    name, scale = unit_for(abs(span_ns if span_ns is not None else value_ns) or 1)
    v = value_ns / scale
    text = f"{v:,.3f}".rstrip("0").rstrip(".") if scale > 1 else f"{int(round(v)):,}"
    return f"{text} {'µs' if name == 'us' else name}"


# --- Timeline Color (MindStudio): green ≤ a % ≤ yellow < b % ≤ red by API time share ------------------


@dataclass(frozen=True)
class ColorRule:
    a_pct: float = 5.0
    b_pct: float = 10.0

    def __post_init__(self) -> None:
        if not (0.0 <= self.a_pct <= self.b_pct <= 100.0):
            raise ValueError(
                f"Timeline Color thresholds must satisfy 0 ≤ a ≤ b ≤ 100, got a={self.a_pct}, b={self.b_pct}"
            )

    def level(self, share_pct: float) -> str:
        """'green' below a %, 'yellow' from a % up to b %, 'red' from b % (rounded to two decimals)."""
        share = round(share_pct, 2)
        if share < round(self.a_pct, 2):
            return "green"
        if share < round(self.b_pct, 2):
            return "yellow"
        return "red"

    def describe(self) -> str:
        return f"green < {self.a_pct:.2f}% ≤ yellow < {self.b_pct:.2f}% ≤ red"


def api_shares(tl, lanes: list[int]) -> dict[int, float]:
    """name_id -> share (%) of the total time of all slices on ``lanes`` (the API lanes)."""
    if not lanes:
        return {}
    mask = np.isin(np.asarray(tl.lane), np.asarray(lanes))
    names = np.asarray(tl.name_id)[mask]
    durs = np.asarray(tl.dur_ns)[mask].astype(np.float64)
    total = durs.sum()
    if total <= 0:
        return {}
    sums = np.bincount(names, weights=durs)
    return {int(i): float(v) * 100.0 / total for i, v in enumerate(sums) if v > 0}
