"""Read a model file into a :class:`~workbench.core.graph.model.Graph` (work function
:func:`load_graph`), chosen by suffix, else by content:

* ONNX ``.onnx`` (without external weights; :func:`~workbench.core.atc.modelinfo.load_onnx_graph`):
  op nodes, graph inputs as :data:`INPUT` nodes, graph outputs as :data:`OUTPUT` nodes, initializers
  as ``Tensor(initializer=True)`` inputs with no edge; shapes and dtypes from ``value_info`` after
  onnx shape inference when the model is small enough (``INFER_MAX_NODES``); attributes as plain
  values. A call of a model-local ONNX function is expanded into its body, a group of kind
  ``"function"``; the bodies of If/Loop/Scan become groups of kind ``"graph"`` (their nodes use the
  outer tensors they name; their outputs feed the control node).
* om JSON of ``atc --mode=1`` (:func:`~workbench.core.dump.omjson.parse_om_json`): every op a node,
  inputs ``"src:idx"`` give the edges (control inputs ``":-1"`` are not drawn), ``output_desc`` dtype,
  layout (as format) and shape; ``original_names`` from ``_datadump_original_op_names`` and the
  outputs' ``_datadump_origin_name``; each ``graph[]`` a group of kind ``"graph"`` when there are several.
* Caffe ``.prototxt``: layers, ``bottom``/``top`` blobs give edges; an in-place layer (top == bottom)
  chains in file order; blobs nobody reads become :data:`OUTPUT` nodes.
* TensorFlow ``.pb`` (binary GraphDef) / ``.pbtxt``, best effort: nodes, ``input`` names
  (``"name"``, ``"name:n"``; control inputs ``"^name"`` are counted in a warning, not drawn),
  ``dtype``/``T`` and ``_output_shapes``/``shape`` attrs.

Names with ``/`` (torch's ``/encoder/layer.0/attn/MatMul``, TF scopes) give nested groups of kind
``"scope"`` for every scope holding at least two nodes. Every unreadable input raises
:class:`GraphError`: one line naming the file and the field.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import numpy as np

from workbench.core.graph.model import INPUT, OUTPUT, Graph, Group, Node, Tensor
from workbench.core.tasks import CancelToken, NullProgress, Progress

INFER_MAX_NODES = 20000  # onnx shape inference above this costs seconds; value_info present is still used
MAX_DEPTH = 32  # nested functions / subgraphs deeper than this are not expanded


class GraphError(ValueError):
    """A model file that cannot be read as a graph: names the file and the field."""


# --- the shared builder -----------------------------------------------------------------------


class _Builder:
    """Nodes plus the tensor names each consumes/produces; edges resolved at the end."""

    def __init__(self, source: str, cancel: CancelToken) -> None:
        self.source = source
        self.cancel = cancel
        self.nodes: list[Node] = []
        self.groups: list[Group] = []
        self.warnings: list[str] = []
        self.producer: dict[str, int] = {}  # edge key -> producing node
        self.wants: list[tuple[int, str, str]] = []  # (consumer, edge key, tensor name shown)

    def node(self, node: Node, produces: Iterable[str] = (), consumes: Iterable[tuple[str, str]] = ()) -> int:
        i = len(self.nodes)
        if not i % 4096:
            self.cancel.raise_if_cancelled()
        self.nodes.append(node)
        for key, shown in consumes:
            self.wants.append((i, key, shown))
        for key in produces:
            self.producer[key] = i
        return i

    def group(self, name: str, kind: str, parent: int) -> int:
        self.groups.append(Group(name, kind, parent))
        return len(self.groups) - 1

    def graph(self, name: str, fmt: str, *, unresolved: str | None = None) -> Graph:
        src: list[int] = []
        dst: list[int] = []
        tensors: list[str] = []
        missing = 0
        for consumer, key, shown in self.wants:
            p = self.producer.get(key)
            if p is None or p == consumer:
                missing += p is None
                continue
            src.append(p)
            dst.append(consumer)
            tensors.append(shown)
        if missing and unresolved:
            self.warnings.append(unresolved.format(n=missing))
        g = Graph(
            name=name,
            format=fmt,
            source=self.source,
            nodes=self.nodes,
            edge_src=np.asarray(src, dtype=np.int64),
            edge_dst=np.asarray(dst, dtype=np.int64),
            edge_tensor=tensors,
            groups=self.groups,
            warnings=self.warnings,
        )
        add_scopes(g)
        return g


def add_scopes(graph: Graph, sep: str = "/") -> None:
    """Nested ``"scope"`` groups from the top-level nodes' names (``/a/b/Op`` lies in ``/a`` and
    ``/a/b``): a scope is kept when it holds >= 2 nodes and is not just its only child scope again."""
    counts: dict[str, int] = {}
    paths: list[list[str] | None] = []
    for n in graph.nodes:
        if n.group != -1 or sep not in n.name.strip(sep) and not n.name.startswith(sep):
            paths.append(None)
            continue
        parts = n.name.split(sep)
        prefixes = [sep.join(parts[:k]) for k in range(1, len(parts))]
        prefixes = [p for p in prefixes if p.strip(sep)]
        paths.append(prefixes)
        for p in prefixes:
            counts[p] = counts.get(p, 0) + 1
    keep = {p for p, c in counts.items() if c >= 2}
    if not keep:
        return
    # a scope whose nodes all lie in one child scope adds nothing: drop it
    for p in sorted(keep, key=len, reverse=True):
        up = p.rsplit(sep, 1)[0] if sep in p else ""
        if up and up in keep and counts[up] == counts[p]:
            keep.discard(up)
    index: dict[str, int] = {}
    for p in sorted(keep, key=lambda s: (s.count(sep), s)):
        parent = -1
        head = p
        while sep in head:
            head = head.rsplit(sep, 1)[0]
            if head in index:
                parent = index[head]
                break
        index[p] = len(graph.groups)
        graph.groups.append(Group(p, "scope", parent))
    for n, path in zip(graph.nodes, paths):
        if path:
            inner = [index[p] for p in path if p in index]
            if inner:
                n.group = inner[-1]


# --- dispatch ---------------------------------------------------------------------------------


def load_graph(
    path: str | os.PathLike[str], *, progress: Progress | None = None, cancel: CancelToken | None = None
) -> Graph:
    """Work function: the graph of the model at ``path`` (see the module docstring)."""
    progress = progress or NullProgress()
    cancel = cancel or CancelToken()
    p = Path(path)
    if not p.is_file():
        raise GraphError(f"{p}: no such model file")
    suffix = p.suffix.lower()
    progress.status(f"Reading {p.name}")
    progress.fraction(None)
    if suffix in _READERS:
        return _guarded(suffix, p, cancel)
    try:
        with p.open("rb") as fh:
            head = fh.read(4096)
    except OSError as err:
        raise GraphError(f"{p}: cannot read the file ({err.strerror or err})") from None
    text = head.lstrip(b"\xef\xbb\xbf \t\r\n")
    if text.startswith(b"{"):
        return _guarded(".json", p, cancel)
    if b"layer" in head and b"{" in head:
        return _guarded(".prototxt", p, cancel)
    if b"node" in head and b"{" in head:
        return _guarded(".pbtxt", p, cancel)
    raise GraphError(
        f"{p}: unknown model type; expected .onnx, an om .json (atc --mode=1 output), .prototxt (Caffe), "
        ".pb or .pbtxt (TensorFlow)"
    )


def _guarded(suffix: str, p: Path, cancel: CancelToken) -> Graph:
    """The reader of ``suffix``; a field of a shape no tool writes (a name that is not text, a
    number where a list belongs ...) that slipped past the reader's checks is still one line."""
    read, what = _READERS[suffix]
    try:
        return read(p, cancel)
    except GraphError:
        raise
    except (TypeError, ValueError, AttributeError, KeyError, IndexError, OverflowError, RecursionError, UnicodeError):
        raise GraphError(f"{p}: not {what} (damaged: a field holds a value of the wrong kind)") from None


