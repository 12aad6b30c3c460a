"""``torch.nn`` of the simulated torch: Module, Parameter and the layers a migrated CNN trainer uses."""

from __future__ import annotations

import math
from collections import OrderedDict
from collections.abc import Iterator
from typing import Any

import numpy as np

from workbench.simtoolkit.torchsim import functional as fn
from workbench.simtoolkit.torchsim.tensor import Tensor, float32, resolve_device, rng


class Parameter(Tensor):
    def __init__(self, data: Any = None, requires_grad: bool = True) -> None:
        src = data if isinstance(data, Tensor) else Tensor(np.zeros(0, np.float32) if data is None else data)
        super().__init__(src.data, src.dtype, src.device, requires_grad)


def _uniform(shape: tuple[int, ...], fan_in: int) -> np.ndarray:
    bound = 1.0 / math.sqrt(max(1, fan_in))
    return rng().uniform(-bound, bound, shape).astype(np.float32)


class Module:
    training = True

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        object.__setattr__(self, "_parameters", OrderedDict())
        object.__setattr__(self, "_buffers", OrderedDict())
        object.__setattr__(self, "_modules", OrderedDict())
        object.__setattr__(self, "training", True)

    def __setattr__(self, name: str, value: Any) -> None:
        if "_parameters" not in self.__dict__:
            Module.__init__(self)
        for store in ("_parameters", "_buffers", "_modules"):
            self.__dict__[store].pop(name, None)
        if isinstance(value, Parameter):
            self._parameters[name] = value
        elif isinstance(value, Module):
            self._modules[name] = value
        else:
            object.__setattr__(self, name, value)

    def __getattr__(self, name: str) -> Any:
        d = self.__dict__
        for store in ("_parameters", "_buffers", "_modules"):
            if store in d and name in d[store]:
                return d[store][name]
        raise AttributeError(f"'{type(self).__name__}' object has no attribute '{name}'")

    def register_buffer(self, name: str, value: Tensor | None, persistent: bool = True) -> None:
        if "_parameters" not in self.__dict__:
            Module.__init__(self)
        self._buffers[name] = value

    def register_parameter(self, name: str, value: Parameter | None) -> None:
        self._parameters[name] = value

    def add_module(self, name: str, module: Module) -> None:
        self._modules[name] = module

    def forward(self, *args: Any, **kwargs: Any) -> Any:
        raise NotImplementedError(f'Module [{type(self).__name__}] is missing the required "forward" function')

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        return self.forward(*args, **kwargs)

    # -- traversal
    def named_modules(self, prefix: str = "") -> Iterator[tuple[str, Module]]:
        yield prefix, self
        for name, m in self._modules.items():
            if m is not None:
                yield from m.named_modules(f"{prefix}.{name}" if prefix else name)

    def modules(self) -> Iterator[Module]:
        return (m for _, m in self.named_modules())

    def children(self) -> Iterator[Module]:
        return iter([m for m in self._modules.values() if m is not None])

    def named_parameters(self, prefix: str = "", recurse: bool = True) -> Iterator[tuple[str, Parameter]]:
        for mod_name, m in self.named_modules(prefix) if recurse else [(prefix, self)]:
            for name, p in m._parameters.items():
                if p is not None:
                    yield (f"{mod_name}.{name}" if mod_name else name), p

    def parameters(self, recurse: bool = True) -> Iterator[Parameter]:
        return (p for _, p in self.named_parameters(recurse=recurse))

    def named_buffers(self) -> Iterator[tuple[str, Tensor]]:
        for mod_name, m in self.named_modules():
            for name, b in m._buffers.items():
                if b is not None:
                    yield (f"{mod_name}.{name}" if mod_name else name), b

    def state_dict(self) -> OrderedDict[str, Tensor]:
        out: OrderedDict[str, Tensor] = OrderedDict()
        for name, p in self.named_parameters():
            out[name] = p.detach()
        for name, b in self.named_buffers():
            out[name] = b.detach()
        return out

    def load_state_dict(self, state: dict[str, Any], strict: bool = True) -> Any:
        mine = dict(self.named_parameters()) | dict(self.named_buffers())
        missing = [k for k in mine if k not in state]
        if strict and missing:
            raise RuntimeError(f"Error(s) in loading state_dict: Missing key(s): {', '.join(missing)}")
        for k, v in state.items():
            if k in mine:
                mine[k].data[...] = v.data if isinstance(v, Tensor) else v
        return None

    # -- modes and devices
    def train(self, mode: bool = True) -> Module:
        for m in self.modules():
            object.__setattr__(m, "training", mode)
        return self

    def eval(self) -> Module:
        return self.train(False)

    def to(self, *args: Any, **kwargs: Any) -> Module:
        target = kwargs.get("device")
        for a in args:
            if not hasattr(a, "np_type"):
                target = a
        if target is None:
            return self
        dev = resolve_device(target)
        for t in [*self.parameters(), *(b for _, b in self.named_buffers())]:
            t.device = dev
        return self

    def cuda(self, device: Any = None) -> Module:
        from workbench.simtoolkit.torchsim.tensor import _cuda_to_npu, _no_cuda

        if not _cuda_to_npu["on"]:
            raise _no_cuda()
        return self.to("npu" if device is None else device)

    def npu(self, device: Any = None) -> Module:
        return self.to("npu" if device is None else device)

    def cpu(self) -> Module:
        return self.to("cpu")

    def zero_grad(self, set_to_none: bool = True) -> None:
        for p in self.parameters():
            p.grad = None

    def apply(self, fn: Any) -> Module:
        for m in self.modules():
            fn(m)
        return self

    def __repr__(self) -> str:
        return f"{type(self).__name__}()"


