"""msprof-analyze's db output: ``cluster_analysis_output/cluster_analysis.db`` for a job of db ranks.

msprof-analyze 26.2 ``cluster`` on torch_npu ``export_type=Db`` ranks writes no JSON/CSV but this
database (``cluster_analysis.py``: db input -> db output; ``analysis_facade.py`` runs the recipes
CommunicationGroupMap, CommunicationTimeSum, CommMatrixSum, then StepTraceTimeAnalysis, HostInfoAnalysis,
ClusterBaseInfoAnalysis). :func:`write_db` writes its tables for what the merge holds, with its table and
column names, declared types and numbers (facts read from its code; none of it copied):

- ``CommunicationGroupMapping`` (``type, rank_set, group_name, group_id, pg_name``, TEXT; the groups of
  ``communication_group.json``'s ``comm_group_parallel_info``, ``rank_set`` written ``"(0,1)"``; rows ordered
  by type and group name, as its pandas groupby leaves them);
- ``ClusterStepTraceTime`` (its TablesConfig schema: ``step, type, "index"`` TEXT, the nine times NUMERIC,
  ``dp_index, pp_index, tp_index`` INTEGER): cluster_step_trace_time's rows, a stage's index ``"(0,1)"``,
  no parallel indices -> 0 (it pads the rows with 0 to the table's width);
- ``ClusterCommunicationTime``: every rank's CommAnalyzerTime row (``elapse_time`` as ``elapsed_time``, both
  ratios 0) plus per step, rank and group a ``Total Op Info`` row: the five times summed, start 0, the ratios
  ``sync / (transit + sync)`` and ``wait / (transit + wait)`` rounded to 4 as numpy rounds, 0 for a zero sum;
- ``ClusterCommunicationBandwidth``: every rank's CommAnalyzerBandwidth row (``transport_type`` as
  ``band_type``; the producers' layout: no row for a transport without traffic, ``0, 0, 0`` for one without
  packet sizes) plus per group, step, rank, transport and packet size a ``Total Op Info`` row: size and time
  summed over the distinct operators, counts and durations summed, bandwidth size / time rounded to 4 (0 for no
  time), large-packet ratio 0;
- ``ClusterCommunicationMatrix`` (``step, hccl_op_name, group_name, src_rank, dst_rank, transport_type,
  op_name, transit_size, transit_time, bandwidth``): the merged links in global ranks (REAL), bandwidth size /
  time unrounded (0 for no time), plus per group, step and link a ``Total Op Info`` row over the ``-total``
  entries (its bandwidth size / time, time 0 giving inf, or NULL for 0 / 0).

Sums are the ones its pandas (3.x) gives: a groupby sum is Kahan-compensated in row order (the ranks' own row
order: operators as the rank's tables list them), a DataFrame column sum is numpy's pairwise sum. The
pandas-written tables declare a column INTEGER when every value is an integer (the rank's db keeps a whole
number as one), REAL otherwise, TEXT for text, as ``DataFrame.to_sql`` does.

and, from what the ranks say beyond the merge (:class:`DbFacts`; msprof-analyze's HostInfoAnalysis and
ClusterBaseInfoAnalysis, its TablesConfig schemas, ``CREATE TABLE name(col TYPE,...)``):

- ``HostInfo`` (``hostUid, hostName`` TEXT): per host uid the ``HOST_INFO`` first row of the ranks' profiler
  dbs (``ascend_pytorch_profiler_{rank}.db``; both as text), one row per uid, the last name seen;
- ``RankDeviceMap`` (``rankId, deviceId`` INTEGER, ``hostUid, profilePath`` TEXT): every row of the ranks'
  ``RANK_DEVICE_MAP`` with the rank's host uid and its folder (the analysed folder's real path joined with the
  rank folder's name), sorted. A rank whose db, ``HOST_INFO`` or ``RANK_DEVICE_MAP`` is missing or empty is in
  neither table (a warning); no table when no rank has them. :func:`read_rank_host` reads one rank (STDLIB
  ONLY: it runs on the rank's Dask worker, shipped by value);
- ``ClusterBaseInfo`` (``key, value`` TEXT): one row ``distributed_args`` -> the ``json.dumps`` of the first
  rank's profiler_metadata.json ``distributed_args`` (without ``rank``); no table without them.

msprof and MindSpore db ranks (HostInfoAnalysis' ``is_msprof`` / ``is_mindspore``): the host is the first
``HOST_INFO`` row of the profiler db msprof-analyze reads for the rank's steps too (a PROF folder's newest
``msprof_{14 digits}.db``: :func:`~workbench.core.cluster.reduce_db.msprof_db`; a MindSpore rank's
``ASCEND_PROFILER_OUTPUT/ascend_mindspore_profiler_{rank}.db``), and its RankDeviceMap row is not read from a db
but ``(rank, device)``: the device of the PROF folder's first ``device_{id}`` entry (a MindSpore rank: of its
first ``PROF_*`` entry), in its directory listing's order; msprof-analyze's rank is a text there, so its rows
sort as texts (``"10" < "2"``; the INTEGER column stores the number).

``ClusterStepTraceTime``'s Step of msprof / MindSpore db ranks is NULL: their one row per rank (and the stage
rows over them) has no step (``MsprofStepTraceTimeDBAdapter`` gives None; our reduction ``""``, as the CSV
writes it): :attr:`DbFacts.stepless` names those ranks.

The file is built beside its place and moved there whole (:func:`atomic_open`); an existing one is replaced
only with ``force``.
"""