def _read_text(p: Path) -> str:
    try:
        return p.read_text(encoding="utf-8-sig")
    except UnicodeDecodeError as err:
        raise GraphError(f"{p}: byte {err.start}: not UTF-8 text") from None
    except OSError as err:
        raise GraphError(f"{p}: cannot read the file ({err.strerror or err})") from None


# --- ONNX -------------------------------------------------------------------------------------


def _onnx_attr(attr: Any) -> Any:
    """A plain value: numbers, strings, lists; tensors as ``"tensor float32[3, 4]"``; graphs by name."""
    from onnx import AttributeProto, helper

    if attr.type == AttributeProto.GRAPH:
        return f"graph {attr.g.name}"
    if attr.type == AttributeProto.GRAPHS:
        return [f"graph {g.name}" for g in attr.graphs]
    if attr.type == AttributeProto.TENSOR:
        return _tensor_summary(attr.t)
    if attr.type == AttributeProto.TENSORS:
        return [_tensor_summary(t) for t in attr.tensors]
    if attr.type == AttributeProto.SPARSE_TENSOR:
        return "sparse tensor"
    if attr.type == AttributeProto.TYPE_PROTO:
        return "type"
    value = helper.get_attribute_value(attr)
    if isinstance(value, bytes):
        return value.decode("utf-8", "replace")
    if isinstance(value, list):
        return [v.decode("utf-8", "replace") if isinstance(v, bytes) else v for v in value]
    return value


