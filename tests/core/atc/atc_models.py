"""Models for the converter tests, built with onnx.helper (imported by conftest and tests)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

SIM_SOC = "Ascend310P3"


def small_cnn(path: Path, *, argmax: bool = False) -> Path:
    """A small CNN built with onnx.helper: conv-relu-maxpool-conv-relu-globalavgpool-flatten-gemm
    (optionally an ArgMax head, which the simulated atc places on AI CPU)."""
    rng = np.random.default_rng(7)
    x = helper.make_tensor_value_info("images", TensorProto.FLOAT, ["N", 3, 32, 32])
    inits = [
        numpy_helper.from_array(rng.random((8, 3, 3, 3), np.float32), "conv1.weight"),
        numpy_helper.from_array(rng.random((8,), np.float32), "conv1.bias"),
        numpy_helper.from_array(rng.random((16, 8, 3, 3), np.float32), "conv2.weight"),
        numpy_helper.from_array(rng.random((10, 16), np.float32), "fc.weight"),
        numpy_helper.from_array(rng.random((10,), np.float32), "fc.bias"),
    ]
    nodes = [
        helper.make_node("Conv", ["images", "conv1.weight", "conv1.bias"], ["c1"], name="conv1", pads=[1] * 4),
        helper.make_node("Relu", ["c1"], ["r1"], name="relu1"),
        helper.make_node("MaxPool", ["r1"], ["p1"], name="pool1", kernel_shape=[2, 2], strides=[2, 2]),
        helper.make_node("Conv", ["p1", "conv2.weight"], ["c2"], name="conv2", pads=[1] * 4),
        helper.make_node("Relu", ["c2"], ["r2"], name="relu2"),
        helper.make_node("GlobalAveragePool", ["r2"], ["g"], name="gap"),
        helper.make_node("Flatten", ["g"], ["f"], name="flatten"),
        helper.make_node("Gemm", ["f", "fc.weight", "fc.bias"], ["logits"], name="fc", transB=1),
    ]
    outputs = [helper.make_tensor_value_info("logits", TensorProto.FLOAT, ["N", 10])]
    if argmax:
        nodes.append(helper.make_node("ArgMax", ["logits"], ["label"], name="argmax", axis=1, keepdims=0))
        outputs.append(helper.make_tensor_value_info("label", TensorProto.INT64, ["N"]))
    graph = helper.make_graph(nodes, "smallcnn", [x], outputs, inits)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])
    onnx.checker.check_model(model)
    onnx.save(model, str(path))
    return path


CAFFE_PROTOTXT = """name: "tiny"
input: "data"
input_shape { dim: 1 dim: 3 dim: 8 dim: 8 }
layer { name: "conv1" type: "Convolution" bottom: "data" top: "conv1"
        convolution_param { num_output: 4 kernel_size: 3 } }
layer { name: "relu1" type: "ReLU" bottom: "conv1" top: "conv1" }
layer { name: "prob" type: "Softmax" bottom: "conv1" top: "prob" }
"""
