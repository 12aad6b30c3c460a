"""Layout JSON and SVG parse back (text escaped), writes are atomic, refuse an existing file without
force and never replace the model; the before/after-ATC mapping by the names ATC records."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET

import numpy as np
import pytest

from workbench.core.fsutil import OutputRefused
from workbench.core.graph.export import LAYOUT_FORMAT, layout_json, write_layout_json, write_svg
from workbench.core.graph.layout import layout_graph
from workbench.core.graph.load import load_graph
from workbench.core.graph.mapping import invert, map_fused
from workbench.core.graph.model import Graph, Group, Node

SVG = "{http://www.w3.org/2000/svg}"


def tricky_graph(tmp_path) -> Graph:
    names = ['in<"a">', "g/x&y", "g/z", "out]]>"]
    nodes = [Node(n, t, group=grp) for n, t, grp in zip(names, ["Input", "Op<T>", "Op", "Output"], [-1, 0, 0, -1])]
    src = tmp_path / "model.onnx"
    src.write_bytes(b"stand-in")
    return Graph(
        "m&m", "onnx", str(src), nodes, np.array([0, 1, 2, 0]), np.array([1, 2, 3, 2]), ["t0", "t1", "t2", "t3"],
        groups=[Group("g", "scope")],
    )  # fmt: skip


def test_layout_json_parses_back(tmp_path, synth300):
    g = load_graph(synth300)
    lay = layout_graph(g)
    out = write_layout_json(g, lay, tmp_path / "layout.json")
    doc = json.loads(out.read_text())
    assert doc["format"] == LAYOUT_FORMAT and doc["version"] == 1
    assert doc["graph"] == {"name": g.name, "format": "onnx", "source": str(synth300)}
    assert len(doc["nodes"]) == len(g.nodes) and len(doc["edges"]) == len(lay.edge_src)
    first = doc["nodes"][0]
    assert first["name"] == g.nodes[first["node"]].name and first["type"] == g.nodes[first["node"]].op_type
    assert first["x"] == pytest.approx(lay.x[0]) and first["w"] == pytest.approx(lay.w[0])
    for e, edge in enumerate(doc["edges"]):
        assert edge["points"] == pytest.approx(lay.edge_points[lay.edge_offsets[e] : lay.edge_offsets[e + 1]], abs=0.01)
        assert edge["tensors"]
    assert doc["width"] == pytest.approx(lay.width)
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".")]  # no temp left


def test_collapsed_group_in_layout_json(tmp_path):
    g = tricky_graph(tmp_path)
    doc = layout_json(g, layout_graph(g, frozenset({0})))
    boxes = {n["name"]: n for n in doc["nodes"]}
    assert boxes["g"]["group"] == 0 and boxes["g"]["node"] is None and boxes["g"]["members"] == 2
    assert boxes["g"]["type"] == "scope" and doc["collapsed"] == [0]
    assert sorted(e["tensors"] for e in doc["edges"]) == [["t0", "t3"], ["t2"]]


def test_svg_parses_back_with_escaped_text(tmp_path):
    g = tricky_graph(tmp_path)
    lay = layout_graph(g)
    out = write_svg(g, lay, tmp_path / "g.svg")
    root = ET.parse(out).getroot()
    assert root.tag == f"{SVG}svg"
    rects = root.findall(f".//{SVG}rect")
    texts = [t.text for t in root.iter(f"{SVG}text")]
    assert len(rects) == 4 and len(root.findall(f".//{SVG}polyline")) == len(lay.edge_src)
    assert "Op<T>" in texts and 'in<"a">' in texts and "out]]>" in texts and "x&y" in texts
    assert root.find(f"{SVG}title").text == "m&m"


def test_writes_refuse_existing_files_and_the_input(tmp_path):
    g = tricky_graph(tmp_path)
    lay = layout_graph(g)
    target = tmp_path / "g.svg"
    target.write_text("keep")
    with pytest.raises(OutputRefused, match="exists; pass --force"):
        write_svg(g, lay, target)
    assert target.read_text() == "keep"
    write_svg(g, lay, target, force=True)
    assert target.read_text().startswith("<?xml")
    with pytest.raises(OutputRefused, match="is an input"):
        write_layout_json(g, lay, g.source, force=True)
    assert (tmp_path / "model.onnx").read_bytes() == b"stand-in"


def om_graph_json(tmp_path) -> Graph:
    def op(name, typ, inputs=(), originals=(), origin=None):
        attrs = [{"key": "_datadump_original_op_names", "value": {"list": {"s": list(originals)}}}]
        desc = {"dtype": "DT_FLOAT", "layout": "NCHW", "shape": {"dim": [1]}}
        if origin:
            desc["attr"] = [{"key": "_datadump_origin_name", "value": {"s": origin}}]
        return {"name": name, "type": typ, "input": list(inputs), "attr": attrs, "output_desc": [desc]}

    doc = {
        "name": "m",
        "graph": [
            {
                "name": "g",
                "op": [
                    op("x", "Data"),
                    op("conv1", "Conv2D", ["x:0"], ["conv1", "relu1"]),  # Conv+Relu fused, own name kept
                    op("trans_TransData_3", "TransData", ["conv1:0"]),  # inserted by ATC: no original
                    op("fc_fused", "MatMulV2", ["trans_TransData_3:0"], origin="fc"),  # only the output says
                ],
            }
        ],
    }
    p = tmp_path / "m.json"
    p.write_text(json.dumps(doc))
    return load_graph(p)


def test_map_fused_by_original_names_own_name_and_output_origin(tmp_path):
    from onnx import TensorProto, helper

    nodes = [
        helper.make_node("Conv", ["x", "w"], ["c"], name="conv1"),
        helper.make_node("Relu", ["c"], ["r"], name="relu1"),
        helper.make_node("Gemm", ["r", "w2"], ["y"], name="fc"),
    ]
    graph = helper.make_graph(
        nodes,
        "m",
        [helper.make_tensor_value_info(n, TensorProto.FLOAT, [1]) for n in ("x", "w", "w2")],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1])],
    )
    import onnx

    onnx.save(helper.make_model(graph), str(tmp_path / "m.onnx"))
    onnx_g = load_graph(tmp_path / "m.onnx")
    om = om_graph_json(tmp_path)
    mapping = map_fused(onnx_g, om)
    by_name = {om.nodes[k].name: [onnx_g.nodes[j].name for j in v] for k, v in mapping.items()}
    assert by_name == {"x": ["x"], "conv1": ["conv1", "relu1"], "fc_fused": ["fc"]}
    back = invert(mapping)
    assert back[onnx_g.index("relu1")] == [om.index("conv1")]


def test_map_fused_on_a_model_converted_by_the_simulated_atc(tmp_path, capsys):
    from atc_models import SIM_SOC, small_cnn

    from workbench.cli import main

    model = small_cnn(tmp_path / "cnn.onnx")
    assert (
        main(
            ["convert", "--host", "demo", "--model", str(model), "--soc-version", SIM_SOC]
            + ["--input-shape", "images:1,3,32,32", "--out", str(tmp_path / "out"), "--json"]
        )
        == 0
    )
    om = json.loads(capsys.readouterr().out)["om_path"]
    kept = tmp_path / "cnn_om.json"
    assert main(["model", "structure", om, "--host", "demo", "--save-json", str(kept)]) == 0
    onnx_g, om_g = load_graph(model), load_graph(kept)
    mapping = map_fused(onnx_g, om_g)
    mapped = {onnx_g.nodes[j].name for v in mapping.values() for j in v}
    assert {"conv1", "relu1", "conv2", "fc"} <= mapped
