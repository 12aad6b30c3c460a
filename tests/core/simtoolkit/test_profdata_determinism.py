"""Determinism, the shipped sample report, ONNX workloads and the big-trace writer."""

from __future__ import annotations

import collections
import json
from pathlib import Path

import onnx
import pytest
from _profdata_util import process_names, read_csv
from onnx import TensorProto, helper

from workbench.simtoolkit.profdata import (
    Op,
    Tensor,
    Workload,
    resnet50_workload,
    transformer_workload,
    workload_from_onnx,
    write_big_timeline,
    write_msprof_prof,
    write_torch_npu,
)
from workbench.simtoolkit.profdata.bigtrace import verify_template
from workbench.simtoolkit.profdata.samples import write_samples

ROOT = Path(__file__).resolve().parents[3]


def _tree(root: Path) -> dict[str, bytes]:
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


@pytest.mark.parametrize(
    "writer",
    [
        lambda out, seed: write_msprof_prof(
            out, resnet50_workload(), cann_version="8.0.RC1", devices=[0, 1], seed=seed
        ),
        lambda out, seed: write_msprof_prof(
            out, resnet50_workload(), cann_version="5.1.RC2", soc="Ascend310", seed=seed
        ),
        lambda out, seed: write_torch_npu(out, transformer_workload(layers=1), seed=seed),
    ],
)
def test_same_inputs_give_byte_identical_output(tmp_path, writer):
    a, b = writer(tmp_path / "a", 3), writer(tmp_path / "b", 3)
    assert a.name == b.name
    ta, tb = _tree(a), _tree(b)
    assert ta and ta == tb
    c = writer(tmp_path / "c", 4)
    assert _tree(c) != ta  # the seed matters


def test_shipped_samples_are_current(tmp_path):
    """resources/samples regenerates byte for byte (python -m workbench.simtoolkit.profdata samples ...)."""
    shipped = ROOT / "resources" / "samples"
    paths = write_samples(tmp_path)
    for p in paths:
        rel = p.relative_to(tmp_path)
        assert (shipped / rel).is_dir(), f"{shipped / rel} missing: regenerate the samples"
        assert _tree(shipped / rel) == _tree(p), f"{shipped / rel} is stale: regenerate the samples"
        assert sum(len(v) for v in _tree(p).values()) < 600_000


def _tiny_onnx(path: Path) -> Path:
    nodes = [
        helper.make_node("Conv", ["x", "w"], ["c"], name="Conv_0", kernel_shape=[3, 3], pads=[1, 1, 1, 1]),
        helper.make_node("Relu", ["c"], ["r"], name="Relu_1"),
        helper.make_node("Flatten", ["r"], ["f"], name="Flatten_2"),
        helper.make_node("Gemm", ["f", "fc_w"], ["y"], name="Gemm_3", transB=1),
    ]
    graph = helper.make_graph(
        nodes,
        "tiny",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 3, 8, 8])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 10])],
        [
            helper.make_tensor("w", TensorProto.FLOAT, [4, 3, 3, 3], [0.0] * 108),
            helper.make_tensor("fc_w", TensorProto.FLOAT, [10, 256], [0.0] * 2560),
        ],
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])
    onnx.save(model, str(path))
    return path


def test_workload_from_onnx_maps_nodes_and_shapes(tmp_path):
    w = workload_from_onnx(_tiny_onnx(tmp_path / "tiny.onnx"))
    assert [(op.name, op.type, op.core) for op in w.ops] == [
        ("Conv_0", "Conv2D", "AI_CORE"),
        ("Relu_1", "Relu", "AI_VECTOR_CORE"),
        ("Gemm_3", "MatMulV2", "AI_CORE"),
    ]
    assert w.ops[0].inputs[0].shape == (1, 3, 8, 8) and w.ops[0].outputs[0].shape == (1, 4, 8, 8)
    assert w.ops[0].inputs[0].dtype == "FLOAT16"
    root = write_msprof_prof(tmp_path, w, iterations=1)
    _, rows = read_csv(next((root / "mindstudio_profiler_output").glob("op_summary_*.csv")))
    assert [r["Op Name"] for r in rows] == ["Conv_0", "Relu_1", "Gemm_3"]
    assert rows[0]["Input Shapes"] == '"1,3,8,8;4,3,3,3"'


