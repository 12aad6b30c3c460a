"""The database export (docs/cann-formats.md §11): ``msprof_{timestamp}.db`` (msprof 8.x ``--type=db``),
``ascend_pytorch_profiler[_{rank}].db`` + ``analysis.db`` (torch_npu ``export_type=Db``) and
``ascend_mindspore_profiler[_{rank}].db`` (MindSpore), written from the same :class:`Run` as the Text export.

Every cell is taken from the row the Text export writes for the same task (so the two exports hold the
same values): strings go through ``STRING_IDS`` (``N/A`` stays the text ``N/A``), missing ids are
``4294967295``, times are int ns since the epoch, memory in bytes. Column names follow the producers'
code (torch_npu ``TableColumnsManager``, msprof-analyze's SQL); what the sources do not show is marked
UNVERIFIED in the docs. ``schema="old"`` writes ``blockDim/mixBlockDim`` (CANN 8.0) instead of
``blockNum/mixBlockNum`` (newer) in COMPUTE_TASK_INFO.
"""

from __future__ import annotations

import csv
import sqlite3
from pathlib import Path

from . import commfiles, hccl, tables
from .fmt import NA, csv_line
from .hccl import CommOp, CommTask
from .memory import MODULE_IDS, Memory
from .overlap import StepRow
from .schedule import MODEL_ID_NONE, Run

INVALID = 4294967295
API_TYPES = {"acl": 20000, "model": 15000, "node": 10000, "communication": 5500, "runtime": 5000}
FWK_TYPES = {"op": 50001, "queue": 50002, "trace": 50003, "mstx": 50004}
TENSOR_KEYS = ("inputShapes", "inputDataTypes", "inputFormats", "outputShapes", "outputDataTypes", "outputFormats")


class _Strings:
    def __init__(self) -> None:
        self.ids: dict[str, int] = {}

    def __call__(self, text: str) -> int:
        return self.ids.setdefault(text, len(self.ids))


def _cells(row: list[str]) -> list[str]:
    """A Text row as a CSV reader sees it (quotes gone, the trailing TAB of a 2025 start kept out)."""
    return [c.rstrip("\t") for c in next(csv.reader([csv_line(row)]))]


def us_text_ns(text: str) -> int:
    """``"1717407000000246.371"`` -> 1717407000000246371 (exact)."""
    whole, _, frac = text.strip().partition(".")
    return int(whole) * 1000 + int((frac + "000")[:3])


def _int(cell: str) -> int:
    return INVALID if cell in ("", NA) else int(cell)


def global_tid(pid: int, tid: int) -> int:
    """``globalTid`` = pid << 32 | tid (UNVERIFIED packing, chosen)."""
    return (pid << 32) | tid


def _create(con: sqlite3.Connection, name: str, columns: list[tuple[str, str]], rows) -> None:
    con.execute(f"CREATE TABLE {name} ({', '.join(f'{c} {t}' for c, t in columns)})")
    marks = ",".join("?" * len(columns))
    con.executemany(f"INSERT INTO {name} VALUES ({marks})", rows)


