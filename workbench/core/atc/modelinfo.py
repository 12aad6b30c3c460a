"""Read a model's inputs, outputs and ops locally, without CANN: what the wizard's Inputs page
shows and what validation checks names against.

* ONNX with ``onnx`` (``load_external_data=False``: a model with external weights is read from its
  graph alone, the weights are never loaded);
* Caffe from the ``.prototxt`` (``input`` + ``input_shape``/``input_dim``, or ``Input`` layers);
* TensorFlow frozen ``.pb``, best effort: ``Placeholder`` nodes read straight from the protobuf
  wire format (no TensorFlow needed);
* MindSpore ``.air`` cannot be read locally: :class:`ModelInfoError` says to type the shapes in.

Shapes use ``-1`` for dynamic / unknown axes; ``dim_names`` keeps ONNX's symbolic names ("N").
Node names follow ATC's view: an ONNX node without a name is ``<op_type>_<index>``.
"""

from __future__ import annotations

import struct
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from workbench.core.atc.prototxt import PrototxtError, parse_prototxt

FRAMEWORK_BY_SUFFIX = {".onnx": 5, ".pb": 3, ".prototxt": 0, ".air": 1}
ONNX_DTYPES = {
    1: "float32",
    2: "uint8",
    3: "int8",
    4: "uint16",
    5: "int16",
    6: "int32",
    7: "int64",
    8: "string",
    9: "bool",
    10: "float16",
    11: "float64",
    12: "uint32",
    13: "uint64",
    16: "bfloat16",
}
TF_DTYPES = {
    1: "float32",
    2: "float64",
    3: "int32",
    4: "uint8",
    5: "int16",
    6: "int8",
    7: "string",
    9: "int64",
    10: "bool",
    14: "bfloat16",
    17: "uint16",
    19: "float16",
    22: "uint32",
    23: "uint64",
}


class ModelInfoError(ValueError):
    """A model that cannot be read locally; the message names the file and what was expected."""


@dataclass
class TensorInfo:
    name: str
    dtype: str  # numpy-style: float32, float16, int64, ...
    shape: list[int]  # -1 = dynamic / unknown
    dim_names: list[str | None] = field(default_factory=list)

    def to_json(self) -> dict:
        return {"name": self.name, "dtype": self.dtype, "shape": list(self.shape)}


@dataclass
class ModelInputs:
    path: str
    framework: int  # ATC --framework value
    inputs: list[TensorInfo]
    outputs: list[TensorInfo]
    op_count: int
    op_types: dict[str, int]  # op type -> count
    node_outputs: dict[str, int]  # node name -> number of outputs (for --out_nodes name:index)

    def input_names(self) -> list[str]:
        return [t.name for t in self.inputs]

    def to_json(self) -> dict:
        return {
            "file": self.path,
            "framework": self.framework,
            "inputs": [t.to_json() for t in self.inputs],
            "outputs": [t.to_json() for t in self.outputs],
            "op_count": self.op_count,
            "op_types": dict(sorted(self.op_types.items())),
        }


def detect_framework(path: str) -> int | None:
    """ATC ``--framework`` from the file name: .onnx 5, .pb 3, .prototxt 0, .air 1; else None."""
    return FRAMEWORK_BY_SUFFIX.get(Path(path).suffix.lower())


def inspect_model(path: str | Path, framework: int | None = None) -> ModelInputs:
    """Inputs, outputs and ops of a local model file (framework detected from the name if not given)."""
    p = Path(path)
    fw = framework if framework is not None else detect_framework(str(p))
    if not p.is_file():
        raise ModelInfoError(f"{p}: no such model file")
    if fw == 5:
        return _onnx(p)
    if fw == 0:
        return _caffe(p)
    if fw == 3:
        return _tensorflow(p)
    if fw == 1:
        raise ModelInfoError(f"{p}: MindSpore .air models cannot be read locally; enter the input shapes by hand")
    raise ModelInfoError(f"{p}: unknown model type; expected .onnx, .prototxt (Caffe), .pb (TensorFlow) or .air")


