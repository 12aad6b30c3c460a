"""What the profiling views show, computed in core (Qt-free): Event View rows, the Statistics
selector's tables with MindStudio's columns, AI Core Metrics framing and Analysis Summary facts.

Every "nothing to show" case returns an explanation with the msprof option that would collect
the data, never an empty table without a reason.
"""

from __future__ import annotations

import re
import zlib
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING

import numpy as np
import pandas as pd

from workbench.core.profiling import align, stats, timeline_ops
from workbench.core.profiling.build import DERIVED_TEMPLATE, MARKER_TEMPLATE, NAME_TYPES_TEMPLATE, RECOMPUTED_TEMPLATE
from workbench.core.profiling.report import MAIN_TABLES
from workbench.core.profiling.tables import schemas

if TYPE_CHECKING:
    from workbench.core.profiling.timeline import Timeline

STATISTICS = ("ACL API", "Runtime API", "OS Runtime API", "OPs", "Op Info")
# Fixed names in the Analysis Summary (translated by the UI; host/device keys come from the data).
SUMMARY_LABELS = (
    "Profiling info",
    "Source",
    "Kind",
    "Size",
    "Devices",
    "Elapsed time",
    "CANN version",
    "Collected by",
    "Timeline events",
    "Flows",
    "Host",
    "Host system",
    "Device",
    "Device info",
    "Bandwidth",
    "DDR/HBM read and write",
    "AI Core utilization",
    "Sample-based AI Core data",
    "Warnings",
)

# msprof switches that collect each kind of data (docs/cann-formats.md §1.1)
COLLECT_HINT = {
    "ACL API": "msprof --ascendcl=on",
    "Runtime API": "msprof --runtime-api=on",
    "OS Runtime API": "msprof --sys-profiling=on (needs perf and ltrace on the host)",
    "OPs": "msprof --task-time=on",
    "Op Info": "msprof --task-time=on",
    "AI Core": "msprof --ai-core=on --aic-metrics=PipeUtilization",
    "timeline": "msprof --task-time=on (or torch_npu profiler with ProfilerActivity.NPU)",
    "host": "msprof --host-sys=cpu,mem,disk,network",
    "bandwidth": "msprof --sys-hardware-mem=on",
    "ai_core_utilization": "msprof --ai-core=on --aic-mode=sample-based",
}

# What each --aic-metrics group shows and cannot show; each sentence names only metrics the group
# has (docs/cann-formats.md §2.1). Translated by the UI (context "AICoreMetrics").
PMU_GROUPS = {
    "PipeUtilization": (
        "Time and ratio of each pipeline (vector, cube/mac, scalar, MTE1/2/3, fixpipe): "
        "shows which unit bounds an operator.",
        "Does not show cache hit rates or memory bandwidth.",
    ),
    "ArithmeticUtilization": (
        "Cube (MAC fp16/int8) and vector (fp32/fp16/int32/misc) instruction ratios and the cube and vector "
        "FLOP counts: shows how the compute units are used.",
        "Does not show pipeline stalls or memory traffic.",
    ),
    "Memory": ("Main-memory and L2 read/write bandwidth per operator.", "Does not show on-chip buffer traffic."),
    "MemoryL0": ("L0A/L0B/L0C read/write bandwidth.", "Does not show main memory or UB traffic."),
    "MemoryUB": ("Unified Buffer read/write bandwidth of the vector unit.", "Does not show L0 or main memory."),
    "ResourceConflictRatio": ("Bank and bank-group conflicts and vector waits.", "Does not show bandwidth."),
    "L2Cache": ("L2 cache hit rates and allocations.", "Does not show pipeline utilisation."),
    "MemoryAccess": ("Memory access volume by path.", "Does not show pipeline utilisation."),
    "PipelineExecuteUtilization": ("Per-pipeline execution ratios on newer chips.", "Does not show memory bandwidth."),
}

# The sentences of the AI Core Metrics description (templates: {0}, {1} are filled by the UI after
# translating, context "AICoreMetrics").
AICORE_TEXT = {
    "none": "No AI Core PMU data in this report. Collect it with {0} (task-based) — the metric group decides "
    "which columns appear.",
    "group": "Metric group collected: {0}.",
    "unknown": "Metric group collected: unknown (the columns match no --aic-metrics group).",
    "split": "Columns are split into AIC (cube core) and AIV (vector core), as on 910B-class chips.",
    "memory_bound": "Memory Bound > 1 (highlighted) means the MTE2 ratio exceeds the larger of the cube and "
    "vector ratios: the operator waits on memory.",
    "others": "Only AI Core tasks are listed: {0} tasks of other types ({1}) have no PMU metrics.",
}

