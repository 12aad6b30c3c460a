"""The advisor's schedule and environment rules (issue #21): each planted problem of the simulated
toolkit is found with the evidence that names it, and not found without the plant; the real torch_npu
trace sample gives the numbers counted by hand from its file."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from workbench.core.advisor.run import advise
from workbench.core.profiling.build import open_report
from workbench.simtoolkit.profdata import data_parallel, resnet50_workload, transformer_workload, write_torch_npu
from workbench.simtoolkit.profdata import problems_host as plants

SAMPLES = Path(__file__).resolve().parents[3].parent / "shared" / "samples"
TRACE_SAMPLE = SAMPLES / "torch_npu-trace_view"
COMM_SAMPLE = SAMPLES / "torch_npu-910B-rank0-comm-mem"
SCHEDULE_RULES = (
    "schedule.device_idle",
    "schedule.dataloader",
    "schedule.recompile",
    "schedule.task_queue",
    "schedule.launch_blocking",
    "schedule.env_settings",
)


def _run(root: Path, plants_: list[str]) -> Path:
    """Rank 0 of a 2-rank data-parallel transformer step (a typical training rank), with ``plants_``."""
    return write_torch_npu(root, data_parallel(transformer_workload()), world_size=2, rank=0, plants=plants_)


@pytest.fixture(scope="module")
def runs(tmp_path_factory) -> dict[str, Path]:
    root = tmp_path_factory.mktemp("schedule")
    names = ("none", "idle-device", "getnext", "recompile", "env-task-queue")
    return {name: _run(root / name, [] if name == "none" else [name]) for name in names}


def _findings(path: Path, rule_id: str):
    result = advise(open_report(path), only=[rule_id])
    assert not result.warnings, result.warnings
    return [f for f in result.findings if f.rule == rule_id]


def _facts(finding) -> dict[str, str]:
    return {f.key: f.value for f in finding.facts}


def test_unplanted_run_has_no_schedule_finding(runs):
    """(Its affinity APIs are real: see test_affinity_apis_of_the_generated_transformer.)"""
    result = advise(open_report(runs["none"]), only=list(SCHEDULE_RULES))
    assert not result.warnings
    assert set(result.rules_run) == set(SCHEDULE_RULES)
    assert [f.rule for f in result.findings] == []


def test_idle_device_is_found_with_the_launch_gaps(runs):
    report = open_report(runs["idle-device"])
    (found,) = [f for f in advise(report, only=["schedule.device_idle"]).findings]
    assert found.severity.value == "high"
    facts = _facts(found)
    assert float(facts["share"].split()[0]) > 50.0
    assert float(facts["host"].split()[0]) > 90.0  # the host was busy while the device waited
    gaps = [e for e in found.evidence if e.kind == "lane"]
    assert len(gaps) == 5 and found.evidence_total is not None and found.evidence_total > 5
    ops = report.ops
    for gap in gaps:
        # a planted delay of 200 us (less what the launch already waited) before a compute task
        assert gap.lane == "Ascend Hardware · Stream 3" and gap.device == 0
        assert gap.dur_ns >= plants.HOST_GAP_NS - 50_000
        end = gap.start_ns + gap.dur_ns
        assert gap.values["next_start_ns"] == end  # the gap ends where the next task starts ...
        starts = ops["start_ns"].astype("int64")
        assert ops["name"][starts == end].tolist() == [gap.label]  # ... and that task is in the OPs table
    assert [e.kind for e in found.evidence][-1] == "step"


def test_getnext_is_found_with_the_dataloader_slices(runs):
    (found,) = _findings(runs["getnext"], "schedule.dataloader")
    assert found.severity.value == "high"
    assert _facts(found)["count"] == "2" and _facts(found)["longest"] == "12.000 ms"
    assert len(found.evidence) == 2
    for ev in found.evidence:
        assert ev.kind == "slice" and ev.label == plants.DATALOADER_NAME
        assert ev.dur_ns == plants.DATALOADER_NS and ev.lane == "Python · Thread 437675"
    # the device waited for it, but the data loading is before the step's first task: not device idle
    assert _findings(runs["getnext"], "schedule.device_idle") == []


def test_recompile_is_found_with_the_compile_slices(runs):
    report = open_report(runs["recompile"])
    (found,) = [f for f in advise(report, only=["schedule.recompile"]).findings]
    api = report.api_statistic
    launches = int(api[api["name"].astype(str).str.startswith("aclnn")]["count"].sum())
    compiled = int(api[api["name"] == plants.COMPILE_API]["count"].iloc[0])
    assert compiled == launches == 46  # one compilation before every aclnn launch of the two steps
    assert found.args["count"] == "46" and found.evidence_total == 46
    assert _facts(found)["api"] == "AscendCL@aclopCompileAndExecute"
    assert found.severity.value == "high"
    for ev in found.evidence:
        assert ev.kind == "slice" and ev.label == "AscendCL@aclopCompileAndExecute"
        assert ev.dur_ns == plants.COMPILE_NS and ev.lane == "CANN · Thread 439084"


def test_task_queue_off_is_found_as_a_setting(runs):
    (found,) = _findings(runs["env-task-queue"], "schedule.task_queue")
    assert found.category == "environment" and found.title() == "The task queue is switched off (TASK_QUEUE_ENABLE=0)"
    assert [(e.kind, e.label) for e in found.evidence] == [("setting", "TASK_QUEUE_ENABLE=0")]
    assert _findings(runs["env-task-queue"], "schedule.env_settings") == []


def test_launch_blocking_and_msprof_analyze_environment_conditions(runs, tmp_path):
    """The settings msprof-analyze's environment rule checks, as a real profiler_metadata.json records
    them (every variable present; empty when unset)."""
    run = Path(shutil.copytree(runs["none"], tmp_path / runs["none"].name))
    env = {
        "ASCEND_RT_VISIBLE_DEVICES": "0",
        "ASCEND_LAUNCH_BLOCKING": "1",
        "ASCEND_GLOBAL_LOG_LEVEL": "1",
        "HCCL_RDMA_TC": "",
        "HCCL_RDMA_SL": "",
        "ACLNN_CACHE_LIMIT": "",
        "HOST_CACHE_CAPACITY": "",
        "PYTORCH_NPU_ALLOC_CONF": "expandable_segments:True",
        "HCCL_ALGO": "",
        "TASK_QUEUE_ENABLE": "2",
    }
    (run / "profiler_metadata.json").write_text(json.dumps({"ENV_VARIABLES": env}), encoding="utf-8")
    (blocking,) = _findings(run, "schedule.launch_blocking")
    assert blocking.severity.value == "high" and blocking.evidence[0].label == "ASCEND_LAUNCH_BLOCKING=1"
    (settings,) = _findings(run, "schedule.env_settings")
    # log level 1 (not 3), aclnn cache and host cache unset: flagged; RDMA TC/SL, HCCL_ALGO unset and
    # expandable segments on: not
    assert [f.key for f in settings.facts] == ["ASCEND_GLOBAL_LOG_LEVEL", "ACLNN_CACHE_LIMIT", "HOST_CACHE_CAPACITY"]
    assert settings.args == {"count": "3"}
    assert _findings(run, "schedule.task_queue") == []


def test_real_trace_sample_counted_by_hand():
    """samples/torch_npu-trace_view: 11 AscendCL@aclopCompileAndExecute in ProfilerStep#1, 6.637091 ms in
    all; its Ascend Hardware tasks span 11.269917 ms of which 9.479493 ms nothing runs; the largest gap,
    1.093430 ms, ends where trans_Cast_0 starts (counted from the JSON with Decimal timestamps)."""
    report = open_report(TRACE_SAMPLE)
    (compiled,) = [f for f in advise(report, only=["schedule.recompile"]).findings]
    assert compiled.args == {"count": "11", "time": "6.637 ms"}
    assert compiled.evidence[0].dur_ns == 1_099_971
    (idle,) = [f for f in advise(report, only=["schedule.device_idle"]).findings]
    assert idle.args == {"share": "84.1 %", "idle": "9.479 ms", "total": "11.270 ms"}
    first = idle.evidence[0]
    assert (first.kind, first.label, first.dur_ns) == ("lane", "trans_Cast_0", 1_093_430)
    assert first.start_ns + first.dur_ns == 1704161511422992282 + 1_093_430


def test_real_comm_sample_idle_from_step_trace_time():
    """samples/torch_npu-910B-rank0-comm-mem has no timeline: step 50's Free 25744.05 us of Computing +
    Not Overlapped + Free = 136581.009 us is 18.8 %."""
    (idle,) = _findings(COMM_SAMPLE, "schedule.device_idle")
    assert idle.severity.value == "low"
    assert idle.args == {"share": "18.8 %", "idle": "25.744 ms", "total": "136.581 ms"}
    assert [(e.kind, e.label, e.table) for e in idle.evidence] == [("step", "step 50", "step_trace_time")]


def test_affinity_apis_of_the_generated_transformer(runs):
    """The simulated transformer step calls aten::add then aten::layer_norm 3 times and aten::gelu twice per
    step: msprof-analyze advisor names torch_npu.npu_add_layer_norm and torch_npu.fast_gelu on this run."""
    found = {f.args["api"]: f for f in _findings(runs["none"], "schedule.affinity_api")}
    assert sorted(found) == ["torch_npu.fast_gelu", "torch_npu.npu_add_layer_norm"]
    add_ln = found["torch_npu.npu_add_layer_norm"]
    assert add_ln.args["count"] == "6" and add_ln.args["pattern"] == "add-layer_norm"
    assert all(e.kind == "slice" and e.label == "aten::add" for e in add_ln.evidence)
    assert all(e.values["sequence"] == "add-layer_norm" for e in add_ln.evidence)
    assert found["torch_npu.fast_gelu"].args["count"] == "4"


def test_no_affinity_api_in_a_resnet_step(tmp_path):
    run = write_torch_npu(tmp_path, resnet50_workload(kind="ops"))
    assert _findings(run, "schedule.affinity_api") == []


def test_affinity_api_of_the_real_trace_sample():
    """The sample's one Optimizer.step#Adam.step (grep of the JSON): NpuFusedAdam, as msprof-analyze says."""
    (found,) = _findings(TRACE_SAMPLE, "schedule.affinity_api")
    assert found.args == {"api": "torch_npu.optim.NpuFusedAdam", "count": "1", "pattern": "Adam.step"}
    assert found.evidence[0].label == "Optimizer.step#Adam.step"