def _tensor_summary(t: Any) -> str:
    from workbench.core.atc.modelinfo import ONNX_DTYPES

    return f"tensor {ONNX_DTYPES.get(t.data_type, str(t.data_type))}[{', '.join(map(str, t.dims))}]"


def _value_infos(graph: Any) -> dict[str, tuple[list[int] | None, str]]:
    from workbench.core.atc.modelinfo import ONNX_DTYPES

    out: dict[str, tuple[list[int] | None, str]] = {}
    for vi in (*graph.value_info, *graph.input, *graph.output):
        tt = vi.type.tensor_type
        shape = [d.dim_value if d.dim_value > 0 else -1 for d in tt.shape.dim] if tt.HasField("shape") else None
        out[vi.name] = (shape, ONNX_DTYPES.get(tt.elem_type, "") if tt.elem_type else "")
    for init in graph.initializer:
        out.setdefault(init.name, (list(init.dims), ONNX_DTYPES.get(init.data_type, "")))
    return out


def _onnx(p: Path, cancel: CancelToken) -> Graph:
    from workbench.core.atc.modelinfo import ModelInfoError, load_onnx_graph, onnx_node_name

    try:
        model = load_onnx_graph(p)
    except ModelInfoError as exc:
        raise GraphError(str(exc)) from None
    b = _Builder(str(p), cancel)
    if len(model.graph.node) <= INFER_MAX_NODES:
        try:
            import onnx

            model = onnx.shape_inference.infer_shapes(model)
        except Exception as exc:  # noqa: BLE001 - inference is a nicety: the graph is read without it
            b.warnings.append(f"{p}: shapes from the file only (onnx shape inference failed: {str(exc)[:120]})")
    functions = {(f.domain, f.name): f for f in model.functions}
    g = model.graph
    vinfo = _value_infos(g)
    init = {i.name for i in g.initializer}
    for vi in g.input:
        if vi.name in init:
            continue
        shape, dtype = vinfo.get(vi.name, (None, ""))
        b.node(Node(vi.name, INPUT, outputs=[Tensor(vi.name, shape, dtype)]), produces=[vi.name])

    def tensor(name: str, info: dict, inits: set[str]) -> Tensor:
        shape, dtype = info.get(name, (None, ""))
        return Tensor(name, shape, dtype, initializer=name in inits)

    def emit(nodes: Any, scope_graph: Any, group: int, rename: dict[str, str], prefix: str, depth: int) -> None:
        """Add ``nodes``; ``rename`` maps a local tensor name to its edge key; ``scope_graph`` (a
        subgraph body, or None) adds its value_info and initializers."""
        info = vinfo if scope_graph is None else {**vinfo, **_value_infos(scope_graph)}
        inits = init if scope_graph is None else init | {i.name for i in scope_graph.initializer}
        for idx, n in enumerate(nodes):
            name = prefix + onnx_node_name(n, idx)
            fn = functions.get((n.domain, n.op_type))
            if fn is not None and depth < MAX_DEPTH:
                fg = b.group(name, "function", group)
                local = dict(rename)
                for formal, actual in zip(fn.input, n.input):
                    local[formal] = rename.get(actual, actual)
                body_prefix = name + "/"
                for fnode in fn.node:
                    for o in fnode.output:
                        local[o] = body_prefix + o
                emit(fn.node, None, fg, local, body_prefix, depth + 1)
                for formal, actual in zip(fn.output, n.output):  # the call's outputs are the body's
                    if local.get(formal) in b.producer:
                        b.producer[rename.get(actual, actual)] = b.producer[local[formal]]
                continue
            ins = [t for t in n.input if t]
            outs = [t for t in n.output if t]
            node = Node(
                name,
                n.op_type,
                inputs=[tensor(t, info, inits) for t in ins],
                outputs=[tensor(t, info, inits) for t in outs],
                attrs={a.name: _onnx_attr(a) for a in n.attribute},
                group=group,
            )
            i = b.node(
                node,
                produces=[rename.get(o, o) for o in outs],
                consumes=[(rename.get(t, t), t) for t in ins if t not in inits or t in rename],
            )
            bodies = [(a.name, a.g) for a in n.attribute if a.type == a.GRAPH]
            bodies += [(f"{a.name}[{k}]", s) for a in n.attribute if a.type == a.GRAPHS for k, s in enumerate(a.graphs)]
            for label, body in bodies:
                if depth >= MAX_DEPTH:
                    b.warnings.append(f"{p}: node {name}: subgraph {label} nested deeper than {MAX_DEPTH}, not shown")
                    continue
                sg = b.group(f"{name}/{label}", "graph", group)
                local = dict(rename)
                body_prefix = f"{name}/{label}/"
                for vi in body.input:
                    local[vi.name] = body_prefix + vi.name
                for bn in body.node:
                    for o in bn.output:
                        local[o] = body_prefix + o
                emit(body.node, body, sg, local, prefix, depth + 1)  # node names kept (ATC keeps them)
                for vi in body.output:  # the body's results feed the control node
                    b.wants.append((i, local.get(vi.name, vi.name), vi.name))

    emit(g.node, None, -1, {}, "", 0)
    for vi in g.output:
        shape, dtype = vinfo.get(vi.name, (None, ""))
        b.node(Node(vi.name, OUTPUT, inputs=[Tensor(vi.name, shape, dtype)]), consumes=[(vi.name, vi.name)])
    return b.graph(g.name or p.stem, "onnx", unresolved=f"{p}: {{n}} node inputs name no producer (left unconnected)")


