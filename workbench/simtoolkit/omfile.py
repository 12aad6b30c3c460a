"""The simulated ATC's ``.om`` files and their ``--mode=1`` JSON.

**Container (the simulator's own, not Huawei's format).** A real om starts with a 256-byte
``ModelFileHeader`` whose magic is ``0x444F4D49`` (``b"IMOD"`` little-endian) followed by
partitions (model def protobuf, weights, task info, kernels). The simulator keeps that look: a
256-byte header (magic, header version, payload length, model name, the ``ASCEND-WORKBENCH-SIM``
marker) followed by a UTF-8 JSON payload ``{"om_json": <the --mode=1 document>,
"workload": [<ops for the profiler>]}``. Only the simulated tools read it back.

**om → json** follows the real structure (docs/cann-formats.md §6.5, samples/atc-om2json-*): top-level
``attr, custom_version, graph, name, version``; typed attr values ``{"s"|"i"|"b"|"list": …}``;
one graph ``<name>_NPU_0`` with Data ops, the computing ops (CANN op types), ``trans_Cast_*``
precision casts around float inputs/outputs under ``force_fp16``, and ``Node_Output`` (NetOutput);
each op carries ``name, type, attr, input, input_desc, output_desc, dst_name, dst_index, …``.
A multi-gear model (``--dynamic_batch_size`` …) keeps one graph with the biggest gear's shapes (real
ATC adds a Case op with one subgraph per gear; the simulator does not), GE's multi-batch attributes
on its Data ops and the ``ascend_mbatch_shape_data`` input; its tensor descs have the gear's dims.

**Fusion** (ONNX models, as ATC's default fusion passes do; :func:`fusion_plan`): MatMul/Gemm + bias Add
(+ Relu/LeakyRelu/Sigmoid/Tanh) becomes one op of the MatMul's CANN type, and a chain of elementwise ops
(Div/Mul/Add/Sub/Sqrt) one op of the first op's type. The fused op is named by concatenating the fused
ops' names (the bias Add's name is not part of it), ``_datadump_original_op_names`` lists the originals
(for a MatMul: the bias Constant node, the Add, the MatMul, the activation) and its output desc names
the last fused op in ``_datadump_origin_name`` — as in samples/atc-om2json-large/test.om.json
(``RealDiv Div_331Mul_333Add_335Mul_337Add_338``, ``BatchMatMulV2 MatMul_344LeakyRelu_347``). Only
single-consumer intermediates that are no graph output or ``--out_nodes`` tensor are fused.
"""

from __future__ import annotations

import json
import os
import struct
from dataclasses import dataclass
from pathlib import Path

from workbench.core.fsutil import atomic_write_bytes
from workbench.simtoolkit.atc_model import DTYPE_BYTES, Graph, Node, TensorInfo

MAGIC = 0x444F4D49
MARKER = b"ASCEND-WORKBENCH-SIM"
HEADER_SIZE = 256
_HEADER = struct.Struct("<IIIQ32s20s")  # magic, header version, reserved, payload length, name, marker
# ONNX / Caffe op type -> CANN op type (what om json and the profiler show).
try:
    from workbench.simtoolkit.profdata.workload import ONNX_TYPES as _PROF_TYPES
except ImportError:  # the profiling generator is optional for atc
    _PROF_TYPES = {}
CAFFE_TYPES = {
    "Convolution": "Conv2D",
    "ReLU": "Relu",
    "Pooling": "Pooling",
    "InnerProduct": "FullyConnection",
    "Softmax": "Softmax",
    "Concat": "ConcatD",
    "Eltwise": "Eltwise",
    "BatchNorm": "BNInference",
    "Scale": "Scale",
    "LRN": "LRN",
    "Sigmoid": "Sigmoid",
    "Flatten": "FlattenV2",
    "Reshape": "Reshape",
    "Deconvolution": "Deconvolution",
    "PReLU": "PRelu",
    "Permute": "Permute",
    "Slice": "SliceD",
    "Crop": "Crop",
    "Power": "Power",
    "Split": "SplitD",
    "ArgMax": "ArgMaxD",
    "Upsample": "Upsample",
}
CORE_OF = {
    "Conv2D": "AI_CORE",
    "MatMulV2": "AI_CORE",
    "BatchMatMul": "AI_CORE",
    "FullyConnection": "AI_CORE",
    "Deconvolution": "AI_CORE",
    "Conv2DBackpropInput": "AI_CORE",
}
FOLDED = {"Dropout", "Identity", "Constant"}  # no device op after ATC
MATMULS = {"MatMul", "Gemm"}  # fused with a following bias Add (+ an activation)
ACTIVATIONS = {"Relu", "LeakyRelu", "Sigmoid", "Tanh"}
ELEMENTWISE = {"Div", "Mul", "Add", "Sub", "Sqrt"}  # chains of these become one op
FLOAT = ("DT_FLOAT", "DT_DOUBLE")
MBATCH_INPUT = "ascend_mbatch_shape_data"  # the gear input of a multi-gear model (ACL_DYNAMIC_TENSOR_NAME)