# Column keys of the report tables -> the words their header shows (translated by the UI, context
# "Column"). Keys not listed: PMU metrics (PMU_LABELS, with an AIC / AIV suffix for aic_ / aiv_),
# else the key with spaces for underscores.
COLUMN_LABELS = {
    **schemas.LABELS,
    "key": "OP Type",
    "start_ns": "Start Time(ns)",
    "name": "Name",
    "source": "Source",
    "ID": "ID",
    "Name": "Name",
    "Type": "Type",
    "Count": "Count",
    "Start(us)": "Start(us)",
    "End(us)": "End(us)",
    "Duration(us)": "Duration(us)",
    "Self(us)": "Self(us)",
    "Process ID": "Process ID",
    "Thread ID": "Thread ID",
    "Stream": "Stream",
    "Task ID": "Task ID",
    "Device": "Device",
    "Time(%)": "Time(%)",
    "Time(us)": "Time(us)",
    "Total(us)": "Total(us)",
    "Avg(us)": "Avg(us)",
    "Min(us)": "Min(us)",
    "Max(us)": "Max(us)",
    "Lane": "Lane",
    "Depth": "Depth",
    "Category": "Category",
}
PMU_LABELS = {
    "aicore_time(us)": "AI Core Time(us)",
    "time(us)": "Time(us)",
    "total_cycles": "Total Cycles",
    "memory_bound": "Memory Bound",
    "cube_utilization(%)": "Cube Utilization(%)",
    "vec_ratio": "Vector Ratio",
    "vec_time(us)": "Vector Time(us)",
    "mac_ratio": "Cube (MAC) Ratio",
    "mac_time(us)": "Cube (MAC) Time(us)",
    "scalar_ratio": "Scalar Ratio",
    "scalar_time(us)": "Scalar Time(us)",
    "mte1_ratio": "MTE1 Ratio",
    "mte1_time(us)": "MTE1 Time(us)",
    "mte2_ratio": "MTE2 Ratio",
    "mte2_time(us)": "MTE2 Time(us)",
    "mte3_ratio": "MTE3 Ratio",
    "mte3_time(us)": "MTE3 Time(us)",
    "fixpipe_ratio": "Fixpipe Ratio",
    "fixpipe_time(us)": "Fixpipe Time(us)",
    "icache_miss_rate": "ICache Miss Rate",
    "mac_fp16_ratio": "Cube FP16 Ratio",
    "mac_int8_ratio": "Cube INT8 Ratio",
    "vec_fp32_ratio": "Vector FP32 Ratio",
    "vec_fp16_ratio": "Vector FP16 Ratio",
    "vec_int32_ratio": "Vector INT32 Ratio",
    "vec_misc_ratio": "Vector Misc Ratio",
    "cube_fops": "Cube FLOPs",
    "vector_fops": "Vector FLOPs",
    "ub_read_bw(GB/s)": "UB Read(GB/s)",
    "ub_write_bw(GB/s)": "UB Write(GB/s)",
    "l1_read_bw(GB/s)": "L1 Read(GB/s)",
    "l1_write_bw(GB/s)": "L1 Write(GB/s)",
    "l2_read_bw": "L2 Read Bandwidth",
    "l2_write_bw": "L2 Write Bandwidth",
    "main_mem_read_bw(GB/s)": "Main Memory Read(GB/s)",
    "main_mem_write_bw(GB/s)": "Main Memory Write(GB/s)",
    "l0a_read_bw(GB/s)": "L0A Read(GB/s)",
    "l0a_write_bw(GB/s)": "L0A Write(GB/s)",
    "l0b_read_bw(GB/s)": "L0B Read(GB/s)",
    "l0b_write_bw(GB/s)": "L0B Write(GB/s)",
    "l0c_read_bw(GB/s)": "L0C Read(GB/s)",
    "l0c_write_bw(GB/s)": "L0C Write(GB/s)",
    "l0c_read_bw_cube(GB/s)": "L0C Cube Read(GB/s)",
    "l0c_write_bw_cube(GB/s)": "L0C Cube Write(GB/s)",
    "ub_read_bw_vector(GB/s)": "UB Vector Read(GB/s)",
    "ub_write_bw_vector(GB/s)": "UB Vector Write(GB/s)",
    "ub_read_bw_scalar(GB/s)": "UB Scalar Read(GB/s)",
    "ub_write_bw_scalar(GB/s)": "UB Scalar Write(GB/s)",
    "ub_read_bw_mte(GB/s)": "UB MTE Read(GB/s)",
    "ub_write_bw_mte(GB/s)": "UB MTE Write(GB/s)",
    "vec_bankgroup_cflt_ratio": "Vector Bank Group Conflict Ratio",
    "vec_bank_cflt_ratio": "Vector Bank Conflict Ratio",
    "vec_resc_cflt_ratio": "Vector Resource Conflict Ratio",
    "mte1_iq_full_ratio": "MTE1 Queue Full Ratio",
    "mte2_iq_full_ratio": "MTE2 Queue Full Ratio",
    "mte3_iq_full_ratio": "MTE3 Queue Full Ratio",
    "cube_iq_full_ratio": "Cube Queue Full Ratio",
    "vec_iq_full_ratio": "Vector Queue Full Ratio",
    "iq_full_ratio": "Queue Full Ratio",
    "write_cache_hit": "Write Cache Hits",
    "write_cache_miss_allocate": "Write Cache Miss Allocations",
    "r0_read_cache_hit": "R0 Read Cache Hits",
    "r1_read_cache_hit": "R1 Read Cache Hits",
    "r0_read_cache_miss_allocate": "R0 Read Cache Miss Allocations",
    "r1_read_cache_miss_allocate": "R1 Read Cache Miss Allocations",
    "read_cache_hit": "Read Cache Hits",
    "read_cache_miss_allocate": "Read Cache Miss Allocations",
    "read_main_memory_datas(KB)": "Main Memory Read(KB)",
    "write_main_memory_datas(KB)": "Main Memory Write(KB)",
    "GM_to_L1_datas(KB)": "GM to L1(KB)",
    "L0C_to_L1_datas(KB)": "L0C to L1(KB)",
    "L0C_to_GM_datas(KB)": "L0C to GM(KB)",
    "GM_to_UB_datas(KB)": "GM to UB(KB)",
    "UB_to_GM_datas(KB)": "UB to GM(KB)",
    "vec_exe_time(us)": "Vector Execute Time(us)",
    "vec_exe_ratio": "Vector Execute Ratio",
    "mac_exe_time(us)": "Cube Execute Time(us)",
    "mac_exe_ratio": "Cube Execute Ratio",
    "scalar_exe_time(us)": "Scalar Execute Time(us)",
    "scalar_exe_ratio": "Scalar Execute Ratio",
    "mte1_exe_time(us)": "MTE1 Execute Time(us)",
    "mte1_exe_ratio": "MTE1 Execute Ratio",
    "mte2_exe_time(us)": "MTE2 Execute Time(us)",
    "mte2_exe_ratio": "MTE2 Execute Ratio",
    "mte3_exe_time(us)": "MTE3 Execute Time(us)",
    "mte3_exe_ratio": "MTE3 Execute Ratio",
    "fixpipe_exe_time(us)": "Fixpipe Execute Time(us)",
    "fixpipe_exe_ratio": "Fixpipe Execute Ratio",
}
# aic_ / aiv_ columns (910B-class chips): the metric's label with the core it was counted on.
PMU_CORE_TEMPLATES = {"aic_": "{0} (AIC)", "aiv_": "{0} (AIV)"}


