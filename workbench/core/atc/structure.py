"""The op list of a model, searchable: for an ``.om`` via ``atc --mode=1`` on the host (the JSON is
read with the dump helpers' :func:`~workbench.core.dump.omjson.read_om_json`), for an om JSON file
directly, or for an ONNX model locally (shape inference, no external weights loaded).

Each op has its name, type, inputs (``src:index`` for an om, tensor names for ONNX) and outputs
(shape, dtype, format). The wizard's Model Structure tab and the dump-configuration editor use it.
"""

from __future__ import annotations

import contextlib
import posixpath
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from workbench.core.atc.modelinfo import ModelInfoError, load_onnx_graph, onnx_node_name, onnx_tensor
from workbench.core.dump.omjson import OmModel, read_om_json
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
    progress = progress or NullProgress()
    cancel = cancel or CancelToken()
    suffix = Path(str(path)).suffix.lower()
    if suffix == ".onnx":
        return onnx_structure(path)
    if suffix == ".json":
        return from_om_model(read_om_json(path))
    if suffix != ".om":
        raise ModelInfoError(f"{path}: expected an .om, an om .json (atc --mode=1 output) or an .onnx model")
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
        structure = from_om_model(read_om_json(local))
    structure.source = str(path)
    return structure