from __future__ import annotations

import json
import math
import os
import re
import shutil
import sqlite3
import tempfile
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from workbench.core.cluster.merge import BW_INFO, TIME_INFO, TOTAL_OP, ClusterTables
from workbench.core.cluster.reduce_db import msprof_db
from workbench.core.fsutil import OutputRefused, atomic_open, refuse_existing

DB_NAME = "cluster_analysis.db"
GROUP_TABLE = "CommunicationGroupMapping"
STEP_TABLE = "ClusterStepTraceTime"
TIME_TABLE = "ClusterCommunicationTime"
BANDWIDTH_TABLE = "ClusterCommunicationBandwidth"
MATRIX_TABLE = "ClusterCommunicationMatrix"
HOST_TABLE = "HostInfo"
DEVICE_TABLE = "RankDeviceMap"
BASE_TABLE = "ClusterBaseInfo"
TABLES = (GROUP_TABLE, TIME_TABLE, BANDWIDTH_TABLE, MATRIX_TABLE, STEP_TABLE, BASE_TABLE, HOST_TABLE, DEVICE_TABLE)
# msprof-analyze's TablesConfig "HostInfoMap", "RankDeviceMapMap", "ClusterBaseInfoMap"
HOST_SCHEMA = (("hostUid", "TEXT"), ("hostName", "TEXT"))
DEVICE_SCHEMA = (("rankId", "INTEGER"), ("deviceId", "INTEGER"), ("hostUid", "TEXT"), ("profilePath", "TEXT"))
BASE_SCHEMA = (("key", "TEXT"), ("value", "TEXT"))
DISTRIBUTED_ARGS = "distributed_args"
# the rank kinds whose db rows msprof-analyze computes from the profiler db's tasks: no Step (NULL), and whose
# HostInfo / RankDeviceMap come from the PROF folder (HostInfoAnalysis' is_msprof / is_mindspore)
STEPLESS_KINDS = ("msprof", "mindspore")
_DEVICE_DIR = re.compile(r"device_\d{1,2}$")  # MsprofDataPreprocessor.DEVICE_PATTERN (re.match)
_PROF_DIR = re.compile(r"^PROF_\d+_\d+_[0-9a-zA-Z]+")  # MindsporeDataPreprocessor.get_msprof_dir
# msprof-analyze's TablesConfig "ClusterStepTraceTimeMap" (DBManager.create_tables)
STEP_SCHEMA = (
    ("step", "TEXT"),
    ("type", "TEXT"),
    ('"index"', "TEXT"),
    ("computing", "NUMERIC"),
    ("communication_not_overlapped", "NUMERIC"),
    ("overlapped", "NUMERIC"),
    ("communication", "NUMERIC"),
    ("free", "NUMERIC"),
    ("stage", "NUMERIC"),
    ("bubble", "NUMERIC"),
    ("communication_not_overlapped_and_exclude_receive", "NUMERIC"),
    ("preparing", "NUMERIC"),
    ("dp_index", "INTEGER"),
    ("pp_index", "INTEGER"),
    ("tp_index", "INTEGER"),
)
GROUP_COLUMNS = ("type", "rank_set", "group_name", "group_id", "pg_name")
TIME_COLUMNS = (
    "step",
    "rank_id",
    "hccl_op_name",
    "group_name",
    "start_timestamp",
    "elapsed_time",
    "transit_time",
    "wait_time",
    "synchronization_time",
    "idle_time",
    "synchronization_time_ratio",
    "wait_time_ratio",
)
TIME_KEYS = (
    "Start Timestamp(us)",
    "Elapse Time(ms)",
    "Transit Time(ms)",
    "Wait Time(ms)",
    "Synchronization Time(ms)",
    "Idle Time(ms)",
)
BANDWIDTH_COLUMNS = (
    "step",
    "rank_id",
    "hccl_op_name",
    "group_name",
    "band_type",
    "transit_size",
    "transit_time",
    "bandwidth",
    "large_packet_ratio",
    "package_size",
    "count",
    "total_duration",
)
BAND_KEYS = ("Transit Size(MB)", "Transit Time(ms)", "Bandwidth(GB/s)", "Large Packet Ratio")
MATRIX_COLUMNS = (
    "step",
    "hccl_op_name",
    "group_name",
    "src_rank",
    "dst_rank",
    "transport_type",
    "op_name",
    "transit_size",
    "transit_time",
    "bandwidth",
)
# columns pandas holds as floats whatever the values (a division's result, an explicit float cast)
ALWAYS_REAL = {
    TIME_TABLE: {"synchronization_time_ratio", "wait_time_ratio"},
    BANDWIDTH_TABLE: {"bandwidth"},
    MATRIX_TABLE: {"src_rank", "dst_rank", "bandwidth"},
}
TEXT_COLUMNS = {"step", "hccl_op_name", "group_name", "band_type", "transport_type", "op_name"}
INT64 = 1 << 63