class _Container(Module):
    """Its sub-modules in order: iterated, counted and indexed as torch's containers are."""

    def __iter__(self) -> Iterator[Module]:
        return iter(self._modules.values())

    def __len__(self) -> int:
        return len(self._modules)

    def __getitem__(self, i: int) -> Module:
        return list(self._modules.values())[i]


class Sequential(_Container):
    def __init__(self, *modules: Module) -> None:
        super().__init__()
        for i, m in enumerate(modules):
            self._modules[str(i)] = m

    def forward(self, x: Any) -> Any:
        for m in self._modules.values():
            x = m(x)
        return x


class ModuleList(_Container):
    def __init__(self, modules: Any = ()) -> None:
        super().__init__()
        for i, m in enumerate(modules):
            self._modules[str(i)] = m

    def append(self, m: Module) -> ModuleList:
        self._modules[str(len(self._modules))] = m
        return self


class Identity(Module):
    def forward(self, x: Any) -> Any:
        return x


class Linear(Module):
    def __init__(self, in_features: int, out_features: int, bias: bool = True, **_: Any) -> None:
        super().__init__()
        self.in_features, self.out_features = in_features, out_features
        self.weight = Parameter(_uniform((out_features, in_features), in_features))
        self.bias = Parameter(_uniform((out_features,), in_features)) if bias else None

    def forward(self, x: Tensor) -> Tensor:
        return fn.linear(x, self.weight, self.bias)


class Conv2d(Module):
    def __init__(
        self,
        in_channels: int,
        out_channels: int,
        kernel_size: Any,
        stride: Any = 1,
        padding: Any = 0,
        bias: bool = True,
        **_: Any,
    ) -> None:
        super().__init__()
        kh, kw = fn._pair(kernel_size)
        self.stride, self.padding = stride, padding
        fan_in = in_channels * kh * kw
        self.weight = Parameter(_uniform((out_channels, in_channels, kh, kw), fan_in))
        self.bias = Parameter(_uniform((out_channels,), fan_in)) if bias else None

    def forward(self, x: Tensor) -> Tensor:
        return fn.conv2d(x, self.weight, self.bias, self.stride, self.padding)


class _BatchNorm(Module):
    def __init__(self, num_features: int, eps: float = 1e-5, momentum: float = 0.1, affine: bool = True, **_: Any):
        super().__init__()
        self.eps, self.momentum = eps, momentum
        self.weight = Parameter(np.ones(num_features, np.float32)) if affine else None
        self.bias = Parameter(np.zeros(num_features, np.float32)) if affine else None
        self.register_buffer("running_mean", Tensor(np.zeros(num_features, np.float32), float32))
        self.register_buffer("running_var", Tensor(np.ones(num_features, np.float32), float32))

    def forward(self, x: Tensor) -> Tensor:
        return fn.batch_norm(
            x, self.running_mean, self.running_var, self.weight, self.bias, self.training, self.momentum, self.eps
        )


class BatchNorm2d(_BatchNorm):
    pass


class BatchNorm1d(_BatchNorm):
    pass


class SyncBatchNorm(_BatchNorm):
    @classmethod
    def convert_sync_batchnorm(cls, module: Module, process_group: Any = None) -> Module:
        return module  # one process: nothing to synchronise


class ReLU(Module):
    def __init__(self, inplace: bool = False) -> None:
        super().__init__()

    def forward(self, x: Tensor) -> Tensor:
        return fn.relu(x)


class MaxPool2d(Module):
    def __init__(self, kernel_size: Any, stride: Any = None, padding: Any = 0, **_: Any) -> None:
        super().__init__()
        self.kernel_size, self.stride, self.padding = kernel_size, stride, padding

    def forward(self, x: Tensor) -> Tensor:
        return fn.max_pool2d(x, self.kernel_size, self.stride, self.padding)


class AdaptiveAvgPool2d(Module):
    def __init__(self, output_size: Any) -> None:
        super().__init__()
        self.output_size = output_size

    def forward(self, x: Tensor) -> Tensor:
        return fn.adaptive_avg_pool2d(x, self.output_size)


class Flatten(Module):
    def __init__(self, start_dim: int = 1, end_dim: int = -1) -> None:
        super().__init__()
        self.start_dim, self.end_dim = start_dim, end_dim

    def forward(self, x: Tensor) -> Tensor:
        return x.flatten(self.start_dim, self.end_dim)


class Dropout(Module):
    def __init__(self, p: float = 0.5, inplace: bool = False) -> None:
        super().__init__()
        self.p = p

    def forward(self, x: Tensor) -> Tensor:
        return fn.dropout(x, self.p, self.training)


class CrossEntropyLoss(Module):
    def __init__(self, reduction: str = "mean", **_: Any) -> None:
        super().__init__()
        self.reduction = reduction

    def forward(self, logits: Tensor, target: Tensor) -> Tensor:
        return fn.cross_entropy(logits, target, self.reduction)


class _Parallel:
    """``torch.nn.parallel``."""

    class DistributedDataParallel(Module):
        def __init__(self, module: Module, device_ids: Any = None, **_: Any) -> None:
            super().__init__()
            self.module = module

        def forward(self, *args: Any, **kwargs: Any) -> Any:
            return self.module(*args, **kwargs)

    DataParallel = DistributedDataParallel


parallel = _Parallel()
functional = fn
