"""Statistics over the columnar tables: OPs by type or name, APIs by level, AI Core PMU metrics.

All work on integer codes (categoricals, timeline name ids) with vectorised group-bys, so a few
million rows take well under a second. Rows whose duration is missing (``N/A``) are left out of
the statistics (counted in neither count nor time) rather than read as zero.
"""

from __future__ import annotations

import re
import warnings
from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd

from workbench.core.profiling.tables import OPS

if TYPE_CHECKING:
    from workbench.core.profiling.timeline import Timeline

STAT_COLUMNS = ["key", "task_type", "count", "total_us", "avg_us", "min_us", "max_us", "ratio_pct"]
API_COLUMNS = ["level", "name", "count", "total_us", "avg_us", "min_us", "max_us", "ratio_pct"]

# Timeline processes holding API calls, and the level of a call when its args do not say.
API_PROCESSES = {
    "CANN": None,
    "AscendCL": "acl",
    "Runtime": "runtime",
    "GE": "node",
    "HCCL": "communication",
    "OS Runtime API": "osrt",
}
API_PREFIX_LEVEL = {
    "ascendcl": "acl",
    "acl": "acl",
    "runtime": "runtime",
    "node": "node",
    "model": "model",
    "hccl": "communication",
    "communication": "communication",
    "ge": "node",
}


def _codes(column: pd.Series) -> tuple[np.ndarray, list[Any]]:
    """Integer codes (-1 = missing) and the values they stand for."""
    cat = column.astype("category") if not isinstance(column.dtype, pd.CategoricalDtype) else column
    return np.asarray(cat.cat.codes, dtype=np.int64), list(cat.cat.categories)


def _grouped(group: np.ndarray, values: np.ndarray) -> pd.DataFrame:
    """count/sum/min/max of ``values`` per non-negative ``group`` code (NaN values dropped).

    Dense numpy reductions (bincount, ufunc.at) over the codes: no hashing, no sorting. The
    result is indexed by the group codes that occur.
    """
    keep = (group >= 0) & ~np.isnan(values)
    g, v = (group, values) if keep.all() else (group[keep], values[keep])
    if g.size == 0:
        return pd.DataFrame({"count": [], "sum": [], "min": [], "max": []}, index=pd.Index([], dtype=np.int64))
    codes = None
    size = int(g.max()) + 1
    if size > 4 * g.size + 1024:  # sparse codes: compact them first
        compact, codes = pd.factorize(g, sort=True)
        g, size = compact.astype(np.int64), len(codes)
    count = np.bincount(g, minlength=size)
    total = np.bincount(g, weights=v, minlength=size)
    low = np.full(size, np.inf)
    high = np.full(size, -np.inf)
    np.minimum.at(low, g, v)
    np.maximum.at(high, g, v)
    present = np.flatnonzero(count)
    index = present if codes is None else np.asarray(codes)[present]
    return pd.DataFrame(
        {"count": count[present], "sum": total[present], "min": low[present], "max": high[present]},
        index=pd.Index(index, dtype=np.int64),
    )


