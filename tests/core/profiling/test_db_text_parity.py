"""Text == Db on the same simulated run (docs/cann-formats.md §11): the HCCL communication of a data-parallel
rank (COMMUNICATION_OP / COMMUNICATION_TASK_INFO on the timeline and in the ops; analysis.db's CommAnalyzer*
as communication.json / communication_matrix.json), the memory tables (MEMORY_RECORD / OP_MEMORY /
NPU_MODULE_MEM) and a MindSpore run's database."""

from __future__ import annotations

import csv

import pandas as pd
import pytest
from test_db_reader import _equal, _events

from workbench.core.profiling.build import open_report
from workbench.simtoolkit.profdata import data_parallel, resnet50_workload, write_torch_npu

MEMORY_TABLES = ("memory_record", "operator_memory", "npu_module_mem")
COMM_TABLES = ("communication", "communication_bandwidth", "communication_sizes", "communication_matrix")


@pytest.fixture(scope="module")
def dp_runs(tmp_path_factory):
    """Rank 1 (device 1) of a 4-rank data-parallel job, exported as Text and as Db."""
    root = tmp_path_factory.mktemp("dp")
    w = data_parallel(resnet50_workload())
    kw = dict(steps=2, rank=1, device=1, world_size=4)
    text = write_torch_npu(root / "text", w, export_type="Text", **kw)
    db = write_torch_npu(root / "db", w, export_type="Db", **kw)
    return open_report(text, use_cache=False), open_report(db, use_cache=False), text


def test_hccl_operators_show_on_the_timeline_as_the_text_export_shows_them(dp_runs):
    rt, rb, _ = dp_runs
    comm = [e for e in _events(rt) if e[0][0] == "Communication"]
    threads = {thread for (_, thread), *_ in comm}
    assert {"Plane 0", "Plane 1"} <= threads and any(
        t.startswith("Group ") and t.endswith(" Communication") for t in threads
    )
    ops = [e for e in comm if not e[0][1].startswith("Plane")]
    assert [name for *_, name in ops] == ["hcom_allReduce__586_0_1", "hcom_allReduce__586_1_1"] * 2
    assert rb.warnings == []
    # every slice of every lane: same lane (process, thread), name, start and duration in int ns
    assert _events(rb) == _events(rt)
    assert rb.flow_count == rt.flow_count
    assert (rb.start_ns, rb.end_ns) == (rt.start_ns, rt.end_ns)


def test_hccl_operators_are_rows_of_the_ops_table_as_in_kernel_details(dp_runs):
    rt, rb, _ = dp_runs
    _equal(rb.ops, rt.ops.drop(columns=["wait_us"]))
    hccl = rb.ops[rb.ops["task_type"] == "HCCL"]
    assert hccl["name"].tolist() == ["hcom_allReduce__586_0_1", "hcom_allReduce__586_1_1"] * 2
    assert hccl["block_dim"].tolist() == [0] * 4 and hccl["stream_id"].isna().all()
    assert hccl["step"].tolist() == [1, 1, 2, 2]
    _equal(rb.table("step_trace_time"), rt.table("step_trace_time"))


def test_communication_tables_are_the_text_exports_value_for_value(dp_runs):
    rt, rb, text = dp_runs
    out = text / "ASCEND_PROFILER_OUTPUT"
    assert (out / "communication.json").is_file() and (out / "communication_matrix.json").is_file()
    for name in COMM_TABLES:
        t, b = rt.table(name), rb.table(name)
        assert len(b), name
        pd.testing.assert_frame_equal(b, t, check_exact=True)
    ops = rb.table("communication")
    assert ops["rank"].tolist() == [1] * len(ops)  # rank 1 of the job (RANK_DEVICE_MAP), as profiler_info_1.json
    assert ops.loc[~ops["total"], "name"].tolist() == ["hcom_allReduce__586_0_1", "hcom_allReduce__586_1_1"] * 2
    assert ops.loc[~ops["total"], "step"].tolist() == [1, 1, 2, 2]


def test_memory_tables_are_the_text_exports_value_for_value(dp_runs):
    rt, rb, text = dp_runs
    out = text / "ASCEND_PROFILER_OUTPUT"
    for name in MEMORY_TABLES:
        t, b = rt.table(name), rb.table(name)
        assert len(b) and len(b) == len(t), name
        # Stream Ptr: the db holds the integer, the CSV reader a float (exact below 2**53): compared with
        # the file's text, an empty cell (GE / APP rows) missing on both sides
        ptr = [c for c in t.columns if c.startswith("Stream Ptr")]
        _equal(b.drop(columns=["Stream Ptr"], errors="ignore"), t.drop(columns=ptr))
        if "Stream Ptr" in b.columns:
            with open(out / f"{name}.csv", newline="") as f:
                written = [int(r["Stream Ptr"]) if r["Stream Ptr"].strip() else None for r in csv.DictReader(f)]
            assert [None if pd.isna(v) else int(v) for v in b["Stream Ptr"]] == written


def test_a_mindspore_database_opens_with_the_numbers_of_its_text_export(tmp_path):
    w = data_parallel(resnet50_workload())
    kw = dict(steps=2, rank=0, world_size=2, framework="mindspore")
    text = write_torch_npu(tmp_path / "text", w, export_type="Text", **kw)
    db = write_torch_npu(tmp_path / "db", w, export_type="Db", **kw)
    assert next((db / "ASCEND_PROFILER_OUTPUT").glob("ascend_mindspore_profiler_0.db"))
    rt, rb = open_report(text, use_cache=False), open_report(db, use_cache=False)
    assert rb.warnings == [] and rb.devices == rt.devices == [0]
    _equal(rb.ops, rt.ops.drop(columns=["wait_us"]))
    _equal(rb.api_statistic, rt.api_statistic)
    _equal(rb.ai_core_metrics, rt.ai_core_metrics)
    _equal(rb.table("step_trace_time"), rt.table("step_trace_time"))
    for name in MEMORY_TABLES:
        ptr = [c for c in rt.table(name).columns if c.startswith("Stream Ptr")]
        _equal(rb.table(name).drop(columns=["Stream Ptr"], errors="ignore"), rt.table(name).drop(columns=ptr))
    assert _events(rb) == _events(rt)
    assert rb.flow_count == rt.flow_count
    assert (rb.start_ns, rb.end_ns) == (rt.start_ns, rt.end_ns)
