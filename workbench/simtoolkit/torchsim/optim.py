"""``torch.optim`` of the simulated torch: SGD and Adam, one fused update kernel per parameter on the NPU
(ApplyMomentum / ApplyAdamD, as torch_npu's fused optimizers launch them)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import numpy as np

from workbench.simtoolkit.torchsim import runtime
from workbench.simtoolkit.torchsim.tensor import Tensor


class Optimizer:
    kernel = ""
    acl = ""

    def __init__(self, params: Iterable[Any], defaults: dict[str, Any]) -> None:
        items = list(params)
        groups = items if items and isinstance(items[0], dict) else [{"params": items}]
        self.param_groups = [{**defaults, **g, "params": list(g["params"])} for g in groups]
        self.defaults = defaults
        self.state: dict[int, dict[str, np.ndarray]] = {}

    def zero_grad(self, set_to_none: bool = True) -> None:
        for g in self.param_groups:
            for p in g["params"]:
                p.grad = None

    def step(self, closure: Any = None) -> Any:
        for g in self.param_groups:
            for p in g["params"]:
                if p.grad is None:
                    continue
                self._update(p, g)
                if p.device.type == "npu":
                    spec = p.spec()
                    runtime.launch(
                        self.kernel,
                        [spec, spec, runtime.tensor_spec((), "FLOAT"), spec],
                        [spec],
                        acl_api=self.acl,
                        torch_op=f"Optimizer.step#{type(self).__name__}.step",
                        device=p.device.index,
                    )
        return None

    def _update(self, p: Tensor, g: dict[str, Any]) -> None:
        raise NotImplementedError

    def state_dict(self) -> dict[str, Any]:
        return {"state": {}, "param_groups": [{k: v for k, v in g.items() if k != "params"} for g in self.param_groups]}


class SGD(Optimizer):
    kernel, acl = "ApplyMomentum", "aclnnApplyMomentum"

    def __init__(
        self, params: Iterable[Any], lr: float = 1e-3, momentum: float = 0, weight_decay: float = 0, **kw: Any
    ):
        super().__init__(params, {"lr": lr, "momentum": momentum, "weight_decay": weight_decay, **kw})

    def _update(self, p: Tensor, g: dict[str, Any]) -> None:
        grad = p.grad.data if p.grad is not None else 0
        if g["weight_decay"]:
            grad = grad + g["weight_decay"] * p.data
        if g["momentum"]:
            buf = self.state.setdefault(id(p), {}).get("momentum_buffer")
            buf = np.array(grad, dtype=p.data.dtype) if buf is None else buf * g["momentum"] + grad
            self.state[id(p)]["momentum_buffer"] = buf
            grad = buf
        p.data -= (g["lr"] * np.asarray(grad)).astype(p.data.dtype)


class Adam(Optimizer):
    kernel, acl = "ApplyAdamD", "aclnnApplyAdam"

    def __init__(
        self,
        params: Iterable[Any],
        lr: float = 1e-3,
        betas: tuple[float, float] = (0.9, 0.999),
        eps: float = 1e-8,
        weight_decay: float = 0,
        **kw: Any,
    ):
        super().__init__(params, {"lr": lr, "betas": betas, "eps": eps, "weight_decay": weight_decay, **kw})

    def _update(self, p: Tensor, g: dict[str, Any]) -> None:
        grad = p.grad.data if p.grad is not None else np.zeros_like(p.data)
        s = self.state.setdefault(id(p), {"m": np.zeros_like(p.data), "v": np.zeros_like(p.data), "t": np.zeros(())})
        b1, b2 = g["betas"]
        s["t"] = s["t"] + 1
        s["m"] = b1 * s["m"] + (1 - b1) * grad
        s["v"] = b2 * s["v"] + (1 - b2) * grad * grad
        m_hat, v_hat = s["m"] / (1 - b1 ** s["t"]), s["v"] / (1 - b2 ** s["t"])
        p.data -= (g["lr"] * m_hat / (np.sqrt(v_hat) + g["eps"])).astype(p.data.dtype)


AdamW = Adam


class _LRScheduler:
    def __init__(self, optimizer: Optimizer, *args: Any, **kwargs: Any) -> None:
        self.optimizer = optimizer

    def step(self) -> None:
        return None


class _Schedulers:
    StepLR = CosineAnnealingLR = MultiStepLR = LambdaLR = _LRScheduler


lr_scheduler = _Schedulers()
