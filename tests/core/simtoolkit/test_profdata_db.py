"""The simulated database export, read back with plain sqlite3 (not the workbench reader): schema and values
equal the Text export of the same run (docs/cann-formats.md §11)."""

from __future__ import annotations

import sqlite3

from _profdata_util import one, read_csv, ts_ns

from workbench.simtoolkit.profdata import resnet50_workload, write_msprof_prof, write_torch_npu

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
