"""Before and after ATC on a model the simulated atc fuses (MatMul + bias Add + LeakyRelu, Div -> Sqrt):
the fused om op maps to every ONNX op it holds, and each of those maps back to it."""

from __future__ import annotations

from atc_fusion_models import FUSED, fusion_mlp  # tests/core/atc, put on sys.path by conftest

from workbench.core.graph.load import load_graph
from workbench.core.graph.mapping import invert, map_fused
from workbench.simtoolkit import atc


def test_map_fused_maps_a_fused_om_op_to_all_its_onnx_ops(tmp_path, capsys):
    model = fusion_mlp(tmp_path / "mlp.onnx")
    assert (
        atc.main([f"--model={model}", "--framework=5", f"--output={tmp_path / 'mlp'}", "--soc_version=Ascend310P3"])
        == 0
    )
    assert atc.main(["--mode=1", f"--om={tmp_path / 'mlp.om'}", f"--json={tmp_path / 'mlp.json'}"]) == 0
    capsys.readouterr()
    onnx_g, om_g = load_graph(model), load_graph(tmp_path / "mlp.json")
    mapping = map_fused(onnx_g, om_g)
    by_name = {om_g.nodes[k].name: [onnx_g.nodes[j].name for j in v] for k, v in mapping.items()}
    for name, (_typ, originals, _origin) in FUSED.items():
        assert by_name[name] == [n for n in originals if onnx_g.index(n) is not None]
    assert by_name["MatMul_344LeakyRelu_347"] == ["Constant_345", "Add_346", "MatMul_344", "LeakyRelu_347"]
    assert by_name["Div_315Sqrt_316"] == ["Div_315", "Sqrt_316"]
    assert by_name["Mul_317"] == ["Mul_317"]
    back = invert(mapping)
    fused = om_g.index("MatMul_344LeakyRelu_347")
    for onnx_name in ("Add_346", "MatMul_344", "LeakyRelu_347"):
        assert back[onnx_g.index(onnx_name)] == [fused]
    assert back[onnx_g.index("Sqrt_316")] == [om_g.index("Div_315Sqrt_316")]
