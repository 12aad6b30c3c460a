"""The simulated torch_npu device runtime: which devices exist, and one kernel event per op run on an NPU.

Every op the simulated ``torch`` executes on an ``npu`` tensor is reported as one kernel the way a real
torch_npu run launches it (aclnn API, CANN op type, the core it runs on, input and output shapes, data
types and formats). The events go to the file named by ``ASCEND_SIM_RUNTIME_LOG`` when the simulated
msprof started the process (the pyACL runtime's mechanism, :func:`pyacl.log_event`), and to every
active ``torch_npu.profiler.profile`` of the process. Kernel durations are not chosen here: the profiling
data generator derives them from the shapes and the chip (:func:`profdata.schedule.op_duration_ns`).
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from workbench.simtoolkit import pyacl

BANNER = "[simulated] torch/torch_npu runtime of the Ascend Workbench simulated toolkit"
TORCH_VERSION = "2.1.0+simulated"
TORCH_NPU_VERSION = "2.1.0.post3+simulated"
EVENT_KERNEL = "torch_kernel"
EVENT_INIT = "torch_init"

CUBE_TYPES = frozenset(
    {"Conv2D", "Conv2DBackpropInput", "Conv2DBackpropFilter", "MatMul", "MatMulV2", "MatMulV3", "BatchMatMulV2"}
)
# Op types whose NPU kernels take no 64-bit data: with an int64 / double data input they run on AI CPU
# (compute.aicpu_dtype's explanation). Index inputs (a gather's indices, NLLLoss's target) are fine.
AICPU_WITH_WIDE = frozenset(
    {"Equal", "NotEqual", "Greater", "GreaterEqual", "Less", "LessEqual", "ReduceSum", "ReduceSumD", "Cast", "Mul"}
)
ALWAYS_AICPU = frozenset({"NonZero", "Where", "Unique", "UniqueWithCountsAndSorting"})
WIDE = frozenset({"INT64", "DOUBLE", "UINT64"})

_state: dict[str, Any] = {"config": "", "npu": False, "device": 0, "banner": False, "logged_init": False}
_listeners: list[Callable[[dict[str, Any]], None]] = []


def configure(config_path: str = "") -> None:
    """Called by the installed ``torch`` package: the toolkit's ``simulated_toolkit.json``."""
    _state["config"] = config_path
    if not _state["banner"]:
        print(BANNER, file=sys.stderr, flush=True)
        _state["banner"] = True


def sim_config():
    from workbench.simtoolkit.config import SimConfig, load

    if _state["config"]:
        try:
            return SimConfig.from_file(Path(_state["config"]))
        except ValueError:
            pass
    return load()


def device_count() -> int:
    visible = os.environ.get("ASCEND_RT_VISIBLE_DEVICES", "").strip()
    return len([p for p in visible.split(",") if p.strip()]) if visible else sim_config().devices


def npu_registered() -> bool:
    return bool(_state["npu"])


def register_npu() -> None:
    _state["npu"] = True
    if not _state["logged_init"]:
        _state["logged_init"] = True
        pyacl.log_event(EVENT_INIT, script=os.path.abspath(sys.argv[0]) if sys.argv and sys.argv[0] else "")


def set_device(index: int) -> None:
    count = device_count()
    if not isinstance(index, int) or not 0 <= index < count:
        raise RuntimeError(f"npu set_device: invalid device id {index} (this host has NPUs 0-{count - 1})")
    _state["device"] = index


def current_device() -> int:
    return int(_state["device"])


def add_listener(fn: Callable[[dict[str, Any]], None]) -> None:
    _listeners.append(fn)


def remove_listener(fn: Callable[[dict[str, Any]], None]) -> None:
    if fn in _listeners:
        _listeners.remove(fn)


def tensor_spec(shape: Sequence[int], dtype: str, fmt: str | None = None) -> dict[str, Any]:
    shape = [int(d) for d in shape]
    return {"shape": shape, "dtype": dtype, "format": fmt or ("NCHW" if len(shape) == 4 else "ND")}


def core_of(op_type: str, inputs: Sequence[dict[str, Any]], outputs: Sequence[dict[str, Any]]) -> str:
    """The core a kernel of ``op_type`` with these tensors runs on (cube, vector or AI CPU)."""
    if op_type in ALWAYS_AICPU:
        return "AI_CPU"

    def wide(specs: Sequence[dict[str, Any]]) -> bool:
        return any(t["dtype"] in WIDE and _elements(t["shape"]) > 1 for t in specs)

    if op_type in AICPU_WITH_WIDE and (wide(inputs) or (op_type == "Cast" and wide(outputs))):
        return "AI_CPU"
    return "AI_CORE" if op_type in CUBE_TYPES else "AI_VECTOR_CORE"


def _elements(shape: Sequence[int]) -> int:
    n = 1
    for d in shape:
        n *= int(d)
    return n


def launch(
    op_type: str,
    inputs: Sequence[dict[str, Any]],
    outputs: Sequence[dict[str, Any]],
    *,
    acl_api: str,
    torch_op: str,
    device: int | None = None,
) -> dict[str, Any]:
    """Report one kernel; the event (``name, type, core, inputs, outputs, acl_api, torch_op, device``)."""
    core = core_of(op_type, inputs, outputs)
    name = op_type if core == "AI_CPU" else f"{acl_api}_{op_type}AiCore_{op_type}"
    event = {
        "name": name,
        "type": op_type,
        "core": core,
        "inputs": list(inputs),
        "outputs": list(outputs),
        "acl_api": acl_api,
        "torch_op": torch_op,
        "device": current_device() if device is None else device,
    }
    pyacl.log_event(EVENT_KERNEL, **event)
    for fn in list(_listeners):
        fn(event)
    return event


def kernel_events(events: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """The kernel events among the runtime log's events (see :func:`pyacl.runtime_events`)."""
    return [e for e in events if e.get("event") == EVENT_KERNEL]


def ran_torch(events: Sequence[dict[str, Any]]) -> bool:
    """Did the application start the simulated torch_npu runtime (``import torch_npu``)?"""
    return any(e.get("event") in (EVENT_INIT, EVENT_KERNEL) for e in events)


def workload_of(name: str, kernels: Sequence[dict[str, Any]]):
    """The profiling data generator's Workload of these kernels, in launch order (eager single-op launches)."""
    from workbench.simtoolkit import profdata

    return profdata.Workload.from_dicts(name, kernels, kind="ops")