def _device_tables(
    con, run: Run, dev: int, pmu_cols: list[str], sid: _Strings, schema: str, comm: list[CommOp] | None = None
) -> None:
    tasks = run.tasks[dev]
    header = tables.kernel_details_header("2025", run.chip, None)
    task_rows, compute_rows, pmu_rows = [], [], []
    comm_of = {id(op.task): op for op in comm or []}
    comm_task_rows = []
    gid = -1
    for t in tasks:
        op = comm_of.get(id(t))
        if op is not None:  # a communication operator: its small tasks are the TASK rows
            for c in op.tasks:
                gid += 1
                task_rows.append(
                    (c.start_ns, c.end_ns, dev, t.connection_id, gid, run.pid, sid(c.hw_type), INVALID)
                    + (c.stream_id, c.task_id, run.model_id)
                )
                comm_task_rows.append(_comm_task_row(op, c, gid, sid, schema))
            continue
        gid += 1
        cells = _cells(tables.kernel_details_row(run, t, "2025", pmu_cols))
        cell = dict(zip(header + pmu_cols, cells))
        ctx = INVALID if t.context_id == NA else int(t.context_id)
        task_rows.append(
            (
                t.start_ns,
                t.end_ns,
                dev,
                t.connection_id,
                gid,
                run.pid,
                sid(t.task_type),
                ctx,
                t.stream_id,
                t.task_id,
                run.model_id,
            )
        )
        compute_rows.append(
            (
                sid(t.op.name),
                gid,
                _int(cell["Block Dim"]),
                _int(cell["Mix Block Dim"]),
                sid(t.task_type),
                sid(t.op.type),
                *(sid(cell[h].strip('"')) for h in tables.TENSOR_COLS),  # shapes without the CSV quotes
                sid(""),
                sid(cell["OP State"]),
                sid(cell["HF32 Eligible"]),
            )
        )
        for name, text in zip(pmu_cols, cells[len(header) :]):
            if text not in ("", NA):
                value = int(text) if text.lstrip("-").isdigit() else float(text)
                pmu_rows.append((gid, sid(name), value))
    _create(
        con,
        "TASK",
        [
            ("startNs", "INTEGER"),
            ("endNs", "INTEGER"),
            ("deviceId", "INTEGER"),
            ("connectionId", "INTEGER"),
            ("globalTaskId", "INTEGER"),
            ("globalPid", "INTEGER"),
            ("taskType", "INTEGER"),
            ("contextId", "INTEGER"),
            ("streamId", "INTEGER"),
            ("taskId", "INTEGER"),
            ("modelId", "INTEGER"),
        ],
        task_rows,
    )
    block = ("blockDim", "mixBlockDim") if schema == "old" else ("blockNum", "mixBlockNum")
    _create(
        con,
        "COMPUTE_TASK_INFO",
        [
            ("name", "INTEGER"),
            ("globalTaskId", "INTEGER"),
            (block[0], "INTEGER"),
            (block[1], "INTEGER"),
            ("taskType", "INTEGER"),
            ("opType", "INTEGER"),
            *((k, "INTEGER") for k in TENSOR_KEYS),
            ("attrInfo", "INTEGER"),
            ("opState", "INTEGER"),
            ("hf32Eligible", "INTEGER"),
        ],
        compute_rows,
    )
    if pmu_rows:
        _create(
            con, "TASK_PMU_INFO", [("globalTaskId", "INTEGER"), ("name", "INTEGER"), ("value", "NUMERIC")], pmu_rows
        )
    _create(
        con,
        "CANN_API",
        [
            ("startNs", "INTEGER"),
            ("endNs", "INTEGER"),
            ("type", "INTEGER"),
            ("globalTid", "INTEGER"),
            ("connectionId", "INTEGER"),
            ("name", "INTEGER"),
        ],
        (
            (
                e.start_ns,
                e.start_ns + e.dur_ns,
                API_TYPES[e.level],
                global_tid(run.pid, e.tid),
                e.connection_id,
                sid(e.name),
            )
            for e in run.host[dev]
        ),
    )
    _create(
        con,
        "ENUM_API_TYPE",
        [("id", "INTEGER"), ("name", "TEXT")],
        sorted(((v, k) for k, v in {**API_TYPES, **FWK_TYPES}.items()), reverse=True),
    )
    _create(con, "NPU_INFO", [("id", "INTEGER"), ("name", "TEXT")], [(dev, run.chip.soc)])
    if comm:
        _comm_tables(con, comm, comm_task_rows, dev, sid, schema)


COMM_OP_COLUMNS = [
    ("opName", "INTEGER"),
    ("startNs", "INTEGER"),
    ("endNs", "INTEGER"),
    ("connectionId", "INTEGER"),
    ("groupName", "INTEGER"),
    ("opId", "INTEGER"),
    ("relay", "INTEGER"),
    ("retry", "INTEGER"),
    ("dataType", "INTEGER"),
    ("algType", "INTEGER"),
    ("count", "INTEGER"),
    ("opType", "INTEGER"),
    ("deviceId", "INTEGER"),  # newer msprof; schema="old" leaves it out
]
COMM_TASK_COLUMNS = [
    ("name", "INTEGER"),
    ("globalTaskId", "INTEGER"),
    ("taskType", "INTEGER"),
    ("planeId", "INTEGER"),
    ("groupName", "INTEGER"),
    ("notifyId", "INTEGER"),
    ("rdmaType", "INTEGER"),
    ("srcRank", "INTEGER"),
    ("dstRank", "INTEGER"),
    ("transportType", "INTEGER"),
    ("size", "INTEGER"),
    ("dataType", "INTEGER"),
    ("linkType", "INTEGER"),
    ("opId", "INTEGER"),
    ("isMaster", "INTEGER"),  # newer msprof; schema="old" leaves it out
]