# --- om JSON ----------------------------------------------------------------------------------


def _om_json(p: Path, cancel: CancelToken) -> Graph:
    from workbench.core.dump.omjson import OmJsonError, attrs_dict, parse_om_json

    text = _read_text(p)
    try:
        doc = json.loads(text)
    except json.JSONDecodeError as err:
        raise GraphError(f"{p}: line {err.lineno}, column {err.colno}: not valid JSON ({err.msg})") from None
    except RecursionError:
        raise GraphError(f"{p}: nested too deeply to be an om JSON (atc --mode=1 output)") from None
    try:
        model = parse_om_json(doc, str(p))
    except OmJsonError as exc:
        raise GraphError(str(exc)) from None
    cancel.raise_if_cancelled()
    b = _Builder(str(p), cancel)
    groups = {name: b.group(name, "graph", -1) for name in model.graphs} if len(model.graphs) > 1 else {}
    raw_ops = [op for graph in doc["graph"] for op in graph.get("op") or []]
    for op, raw in zip(model.ops, raw_ops):
        try:
            attrs = attrs_dict(raw.get("attr"))
        except (TypeError, ValueError, AttributeError) as exc:
            raise GraphError(f"{p}: op {op.name}: field 'attr': not what atc --mode=1 writes ({exc})") from None
        originals = list(op.original_op_names)
        for d in op.output_descs:
            if d.origin_name and d.origin_name not in originals:
                originals.append(str(d.origin_name))
        inputs = [
            Tensor(
                name,
                list(d.shape) if d is not None else None,
                d.dtype if d is not None else "",
                d.layout if d is not None else "",
            )
            for name, d in (
                (name, op.input_descs[k] if k < len(op.input_descs) else None) for k, name in enumerate(op.inputs)
            )
        ]
        outputs = [Tensor(f"{op.name}:{k}", list(d.shape), d.dtype, d.layout) for k, d in enumerate(op.output_descs)]
        node = Node(
            op.name,
            op.type,
            inputs=inputs,
            outputs=outputs,
            attrs={k: v for k, v in attrs.items() if k != "_datadump_original_op_names"},
            group=groups.get(op.graph, -1),
            original_names=originals,
        )
        consumes = []
        for name in op.inputs:
            src, _, idx = name.rpartition(":")
            consumes.append((src if src and idx.lstrip("-").isdigit() else name, name))
        b.node(node, produces=[op.name], consumes=consumes)
    return b.graph(
        model.name or p.stem, "om", unresolved=f"{p}: {{n}} op inputs name no op of the model (left unconnected)"
    )


