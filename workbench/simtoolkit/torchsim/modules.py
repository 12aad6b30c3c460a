"""The module objects ``import torch`` and ``import torch_npu`` give a script on the simulated toolkit:
``torch``, ``torch.nn``, ``torch.nn.functional``, ``torch.optim``, ``torch.utils.data``, ``torch.cuda``,
``torch.distributed`` ... built from this package and put in ``sys.modules`` under torch's names."""

from __future__ import annotations

import importlib.abc
import importlib.machinery
import os
import pickle
import sys
import types
from typing import Any

from workbench.simtoolkit.torchsim import data, devices, functional, nn, optim, profiler, runtime, tensor

TORCH_NAMES = (
    "Tensor Size device dtype float32 float16 bfloat16 float64 int64 int32 int8 uint8 no_grad enable_grad "
    "set_grad_enabled autocast manual_seed tensor randn rand randint zeros ones arange from_numpy stack cat "
    "is_tensor matmul softmax Generator"
)


def _module(name: str, doc: str, attrs: dict[str, Any], package: bool = False) -> types.ModuleType:
    m = types.ModuleType(name, doc)
    m.__dict__.update(attrs)
    if package:
        m.__path__ = []  # type: ignore[attr-defined]
    m.__simulated__ = True  # type: ignore[attr-defined]
    return m


def save(obj: Any, f: Any, **_: Any) -> None:
    """``torch.save``: pickled, written to a temporary file next to the target and renamed over it."""
    if hasattr(f, "write"):
        pickle.dump(obj, f)
        return
    path = os.fspath(f)
    tmp = f"{path}.{os.getpid()}.tmp"
    try:
        with open(tmp, "wb") as out:
            pickle.dump(obj, out)
        os.replace(tmp, path)
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)


def load(f: Any, map_location: Any = None, **_: Any) -> Any:
    if hasattr(f, "read"):
        return pickle.load(f)
    with open(os.fspath(f), "rb") as src:
        return pickle.load(src)


def _public(mod: types.ModuleType) -> dict[str, Any]:
    return {k: v for k, v in vars(mod).items() if not k.startswith("_") and k not in ("annotations",)}