def column_label(column: str) -> tuple[str, str | None]:
    """How a table header names ``column``: (label, core template or None). The UI translates
    the label (context "Column") and, for an ``aic_``/``aiv_`` metric, puts it into the
    translated core template. A column nobody named gets its key with spaces for underscores."""
    if column in COLUMN_LABELS:
        return COLUMN_LABELS[column], None
    if column in PMU_LABELS:
        return PMU_LABELS[column], None
    prefix = column[:4]
    if prefix in PMU_CORE_TEMPLATES and column[4:] in PMU_LABELS:
        return PMU_LABELS[column[4:]], PMU_CORE_TEMPLATES[prefix]
    return column.replace("_", " "), None


# --- messages the UI translates: templates with arguments ------------------------------------------------
# Status lines of the report and comparison work functions (progress.status), as templates ({0}…
# stand for file names, counts, places). The UI shows a line translated by matching it here.
STATUS_TEMPLATES = (
    "Reading {0}",
    "Building the timeline",
    "Laying out the timeline",
    "Writing the cache of {0} for fast re-opening",
    "Opening {0}",
    "Opening {0} ({1}/{2})",
    "Opening base report {0}",
    "Opening current report {0}",
    "Comparing",
    "Exporting {0}",
    "Saving {0}",
    "Writing {0}",
)
# Analysis Summary values (and device facts) that are words, not data.
# Report warnings core writes from a template (a match keeps the arguments), for the UI to translate.
REPORT_WARNING_TEMPLATES = (
    DERIVED_TEMPLATE,
    RECOMPUTED_TEMPLATE,
    NAME_TYPES_TEMPLATE,
    MARKER_TEMPLATE,
    *align.TEMPLATES,  # a merge of ranks aligned on a step / an operator (issue #20)
)