# --- ONNX ---------------------------------------------------------------------------------------


def load_onnx_graph(p: Path):  # noqa: ANN201 - onnx.ModelProto, imported lazily
    """The ONNX model without its external weights; ModelInfoError when it is not ONNX protobuf."""
    import onnx

    try:
        return onnx.load(str(p), load_external_data=False)
    except Exception as exc:  # noqa: BLE001 - any parse failure means "not a readable ONNX model"
        raise ModelInfoError(f"{p}: not a readable ONNX model ({type(exc).__name__}: {exc})") from None


def onnx_tensor(vi) -> TensorInfo:  # noqa: ANN001 - onnx.ValueInfoProto
    tt = vi.type.tensor_type
    dims = [d.dim_value if d.dim_value > 0 else -1 for d in tt.shape.dim]
    names = [d.dim_param or None for d in tt.shape.dim]
    return TensorInfo(vi.name, ONNX_DTYPES.get(tt.elem_type, f"onnx_type_{tt.elem_type}"), dims, names)


def onnx_node_name(node, index: int) -> str:  # noqa: ANN001 - onnx.NodeProto
    return node.name or f"{node.op_type}_{index}"


def _onnx(p: Path) -> ModelInputs:
    g = load_onnx_graph(p).graph
    init = {i.name for i in g.initializer}
    inputs = [onnx_tensor(vi) for vi in g.input if vi.name not in init]
    outputs = [onnx_tensor(vi) for vi in g.output]
    nodes = {onnx_node_name(n, i): len(n.output) for i, n in enumerate(g.node)}
    return ModelInputs(str(p), 5, inputs, outputs, len(g.node), dict(Counter(n.op_type for n in g.node)), nodes)


# --- Caffe --------------------------------------------------------------------------------------


def caffe_inputs(doc: dict) -> dict[str, list[int]]:
    """Input blobs of a parsed prototxt, in order: top-level ``input`` (shapes from ``input_shape``
    blocks or flat ``input_dim``) then ``Input`` layers (``input_param { shape { dim } }``)."""
    inputs: dict[str, list[int]] = {}
    dims_blocks = [[int(d) for d in blk.get("dim", [])] for blk in doc.get("input_shape", [])]
    flat_dims = [int(d) for d in doc.get("input_dim", [])]
    for i, name in enumerate(doc.get("input", [])):
        dims = dims_blocks[i] if i < len(dims_blocks) else flat_dims[4 * i : 4 * i + 4]
        inputs[name] = dims or [-1]
    for layer in caffe_layers(doc):
        if (layer.get("type") or [""])[0] == "Input":
            shape_blocks = [blk for prm in layer.get("input_param", []) for blk in prm.get("shape", [])]
            for j, top in enumerate(layer.get("top", [])):
                inputs[top] = [int(d) for d in shape_blocks[j].get("dim", [])] if j < len(shape_blocks) else [-1]
    return inputs


def caffe_layers(doc: dict) -> list[dict]:
    return doc.get("layer", []) or doc.get("layers", [])


def _caffe(p: Path) -> ModelInputs:
    try:
        doc = parse_prototxt(p.read_text(encoding="utf-8"), str(p))
        ins = caffe_inputs(doc)
    except UnicodeDecodeError:
        raise ModelInfoError(f"{p}: not a text .prototxt (not UTF-8)") from None
    except PrototxtError as exc:
        raise ModelInfoError(f"{exc.where}: not a Caffe prototxt: {exc.reason}") from None
    except ValueError as exc:
        raise ModelInfoError(f"{p}: an input shape is not a whole number ({exc})") from None
    layers = [ly for ly in caffe_layers(doc) if (ly.get("type") or [""])[0] != "Input"]
    nodes = {(ly.get("name") or [f"layer_{i}"])[0]: len(ly.get("top", [])) for i, ly in enumerate(layers)}
    consumed = {b for ly in layers for b in ly.get("bottom", [])}
    tops = [t for ly in layers for t in ly.get("top", []) if t not in consumed]
    outputs = [TensorInfo(t, "float32", []) for t in dict.fromkeys(tops)]
    return ModelInputs(
        str(p),
        0,
        [TensorInfo(n, "float32", d) for n, d in ins.items()],
        outputs,
        len(layers),
        dict(Counter((ly.get("type") or ["Unknown"])[0] for ly in layers)),
        nodes,
    )