# ---- the arithmetic of msprof-analyze's libraries ------------------------------------------------


def kahan_sum(values: Iterable[float]) -> float:
    """pandas' groupby sum of one group (its ``group_sum``: Kahan-compensated, in row order)."""
    total = compensation = 0.0
    for value in values:
        y = value - compensation
        t = total + y
        compensation = t - total - y
        if compensation != compensation:  # an infinite value: no compensation (pandas GH#53606)
            compensation = 0.0
        total = t
    return total


def pairwise_sum(values: list[float]) -> float:
    """numpy's ``add.reduce`` of a contiguous float64 array (pairwise, 8-way unrolled blocks of 128)."""
    n = len(values)
    if n < 8:
        total = 0.0
        for value in values:
            total += value
        return total
    if n <= 128:
        r = list(values[:8])
        i = 8
        while i < n - n % 8:
            for j in range(8):
                r[j] += values[i + j]
            i += 8
        total = ((r[0] + r[1]) + (r[2] + r[3])) + ((r[4] + r[5]) + (r[6] + r[7]))
        for value in values[i:]:
            total += value
        return total
    half = n // 2
    half -= half % 8
    return pairwise_sum(values[:half]) + pairwise_sum(values[half:])


def numpy_round4(value: float) -> float:
    """``Series.round(4)``: numpy's ``rint(x * 10**4) / 10**4`` (not Python's correctly rounded ``round``)."""
    if not math.isfinite(value):
        return value
    return round(value * 10000.0) / 10000.0


def _divide(a: float, b: float) -> float | None:
    """float64 ``a / b`` as numpy gives it: inf for a non-zero by zero, NaN (NULL in SQLite) for 0 / 0."""
    if b != 0:
        return a / b
    if a == 0 or a != a:
        return None
    return math.copysign(math.inf, a) * math.copysign(1.0, b)


def _num(value: Any) -> float:
    if not isinstance(value, (int, float)) or isinstance(value, bool):
        return 0.0
    try:
        return float(value)
    except OverflowError:  # an integer beyond a float (a damaged file's sums)
        return math.copysign(math.inf, value)