SUMMARY_VALUES = (
    "not present in this report",
    "not collected ({0})",
    "none",
    "unknown",
    "simulated CANN toolkit",
    "avg {0}, max {1}",
    "Device {0}",
)
DEVICE_FIELDS = (
    ("chip_name", "chip"),
    ("ai_core_num", "AI Cores"),
    ("aiv_num", "AI Vector cores"),
    ("ai_cpu_num", "AI CPUs"),
    ("ctrl_cpu_num", "control CPUs"),
    ("aic_frequency", "AI Core MHz"),
)


@lru_cache(maxsize=512)
def _template_regex(template: str) -> re.Pattern[str]:
    parts = re.split(r"\{\d+\}", template)
    return re.compile("(.+?)".join(re.escape(p) for p in parts), re.DOTALL)


def match_template(text: str, templates: Iterable[str]) -> tuple[str, tuple[str, ...]] | None:
    """The template ``text`` was made from and its arguments, or None. When several match (e.g.
    ``Opening {0}`` and ``Opening base report {0}``) the most specific (most fixed text) wins."""
    best: tuple[str, tuple[str, ...]] | None = None
    best_fixed = -1
    for template in templates:
        m = _template_regex(template).fullmatch(text)
        if m is None:
            continue
        fixed = len(re.sub(r"\{\d+\}", "", template))
        if fixed > best_fixed:
            best, best_fixed = (template, m.groups()), fixed
    return best


def lane_events(tl, lane: int, ops: pd.DataFrame | None = None, args_limit: int = 2_000) -> pd.DataFrame:
    """Event View rows of one lane: ID, Name, Start/End/Duration (µs from the report start), PID, TID,
    plus Stream and Task ID for device tasks. Task IDs come from the OPs table (matched on the
    exact start time and stream), else from the event args for up to ``args_limit`` events."""
    info = tl.lanes[lane]
    idx = np.flatnonzero(np.asarray(tl.lane) == lane)
    start = np.asarray(tl.start_ns)[idx]
    dur = np.asarray(tl.dur_ns)[idx]
    names = np.asarray(tl.names, dtype=object)[np.asarray(tl.name_id)[idx]] if len(idx) else np.array([], dtype=object)
    frame = pd.DataFrame(
        {
            "ID": idx,
            "Name": names,
            "Start(us)": start / 1000.0,
            "End(us)": (start + dur) / 1000.0,
            "Duration(us)": dur / 1000.0,
            "Process ID": info.pid,
            "Thread ID": info.tid,
        }
    )
    if info.is_stream:
        frame["Stream"] = info.tid
        task_ids = _task_ids_from_ops(ops, tl.origin_ns + start, info.tid)
        if task_ids is not None:
            frame["Task ID"] = task_ids
        elif 0 < len(idx) <= args_limit:
            from_args = []
            for i in idx:
                args = tl.args(int(i)) or {}
                from_args.append(args.get("Task Id", args.get("task id")))
            frame["Task ID"] = from_args
    return frame


# --- Slice List: the slices of an area selection, or the occurrences of one name ------------------------