class OmError(ValueError):
    """Not an om the simulator wrote (or a damaged one): names the file."""


def cann_type(framework: str, op_type: str) -> str:
    if framework == "Caffe":
        return CAFFE_TYPES.get(op_type, op_type)
    return _PROF_TYPES.get(op_type, (op_type, ""))[0]


def _s(v: str) -> dict:
    return {"s": v}


def _i(v: int) -> dict:
    return {"i": int(v)}


def _b(v: bool) -> dict:
    return {"b": bool(v)}


def _list(kind: str, values: list, vt: str) -> dict:
    return {"list": {kind: values, "val_type": vt}} if values else {"list": {"val_type": vt}}


def _attrs(pairs: dict) -> list[dict]:
    return [{"key": k, "value": v} for k, v in pairs.items()]


def _size(t: TensorInfo) -> int:
    n = 1
    for d in t.shape:
        n *= max(d, 1)
    return n * DTYPE_BYTES.get(t.dtype, 4)


def _desc(t: TensorInfo, out: bool, origin_dtype: str | None = None) -> dict:
    attrs = {
        "origin_format": _s(t.format),
        "origin_shape": _list("i", list(t.shape), "VT_LIST_INT"),
        "placement": _i(0),
        "origin_shape_initialized": _b(True),
        "origin_format_is_set": _b(True),
    }
    if out:
        attrs["origin_data_type"] = _s(origin_dtype or t.dtype)
    d = {
        "attr": _attrs(attrs),
        "device_type": "NPU",
        "dtype": t.dtype,
        "layout": t.format,
        "shape": {"dim": list(t.shape)} if t.shape else {},
    }
    if out:
        d["real_dim_cnt"] = len(t.shape)
    return d


@dataclass
class FusedOp:
    """Framework nodes ATC turns into one device op."""

    name: str
    nodes: list[Node]  # in graph order; the op's output is the last node's
    originals: list[str]  # _datadump_original_op_names


def fusion_plan(graph: Graph, keep: set[str] | frozenset[str] = frozenset()) -> list[FusedOp]:
    """The fusions ATC's default passes make in an ONNX ``graph`` (none for other frameworks).

    (a) MatMul/Gemm whose only consumer is an Add of a bias (an initializer or a Constant node's
    output), optionally followed by the Add's only consumer when it is Relu/LeakyRelu/Sigmoid/Tanh:
    named ``<MatMul><activation>``, originals ``[<bias Constant>, <Add>, <MatMul>, <activation>]``;
    (b) a chain of Div/Mul/Add/Sub/Sqrt where each op's output has exactly one consumer, the next
    op of the chain: named by concatenating the ops' names, originals in chain order. An intermediate
    tensor that is a graph output or in ``keep`` (``--out_nodes``) ends the fusion there."""
    if graph.framework != "Onnx":
        return []
    keep = set(keep) | set(graph.outputs)
    consumers: dict[str, list[Node]] = {}
    constant_of: dict[str, Node] = {}
    for node in graph.nodes:
        for t in dict.fromkeys(i for i in node.inputs if i):
            consumers.setdefault(t, []).append(node)
        if node.type == "Constant":
            constant_of.update((o, node) for o in node.outputs if o)
    claimed: set[int] = set()

    def sole_consumer(node: Node) -> Node | None:
        outs = [o for o in node.outputs if o]
        if len(node.outputs) != 1 or len(outs) != 1 or outs[0] in keep:
            return None
        users = consumers.get(outs[0], [])
        if len(users) != 1 or id(users[0]) in claimed:
            return None
        return users[0]

    plan: list[FusedOp] = []
    for node in graph.nodes:
        if node.type not in MATMULS or id(node) in claimed:
            continue
        add = sole_consumer(node)
        if add is None or add.type != "Add" or len([i for i in add.inputs if i]) != 2:
            continue
        others = [i for i in add.inputs if i and i != node.outputs[0]]
        if len(others) != 1 or not (others[0] in graph.weights or others[0] in constant_of):
            continue
        nodes, originals = [node, add], [add.name, node.name]
        if others[0] in constant_of:
            originals.insert(0, constant_of[others[0]].name)
        act = sole_consumer(add)
        if act is not None and act.type in ACTIVATIONS:
            nodes.append(act)
            originals.append(act.name)
        claimed.update(id(n) for n in nodes)
        plan.append(FusedOp(node.name + (nodes[2].name if len(nodes) > 2 else ""), nodes, originals))
    for node in graph.nodes:
        if node.type not in ELEMENTWISE or id(node) in claimed:
            continue
        chain = [node]
        claimed.add(id(node))
        while (nxt := sole_consumer(chain[-1])) is not None and nxt.type in ELEMENTWISE:
            chain.append(nxt)
            claimed.add(id(nxt))
        if len(chain) > 1:
            plan.append(FusedOp("".join(n.name for n in chain), chain, [n.name for n in chain]))
    return plan


