"""Op sequences to profile: the description format, two default workloads and an ONNX importer.

An :class:`Op` is one device kernel as the profiler reports it (name, OP type, accelerator core,
input/output tensors, optional rough duration). A :class:`Workload` is the ordered ops of one
iteration/step plus how it was launched: ``"model"`` (an offline model run with aclmdlExecute, as
after ATC: Model ID 1, node names) or ``"ops"`` (eager single-op launches as torch_npu does: Model ID
4294967295, ``aclnnXxx`` APIs).
"""

from __future__ import annotations

import contextlib
import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

CORES = ("AI_CORE", "AI_VECTOR_CORE", "AI_CPU", "MIX_AIC", "MIX_AIV", "DSA_SQE", "HCCL")
_DTYPE_BYTES = {
    "FLOAT": 4,
    "FLOAT16": 2,
    "DT_BF16": 2,
    "INT8": 1,
    "UINT8": 1,
    "BOOL": 1,
    "INT32": 4,
    "INT64": 8,
    "UINT64": 8,
    "DOUBLE": 8,
    "INT16": 2,
}


@dataclass(frozen=True)
class Tensor:
    """One tensor of an op: shape (``()`` = scalar, shown as an empty shape), data type, format."""

    shape: tuple[int, ...]
    dtype: str = "FLOAT16"
    format: str = "ND"

    @property
    def elements(self) -> int:
        return math.prod(self.shape) if self.shape else 1

    @property
    def nbytes(self) -> int:
        return self.elements * _DTYPE_BYTES.get(self.dtype, 2)


@dataclass(frozen=True)
class Op:
    """One kernel launch. ``duration_us`` None = derived from shapes and the chip's peak rates."""

    name: str
    type: str
    inputs: tuple[Tensor, ...] = ()
    outputs: tuple[Tensor, ...] = ()
    core: str = "AI_CORE"
    duration_us: float | None = None
    torch_op: str = ""  # e.g. "aten::convolution" (torch_npu Python layer); default derived from type
    acl_api: str = ""  # e.g. "aclnnConvolution"; default derived from type
    dynamic: bool = False  # OP State

    def __post_init__(self) -> None:
        if self.core not in CORES:
            raise ValueError(f"op {self.name!r}: core {self.core!r} is not one of {', '.join(CORES)}")
        if self.duration_us is not None and not self.duration_us > 0:
            raise ValueError(f"op {self.name!r}: duration_us must be > 0, got {self.duration_us!r}")
        if not self.torch_op or not self.acl_api:
            t, a = _TORCH_NAMES.get(self.type, (f"aten::{self.type.lower()}", f"aclnn{self.type}"))
            object.__setattr__(self, "torch_op", self.torch_op or t)
            object.__setattr__(self, "acl_api", self.acl_api or a)

    @property
    def flops(self) -> int:
        """Rough arithmetic work: cube ops from their GEMM/conv dims, others one op per element."""
        if self.type in ("Conv2D", "Conv2DBackpropInput") and len(self.inputs) >= 2 and self.outputs:
            w, out = self.inputs[1].shape, self.outputs[0].shape
            if len(w) == 4 and len(out) == 4:
                return 2 * math.prod(out) * w[1] * w[2] * w[3]
        if self.type in ("MatMul", "MatMulV2", "MatMulV3", "BatchMatMul", "BatchMatMulV2") and self.inputs:
            a, out = self.inputs[0].shape, self.outputs[0].shape if self.outputs else ()
            if a and out:
                return 2 * math.prod(out) * a[-1]
        if self.type.startswith("FlashAttention") and self.inputs:
            q = self.inputs[0].shape
            if len(q) == 3:
                return 4 * q[0] * q[0] * q[1] * q[2]
        return sum(t.elements for t in self.outputs) or 1

    @property
    def nbytes(self) -> int:
        return sum(t.nbytes for t in self.inputs) + sum(t.nbytes for t in self.outputs)

    @property
    def is_cube(self) -> bool:
        return self.core in ("AI_CORE", "MIX_AIC") and self.flops > 4 * sum(t.elements for t in self.outputs)