# --- Caffe ------------------------------------------------------------------------------------


def _caffe(p: Path, cancel: CancelToken) -> Graph:
    from workbench.core.atc.modelinfo import caffe_inputs, caffe_layers
    from workbench.core.atc.prototxt import PrototxtError, parse_prototxt

    try:
        doc = parse_prototxt(_read_text(p), str(p))
    except PrototxtError as exc:
        raise GraphError(f"{exc.where}: not a Caffe prototxt: {exc.reason}") from None
    try:
        inputs = caffe_inputs(doc)
    except (ValueError, TypeError, AttributeError, IndexError) as exc:
        raise GraphError(f"{p}: field 'input_shape'/'input_dim': expected whole numbers ({exc})") from None
    layers = caffe_layers(doc)
    if not isinstance(layers, list) or not all(isinstance(ly, dict) for ly in layers):
        raise GraphError(f"{p}: field 'layer': expected 'layer {{ … }}' blocks")
    if not layers and not inputs:
        raise GraphError(f"{p}: no 'layer' blocks; expected a Caffe network prototxt")
    b = _Builder(str(p), cancel)
    current: dict[str, int] = {}  # blob -> its latest producer (in-place layers chain)
    read: set[tuple[int, str]] = set()
    for name, shape in inputs.items():
        if any((ly.get("type") or [""])[0] == "Input" and name in ly.get("top", []) for ly in layers):
            continue
        i = len(b.nodes)
        current[name] = b.node(Node(name, INPUT, outputs=[Tensor(name, shape, "float32")]), produces=[f"{i}:{name}"])
    for k, ly in enumerate(layers):
        names, types = ly.get("name") or [f"layer_{k}"], ly.get("type") or ["Unknown"]
        if not all(isinstance(v, str) for v in (names[0], types[0])):
            raise GraphError(f"{p}: layer {k}: fields 'name' and 'type': expected strings")
        bottoms = [x for x in ly.get("bottom", []) if isinstance(x, str)]
        tops = [x for x in ly.get("top", []) if isinstance(x, str)]
        lt = INPUT if types[0] == "Input" else types[0]
        attrs = {key: _plain_text(val) for key, val in ly.items() if key not in ("name", "type", "bottom", "top")}
        node = Node(
            names[0],
            lt,
            inputs=[Tensor(x) for x in bottoms],
            outputs=[Tensor(x, inputs.get(x) if lt == INPUT else None) for x in tops],
            attrs=attrs,
        )
        i = len(b.nodes)
        consumes = []
        for x in bottoms:
            if x in current:
                consumes.append((f"{current[x]}:{x}", x))
                read.add((current[x], x))
            else:
                consumes.append((f"?:{x}", x))
        b.node(node, produces=[f"{i}:{x}" for x in tops], consumes=consumes)
        for x in tops:
            current[x] = i
    for x, i in current.items():
        if (i, x) not in read and b.nodes[i].op_type != INPUT:
            b.node(Node(x, OUTPUT, inputs=[Tensor(x)]), consumes=[(f"{i}:{x}", x)])
    name = doc.get("name", [p.stem])[0] if isinstance(doc.get("name"), list) else p.stem
    return b.graph(str(name), "caffe", unresolved=f"{p}: {{n}} bottom blobs are produced by no layer before them")