def build() -> dict[str, types.ModuleType]:
    """Every module name of the simulated torch / torch_npu -> its module object."""
    doc = "Simulated torch (Ascend Workbench's simulated toolkit): NOT PyTorch. See workbench.simtoolkit.torchsim."
    t = {n: getattr(tensor, n) for n in TORCH_NAMES.split()}
    t.update(float=tensor.float32, half=tensor.float16, double=tensor.float64, long=tensor.int64, int=tensor.int32)
    t["bool"] = tensor.bool_
    mods: dict[str, types.ModuleType] = {}
    fnl = _module("torch.nn.functional", "Simulated torch.nn.functional.", _public(functional))
    parallel = _module("torch.nn.parallel", "", {"DistributedDataParallel": nn.parallel.DistributedDataParallel})
    nn_attrs = {k: v for k, v in _public(nn).items() if isinstance(v, type)}
    nn_mod = _module("torch.nn", "Simulated torch.nn.", {**nn_attrs, "functional": fnl, "parallel": parallel}, True)
    nn_mod.Parameter = nn.Parameter  # type: ignore[attr-defined]
    optim_mod = _module("torch.optim", "Simulated torch.optim.", _public(optim), True)
    data_mod = _module("torch.utils.data", "Simulated torch.utils.data.", _public(data), True)
    data_dist = _module("torch.utils.data.distributed", "", {"DistributedSampler": data.DistributedSampler})
    data_mod.distributed = data_dist  # type: ignore[attr-defined]
    utils = _module("torch.utils", "", {"data": data_mod}, True)
    cuda_amp = _module("torch.cuda.amp", "", vars(devices.cuda.amp))
    cuda = _module("torch.cuda", "Simulated torch.cuda: no CUDA here.", {**vars(devices.cuda), "amp": cuda_amp}, True)
    dist = _module("torch.distributed", "Simulated torch.distributed (one process).", {}, True)
    for name in ("is_available", "is_initialized", "init_process_group", "get_rank", "get_world_size", "barrier"):
        setattr(dist, name, getattr(devices.distributed, name))
    dist.all_reduce = devices.distributed.all_reduce  # type: ignore[attr-defined]
    dist.destroy_process_group = devices.distributed.destroy_process_group  # type: ignore[attr-defined]
    amp = _module("torch.amp", "", {"autocast": tensor.autocast, "GradScaler": devices.GradScaler})
    backends = _module(
        "torch.backends", "", {"cudnn": types.SimpleNamespace(benchmark=False, deterministic=False, enabled=True)}
    )
    torch = _module(
        "torch",
        doc,
        {
            **t,
            "__version__": runtime.TORCH_VERSION,
            "nn": nn_mod,
            "optim": optim_mod,
            "utils": utils,
            "cuda": cuda,
            "distributed": dist,
            "amp": amp,
            "backends": backends,
            "save": save,
            "load": load,
            "version": types.SimpleNamespace(cuda=None, __version__=runtime.TORCH_VERSION),
        },
        True,
    )
    for m in (torch, nn_mod, fnl, parallel, optim_mod, utils, data_mod, data_dist, cuda, cuda_amp, dist, amp, backends):
        mods[m.__name__] = m
    npu_amp = _module("torch_npu.npu.amp", "", vars(devices.npu.amp))
    npu = _module("torch_npu.npu", "Simulated torch_npu.npu.", {**vars(devices.npu), "amp": npu_amp}, True)
    prof = _module("torch_npu.profiler", "Simulated torch_npu.profiler.", _public(profiler))
    prof._ExperimentalConfig = profiler._experimental_config  # type: ignore[attr-defined]
    contrib = _module("torch_npu.contrib", "", {}, True)
    torch_npu = _module(
        "torch_npu",
        "Simulated torch_npu (Ascend Workbench's simulated toolkit): NOT Huawei's torch_npu.",
        {"__version__": runtime.TORCH_NPU_VERSION, "npu": npu, "profiler": prof, "contrib": contrib},
        True,
    )
    for m in (torch_npu, npu, npu_amp, prof, contrib):
        mods[m.__name__] = m
    return mods


_built: dict[str, types.ModuleType] = {}


def modules() -> dict[str, types.ModuleType]:
    if not _built:
        _built.update(build())
    return _built


def install_torch(config_path: str = "") -> types.ModuleType:
    """Called by the installed ``torch/__init__.py``: every ``torch.*`` module in ``sys.modules``."""
    runtime.configure(config_path)
    mods = modules()
    for name, m in mods.items():
        if name == "torch" or name.startswith("torch."):
            sys.modules[name] = m
    return mods["torch"]


def install_torch_npu(config_path: str = "") -> types.ModuleType:
    """Called by the installed ``torch_npu/__init__.py``: registers the npu device on torch (``torch.npu``,
    ``Tensor.npu``, ``torch.device("npu:0")``, the hccl backend)."""
    torch = install_torch(config_path)
    mods = modules()
    for name, m in mods.items():
        if name.startswith("torch_npu"):
            sys.modules[name] = m
    runtime.register_npu()
    if _FINDER not in sys.meta_path:
        sys.meta_path.insert(0, _FINDER)
    torch.npu = mods["torch_npu.npu"]  # type: ignore[attr-defined]
    tensor.Tensor.npu = lambda self, device=None, non_blocking=False: self.to("npu" if device is None else device)  # type: ignore[attr-defined]
    return mods["torch_npu"]


TRANSFER = "torch_npu.contrib.transfer_to_npu"


class _TransferFinder(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """Imports ``torch_npu.contrib.transfer_to_npu``: cuda devices, ``.cuda()`` and ``torch.cuda.*`` go to
    the NPU from then on (the import is what switches it on, as in torch_npu)."""

    def find_spec(self, fullname: str, path: Any = None, target: Any = None):
        return importlib.machinery.ModuleSpec(fullname, self) if fullname == TRANSFER else None

    def create_module(self, spec: Any) -> types.ModuleType:
        return _module(TRANSFER, "cuda calls mapped to npu (simulated torch_npu).", {})

    def exec_module(self, module: types.ModuleType) -> None:
        tensor._cuda_to_npu["on"] = True


_FINDER = _TransferFinder()