def _comm_task_row(op: CommOp, c: CommTask, gid: int, sid: _Strings, schema: str) -> tuple:
    row: tuple = (sid(op.task.op.name), gid, sid(c.kind), c.plane, sid(op.group), c.notify_id, INVALID)
    row += (c.src_rank, c.dst_rank, hccl.TRANSPORT_TYPES[c.transport], c.size, hccl.DATA_TYPES[op.data_type])
    row += (hccl.LINK_TYPES[c.link], op.op_id)
    return row if schema == "old" else (*row, 1 if c.plane == 0 else 0)


def _comm_tables(con, comm: list[CommOp], task_rows: list[tuple], dev: int, sid: _Strings, schema: str) -> None:
    """COMMUNICATION_OP / COMMUNICATION_TASK_INFO and the ENUM_HCCL_* tables they refer to."""
    op_cols = COMM_OP_COLUMNS[:-1] if schema == "old" else COMM_OP_COLUMNS
    task_cols = COMM_TASK_COLUMNS[:-1] if schema == "old" else COMM_TASK_COLUMNS
    rows = []
    for op in comm:
        t = op.task
        row: tuple = (sid(t.op.name), t.start_ns, t.end_ns, t.connection_id, sid(op.group), op.op_id, 0, 0)
        row += (hccl.DATA_TYPES[op.data_type], sid(op.alg_type), op.count, sid(t.op.type))
        rows.append(row if schema == "old" else (*row, dev))
    _create(con, "COMMUNICATION_OP", op_cols, rows)
    _create(con, "COMMUNICATION_TASK_INFO", task_cols, task_rows)
    for table, enum in (
        ("ENUM_HCCL_DATA_TYPE", hccl.DATA_TYPES),
        ("ENUM_HCCL_TRANSPORT_TYPE", hccl.TRANSPORT_TYPES),
        ("ENUM_HCCL_LINK_TYPE", hccl.LINK_TYPES),
        ("ENUM_HCCL_RDMA_TYPE", hccl.RDMA_TYPES),
    ):
        _create(con, table, [("id", "INTEGER"), ("name", "TEXT")], sorted((v, k) for k, v in enum.items()))


def _pytorch_tables(con, run: Run, dev: int, sid: _Strings) -> None:
    api_rows: list[tuple] = []
    links: list[tuple[int, int]] = []
    steps: list[tuple[int, int, int]] = []
    queue_base = 1 << 40  # queue correlations in CONNECTION_IDS, apart from the CANN connection ids
    for e in run.python[dev]:
        kind = "queue" if e.cat in ("enqueue", "dequeue") else "op"
        link = INVALID
        if e.task is not None or e.queue_id is not None:
            link = len(links)
            links.append((link, e.task.connection_id if e.task is not None else queue_base + (e.queue_id or 0)))
        api_rows.append(
            (
                e.start_ns,
                e.start_ns + e.dur_ns,
                global_tid(run.pid, e.tid),
                link,
                sid(e.name),
                int(e.args.get("Sequence number", -1)),
                int(e.args.get("Fwd thread id", 0)),
                INVALID,
                INVALID,
                INVALID,
                FWK_TYPES[kind],
            )
        )
        if e.name.startswith("ProfilerStep#"):
            steps.append((int(e.name.split("#")[1]), e.start_ns, e.start_ns + e.dur_ns))
    _create(
        con,
        "PYTORCH_API",
        [
            ("startNs", "TEXT"),
            ("endNs", "TEXT"),
            ("globalTid", "INTEGER"),
            ("connectionId", "INTEGER"),
            ("name", "INTEGER"),
            ("sequenceNumber", "INTEGER"),
            ("fwdThreadId", "INTEGER"),
            ("inputDtypes", "INTEGER"),
            ("inputShapes", "INTEGER"),
            ("callchainId", "INTEGER"),
            ("type", "INTEGER"),
        ],
        api_rows,
    )
    _create(con, "CONNECTION_IDS", [("id", "INTEGER"), ("connectionId", "INTEGER")], links)
    _create(con, "STEP_TIME", [("id", "INTEGER"), ("startNs", "INTEGER"), ("endNs", "INTEGER")], steps)


