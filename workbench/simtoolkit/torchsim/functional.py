"""``torch.nn.functional`` of the simulated torch: each call launches the CANN kernels torch_npu runs for it."""

from __future__ import annotations

from typing import Any

import numpy as np

from workbench.simtoolkit.torchsim import runtime
from workbench.simtoolkit.torchsim.tensor import (
    Tensor,
    _op,
    autocast_dtype,
    autocast_in,
    cast,
    float32,
    grad_enabled,
    int64,
    softmax,  # noqa: F401 - F.softmax
)
from workbench.simtoolkit.torchsim.tensor import relu as tensor_relu


def _spec(shape: Any, kind: str) -> dict[str, Any]:
    return runtime.tensor_spec(tuple(shape), kind)


def _pair(v: Any) -> tuple[int, int]:
    return (int(v[0]), int(v[1])) if isinstance(v, (tuple, list)) else (int(v), int(v))


def _sample(x: np.ndarray, stride: int, ho: int, wo: int) -> np.ndarray:
    """x[..., ::stride, ::stride] cut or edge-padded to (ho, wo): the stand-in for a window op's values."""
    s = x[..., ::stride, ::stride][..., :ho, :wo]
    if s.shape[-2] < ho or s.shape[-1] < wo:
        pad = [(0, 0)] * (s.ndim - 2) + [(0, ho - s.shape[-2]), (0, wo - s.shape[-1])]
        s = np.pad(s, pad, mode="edge")
    return s


def conv2d(
    x: Tensor, weight: Tensor, bias: Tensor | None = None, stride: Any = 1, padding: Any = 0, **_: Any
) -> Tensor:
    x, weight = autocast_in(x, weight)
    (sh, _sw), (ph, pw) = _pair(stride), _pair(padding)
    n, _, h, w = x.data.shape
    cout, cin, kh, kw = weight.data.shape
    ho, wo = (h + 2 * ph - kh) // sh + 1, (w + 2 * pw - kw) // sh + 1
    # not the real convolution: the input's channel mean sampled at the output grid times each filter's mean
    gain = weight.data.reshape(cout, -1).mean(axis=1).astype(np.float32) * np.float32(np.sqrt(cin * kh * kw))
    values = _sample(x.data.mean(axis=1, dtype=np.float32), sh, ho, wo)[:, None] * gain[None, :, None, None]
    if bias is not None:
        values = values + bias.data.reshape(1, -1, 1, 1)
    kind = x.dtype
    out_spec = _spec((n, cout, ho, wo), kind.cann)
    inputs = [x, weight] + ([bias] if bias is not None else [])
    grads = []
    if x.requires_grad:
        grads.append(
            (
                "Conv2DBackpropInput",
                [_spec(x.shape, kind.cann), weight.spec(), out_spec],
                [x.spec()],
                "aclnnConvolutionBackward",
                "aten::convolution_backward",
            )
        )
    grads.append(
        (
            "Conv2DBackpropFilter",
            [x.spec(), _spec(weight.shape, kind.cann), out_spec],
            [weight.spec()],
            "aclnnConvolutionBackward",
            "aten::convolution_backward",
        )
    )
    if bias is not None:
        grads.append(
            ("BiasAddGrad", [out_spec], [bias.spec()], "aclnnConvolutionBackward", "aten::convolution_backward")
        )
    return _op(
        "Conv2D",
        "aclnnConvolution",
        "aten::convolution",
        inputs,
        values.astype(kind.np_type),
        out_dtype=kind,
        backward_kernels=grads,
    )


def linear(x: Tensor, weight: Tensor, bias: Tensor | None = None) -> Tensor:
    x, weight = autocast_in(x, weight)
    values = x.data @ weight.data.T
    if bias is not None:
        values = values + bias.data
    kind = x.dtype
    out_spec = _spec(values.shape, kind.cann)
    grads = [
        ("MatMulV2", [out_spec, weight.spec()], [x.spec()], "aclnnMatmul", "aten::mm"),
        ("MatMulV2", [out_spec, x.spec()], [weight.spec()], "aclnnMatmul", "aten::mm"),
    ]
    if bias is not None:
        grads.append(("ReduceSum", [out_spec], [bias.spec()], "aclnnReduceSum", "aten::sum"))
    inputs = [x, weight] + ([bias] if bias is not None else [])
    return _op(
        "MatMulV2",
        "aclnnAddmm",
        "aten::addmm",
        inputs,
        values.astype(kind.np_type),
        out_dtype=kind,
        backward_kernels=grads,
    )