def _plain_text(values: list) -> Any:
    """prototxt dict-of-lists -> plain values: one scalar unwrapped, nested blocks as dicts."""
    out = [_plain_text_one(v) for v in values]
    return out[0] if len(out) == 1 else out


def _plain_text_one(v: Any) -> Any:
    if isinstance(v, dict):
        return {k: _plain_text(vals) for k, vals in v.items()}
    if isinstance(v, str):
        for cast in (int, float):
            try:
                return cast(v)
            except ValueError:
                pass
        return {"true": True, "false": False}.get(v, v)
    return v


# --- TensorFlow -------------------------------------------------------------------------------


def _tf_graph(
    p: Path, nodes: list[tuple[str, str, list[str], dict[str, Any]]], cancel: CancelToken, *, library: bool = False
) -> Graph:
    if not nodes:
        raise GraphError(f"{p}: field 'node': no nodes; expected a TensorFlow GraphDef")
    b = _Builder(str(p), cancel)
    control = 0
    for name, op, inputs, attrs in nodes:
        ins: list[tuple[str, str]] = []
        for raw in inputs:
            if raw.startswith("^"):
                control += 1
                continue
            src, colon, idx = raw.rpartition(":")
            key = raw if colon and idx.isdigit() else f"{raw}:0"
            ins.append((key, key))
        dtype = attrs.get("T", attrs.get("dtype", ""))
        shapes = attrs.get("_output_shapes") or ([attrs["shape"]] if isinstance(attrs.get("shape"), list) else [])
        n_out = max(1, len(shapes))
        outs = [
            Tensor(f"{name}:{k}", shapes[k] if k < len(shapes) and isinstance(shapes[k], list) else None, str(dtype))
            for k in range(n_out)
        ]
        node = Node(name, INPUT if op == "Placeholder" else op, [Tensor(k) for k, _ in ins], outs, attrs)
        # a consumer may name any output index: producers answer for "name:k" up to a generous bound
        b.node(node, produces=[f"{name}:{k}" for k in range(max(n_out, 8))], consumes=ins)
    if control:
        b.warnings.append(f"{p}: {control} control inputs (^name) are not drawn")
    if library:
        b.warnings.append(f"{p}: the graph's function library is not shown (only the top-level nodes)")
    return b.graph(p.stem, "tf", unresolved=f"{p}: {{n}} node inputs name no node of the graph (left unconnected)")


_TF_TYPES = {
    "DT_FLOAT": "float32",
    "DT_DOUBLE": "float64",
    "DT_INT32": "int32",
    "DT_UINT8": "uint8",
    "DT_INT16": "int16",
    "DT_INT8": "int8",
    "DT_STRING": "string",
    "DT_INT64": "int64",
    "DT_BOOL": "bool",
    "DT_BFLOAT16": "bfloat16",
    "DT_HALF": "float16",
}


def _tf_text(p: Path, cancel: CancelToken) -> Graph:
    from workbench.core.atc.prototxt import PrototxtError, parse_prototxt

    try:
        doc = parse_prototxt(_read_text(p), str(p))
    except PrototxtError as exc:
        raise GraphError(f"{exc.where}: not a TensorFlow GraphDef text (.pbtxt): {exc.reason}") from None
    nodes = []
    for k, nd in enumerate(doc.get("node", [])):
        if not isinstance(nd, dict):
            raise GraphError(f"{p}: node {k}: expected a 'node {{ … }}' block")
        name, op = (nd.get("name") or [""])[0], (nd.get("op") or [""])[0]
        if not isinstance(name, str) or not isinstance(op, str) or not name or not op:
            raise GraphError(f"{p}: node {k}: fields 'name' and 'op': expected strings")
        attrs: dict[str, Any] = {}
        for entry in nd.get("attr", []):
            if isinstance(entry, dict) and isinstance((entry.get("key") or [None])[0], str):
                value = (entry.get("value") or [{}])[0]
                attrs[entry["key"][0]] = _tf_text_attr(value) if isinstance(value, dict) else value
        inputs = [x for x in nd.get("input", []) if isinstance(x, str)]
        nodes.append((name, op, inputs, attrs))
    return _tf_graph(p, nodes, cancel, library=bool(doc.get("library")))


