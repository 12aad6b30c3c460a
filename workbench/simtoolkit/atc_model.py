"""Read the original model given to the simulated ATC into a small neutral graph.

ONNX models are read with ``onnx`` (no external weights needed: only the graph is used) and run
through ONNX shape inference after the ``--input_shape`` overrides are applied; Caffe models are
read from the ``.prototxt`` (protobuf text: ``layer { name type bottom top }``, ``input`` +
``input_shape``/``input_dim`` or ``Input`` layers); the ``.caffemodel`` weights are only checked to
exist. Failures raise :class:`ModelError` carrying the ATC error code to report.
"""

from __future__ import annotations

import contextlib
from dataclasses import dataclass, field
from pathlib import Path

from workbench.core.atc.modelinfo import caffe_inputs, caffe_layers
from workbench.core.atc.prototxt import PrototxtError
from workbench.core.atc.prototxt import parse_prototxt as _parse_prototxt


class ModelError(Exception):
    """A model ATC cannot use; ``code``/``args_`` select the catalog message."""

    def __init__(self, code: str, *args: str) -> None:
        super().__init__(code, *args)
        self.code = code
        self.args_ = args


@dataclass
class TensorInfo:
    shape: list[int]  # -1 = unknown/dynamic
    dtype: str = "DT_FLOAT"  # GE names: DT_FLOAT, DT_FLOAT16, DT_INT64, ...
    format: str = "NCHW"


@dataclass
class Node:
    name: str
    type: str  # the framework op type (Conv, Convolution, ...)
    inputs: list[str]  # producer tensor names ("" = optional input absent)
    outputs: list[str]
    attrs: dict = field(default_factory=dict)


@dataclass
class Graph:
    name: str
    framework: str  # Onnx / Caffe
    inputs: dict[str, TensorInfo]
    nodes: list[Node]
    outputs: list[str]  # graph output tensor names
    tensors: dict[str, TensorInfo] = field(default_factory=dict)
    weights: dict[str, TensorInfo] = field(default_factory=dict)
    weight_bytes: int = 0
    opset: int | None = None

    def node_names(self) -> set[str]:
        return {n.name for n in self.nodes} | set(self.inputs)


ONNX_DTYPES = {
    1: "DT_FLOAT",
    2: "DT_UINT8",
    3: "DT_INT8",
    4: "DT_UINT16",
    5: "DT_INT16",
    6: "DT_INT32",
    7: "DT_INT64",
    9: "DT_BOOL",
    10: "DT_FLOAT16",
    11: "DT_DOUBLE",
    12: "DT_UINT32",
    13: "DT_UINT64",
    16: "DT_BF16",
}
DTYPE_BYTES = {
    "DT_FLOAT": 4,
    "DT_FLOAT16": 2,
    "DT_BF16": 2,
    "DT_INT8": 1,
    "DT_UINT8": 1,
    "DT_INT16": 2,
    "DT_UINT16": 2,
    "DT_INT32": 4,
    "DT_UINT32": 4,
    "DT_INT64": 8,
    "DT_UINT64": 8,
    "DT_BOOL": 1,
    "DT_DOUBLE": 8,
}


def load_onnx(path: Path, shapes: dict[str, list[int]]) -> Graph:
    import onnx

    try:
        model = onnx.load(str(path), load_external_data=False)
    except Exception:  # noqa: BLE001 - any parse failure is ATC's E19005
        raise ModelError("E19005", str(path)) from None
    g = model.graph
    init_names = {i.name for i in g.initializer}
    for vi in g.input:
        if vi.name in shapes:
            dims = vi.type.tensor_type.shape.dim
            del dims[:]
            for d in shapes[vi.name]:
                dims.add().dim_value = d if d > 0 else 0
                if d <= 0:
                    dims[-1].dim_param = "-1"
    with contextlib.suppress(Exception):  # shapes stay unknown (-1) where inference fails
        model = onnx.shape_inference.infer_shapes(model)
    g = model.graph

    def info(vi) -> TensorInfo:
        tt = vi.type.tensor_type
        dims = [d.dim_value if d.dim_value > 0 else -1 for d in tt.shape.dim]
        return TensorInfo(dims, ONNX_DTYPES.get(tt.elem_type, "DT_FLOAT"), "NCHW" if len(dims) == 4 else "ND")

    tensors = {vi.name: info(vi) for vi in list(g.input) + list(g.value_info) + list(g.output)}
    weights = {i.name: TensorInfo(list(i.dims), ONNX_DTYPES.get(i.data_type, "DT_FLOAT"), "ND") for i in g.initializer}
    weight_bytes = sum(_nbytes(t) for t in weights.values())
    inputs = {vi.name: tensors[vi.name] for vi in g.input if vi.name not in init_names}
    nodes = []
    for i, n in enumerate(g.node):
        if n.domain not in ("", "ai.onnx", "ai.onnx.ml"):
            raise ModelError("E19010", n.name or f"{n.op_type}_{i}", n.op_type)
        nodes.append(Node(n.name or f"{n.op_type}_{i}", n.op_type, list(n.input), list(n.output)))
    opset = next((o.version for o in model.opset_import if o.domain in ("", "ai.onnx")), None)
    return Graph(
        g.name or path.stem, "Onnx", inputs, nodes, [o.name for o in g.output], tensors, weights, weight_bytes, opset
    )


def _nbytes(t: TensorInfo) -> int:
    n = 1
    for d in t.shape:
        n *= max(d, 1)
    return n * DTYPE_BYTES.get(t.dtype, 4)


# --- Caffe prototxt (parsed by the converter's shared reader) ---------------------------------------


def parse_prototxt(text: str, source: str) -> dict:
    """Protobuf text format into nested dicts of lists; unparsable text is ATC's E19005."""
    try:
        return _parse_prototxt(text, source)
    except PrototxtError as exc:
        raise ModelError("E19005", exc.where) from None


def load_caffe(path: Path, shapes: dict[str, list[int]]) -> Graph:
    try:
        doc = parse_prototxt(path.read_text(encoding="utf-8"), str(path))
    except UnicodeDecodeError:
        raise ModelError("E19005", str(path)) from None
    try:
        found = caffe_inputs(doc)
    except ValueError:  # a dim that is not a whole number
        raise ModelError("E19005", str(path)) from None
    inputs = {name: TensorInfo(dims, "DT_FLOAT", "NCHW") for name, dims in found.items()}
    nodes = []
    for i, layer in enumerate(caffe_layers(doc)):
        name = (layer.get("name") or [f"layer_{i}"])[0]
        typ = (layer.get("type") or ["Unknown"])[0]
        if typ == "Input":
            continue
        nodes.append(Node(name, typ, list(layer.get("bottom", [])), list(layer.get("top", []))))
    for name, dims in shapes.items():
        if name in inputs:
            inputs[name] = TensorInfo(dims, "DT_FLOAT", "NCHW")
    produced = {t for n in nodes for t in n.outputs}
    consumed = {t for n in nodes for t in n.inputs}
    outputs = [t for n in nodes for t in n.outputs if t not in consumed] or sorted(produced)[:1]
    tensors = dict(inputs)
    return Graph(path.stem, "Caffe", inputs, nodes, list(dict.fromkeys(outputs)), tensors)