# ---- the rows -------------------------------------------------------------------------------------


def _split(key: str) -> tuple[str, str]:
    name, sep, group = key.rpartition("@")
    return (name, group) if sep else (key, "")


def _rank_set(ranks: Iterable[Any]) -> str:
    return "(" + ",".join(str(r) for r in ranks) + ")"


def group_rows(tables: ClusterTables) -> list[tuple[Any, ...]]:
    records = tables.groups.get("comm_group_parallel_info") or []
    rows = {
        (
            str(r.get("type", "")),
            _rank_set(r.get("rank_set") or []),
            str(r.get("group_name", "")),
            str(r.get("group_id", "")),
            str(r.get("pg_name", "")),
        )
        for r in records
        if isinstance(r, dict)
    }
    return sorted(rows, key=lambda row: (row[0], row[2]))


def _stage_index(index: Any) -> str:
    parts = [p.strip() for p in str(index).strip("()").split(",") if p.strip()]
    return "(" + ",".join(parts) + ")"


def _stage_ranks(index: Any) -> set[int]:
    return {int(p) for p in str(index).strip("()").split(",") if p.strip().lstrip("-").isdigit()}


def _no_step(cells: list[Any], stepless: frozenset[int]) -> bool:
    """Is ``cells`` a row msprof-analyze writes with a NULL Step: ``""`` of a stepless rank, or of a stage
    holding one (its key is the ranks' None step)?"""
    if not stepless or len(cells) < 3 or cells[0] != "":
        return False
    if cells[1] == "rank":
        return isinstance(cells[2], int) and cells[2] in stepless
    return cells[1] == "stage" and bool(_stage_ranks(cells[2]) & stepless)


def step_rows(tables: ClusterTables, stepless: Iterable[int] = ()) -> list[tuple[Any, ...]]:
    """ClusterStepTraceTime's rows; the Step of a ``stepless`` rank's rows (and its stages') is NULL."""
    width = len(STEP_SCHEMA)
    no_step = frozenset(stepless)
    out = []
    for row in tables.step_rows:
        cells = list(row)
        if _no_step(cells, no_step):
            cells[0] = None
        if len(cells) > 2 and cells[1] == "stage":
            cells[2] = _stage_index(cells[2])
        cells = (cells + [0] * width)[:width]
        out.append(tuple(cells))
    return out


def _ops(doc: dict[str, Any]) -> Iterator[tuple[str, str, str, int, dict[str, Any]]]:
    """(step, op name, group name, rank, info) of every operator of every rank, Total Op Info left out."""
    for steps in doc.values():
        if not isinstance(steps, dict):
            continue
        for step, ops in steps.items():
            if not isinstance(ops, dict):
                continue
            for key, by_rank in ops.items():
                if key.startswith(TOTAL_OP) or not isinstance(by_rank, dict):
                    continue
                name, group = _split(key)
                for rank, info in by_rank.items():
                    if isinstance(info, dict) and str(rank).lstrip("-").isdigit():
                        yield str(step), name, group, int(rank), info


def _multiplicity(tables: ClusterTables) -> dict[str, int]:
    """How many rows a group name has in CommunicationGroupMapping (its merge by group name repeats an
    operator's row once per row; a name two groups share is summed twice, as msprof-analyze does)."""
    seen: dict[str, set[str]] = {}
    for row in group_rows(tables):
        seen.setdefault(row[2], set()).add(row[1])
    return {name: len(sets) for name, sets in seen.items()}


