"""An ONNX model with the fusion patterns real ATC applies (samples/atc-om2json-large/test.om.json):
MatMul + bias Add (a Constant node, like torch exports) + LeakyRelu, then a Div -> Sqrt chain; and the
om ops the simulated atc must make of it."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

# om op name -> (type, _datadump_original_op_names, _datadump_origin_name of its output); the pattern of
# the real sample's "BatchMatMulV2 MatMul_344LeakyRelu_347" (originals Constant_345, Add_346, MatMul_344,
# LeakyRelu_347) and "RealDiv Div_315Sqrt_316" (originals Div_315, Sqrt_316)
FUSED = {
    "MatMul_344LeakyRelu_347": (
        "BatchMatMul",
        ["Constant_345", "Add_346", "MatMul_344", "LeakyRelu_347"],
        "LeakyRelu_347",
    ),
    "Div_315Sqrt_316": ("RealDiv", ["Div_315", "Sqrt_316"], "Sqrt_316"),
}


def fusion_mlp(path: Path) -> Path:
    """x[1,8] -> MatMul_344 (W) -> Add_346 (+ Constant_345) -> LeakyRelu_347 -> Div_315 (/ two) -> Sqrt_316
    -> Mul_317 (* two) -> y, and Mul_317's input also feeds Sub_318 -> z: Sqrt_316's output has two
    consumers, so the chain stops there; Mul_317 and Sub_318 stay single ops."""
    rng = np.random.default_rng(3)
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 8])
    outputs = [helper.make_tensor_value_info(n, TensorProto.FLOAT, [1, 4]) for n in ("y", "z")]
    inits = [
        numpy_helper.from_array(rng.random((8, 4), np.float32), "fc.weight"),
        numpy_helper.from_array(np.full((1, 4), 2.0, np.float32), "two"),
    ]
    bias = numpy_helper.from_array(rng.random((4,), np.float32), "bias_value")
    nodes = [
        helper.make_node("MatMul", ["x", "fc.weight"], ["mm"], name="MatMul_344"),
        helper.make_node("Constant", [], ["fc.bias"], name="Constant_345", value=bias),
        helper.make_node("Add", ["mm", "fc.bias"], ["biased"], name="Add_346"),
        helper.make_node("LeakyRelu", ["biased"], ["act"], name="LeakyRelu_347", alpha=0.1),
        helper.make_node("Div", ["act", "two"], ["div"], name="Div_315"),
        helper.make_node("Sqrt", ["div"], ["root"], name="Sqrt_316"),
        helper.make_node("Mul", ["root", "two"], ["y"], name="Mul_317"),
        helper.make_node("Sub", ["root", "two"], ["z"], name="Sub_318"),
    ]
    graph = helper.make_graph(nodes, "fusion_mlp", [x], outputs, inits)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])
    onnx.checker.check_model(model)
    onnx.save(model, str(path))
    return path
