"""The compute rules (issue #21) on generated torch_npu runs with planted problems (and without them) and
on the real kernel_details samples, whose facts were read by hand from the files."""

from __future__ import annotations

from pathlib import Path

import pytest

from workbench.core.advisor.model import Severity
from workbench.core.advisor.run import advise
from workbench.core.profiling.build import open_report
from workbench.core.profiling.timeline_ops import slice_named_at
from workbench.simtoolkit.profdata import problems, transformer_workload, write_torch_npu

SAMPLES = Path(__file__).resolve().parents[3].parent / "shared" / "samples"
STREAM_LANE = "Ascend Hardware · Stream 3"


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    """One report per plant (and one without), each opened from its own generated run folder."""
    out = {}
    for plant in ("", "aicpu-op", "int64-aicpu", "memory-bound", "unfused-rmsnorm", "no-aicore"):
        folder = tmp_path_factory.mktemp(plant or "clean")
        path = write_torch_npu(folder, transformer_workload(), plants=[plant] if plant else [])
        report = open_report(path)
        out[plant or "clean"] = (report, advise(report, only=["compute"]))
    return out


def _of(result, rule_id):
    return [f for f in result.findings if f.rule == rule_id]


def _rows(report, **where):
    ops = report.ops
    keep = None
    for column, value in where.items():
        hit = ops[column].astype(str) == value
        keep = hit if keep is None else keep & hit
    return sorted(int(i) for i in ops.index[keep])


def _check_evidence_is_the_data(report, finding):
    """Every "op" item is its OPs row (name, start, duration) and a slice of the stream lane."""
    ops, tl = report.ops, report.timeline
    for e in finding.evidence:
        if e.kind != "op":
            continue
        assert e.table == "ops"
        assert str(ops["name"].iloc[e.row]) == e.label
        assert int(ops["start_ns"].iloc[e.row]) == e.start_ns
        assert e.dur_ns == round(float(ops["duration_us"].iloc[e.row]) * 1000)
        assert e.lane == STREAM_LANE and e.device == 0
        index = slice_named_at(tl, e.label, e.start_ns)
        assert index is not None, f"no timeline slice for {e.label} at {e.start_ns}"
        lane = tl.lanes[int(tl.lane[index])]
        assert f"{lane.process_name} · {lane.thread_name}" == STREAM_LANE
        assert int(tl.dur_ns[index]) == e.dur_ns


def test_the_plants_are_known_with_a_description():
    for name in ("aicpu-op", "int64-aicpu", "memory-bound", "unfused-rmsnorm", "no-aicore"):
        assert problems.PLANTS.get(name), name


def test_aicpu_op_plant_is_found_on_its_stream(runs):
    report, result = runs["aicpu-op"]
    gelu = _rows(report, type="FastGelu", task_type="AI_CPU")
    assert len(gelu) == 4  # 2 layers x 2 steps
    (stream,) = _of(result, "compute.aicpu_stream")
    assert stream.args["stream"] == "3"
    assert float(stream.args["share"].split()[0]) > 60
    assert stream.severity is Severity.HIGH
    assert stream.evidence[0].kind == "lane" and stream.evidence[0].lane == STREAM_LANE
    ops = [e for e in stream.evidence if e.kind == "op"]
    assert sorted(e.row for e in ops[:4]) == gelu  # the planted ops first (longest), then the ArgMax ones
    assert stream.evidence_total == 1 + 6
    _check_evidence_is_the_data(report, stream)

    (has_aicore,) = [f for f in _of(result, "compute.aicpu_has_aicore") if f.args["op_type"] == "FastGelu"]
    assert has_aicore.severity is Severity.HIGH
    assert sorted(e.row for e in has_aicore.evidence) == gelu
    assert has_aicore.args["count"] == "4" and has_aicore.evidence_total == 4
    assert dict(has_aicore.fact_lines())["AI CPU tasks"] == "4"
    _check_evidence_is_the_data(report, has_aicore)


def test_without_the_plant_no_stream_is_dominated_and_fastgelu_stays_on_ai_core(runs):
    report, result = runs["clean"]
    assert result.rules_run and not result.warnings
    assert _of(result, "compute.aicpu_stream") == []
    assert [f.args["op_type"] for f in _of(result, "compute.aicpu_has_aicore")] == ["ArgMaxV2"]


