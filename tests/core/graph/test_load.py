"""The loaders: real om JSON samples, generated and hand-built ONNX (a function, an If), a Caffe
prototxt with in-place layers, TensorFlow GraphDef as text and binary; every bad input one line
naming the file."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from workbench.core.graph.load import GraphError, load_graph
from workbench.core.graph.model import INPUT, OUTPUT

from .models import PBTXT, PROTOTXT, graphdef_bytes, onnx_function_and_if

OM_SAMPLES = ["atc-om2json-310-cann5.1/model.json", "atc-om2json-large/test.om.json"]


def edges_of(g) -> set[tuple[str, str]]:
    return {(g.nodes[s].name, g.nodes[t].name) for s, t in zip(g.edge_src.tolist(), g.edge_dst.tolist())}


@pytest.mark.parametrize("rel", OM_SAMPLES)
def test_om_samples_give_a_node_per_op_and_an_edge_per_resolvable_input(samples, rel):
    raw = json.loads((samples / rel).read_text())
    ops = [op for g in raw["graph"] for op in g["op"]]
    names = {op["name"] for op in ops}
    resolvable = [
        (i.rsplit(":", 1)[0], op["name"])
        for op in ops
        for i in op.get("input", [])
        if i and not i.endswith(":-1") and i.rsplit(":", 1)[0] in names
    ]
    g = load_graph(samples / rel)
    assert g.format == "om" and g.name == raw["name"]
    assert len(g.nodes) == len(ops)
    assert [n.name for n in g.nodes] == [op["name"] for op in ops]
    assert len(g.edge_src) == len(resolvable)
    assert sorted(edges_of(g)) == sorted(set(resolvable))
    assert g.groups == [] or all(gr.kind == "scope" for gr in g.groups)  # one graph[]: no graph group
    # output_desc: dtype, layout (as format) and shape as atc wrote them
    op = next(o for o in ops if o.get("output_desc"))
    node = g.nodes[g.index(op["name"])]
    desc = op["output_desc"][0]
    assert node.outputs[0].dtype == desc.get("dtype", "")
    assert node.outputs[0].format == desc.get("layout", "")
    assert node.outputs[0].shape == list(desc.get("shape", {}).get("dim", []))


def test_om_original_names_and_attrs_are_plain(samples):
    raw = json.loads((samples / OM_SAMPLES[1]).read_text())
    ops = [op for g in raw["graph"] for op in g["op"]]
    fused = next(
        op
        for op in ops
        for a in op.get("attr", [])
        if a["key"] == "_datadump_original_op_names" and a["value"].get("list", {}).get("s")
    )
    originals = next(a for a in fused["attr"] if a["key"] == "_datadump_original_op_names")["value"]["list"]["s"]
    g = load_graph(samples / OM_SAMPLES[1])
    node = g.nodes[g.index(fused["name"])]
    assert node.original_names[: len(originals)] == originals
    assert all(not isinstance(v, dict) or "list" not in v for v in node.attrs.values())
    assert g.by_original_name(originals[0])[0] == g.index(fused["name"])


def test_om_json_with_several_graphs_gives_graph_groups_and_origin_names(tmp_path):
    def op(name, typ, inputs=(), origin=None):
        desc = {"dtype": "DT_FLOAT16", "layout": "NC1HWC0", "shape": {"dim": [1, 2]}}
        if origin:
            desc["attr"] = [{"key": "_datadump_origin_name", "value": {"s": origin}}]
        return {"name": name, "type": typ, "input": list(inputs), "output_desc": [desc]}

    doc = {
        "name": "two",
        "graph": [
            {"name": "main", "op": [op("data", "Data"), op("conv", "Conv2D", ["data:0", "ctrl:-1"], "Conv_0")]},
            {"name": "sub", "op": [op("relu", "Relu", ["conv:0", "ghost:0"])]},
        ],
    }
    p = tmp_path / "two.json"
    p.write_text(json.dumps(doc))
    g = load_graph(p)
    assert [(gr.name, gr.kind) for gr in g.groups] == [("main", "graph"), ("sub", "graph")]
    assert [n.group for n in g.nodes] == [0, 0, 1]
    assert edges_of(g) == {("data", "conv"), ("conv", "relu")}  # the control input is not drawn
    assert g.edge_tensor == ["data:0", "conv:0"]
    assert g.nodes[1].original_names == ["Conv_0"]
    assert any("1 op inputs name no op" in w for w in g.warnings)  # ghost:0


def test_synth_onnx_nodes_inputs_outputs_initializers_scopes_shapes(synth300):
    import onnx

    model = onnx.load(str(synth300))
    g = load_graph(synth300)
    assert g.format == "onnx"
    assert len(g.nodes) == 300 + 2
    assert g.nodes[0].op_type == INPUT and g.nodes[0].name == "input"
    assert g.nodes[-1].op_type == OUTPUT
    inits = {i.name for i in model.graph.initializer}
    wanted = sum(1 for n in model.graph.node for t in n.input if t and t not in inits) + 1  # + the graph output
    assert len(g.edge_src) == wanted
    mm = next(n for n in g.nodes if n.op_type == "MatMul")
    assert [t.initializer for t in mm.inputs] == [False, True]
    # shape inference ran: every op output known
    assert all(
        t.shape == [1, 16] and t.dtype == "float32" for n in g.nodes[1:-1] if n.op_type != "Concat" for t in n.outputs
    )
    # torch-style names give nested scopes, each holding >= 2 nodes
    scopes = [gr for gr in g.groups if gr.kind == "scope"]
    assert scopes and all(gr.name.startswith("/block.") for gr in scopes)
    for k, gr in enumerate(g.groups):
        inside = [i for i, n in enumerate(g.nodes) if k in g.group_path(n.group)]
        assert len(inside) >= 2, gr.name
        if gr.parent >= 0:
            assert gr.name.startswith(g.groups[gr.parent].name + "/")
    node = g.nodes[g.index("/block.0/branch0/" + g.nodes[1].name.rsplit("/", 1)[1])]
    assert g.groups[node.group].name == "/block.0/branch0" or g.groups[node.group].name == "/block.0"


def test_onnx_function_call_and_if_bodies_become_groups(tmp_path):
    g = load_graph(onnx_function_and_if(tmp_path / "fn_if.onnx"))
    kinds = {gr.name: gr.kind for gr in g.groups}
    assert kinds == {"call": "function", "branch/then_branch": "graph", "branch/else_branch": "graph"}
    names = [n.name for n in g.nodes]
    assert "call" not in names  # the call is its body
    fg = [gr.name for gr in g.groups].index("call")
    assert {n.name for n in g.nodes if n.group == fg} == {"call/mul", "call/add"}
    e = edges_of(g)
    assert {("x", "pre"), ("pre", "call/mul"), ("pre", "call/add"), ("call/mul", "call/add")} <= e
    assert ("call/add", "sum") in e  # the call's output is its body's
    # the bodies use outer tensors, and their results feed the If
    assert ("call/add", "neg") in e and ("pre", "ident") in e
    assert ("neg", "branch") in e and ("ident", "branch") in e and ("gt", "branch") in e
    assert ("branch", "y") in e
    assert g.nodes[g.index("neg")].group == [gr.name for gr in g.groups].index("branch/then_branch")
    mul = g.nodes[g.index("call/mul")]
    assert [t.name for t in mul.inputs] == ["a", "w"]
    gt = g.nodes[g.index("gt")]
    assert [t.initializer for t in gt.inputs] == [False, True]
    assert g.nodes[g.index("sum")].attrs == {"keepdims": 0}
    assert g.nodes[g.index("branch")].attrs == {"then_branch": "graph then_body", "else_branch": "graph else_body"}


def test_caffe_in_place_layers_chain_in_order(tmp_path):
    p = tmp_path / "tiny.prototxt"
    p.write_text(PROTOTXT)
    g = load_graph(p)
    assert g.format == "caffe" and g.name == "tiny"
    assert [n.name for n in g.nodes] == ["data", "conv1", "relu1", "bn1", "pool1", "side", "cat", "out"]
    assert g.nodes[0].op_type == INPUT and g.nodes[0].outputs[0].shape == [1, 3, 8, 8]
    assert g.nodes[-1].op_type == OUTPUT
    assert edges_of(g) == {
        ("data", "conv1"),
        ("conv1", "relu1"),
        ("relu1", "bn1"),
        ("bn1", "pool1"),
        ("data", "side"),
        ("pool1", "cat"),
        ("side", "cat"),
        ("cat", "out"),
    }
    assert g.nodes[1].attrs["convolution_param"] == {"num_output": 4, "kernel_size": 3}


def test_caffe_model_of_the_converter_tests(tmp_path):
    from atc_models import CAFFE_PROTOTXT

    p = tmp_path / "c.prototxt"
    p.write_text(CAFFE_PROTOTXT)
    g = load_graph(p)
    assert len(g.nodes) >= 2 and len(g.edge_src) >= 1 and not g.warnings


def test_tf_pbtxt_inputs_with_indexes_and_control_inputs(tmp_path):
    p = tmp_path / "g.pbtxt"
    p.write_text(PBTXT)
    g = load_graph(p)
    assert g.format == "tf"
    assert g.nodes[0].op_type == INPUT and g.nodes[0].outputs[0].shape == [1, 4]
    assert g.nodes[0].outputs[0].dtype == "float32"
    assert edges_of(g) == {
        ("x", "split"),
        ("split", "a"),
        ("split", "b"),
        ("a", "b"),
        ("b", "scope/c"),
        ("scope/c", "scope/d"),
    }
    assert g.edge_tensor[g.edge_tensor.index("split:1")] == "split:1"
    assert g.nodes[g.index("a")].attrs["T"] == "float32"
    assert g.nodes[g.index("split")].attrs["num_split"] == 2
    assert any("1 control inputs" in w for w in g.warnings)
    assert [gr.name for gr in g.groups] == ["scope"]
    assert not any("library" in w for w in g.warnings)
    p.write_text(PBTXT + 'library { function { signature { name: "f" } } }\n')
    assert any("function library is not shown" in w for w in load_graph(p).warnings)


def test_tf_binary_graphdef(tmp_path):
    p = tmp_path / "frozen.pb"
    p.write_bytes(graphdef_bytes())
    g = load_graph(p)
    assert [(n.name, n.op_type) for n in g.nodes] == [("x", INPUT), ("r", "Relu"), ("out", "Identity")]
    assert edges_of(g) == {("x", "r"), ("r", "out")}
    assert g.nodes[1].attrs == {"T": "float32"}
    assert any("1 control inputs" in w for w in g.warnings)
    p.write_bytes(graphdef_bytes(library=True))
    assert any("function library is not shown" in w for w in load_graph(p).warnings)


@pytest.mark.parametrize(
    "name,data,expected",
    [
        ("bad.onnx", b"\x08\x07garbage\xff\xff", "not a readable ONNX model"),
        ("bad.json", b'{"graph": [}', "not valid JSON"),
        ("notom.json", b'{"name": "x", "graph": 3}', "field 'graph'"),
        ("bad.prototxt", b'layer { name: "a" ', "never closed"),
        ("empty.pbtxt", b"versions { producer: 1 }", "field 'node'"),
        ("bad.pb", b"\x0a\xff\xff\xff\xff\x0f", "not a TensorFlow frozen graph"),
        ("latin.prototxt", b'name: "\xe9"', "not UTF-8"),
        ("model.bin", b"\x00\x01\x02", "unknown model type"),
    ],
)
def test_bad_inputs_raise_one_line_naming_the_file(tmp_path, name, data, expected):
    p = tmp_path / name
    p.write_bytes(data)
    with pytest.raises(GraphError) as err:
        load_graph(p)
    msg = str(err.value)
    assert str(p) in msg and expected in msg and "\n" not in msg and "Traceback" not in msg


def test_a_missing_file(tmp_path):
    with pytest.raises(GraphError, match="no such model file"):
        load_graph(tmp_path / "nope.onnx")


def test_loading_is_cancellable(synth300):
    from workbench.core.tasks import Cancelled, CancelToken

    token = CancelToken()
    token.cancel()
    with pytest.raises(Cancelled):
        load_graph(synth300, cancel=token)


def test_samples_fixture_is_the_shared_folder(samples):
    assert Path(samples / OM_SAMPLES[0]).is_file()
