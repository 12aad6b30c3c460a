"""Small models written by hand for the loader tests: an ONNX model with a local function and an
If, a Caffe prototxt with in-place layers, a TensorFlow GraphDef as text and as binary protobuf
(encoded here byte by byte, independent of the reader)."""

from __future__ import annotations

from pathlib import Path


def onnx_function_and_if(path: Path) -> Path:
    """x -> Relu "pre" -> MyFn "call" (local function: Mul then Add) -> If "branch" (then: Neg of
    the call's output, else: Identity of pre's output) -> y; W is an initializer of the Mul."""
    import numpy as np
    import onnx
    from onnx import TensorProto, helper, numpy_helper

    fn = helper.make_function(
        "local",
        "MyFn",
        ["a", "w"],
        ["out"],
        [
            helper.make_node("Mul", ["a", "w"], ["m"], name="mul"),
            helper.make_node("Add", ["m", "a"], ["out"], name="add"),
        ],
        [helper.make_opsetid("", 17)],
    )
    then_g = helper.make_graph(
        [helper.make_node("Neg", ["fn_out"], ["then_y"], name="neg")],
        "then_body",
        [],
        [helper.make_tensor_value_info("then_y", TensorProto.FLOAT, [1, 4])],
    )
    else_g = helper.make_graph(
        [helper.make_node("Identity", ["pre_out"], ["else_y"], name="ident")],
        "else_body",
        [],
        [helper.make_tensor_value_info("else_y", TensorProto.FLOAT, [1, 4])],
    )
    nodes = [
        helper.make_node("Relu", ["x"], ["pre_out"], name="pre"),
        helper.make_node("MyFn", ["pre_out", "W"], ["fn_out"], name="call", domain="local"),
        helper.make_node("ReduceSum", ["fn_out"], ["s"], name="sum", keepdims=0),
        helper.make_node("Greater", ["s", "zero"], ["cond"], name="gt"),
        helper.make_node("If", ["cond"], ["y"], name="branch", then_branch=then_g, else_branch=else_g),
    ]
    graph = helper.make_graph(
        nodes,
        "fn_and_if",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 4])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 4])],
        initializer=[
            numpy_helper.from_array(np.ones((1, 4), np.float32), "W"),
            numpy_helper.from_array(np.array(0.0, np.float32), "zero"),
        ],
    )
    model = helper.make_model(
        graph, functions=[fn], opset_imports=[helper.make_opsetid("", 17), helper.make_opsetid("local", 1)]
    )
    onnx.save(model, str(path))
    return path


PROTOTXT = """name: "tiny"
input: "data"
input_shape { dim: 1 dim: 3 dim: 8 dim: 8 }
layer { name: "conv1" type: "Convolution" bottom: "data" top: "conv1"
  convolution_param { num_output: 4 kernel_size: 3 } }
layer { name: "relu1" type: "ReLU" bottom: "conv1" top: "conv1" }
layer { name: "bn1" type: "BatchNorm" bottom: "conv1" top: "conv1" }
layer { name: "pool1" type: "Pooling" bottom: "conv1" top: "pool1" }
layer { name: "side" type: "ReLU" bottom: "data" top: "side" }
layer { name: "cat" type: "Concat" bottom: "pool1" bottom: "side" top: "out" }
"""

PBTXT = """node { name: "x" op: "Placeholder"
  attr { key: "dtype" value { type: DT_FLOAT } }
  attr { key: "shape" value { shape { dim { size: 1 } dim { size: 4 } } } } }
node { name: "split" op: "Split" input: "x" attr { key: "num_split" value { i: 2 } } }
node { name: "init" op: "NoOp" }
node { name: "a" op: "Relu" input: "split:1" input: "^init" attr { key: "T" value { type: DT_FLOAT } } }
node { name: "b" op: "AddV2" input: "split" input: "a:0" }
node { name: "scope/c" op: "Identity" input: "b" }
node { name: "scope/d" op: "Identity" input: "scope/c" }
"""


def _varint(n: int) -> bytes:
    out = bytearray()
    while True:
        b = n & 0x7F
        n >>= 7
        out.append(b | (0x80 if n else 0))
        if not n:
            return bytes(out)


def _field(num: int, payload: bytes | str) -> bytes:
    data = payload.encode() if isinstance(payload, str) else payload
    return _varint(num << 3 | 2) + _varint(len(data)) + data


def _type_attr(key: str, dtype: int) -> bytes:  # AttrValue.type = 6 (varint)
    return _field(5, _field(1, key) + _field(2, _varint(6 << 3) + _varint(dtype)))


def graphdef_bytes(*, library: bool = False) -> bytes:
    """GraphDef: x (Placeholder, float) -> r (Relu, T float) -> out (Identity); r also has "^x";
    ``library``: plus a FunctionDefLibrary holding one function."""
    nodes = [
        _field(1, "x") + _field(2, "Placeholder") + _type_attr("dtype", 1),
        _field(1, "r") + _field(2, "Relu") + _field(3, "x") + _field(3, "^x") + _type_attr("T", 1),
        _field(1, "out") + _field(2, "Identity") + _field(3, "r:0"),
    ]
    lib = _field(2, _field(1, _field(1, _field(1, "f")))) if library else b""  # library.function.signature.name
    return b"".join(_field(1, n) for n in nodes) + lib + _field(4, _varint(1 << 3) + _varint(27))  # versions