def test_bad_onnx_names_the_file(tmp_path):
    bad = tmp_path / "bad.onnx"
    bad.write_bytes(b"not a model")
    with pytest.raises(ValueError, match="bad.onnx"):
        workload_from_onnx(bad)


def test_ops_from_plain_data_and_rough_durations(tmp_path):
    w = Workload.from_dicts(
        "om",
        [
            {
                "name": "a",
                "type": "Add",
                "core": "AI_VECTOR_CORE",
                "duration_us": 100,
                "inputs": [{"shape": [4, 4], "dtype": "FLOAT"}],
                "outputs": [{"shape": [4, 4]}],
            }
        ],
    )
    root = write_msprof_prof(tmp_path, w, iterations=3)
    _, rows = read_csv(next((root / "mindstudio_profiler_output").glob("op_summary_*.csv")))
    assert len(rows) == 3 and all(95 < float(r["Task Duration(us)"]) < 105 for r in rows)
    with pytest.raises(ValueError, match="lacks field 'type'"):
        Workload.from_dicts("om", [{"name": "a"}])
    with pytest.raises(ValueError, match="core"):
        Op("x", "Add", core="GPU")
    assert Tensor(()).elements == 1


def test_big_trace_templates_match_json_dumps():
    for form in ("msprof", "torch_npu"):
        pairs = verify_template(form)
        assert pairs and all(a == b for a, b in pairs)


@pytest.mark.parametrize("form", ["msprof", "torch_npu"])
def test_big_trace_counts_and_flows(tmp_path, form):
    path = tmp_path / f"{form}.json"
    info = write_big_timeline(path, form, 5003)
    events = json.loads(path.read_text(encoding="utf-8"))
    assert len(events) == info["events"] == 5003
    assert info["bytes"] == path.stat().st_size
    assert sum(e["ph"] == "X" for e in events) == info["x_events"]
    ends = collections.defaultdict(set)
    for e in events:
        if e["ph"] in "sf":
            ends[(e["cat"], str(e["id"]))].add(e["ph"])
    assert len(ends) == info["flows"] and all(v == {"s", "f"} for v in ends.values())
    names = process_names(events)
    assert all(e["pid"] in names for e in events)
    if form == "msprof":
        assert {pid & 31 for pid, n in names.items() if n == "Ascend Hardware"} == {0, 1}


def test_host_to_device_ids_pass_2_pow_53_as_strings():
    from workbench.simtoolkit.profdata.timeline import h2d_flow_id

    fid = h2d_flow_id(2**21 + 7)
    assert int(fid) > 2**53 and int(fid) >> 32 == 2**21 + 7 and float(fid) != int(fid)


def test_connection_base_gives_flow_ids_beyond_2_pow_53(tmp_path):
    root = write_msprof_prof(tmp_path, resnet50_workload(blocks=(1, 1, 1, 1)), iterations=1, connection_base=2**21)
    text = next((root / "mindstudio_profiler_output").glob("msprof_*.json")).read_text(encoding="utf-8")
    events = json.loads(text)
    ids = {e["id"] for e in events if e["ph"] in "sf"}
    assert ids and all(isinstance(i, str) and int(i) > 2**53 for i in ids)
    conns = {e["args"]["connection_id"] for e in events if e["ph"] == "X" and e["name"] == "Node@launch"}
    assert {int(i) >> 32 for i in ids} == conns
    for i in ids:  # the exact digits are in the file, not a float rendering
        assert f'"id": "{i}"' in text


def test_big_trace_ids_cross_2_pow_53(tmp_path):
    small, big = tmp_path / "small.json", tmp_path / "big.json"
    write_big_timeline(small, "msprof", 6_000)
    write_big_timeline(big, "msprof", 300_000)
    small_ids = [int(e["id"]) for e in json.loads(small.read_text(encoding="utf-8")) if e["ph"] == "s"]
    big_ids = [e["id"] for e in json.loads(big.read_text(encoding="utf-8")) if e["ph"] == "s"]
    assert max(small_ids) < 2**53  # the first events are below ...
    assert all(isinstance(i, str) for i in big_ids) and max(int(i) for i in big_ids) > 2**53  # ... later ones above