def build_om_json(
    graph: Graph,
    *,
    name: str,
    soc_version: str,
    target_type: str,
    atc_cmdline: str,
    component: str,
    precision_mode: str,
    out_nodes: list[str] | None = None,
    dynamic: dict | None = None,
    fuse: bool = True,
) -> tuple[dict, list[dict]]:
    """The ``--mode=1`` document of the model ATC would build, and the workload ops for msprof.

    ``dynamic`` (from the simulated atc's ``dynamic_gears``: ``origin`` dims with -1, ``gears``,
    ``values`` per gear) makes a multi-gear model: ``graph`` then holds the biggest gear's shapes,
    the dynamic Data ops carry ``_mbatch_origin_input_dims`` and ``_all_origin_gears_inputs`` (GE's
    multi-batch attributes) and an ``ascend_mbatch_shape_data`` Data input (DT_INT64) is added.
    ``fuse`` applies :func:`fusion_plan` (a model ATC builds; ``--mode=1`` of a framework model shows
    its ops unfused): a fused op stands where its last node was, one workload op per fused op."""
    fp16 = precision_mode in ("force_fp16", "allow_mix_precision", "allow_mix_precision_fp16", "allow_fp32_to_fp16")
    ops: list[dict] = []
    producer: dict[str, tuple[str, int]] = {}  # tensor -> (op name, output index)
    workload: list[dict] = []

    def tensor(name: str) -> TensorInfo:
        return graph.tensors.get(name) or graph.weights.get(name) or TensorInfo([], "DT_FLOAT", "ND")

    def add(
        op_name: str,
        op_type: str,
        ins: list[str],
        outs: list[TensorInfo],
        extra: dict | None = None,
        origins: list[tuple[str, int, TensorInfo]] | None = None,
    ) -> dict:
        in_descs = [_desc(tensor(t) if t not in producer else _out_of(t), False) for t in ins if t]
        out_descs = [_desc(o, True) for o in outs]
        for d, (origin, index, info) in zip(out_descs, origins or []):
            d["attr"] += _attrs(
                {
                    "_datadump_origin_name": _s(origin),
                    "_datadump_origin_output_index": _i(index),
                    "_datadump_origin_format": _s(info.format),
                    "_datadump_origin_data_type": _s(info.dtype),
                }
            )
        op = {
            "attr": _attrs(extra or {}),
            "name": op_name,
            "type": op_type,
            "id": len(ops),
            "input": [f"{producer[t][0]}:{producer[t][1]}" if t in producer else "" for t in ins] or [""],
            "input_desc": in_descs,
            "output_desc": out_descs,
            "has_out_attr": True,
        }
        srcs = [producer[t] for t in ins if t in producer]
        if srcs:
            op["src_name"] = [s[0] for s in srcs]
            op["src_index"] = [s[1] for s in srcs]
        ops.append(op)
        return op

    def _out_of(t: str) -> TensorInfo:
        op_name, idx = producer[t]
        op = next(o for o in reversed(ops) if o["name"] == op_name)
        d = op["output_desc"][idx]
        return TensorInfo(d["shape"].get("dim", []), d["dtype"], d["layout"])

    def lowered(t: TensorInfo) -> TensorInfo:
        return TensorInfo(t.shape, "DT_FLOAT16" if fp16 and t.dtype in FLOAT else t.dtype, t.format)

    origin = (dynamic or {}).get("origin", {})
    for idx, (inp, info) in enumerate(graph.inputs.items()):
        extra = {"index": _i(idx), "data_type": _i(0)}
        if inp in origin:
            extra["_mbatch_origin_input_dims"] = _list("i", list(origin[inp]), "VT_LIST_INT")
            extra["_all_origin_gears_inputs"] = _list(
                "s", [_gear_text(inp, info, g[inp]) for g in dynamic["gears"]], "VT_LIST_STRING"
            )
        add(inp, "Data", [""], [info], extra)
        producer[inp] = (inp, 0)
        if fp16 and info.dtype in FLOAT:
            cast = f"trans_Cast_{len(ops) - 1}"
            add(cast, "Cast", [inp], [lowered(info)], {"dst_type": _i(1), "_engine_type": _s("AIcoreEngine")})
            producer[inp] = (cast, 0)
    graph_inputs = list(graph.inputs)
    if dynamic:
        add(
            MBATCH_INPUT,
            "Data",
            [""],
            [TensorInfo([int(dynamic["values"])], "DT_INT64", "ND")],
            {"index": _i(len(graph_inputs)), "data_type": _i(0), "mbatch-inserted-node": _b(True)},
        )
        graph_inputs.append(MBATCH_INPUT)
    task_names = []
    final = list(out_nodes or []) or graph.outputs
    fused_at = {id(f.nodes[-1]): f for f in fusion_plan(graph, set(final))} if fuse else {}
    inside = {id(n) for f in fused_at.values() for n in f.nodes[:-1]}
    constants = {o for n in graph.nodes if n.type == "Constant" for o in n.outputs if o}  # folded into Const ops
    for node in graph.nodes:
        if node.type in FOLDED:
            for o, i in zip(node.outputs, node.inputs):
                if i in producer:
                    producer[o] = producer[i]
            continue
        if id(node) in inside:
            continue  # emitted with the last node of its fusion
        fusion = fused_at.get(id(node))
        members = fusion.nodes if fusion else [node]
        op_name = fusion.name if fusion else node.name
        internal = {o for n in members[:-1] for o in n.outputs}
        ins = [i for n in members for i in n.inputs if i and i not in internal]
        typ = cann_type(graph.framework, members[0].type)
        outs = [lowered(tensor(o)) for o in node.outputs if o]
        for w in ins:
            if (w in graph.weights or w in constants) and w not in producer:
                add(w, "Const", [""], [lowered(graph.weights.get(w) or tensor(w))])
                producer[w] = (w, 0)
        core = _PROF_TYPES.get(members[0].type, ("", ""))[1] or CORE_OF.get(typ, "AI_VECTOR_CORE")
        engine = "AIcpuEngine" if core == "AI_CPU" else "AIcoreEngine"
        origins = [(node.name, k, tensor(o)) for k, o in enumerate(x for x in node.outputs if x)] if fusion else None
        add(
            op_name,
            typ,
            ins,
            outs,
            {
                "_engine_type": _s(engine),
                "_datadump_original_op_names": _list(
                    "s", fusion.originals if fusion else [node.name], "VT_LIST_STRING"
                ),
                "tvm_blockdim": _i(8),
                "_is_custom_op": _b(False),
            },
            origins,
        )
        task_names.append(op_name)
        workload.append(
            {
                "name": op_name,
                "type": typ,
                "core": core,
                "inputs": [_wl(tensor(i) if i not in producer else _out_of(i)) for i in ins],
                "outputs": [_wl(o) for o in outs],
            }
        )
        for k, o in enumerate(x for x in node.outputs if x):
            producer[o] = (op_name, k)
    net_inputs = []
    for t in final:
        if t in producer and fp16 and _out_of(t).dtype == "DT_FLOAT16" and tensor(t).dtype in FLOAT:
            cast = f"trans_Cast_{len(ops)}"
            add(cast, "Cast", [t], [TensorInfo(_out_of(t).shape, "DT_FLOAT", _out_of(t).format)], {"dst_type": _i(0)})
            producer[f"{t}#fp32"] = (cast, 0)
            task_names.append(cast)
            net_inputs.append(f"{t}#fp32")
        else:
            net_inputs.append(t)
    add("Node_Output", "NetOutput", [t for t in net_inputs if t in producer], [])
    _link_consumers(ops)
    memory = sum(_size(TensorInfo(d["shape"].get("dim", []), d["dtype"])) for o in ops for d in o["output_desc"])
    out_names = [
        f"{producer[t][0]}:{producer[t][1]}:{graph.outputs[k] if k < len(graph.outputs) else t}"
        for k, t in enumerate(net_inputs)
        if t in producer
    ]
    model_attrs = {
        "atc_cmdline": _s(atc_cmdline),
        "framework_type": _s(graph.framework),
        "om_info_list": _list(
            "i", [graph.weight_bytes, 50000 + 1000 * len(ops), 0, 400 * len(task_names)], "VT_LIST_INT"
        ),
        "label_num": _i(0),
        "weight_size": _i(graph.weight_bytes),
        "event_num": _i(0),
        "opp_version": _s(component),
        "soc_version": _s(soc_version),
        "stream_num": _i(1),
        "attr_model_out_nodes_name": _list("s", out_names, "VT_LIST_STRING"),
        "task_index_op_name": _list("s", task_names, "VT_LIST_STRING"),
        "memory_size": _i(memory + (-memory) % 512),
        "atc_version": _s(component),
        "session_id": _i(0),
        "target_type": _s(target_type),
        "core_type": _i(0),
        "_enable_l1_fusion": _b(False),
        "simulated_by": _s("Ascend Workbench simulated CANN toolkit"),
    }
    graph_doc = {
        "attr": _attrs({"_session_graph_id": _s("-1_0"), "_is_graph_inferred": _b(True), "label_num": _i(0)}),
        "input": [f"{i}:0" for i in graph_inputs],
        "name": f"{name}_NPU_0",
        "op": ops,
    }
    doc = {"attr": _attrs(model_attrs), "custom_version": "1.11.z.0", "graph": [graph_doc], "name": name, "version": 2}
    return doc, workload


