"""The op list of a model, searchable: for an ``.om`` via ``atc --mode=1`` on the host (the JSON is
read with the dump helpers' :func:`~workbench.core.dump.omjson.read_om_json`), for an om JSON file
directly, or for an ONNX model locally (shape inference, no external weights loaded).

Each op has its name, type, inputs (``src:index`` for an om, tensor names for ONNX) and outputs
(shape, dtype, format). The wizard's Model Structure tab and the dump-configuration editor use it.
"""

from __future__ import annotations

import contextlib
import posixpath
import re
import tempfile
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from workbench.core.atc.flags import FRAMEWORKS
from workbench.core.atc.modelinfo import (
    ModelInfoError,
    ModelInputs,
    TensorInfo,
    load_onnx_graph,
    onnx_node_name,
    onnx_tensor,
)
from workbench.core.dump.omjson import OmModel, TensorDesc, read_om_json
from workbench.core.services.toolkit import ToolkitInfo, detect_toolkit
from workbench.core.services.transport import Transport, TransportError
from workbench.core.tasks import CancelToken, NullProgress, Progress


@dataclass
class TensorSpec:
    shape: list[int]
    dtype: str
    format: str = ""

    def to_json(self) -> dict:
        return {"shape": list(self.shape), "dtype": self.dtype, "format": self.format}


@dataclass
class OpEntry:
    name: str
    type: str
    inputs: list[str] = field(default_factory=list)
    outputs: list[TensorSpec] = field(default_factory=list)

    def to_json(self) -> dict:
        return {
            "name": self.name,
            "type": self.type,
            "inputs": list(self.inputs),
            "outputs": [o.to_json() for o in self.outputs],
        }


@dataclass
class ModelStructure:
    name: str
    source: str
    ops: list[OpEntry]

    def search(self, text: str) -> list[OpEntry]:
        """Ops whose name or type contains ``text`` (case-insensitive); all for an empty text."""
        needle = text.strip().lower()
        return [op for op in self.ops if needle in op.name.lower() or needle in op.type.lower()]

    def op_types(self) -> dict[str, int]:
        counts: dict[str, int] = {}
        for op in self.ops:
            counts[op.type] = counts.get(op.type, 0) + 1
        return dict(sorted(counts.items()))

    def to_json(self) -> dict:
        return {
            "name": self.name,
            "source": self.source,
            "op_count": len(self.ops),
            "op_types": self.op_types(),
            "ops": [op.to_json() for op in self.ops],
        }


def from_om_model(model: OmModel) -> ModelStructure:
    ops = [
        OpEntry(
            op.name, op.type, list(op.inputs), [TensorSpec(list(d.shape), d.dtype, d.layout) for d in op.output_descs]
        )
        for op in model.ops
    ]
    return ModelStructure(model.name, model.source, ops)


def onnx_structure(path: str | Path) -> ModelStructure:
    import onnx

    p = Path(path)
    m = load_onnx_graph(p)
    with contextlib.suppress(Exception):  # shapes stay unknown where inference fails
        m = onnx.shape_inference.infer_shapes(m)
    g = m.graph
    known = {vi.name: onnx_tensor(vi) for vi in list(g.input) + list(g.value_info) + list(g.output)}
    ops = []
    for i, node in enumerate(g.node):
        outs = []
        for t in node.output:
            info = known.get(t)
            outs.append(TensorSpec(info.shape, info.dtype) if info else TensorSpec([], ""))
        ops.append(OpEntry(onnx_node_name(node, i), node.op_type, [x for x in node.input if x], outs))
    return ModelStructure(g.name or p.stem, str(p), ops)


def model_structure(
    path: str | Path,
    transport: Transport | None = None,
    toolkit: ToolkitInfo | str | None = None,
    *,
    on_host: bool = False,
    save_json: str | Path | None = None,
    remote_dir: str | None = None,
    progress: Progress | None = None,
    cancel: CancelToken | None = None,
) -> ModelStructure:
    """Work function: the op list of ``path`` (.om, om .json or .onnx). An .om needs ``transport``
    (atc --mode=1 runs there; a local .om is uploaded first unless ``on_host``); ``save_json`` keeps
    the om JSON at that local path (for the dump editor and msaccucmp's fusion rule); ``remote_dir``
    is the folder used on the host (default ``~/ascend-workbench/om2json``)."""
    suffix = Path(str(path)).suffix.lower()
    if suffix == ".onnx":
        return onnx_structure(path)
    if suffix == ".json":
        return from_om_model(read_om_json(path))
    if suffix != ".om":
        raise ModelInfoError(f"{path}: expected an .om, an om .json (atc --mode=1 output) or an .onnx model")
    om = read_om(
        path,
        transport,
        toolkit,
        on_host=on_host,
        save_json=save_json,
        remote_dir=remote_dir,
        progress=progress,
        cancel=cancel,
    )
    return from_om_model(om)