def _tf_text_attr(v: dict) -> Any:
    if "s" in v:
        return v["s"][0] if isinstance(v["s"][0], str) else ""
    if "type" in v:
        return _TF_TYPES.get(str(v["type"][0]), str(v["type"][0]))
    if "shape" in v and isinstance(v["shape"][0], dict):
        return _tf_text_shape(v["shape"][0])
    if "list" in v and isinstance(v["list"][0], dict):
        lst = v["list"][0]
        if "shape" in lst:
            return [_tf_text_shape(s) if isinstance(s, dict) else [] for s in lst["shape"]]
        for key in ("s", "i", "f", "b", "type"):
            if key in lst:
                return [_plain_text_one(x) if key != "type" else _TF_TYPES.get(str(x), str(x)) for x in lst[key]]
        return []
    if "tensor" in v:
        return "tensor"
    for key in ("i", "f", "b"):
        if key in v:
            return _plain_text_one(v[key][0])
    return None


def _tf_text_shape(s: dict) -> list[int]:
    if s.get("unknown_rank"):
        return [-1]
    dims = []
    for d in s.get("dim", []):
        size = _plain_text_one((d.get("size") or ["-1"])[0]) if isinstance(d, dict) else -1
        dims.append(size if isinstance(size, int) and size > 0 else -1)
    return dims


def _graphdef_class() -> Any:
    """A minimal GraphDef message class (the fields read here; the rest is skipped as unknown)."""
    cached = globals().get("_GRAPHDEF")
    if cached is not None:
        return cached
    from google.protobuf import descriptor_pb2, descriptor_pool, message_factory

    f = descriptor_pb2.FileDescriptorProto(name="wb_graphdef.proto", package="wbtf", syntax="proto3")
    fd = descriptor_pb2.FieldDescriptorProto
    opt, rep = fd.LABEL_OPTIONAL, fd.LABEL_REPEATED

    def message(name: str, fields: list[tuple[str, int, int, int, str]], entry: bool = False) -> Any:
        m = f.message_type.add(name=name)
        for fname, num, ftype, label, tname in fields:
            field = m.field.add(name=fname, number=num, type=ftype, label=label)
            if tname:
                field.type_name = f".wbtf.{tname}"
        if entry:
            m.options.map_entry = True
        return m

    message("Dim", [("size", 1, fd.TYPE_INT64, opt, ""), ("name", 2, fd.TYPE_STRING, opt, "")])
    message("Shape", [("dim", 2, fd.TYPE_MESSAGE, rep, "Dim"), ("unknown_rank", 3, fd.TYPE_BOOL, opt, "")])
    message(
        "ListValue",
        [
            ("s", 2, fd.TYPE_BYTES, rep, ""),
            ("i", 3, fd.TYPE_INT64, rep, ""),
            ("f", 4, fd.TYPE_FLOAT, rep, ""),
            ("b", 5, fd.TYPE_BOOL, rep, ""),
            ("type", 6, fd.TYPE_INT32, rep, ""),
            ("shape", 7, fd.TYPE_MESSAGE, rep, "Shape"),
        ],
    )
    message(
        "AttrValue",
        [
            ("list", 1, fd.TYPE_MESSAGE, opt, "ListValue"),
            ("s", 2, fd.TYPE_BYTES, opt, ""),
            ("i", 3, fd.TYPE_INT64, opt, ""),
            ("f", 4, fd.TYPE_FLOAT, opt, ""),
            ("b", 5, fd.TYPE_BOOL, opt, ""),
            ("type", 6, fd.TYPE_INT32, opt, ""),
            ("shape", 7, fd.TYPE_MESSAGE, opt, "Shape"),
            ("tensor", 8, fd.TYPE_BYTES, opt, ""),
        ],
    )
    node = message(
        "NodeDef",
        [
            ("name", 1, fd.TYPE_STRING, opt, ""),
            ("op", 2, fd.TYPE_STRING, opt, ""),
            ("input", 3, fd.TYPE_STRING, rep, ""),
            ("device", 4, fd.TYPE_STRING, opt, ""),
            ("attr", 5, fd.TYPE_MESSAGE, rep, "NodeDef.AttrEntry"),
        ],
    )
    entry = node.nested_type.add(name="AttrEntry")
    entry.field.add(name="key", number=1, type=fd.TYPE_STRING, label=opt)
    entry.field.add(name="value", number=2, type=fd.TYPE_MESSAGE, label=opt, type_name=".wbtf.AttrValue")
    entry.options.map_entry = True
    message("GraphDef", [("node", 1, fd.TYPE_MESSAGE, rep, "NodeDef"), ("library", 2, fd.TYPE_BYTES, opt, "")])
    pool = descriptor_pool.DescriptorPool()
    pool.Add(f)
    cls = message_factory.GetMessageClass(pool.FindMessageTypeByName("wbtf.GraphDef"))
    globals()["_GRAPHDEF"] = cls
    return cls