def _memory_tables(con, memory: Memory, dev: int, sid: _Strings) -> None:
    """MEMORY_RECORD / OP_MEMORY / NPU_MODULE_MEM from the model memory_record.csv / operator_memory.csv /
    npu_module_mem.csv are written from (bytes, ns; NULL where the CSV cell is empty; torch_npu ``*_for_db``)."""
    _create(
        con,
        "MEMORY_RECORD",
        [
            ("component", "INTEGER"),
            ("timestamp", "INTEGER"),
            ("totalAllocated", "INTEGER"),
            ("totalReserved", "INTEGER"),
            ("totalActive", "INTEGER"),
            ("streamPtr", "INTEGER"),
            ("deviceId", "INTEGER"),
        ],
        ((sid(r.component), r.ts_ns, r.allocated, r.reserved, r.active, r.stream_ptr, dev) for r in memory.records),
    )
    _create(
        con,
        "OP_MEMORY",
        [
            ("name", "INTEGER"),
            ("size", "INTEGER"),
            ("allocationTime", "INTEGER"),
            ("releaseTime", "INTEGER"),
            ("activeReleaseTime", "INTEGER"),
            ("duration", "INTEGER"),
            ("activeDuration", "INTEGER"),
            ("allocationTotalAllocated", "INTEGER"),
            ("allocationTotalReserved", "INTEGER"),
            ("allocationTotalActive", "INTEGER"),
            ("releaseTotalAllocated", "INTEGER"),
            ("releaseTotalReserved", "INTEGER"),
            ("releaseTotalActive", "INTEGER"),
            ("streamPtr", "INTEGER"),
            ("deviceId", "INTEGER"),
        ],
        (
            (sid(a.name), a.size, a.alloc_ns, a.release_ns, a.active_release_ns)
            + (None if a.release_ns is None else a.release_ns - a.alloc_ns,)
            + (None if a.active_release_ns is None else a.active_release_ns - a.alloc_ns,)
            + (a.alloc_allocated, a.alloc_reserved, a.alloc_active)
            + (a.release_allocated, a.release_reserved, a.release_active, a.stream_ptr, dev)
            for a in memory.allocations
        ),
    )
    _create(
        con,
        "NPU_MODULE_MEM",
        [("moduleId", "INTEGER"), ("timestampNs", "INTEGER"), ("totalReserved", "INTEGER"), ("deviceId", "INTEGER")],
        ((MODULE_IDS[module], ts, res, dev) for module, ts, res in memory.modules),
    )
    _create(con, "ENUM_MODULE", [("id", "INTEGER"), ("name", "TEXT")], sorted((v, k) for k, v in MODULE_IDS.items()))


def _finish(con, sid: _Strings, run: Run, meta: dict[str, str]) -> None:
    _create(con, "STRING_IDS", [("id", "INTEGER"), ("value", "TEXT")], ((i, s) for s, i in sid.ids.items()))
    _create(con, "META_DATA", [("name", "TEXT"), ("value", "TEXT")], sorted(meta.items()))
    _create(
        con, "SESSION_TIME_INFO", [("startTimeNs", "INTEGER"), ("endTimeNs", "INTEGER")], [(run.start_ns, run.end_ns)]
    )


def _open(path: Path) -> sqlite3.Connection:
    if path.exists():
        raise FileExistsError(f"{path}: already exists; refusing to overwrite it")
    return sqlite3.connect(path)