def relu(x: Tensor, inplace: bool = False) -> Tensor:
    return tensor_relu(x)


def batch_norm(
    x: Tensor,
    running_mean: Tensor | None,
    running_var: Tensor | None,
    weight: Tensor | None = None,
    bias: Tensor | None = None,
    training: bool = False,
    momentum: float = 0.1,
    eps: float = 1e-5,
) -> Tensor:
    c = x.data.shape[1]
    stat = _spec((c,), "FLOAT")
    axes = (0, 2, 3) if x.data.ndim == 4 else (0,)
    shape = (1, c, 1, 1) if x.data.ndim == 4 else (1, c)
    if training:
        mean = x.data.mean(axis=axes, dtype=np.float32)
        var = x.data.var(axis=axes, dtype=np.float32)
        if running_mean is not None and running_var is not None:
            running_mean.data[...] = (1 - momentum) * running_mean.data + momentum * mean
            running_var.data[...] = (1 - momentum) * running_var.data + momentum * var
        if x.device.type == "npu":
            runtime.launch(
                "BNTrainingReduce",
                [x.spec()],
                [stat, stat],
                acl_api="aclnnBatchNorm",
                torch_op="aten::batch_norm",
                device=x.device.index,
            )
        op_type = "BNTrainingUpdate"
    else:
        mean = running_mean.data if running_mean is not None else x.data.mean(axis=axes)
        var = running_var.data if running_var is not None else x.data.var(axis=axes)
        op_type = "BNInfer"
    values = (x.data - mean.reshape(shape)) / np.sqrt(var.reshape(shape) + eps)
    if weight is not None:
        values = values * weight.data.reshape(shape)
    if bias is not None:
        values = values + bias.data.reshape(shape)
    params = [t for t in (weight, bias) if t is not None]
    grads = [
        (
            "BNTrainingUpdateGrad",
            [x.spec(), x.spec(), stat, stat],
            [stat, stat],
            "aclnnBatchNormBackward",
            "aten::native_batch_norm_backward",
        ),
        (
            "BNTrainingReduceGrad",
            [x.spec(), x.spec(), stat, stat, stat, stat, stat],
            [x.spec()],
            "aclnnBatchNormBackward",
            "aten::native_batch_norm_backward",
        ),
    ]
    return _op(
        op_type,
        "aclnnBatchNorm",
        "aten::batch_norm",
        [x, *params],
        values.astype(x.dtype.np_type),
        out_dtype=x.dtype,
        backward_kernels=grads,
    )


def max_pool2d(x: Tensor, kernel_size: Any, stride: Any = None, padding: Any = 0, **_: Any) -> Tensor:
    (kh, kw), (sh, _sw), (ph, pw) = _pair(kernel_size), _pair(stride or kernel_size), _pair(padding)
    n, c, h, w = x.data.shape
    ho, wo = (h + 2 * ph - kh) // sh + 1, (w + 2 * pw - kw) // sh + 1
    values = _sample(x.data, sh, ho, wo)  # a stand-in for the window maximum
    out = _spec((n, c, ho, wo), x.dtype.cann)
    grads = [
        (
            "MaxPoolGradWithArgmaxV1",
            [x.spec(), out, _spec((n, c, ho, wo), "UINT16")],
            [x.spec()],
            "aclnnMaxPool2dWithIndicesBackward",
            "aten::max_pool2d_with_indices_backward",
        )
    ]
    return _op(
        "MaxPoolWithArgmaxV1",
        "aclnnMaxPool2dWithIndices",
        "aten::max_pool2d",
        [x],
        values,
        out_dtype=x.dtype,
        backward_kernels=grads,
    )