_TORCH_NAMES = {
    "Conv2D": ("aten::convolution", "aclnnConvolution"),
    "Relu": ("aten::relu", "aclnnRelu"),
    "Add": ("aten::add", "aclnnAdd"),
    "MaxPoolV3": ("aten::max_pool2d", "aclnnMaxPool"),
    "ReduceMeanD": ("aten::adaptive_avg_pool2d", "aclnnAdaptiveAvgPool2d"),
    "AdaptiveAvgPool2d": ("aten::adaptive_avg_pool2d", "aclnnAdaptiveAvgPool2d"),
    "MatMulV2": ("aten::addmm", "aclnnAddmm"),
    "MatMulV3": ("aten::mm", "aclnnMm"),
    "BatchMatMul": ("aten::bmm", "aclnnBatchMatMul"),
    "BNInferenceD": ("aten::batch_norm", "aclnnBatchNorm"),
    "TransData": ("aten::npu_format_cast", "aclnnNpuFormatCast"),
    "Cast": ("aten::to", "aclnnCast"),
    "LayerNormV3": ("aten::layer_norm", "aclnnLayerNorm"),
    "SoftmaxV2": ("aten::softmax", "aclnnSoftmax"),
    "FlashAttentionScore": ("npu::npu_fusion_attention", "aclnnFlashAttentionScore"),
    "FastGelu": ("aten::gelu", "aclnnGelu"),
    "Mul": ("aten::mul", "aclnnMul"),
    "RealDiv": ("aten::div", "aclnnDiv"),
    "Transpose": ("aten::permute", "aclnnPermute"),
    "ArgMaxV2": ("aten::argmax", "aclnnArgMax"),
    "GatherV2": ("aten::embedding", "aclnnEmbedding"),
}


@dataclass(frozen=True)
class Workload:
    """The ops of one iteration and the launch style (``"model"`` or ``"ops"``)."""

    name: str
    ops: tuple[Op, ...]
    kind: str = "model"
    model_name: str = ""
    inputs: tuple[Tensor, ...] = field(default=())

    def __post_init__(self) -> None:
        if self.kind not in ("model", "ops"):
            raise ValueError(f"workload {self.name!r}: kind must be 'model' or 'ops', got {self.kind!r}")
        if not self.ops:
            raise ValueError(f"workload {self.name!r}: has no ops")

    @classmethod
    def from_dicts(cls, name: str, ops: Iterable[Mapping], kind: str = "model") -> Workload:
        """Build from plain data (e.g. what the simulated atc stored in an .om): each op a mapping with
        ``name, type`` and optional ``core, duration_us, inputs, outputs`` (tensors as
        ``{"shape": [..], "dtype": .., "format": ..}``)."""
        built = []
        for i, d in enumerate(ops):
            try:
                built.append(
                    Op(
                        name=str(d["name"]),
                        type=str(d["type"]),
                        core=str(d.get("core", "AI_CORE")),
                        duration_us=d.get("duration_us"),
                        inputs=tuple(_tensor(t) for t in d.get("inputs", ())),
                        outputs=tuple(_tensor(t) for t in d.get("outputs", ())),
                        torch_op=str(d.get("torch_op", "")),
                        acl_api=str(d.get("acl_api", "")),
                        dynamic=bool(d.get("dynamic", False)),
                    )
                )
            except KeyError as exc:
                raise ValueError(f"workload {name!r}: op #{i} lacks field {exc.args[0]!r}") from None
        return cls(name, tuple(built), kind, model_name=name)


def _tensor(d: Mapping | Tensor) -> Tensor:
    if isinstance(d, Tensor):
        return d
    return Tensor(tuple(int(x) for x in d.get("shape", ())), str(d.get("dtype", "FLOAT16")), str(d.get("format", "ND")))


# ---- default workloads ---------------------------------------------------------------------------