def _gear_text(name: str, info: TensorInfo, dims: list[int]) -> str:
    """One ``_all_origin_gears_inputs`` item as GE writes it: format:dtype:name:bytes:rank:dims."""
    return f"{info.format}:{info.dtype}:{name}:{_size(TensorInfo(dims, info.dtype))}:{len(dims)}:" + ",".join(
        str(d) for d in dims
    )


def _wl(t: TensorInfo) -> dict:
    dt = t.dtype[3:] if t.dtype.startswith("DT_") and t.dtype != "DT_BF16" else t.dtype
    return {"shape": [max(d, 1) for d in t.shape], "dtype": dt, "format": t.format}


def _link_consumers(ops: list[dict]) -> None:
    by_name = {o["name"]: o for o in ops}
    for op in ops:
        for k, ref in enumerate(op["input"]):
            if not ref:
                continue
            src, _, idx = ref.rpartition(":")
            producer = by_name.get(src)
            if producer is not None:
                producer.setdefault("dst_name", []).append(op["name"])
                producer.setdefault("dst_index", []).append(k)


def write_om(path: Path, doc: dict, workload: list[dict]) -> None:
    payload = json.dumps({"om_json": doc, "workload": workload}, sort_keys=True, separators=(",", ":")).encode()
    header = _HEADER.pack(MAGIC, 1, 0, len(payload), doc["name"].encode()[:32], MARKER)
    atomic_write_bytes(path, header.ljust(HEADER_SIZE, b"\0") + payload)
    umask = os.umask(0)
    os.umask(umask)
    path.chmod(0o666 & ~umask)  # like a file the real atc creates, not the temp file's 0600


def read_om(path: Path) -> dict:
    """``{"om_json": …, "workload": …}`` of an om written by :func:`write_om`."""
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise OmError(f"{path}: cannot read ({exc.strerror})") from None
    if len(data) < HEADER_SIZE:
        raise OmError(f"{path}: too short for an om file ({len(data)} bytes, expected a {HEADER_SIZE}-byte header)")
    magic, _ver, _r, length, _name, marker = _HEADER.unpack_from(data)
    if magic != MAGIC:
        raise OmError(f"{path}: not an om file (magic 0x{magic:08X}, expected 0x{MAGIC:08X})")
    if marker != MARKER:
        raise OmError(f"{path}: an om file not written by the simulated toolkit")
    try:
        return json.loads(data[HEADER_SIZE : HEADER_SIZE + length])
    except ValueError:
        raise OmError(f"{path}: damaged payload") from None
