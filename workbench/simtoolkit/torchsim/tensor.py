"""Tensors of the simulated torch: numpy arrays with a torch dtype, a device and a simulated autograd.

Every op on an ``npu`` tensor launches its kernel(s) through :func:`runtime.launch` (CANN op type, aclnn
API, shapes, dtypes). Values: elementwise ops, reductions, matmul, softmax and the loss are computed for
real; convolution and pooling are shape-exact stand-ins (cheap, input-dependent values, not the real
numbers). Backward does not differentiate: it launches the gradient kernels of every op on the way back
(Conv2DBackpropInput / Conv2DBackpropFilter, ReluGrad, BNTrainingUpdateGrad ...) and gives each leaf a
zero gradient of its shape. This is a simulation for profiling and workflow tests, not PyTorch.
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Iterable, Sequence
from typing import Any

import numpy as np

from workbench.simtoolkit.torchsim import runtime


class dtype:  # noqa: N801 - torch's name
    def __init__(self, name: str, np_type: Any, cann: str, floating: bool) -> None:
        self.name, self.np_type, self.cann, self.is_floating_point = name, np.dtype(np_type), cann, floating
        self.itemsize = self.np_type.itemsize

    def __repr__(self) -> str:
        return f"torch.{self.name}"


float32 = dtype("float32", np.float32, "FLOAT", True)
float16 = dtype("float16", np.float16, "FLOAT16", True)
bfloat16 = dtype("bfloat16", np.float32, "DT_BF16", True)  # stored as float32
float64 = dtype("float64", np.float64, "DOUBLE", True)
int64 = dtype("int64", np.int64, "INT64", False)
int32 = dtype("int32", np.int32, "INT32", False)
int8 = dtype("int8", np.int8, "INT8", False)
uint8 = dtype("uint8", np.uint8, "UINT8", False)
bool_ = dtype("bool", np.bool_, "BOOL", False)
_BY_NP = {np.dtype(np.float32): float32, np.dtype(np.float16): float16, np.dtype(np.float64): float64}
_BY_NP.update({np.dtype(np.int64): int64, np.dtype(np.int32): int32, np.dtype(np.int8): int8})
_BY_NP.update({np.dtype(np.uint8): uint8, np.dtype(np.bool_): bool_})


def _dtype_of(array: np.ndarray) -> dtype:
    return _BY_NP.get(array.dtype, float32)


class Size(tuple):
    def numel(self) -> int:
        return int(np.prod(self)) if self else 1

    def __repr__(self) -> str:
        return f"torch.Size({list(self)})"


# --- devices --------------------------------------------------------------------------------------------------------
_cuda_to_npu = {"on": False}  # torch_npu.contrib.transfer_to_npu


class device:  # noqa: N801 - torch's name
    index: int | None
    type: str

    def __init__(self, spec: Any = "cpu", index: int | None = None) -> None:
        if isinstance(spec, device):
            other: device = spec
            spec, index = other.type, other.index if index is None else index
        if isinstance(spec, int):
            spec, index = ("npu" if runtime.npu_registered() else "cuda"), spec
        text = str(spec)
        kind, _, idx = text.partition(":")
        if kind == "cuda" and _cuda_to_npu["on"]:
            kind = "npu"
        if kind not in ("cpu", "cuda", "npu", "meta") or (kind == "npu" and not runtime.npu_registered()):
            raise RuntimeError(
                f"Expected one of cpu, cuda, meta device type at start of device string: {text}"
                + ("" if kind != "npu" else " (import torch_npu registers the npu device)")
            )
        if idx:
            index = int(idx)
        self.type, self.index = kind, index

    def __eq__(self, other: object) -> bool:
        if isinstance(other, str):
            other = device(other)
        return isinstance(other, device) and (self.type, self.index or 0) == (other.type, other.index or 0)

    def __hash__(self) -> int:
        return hash((self.type, self.index or 0))

    def __repr__(self) -> str:
        return f"device(type='{self.type}'" + (f", index={self.index})" if self.index is not None else ")")

    def __str__(self) -> str:
        return self.type + (f":{self.index}" if self.index is not None else "")


CPU = device("cpu")


def _no_cuda() -> AssertionError:
    return AssertionError("Torch not compiled with CUDA enabled")


def resolve_device(spec: Any) -> device:
    d = device(spec)
    if d.type == "cuda":
        raise _no_cuda()
    if d.type == "npu" and d.index is None:
        d = device("npu", runtime.current_device())
    return d


# --- grad mode, autocast --------------------------------------------------------------------------------------------
_mode = threading.local()


def grad_enabled() -> bool:
    return getattr(_mode, "grad", True)


def autocast_dtype() -> dtype | None:
    return getattr(_mode, "autocast", None)


class no_grad(contextlib.ContextDecorator):  # noqa: N801 - torch's name
    def __enter__(self):
        self.prev = grad_enabled()
        _mode.grad = False
        return self

    def __exit__(self, *exc: object) -> None:
        _mode.grad = self.prev


class enable_grad(no_grad):  # noqa: N801
    def __enter__(self):
        self.prev = grad_enabled()
        _mode.grad = True
        return self


class set_grad_enabled(no_grad):  # noqa: N801
    def __init__(self, mode: bool = True) -> None:
        self.mode = mode

    def __enter__(self):
        self.prev = grad_enabled()
        _mode.grad = bool(self.mode)
        return self


class autocast(contextlib.ContextDecorator):  # noqa: N801
    """``torch.autocast`` / ``torch.npu.amp.autocast``: matmuls and convolutions in float16 (Cast kernels
    in front of them), the loss in float32."""

    def __init__(self, device_type: str = "npu", dtype: dtype | None = None, enabled: bool = True, **_: Any) -> None:
        self.dtype = dtype or float16
        self.enabled = enabled

    def __enter__(self):
        self.prev = autocast_dtype()
        if self.enabled:
            _mode.autocast = self.dtype
        return self

    def __exit__(self, *exc: object) -> None:
        _mode.autocast = self.prev


# --- autograd -------------------------------------------------------------------------------------------------------
class _Node:
    __slots__ = ("kernels", "parents")

    def __init__(self, parents: list[Tensor], kernels: list[tuple[str, list, list, str, str]]) -> None:
        self.parents, self.kernels = parents, kernels


_manual = {"rng": np.random.default_rng(0)}


def rng() -> np.random.Generator:
    return _manual["rng"]


def manual_seed(seed: int) -> Any:
    _manual["rng"] = np.random.default_rng(int(seed))
    return None


class Generator:
    def __init__(self, device: Any = "cpu") -> None:
        self.rng = np.random.default_rng(0)

    def manual_seed(self, seed: int) -> Generator:
        self.rng = np.random.default_rng(int(seed))
        return self


def _rng_of(generator: Generator | None) -> np.random.Generator:
    return generator.rng if generator is not None else rng()


class Tensor:
    __array_priority__ = 1000
    data: np.ndarray

    def __init__(self, data: Any, dtype: dtype | None = None, device: device = CPU, requires_grad: bool = False):
        array: np.ndarray = np.asarray(data.data if isinstance(data, Tensor) else data)
        if dtype is None:
            dtype = float32 if array.dtype.kind == "f" else _dtype_of(array)
        self.data = array.astype(dtype.np_type, copy=False)
        self.dtype = dtype
        self.device = device
        self.requires_grad = requires_grad
        self.grad: Tensor | None = None
        self._node: _Node | None = None

    # -- facts
    @property
    def shape(self) -> Size:
        return Size(self.data.shape)

    def size(self, dim: int | None = None):
        return self.shape if dim is None else self.data.shape[dim]

    def dim(self) -> int:
        return self.data.ndim

    ndim = property(dim)

    def numel(self) -> int:
        return int(self.data.size)

    def __len__(self) -> int:
        return len(self.data)

    @property
    def is_npu(self) -> bool:
        return self.device.type == "npu"

    @property
    def is_cuda(self) -> bool:
        return False

    @property
    def is_leaf(self) -> bool:
        return self._node is None

    def is_floating_point(self) -> bool:
        return self.dtype.is_floating_point

    def spec(self) -> dict[str, Any]:
        return runtime.tensor_spec(self.data.shape, self.dtype.cann)

    def __repr__(self) -> str:
        dev = "" if self.device.type == "cpu" else f", device='{self.device}'"
        return f"tensor({np.array2string(self.data, precision=4, threshold=8)}{dev})"

    # -- values
    def item(self):
        if self.data.size != 1:
            raise RuntimeError(f"a Tensor with {self.data.size} elements cannot be converted to Scalar")
        return self.data.reshape(()).item()

    def tolist(self):
        return self.data.tolist()

    def numpy(self) -> np.ndarray:
        if self.device.type != "cpu":
            raise TypeError(f"can't convert {self.device.type}:0 device type tensor to numpy. Use Tensor.cpu() first")
        return self.data

    def __format__(self, spec: str) -> str:
        return format(self.item(), spec) if self.data.size == 1 else format(repr(self), spec)

    def __float__(self) -> float:
        return float(self.item())

    def __int__(self) -> int:
        return int(self.item())

    def __bool__(self) -> bool:
        return bool(self.item())

    def __iter__(self):
        return (self[i] for i in range(len(self)))

    # -- devices and types
    def to(self, *args: Any, non_blocking: bool = False, dtype: dtype | None = None, device: Any = None, **_: Any):
        for a in args:
            if isinstance(a, globals()["dtype"]):
                dtype = a
            elif isinstance(a, Tensor):
                dtype, device = a.dtype, a.device
            else:
                device = a
        out = self
        if device is not None:
            target = resolve_device(device)
            if target != out.device:
                out = Tensor(out.data, out.dtype, target, out.requires_grad)
        if dtype is not None and dtype is not out.dtype:
            out = cast(out, dtype)
        return out

    def cuda(self, device: Any = None, non_blocking: bool = False):
        if not _cuda_to_npu["on"]:
            raise _no_cuda()
        return self.to("npu" if device is None else device)

    def cpu(self):
        return self.to("cpu")

    def type_as(self, other: Tensor):
        return self.to(other.dtype)

    def detach(self):
        return Tensor(self.data, self.dtype, self.device)

    def clone(self):
        return _op("Identity", "aclnnInplaceCopy", "aten::clone", [self], self.data.copy())

    def contiguous(self):
        return self

    def requires_grad_(self, flag: bool = True):
        self.requires_grad = flag
        return self

    # -- shape
    def view(self, *shape: Any):
        return _view(self, self.data.reshape(_shape_arg(shape)))

    reshape = view

    def flatten(self, start_dim: int = 0, end_dim: int = -1):
        s = list(self.data.shape)
        end = end_dim % len(s) if s else 0
        new = s[:start_dim] + [int(np.prod(s[start_dim : end + 1]))] + s[end + 1 :]
        return _view(self, self.data.reshape(new))

    def unsqueeze(self, dim: int):
        return _view(self, np.expand_dims(self.data, dim))

    def squeeze(self, dim: int | None = None):
        return _view(self, self.data.squeeze() if dim is None else np.squeeze(self.data, dim))

    def t(self):
        return _op("Transpose", "aclnnPermute", "aten::t", [self], self.data.T)

    def permute(self, *dims: Any):
        return _op("Transpose", "aclnnPermute", "aten::permute", [self], self.data.transpose(_shape_arg(dims)))

    def __getitem__(self, index: Any):
        if isinstance(index, Tensor):
            index = index.data
        return _op("StridedSlice", "aclnnSlice", "aten::slice", [self], np.asarray(self.data[index]))

    # -- arithmetic
    def __add__(self, other: Any):
        return _binary("Add", "aclnnAdd", "aten::add", self, other, np.add)

    __radd__ = __add__

    def __sub__(self, other: Any):
        return _binary("Sub", "aclnnSub", "aten::sub", self, other, np.subtract)

    def __rsub__(self, other: Any):
        return _binary("Sub", "aclnnSub", "aten::sub", _as_tensor(other, self), self, np.subtract)

    def __mul__(self, other: Any):
        return _binary("Mul", "aclnnMul", "aten::mul", self, other, np.multiply)

    __rmul__ = __mul__

    def __truediv__(self, other: Any):
        return _binary("RealDiv", "aclnnDiv", "aten::div", self, other, np.true_divide)

    def __neg__(self):
        return _op("Neg", "aclnnNeg", "aten::neg", [self], -self.data)

    def __matmul__(self, other: Tensor):
        return matmul(self, other)

    def __eq__(self, other: Any):  # type: ignore[override]
        return _compare("Equal", "aclnnEqTensor", "aten::eq", self, other, np.equal)

    def __ne__(self, other: Any):  # type: ignore[override]
        return _compare("NotEqual", "aclnnNeTensor", "aten::ne", self, other, np.not_equal)

    def __gt__(self, other: Any):
        return _compare("Greater", "aclnnGtTensor", "aten::gt", self, other, np.greater)

    def __lt__(self, other: Any):
        return _compare("Less", "aclnnLtTensor", "aten::lt", self, other, np.less)

    __hash__ = object.__hash__
    eq = __eq__
    ne = __ne__

    def add(self, other: Any, alpha: float = 1):
        return self + other * alpha if alpha != 1 else self + other

    def mul(self, other: Any):
        return self * other

    def div(self, other: Any):
        return self / other

    # -- in place (optimizers, initialisation)
    def zero_(self):
        self.data[...] = 0
        _launch_on(self, "ZerosLike", "aclnnInplaceZero", "aten::zero_", [self], [self.spec()])
        return self

    def fill_(self, value: float):
        self.data[...] = value
        _launch_on(self, "Fill", "aclnnInplaceFillScalar", "aten::fill_", [self], [self.spec()])
        return self

    def copy_(self, src: Tensor):
        self.data[...] = src.data
        _launch_on(self, "ViewCopy", "aclnnInplaceCopy", "aten::copy_", [src], [self.spec()])
        return self

    def add_(self, other: Any, alpha: float = 1):
        self.data += np.asarray(other.data if isinstance(other, Tensor) else other, dtype=self.data.dtype) * alpha
        _launch_on(self, "Add", "aclnnInplaceAdd", "aten::add_", [self], [self.spec()])
        return self

    def mul_(self, other: Any):
        self.data *= np.asarray(other.data if isinstance(other, Tensor) else other, dtype=self.data.dtype)
        _launch_on(self, "Mul", "aclnnInplaceMul", "aten::mul_", [self], [self.spec()])
        return self

    # -- reductions
    def sum(self, dim: int | None = None, keepdim: bool = False, dtype: dtype | None = None):
        src = self
        if not src.dtype.is_floating_point and src.dtype is not int64:
            src = cast(src, int64)  # torch sums integers and bools as int64
        return _reduce("ReduceSum", "aclnnReduceSum", "aten::sum", src, np.sum, dim, keepdim)

    def mean(self, dim: int | None = None, keepdim: bool = False):
        return _reduce("ReduceMean", "aclnnMean", "aten::mean", self, np.mean, dim, keepdim)

    def argmax(self, dim: int | None = None, keepdim: bool = False):
        values = np.asarray(np.argmax(self.data, axis=dim))
        if keepdim and dim is not None:
            values = np.expand_dims(values, dim)
        return _op("ArgMaxV2", "aclnnArgMax", "aten::argmax", [self], values.astype(np.int64), grad=False)

    def max(self, dim: int | None = None, keepdim: bool = False):
        if dim is None:
            return _op("ReduceMax", "aclnnMax", "aten::max", [self], np.asarray(self.data.max()), grad=False)
        values = _op("ReduceMax", "aclnnMaxDim", "aten::max", [self], self.data.max(axis=dim, keepdims=keepdim))
        return values, self.argmax(dim, keepdim)

    def softmax(self, dim: int):
        return softmax(self, dim)

    def relu(self):
        return relu(self)

    def backward(self, gradient: Tensor | None = None) -> None:
        backward(self)

    # torch's names shadow the builtins in the class body: last, so no annotation above means them
    def float(self):
        return self.to(float32)

    def half(self):
        return self.to(float16)

    def long(self):
        return self.to(int64)

    def int(self):
        return self.to(int32)

    def bool(self):
        return self.to(bool_)


# --- helpers ----------------------------------------------------------------------------------------------------------
def _shape_arg(shape: Sequence[Any]) -> tuple[int, ...]:
    if len(shape) == 1 and isinstance(shape[0], (tuple, list)):
        shape = tuple(shape[0])
    return tuple(int(s) for s in shape)


def _as_tensor(value: Any, like: Tensor) -> Tensor:
    if isinstance(value, Tensor):
        return value
    kind = like.dtype if like.dtype.is_floating_point or isinstance(value, int) else float32
    return Tensor(np.asarray(value, dtype=kind.np_type), kind, like.device)


def _on_npu(tensors: Iterable[Tensor]) -> Tensor | None:
    return next((t for t in tensors if t.device.type == "npu"), None)


def _check_devices(tensors: Sequence[Tensor]) -> None:
    kinds = {str(t.device) for t in tensors if t.data.ndim > 0}
    if len(kinds) > 1:
        raise RuntimeError(
            f"Expected all tensors to be on the same device, but found at least two devices, {sorted(kinds)}!"
        )


def _launch_on(
    anchor: Tensor, op_type: str, acl: str, torch_op: str, inputs: Sequence[Tensor], outputs: Sequence[dict]
) -> None:
    if anchor.device.type == "npu":
        runtime.launch(
            op_type,
            [t.spec() for t in inputs],
            list(outputs),
            acl_api=acl,
            torch_op=torch_op,
            device=anchor.device.index,
        )


def _grad_needed(inputs: Sequence[Tensor]) -> bool:
    return grad_enabled() and any(t.requires_grad for t in inputs)


def _op(
    op_type: str,
    acl: str,
    torch_op: str,
    inputs: Sequence[Tensor],
    values: np.ndarray,
    *,
    out_dtype: dtype | None = None,
    grad: bool = True,
    backward_kernels: list[tuple[str, list, list, str, str]] | None = None,
) -> Tensor:
    """The result of one kernel over ``inputs`` (launched when they are on the NPU)."""
    _check_devices(inputs)
    anchor = _on_npu(inputs)
    dev = anchor.device if anchor is not None else (inputs[0].device if inputs else CPU)
    out = Tensor(values, out_dtype or (_dtype_of(np.asarray(values))), dev)
    if anchor is not None:
        runtime.launch(
            op_type, [t.spec() for t in inputs], [out.spec()], acl_api=acl, torch_op=torch_op, device=dev.index
        )
    if grad and _grad_needed(inputs):
        out.requires_grad = True
        kernels = backward_kernels
        if kernels is None:
            kernels = [
                (
                    f"{op_type}Grad",
                    [out.spec(), *[t.spec() for t in inputs]],
                    [inputs[0].spec()],
                    acl + "Backward",
                    torch_op + "_backward",
                )
            ]
        out._node = _Node([t for t in inputs if t.requires_grad], kernels if anchor is not None else [])
    return out


def _view(src: Tensor, values: np.ndarray) -> Tensor:
    """A view (no kernel); the gradient flows through."""
    out = Tensor(values, src.dtype, src.device)
    if _grad_needed([src]):
        out.requires_grad = True
        out._node = _Node([src], [])
    return out


def _result_dtype(a: Tensor, b: Tensor) -> dtype:
    if a.dtype is b.dtype:
        return a.dtype
    if a.dtype.is_floating_point != b.dtype.is_floating_point:
        return a.dtype if a.dtype.is_floating_point else b.dtype
    if b.data.ndim == 0:
        return a.dtype
    if a.data.ndim == 0:
        return b.dtype
    return a.dtype if a.dtype.itemsize >= b.dtype.itemsize else b.dtype


def _binary(op_type: str, acl: str, torch_op: str, a: Tensor, b: Any, fn) -> Tensor:
    b = _as_tensor(b, a)
    kind = _result_dtype(a, b)
    values = fn(a.data, b.data).astype(kind.np_type, copy=False)
    grads = []
    if op_type == "Mul" and _grad_needed([a, b]):
        grads = [("Mul", [a.spec(), b.spec()], [a.spec()], "aclnnMul", "aten::mul_backward")]
    elif op_type == "RealDiv" and _grad_needed([a, b]):
        grads = [("RealDiv", [a.spec(), b.spec()], [a.spec()], "aclnnDiv", "aten::div_backward")]
    return _op(op_type, acl, torch_op, [a, b], values, out_dtype=kind, backward_kernels=grads)


def _compare(op_type: str, acl: str, torch_op: str, a: Tensor, b: Any, fn) -> Tensor:
    b = _as_tensor(b, a)
    return _op(op_type, acl, torch_op, [a, b], fn(a.data, b.data), out_dtype=bool_, grad=False)


def _reduce(op_type: str, acl: str, torch_op: str, src: Tensor, fn, dim: int | None, keepdim: bool) -> Tensor:
    values = np.asarray(fn(src.data, axis=dim, keepdims=keepdim) if dim is not None else fn(src.data))
    kind = src.dtype
    grads = [
        ("BroadcastTo", [runtime.tensor_spec(values.shape, kind.cann)], [src.spec()], "aclnnExpand", "aten::expand")
    ]
    return _op(op_type, acl, torch_op, [src], values.astype(kind.np_type), out_dtype=kind, backward_kernels=grads)


def cast(src: Tensor, kind: dtype) -> Tensor:
    if src.dtype is kind:
        return src
    return _op(
        "Cast",
        "aclnnCast",
        "aten::to",
        [src],
        src.data.astype(kind.np_type),
        out_dtype=kind,
        grad=kind.is_floating_point,
        backward_kernels=[
            ("Cast", [runtime.tensor_spec(src.data.shape, kind.cann)], [src.spec()], "aclnnCast", "aten::to")
        ],
    )


def autocast_in(*tensors: Tensor) -> list[Tensor]:
    """Inputs of a matmul / convolution under autocast: float32 ones cast to the autocast type."""
    kind = autocast_dtype()
    if kind is None:
        return list(tensors)
    return [cast(t, kind) if t.dtype is float32 else t for t in tensors]


def matmul(a: Tensor, b: Tensor) -> Tensor:
    a, b = autocast_in(a, b)
    grads = [
        (
            "MatMulV2",
            [runtime.tensor_spec(np.shape(a.data)[:-1] + np.shape(b.data)[-1:], a.dtype.cann), b.spec()],
            [a.spec()],
            "aclnnMm",
            "aten::mm",
        ),
        (
            "MatMulV2",
            [a.spec(), runtime.tensor_spec(np.shape(a.data)[:-1] + np.shape(b.data)[-1:], a.dtype.cann)],
            [b.spec()],
            "aclnnMm",
            "aten::mm",
        ),
    ]
    return _op(
        "MatMulV2", "aclnnMatmul", "aten::matmul", [a, b], a.data @ b.data, out_dtype=a.dtype, backward_kernels=grads
    )


def relu(x: Tensor) -> Tensor:
    grads = [("ReluGrad", [x.spec(), x.spec()], [x.spec()], "aclnnThresholdBackward", "aten::threshold_backward")]
    return _op("Relu", "aclnnRelu", "aten::relu", [x], np.maximum(x.data, 0), out_dtype=x.dtype, backward_kernels=grads)


def softmax(x: Tensor, dim: int) -> Tensor:
    e = np.exp(x.data - x.data.max(axis=dim, keepdims=True))
    return _op("SoftmaxV2", "aclnnSoftmax", "aten::softmax", [x], e / e.sum(axis=dim, keepdims=True), out_dtype=x.dtype)


def backward(root: Tensor) -> None:
    """Launch the gradient kernels of the graph below ``root`` (last op first); zero gradients on its leaves."""
    if not root.requires_grad:
        raise RuntimeError("element 0 of tensors does not require grad and does not have a grad_fn")
    order: list[Tensor] = []
    seen: set[int] = set()
    stack: list[tuple[Tensor, bool]] = [(root, False)]
    while stack:
        t, done = stack.pop()
        if done:
            order.append(t)
            continue
        if id(t) in seen:
            continue
        seen.add(id(t))
        stack.append((t, True))
        if t._node is not None:
            stack.extend((p, False) for p in t._node.parents)
    dev = root.device.index if root.device.type == "npu" else None
    for t in reversed(order):
        node = t._node
        if node is None:
            if t.requires_grad:
                if t.grad is None:
                    t.grad = Tensor(np.zeros(t.data.shape, t.data.dtype), t.dtype, t.device)
                elif t.device.type == "npu":
                    runtime.launch(
                        "Add",
                        [t.grad.spec(), t.spec()],
                        [t.grad.spec()],
                        acl_api="aclnnInplaceAdd",
                        torch_op="aten::add_",
                        device=t.device.index,
                    )
            continue
        if root.device.type == "npu":
            for op_type, ins, outs, acl, torch_op in node.kernels:
                runtime.launch(op_type, ins, outs, acl_api=acl, torch_op=torch_op, device=dev)
        t._node = None  # the graph is freed after backward, as in torch


# --- creation ---------------------------------------------------------------------------------------------------------
def _new(values: np.ndarray, kind: dtype | None, device_spec: Any, requires_grad: bool) -> Tensor:
    dev = resolve_device(device_spec) if device_spec is not None else CPU
    out = Tensor(values, kind, CPU, requires_grad)
    if dev.type == "npu":
        out.device = dev
        _launch_on(out, "Fill", "aclnnInplaceFillScalar", "aten::empty", [], [out.spec()])
    return out


def tensor(data: Any, dtype: dtype | None = None, device: Any = None, requires_grad: bool = False) -> Tensor:
    values = np.asarray(data.data if isinstance(data, Tensor) else data)
    if dtype is None and values.dtype.kind == "i":
        dtype = int64
    return _new(values, dtype, device, requires_grad)


def randn(
    *size: Any,
    dtype: dtype | None = None,
    device: Any = None,
    requires_grad: bool = False,
    generator: Generator | None = None,
    **_: Any,
) -> Tensor:
    return _new(
        _rng_of(generator).standard_normal(_shape_arg(size), dtype=np.float32), dtype or float32, device, requires_grad
    )


def rand(
    *size: Any,
    dtype: dtype | None = None,
    device: Any = None,
    requires_grad: bool = False,
    generator: Generator | None = None,
    **_: Any,
) -> Tensor:
    return _new(_rng_of(generator).random(_shape_arg(size), dtype=np.float32), dtype or float32, device, requires_grad)


def randint(
    low: int,
    high: int | None = None,
    size: Sequence[int] = (),
    *,
    dtype: dtype | None = None,
    device: Any = None,
    generator: Generator | None = None,
    **_: Any,
) -> Tensor:
    if high is None:
        low, high = 0, low
    return _new(_rng_of(generator).integers(low, high, tuple(size)), dtype or int64, device, False)


def zeros(*size: Any, dtype: dtype | None = None, device: Any = None, requires_grad: bool = False, **_: Any) -> Tensor:
    kind = dtype or float32
    return _new(np.zeros(_shape_arg(size), kind.np_type), kind, device, requires_grad)


def ones(*size: Any, dtype: dtype | None = None, device: Any = None, requires_grad: bool = False, **_: Any) -> Tensor:
    kind = dtype or float32
    return _new(np.ones(_shape_arg(size), kind.np_type), kind, device, requires_grad)


def arange(*args: Any, dtype: dtype | None = None, device: Any = None, **_: Any) -> Tensor:
    values = np.arange(*args)
    return _new(values, dtype or (int64 if values.dtype.kind == "i" else float32), device, False)


def from_numpy(array: np.ndarray) -> Tensor:
    return Tensor(array, _dtype_of(array))


def stack(tensors: Sequence[Tensor], dim: int = 0) -> Tensor:
    return _op(
        "Pack",
        "aclnnStack",
        "aten::stack",
        list(tensors),
        np.stack([t.data for t in tensors], dim),
        out_dtype=tensors[0].dtype,
    )


def cat(tensors: Sequence[Tensor], dim: int = 0) -> Tensor:
    return _op(
        "ConcatD",
        "aclnnCat",
        "aten::cat",
        list(tensors),
        np.concatenate([t.data for t in tensors], dim),
        out_dtype=tensors[0].dtype,
    )


def is_tensor(obj: Any) -> bool:
    return isinstance(obj, Tensor)