def test_no_aicore_plant_says_no_ai_core_was_used(runs):
    """The forum's "after migrating my LSTM only HBM is used, no AI Core": every task on AI CPU is one
    plain finding with the share per task type, the longest tasks as evidence and advice on the NPU placement."""
    report, result = runs["no-aicore"]
    assert set(report.ops["task_type"].astype(str)) == {"AI_CPU"}
    (found,) = _of(result, "compute.no_aicore")
    assert found.severity is Severity.HIGH
    n = len(report.ops)
    assert found.title() == (
        f"No task ran on the AI Core or vector cores: 100.0 % of the device time is AI_CPU ({n} tasks)"
    )
    facts = dict(found.fact_lines())
    total_us = float(report.ops["duration_us"].sum())
    assert facts["Device tasks"] == str(n) and facts["AI_CPU share of the device time"] == "100.0 %"
    assert facts["Device time"] == f"{total_us / 1000:.3f} ms"
    longest = sorted(range(n), key=lambda r: -float(report.ops["duration_us"].iloc[r]))[:10]
    assert [e.row for e in found.evidence] == longest and found.evidence_total == n
    assert "transfer_to_npu" in found.advice() and "jit_compile=False" in found.advice()
    _check_evidence_is_the_data(report, found)


def test_without_the_no_aicore_plant_no_run_says_so(runs):
    for name in ("clean", "aicpu-op", "int64-aicpu", "memory-bound", "unfused-rmsnorm"):
        assert _of(runs[name][1], "compute.no_aicore") == [], name


def test_int64_plant_is_a_dtype_fallback_of_cumsum(runs):
    report, result = runs["int64-aicpu"]
    cumsum = _rows(report, type="Cumsum")
    assert len(cumsum) == 2
    (dtype,) = _of(result, "compute.aicpu_dtype")
    assert dtype.args["op_type"] == "Cumsum" and dtype.args["dtypes"] == "INT64"
    assert sorted(e.row for e in dtype.evidence) == cumsum
    assert dtype.title() == "Cumsum runs on AI CPU with INT64 data (2 tasks, 3.3 % of device time)"
    _check_evidence_is_the_data(report, dtype)
    # the fallback is explained by its data type, so the generic AI CPU finding does not repeat it
    assert "Cumsum" not in [f.args["op_type"] for f in _of(result, "compute.aicpu_has_aicore")]


def test_an_int64_scalar_is_no_dtype_fallback(runs):
    """ArgMaxV2 of the clean run has an INT64 input too, but a scalar one (the axis)."""
    _, result = runs["clean"]
    assert _of(result, "compute.aicpu_dtype") == []


def test_memory_bound_plant_is_found_with_the_matmuls(runs):
    report, result = runs["memory-bound"]
    (found,) = _of(result, "compute.memory_bound")
    assert found.severity is Severity.HIGH
    assert float(found.args["share"].split()[0]) >= 50
    matmuls = _rows(report, type="MatMulV3")
    assert len(matmuls) == 14
    top = [e.row for e in found.evidence]
    assert len(top) == 10 and found.evidence_total >= 14
    # the two lm_head MatMulV3 (the longest ops) lead, and every planted MatMulV3 shown has the plant's values
    longest = sorted(matmuls, key=lambda r: -float(report.ops["duration_us"].iloc[r]))[:2]
    assert top[:2] == longest
    for e in found.evidence:
        if e.values["type"] == "MatMulV3":
            assert e.values["mte2_ratio"] == pytest.approx(0.957)
            assert e.values["memory_bound"] == pytest.approx(0.957 / 0.557, rel=1e-3)
    _check_evidence_is_the_data(report, found)


def test_without_the_plant_memory_bound_ops_take_too_little_for_a_finding(runs):
    for name in ("clean", "aicpu-op", "int64-aicpu"):
        assert _of(runs[name][1], "compute.memory_bound") == [], name


def test_all_dynamic_operators_are_one_finding(runs):
    report, result = runs["clean"]
    (found,) = _of(result, "compute.dynamic_shape")
    assert found.args["count"] == str(len(report.ops))
    assert found.evidence_total == len(report.ops) and len(found.evidence) == 10


@pytest.mark.skipif(not (SAMPLES / "torch_npu-kernel_details-arith").is_dir(), reason="real samples not present")
def test_real_arith_sample_scalar_casts_on_ai_cpu():
    """kernel_details-arith: 7 AI_CPU tasks, all Cast INT32 -> UINT64 of scalars on stream 17 (CSV rows
    29 41 49 60 69 84 92, 785.18 us, the longest 197.54 us); stream 17 is busy 2961.76 us, so AI CPU is
    26.5 % of it (no dominated stream); scalars are no data, so no dtype fallback."""
    report = open_report(SAMPLES / "torch_npu-kernel_details-arith")
    result = advise(report, only=["compute"])
    (cast,) = _of(result, "compute.aicpu_has_aicore")
    assert cast.args["op_type"] == "Cast" and cast.args["count"] == "7"
    assert sorted(e.row for e in cast.evidence) == [29, 41, 49, 60, 69, 84, 92]
    assert cast.evidence[0].row == 29 and cast.evidence[0].dur_ns == 197_540
    facts = dict(cast.fact_lines())
    assert facts["Time on AI CPU"] == "0.785 ms" and facts["Longest task"] == "0.198 ms"
    assert _of(result, "compute.aicpu_stream") == []
    assert _of(result, "compute.aicpu_dtype") == []