_TF_TYPE_NUMBERS = {1: "float32", 2: "float64", 3: "int32", 4: "uint8", 5: "int16", 6: "int8", 7: "string"}
_TF_TYPE_NUMBERS.update({9: "int64", 10: "bool", 14: "bfloat16", 17: "uint16", 19: "float16", 22: "uint32"})


def _tf_binary(p: Path, cancel: CancelToken) -> Graph:
    from google.protobuf.message import DecodeError

    try:
        data = p.read_bytes()
    except OSError as err:
        raise GraphError(f"{p}: cannot read the file ({err.strerror or err})") from None
    gd = _graphdef_class()()
    try:
        gd.ParseFromString(data)
    except (DecodeError, RuntimeError, ValueError) as exc:
        raise GraphError(f"{p}: not a TensorFlow frozen graph (.pb GraphDef): {exc}") from None
    nodes = []
    for k, nd in enumerate(gd.node):
        if not nd.name or not nd.op:
            raise GraphError(f"{p}: node {k}: fields 'name' and 'op': expected non-empty strings")
        attrs = {key: _tf_attr(v) for key, v in nd.attr.items()}
        nodes.append((nd.name, nd.op, list(nd.input), attrs))
    cancel.raise_if_cancelled()
    return _tf_graph(p, nodes, cancel, library=bool(gd.library))


def _tf_attr(v: Any) -> Any:
    kind = next((f.name for f, _ in v.ListFields()), None)
    if kind == "s":
        return v.s.decode("utf-8", "replace")
    if kind == "type":
        return _TF_TYPE_NUMBERS.get(v.type, str(v.type))
    if kind == "shape":
        return _tf_shape(v.shape)
    if kind == "list":
        lst = v.list
        if len(lst.shape):
            return [_tf_shape(s) for s in lst.shape]
        for key in ("s", "i", "f", "b", "type"):
            vals = list(getattr(lst, key))
            if vals:
                if key == "s":
                    return [x.decode("utf-8", "replace") for x in vals]
                if key == "type":
                    return [_TF_TYPE_NUMBERS.get(x, str(x)) for x in vals]
                return vals
        return []
    if kind == "tensor":
        return "tensor"
    if kind in ("i", "f", "b"):
        return getattr(v, kind)
    return None


def _tf_shape(s: Any) -> list[int]:
    if s.unknown_rank:
        return [-1]
    return [d.size if d.size > 0 else -1 for d in s.dim]


_READERS = {
    ".onnx": (_onnx, "a readable ONNX model"),
    ".json": (_om_json, "an om JSON as atc --mode=1 writes it"),
    ".prototxt": (_caffe, "a Caffe network prototxt"),
    ".pbtxt": (_tf_text, "a TensorFlow GraphDef text (.pbtxt)"),
    ".pb": (_tf_binary, "a TensorFlow frozen graph (.pb GraphDef)"),
}
