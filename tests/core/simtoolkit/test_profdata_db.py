"""The simulated database export, read back with plain sqlite3 (not the workbench reader): schema and values
equal the Text export of the same run (docs/cann-formats.md §11)."""

from __future__ import annotations

import sqlite3

from _profdata_util import load_trace, one, process_names, read_csv, ts_ns

from workbench.simtoolkit.profdata import data_parallel, resnet50_workload, write_msprof_prof, write_torch_npu

TASK_COLUMNS = [
    "startNs",
    "endNs",
    "deviceId",
    "connectionId",
    "globalTaskId",
    "globalPid",
    "taskType",
    "contextId",
    "streamId",
    "taskId",
    "modelId",
]


def _columns(con, table):
    return [r[1] for r in con.execute(f'PRAGMA table_info("{table}")')]


def test_torch_npu_db_has_the_schema_and_the_values_of_kernel_details(tmp_path):
    root = write_torch_npu(tmp_path, resnet50_workload(), steps=2, rank=3, export_type="Text+Db")
    out = root / "ASCEND_PROFILER_OUTPUT"
    con = sqlite3.connect(f"file:{out / 'ascend_pytorch_profiler_3.db'}?mode=ro", uri=True)
    tables = {r[0] for r in con.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    assert {
        "STRING_IDS",
        "TASK",
        "COMPUTE_TASK_INFO",
        "TASK_PMU_INFO",
        "CANN_API",
        "PYTORCH_API",
        "ENUM_API_TYPE",
        "CONNECTION_IDS",
        "STEP_TIME",
        "MEMORY_RECORD",
        "OP_MEMORY",
        "META_DATA",
        "NPU_INFO",
        "SESSION_TIME_INFO",
        "RANK_DEVICE_MAP",
        "HOST_INFO",
    } <= tables
    assert _columns(con, "TASK") == TASK_COLUMNS
    assert "blockNum" in _columns(con, "COMPUTE_TASK_INFO")
    assert con.execute("SELECT rankId, deviceId FROM RANK_DEVICE_MAP").fetchall() == [(3, 0)]
    rows = con.execute(
        "SELECT n.value, o.value, t.startNs, t.endNs - t.startNs, t.streamId, t.taskId, s.value "
        "FROM TASK t JOIN COMPUTE_TASK_INFO c ON c.globalTaskId = t.globalTaskId "
        "JOIN STRING_IDS n ON n.id = c.name JOIN STRING_IDS o ON o.id = c.opType "
        "JOIN STRING_IDS s ON s.id = c.inputShapes ORDER BY t.startNs"
    ).fetchall()
    _, kernels = read_csv(out / "kernel_details.csv")
    assert len(rows) == len(kernels)
    for (name, op_type, start, dur, stream, task, shapes), k in zip(rows, kernels):
        assert (name, op_type, str(stream), str(task)) == (k["Name"], k["Type"], k["Stream ID"], k["Task ID"])
        assert start == ts_ns(k["Start Time(us)"].strip())
        assert dur / 1000 == float(k["Duration(us)"])
        assert shapes == k["Input Shapes"].strip('"')
    pmu = dict(
        con.execute(
            "SELECT s.value, p.value FROM TASK_PMU_INFO p JOIN STRING_IDS s ON s.id = p.name WHERE p.globalTaskId = "
            "(SELECT globalTaskId FROM TASK ORDER BY startNs LIMIT 1)"
        ).fetchall()
    )
    assert pmu and all(float(kernels[0][h]) == v for h, v in pmu.items())
    api = con.execute(
        "SELECT e.name, count(*), sum(a.endNs - a.startNs) FROM CANN_API a JOIN ENUM_API_TYPE e ON e.id = a.type "
        "GROUP BY e.name"
    ).fetchall()
    _, stats = read_csv(out / "api_statistic.csv")
    for level, count, total in api:
        mine = [r for r in stats if r["Level"] == level]
        assert sum(int(r["Count"]) for r in mine) == count
        assert round(sum(float(r["Time(us)"]) for r in mine), 3) == round(total / 1000, 3)
    steps = con.execute("SELECT id FROM STEP_TIME ORDER BY id").fetchall()
    assert steps == [(1,), (2,)]
    ana = sqlite3.connect(f"file:{out / 'analysis.db'}?mode=ro", uri=True)
    _, trace = read_csv(out / "step_trace_time.csv")
    got = ana.execute("SELECT step, computing, free FROM StepTraceTime").fetchall()
    assert got == [(r["Step"], float(r["Computing"]), float(r["Free"])) for r in trace]


def test_db_only_export_has_no_text_and_old_schema_spells_block_dim(tmp_path):
    root = write_torch_npu(tmp_path, resnet50_workload(), steps=1, export_type="Db", db_schema="old")
    out = root / "ASCEND_PROFILER_OUTPUT"
    assert sorted(p.name for p in out.iterdir()) == ["analysis.db", "ascend_pytorch_profiler.db"]
    con = sqlite3.connect(f"file:{out / 'ascend_pytorch_profiler.db'}?mode=ro", uri=True)
    assert {"blockDim", "mixBlockDim"} <= set(_columns(con, "COMPUTE_TASK_INFO"))


def test_mindspore_and_msprof_databases(tmp_path):
    ms = write_torch_npu(tmp_path, resnet50_workload(), steps=1, export_type="Db", framework="mindspore", rank=0)
    assert ms.name.endswith("_ascend_ms")
    assert (ms / "ASCEND_PROFILER_OUTPUT" / "ascend_mindspore_profiler_0.db").is_file()
    prof = write_msprof_prof(tmp_path, resnet50_workload(), devices=[0, 1], export_type="text+db")
    db = one(prof, "msprof_*.db")
    con = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    _, summary = read_csv(one(prof / "mindstudio_profiler_output", "op_summary_*.csv"))
    got = con.execute("SELECT deviceId, startNs FROM TASK ORDER BY deviceId, startNs").fetchall()
    assert got == [(int(r["Device_id"]), ts_ns(r["Task Start Time(us)"].strip())) for r in summary]
    assert con.execute("SELECT id FROM NPU_INFO ORDER BY id").fetchall() == [(0,), (1,)]


COMM_OP_COLUMNS = [
    "opName",
    "startNs",
    "endNs",
    "connectionId",
    "groupName",
    "opId",
    "relay",
    "retry",
    "dataType",
    "algType",
    "count",
    "opType",
    "deviceId",
]
COMM_TASK_COLUMNS = [
    "name",
    "globalTaskId",
    "taskType",
    "planeId",
    "groupName",
    "notifyId",
    "rdmaType",
    "srcRank",
    "dstRank",
    "transportType",
    "size",
    "dataType",
    "linkType",
    "opId",
    "isMaster",
]


def test_a_data_parallel_rank_writes_its_communication_tables_as_its_trace_shows_them(tmp_path):
    w = data_parallel(resnet50_workload())
    root = write_torch_npu(tmp_path, w, steps=2, rank=2, device=2, world_size=4, export_type="Text+Db")
    out = root / "ASCEND_PROFILER_OUTPUT"
    con = sqlite3.connect(f"file:{out / 'ascend_pytorch_profiler_2.db'}?mode=ro", uri=True)
    assert _columns(con, "COMMUNICATION_OP") == COMM_OP_COLUMNS
    assert _columns(con, "COMMUNICATION_TASK_INFO") == COMM_TASK_COLUMNS
    trace = load_trace(out / "trace_view.json")
    comm_pid = next(p for p, n in process_names(trace).items() if n == "Communication")
    threads = {e["tid"]: e["args"]["name"] for e in trace if e.get("ph") == "M" and e["name"] == "thread_name"}
    slices = [e for e in trace if e.get("ph") == "X" and e["pid"] == comm_pid]
    group_ops = [(e["name"], ts_ns(e["ts"]), round(e["dur"] * 1000)) for e in slices if "Group" in threads[e["tid"]]]
    ops = con.execute(
        "SELECT n.value, o.startNs, o.endNs - o.startNs, g.value, t.value, o.deviceId FROM COMMUNICATION_OP o "
        "JOIN STRING_IDS n ON n.id = o.opName JOIN STRING_IDS g ON g.id = o.groupName "
        "JOIN STRING_IDS t ON t.id = o.opType ORDER BY o.startNs"
    ).fetchall()
    assert [r[:3] for r in ops] == group_ops and len(ops) == 4
    assert {r[3] for r in ops} == {threads[e["tid"]].split()[1] for e in slices if "Group" in threads[e["tid"]]}
    assert {r[4] for r in ops} == {"hcom_allReduce_"} and {r[5] for r in ops} == {2}
    _, kernels = read_csv(out / "kernel_details.csv")
    hccl = [
        (k["Name"], ts_ns(k["Start Time(us)"].strip()), k["Block Dim"])
        for k in kernels
        if k["Accelerator Core"] == "HCCL"
    ]
    assert [(r[0], r[1], "0") for r in ops] == hccl
    tasks = con.execute(
        "SELECT k.value, t.startNs, t.endNs - t.startNs, c.planeId, c.srcRank, c.dstRank, e.name "
        "FROM COMMUNICATION_TASK_INFO c JOIN TASK t ON t.globalTaskId = c.globalTaskId "
        "JOIN STRING_IDS k ON k.id = c.taskType JOIN ENUM_HCCL_TRANSPORT_TYPE e ON e.id = c.transportType "
        "ORDER BY t.startNs, c.planeId"
    ).fetchall()
    plane_tasks = sorted(
        (ts_ns(e["ts"]), int(threads[e["tid"]].split()[1]), e["name"], round(e["dur"] * 1000), e["args"]["dst rank"])
        for e in slices
        if threads[e["tid"]].startswith("Plane")
    )
    assert sorted((s, p, k, d, dst) for k, s, d, p, _src, dst, _ in tasks) == plane_tasks
    # the ring neighbours, and the local copy into the CCL buffer (src = dst, link ON_CHIP)
    assert {(src, dst) for *_, src, dst, _ in tasks} == {(2, 3), (2, 1), (2, 2)} and {r[-1] for r in tasks} == {"SDMA"}
    local = con.execute(
        "SELECT DISTINCT l.name FROM COMMUNICATION_TASK_INFO c JOIN ENUM_HCCL_LINK_TYPE l ON l.id = c.linkType "
        "WHERE c.srcRank = c.dstRank"
    ).fetchall()
    assert local == [("ON_CHIP",)]
    # the communication operators are no compute tasks; their small tasks are TASK rows named by the operator
    assert con.execute(
        "SELECT count(*) FROM COMPUTE_TASK_INFO c JOIN STRING_IDS n ON n.id = c.name WHERE n.value LIKE 'hcom%'"
    ).fetchone() == (0,)


def _ns(cell: str) -> int | None:
    """A time cell of the memory CSVs (``"1717407000000246.739\t"``; empty: none) -> int ns."""
    return None if cell == "" else ts_ns(cell.rstrip("\t"))


def _bytes(cell: str) -> int | None:
    return None if cell == "" else round(float(cell) * 2**20)


def test_memory_tables_hold_the_bytes_and_ns_of_the_memory_csvs(tmp_path):
    root = write_torch_npu(tmp_path, resnet50_workload(), steps=1, export_type="Text+Db")
    out = root / "ASCEND_PROFILER_OUTPUT"
    con = sqlite3.connect(f"file:{out / 'ascend_pytorch_profiler.db'}?mode=ro", uri=True)
    _, op_mem = read_csv(out / "operator_memory.csv")
    rows = con.execute(
        "SELECT n.value, m.size, m.allocationTime, m.releaseTime, m.duration, m.allocationTotalAllocated, "
        "m.releaseTotalReserved, m.streamPtr, m.deviceId FROM OP_MEMORY m JOIN STRING_IDS n ON n.id = m.name"
    ).fetchall()
    assert len(rows) == len(op_mem) > 0
    # both allocators (PTA's aten ops, GE's cann:: kernels) and unreleased allocations (NULL = empty cells)
    assert any(r[0].startswith("cann::") for r in rows) and any(r[3] is None for r in rows)
    for (name, size, alloc_t, rel_t, dur, alloc, rel_res, ptr, dev), r in zip(rows, op_mem):
        assert (name, size / 1024, alloc_t, rel_t) == (
            r["Name"],
            float(r["Size(KB)"]),
            _ns(r["Allocation Time(us)"]),
            _ns(r["Release Time(us)"]),
        )
        text = r["Duration(us)"].rstrip("\t")
        assert (None if dur is None else dur / 1000) == (float(text) if text else None)
        assert dev == 0 and r["Device Type"] == "NPU:0"
        assert (alloc, rel_res) == (
            _bytes(r["Allocation Total Allocated(MB)"]),
            _bytes(r["Release Total Reserved(MB)"]),
        )
        assert ptr == (int(r["Stream Ptr"]) if r["Stream Ptr"] else None)
    header, module_mem = read_csv(out / "npu_module_mem.csv")
    assert header == ["Component", "Timestamp(us)", "Total Reserved(MB)", "Device"]  # torch_npu's own header
    got = con.execute(
        "SELECT e.name, m.timestampNs, m.totalReserved FROM NPU_MODULE_MEM m JOIN ENUM_MODULE e ON e.id = m.moduleId"
    ).fetchall()
    assert got == [(r["Component"], _ns(r["Timestamp(us)"]), _bytes(r["Total Reserved(MB)"])) for r in module_mem]
    _, records = read_csv(out / "memory_record.csv")
    mem = con.execute(
        "SELECT s.value, r.timestamp, r.totalAllocated, r.totalReserved, r.totalActive, r.streamPtr "
        "FROM MEMORY_RECORD r JOIN STRING_IDS s ON s.id = r.component"
    ).fetchall()
    assert {m[0] for m in mem} == {"APP", "PTA", "GE", "PTA+GE"}
    assert mem == [
        (
            r["Component"],
            _ns(r["Timestamp(us)"]),
            _bytes(r["Total Allocated(MB)"]),
            _bytes(r["Total Reserved(MB)"]),
            _bytes(r["Total Active(MB)"]),
            int(r["Stream Ptr"]) if r["Stream Ptr"] else None,
        )
        for r in records
    ]


def test_old_schema_communication_tables_have_no_device_or_master_column(tmp_path):
    w = data_parallel(resnet50_workload(), buckets=1)
    root = write_torch_npu(tmp_path, w, steps=1, rank=0, world_size=2, export_type="Db", db_schema="old")
    con = sqlite3.connect(
        f"file:{one(root / 'ASCEND_PROFILER_OUTPUT', 'ascend_pytorch_profiler_0.db')}?mode=ro", uri=True
    )
    assert _columns(con, "COMMUNICATION_OP") == COMM_OP_COLUMNS[:-1]
    assert _columns(con, "COMMUNICATION_TASK_INFO") == COMM_TASK_COLUMNS[:-1]
    assert con.execute("SELECT DISTINCT planeId FROM COMMUNICATION_TASK_INFO").fetchall() == [(0,)]  # 2 ranks: one link