@pytest.mark.skipif(not (SAMPLES / "torch_npu-kernel_details-pipe").is_dir(), reason="real samples not present")
def test_real_pipe_sample_memory_bound_and_dynamic():
    """kernel_details-pipe: 20 of 29 tasks have mte2 > 0.8 and mte2 / max(mac, vec) > 1 (rows 0-15 the
    MatMul and FlashAttentionScore tasks, 21-24 Add), 6611.571 us of 10061.159 us = 65.7 %; the highest is
    row 22's Add (aiv_mte2_ratio 0.874 / aiv_vec_ratio 0.209 = 4.182); every OP State is "dynamic"."""
    report = open_report(SAMPLES / "torch_npu-kernel_details-pipe")
    result = advise(report, only=["compute"])
    (found,) = _of(result, "compute.memory_bound")
    assert found.args == {"share": "65.7 %", "count": "20", "op_types": "MatMulV3, FlashAttentionScore, MatMulV2"}
    assert dict(found.fact_lines())["Highest memory bound"] == "4.182"
    assert found.evidence_total == 20
    assert {e.row for e in found.evidence} <= set(range(16)) | {21, 22, 23, 24}
    (dynamic,) = _of(result, "compute.dynamic_shape")
    assert dynamic.args["count"] == "29"


def test_flash_attention_head_dim_64_is_not_affine_and_the_matmuls_are(runs):
    """The transformer's query is (512, 1, 1024) with 16 heads (softmax out (1, 16, 512, 8)): D = 64; every
    MatMul inner axis (1024, 3072, 4096, 32000) is a multiple of 256."""
    report, result = runs["clean"]
    (fa,) = _of(result, "compute.fa_affinity")
    assert fa.args["head_dim"] == "64" and fa.args["seq"] == "512"
    assert sorted(e.row for e in fa.evidence) == _rows(report, type="FlashAttentionScore")
    assert fa.severity is Severity.LOW
    _check_evidence_is_the_data(report, fa)
    assert _of(result, "compute.cube_affinity") == []


@pytest.mark.skipif(not (SAMPLES / "torch_npu-kernel_details-pipe").is_dir(), reason="real samples not present")
def test_real_pipe_sample_shape_affinity():
    """kernel_details-pipe rows 8-11: MatMulV3 on 8192,15365;8192,4096 (15365 = 60 x 256 + 5; 331 MB per
    call, so over msprof-analyze's 100 MB), 4 x 521.31 us of 10061.159 us = 20.7 %; row 20, the varlen
    FlashAttentionScore, has a (4096, 2, 511) query: D = 511; rows 12-15 have D = 512 / 4 = 128, S = 4096."""
    result = advise(open_report(SAMPLES / "torch_npu-kernel_details-pipe"), only=["compute"])
    (cube,) = _of(result, "compute.cube_affinity")
    assert cube.args["shape"] == "8192,15365;8192,4096" and cube.args["axes"] == "15365, 4096"
    assert sorted(e.row for e in cube.evidence) == [8, 9, 10, 11]
    assert cube.args["share"] == "20.7 %" and cube.severity is Severity.HIGH
    (fa,) = _of(result, "compute.fa_affinity")
    assert [e.row for e in fa.evidence] == [20]
    assert fa.args["head_dim"] == "511" and fa.args["seq"] == "varlen"


def test_unfused_rmsnorm_plant_is_one_fusible_sequence(runs):
    """Each LayerNormV3 became Pow > ReduceMean > Add > Rsqrt > Mul > Mul (vector ops, MTE-bound PMU): 2 per
    layer x 2 layers x 2 steps = 8 occurrences of the same 6 tasks (names and shapes)."""
    report, result = runs["unfused-rmsnorm"]
    (found,) = _of(result, "compute.fusible_sequence")
    assert found.args["length"] == "6" and found.args["count"] == "8"
    assert found.args["op_types"] == "Pow > ReduceMean > Add > Rsqrt > Mul > Mul"
    first_pow = _rows(report, type="Pow")[0]
    assert [e.row for e in found.evidence] == list(range(first_pow, first_pow + 6))
    assert found.evidence_total == 48
    _check_evidence_is_the_data(report, found)