SLICE_LIST_COLUMNS = ("Name", "Start(us)", "Duration(us)", "Self(us)", "Lane", "Depth")


def lane_label(info) -> str:
    """``Python · Thread 437675``: a lane's process and thread, as the Properties pane names it."""
    return f"{info.process_name} · {info.thread_name or info.tid}"


def area_slices(tl, t0: int, t1: int, lanes: list[int] | None) -> np.ndarray:
    """Slices on ``lanes`` (all when None) overlapping [t0, t1), by start time (the Slice List
    of an area selection; a slice counts whole when it overlaps, as in the Selection table)."""
    idx = timeline_ops.selected_slices(tl, lanes, t0, t1)
    return idx[np.argsort(np.asarray(tl.start_ns)[idx], kind="stable")]


def name_slices(tl, name_id: int, within: np.ndarray | None = None) -> np.ndarray:
    """Every slice named like ``name_id`` (only those in ``within`` when given), by start time."""
    ids = np.asarray(tl.name_id)
    idx = np.flatnonzero(ids == name_id) if within is None else within[ids[within] == name_id]
    return idx[np.argsort(np.asarray(tl.start_ns)[idx], kind="stable")]


def self_time_ns(tl, indices: np.ndarray) -> np.ndarray:
    """Duration minus the time of the direct children, per slice of ``indices`` (Perfetto's self
    time). Children are counted by ``parent``; a child reaching past its parent is clipped to it."""
    dur = np.asarray(tl.dur_ns).astype(np.int64)
    if not len(indices):
        return np.empty(0, dtype=np.int64)
    parent = np.asarray(tl.parent)
    has = parent >= 0
    if not has.any():
        return dur[indices]
    kids = np.flatnonzero(has)
    child_sum = np.bincount(parent[kids], weights=dur[kids], minlength=len(dur))
    return np.maximum(0, dur[indices] - child_sum[indices].astype(np.int64))


def name_order(tl, indices: np.ndarray) -> np.ndarray:
    """A sort key per slice of ``indices``: the rank of its name in alphabetical order (only the
    names present are compared, so a million slices of a few hundred names sort at numpy speed)."""
    ids = np.asarray(tl.name_id)[indices]
    present, inverse = np.unique(ids, return_inverse=True)
    texts = np.array([tl.names[int(i)].lower() for i in present], dtype=object)
    rank = np.empty(len(present), dtype=np.int64)
    rank[np.argsort(texts, kind="stable")] = np.arange(len(present))
    return rank[inverse]


def _task_ids_from_ops(ops: pd.DataFrame | None, abs_start_ns: np.ndarray, stream: str) -> np.ndarray | None:
    """Task IDs of device slices by exact (stream, start) match against the OPs table; None if the
    table cannot tell (missing columns, or fewer than all slices matched)."""
    if ops is None or not len(ops) or not {"start_ns", "task_id", "stream_id"} <= set(ops.columns):
        return None
    try:
        sid = int(stream)
    except ValueError:
        return None
    streams = pd.to_numeric(ops["stream_id"], errors="coerce").to_numpy()
    sel = ops[streams == sid]
    if not len(sel):
        return None
    starts = sel["start_ns"].to_numpy(dtype=np.int64)
    order = np.argsort(starts, kind="stable")
    starts = starts[order]
    pos = np.clip(np.searchsorted(starts, abs_start_ns), 0, len(starts) - 1)
    if not (starts[pos] == abs_start_ns).all():
        return None
    return sel["task_id"].to_numpy()[order][pos]


def name_palette(names: list[str], colors: int = 20) -> np.ndarray:
    """A stable colour index per name (crc32), so a name keeps its colour across reports."""
    return np.fromiter((zlib.crc32(n.encode("utf-8")) % colors for n in names), dtype=np.int32, count=len(names))


@dataclass
class PreparedView:
    """What the report document needs that costs time, computed off the GUI thread."""

    layout: object | None = None  # lod.TimelineLayout
    name_colors: np.ndarray | None = None
    first_lane: int | None = None
    first_events: pd.DataFrame | None = None


def first_lane(tl) -> int:
    """The lane the Event View shows first: the first device stream, else the first lane."""
    return next((i for i, ln in enumerate(tl.lanes) if ln.is_stream), 0)


