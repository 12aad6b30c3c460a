"""``torch.cuda``, ``torch.npu`` (registered by ``import torch_npu``) and their ``amp``; ``torch.distributed``."""

from __future__ import annotations

import os
import warnings
from types import SimpleNamespace
from typing import Any

from workbench.simtoolkit.torchsim import runtime
from workbench.simtoolkit.torchsim.tensor import Tensor, _cuda_to_npu, _no_cuda, autocast


class GradScaler:
    """Loss scaling: ``scale`` multiplies the loss (a Mul kernel), ``step`` checks the gradients for
    inf/nan (NonFiniteCheck) and unscales them (ForeachMulScalarInplace) before the optimizer step."""

    def __init__(self, init_scale: float = 65536.0, enabled: bool = True, **_: Any) -> None:
        self.scale_value, self.enabled = init_scale, enabled

    def scale(self, loss: Tensor) -> Tensor:
        return loss * self.scale_value if self.enabled else loss

    def step(self, optimizer: Any, *args: Any, **kwargs: Any) -> Any:
        if self.enabled:
            grads = [p.grad for g in optimizer.param_groups for p in g["params"] if p.grad is not None]
            npu = [t for t in grads if t.device.type == "npu"]
            if npu:
                specs = [t.spec() for t in npu]
                flag = runtime.tensor_spec((1,), "FLOAT")
                runtime.launch(
                    "NonFiniteCheck",
                    specs,
                    [flag],
                    acl_api="aclnnNonFiniteCheck",
                    torch_op="aten::_amp_foreach_non_finite_check_and_unscale_",
                )
                runtime.launch(
                    "ForeachMulScalarInplace",
                    specs,
                    specs,
                    acl_api="aclnnForeachMulScalarInplace",
                    torch_op="aten::_amp_foreach_non_finite_check_and_unscale_",
                )
        return optimizer.step(*args, **kwargs)

    def update(self, new_scale: float | None = None) -> None:
        if new_scale is not None:
            self.scale_value = float(new_scale)

    def unscale_(self, optimizer: Any) -> None:
        return None

    def get_scale(self) -> float:
        return self.scale_value


def _cuda_scaler(*args: Any, **kwargs: Any) -> GradScaler:
    if not _cuda_to_npu["on"]:
        warnings.warn("torch.cuda.amp.GradScaler is enabled, but CUDA is not available.  Disabling.", stacklevel=2)
        kwargs["enabled"] = False
    return GradScaler(*args, **kwargs)


def _npu_only(fn):
    def call(*args: Any, **kwargs: Any) -> Any:
        if not _cuda_to_npu["on"]:
            raise _no_cuda()
        return fn(*args, **kwargs)

    return call


def _synchronize(device: Any = None) -> None:
    return None


def _set_device(d: Any) -> None:
    if isinstance(d, int):
        runtime.set_device(d)
        return
    _, _, index = str(d).partition(":")
    runtime.set_device(int(index) if index.isdigit() else 0)


npu = SimpleNamespace(
    is_available=lambda: runtime.device_count() > 0,
    device_count=runtime.device_count,
    set_device=_set_device,
    current_device=runtime.current_device,
    synchronize=_synchronize,
    get_device_name=lambda device=None: runtime.sim_config().soc_version,
    manual_seed=lambda seed: None,
    manual_seed_all=lambda seed: None,
    empty_cache=lambda: None,
    memory_allocated=lambda device=None: 0,
    max_memory_allocated=lambda device=None: 0,
    set_compile_mode=lambda jit_compile=True: None,
    amp=SimpleNamespace(autocast=autocast, GradScaler=GradScaler),
    config=SimpleNamespace(allow_internal_format=False),
)

cuda = SimpleNamespace(
    is_available=lambda: _cuda_to_npu["on"] and npu.is_available(),
    device_count=lambda: npu.device_count() if _cuda_to_npu["on"] else 0,
    set_device=_npu_only(npu.set_device),
    current_device=_npu_only(npu.current_device),
    synchronize=_npu_only(_synchronize),
    get_device_name=_npu_only(npu.get_device_name),
    manual_seed=lambda seed: None,
    manual_seed_all=lambda seed: None,
    empty_cache=lambda: None,
    amp=SimpleNamespace(autocast=autocast, GradScaler=_cuda_scaler),
)


class _Distributed:
    """``torch.distributed``: one process only (WORLD_SIZE 1); HCCL needs torch_npu, NCCL does not exist."""

    _group: str | None = None

    @staticmethod
    def is_available() -> bool:
        return True

    def is_initialized(self) -> bool:
        return self._group is not None

    def init_process_group(self, backend: str | None = None, **_: Any) -> None:
        if backend == "nccl":
            raise RuntimeError("Distributed package doesn't have NCCL built in")
        if backend == "hccl" and not runtime.npu_registered():
            raise RuntimeError("Invalid backend: 'hccl' (import torch_npu registers it)")
        if int(os.environ.get("WORLD_SIZE", "1")) > 1:
            raise RuntimeError("the simulated torch_npu runtime runs one process: WORLD_SIZE must be 1")
        type(self)._group = backend or "gloo"

    def get_rank(self, group: Any = None) -> int:
        return 0

    def get_world_size(self, group: Any = None) -> int:
        return 1

    def barrier(self, group: Any = None) -> None:
        return None

    def all_reduce(self, tensor: Tensor, op: Any = None, group: Any = None, async_op: bool = False) -> None:
        return None

    def destroy_process_group(self, group: Any = None) -> None:
        type(self)._group = None


distributed = _Distributed()