def write_framework_db(
    path: Path,
    run: Run,
    pmu_cols: list[str],
    *,
    rank: int | None = None,
    memory: Memory | None = None,
    meta: dict[str, str] | None = None,
    schema: str = "new",
    comm: list[CommOp] | None = None,
) -> None:
    """``ascend_pytorch_profiler[_{rank}].db`` / ``ascend_mindspore_profiler[_{rank}].db`` of one device.

    ``memory``: what memory_record.csv, operator_memory.csv and npu_module_mem.csv hold (:mod:`.memory`);
    ``comm``: the communication operators (:mod:`.hccl`)."""
    dev = run.devices[0]
    sid = _Strings()
    con = _open(path)
    try:
        with con:
            _device_tables(con, run, dev, pmu_cols, sid, schema, comm)
            _pytorch_tables(con, run, dev, sid)
            _memory_tables(con, memory or Memory(), dev, sid)
            if rank is not None:
                _create(con, "RANK_DEVICE_MAP", [("rankId", "INTEGER"), ("deviceId", "INTEGER")], [(rank, dev)])
            _create(con, "HOST_INFO", [("hostUid", "TEXT"), ("hostName", "TEXT")], [("0", "localhost")])
            _finish(con, sid, run, meta or {})
    finally:
        con.close()


STEP_TRACE_COLUMNS = (
    "step",
    "computing",
    "communication_not_overlapped",
    "overlapped",
    "communication",
    "free",
    "stage",
    "bubble",
    "communication_not_overlapped_and_exclude_receive",
    "preparing",
)


def write_analysis_db(
    path: Path, step_rows: list[StepRow], comm: dict[str, list[tuple]] | None = None, *, producer: bool = False
) -> None:
    """``analysis.db``: StepTraceTime with step_trace_time.csv's numbers (µs; UNVERIFIED unit) and, for a
    run with communication, CommAnalyzerTime / CommAnalyzerBandwidth / CommAnalyzerMatrix with the
    numbers of communication.json / communication_matrix.json (:func:`.commfiles.analysis_rows`).
    ``producer=True`` (rows of ``analysis_rows(..., producer=True)``): CommAnalyzerMatrix's ``src_rank`` /
    ``dst_rank`` declared TEXT, as torch_npu's TableColumnsManager declares them."""
    con = _open(path)
    try:
        with con:
            _create(
                con,
                "StepTraceTime",
                [(c, "TEXT" if c == "step" else "NUMERIC") for c in STEP_TRACE_COLUMNS],
                (("" if r.step is None else str(r.step), *(v / 1000 for v in r.values())) for r in step_rows),
            )
            for table, columns in (
                ("CommAnalyzerTime", commfiles.TIME_COLUMNS),
                ("CommAnalyzerBandwidth", commfiles.BANDWIDTH_COLUMNS),
                ("CommAnalyzerMatrix", commfiles.MATRIX_COLUMNS),
            ):
                if comm is not None:
                    text = _TEXT_COLUMNS | ({"src_rank", "dst_rank"} if producer else set())
                    types = [(c, "TEXT" if c in text else "NUMERIC") for c in columns]
                    _create(con, table, types, comm[table])
    finally:
        con.close()


_TEXT_COLUMNS = {"hccl_op_name", "group_name", "transport_type", "step", "type", "op_name"}


def write_msprof_db(path: Path, run: Run, pmu_cols: list[str], schema: str = "new") -> None:
    """``msprof_{timestamp}.db`` at the PROF root: every device's tasks, CANN APIs, NPU info."""
    sid = _Strings()
    con = _open(path)
    try:
        with con:
            merged = Run(run.chip, run.workload, run.style, list(run.devices), run.iterations, run.pid, run.start_ns)
            merged.end_ns = run.end_ns
            key = run.devices[0]
            merged.tasks = {key: sorted(run.all_tasks(), key=lambda t: (t.device, t.start_ns))}
            merged.host = {key: [e for d in run.devices for e in run.host[d]]}
            _device_tables(con, merged, key, pmu_cols, sid, schema)
            con.execute("DELETE FROM NPU_INFO")
            con.executemany("INSERT INTO NPU_INFO VALUES (?, ?)", [(d, run.chip.soc) for d in run.devices])
            # TASK.deviceId from each task's own device
            con.executemany(
                "UPDATE TASK SET deviceId = ? WHERE globalTaskId = ?",
                [(t.device, gid) for gid, t in enumerate(merged.tasks[key])],
            )
            _finish(con, sid, run, {"msprof_version": "simulated"})
    finally:
        con.close()


__all__ = ["INVALID", "MODEL_ID_NONE", "write_analysis_db", "write_framework_db", "write_msprof_db"]
