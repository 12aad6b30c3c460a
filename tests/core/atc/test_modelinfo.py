"""inspect_model on ONNX (external weights never loaded), Caffe prototxt and a TensorFlow GraphDef."""

from __future__ import annotations

import struct

import numpy as np
import onnx
import pytest
from onnx import TensorProto, helper, numpy_helper

from workbench.core.atc.modelinfo import ModelInfoError, detect_framework, inspect_model
from workbench.core.atc.structure import model_structure


def test_onnx_inputs_outputs_and_ops(cnn):
    info = inspect_model(cnn)
    expected = onnx.load(str(cnn))  # computed independently from the file
    assert info.framework == 5
    assert [(t.name, t.dtype, t.shape, t.dim_names) for t in info.inputs] == [
        ("images", "float32", [-1, 3, 32, 32], ["N", None, None, None])
    ]
    assert [t.name for t in info.outputs] == [o.name for o in expected.graph.output]
    assert info.op_count == len(expected.graph.node)
    assert info.op_types["Conv"] == sum(n.op_type == "Conv" for n in expected.graph.node)
    assert info.node_outputs["conv1"] == 1 and "conv1.weight" not in info.input_names()


def test_onnx_external_weights_are_not_loaded(tmp_path):
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT16, [2, 1024])
    y = helper.make_tensor_value_info("y", TensorProto.FLOAT16, [2, 1024])
    w = numpy_helper.from_array(np.ones((1024, 1024), np.float16), "w")
    model = helper.make_model(helper.make_graph([helper.make_node("MatMul", ["x", "w"], ["y"])], "g", [x], [y], [w]))
    path = tmp_path / "big.onnx"
    onnx.save(
        model,
        str(path),
        save_as_external_data=True,
        all_tensors_to_one_file=True,
        location="big.data",
        size_threshold=0,
    )
    (tmp_path / "big.data").unlink()  # inspection must not need the weights file
    info = inspect_model(path)
    assert [(t.name, t.dtype, t.shape) for t in info.inputs] == [("x", "float16", [2, 1024])]
    assert info.op_types == {"MatMul": 1} and info.node_outputs == {"MatMul_0": 1}


def test_onnx_structure_lists_ops_with_shapes(cnn):
    s = model_structure(cnn)
    assert [op.name for op in s.ops] == [n.name for n in onnx.load(str(cnn)).graph.node]
    conv1 = s.ops[0]
    assert conv1.type == "Conv" and conv1.inputs == ["images", "conv1.weight", "conv1.bias"]
    assert conv1.outputs[0].shape == [-1, 8, 32, 32] and conv1.outputs[0].dtype == "float32"
    assert [op.name for op in s.search("RELU")] == ["relu1", "relu2"]
    assert len(s.search("")) == len(s.ops)


def test_caffe_prototxt_inputs(caffe, tmp_path):
    info = inspect_model(caffe)
    assert info.framework == 0
    assert [(t.name, t.shape) for t in info.inputs] == [("data", [1, 3, 8, 8])]
    assert info.op_count == 3 and info.op_types == {"Convolution": 1, "ReLU": 1, "Softmax": 1}
    assert [t.name for t in info.outputs] == ["prob"]
    two = tmp_path / "two.prototxt"
    two.write_text(
        'input: "a"\ninput_dim: 1\ninput_dim: 3\ninput_dim: 4\ninput_dim: 5\n'
        'layer { name: "b_in" type: "Input" top: "b" input_param { shape { dim: 2 dim: 7 } } }\n'
        'layer { name: "cat" type: "Concat" bottom: "a" bottom: "b" top: "c" }\n'
    )
    info = inspect_model(two)
    assert [(t.name, t.shape) for t in info.inputs] == [("a", [1, 3, 4, 5]), ("b", [2, 7])]
    assert info.op_count == 1


def _field(num: int, wire: int, payload: bytes | int) -> bytes:
    def varint(n: int) -> bytes:
        out = b""
        while True:
            b, n = n & 0x7F, n >> 7
            out += bytes([b | (0x80 if n else 0)])
            if not n:
                return out

    if wire == 0:
        return varint(num << 3) + varint(payload)  # type: ignore[arg-type]
    return varint(num << 3 | 2) + varint(len(payload)) + payload  # type: ignore[arg-type]


def _node(name: str, op: str, attrs: dict[str, bytes] = {}) -> bytes:  # noqa: B006 - read only
    body = _field(1, 2, name.encode()) + _field(2, 2, op.encode())
    for key, value in attrs.items():
        body += _field(5, 2, _field(1, 2, key.encode()) + _field(2, 2, value))
    return _field(1, 2, body)


def test_tensorflow_placeholders_best_effort(tmp_path):
    minus_one = struct.unpack("<Q", struct.pack("<q", -1))[0]
    dims = b"".join(_field(2, 2, _field(1, 0, d)) for d in (minus_one, 224, 224, 3))
    pb = (
        _node("input", "Placeholder", {"dtype": _field(6, 0, 1), "shape": _field(7, 2, dims)})
        + _node("w", "Const")
        + _node("conv", "Conv2D")
        + _node("out", "Softmax")
    )
    path = tmp_path / "frozen.pb"
    path.write_bytes(pb)
    info = inspect_model(path)
    assert info.framework == 3
    assert [(t.name, t.dtype, t.shape) for t in info.inputs] == [("input", "float32", [-1, 224, 224, 3])]
    assert info.op_types == {"Conv2D": 1, "Softmax": 1}
    path.write_bytes(b"\xff\xff\xff")
    with pytest.raises(ModelInfoError, match="frozen.pb"):
        inspect_model(path)


def test_detection_and_refusals(tmp_path):
    assert [detect_framework(n) for n in ("a.onnx", "a.pb", "a.prototxt", "a.air", "a.txt")] == [5, 3, 0, 1, None]
    bad = tmp_path / "bad.onnx"
    bad.write_bytes(b"\x0a\xff\xff not protobuf")
    with pytest.raises(ModelInfoError, match="bad.onnx: not a readable ONNX model"):
        inspect_model(bad)
    air = tmp_path / "m.air"
    air.write_bytes(b"x")
    with pytest.raises(ModelInfoError, match="enter the input shapes by hand"):
        inspect_model(air)
    proto = tmp_path / "broken.prototxt"
    proto.write_text('layer {\n name: "x"\n')
    with pytest.raises(ModelInfoError, match="broken.prototxt"):
        inspect_model(proto)