def test_the_overview_is_the_end_to_end_time_msprof_analyze_gives(runs):
    """msprof-analyze's overall summary (整网耗时分析): E2E = the steps' Computing + Communication (Not
    Overlapped) + Free of step_trace_time.csv (checked against msprof-analyze advisor on the same run: 2.822 ms =
    2.385 computing + 0.0 + 0.437 free for the default transformer run); the sums here come from the file."""
    import csv

    folder = runs["none"]
    with open(folder / "ASCEND_PROFILER_OUTPUT" / "step_trace_time.csv", newline="", encoding="utf-8") as fh:
        rows = list(csv.DictReader(fh))
    comp = sum(float(r["Computing"]) for r in rows)
    nov = sum(float(r["Communication(Not Overlapped)"]) for r in rows)
    free = sum(float(r["Free"]) for r in rows)
    (found,) = _findings(folder, "schedule.overview")
    assert found.severity.value == "low"
    assert found.args["e2e"] == f"{(comp + nov + free) / 1000:.3f} ms"
    assert found.args["computing"] == f"{comp / 1000:.3f} ms"
    assert found.args["not_overlapped"] == f"{nov / 1000:.3f} ms"
    assert found.args["free"] == f"{free / 1000:.3f} ms"
    assert [e.label for e in found.evidence] == [f"step {r['Step']}" for r in rows]