def test_without_the_plant_no_vector_chain_repeats(runs):
    for name in ("clean", "aicpu-op", "int64-aicpu", "memory-bound"):
        assert _of(runs[name][1], "compute.fusible_sequence") == [], name


@pytest.mark.skipif(not (SAMPLES / "torch_npu-kernel_details-pipe").is_dir(), reason="real samples not present")
def test_real_pipe_sample_vector_bound():
    """kernel_details-pipe: the only vector op type is Add (8 tasks, 116.0 us = 1.15 % of all, over msprof-
    analyze's 1 %); rows 21-24 (512,2,4096 twice) average vec 0.242 + mte2 0.848 + mte3 0.131 = 1.22 >= 0.9:
    bound "vec_mte2_mte3"; rows 25-28 (scalars) 0.028 + 0.211 + 0.125: not bound."""
    result = advise(open_report(SAMPLES / "torch_npu-kernel_details-pipe"), only=["compute"])
    (found,) = _of(result, "compute.vector_bound")
    assert sorted(e.row for e in found.evidence) == [21, 22, 23, 24]
    assert found.args["bounds"] == "vec_mte2_mte3" and found.args["op_types"] == "Add"
    assert found.severity is Severity.LOW
    assert all(e.values["bound"] == "vec_mte2_mte3" for e in found.evidence)


def test_vector_bound_lists_the_heavy_vector_types(runs):
    report, result = runs["clean"]
    (found,) = _of(result, "compute.vector_bound")
    vector = report.ops["task_type"].astype(str) == "AI_VECTOR_CORE"
    assert found.evidence_total == int(vector.sum())  # every vector op of the simulator keeps its pipes busy
    _check_evidence_is_the_data(report, found)


def _mean_ratios(report, rows):
    ops = report.ops
    return (
        float(ops["aic_mac_ratio"].iloc[rows].astype(float).mean()),
        float(ops["aic_mte2_ratio"].iloc[rows].astype(float).mean()),
    )


def test_cube_room_for_optimisation_whatever_its_share(runs):
    """msprof-analyze's Cube 性能优化算子集合 on the aicpu-op run: the MatMulV3 shape moving 100 MB or more (two
    calls of 94.7 MB) with affine inner axes and no bound (MAC < 0.8 or < 0.95 with MTE2 < 0.95), its room
    max(0.8 - MAC, 0.95 - MTE2); listed although unbound AI Core work is under compute.no_bound's share."""
    report, result = runs["aicpu-op"]
    (cube,) = _of(result, "compute.cube_optimization")
    assert cube.args["op_type"] == "MatMulV3" and cube.args["shape"] == "512,1024;1024,32000"
    rows = _rows(report, type="MatMulV3", input_shapes="512,1024;1024,32000")
    assert sorted(e.row for e in cube.evidence) == rows and cube.evidence_total == len(rows) == 2
    mac, mte2 = _mean_ratios(report, rows)
    assert mac < 0.95 and mte2 < 0.95
    assert cube.args["headroom"] == f"{max(0.8 - mac, 0.95 - mte2) * 100:.1f} %"
    facts = {f.key: f.value for f in cube.facts}
    assert facts["mac"] == f"{mac:.3f}" and facts["mte2"] == f"{mte2:.3f}" and facts["data"] == "189.5 MB"
    _check_evidence_is_the_data(report, cube)


@pytest.mark.parametrize(
    ("mac", "mte2"), [(0.5, 0.5), (0.85, 0.6), (0.96, 0.5), (0.5, 0.96), (0.81, 0.96), (0.79, 0.949), (0.8, 0.95)]
)
def test_cube_bound_is_msprof_analyze_s(mac, mte2):
    """Our bound of a cube shape from its mean ratios equals msprof-analyze's del_cube_operator_bound."""
    pytest.importorskip("msprof_analyze")
    from msprof_analyze.advisor.analyzer.computation.ai_core_performance.ai_core_performance_checker import (
        AICorePerformanceChecker,
    )

    from workbench.core.advisor.rules.compute import cube_bound

    class Op:
        aic_mac_ratio, aic_mte2_ratio = str(mac), str(mte2)

    theirs = AICorePerformanceChecker().del_cube_operator_bound([Op()])
    bound, room = cube_bound(mac, mte2)
    assert bool(bound) == bool(theirs[0])
    assert room == pytest.approx(theirs[1])