def prepare(report, progress=None, cancel=None) -> PreparedView:
    """Layout, colours and the first Event View table for ``report`` (a work-function step)."""
    from workbench.core.profiling.lod import TimelineLayout

    tl = report.timeline
    out = PreparedView()
    if tl is None or not len(tl.lanes) or not len(tl.start_ns):
        return out
    if progress is not None:
        progress.status("Laying out the timeline")
    out.layout = TimelineLayout(tl)
    if cancel is not None:
        cancel.raise_if_cancelled()
    out.name_colors = name_palette(tl.names)
    out.first_lane = first_lane(tl)
    out.first_events = lane_events(tl, out.first_lane, report.ops)
    return out


# A timeline source this big (and not cached) shows a preview of its first PREVIEW_BYTES while the
# whole report loads: the first paint comes in well under a second instead of after the load.
PREVIEW_MIN_BYTES = 96 << 20
PREVIEW_BYTES = 8 << 20


@dataclass
class Preview:
    """The first ``preview_bytes`` of the biggest timeline file, laid out for drawing."""

    timeline: Timeline
    layout: object
    name_colors: np.ndarray
    path: str
    preview_bytes: int
    source_bytes: int

    def __str__(self) -> str:  # the line a job log shows for this partial result
        return (
            f"Preview: the first {self.preview_bytes / 1e6:,.1f} MB of {self.source_bytes / 1e6:,.1f} MB "
            f"({self.timeline.event_count:,} events) is shown while the whole report loads"
        )


def preview(path, cancel=None) -> Preview | None:
    """A preview of a big, uncached timeline source, or None when the source opens fast anyway
    (small, cached, saved report, tables only) or its start cannot be read (the full load then
    reports why)."""
    from pathlib import Path

    from workbench.core.profiling.detect import detect
    from workbench.core.profiling.errors import ProfilingDataError
    from workbench.core.profiling.lod import TimelineLayout
    from workbench.core.profiling.storage import cache
    from workbench.core.profiling.timeline import TimelineError, load_timeline

    try:
        layout = detect(Path(path))
        if layout.saved is not None:
            return None
        files = [(p.stat().st_size, p) for u in layout.units for p in u.timelines]
        total = sum(size for size, _ in files)
        if total < PREVIEW_MIN_BYTES or cache.present(layout):
            return None
        size, biggest = max(files)
        tl = load_timeline(biggest, cancel=cancel, workers=1, max_bytes=PREVIEW_BYTES)
    except (OSError, ProfilingDataError, TimelineError):
        return None
    if not len(tl.lanes) or not len(tl.start_ns):
        return None
    return Preview(tl, TimelineLayout(tl), name_palette(tl.names), str(biggest), min(size, PREVIEW_BYTES), total)


def open_for_view(path, progress=None, cancel=None):
    """Work function behind the report document: open the report and prepare its views. A big
    uncached source first sends ``("preview", Preview)`` as a partial result."""
    from workbench.core.profiling.build import open_report

    early = preview(path, cancel)
    if early is not None and progress is not None:
        progress.partial(("preview", early))
    report = open_report(path, progress=progress, cancel=cancel, cache_later=True)
    for name in MAIN_TABLES:  # a cached report decodes its tables on first use: here, not on the GUI thread
        report.tables.get(name)
    return report, prepare(report, progress, cancel)


def write_cache(report, progress=None, cancel=None) -> str | None:
    """Work function: write the cache that :func:`open_for_view` left pending (the report is
    already on screen). Returns where it went, or None (nothing pending, or no writable place)."""
    from workbench.core.profiling.storage import cache

    layout, report.pending_cache = report.pending_cache, None
    if layout is None:
        return None
    if progress is not None:
        progress.status(f"Writing the cache of {layout.root.name} for fast re-opening")
    place = cache.store(layout, report, cancel)
    return None if place is None else str(place)