def time_rows(tables: ClusterTables) -> list[tuple[Any, ...]]:
    rows: list[tuple[Any, ...]] = []
    sums: dict[tuple[str, int, str], list[list[float]]] = {}
    times_of = len(TIME_KEYS) - 1  # the five summed: all but the start
    for step, name, group, rank, info in _ops(tables.communication):
        times = info.get(TIME_INFO)
        if not isinstance(times, dict):
            continue
        values = [_num(times.get(k, 0)) for k in TIME_KEYS]
        rows.append((step, rank, name, group, *values, 0, 0))
        acc = sums.setdefault((step, rank, group), [[] for _ in range(times_of)])
        for column, value in zip(acc, values[1:]):
            column.append(value)
    repeat = _multiplicity(tables)
    for (step, rank, group), columns in sums.items():
        m = max(1, repeat.get(group, 1))
        elapse, transit, wait, sync, idle = (kahan_sum(v for v in col for _ in range(m)) for col in columns)
        sync_ratio = _ratio(sync, transit + sync)
        wait_ratio = _ratio(wait, transit + wait)
        rows.append((step, rank, TOTAL_OP, group, 0, elapse, transit, wait, sync, idle, sync_ratio, wait_ratio))
    return rows


def _ratio(part: float, whole: float) -> float:
    return 0.0 if whole == 0 else numpy_round4(part / whole)


def bandwidth_rows(tables: ClusterTables) -> list[tuple[Any, ...]]:
    rows: list[tuple[Any, ...]] = []
    # (group, step, rank, transport) -> op -> (size, time) of its first row; and the packet rows in order
    firsts: dict[tuple[str, str, int, str], dict[str, tuple[float, float]]] = {}
    packets: dict[tuple[str, str, int, str], list[tuple[float, float, float]]] = {}
    for step, name, group, rank, info in _ops(tables.communication):
        bands = info.get(BW_INFO)
        if not isinstance(bands, dict):
            continue
        for transport, part in bands.items():
            if not isinstance(part, dict):
                continue
            size, time, bandwidth, large = (_num(part.get(k, 0)) for k in BAND_KEYS)
            if not (size or time or bandwidth or large):
                continue  # the producers write no row for a transport without traffic
            dist = part.get("Size Distribution")
            sizes = (
                [(k, v) for k, v in dist.items() if isinstance(v, list) and len(v) == 2]
                if isinstance(dist, dict)
                else []
            )
            cells = [(_float_key(k), _num(v[0]), _num(v[1])) for k, v in sizes] or [(0.0, 0.0, 0.0)]
            key = (group, step, rank, str(transport))
            firsts.setdefault(key, {}).setdefault(name, (size, time))
            for package, count, duration in cells:
                rows.append(
                    (step, rank, name, group, str(transport), size, time, bandwidth, large, package, count, duration)
                )
                packets.setdefault(key, []).append((package, count, duration))
    repeat = _multiplicity(tables)
    for key, ops in firsts.items():
        group, step, rank, transport = key
        m = max(1, repeat.get(group, 1))
        distinct = list(ops.values())
        total_size = pairwise_sum([s for s, _t in distinct])
        total_time = pairwise_sum([t for _s, t in distinct])
        bandwidth = 0.0 if total_time == 0 else numpy_round4(total_size / total_time)
        by_package: dict[float, list[tuple[float, float]]] = {}
        for package, count, duration in packets.get(key, []):
            by_package.setdefault(package, []).extend([(count, duration)] * m)
        for package, pairs in by_package.items():
            count = kahan_sum(c for c, _d in pairs)
            duration = kahan_sum(d for _c, d in pairs)
            rows.append(
                (step, rank, TOTAL_OP, group, transport, total_size, total_time, bandwidth, 0, package, count, duration)
            )
    return rows


def _float_key(key: Any) -> float:
    try:
        return float(key)
    except (TypeError, ValueError):
        return 0.0


def matrix_rows(tables: ClusterTables) -> list[tuple[Any, ...]]:
    rows: list[tuple[Any, ...]] = []
    totals: dict[tuple[str, str, float, float], list[Any]] = {}
    for steps in tables.matrix.values():
        if not isinstance(steps, dict):
            continue
        for step, ops in steps.items():
            if not isinstance(ops, dict):
                continue
            for key, links in ops.items():
                if key.startswith(TOTAL_OP) or not isinstance(links, dict):
                    continue
                name, group = _split(key)
                for link, entry in links.items():
                    src, sep, dst = str(link).partition("-")
                    if not sep or not isinstance(entry, dict):
                        continue
                    try:
                        s, d = float(int(src)), float(int(dst))
                    except (ValueError, OverflowError):
                        continue
                    size, time = _num(entry.get("Transit Size(MB)")), _num(entry.get("Transit Time(ms)"))
                    transport, op_name = entry.get("Transport Type"), entry.get("Op Name", "")
                    rows.append(
                        (str(step), name, group, s, d, transport, op_name, size, time, size / time if time else 0.0)
                    )
                    if "total" in name:
                        acc = totals.setdefault((group, str(step), s, d), [transport, op_name, [], []])
                        acc[2].append(size)
                        acc[3].append(time)
    for (group, step, s, d), (transport, op_name, sizes, times) in totals.items():
        size, time = kahan_sum(sizes), kahan_sum(times)
        rows.append((step, TOTAL_OP, group, s, d, transport, op_name, size, time, _divide(size, time)))
    return rows


