"""How the graph view colours an op: its category by op type (ONNX, om/GE, Caffe and TF names alike)."""

from __future__ import annotations

import re

from PySide6.QtCore import QT_TRANSLATE_NOOP

from workbench.core.graph.model import INPUT, OUTPUT

CONV, MATMUL, ELEMENTWISE, NORM, DATA, CONTROL, OTHER, GROUP = range(8)

# name shown in the legend (source strings, context "GraphLegend"), fill, outline
CATEGORIES: tuple[tuple[object, str, str], ...] = (
    (QT_TRANSLATE_NOOP("GraphLegend", "Convolution"), "#f4b183", "#c55a11"),
    (QT_TRANSLATE_NOOP("GraphLegend", "MatMul"), "#9dc3e6", "#2e75b6"),
    (QT_TRANSLATE_NOOP("GraphLegend", "Elementwise"), "#c5e0b4", "#548235"),
    (QT_TRANSLATE_NOOP("GraphLegend", "Normalisation"), "#d9c3e9", "#7030a0"),
    (QT_TRANSLATE_NOOP("GraphLegend", "Data movement"), "#ffe699", "#bf9000"),
    (QT_TRANSLATE_NOOP("GraphLegend", "Control / I/O"), "#d0cece", "#595959"),
    (QT_TRANSLATE_NOOP("GraphLegend", "Other"), "#ffffff", "#7f7f7f"),
    (QT_TRANSLATE_NOOP("GraphLegend", "Collapsed group"), "#eaeaf7", "#4a4a8a"),
)

_RULES: tuple[tuple[int, re.Pattern[str]], ...] = (
    (CONV, re.compile(r"conv|deconv|pool|depthwise|im2col|col2im", re.I)),
    (MATMUL, re.compile(r"matmul|gemm|fullyconnection|innerproduct|dense|linear|einsum|attention|bmm", re.I)),
    (NORM, re.compile(r"norm|bninfer|bntraining|batchnorm|layernorm|instancenorm|softmax|lrn|dropout", re.I)),
    (
        CONTROL,
        re.compile(
            r"^(if|loop|scan|while|switch|merge|enter|exit|nextiteration|send|recv|netoutput|data|const|constant|"
            r"constantofshape|placeholder|variable|identity|noop|atomicaddrclean|memcpy.*|streamactive|"
            r"streamswitch|label.*|hcom.*|allreduce|allgather|broadcast|input|output)$",
            re.I,
        ),
    ),
    (
        DATA,
        re.compile(
            r"reshape|transpose|transdata|permute|concat|split|slice|gather|scatter|squeeze|unsqueeze|flatten|"
            r"pad|tile|expand|shape|resize|upsample|cast|stridedslice|pack|unpack|depthtospace|spacetodepth|"
            r"broadcastto|where|topk|nonzero|range|onehot",
            re.I,
        ),
    ),
    (
        ELEMENTWISE,
        re.compile(
            r"add|sub|mul|div|relu|sigmoid|tanh|gelu|silu|swish|erf|exp|log|sqrt|rsqrt|pow|abs|neg|max|min|mean|"
            r"sum|reduce|clip|elu|prelu|leakyrelu|hardswish|hardsigmoid|softplus|floor|ceil|round|sign|equal|"
            r"greater|less|and|or|not|xor|reciprocal|square|bias|scale|power|eltwise|random",
            re.I,
        ),
    ),
)


def category(op_type: str) -> int:
    """The colour category of ``op_type``."""
    if op_type in (INPUT, OUTPUT):
        return CONTROL
    for cat, pattern in _RULES:
        if pattern.search(op_type):
            return cat
    return OTHER