def statistics(report, which: str) -> tuple[pd.DataFrame, str]:
    """The Statistics view's table for ``which`` (one of STATISTICS) and a note (why empty)."""
    if which in ("ACL API", "Runtime API", "OS Runtime API"):
        level = {"ACL API": "acl", "Runtime API": "runtime", "OS Runtime API": "os_runtime"}[which]
        api = report.table("os_runtime_statistic") if level == "os_runtime" else report.api_statistic
        if level != "os_runtime" and len(api) and "level" in api.columns:
            api = api[api["level"].astype(str).str.lower() == level]
        if not len(api):
            return pd.DataFrame(), f"{which}: not collected. Collect it with {COLLECT_HINT[which]}."
        return _api_view(api), ""
    if which == "OPs":
        stat = report.op_statistic
        if not len(stat):
            return pd.DataFrame(), f"OPs: not collected. Collect it with {COLLECT_HINT['OPs']}."
        return stat.reset_index(drop=True), ""
    if which == "Op Info":
        ops = report.ops
        if not len(ops):
            return pd.DataFrame(), f"Op Info: not collected. Collect it with {COLLECT_HINT['Op Info']}."
        return ops, ""
    raise ValueError(f"unknown statistics table {which!r}; expected one of {STATISTICS}")


def _api_view(api: pd.DataFrame) -> pd.DataFrame:
    total = pd.to_numeric(api.get("total_us"), errors="coerce")
    out = pd.DataFrame(
        {
            "Name": api.get("name"),
            "Type": api.get("level"),
            "Time(%)": (total / total.sum() * 100.0).round(2) if total.sum() else np.nan,
            "Time(us)": total,
            "Count": api.get("count"),
            "Avg(us)": api.get("avg_us"),
            "Min(us)": api.get("min_us"),
            "Max(us)": api.get("max_us"),
        }
    )
    for src, dst in (("pid", "Process ID"), ("tid", "Thread ID"), ("device", "Device")):
        if src in api.columns:
            out[dst] = api[src].to_numpy()
    return out.sort_values("Time(us)", ascending=False, kind="stable").reset_index(drop=True)


def ai_core_description(report, frame: pd.DataFrame | None = None) -> list[tuple[str, tuple[str, ...]]]:
    """The AI Core Metrics description as sentences: (English template, arguments). The UI
    translates each template (context "AICoreMetrics") before filling it in; only what the shown
    table ``frame`` (default: the report's metrics) has is explained."""
    frame = report.ai_core_metrics if frame is None else frame
    if not len(frame.columns):
        return [(AICORE_TEXT["none"], (COLLECT_HINT["AI Core"],))]
    parts: list[tuple[str, tuple[str, ...]]] = []
    if report.pmu_group:
        parts.append((AICORE_TEXT["group"], (report.pmu_group,)))
        shows, cannot = PMU_GROUPS.get(report.pmu_group, ("", ""))
        parts += [(text, ()) for text in (shows, cannot) if text]
    else:
        parts.append((AICORE_TEXT["unknown"], ()))
    if report.pmu_split:
        parts.append((AICORE_TEXT["split"], ()))
    if "memory_bound" in frame.columns:
        parts.append((AICORE_TEXT["memory_bound"], ()))
    left_out = other_task_types(report.ops)
    if left_out:
        count = sum(left_out.values())
        parts.append((AICORE_TEXT["others"], (f"{count:,}", ", ".join(left_out))))
    return parts


def ai_core_header(report) -> str:
    """The AI Core Metrics description in English (one line)."""
    return " ".join(template.format(*args) for template, args in ai_core_description(report))


def other_task_types(ops: pd.DataFrame | None) -> dict[str, int]:
    """Tasks of the OPs table that are no AI Core tasks (HCCL, AI_CPU, …): count per task type,
    the most frequent first. They have no PMU metrics, so the AI Core Metrics table leaves them out."""
    if ops is None or not len(ops) or "task_type" not in ops.columns:
        return {}
    others = ops["task_type"][~stats.ai_core_mask(ops)]  # the AI Core rows as the metrics table picks them
    counts = others.astype(object).where(others.notna(), "N/A").astype(str).value_counts()
    return {str(k): int(v) for k, v in counts.items()}


def ai_core_view(report) -> tuple[pd.DataFrame, list[tuple[str, tuple[str, ...]]], np.ndarray | None]:
    """What the AI Core Metrics view shows: the AI Core task rows (a report saved before they were
    filtered is filtered here too), its description and the memory-bound highlight."""
    frame = stats.ai_core_rows(report.ai_core_metrics)
    return frame, ai_core_description(report, frame), memory_bound_mask(frame)


