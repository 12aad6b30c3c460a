"""The simulated ATC fuses as real ATC does by default (samples/atc-om2json-large/test.om.json): MatMul +
bias Add + activation and elementwise chains become one op named by concatenation, with the originals
listed and the last fused op as the output's origin; msprof's workload and the runtime's dump follow."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from workbench.core.dump.aclconfig import DumpSettings
from workbench.core.dump.compare import compare_dirs
from workbench.core.dump.omjson import parse_om_json, read_om_json
from workbench.simtoolkit import atc
from workbench.simtoolkit.config import CONFIG_NAME, ENV_CONFIG
from workbench.simtoolkit.dumpwriter import write_golden, write_model_dump
from workbench.simtoolkit.omfile import read_om

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "atc"))  # tests/core/atc has no __init__.py
from atc_fusion_models import FUSED, fusion_mlp  # noqa: E402


@pytest.fixture
def cann(sim_prefixes, monkeypatch):
    monkeypatch.setenv(ENV_CONFIG, str(sim_prefixes["8.0.RC1"] / "ascend-toolkit" / "latest" / CONFIG_NAME))


def convert(tmp_path, capsys, *extra):
    model = fusion_mlp(tmp_path / "mlp.onnx")
    code = atc.main(
        [f"--model={model}", "--framework=5", f"--output={tmp_path / 'mlp'}", "--soc_version=Ascend310P3", *extra]
    )
    out = capsys.readouterr().out
    assert code == 0, out
    return read_om(tmp_path / "mlp.om")


def attrs(items):
    return {a["key"]: a["value"] for a in items}


def test_fused_ops_are_named_typed_and_listed_like_real_atc(cann, capsys, tmp_path):
    om = convert(tmp_path, capsys)
    ops = {o["name"]: o for o in om["om_json"]["graph"][0]["op"]}
    computing = [n for n, o in ops.items() if o["type"] not in ("Data", "Const", "Cast", "NetOutput")]
    assert computing == ["MatMul_344LeakyRelu_347", "Div_315Sqrt_316", "Mul_317", "Sub_318"]
    for name, (typ, originals, origin) in FUSED.items():
        op = ops[name]
        assert op["type"] == typ
        assert attrs(op["attr"])["_datadump_original_op_names"]["list"]["s"] == originals
        out = attrs(op["output_desc"][0]["attr"])
        assert out["_datadump_origin_name"] == {"s": origin} and out["_datadump_origin_output_index"] == {"i": 0}
        assert out["_datadump_origin_data_type"] == {"s": "DT_FLOAT"}
    # the fused op reads the external inputs of all its ops: x (cast), the weight, the bias Constant
    assert ops["MatMul_344LeakyRelu_347"]["input"] == ["trans_Cast_0:0", "fc.weight:0", "fc.bias:0"]
    assert ops["Div_315Sqrt_316"]["input"] == ["MatMul_344LeakyRelu_347:0", "two:0"]
    # Sqrt_316's output feeds two ops: Mul_317 and Sub_318 are not fused into the chain
    assert attrs(ops["Mul_317"]["attr"])["_datadump_original_op_names"]["list"]["s"] == ["Mul_317"]
    assert ops["Mul_317"]["input"][0] == "Div_315Sqrt_316:0"
    assert ops["Div_315Sqrt_316"]["dst_name"] == ["Mul_317", "Sub_318"]
    model_attrs = attrs(om["om_json"]["attr"])
    tasks = model_attrs["task_index_op_name"]["list"]["s"]
    assert tasks[:4] == computing
    # one profiler task per fused op, with the fused op's name and type
    assert [(w["name"], w["type"]) for w in om["workload"]] == [
        ("MatMul_344LeakyRelu_347", "BatchMatMul"),
        ("Div_315Sqrt_316", "RealDiv"),
        ("Mul_317", "Mul"),
        ("Sub_318", "Sub"),
    ]
    assert len(om["workload"][0]["inputs"]) == 3 and om["workload"][0]["outputs"][0]["shape"] == [1, 4]


def test_no_fusion_across_out_nodes_or_in_the_framework_models_json(cann, capsys, tmp_path):
    om = convert(tmp_path, capsys, "--out_nodes=Div_315:0")
    names = [o["name"] for o in om["om_json"]["graph"][0]["op"]]
    assert "Div_315" in names and "Sqrt_316" in names and "Div_315Sqrt_316" not in names
    assert "MatMul_344LeakyRelu_347" in names  # not touched by the out node
    # --mode=1 of the framework model: its ops as they are (fusion happens when the om is built)
    code = atc.main(["--mode=1", f"--model={tmp_path / 'mlp.onnx'}", "--framework=5", f"--json={tmp_path / 'm.json'}"])
    assert code == 0
    plain = [o.name for o in read_om_json(tmp_path / "m.json").ops]
    assert "MatMul_344" in plain and "Add_346" in plain and "LeakyRelu_347" in plain and "Div_315" in plain


def test_dump_and_comparison_follow_the_fused_ops(cann, capsys, tmp_path):
    om = convert(tmp_path, capsys)
    model = parse_om_json(om["om_json"], str(tmp_path / "mlp.om"))
    files = write_model_dump(model, DumpSettings(option="all", model_name=model.name), tmp_path / "npu")
    by_op = {f.name.split(".")[1]: f.name.split(".")[0] for f in files}
    assert by_op["MatMul_344LeakyRelu_347"] == "BatchMatMul" and by_op["Div_315Sqrt_316"] == "RealDiv"
    assert not {"MatMul_344", "Add_346", "LeakyRelu_347", "Div_315", "Sqrt_316"} & set(by_op)  # one file per fused op
    golden = write_golden(files, tmp_path / "golden")
    truth = {p.name.rsplit(".", 2)[0] for p in golden}  # {op}.{index}: the ONNX op that computes the tensor
    assert {"LeakyRelu_347.0", "Sqrt_316.0"} <= truth
    report = compare_dirs(tmp_path / "npu", tmp_path / "golden", fusion_rule=model)
    rows = {r.npu_op: r for r in report.rows if r.kind == "output"}
    for name, (_typ, originals, origin) in FUSED.items():
        # msaccucmp's GroundTruth column lists the fused op's originals; the file compared is its origin's
        assert rows[name].ground_truth == ",".join(originals) and not rows[name].reason
        assert Path(rows[name].golden_file).name.startswith(f"{origin}.0.")
        assert rows[name].cosine is not None and rows[name].cosine > 0.999