# --- TensorFlow (frozen GraphDef, wire format) ----------------------------------------------------


def _varint(buf: bytes, pos: int) -> tuple[int, int]:
    result = shift = 0
    while True:
        if pos >= len(buf):
            raise ValueError("truncated varint")
        b = buf[pos]
        pos += 1
        result |= (b & 0x7F) << shift
        if not b & 0x80:
            return result, pos
        shift += 7


def _fields(buf: bytes):  # noqa: ANN202 - yields (field number, wire type, value)
    pos = 0
    while pos < len(buf):
        key, pos = _varint(buf, pos)
        num, wt = key >> 3, key & 7
        if wt == 0:
            val, pos = _varint(buf, pos)
        elif wt == 1:
            val, pos = buf[pos : pos + 8], pos + 8
        elif wt == 2:
            n, pos = _varint(buf, pos)
            val, pos = buf[pos : pos + n], pos + n
        elif wt == 5:
            val, pos = buf[pos : pos + 4], pos + 4
        else:
            raise ValueError(f"unsupported wire type {wt}")
        if pos > len(buf):
            raise ValueError("truncated field")
        yield num, wt, val


def _tf_shape(buf: bytes) -> list[int]:
    dims: list[int] = []
    for num, _, val in _fields(buf):
        if num == 2:  # TensorShapeProto.dim
            size = next((v for n, _, v in _fields(val) if n == 1), 0)
            size = struct.unpack("<q", struct.pack("<Q", size))[0]  # int64 two's complement
            dims.append(size if size > 0 else -1)
        elif num == 3 and val:  # unknown_rank
            return [-1]
    return dims


def _tensorflow(p: Path) -> ModelInputs:
    data = p.read_bytes()
    inputs: list[TensorInfo] = []
    types: Counter[str] = Counter()
    nodes: dict[str, int] = {}
    try:
        for num, wt, node in _fields(data):
            if num != 1 or wt != 2:  # GraphDef.node
                continue
            name, op, attrs = "", "", {}
            for n, _, v in _fields(node):
                if n == 1:
                    name = v.decode("utf-8", "replace")
                elif n == 2:
                    op = v.decode("utf-8", "replace")
                elif n == 5:  # map<string, AttrValue> entry
                    entry = {k: val for k, _, val in _fields(v)}
                    attrs[entry.get(1, b"").decode("utf-8", "replace")] = entry.get(2, b"")
            if not name or not op:
                raise ValueError("a node without name or op")
            nodes[name] = 1
            if op == "Placeholder":
                av = {k: val for k, _, val in _fields(attrs.get("dtype", b""))}
                shape_av = {k: val for k, _, val in _fields(attrs.get("shape", b""))}
                shape = _tf_shape(shape_av[7]) if 7 in shape_av else [-1]
                inputs.append(TensorInfo(name, TF_DTYPES.get(av.get(6, 1), "float32"), shape))
            elif op not in ("Const", "NoOp"):
                types[op] += 1
    except ValueError as exc:
        raise ModelInfoError(f"{p}: not a readable TensorFlow frozen graph (.pb GraphDef): {exc}") from None
    if not nodes:
        raise ModelInfoError(f"{p}: no nodes found; expected a TensorFlow frozen graph (.pb GraphDef)")
    return ModelInputs(str(p), 3, inputs, [], sum(types.values()), dict(types), nodes)