def memory_bound_mask(frame: pd.DataFrame) -> np.ndarray | None:
    if "memory_bound" not in frame.columns:
        return None
    return (pd.to_numeric(frame["memory_bound"], errors="coerce") > 1.0).fillna(False).to_numpy()


def top_operators(report, n: int = 10) -> list[tuple[str, float]]:
    stat = report.op_statistic
    if not len(stat):
        return []
    key = "type" if "type" in stat.columns else ("key" if "key" in stat.columns else stat.columns[0])
    totals = pd.to_numeric(stat["total_us"], errors="coerce").fillna(0.0)
    agg = totals.groupby(stat[key].astype(str)).sum().sort_values(ascending=False).head(n)
    return [(str(k), float(v)) for k, v in agg.items()]


def summary_sections(report) -> list[tuple[str, list[tuple[str, str]]]]:
    """Analysis Summary: (section title, [(name, value), ...]); missing data says how to collect it."""
    sections: list[tuple[str, list[tuple[str, str]]]] = []
    src = report.source
    try:  # what the report is read from: not the cache beside it, nor files no reader takes
        read = [p for p in dict.fromkeys(report.input_paths()) if p.is_file()]
        if not read and src.is_dir():  # a layout that lists no files: the folder, its caches left out
            read = [p for p in src.rglob("*") if p.is_file() and not any(part.endswith(".wbcache") for part in p.parts)]
        size = sum(p.stat().st_size for p in read)
    except OSError:
        size = 0
    info_rows = [
        ("Source", str(src)),
        ("Kind", report.kind),
        ("Size", f"{size / 2**20:.2f} MiB"),
        ("Devices", ", ".join(str(d) for d in report.devices) or "none"),
        ("Elapsed time", f"{report.span_ns / 1e3:,.3f} µs" if report.span_ns else "unknown"),
    ]
    host = next((v for k, v in report.info.items() if k.startswith("host") and isinstance(v, dict)), {})
    if host.get("version"):
        info_rows.append(("CANN version", str(host["version"])))
    if host.get("simulated"):
        info_rows.append(("Collected by", "simulated CANN toolkit"))
    if report.timeline is not None:
        info_rows += [("Timeline events", f"{report.event_count:,}"), ("Flows", f"{report.flow_count:,}")]
    sections.append(("Profiling info", info_rows))
    if host:
        keep = [(k, str(v)) for k, v in host.items() if k not in ("version", "simulated")]
        sections.append(("Host", keep))
    else:
        sections.append(("Host", [("Host system", f"not collected ({COLLECT_HINT['host']})")]))
    dev_rows: list[tuple[str, str]] = []
    for k, v in report.info.items():
        if k.startswith("device") and isinstance(v, dict):
            for d in v.get("DeviceInfo", []) or []:
                dev_rows.append(
                    (
                        f"Device {d.get('id', '?')}",
                        ", ".join(
                            f"{name}={d[key]}"
                            for key, name in (
                                ("chip_name", "chip"),
                                ("ai_core_num", "AI Cores"),
                                ("aiv_num", "AI Vector cores"),
                                ("ai_cpu_num", "AI CPUs"),
                                ("ctrl_cpu_num", "control CPUs"),
                                ("aic_frequency", "AI Core MHz"),
                            )
                            if key in d
                        ),
                    )
                )
    sections.append(("Device", dev_rows or [("Device info", "not present in this report")]))
    bw = [
        c for c in (report.timeline.counters if report.timeline is not None else []) if c.name in ("HBM", "DDR", "LLC")
    ]
    if bw:
        rows = []
        for c in bw:
            for s, values in c.series.items():
                v = np.asarray(values, dtype=np.float64)
                if len(v):
                    rows.append((f"{c.name} {s}", f"avg {np.nanmean(v):,.1f}, max {np.nanmax(v):,.1f}"))
        sections.append(("Bandwidth", rows))
    else:
        sections.append(("Bandwidth", [("DDR/HBM read and write", f"not collected ({COLLECT_HINT['bandwidth']})")]))
    if not len(report.table("ai_core_utilization")):
        sections.append(
            (
                "AI Core utilization",
                [("Sample-based AI Core data", f"not collected ({COLLECT_HINT['ai_core_utilization']})")],
            )
        )
    if report.warnings:
        sections.append(("Warnings", [(str(i + 1), w) for i, w in enumerate(report.warnings)]))
    return sections