def _conv_out(h: int, k: int, s: int) -> int:
    return (h + 2 * (k // 2) - k) // s + 1


class _Builder:
    """Accumulates ops while tracking the activation shape (NCHW) through a CNN."""

    def __init__(self, style: str, dtype: str):
        self.style, self.dtype, self.ops = style, dtype, []

    def fmt(self, rank: int) -> str:
        if self.style == "model" and rank in (4, 5):
            return "NC1HWC0"
        return "NCHW" if rank == 4 else "ND"

    def add(
        self,
        name: str,
        typ: str,
        ins: Sequence[tuple[int, ...]],
        outs: Sequence[tuple[int, ...]],
        core: str,
        wfmt: str | None = None,
    ) -> None:
        it = tuple(Tensor(s, self.dtype, wfmt if (wfmt and i == 1) else self.fmt(len(s))) for i, s in enumerate(ins))
        ot = tuple(Tensor(s, self.dtype, self.fmt(len(s))) for s in outs)
        self.ops.append(Op(name, typ, it, ot, core))


def resnet50_workload(
    batch: int = 1,
    kind: str = "model",
    dtype: str = "FLOAT16",
    image: int = 224,
    blocks: tuple[int, int, int, int] = (3, 4, 6, 3),
) -> Workload:
    """ResNet-50 inference as it runs after ATC (conv+BN+ReLU fused into Conv2D, NC1HWC0 activations)
    with ``kind="model"``, or eager torch_npu style (separate BatchNorm/ReLU, NCHW) with ``kind="ops"``.
    ``blocks`` = bottleneck blocks per stage; fewer gives a smaller ResNet-like net."""
    b = _Builder(kind, dtype)
    fused = kind == "model"
    n, c, h = batch, 3, image

    def conv(name: str, cout: int, k: int, s: int, relu: bool = True) -> None:
        nonlocal c, h
        ho = _conv_out(h, k, s)
        src, dst = (n, c, h, h), (n, cout, ho, ho)
        b.add(
            f"{name}" if fused else f"{name}/Conv2D",
            "Conv2D",
            [src, (cout, c, k, k), (cout,)],
            [dst],
            "AI_CORE",
            wfmt="FRACTAL_Z" if fused else "NCHW",
        )
        if not fused:
            b.add(f"{name}/BatchNorm", "BNInferenceD", [dst, (cout,), (cout,)], [dst], "AI_VECTOR_CORE")
            if relu:
                b.add(f"{name}/Relu", "Relu", [dst], [dst], "AI_VECTOR_CORE")
        c, h = cout, ho

    if fused:
        b.add("trans_TransData_0", "TransData", [(n, 3, image, image)], [(n, 1, image, image, 16)], "AI_VECTOR_CORE")
    conv("conv1", 64, 7, 2)
    ho = (h - 1) // 2 + 1
    b.add("pool1" if fused else "maxpool/MaxPool", "MaxPoolV3", [(n, c, h, h)], [(n, c, ho, ho)], "AI_VECTOR_CORE")
    h = ho
    for stage, (count, width) in enumerate(zip(blocks, (64, 128, 256, 512)), start=2):
        for i in range(count):
            stride = 2 if (i == 0 and stage > 2) else 1
            cin, hin = c, h
            prefix = f"res{stage}{chr(ord('a') + i)}"
            conv(f"{prefix}_branch2a", width, 1, 1)
            conv(f"{prefix}_branch2b", width, 3, stride)
            conv(f"{prefix}_branch2c", width * 4, 1, 1, relu=False)
            main = (n, c, h, h)
            if i == 0:
                c, h = cin, hin
                conv(f"{prefix}_branch1", width * 4, 1, stride, relu=False)
            b.add(f"{prefix}" if fused else f"{prefix}/Add", "Add", [main, main], [main], "AI_VECTOR_CORE")
            if not fused:
                b.add(f"{prefix}/Relu", "Relu", [main], [main], "AI_VECTOR_CORE")
    b.add(
        "pool5" if fused else "avgpool/AdaptiveAvgPool2d",
        "ReduceMeanD" if fused else "AdaptiveAvgPool2d",
        [(n, c, h, h)],
        [(n, c, 1, 1)],
        "AI_VECTOR_CORE",
    )
    b.add("fc1000" if fused else "fc/Addmm", "MatMulV2", [(n, c), (1000, c), (1000,)], [(n, 1000)], "AI_CORE")
    if fused:
        b.add("prob", "SoftmaxV2", [(n, 1000)], [(n, 1000)], "AI_VECTOR_CORE")
    else:
        b.ops.append(
            Op(
                "argmax/ArgMax",
                "ArgMaxV2",
                (Tensor((n, 1000), dtype, "ND"), Tensor((), "INT64", "ND")),
                (Tensor((n,), "INT64", "ND"),),
                "AI_CPU",
            )
        )
    return Workload(
        "resnet50", tuple(b.ops), kind, model_name="resnet50", inputs=(Tensor((n, 3, image, image), dtype, "NCHW"),)
    )


def transformer_workload(
    layers: int = 2, seq: int = 512, hidden: int = 1024, heads: int = 16, batch: int = 1, dtype: str = "DT_BF16"
) -> Workload:
    """A small decoder-style transformer forward pass in torch_npu eager style (aclnn kernels,
    FlashAttentionScore as MIX_AIC, dynamic shapes)."""
    t = batch * seq
    ops: list[Op] = []

    def op(name: str, typ: str, ins: list[tuple], outs: list[tuple], core: str, acl: str, torch: str) -> None:
        ops.append(
            Op(
                f"{acl}_{name}",
                typ,
                tuple(Tensor(s, dtype, "ND") for s in ins),
                tuple(Tensor(s, dtype, "ND") for s in outs),
                core,
                torch_op=torch,
                acl_api=acl,
                dynamic=True,
            )
        )

    ops.append(
        Op(
            "aclnnEmbedding_GatherV2AiCore_GatherV2",
            "GatherV2",
            (Tensor((32000, hidden), dtype, "ND"), Tensor((batch, seq), "INT64", "ND")),
            (Tensor((batch, seq, hidden), dtype, "ND"),),
            "AI_VECTOR_CORE",
            dynamic=True,
        )
    )
    for _ in range(layers):
        op(
            "LayerNormV3AiCore_LayerNormV3",
            "LayerNormV3",
            [(t, hidden), (hidden,), (hidden,)],
            [(t, hidden)],
            "AI_VECTOR_CORE",
            "aclnnLayerNorm",
            "aten::layer_norm",
        )
        op(
            "MatMulV3Common_MatMulV3",
            "MatMulV3",
            [(t, hidden), (hidden, 3 * hidden)],
            [(t, 3 * hidden)],
            "AI_CORE",
            "aclnnMm",
            "aten::mm",
        )
        ops.append(
            Op(
                "aclnnFlashAttentionScore_FlashAttentionScore_FlashAttentionScore",
                "FlashAttentionScore",
                tuple(Tensor((seq, batch, hidden), dtype, "NCL") for _ in range(3))
                + (Tensor((), "UINT8", "ND"), Tensor((seq, seq), "BOOL", "ND")),
                (
                    Tensor((batch, heads, seq, 8), "FLOAT", "ND"),
                    Tensor((batch, heads, seq, 8), "FLOAT", "ND"),
                    Tensor((), dtype, "ND"),
                    Tensor((seq, batch, hidden), dtype, "ND"),
                ),
                "MIX_AIC",
                dynamic=True,
            )
        )
        op(
            "MatMulCommon_MatMulV2",
            "MatMulV2",
            [(t, hidden), (hidden, hidden)],
            [(t, hidden)],
            "AI_CORE",
            "aclnnMatmul",
            "aten::matmul",
        )
        op("AddAiCore_Add", "Add", [(t, hidden), (t, hidden)], [(t, hidden)], "AI_VECTOR_CORE", "aclnnAdd", "aten::add")
        op(
            "LayerNormV3AiCore_LayerNormV3",
            "LayerNormV3",
            [(t, hidden), (hidden,), (hidden,)],
            [(t, hidden)],
            "AI_VECTOR_CORE",
            "aclnnLayerNorm",
            "aten::layer_norm",
        )
        op(
            "MatMulV3Common_MatMulV3",
            "MatMulV3",
            [(t, hidden), (hidden, 4 * hidden)],
            [(t, 4 * hidden)],
            "AI_CORE",
            "aclnnMm",
            "aten::mm",
        )
        op(
            "FastGeluAiCore_FastGelu",
            "FastGelu",
            [(t, 4 * hidden)],
            [(t, 4 * hidden)],
            "AI_VECTOR_CORE",
            "aclnnGelu",
            "aten::gelu",
        )
        op(
            "MatMulV3Common_MatMulV3",
            "MatMulV3",
            [(t, 4 * hidden), (4 * hidden, hidden)],
            [(t, hidden)],
            "AI_CORE",
            "aclnnMm",
            "aten::mm",
        )
        op("AddAiCore_Add", "Add", [(t, hidden), (t, hidden)], [(t, hidden)], "AI_VECTOR_CORE", "aclnnAdd", "aten::add")
    op(
        "MatMulV3Common_MatMulV3",
        "MatMulV3",
        [(t, hidden), (hidden, 32000)],
        [(t, 32000)],
        "AI_CORE",
        "aclnnMm",
        "aten::mm",
    )
    ops.append(
        Op(
            "aclnnArgMax_ArgMaxV2AiCpu_ArgMaxV2",
            "ArgMaxV2",
            (Tensor((t, 32000), dtype, "ND"), Tensor((), "INT64", "ND")),
            (Tensor((t,), "INT64", "ND"),),
            "AI_CPU",
            dynamic=True,
        )
    )
    return Workload("transformer", tuple(ops), "ops", model_name="transformer")


def _comm_op(kind: str, index: int, elements: int, dtype: str) -> Op:
    """One communication operator named as HCCL names them (``hcom_allReduce__586_0_1``)."""
    torch_op, api = _COMM_NAMES[kind]
    return Op(
        f"hcom_{kind}__586_{index}_1",
        f"hcom_{kind}_",
        (Tensor((elements,), dtype, "ND"),),
        (Tensor((elements,), dtype, "ND"),),
        "HCCL",
        torch_op=torch_op,
        acl_api=api,
    )


_COMM_NAMES = {
    "allReduce": ("c10d::allreduce_", "HcclAllReduce"),
    "allGather": ("c10d::allgather_", "HcclAllGather"),
    "reduceScatter": ("c10d::reduce_scatter_", "HcclReduceScatter"),
    "broadcast": ("c10d::broadcast_", "HcclBroadcast"),
    "send": ("c10d::send", "HcclSend"),
    "receive": ("c10d::recv_", "HcclRecv"),
}


def _insert(ops: tuple[Op, ...], at: dict[int, list[Op]]) -> tuple[Op, ...]:
    """``ops`` with ``at[i]`` placed after op ``i - 1`` (``at[0]`` first, ``at[len(ops)]`` last)."""
    out: list[Op] = list(at.get(0, []))
    for i, op in enumerate(ops, start=1):
        out.append(op)
        out += at.get(i, [])
    return tuple(out)


def data_parallel(workload: Workload, buckets: int = 2, bucket_elements: int = 4 << 20) -> Workload:
    """``workload`` with ``buckets`` gradient AllReduce operators (core ``HCCL``) as a data-parallel
    training step runs them: bucket ``i`` of ``hcom_allReduce__586_{i}_1`` (type ``hcom_allReduce_``, the
    names of samples/torch_npu-910B-rank0-comm-mem) launched once ``(i + 1) / buckets`` of the ops ran (the
    last at the end), overlapping the compute after it. Written with a rank and ``world_size``, the
    torch_npu writer adds their communication lanes and files (:mod:`.hccl`, :mod:`.commfiles`)."""
    dtype = workload.ops[0].outputs[0].dtype if workload.ops and workload.ops[0].outputs else "FLOAT16"
    n = len(workload.ops)
    at: dict[int, list[Op]] = {}
    for i in range(buckets):
        at.setdefault(n * (i + 1) // buckets, []).append(_comm_op("allReduce", i, bucket_elements, dtype))
    return Workload(
        f"{workload.name}_dp", _insert(workload.ops, at), workload.kind, workload.model_name, workload.inputs
    )


def mixed_parallel(workload: Workload, buckets: int = 2, bucket_elements: int = 4 << 20) -> Workload:
    """:func:`data_parallel` plus one of each other HCCL operator a hybrid-parallel step runs: a
    ``broadcast`` first (small), an ``allGather`` of parameters after a quarter of the ops, a
    ``reduceScatter`` of gradients after three quarters, and a ``send`` / ``receive`` pair of activations
    (a pipeline boundary: p2p) before the end."""
    dp = data_parallel(workload, buckets, bucket_elements)
    dtype = dp.ops[0].outputs[0].dtype if dp.ops and dp.ops[0].outputs else "FLOAT16"
    n = len(dp.ops)
    at = {
        0: [_comm_op("broadcast", 0, 1 << 16, dtype)],
        n // 4: [_comm_op("allGather", 0, bucket_elements, dtype)],
        3 * n // 4: [_comm_op("reduceScatter", 0, bucket_elements, dtype)],
        n - 1: [_comm_op("send", 0, 1 << 18, dtype), _comm_op("receive", 0, 1 << 18, dtype)],
    }
    return Workload(f"{workload.name}_hp", _insert(dp.ops, at), dp.kind, dp.model_name, dp.inputs)


# ---- ONNX ------------------------------------------------------------------------------------------

ONNX_TYPES = {
    "Conv": ("Conv2D", "AI_CORE"),
    "ConvTranspose": ("Conv2DBackpropInput", "AI_CORE"),
    "Gemm": ("MatMulV2", "AI_CORE"),
    "MatMul": ("BatchMatMul", "AI_CORE"),
    "Relu": ("Relu", "AI_VECTOR_CORE"),
    "Sigmoid": ("Sigmoid", "AI_VECTOR_CORE"),
    "Add": ("Add", "AI_VECTOR_CORE"),
    "Sub": ("Sub", "AI_VECTOR_CORE"),
    "Mul": ("Mul", "AI_VECTOR_CORE"),
    "Div": ("RealDiv", "AI_VECTOR_CORE"),
    "MaxPool": ("MaxPoolV3", "AI_VECTOR_CORE"),
    "AveragePool": ("AvgPoolV2", "AI_VECTOR_CORE"),
    "GlobalAveragePool": ("ReduceMeanD", "AI_VECTOR_CORE"),
    "BatchNormalization": ("BNInferenceD", "AI_VECTOR_CORE"),
    "Softmax": ("SoftmaxV2", "AI_VECTOR_CORE"),
    "Concat": ("ConcatD", "AI_VECTOR_CORE"),
    "Transpose": ("TransposeD", "AI_VECTOR_CORE"),
    "Cast": ("Cast", "AI_VECTOR_CORE"),
    "LayerNormalization": ("LayerNormV3", "AI_VECTOR_CORE"),
    "Gelu": ("FastGelu", "AI_VECTOR_CORE"),
    "Tanh": ("Tanh", "AI_VECTOR_CORE"),
    "Resize": ("ResizeBilinearV2", "AI_VECTOR_CORE"),
    "TopK": ("TopKV2", "AI_CPU"),
    "NonMaxSuppression": ("NonMaxSuppressionV6", "AI_CPU"),
    "ArgMax": ("ArgMaxV2", "AI_CPU"),
}
# Shape-only ONNX nodes that ATC folds away: no device task.
_NO_KERNEL = {"Reshape", "Flatten", "Squeeze", "Unsqueeze", "Identity", "Constant", "Shape", "Dropout"}
_ONNX_DTYPES = {1: "FLOAT", 10: "FLOAT16", 16: "DT_BF16", 3: "INT8", 2: "UINT8", 6: "INT32", 7: "INT64", 9: "BOOL"}


def workload_from_onnx(model, kind: str = "model", dtype: str | None = "FLOAT16") -> Workload:
    """Ops from an ONNX model (an ``onnx.ModelProto`` or a path): one task per computing node, OP types
    mapped to their CANN names, shapes from ONNX shape inference where available. ``dtype`` overrides
    float tensor types (ATC's default force_fp16); None keeps the model's."""
    import onnx  # local import: only this function needs it

    if not isinstance(model, onnx.ModelProto):
        path = str(model)
        try:
            model = onnx.load(path)
        except Exception as exc:  # noqa: BLE001 - report any parse failure with the file named
            raise ValueError(f"{path}: not a readable ONNX model ({exc})") from None
    with contextlib.suppress(Exception):  # shapes are optional; ops without them get empty shapes
        model = onnx.shape_inference.infer_shapes(model)
    g = model.graph
    known: dict[str, Tensor] = {}
    for vi in list(g.input) + list(g.value_info) + list(g.output):
        tt = vi.type.tensor_type
        dims = tuple(d.dim_value if d.dim_value > 0 else 1 for d in tt.shape.dim)
        known[vi.name] = _onnx_tensor(dims, tt.elem_type, dtype)
    for init in g.initializer:
        known[init.name] = _onnx_tensor(tuple(init.dims), init.data_type, dtype)
    ops = []
    for i, node in enumerate(g.node):
        if node.op_type in _NO_KERNEL:
            continue
        typ, core = ONNX_TYPES.get(node.op_type, (node.op_type, "AI_VECTOR_CORE"))
        ins = tuple(known.get(x, Tensor((), dtype or "FLOAT", "ND")) for x in node.input if x)
        outs = tuple(known.get(x, Tensor((), dtype or "FLOAT", "ND")) for x in node.output if x)
        if kind == "model":
            ins = tuple(Tensor(t.shape, t.dtype, "NC1HWC0" if len(t.shape) == 4 else t.format) for t in ins)
            outs = tuple(Tensor(t.shape, t.dtype, "NC1HWC0" if len(t.shape) == 4 else t.format) for t in outs)
        ops.append(Op(node.name or f"{node.op_type}_{i}", typ, ins, outs, core))
    if not ops:
        raise ValueError(f"ONNX graph {g.name!r}: no computing nodes to profile")
    name = g.name or "model"
    return Workload(name, tuple(ops), kind, model_name=name)


def _onnx_tensor(dims: tuple[int, ...], elem_type: int, override: str | None) -> Tensor:
    dt = _ONNX_DTYPES.get(elem_type, "FLOAT")
    if override and dt in ("FLOAT", "FLOAT16", "DT_BF16"):
        dt = override
    return Tensor(dims, dt, "NCHW" if len(dims) == 4 else "ND")