def adaptive_avg_pool2d(x: Tensor, output_size: Any) -> Tensor:
    oh, ow = _pair(output_size)
    n, c, h, w = x.data.shape
    if (oh, ow) == (1, 1):
        values = x.data.mean(axis=(2, 3), keepdims=True, dtype=np.float32)
    else:
        values = _sample(x.data, max(1, h // oh), oh, ow)
    grads = [
        (
            "AdaptiveAvgPool2dGrad",
            [_spec((n, c, oh, ow), x.dtype.cann)],
            [x.spec()],
            "aclnnAdaptiveAvgPool2dBackward",
            "aten::_adaptive_avg_pool2d_backward",
        )
    ]
    return _op(
        "AdaptiveAvgPool2d",
        "aclnnAdaptiveAvgPool2d",
        "aten::adaptive_avg_pool2d",
        [x],
        values.astype(x.dtype.np_type),
        out_dtype=x.dtype,
        backward_kernels=grads,
    )


def log_softmax(x: Tensor, dim: int = -1) -> Tensor:
    shifted = x.data - x.data.max(axis=dim, keepdims=True)
    values = shifted - np.log(np.exp(shifted).sum(axis=dim, keepdims=True))
    grads = [
        (
            "LogSoftmaxGrad",
            [x.spec(), x.spec()],
            [x.spec()],
            "aclnnLogSoftmaxBackward",
            "aten::_log_softmax_backward_data",
        )
    ]
    return _op(
        "LogSoftmaxV2", "aclnnLogSoftmax", "aten::log_softmax", [x], values, out_dtype=x.dtype, backward_kernels=grads
    )


def nll_loss(logp: Tensor, target: Tensor, reduction: str = "mean") -> Tensor:
    n = logp.data.shape[0]
    picked = -logp.data[np.arange(n), target.data.astype(np.int64)]
    value = np.asarray(picked.mean() if reduction == "mean" else picked.sum() if reduction == "sum" else picked)
    weight = _spec((logp.data.shape[1],), logp.dtype.cann)
    out = _spec(value.shape, logp.dtype.cann)
    grads = [
        (
            "NLLLossGrad",
            [logp.spec(), out, target.spec(), weight, _spec((), logp.dtype.cann)],
            [logp.spec()],
            "aclnnNLLLossBackward",
            "aten::nll_loss_backward",
        )
    ]
    return _op(
        "NLLLoss",
        "aclnnNLLLoss",
        "aten::nll_loss",
        [logp, target],
        value.astype(logp.dtype.np_type),
        out_dtype=logp.dtype,
        backward_kernels=grads,
    )


def cross_entropy(logits: Tensor, target: Tensor, reduction: str = "mean", **_: Any) -> Tensor:
    if autocast_dtype() is not None and logits.dtype is not float32:
        logits = cast(logits, float32)  # autocast runs the loss in float32
    if target.dtype is not int64 and not target.dtype.is_floating_point:
        target = cast(target, int64)
    return nll_loss(log_softmax(logits, 1), target, reduction)


def dropout(x: Tensor, p: float = 0.5, training: bool = True, inplace: bool = False) -> Tensor:
    if not training or p == 0:
        return x
    mask = _spec(x.data.shape, "UINT8")
    if x.device.type == "npu" and grad_enabled():
        runtime.launch(
            "DropOutGenMaskV3",
            [_spec((2,), "INT32")],
            [mask],
            acl_api="aclnnDropoutGenMask",
            torch_op="aten::dropout",
            device=x.device.index,
        )
    grads = [("DropOutDoMask", [x.spec(), mask], [x.spec()], "aclnnDropoutBackward", "aten::dropout_backward")]
    keep = (np.arange(x.data.size).reshape(x.data.shape) % 100) >= int(p * 100)
    return _op(
        "DropOutDoMask",
        "aclnnDropoutDoMask",
        "aten::dropout",
        [x],
        x.data * keep / (1 - p),
        out_dtype=x.dtype,
        backward_kernels=grads,
    )
