"""Generated ONNX models with branches and skip connections, for tests and the layout benchmark.

``synth_onnx(n, path, seed)`` writes a model of exactly ``n`` op nodes (``onnx.helper``): blocks of
1-3 parallel branches of unary ops (Relu, Sigmoid, Tanh, MatMul with one shared weight) merged by
Add, now and then an Add with a tensor of an earlier block (a skip connection) and a Concat of two
branches. Node names follow torch's exporter (``/block.3/branch1/Relu_2``), so loaders see nested
name scopes. All tensors are ``float32 [1, 16]``; the file stays small (one 16x16 initializer).
"""

from __future__ import annotations

import os
import random
from pathlib import Path
from typing import Any

WIDTH = 16
UNARY = ("Relu", "Sigmoid", "Tanh", "MatMul", "Relu", "Neg")


def synth_onnx(n_nodes: int, path: str | os.PathLike[str], seed: int = 0) -> Path:
    """Write the model to ``path`` (atomically) and return the path."""
    import numpy as np
    import onnx
    from onnx import TensorProto, helper, numpy_helper

    from workbench.core.fsutil import atomic_write_bytes

    if n_nodes < 1:
        raise ValueError(f"n_nodes: expected at least 1, got {n_nodes}")
    rnd = random.Random(seed)
    nodes: list[onnx.NodeProto] = []
    count = 0

    def add(op: str, inputs: list[str], name: str, **attrs: Any) -> str:
        nonlocal count
        out = f"{name}_out"
        nodes.append(helper.make_node(op, inputs, [out], name=name, **attrs))
        count += 1
        return out

    current = "input"
    history: list[str] = [current]
    block = 0
    while count < n_nodes:
        scope = f"/block.{block}"
        branches = rnd.choice((1, 2, 2, 3))
        ends = []
        for b in range(branches):
            t = current
            for k in range(rnd.randint(1, 4)):
                if count >= n_nodes:
                    break
                op = rnd.choice(UNARY)
                ins = [t, "W"] if op == "MatMul" else [t]
                t = add(op, ins, f"{scope}/branch{b}/{op}_{k}")
            ends.append(t)
        merged = ends[0]
        if len(ends) == 3 and count < n_nodes and rnd.random() < 0.3:
            cat = add("Concat", [ends[1], ends[2]], f"{scope}/Concat", axis=1)
            ends = [
                ends[0],
                add("Slice", [cat, "starts", "ends", "axes"], f"{scope}/Slice") if count < n_nodes else cat,
            ]
        for j, other in enumerate(ends[1:]):
            if count >= n_nodes:
                break
            merged = add("Add", [merged, other], f"{scope}/Add_{j}")
        if len(history) > 2 and count < n_nodes and rnd.random() < 0.35:
            skip = history[max(0, len(history) - rnd.randint(2, 6))]
            merged = add("Add", [merged, skip], f"{scope}/skip/Add")
        current = merged
        history.append(current)
        block += 1
    weight = numpy_helper.from_array(np.full((WIDTH, WIDTH), 0.01, dtype=np.float32), "W")
    consts = [
        numpy_helper.from_array(np.array([0], dtype=np.int64), "starts"),
        numpy_helper.from_array(np.array([WIDTH], dtype=np.int64), "ends"),
        numpy_helper.from_array(np.array([1], dtype=np.int64), "axes"),
    ]
    graph = helper.make_graph(
        nodes,
        f"synth_{n_nodes}",
        [helper.make_tensor_value_info("input", TensorProto.FLOAT, [1, WIDTH])],
        [helper.make_tensor_value_info(current, TensorProto.FLOAT, [1, WIDTH])],
        initializer=[weight, *consts],
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)], producer_name="workbench-synth")
    out = Path(path)
    atomic_write_bytes(out, model.SerializeToString())
    return out