# ---- what the ranks say beyond the merge: HostInfo, RankDeviceMap, ClusterBaseInfo -------------------


def _first_device(folder: str) -> int | None:
    """MsprofDataPreprocessor.get_device_id: the id of ``folder``'s first ``device_{id}`` entry (listing order)."""
    try:
        names = os.listdir(folder)
    except OSError:
        return None
    return next((int(n.split("_")[-1]) for n in names if _DEVICE_DIR.match(n)), None)


def _rank_device(rank: int, path: str, kind: str) -> tuple[list[tuple[Any, ...]], str]:
    """An msprof / MindSpore rank's RankDeviceMap rows as msprof-analyze makes them (``[(str(rank), device)]``,
    or none) and where the device was looked for."""
    folder = path
    if kind == "mindspore":  # its PROF_* folder (MindsporeDataPreprocessor.get_msprof_dir)
        try:
            prof = next((n for n in os.listdir(path) if _PROF_DIR.match(n)), None)
        except OSError:
            prof = None
        if prof is None:
            return [], f"{path}: no PROF_* folder"
        folder = os.path.join(path, prof)
    device = _first_device(folder)
    return ([(str(rank), device)] if device is not None else []), f"{folder}: no device_<id> folder"


def read_rank_host(rank: int, path: str, kind: str = "pytorch") -> tuple[Any, list[tuple[Any, ...]], str | None]:
    """One rank's part of HostInfo / RankDeviceMap, read where the rank is (STDLIB ONLY, nothing of this
    module but itself, :func:`~workbench.core.cluster.reduce_db.msprof_db` and stdlib modules: shipped by value to
    the rank's worker): ``((hostUid, hostName), rows, None)`` with ``rows`` its RankDeviceMap rows + hostUid +
    profilePath, or ``(None, [], warning)``. ``kind``: the rank's kind (``pytorch``: its
    ``ascend_pytorch_profiler_{rank}.db``'s RANK_DEVICE_MAP; ``msprof`` / ``mindspore``: see the module
    docstring). Never raises."""
    left_out = "the rank is left out of HostInfo and RankDeviceMap"
    if kind == "msprof":
        found = msprof_db(path)
        if found is None:
            return None, [], f"rank {rank}: no msprof_<timestamp>.db in {path}; {left_out}"
        db = found
    else:
        prefix = "ascend_mindspore_profiler" if kind == "mindspore" else "ascend_pytorch_profiler"
        name = f"{prefix}_{rank}.db"
        db = os.path.join(path, "ASCEND_PROFILER_OUTPUT", name)
        if not os.path.isfile(db):
            return None, [], f"rank {rank}: no {name} in {os.path.dirname(db)}; {left_out}"
    mapped = kind in ("msprof", "mindspore")  # the device from the folder, not from a RANK_DEVICE_MAP table
    try:
        con = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
        try:
            con.execute("PRAGMA query_only = 1")
            have = {str(r[0]) for r in con.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
            host = con.execute("SELECT * FROM HOST_INFO LIMIT 1").fetchall() if "HOST_INFO" in have else []
            devices: list[tuple[Any, ...]] = []
            if not mapped and "RANK_DEVICE_MAP" in have:
                devices = con.execute("SELECT * FROM RANK_DEVICE_MAP").fetchall()
        finally:
            con.close()
    except sqlite3.Error as exc:
        return None, [], f"{db}: not a readable SQLite database ({exc}); {left_out}"
    no_device = ""
    if mapped:
        devices, no_device = _rank_device(rank, path, kind)
    missing = [t for t, rows in (("HOST_INFO", host), ("RANK_DEVICE_MAP", devices)) if not (rows and rows[0])]
    if "HOST_INFO" in missing or len(host[0]) < 2:
        tables = "HOST_INFO" if mapped else " or ".join(missing or ["HOST_INFO"])
        return None, [], f"{db}: no {tables} rows; {left_out}"
    if missing:
        return None, [], f"{no_device}; {left_out}" if mapped else f"{db}: no RANK_DEVICE_MAP rows; {left_out}"
    uid, host_name = str(host[0][0]), str(host[0][1])
    # msprof-analyze's rank folder: the analysed folder's real path joined with the folder's own name
    folder = os.path.join(os.path.realpath(os.path.dirname(os.path.abspath(path))), os.path.basename(path))
    return (uid, host_name), [(*row, uid, folder) for row in devices], None


@dataclass
class DbFacts:
    """What cluster_analysis.db takes from the ranks beyond the merged tables: HostInfo's and RankDeviceMap's
    rows and ClusterBaseInfo's ``distributed_args`` (see the module docstring)."""

    hosts: list[tuple[str, str]] = field(default_factory=list)
    devices: list[tuple[Any, ...]] = field(default_factory=list)
    distributed_args: dict[str, Any] | None = None
    warnings: list[str] = field(default_factory=list)
    stepless: frozenset[int] = frozenset()  # ranks whose ClusterStepTraceTime Step is NULL (STEPLESS_KINDS)


def _sort_key(row: tuple[Any, ...]) -> tuple[tuple[int, Any], ...]:
    """Python's list order of msprof-analyze's rows (numbers before texts where a cell is damaged)."""
    return tuple((0, v) if isinstance(v, (int, float)) and not isinstance(v, bool) else (1, str(v)) for v in row)


def db_facts(
    per_rank: Sequence[tuple[Any, list[tuple[Any, ...]], str | None]],
    distributed_args: Sequence[dict[str, Any] | None] = (),
    stepless: Iterable[int] = (),
) -> DbFacts:
    """The ranks' :func:`read_rank_host` results (in rank order), ``distributed_args`` (per rank, in rank
    order; the first non-empty one counts) and the ``stepless`` ranks (of :data:`STEPLESS_KINDS`) as
    :class:`DbFacts`."""
    facts = DbFacts(stepless=frozenset(stepless))
    hosts: dict[str, str] = {}
    for host, rows, warning in per_rank:
        if warning:
            facts.warnings.append(warning)
        if host and host[0] and host[1]:
            hosts[str(host[0])] = str(host[1])
        facts.devices.extend(tuple(r) for r in rows)
    facts.hosts = list(hosts.items())
    facts.devices.sort(key=_sort_key)
    args = next((a for a in distributed_args if isinstance(a, dict) and a), None)
    if args is not None:
        facts.distributed_args = {k: v for k, v in args.items() if k != "rank"}
    return facts


def base_rows(facts: DbFacts) -> list[tuple[str, str]]:
    if facts.distributed_args is None:
        return []
    return [(DISTRIBUTED_ARGS, json.dumps(facts.distributed_args))]


# ---- the file ------------------------------------------------------------------------------------


def _declared(table: str, columns: tuple[str, ...], rows: list[tuple[Any, ...]]) -> list[tuple[str, str]]:
    """The types ``DataFrame.to_sql`` declares: TEXT, INTEGER when every value is a whole number, else REAL."""
    out = []
    for i, column in enumerate(columns):
        if column in TEXT_COLUMNS or column in ("type", "rank_set", "group_id", "pg_name"):
            out.append((column, "TEXT"))
            continue
        whole = column not in ALWAYS_REAL.get(table, set()) and all(
            isinstance(r[i], int) or (isinstance(r[i], float) and r[i].is_integer() and abs(r[i]) < INT64) for r in rows
        )
        out.append((column, "INTEGER" if whole else "REAL"))
    return out


def _pandas_table(con: sqlite3.Connection, table: str, types: list[tuple[str, str]], rows: list[tuple]) -> None:
    listed = ",\n  ".join(f'"{c}" {t}' for c, t in types)
    con.execute(f'CREATE TABLE "{table}" (\n{listed}\n)')
    con.executemany(f'INSERT INTO "{table}" VALUES ({",".join("?" * len(types))})', rows)


def planned(tables: ClusterTables, facts: DbFacts | None = None) -> list[str]:
    """The tables a write of ``tables`` (and ``facts``) creates (msprof-analyze writes none for an empty part)."""
    out = []
    if group_rows(tables):
        out += [GROUP_TABLE]
        if any(True for _ in _ops(tables.communication)):
            out += [TIME_TABLE, BANDWIDTH_TABLE]
    if any(k for steps in tables.matrix.values() if isinstance(steps, dict) for k in steps):
        out.append(MATRIX_TABLE)
    if tables.step_rows:
        out.append(STEP_TABLE)
    if facts is not None:
        out += [t for t, rows in ((BASE_TABLE, base_rows(facts)), (HOST_TABLE, facts.hosts)) if rows]
        out += [DEVICE_TABLE] if facts.devices else []
    return out


def _config_table(con: sqlite3.Connection, table: str, schema: tuple[tuple[str, str], ...], rows: list) -> None:
    """A table as msprof-analyze's DBManager.create_tables makes it from its TablesConfig, and its rows."""
    con.execute(f"CREATE TABLE {table}({','.join(f'{c} {t}' for c, t in schema)})")
    con.executemany(f"INSERT INTO {table} VALUES ({','.join('?' * len(schema))})", rows)


def build(tables: ClusterTables, path: str | Path, facts: DbFacts | None = None) -> list[str]:
    """Write the tables of ``tables`` (and ``facts``) into the new SQLite file ``path``; the tables written."""
    names = planned(tables, facts)
    con = sqlite3.connect(str(path))
    try:
        with con:
            if GROUP_TABLE in names:
                _pandas_table(con, GROUP_TABLE, [(c, "TEXT") for c in GROUP_COLUMNS], group_rows(tables))
            for table, columns, make in (
                (TIME_TABLE, TIME_COLUMNS, time_rows),
                (BANDWIDTH_TABLE, BANDWIDTH_COLUMNS, bandwidth_rows),
                (MATRIX_TABLE, MATRIX_COLUMNS, matrix_rows),
            ):
                if table in names:
                    rows = make(tables)
                    _pandas_table(con, table, _declared(table, columns, rows), rows)
            if STEP_TABLE in names:
                _config_table(con, STEP_TABLE, STEP_SCHEMA, step_rows(tables, facts.stepless if facts else ()))
            if facts is not None:
                for table, schema, rows in (
                    (BASE_TABLE, BASE_SCHEMA, base_rows(facts)),
                    (HOST_TABLE, HOST_SCHEMA, facts.hosts),
                    (DEVICE_TABLE, DEVICE_SCHEMA, facts.devices),
                ):
                    if table in names:
                        _config_table(con, table, schema, rows)
    finally:
        con.close()
    return names


def write_db(tables: ClusterTables, out_dir: str | Path, *, force: bool = False, facts: DbFacts | None = None) -> Path:
    """``out_dir/cluster_analysis.db`` with msprof-analyze's tables of ``tables`` (and of ``facts``: HostInfo,
    RankDeviceMap, ClusterBaseInfo); its path. Built in a temporary folder beside it and put in place
    atomically; an existing file only with ``force``."""
    out = Path(out_dir)
    target = out / DB_NAME
    refuse_existing(target, force)
    if out.exists() and not out.is_dir():
        raise OutputRefused(f"{out}: exists and is not a folder")
    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix=f".{DB_NAME}.", dir=out) as work:
        built = Path(work) / DB_NAME
        build(tables, built, facts)
        with open(built, "rb") as src, atomic_open(target, "wb", encoding=None) as dst:
            shutil.copyfileobj(src, dst)
    return target


__all__ = [
    "DB_NAME",
    "STEPLESS_KINDS",
    "TABLES",
    "DbFacts",
    "build",
    "db_facts",
    "planned",
    "read_rank_host",
    "write_db",
]