def op_statistics(ops: pd.DataFrame, by: str = "type") -> pd.DataFrame:
    """Per OP type (or op ``name``) and task type: count, total/avg/min/max µs and ratio of all time.

    With ``by='type'`` an op without a type (``N/A``, e.g. ``--task-time=l0``) is keyed by its name.
    Sorted by total time, descending.
    """
    if by not in ("type", "name"):
        raise ValueError(f"statistics by {by!r}: expected 'type' or 'name'")
    if ops is None or len(ops) == 0 or "duration_us" not in ops.columns:
        return pd.DataFrame(
            {c: pd.Series(dtype=float if c.endswith(("_us", "_pct")) else object) for c in STAT_COLUMNS}
        )
    key_col = ops[by] if by in ops.columns else ops["name"]
    if by == "type" and "name" in ops.columns and key_col.isna().any():
        key_col = pd.Series(
            np.where(key_col.isna(), ops["name"].astype(object), key_col.astype(object)), index=ops.index
        )
    key_codes, keys = _codes(key_col)
    if "task_type" in ops.columns:
        tt_codes, task_types = _codes(ops["task_type"])
    else:
        tt_codes, task_types = np.full(len(ops), -1, dtype=np.int64), []
    width = len(task_types) + 1
    group = np.where(key_codes >= 0, key_codes * width + tt_codes + 1, -1)
    agg = _grouped(group, np.asarray(ops["duration_us"], dtype=np.float64))
    codes = agg.index.to_numpy()
    total_all = agg["sum"].sum()
    out = pd.DataFrame(
        {
            "key": np.asarray(keys, dtype=object)[codes // width],
            "task_type": np.asarray([None] + list(task_types), dtype=object)[codes % width],
            "count": agg["count"].to_numpy(dtype=np.int64),
            "total_us": agg["sum"].to_numpy(),
            "avg_us": agg["sum"].to_numpy() / agg["count"].to_numpy(),
            "min_us": agg["min"].to_numpy(),
            "max_us": agg["max"].to_numpy(),
            "ratio_pct": agg["sum"].to_numpy() * 100.0 / total_all if total_all else 0.0,
        }
    )
    return out.sort_values(["total_us", "key"], ascending=[False, True], kind="stable").reset_index(drop=True)


def _api_name_level(name: str, process: str, args: dict[str, Any] | None) -> tuple[str, str]:
    """``AscendCL@aclrtMemcpy`` with args level ``acl`` -> (``acl``, ``aclrtMemcpy``)."""
    prefix, sep, rest = name.partition("@")
    api = rest if sep else name
    level = (args or {}).get("level") or API_PROCESSES.get(process)
    if not level and sep:
        level = API_PREFIX_LEVEL.get(prefix.lower())
    return str(level or ""), api


def api_statistics_from_timeline(timeline: Timeline) -> pd.DataFrame:
    """API statistics by level from the CANN / OS Runtime API lanes of a timeline.

    One args lookup per distinct event name (the level lives in ``args.level``), the rest is
    vectorised over the event arrays.
    """
    api_lanes = {lane.index: lane.process_name for lane in timeline.lanes if lane.process_name in API_PROCESSES}
    if not api_lanes or timeline.event_count == 0:
        return empty_api_table()
    lane = np.asarray(timeline.lane)
    lane_ids = np.fromiter(api_lanes, dtype=np.int64)
    selected = np.isin(lane, lane_ids)
    idx = np.flatnonzero(selected)
    if idx.size == 0:
        return empty_api_table()
    name_ids = np.asarray(timeline.name_id)[idx].astype(np.int64)
    dur_us = np.asarray(timeline.dur_ns)[idx].astype(np.float64) / 1000.0
    # The same name under two processes (e.g. OS Runtime vs CANN) is a different API row.
    proc_names = sorted(set(api_lanes.values()))
    proc_code = {p: i for i, p in enumerate(proc_names)}
    lane_proc = np.full(int(lane.max()) + 1 if lane.size else 1, -1, dtype=np.int64)
    for li, pname in api_lanes.items():
        lane_proc[li] = proc_code[pname]
    group = name_ids * len(proc_names) + lane_proc[lane[idx]]
    agg = _grouped(group, dur_us)
    first = pd.Series(idx).groupby(group, sort=False).first()
    rows: dict[tuple[str, str], list[float]] = {}
    for g, count, total, mn, mx in zip(agg.index, agg["count"], agg["sum"], agg["min"], agg["max"]):
        name = timeline.names[g // len(proc_names)]
        process = proc_names[g % len(proc_names)]
        args = timeline.args(int(first[g])) if API_PROCESSES[process] is None else None
        key = _api_name_level(name, process, args)
        if key in rows:
            r = rows[key]
            rows[key] = [r[0] + count, r[1] + total, min(r[2], mn), max(r[3], mx)]
        else:
            rows[key] = [count, total, mn, mx]
    return _api_frame(rows)


def _api_frame(rows: dict[tuple[str, str], list[float]]) -> pd.DataFrame:
    if not rows:
        return empty_api_table()
    keys = list(rows)
    vals = np.array([rows[k] for k in keys], dtype=np.float64)
    total_all = vals[:, 1].sum()
    out = pd.DataFrame(
        {
            "level": [k[0] for k in keys],
            "name": [k[1] for k in keys],
            "count": vals[:, 0].astype(np.int64),
            "total_us": vals[:, 1],
            "avg_us": vals[:, 1] / vals[:, 0],
            "min_us": vals[:, 2],
            "max_us": vals[:, 3],
            "ratio_pct": vals[:, 1] * 100.0 / total_all if total_all else 0.0,
        }
    )
    return out.sort_values(["total_us", "level", "name"], ascending=[False, True, True], kind="stable").reset_index(
        drop=True
    )


def empty_api_table() -> pd.DataFrame:
    return pd.DataFrame({c: pd.Series(dtype=object if c in ("level", "name") else float) for c in API_COLUMNS})


def api_rows(api_statistic: pd.DataFrame) -> pd.DataFrame:
    """A canonical API statistics table (read from a CSV or computed) in the CLI's row shape."""
    if api_statistic is None or len(api_statistic) == 0:
        return empty_api_table()
    rows: dict[tuple[str, str], list[float]] = {}
    n = len(api_statistic)

    def column(key: str, fill: object) -> pd.Series:
        """A column the file may lack (an older or trimmed api_statistic): missing values then."""
        return api_statistic[key] if key in api_statistic else pd.Series([fill] * n)

    level = column("level", "").astype(object)
    for lv, name, count, total, mn, mx in zip(
        level,
        column("name", "").astype(object),
        column("count", np.nan),
        column("total_us", np.nan),
        column("min_us", np.nan),
        column("max_us", np.nan),
    ):
        if pd.isna(count) or pd.isna(total):
            continue
        key = ("" if pd.isna(lv) else str(lv), str(name))
        if key in rows:  # the same API on several devices / files
            r = rows[key]
            rows[key] = [r[0] + count, r[1] + total, np.fmin(r[2], mn), np.fmax(r[3], mx)]
        else:
            rows[key] = [float(count), float(total), float(mn), float(mx)]
    return _api_frame(rows)


# ---- AI Core PMU metrics ---------------------------------------------------------------------

PMU_GROUPS: dict[str, tuple[str, ...]] = {
    "PipeUtilization": (
        "vec_ratio",
        "mac_ratio",
        "scalar_ratio",
        "mte1_ratio",
        "mte2_ratio",
        "mte3_ratio",
        "fixpipe_ratio",
        "vec_time(us)",
        "mac_time(us)",
        "scalar_time(us)",
        "mte2_time(us)",
        "icache_miss_rate",
    ),
    "ArithmeticUtilization": (
        "mac_fp16_ratio",
        "mac_int8_ratio",
        "vec_fp32_ratio",
        "vec_fp16_ratio",
        "vec_int32_ratio",
        "vec_misc_ratio",
        "cube_fops",
        "vector_fops",
    ),
    "Memory": (
        "ub_read_bw(GB/s)",
        "ub_write_bw(GB/s)",
        "l1_read_bw(GB/s)",
        "l1_write_bw(GB/s)",
        "l2_read_bw",
        "l2_write_bw",
        "main_mem_read_bw(GB/s)",
        "main_mem_write_bw(GB/s)",
    ),
    "MemoryL0": (
        "l0a_read_bw(GB/s)",
        "l0a_write_bw(GB/s)",
        "l0b_read_bw(GB/s)",
        "l0b_write_bw(GB/s)",
        "l0c_read_bw(GB/s)",
        "l0c_write_bw(GB/s)",
        "l0c_read_bw_cube(GB/s)",
        "l0c_write_bw_cube(GB/s)",
    ),
    "MemoryUB": (
        "ub_read_bw_vector(GB/s)",
        "ub_write_bw_vector(GB/s)",
        "ub_read_bw_scalar(GB/s)",
        "ub_write_bw_scalar(GB/s)",
        "ub_read_bw_mte(GB/s)",
        "ub_write_bw_mte(GB/s)",
    ),
    "ResourceConflictRatio": (
        "vec_bankgroup_cflt_ratio",
        "vec_bank_cflt_ratio",
        "vec_resc_cflt_ratio",
        "mte1_iq_full_ratio",
        "mte2_iq_full_ratio",
        "mte3_iq_full_ratio",
        "cube_iq_full_ratio",
        "vec_iq_full_ratio",
        "iq_full_ratio",
    ),
    "L2Cache": (
        "write_cache_hit",
        "write_cache_miss_allocate",
        "r0_read_cache_hit",
        "r1_read_cache_hit",
        "r0_read_cache_miss_allocate",
        "r1_read_cache_miss_allocate",
        "read_cache_hit",
        "read_cache_miss_allocate",
    ),
    "MemoryAccess": (
        "read_main_memory_datas(KB)",
        "write_main_memory_datas(KB)",
        "GM_to_L1_datas(KB)",
        "L0C_to_L1_datas(KB)",
        "L0C_to_GM_datas(KB)",
        "GM_to_UB_datas(KB)",
        "UB_to_GM_datas(KB)",
    ),
    "PipelineExecuteUtilization": (
        "vec_exe_time(us)",
        "vec_exe_ratio",
        "mac_exe_time(us)",
        "mac_exe_ratio",
        "scalar_exe_ratio",
        "mte1_exe_ratio",
        "mte2_exe_ratio",
        "mte3_exe_ratio",
        "fixpipe_exe_ratio",
    ),
}
PMU_COMMON = ("aicore_time(us)", "total_cycles", "aiv_time(us)", "memory_bound", "cube_utilization(%)")
_PREFIX = re.compile(r"^(aic|aiv)_")
AICORE_ID_COLUMNS = (
    "device",
    "name",
    "type",
    "task_type",
    "stream_id",
    "task_id",
    "start_ns",
    "duration_us",
    "block_dim",
)
# Task types that run on the AI Core (cube / vector units) and so carry PMU metrics; HCCL, AI_CPU,
# DSA, … tasks have none (their PMU cells are N/A). docs/cann-formats.md §2.1 Task Type values.
AI_CORE_TASK_TYPES = ("AI_CORE", "AI_VECTOR_CORE", "MIX_AIC", "MIX_AIV")


def pmu_base(column: str) -> str:
    """``aic_mte2_ratio`` -> ``mte2_ratio``; unprefixed names are returned unchanged."""
    return _PREFIX.sub("", column)


def detect_pmu_group(columns: list[str]) -> tuple[str | None, bool]:
    """The ``--aic-metrics`` group whose metric names best match ``columns``, and whether the
    columns are split into ``aic_``/``aiv_`` (910B-class) or unprefixed (910/310P)."""
    bases = {pmu_base(c) for c in columns}
    split = any(_PREFIX.match(c) for c in columns if pmu_base(c) not in ("time(us)",))
    best, score = None, 0
    for group, metrics in PMU_GROUPS.items():
        hits = len(bases.intersection(metrics))
        if hits > score:
            best, score = group, hits
    return best, split


def pmu_columns(columns: list[str], frame: pd.DataFrame | None = None) -> list[str]:
    """The PMU metric columns: the numeric columns of the OPs table beyond the canonical ones
    (op_summary / kernel_details put every PMU counter after ``Context ID``)."""
    canonical = {c.key for c in OPS} | {"source"}
    known = set(PMU_COMMON).union(*PMU_GROUPS.values())
    out = []
    for c in columns:
        if c in canonical:
            continue
        numeric = frame is None or pd.api.types.is_numeric_dtype(frame[c])
        if numeric and (frame is not None or pmu_base(c) in known or c.endswith("total_cycles")):
            out.append(c)
    return out


def memory_bound(frame: pd.DataFrame) -> np.ndarray:
    """``mte2_ratio / max(mac_ratio, vec_ratio)`` per row (docs/cann-formats.md §2.1).

    On split chips the cube (``aic_``) and vector (``aiv_``) ratios are pooled: the largest
    mte2 ratio over the largest mac/vec ratio. Missing or zero denominators give NaN.
    """

    def pooled(base: str) -> np.ndarray:
        cols = [c for c in frame.columns if pmu_base(c) == base]
        if not cols:
            return np.full(len(frame), np.nan)
        data = np.vstack([np.asarray(frame[c], dtype=np.float64) for c in cols])
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)  # all-NaN rows stay NaN
            return np.nanmax(data, axis=0)

    mte2 = pooled("mte2_ratio")
    compute = np.fmax(pooled("mac_ratio"), pooled("vec_ratio"))
    with np.errstate(all="ignore"):
        return np.where((compute > 0) & ~np.isnan(mte2), mte2 / compute, np.nan)


def ai_core_mask(table: pd.DataFrame) -> np.ndarray:
    """True on the AI Core task rows of a PMU metrics (or OPs) table: by task type when the table has
    one (decided once per category, not per row), else the rows with at least one metric value."""
    if "task_type" in table.columns:
        column = table["task_type"]
        if isinstance(column.dtype, pd.CategoricalDtype):
            wanted = np.array([str(c).strip().upper() in AI_CORE_TASK_TYPES for c in column.cat.categories] + [False])
            return wanted[column.cat.codes.to_numpy()]  # code -1 (missing) picks the last, False
        tt = column.astype(object).where(column.notna(), "").astype(str).str.strip().str.upper()
        return tt.isin(AI_CORE_TASK_TYPES).to_numpy()
    metrics = [c for c in table.columns if c not in AICORE_ID_COLUMNS]
    return table[metrics].notna().any(axis=1).to_numpy() if metrics else np.ones(len(table), dtype=bool)


def _rows_of(table: pd.DataFrame, columns: list[str], keep: np.ndarray) -> pd.DataFrame:
    """``table[columns]`` on the ``keep`` rows, each column copied once (no whole-table intermediate)."""
    rows = None if keep.all() else np.flatnonzero(keep)
    data = {}
    for c in columns:
        array = table[c].array
        data[c] = array.copy() if rows is None else array.take(rows)
    return pd.DataFrame(data, copy=False)


def ai_core_rows(table: pd.DataFrame) -> pd.DataFrame:
    """The AI Core task rows of a PMU metrics table (:func:`ai_core_mask`)."""
    if not len(table):
        return table
    keep = ai_core_mask(table)
    return table if keep.all() else table[keep].reset_index(drop=True)


def ai_core_metrics(ops: pd.DataFrame) -> tuple[pd.DataFrame, str | None, bool]:
    """Per-task PMU metrics of the AI Core tasks (:func:`ai_core_rows`) with identity columns, the
    detected group and the aic/aiv split flag.

    ``memory_bound`` is added (computed) for PipeUtilization data when the file lacks it.
    """
    if ops is None or len(ops.columns) == 0:
        return pd.DataFrame(), None, False
    pmu = pmu_columns(list(ops.columns), ops)
    if not pmu:
        return pd.DataFrame(), None, False
    group, split = detect_pmu_group(pmu)
    ids = [c for c in AICORE_ID_COLUMNS if c in ops.columns]
    table = _rows_of(ops, ids + pmu, ai_core_mask(ops))
    if group == "PipeUtilization" and not any(pmu_base(c) == "memory_bound" for c in pmu):
        table["memory_bound"] = memory_bound(table)
    return table, group, split