def read_om(
    path: str | Path,
    transport: Transport | None,
    toolkit: ToolkitInfo | str | None = None,
    *,
    on_host: bool = False,
    save_json: str | Path | None = None,
    remote_dir: str | None = None,
    progress: Progress | None = None,
    cancel: CancelToken | None = None,
) -> OmModel:
    """Work function: an .om read as ``atc --mode=1 --om=… --json=…`` on the host behind
    ``transport`` writes it (see :func:`model_structure` for the arguments); ``source`` is ``path``."""
    progress = progress or NullProgress()
    cancel = cancel or CancelToken()
    if transport is None:
        raise ModelInfoError(f"{path}: an .om is read by atc --mode=1 on a CANN host; choose a host")
    if not on_host and not Path(path).is_file():
        raise ModelInfoError(f"{path}: no such .om file")
    if not isinstance(toolkit, ToolkitInfo):
        toolkit = detect_toolkit(transport, toolkit or None, cancel=cancel)
    work = remote_dir or posixpath.join(transport.home(), "ascend-workbench", "om2json")
    transport.mkdir(work)
    name = Path(str(path)).stem
    om = str(path) if on_host else posixpath.join(work, Path(path).name)
    if not on_host:
        progress.status(f"Uploading {Path(path).name}")
        transport.put(str(path), om, progress=progress, cancel=cancel)
    remote_json = posixpath.join(work, name + ".json")
    progress.status(f"Running atc --mode=1 on {transport.label}")
    run = transport.run(
        ["atc", "--mode=1", f"--om={om}", f"--json={remote_json}"],
        cwd=work,
        toolkit=toolkit.set_env,
        progress=progress,
        cancel=cancel,
    )
    if run.exit_status != 0:
        from workbench.core.atc.explain import parse_atc_output

        errs = parse_atc_output(run.stdout, run.stderr, run.exit_status).errors
        raise TransportError(
            f"{transport.label}: atc --mode=1 --om={om} failed: " + "; ".join(f"{e.code}: {e.message}" for e in errs)
        )
    with tempfile.TemporaryDirectory(prefix="wb-om2json-") as tmp:
        local = Path(save_json) if save_json else Path(tmp) / (name + ".json")
        transport.get(remote_json, str(local), cancel=cancel)
        model = read_om_json(local)
    model.source = str(path)
    return model


# --- inputs and outputs of an offline model ---------------------------------------------------------

# om JSON dtype -> the numpy-style names ModelInputs uses (others are kept as they are)
OM_DTYPES = {
    "DT_FLOAT": "float32",
    "DT_FLOAT16": "float16",
    "DT_BF16": "bfloat16",
    "DT_DOUBLE": "float64",
    "DT_INT8": "int8",
    "DT_UINT8": "uint8",
    "DT_INT16": "int16",
    "DT_UINT16": "uint16",
    "DT_INT32": "int32",
    "DT_UINT32": "uint32",
    "DT_INT64": "int64",
    "DT_UINT64": "uint64",
    "DT_BOOL": "bool",
    "DT_STRING": "string",
}
_OUT_NODE = re.compile(r"^(.+?):(\d+):(.*)$")  # attr_model_out_nodes_name: "op:index:tensor name"


def om_inputs(model: OmModel) -> ModelInputs:
    """What ``model inspect`` shows of an offline model (its om JSON): the ``Data`` ops (in model
    order, which is their input ``index``) with dtype and shape, the ``NetOutput`` op's inputs named as in the
    model attr ``attr_model_out_nodes_name`` (else by the producing ``op:index``), the op count."""

    def tensor(name: str, d: TensorDesc | None) -> TensorInfo:
        dtype = d.dtype if d is not None else ""
        return TensorInfo(name, OM_DTYPES.get(dtype, dtype), list(d.shape) if d is not None else [])

    inputs = [tensor(op.name, op.output_descs[0] if op.output_descs else None) for op in model.ops if op.type == "Data"]
    outputs: list[TensorInfo] = []
    net = next((op for op in model.ops if op.type == "NetOutput"), None)
    if net is not None:
        named = [m.group(3) for m in map(_OUT_NODE.match, model.attrs.get("attr_model_out_nodes_name") or []) if m]
        names = named if len(named) == len(net.inputs) else list(net.inputs)
        descs = list(net.input_descs) + [None] * (len(names) - len(net.input_descs))
        outputs = [tensor(n, d) for n, d in zip(names, descs)]
    framework = {v: k for k, v in FRAMEWORKS.items()}.get(str(model.attrs.get("framework_type", "")), -1)
    return ModelInputs(
        model.source,
        framework,
        inputs,
        outputs,
        len(model.ops),
        dict(Counter(op.type for op in model.ops)),
        {op.name: len(op.output_descs) for op in model.ops},
    )
