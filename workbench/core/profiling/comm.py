"""What the Communication view shows (Qt-free): :func:`communication_view` of a report.

Built from the tables :mod:`workbench.core.profiling.tables.commread` reads out of communication.json and
communication_matrix.json (docs/cann-formats.md §4.2): per communication op its times (elapse, transit,
wait, synchronization, idle, in ms) and ratios; per op and transport the transit size, time, bandwidth
and large-packet ratio and the packet-size distribution; the rank-to-rank matrix. ``Total Op Info`` (the
tool's sum per step and kind) is kept apart in :attr:`CommView.totals`. Each frame has a ``rank``
column: the rank whose file it came from (``profiler_info_{rank}.json``; empty where the layout does not say).

Units as the files write them: ms, MB (10^6 bytes), GB/s = MB / ms.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from workbench.core.profiling.report import Report

OP_COLUMNS = (
    "step",
    "kind",
    "op",
    "name",
    "group",
    "start_ns",
    "elapse_ms",
    "transit_ms",
    "wait_ms",
    "sync_ms",
    "idle_ms",
    "wait_ratio",
    "sync_ratio",
)
BANDWIDTH_COLUMNS = ("step", "kind", "op", "transport", "size_mb", "time_ms", "bandwidth_gbs", "large_packet_ratio")
SIZE_COLUMNS = ("step", "kind", "op", "transport", "packet_mb", "count", "time_ms")
MATRIX_COLUMNS = (
    "step",
    "kind",
    "group_op",
    "src",
    "dst",
    "transport",
    "size_mb",
    "time_ms",
    "bandwidth_gbs",
    "op_name",
)
# matrix entries that already sum others (torch_npu's "-total" per op type and group; "Total Op Info")
SUMMING = ("total", "all")


def _select(frame: pd.DataFrame | None, columns: tuple[str, ...], extra: tuple[str, ...] = ()) -> pd.DataFrame:
    """``columns`` (missing ones empty) then the ``extra`` the frame has, then its other columns."""
    if frame is None:
        frame = pd.DataFrame()
    out = pd.DataFrame(index=frame.index)
    for c in columns:
        out[c] = frame[c] if c in frame.columns else pd.Series(np.nan, index=frame.index)
    for c in [*extra, *frame.columns]:
        if c not in out.columns and c != "total":
            out[c] = frame[c] if c in frame.columns else pd.Series(np.nan, index=frame.index)
    return out.reset_index(drop=True)


def _total_mask(frame: pd.DataFrame | None) -> np.ndarray:
    if frame is None or not len(frame):
        return np.zeros(0, dtype=bool)
    if "total" in frame.columns:
        return frame["total"].to_numpy(dtype=bool)
    return np.zeros(len(frame), dtype=bool)


def _bandwidth(size_mb: np.ndarray, time_ms: np.ndarray) -> np.ndarray:
    """GB/s as the tools compute it: MB / ms, 0 where the time is 0, NaN where a value is missing."""
    with np.errstate(divide="ignore", invalid="ignore"):
        out = np.where(time_ms > 0, size_mb / time_ms, 0.0)
    out[np.isnan(size_mb) | np.isnan(time_ms)] = np.nan
    return out


def _pick(frame: pd.DataFrame, column: str, value) -> np.ndarray:
    """Rows whose ``column`` equals ``value`` (a missing value matches a missing value)."""
    series = frame[column]
    if value is None or value is pd.NA or (isinstance(value, float) and np.isnan(value)):
        return series.isna().to_numpy()
    return (series.astype(object) == value).to_numpy(dtype=bool)


@dataclass
class CommView:
    """The communication of a report (see the module docstring)."""

    ops: pd.DataFrame
    totals: pd.DataFrame
    bandwidth: pd.DataFrame
    sizes: pd.DataFrame
    matrix: pd.DataFrame
    warnings: list[str] = field(default_factory=list)
    # the Total Op Info rows of the bandwidth and size tables (kept apart, like ``totals``)
    bandwidth_totals: pd.DataFrame = field(default_factory=pd.DataFrame)
    sizes_totals: pd.DataFrame = field(default_factory=pd.DataFrame)

    def transports(self, step=None, kind: str | None = None) -> pd.DataFrame:
        """Per transport over the ops (of ``step`` / ``kind`` when given): transit size (MB), time (ms)
        and bandwidth (GB/s) = total size / total time; in the order the file lists transports."""
        frame = self.bandwidth
        if step is not None and len(frame):
            frame = frame[_pick(frame, "step", step)]
        if kind is not None and len(frame):
            frame = frame[_pick(frame, "kind", kind)]
        if not len(frame):
            return pd.DataFrame(
                {"transport": [], "size_mb": np.zeros(0), "time_ms": np.zeros(0), "bandwidth_gbs": np.zeros(0)}
            )
        grouped = frame.groupby(frame["transport"].astype(object), sort=False, dropna=False)
        size = grouped["size_mb"].sum(min_count=1)
        time = grouped["time_ms"].sum(min_count=1)
        out = pd.DataFrame(
            {"transport": size.index.astype(object), "size_mb": size.to_numpy(), "time_ms": time.to_numpy()}
        )
        out["bandwidth_gbs"] = _bandwidth(out["size_mb"].to_numpy(), out["time_ms"].to_numpy())
        return out.reset_index(drop=True)

    def group_ops(self, step=None) -> list[str]:
        """The matrix entries (``allreduce-top1@group``, …) of ``step`` (all steps when None), in file order."""
        frame = self.matrix
        if step is not None and len(frame):
            frame = frame[_pick(frame, "step", step)]
        return list(dict.fromkeys(str(g) for g in frame["group_op"].dropna().astype(object))) if len(frame) else []

    def matrix_grid(self, step=None, group_op: str | None = None) -> tuple[list[int], np.ndarray, np.ndarray]:
        """(ranks, bandwidth GB/s, transport names) of :meth:`link_grid` (the heatmap's colours)."""
        grid = self.link_grid(step, group_op)
        return grid.ranks, grid.bandwidth_gbs, grid.transport

    def link_grid(self, step=None, group_op: str | None = None) -> MatrixGrid:
        """The rank-to-rank links of one matrix entry, or aggregated over the entries of ``step`` (all
        steps when None), as a :class:`MatrixGrid`. Several entries of one link are aggregated: size
        and time summed, bandwidth = total size / total time; entries that already sum others
        (torch_npu's ``-total``, ``Total Op Info``) stand for the ops they sum, so nothing is counted
        twice. A link's transport is the one of its largest transfer (several: joined by ``/``)."""
        frame = self.matrix
        if len(frame) and step is not None:
            frame = frame[_pick(frame, "step", step)]
        if len(frame) and group_op is not None:
            frame = frame[_pick(frame, "group_op", group_op)]
        elif len(frame):
            frame = _aggregable(frame)
        frame = frame[frame["src"].notna().to_numpy() & frame["dst"].notna().to_numpy()] if len(frame) else frame
        if not len(frame):
            empty = np.full((0, 0), np.nan)
            return MatrixGrid([], empty, np.empty((0, 0), dtype=object), empty, empty.copy(), np.zeros((0, 0), int))
        src = frame["src"].to_numpy(dtype=np.int64)
        dst = frame["dst"].to_numpy(dtype=np.int64)
        ranks = np.unique(np.concatenate((src, dst)))
        n = len(ranks)
        cell = np.searchsorted(ranks, src) * n + np.searchsorted(ranks, dst)  # the flat [src, dst] of each entry
        sizes = frame["size_mb"].to_numpy(dtype=np.float64)
        times = frame["time_ms"].to_numpy(dtype=np.float64)
        rates = frame["bandwidth_gbs"].to_numpy(dtype=np.float64)
        entries = np.bincount(cell, minlength=n * n)
        seen = entries > 0
        size = np.bincount(cell, weights=np.nan_to_num(sizes), minlength=n * n)
        time = np.bincount(cell, weights=np.nan_to_num(times), minlength=n * n)
        with np.errstate(divide="ignore", invalid="ignore"):
            bandwidth = np.where(time > 0, size / time, 0.0)
        own = np.full(n * n, np.nan)
        own[cell] = rates
        single = (entries == 1) & np.isfinite(own)
        bandwidth[single] = own[single]  # one entry: the file's own figure (it rounds to 4 digits)
        bandwidth[~seen] = np.nan
        # a size / time the link's entries do not give at all is unknown, not 0
        size[~seen | (np.bincount(cell, weights=~np.isnan(sizes), minlength=n * n) == 0)] = np.nan
        time[~seen | (np.bincount(cell, weights=~np.isnan(times), minlength=n * n) == 0)] = np.nan
        square = (n, n)
        return MatrixGrid(
            [int(r) for r in ranks],
            bandwidth.reshape(square),
            _transports(cell, frame["transport"].astype(object).to_numpy(), sizes, n),
            size.reshape(square),
            time.reshape(square),
            entries.reshape(square),
        )


@dataclass(frozen=True)
class MatrixGrid:
    """The rank matrix as the heatmap draws it: per ``[src, dst]`` over ``ranks`` (ascending) the
    link's bandwidth (GB/s), transport (object array; None where unknown), transit size (MB) and time
    (ms) summed over the entries aggregated, and how many entries those are (0: no link; bandwidth,
    size and time are NaN there)."""

    ranks: list[int]
    bandwidth_gbs: np.ndarray
    transport: np.ndarray
    size_mb: np.ndarray
    time_ms: np.ndarray
    entries: np.ndarray


def _transports(cell: np.ndarray, transport: np.ndarray, sizes: np.ndarray, n: int) -> np.ndarray:
    """Per link (flat ``cell``): the transport carrying the most MB (ties joined by ``/`` in file order)."""
    kinds = np.empty((n, n), dtype=object)
    named = pd.notna(transport)
    if not named.any():
        return kinds
    by = (
        pd.DataFrame({"cell": cell[named], "transport": [str(t) for t in transport[named]], "mb": sizes[named]})
        .fillna({"mb": 0.0})
        .groupby(["cell", "transport"], sort=False)["mb"]
        .sum()
        .reset_index()
    )
    top = by[by["mb"].to_numpy() == by.groupby("cell")["mb"].transform("max").to_numpy()]
    for c, names in top.groupby("cell", sort=False)["transport"]:
        kinds.flat[int(c)] = "/".join(names)
    return kinds


def _aggregable(frame: pd.DataFrame) -> pd.DataFrame:
    """The matrix entries to sum for an aggregate: per (rank, step, kind, group), the summing
    entries where the file has them, else every entry of one op (msprof's per-op layout)."""
    if "statistic" not in frame.columns:
        return frame
    stat = frame["statistic"].astype(object).to_numpy()
    keys = [c for c in ("rank", "step", "kind", "group") if c in frame.columns]
    block = pd.MultiIndex.from_frame(frame[keys].astype(object)) if keys else None
    keep = np.zeros(len(frame), dtype=bool)
    codes = block.factorize()[0] if block is not None else np.zeros(len(frame), dtype=np.int64)
    for code in np.unique(codes):
        rows = codes == code
        for wanted in (("total",), ("op",), ("all",)):
            pick = rows & np.isin(stat, wanted)
            if pick.any():
                keep |= pick
                break
        else:
            keep |= rows  # only picked entries (top1, middle, ...): the best there is
    return frame[keep]


def communication_view(report: Report) -> CommView | None:
    """The report's communication (communication.json and / or communication_matrix.json), or None
    when it has neither."""
    ops = report.tables.get("communication")
    bandwidth = report.tables.get("communication_bandwidth")
    sizes = report.tables.get("communication_sizes")
    matrix = report.tables.get("communication_matrix")
    if ops is None and matrix is None:
        return None
    # what the readers said of these files (they are in the report's warnings too)
    sources = ("communication.json", "communication_matrix.json", "CommAnalyzer")  # the JSONs, analysis.db
    warnings = [w for w in report.warnings if any(k in w for k in sources)]
    total = _total_mask(ops)
    view_ops = _select(ops[~total] if ops is not None else None, OP_COLUMNS, ("rank",))
    totals = _select(ops[total] if ops is not None else None, OP_COLUMNS, ("rank",))
    bw_total = _total_mask(bandwidth)
    bw = _select(bandwidth[~bw_total] if bandwidth is not None else None, BANDWIDTH_COLUMNS, ("rank",))
    bw_totals = _select(bandwidth[bw_total] if bandwidth is not None else None, BANDWIDTH_COLUMNS, ("rank",))
    if len(bw_totals):  # torch_npu writes no bandwidth for Total Op Info: size / time
        missing = bw_totals["bandwidth_gbs"].isna().to_numpy()
        computed = _bandwidth(
            bw_totals["size_mb"].to_numpy(dtype=np.float64), bw_totals["time_ms"].to_numpy(dtype=np.float64)
        )
        bw_totals["bandwidth_gbs"] = np.where(missing, computed, bw_totals["bandwidth_gbs"].to_numpy(dtype=np.float64))
    size_total = _total_mask(sizes)
    size_rows = _select(sizes[~size_total] if sizes is not None else None, SIZE_COLUMNS, ("rank",))
    size_totals = _select(sizes[size_total] if sizes is not None else None, SIZE_COLUMNS, ("rank",))
    view_matrix = _select(matrix, MATRIX_COLUMNS, ("rank", "op_type", "statistic", "group"))
    return CommView(view_ops, totals, bw, size_rows, view_matrix, warnings, bw_totals, size_totals)
