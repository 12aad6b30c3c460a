"""``torch_npu.profiler`` of the simulated runtime: ``profile`` collects the kernels the script launches
while it is active (its ``schedule``: wait, warmup, active, repeat) and ``tensorboard_trace_handler(dir)``
writes them as a real torch_npu result folder ``<host>_<pid>_<ms>_ascend_pt/`` (ASCEND_PROFILER_OUTPUT:
kernel_details.csv, op_statistic.csv, trace_view.json ... by :func:`profdata.write_torch_npu`)."""

from __future__ import annotations

import enum
import hashlib
import os
import socket
import sys
import time
from pathlib import Path
from typing import Any

from workbench.simtoolkit.torchsim import runtime


class ProfilerActivity(enum.Enum):
    CPU = "CPU"
    NPU = "NPU"


class ProfilerLevel:
    Level0, Level1, Level2 = "Level0", "Level1", "Level2"


class AiCMetrics:
    PipeUtilization = "PipeUtilization"
    ArithmeticUtilization = "ArithmeticUtilization"
    Memory = "Memory"
    MemoryL0 = "MemoryL0"
    ResourceConflictRatio = "ResourceConflictRatio"
    L2Cache = "L2Cache"
    AiCoreNone = None


class ExportType:
    Text, Db = "Text", "Db"


class _ExperimentalConfig:
    def __init__(
        self, profiler_level: str = "Level0", aic_metrics: str | None = None, export_type: Any = "Text", **_: Any
    ):
        self.profiler_level, self.aic_metrics = profiler_level, aic_metrics
        self.export_type = export_type[0] if isinstance(export_type, (list, tuple)) else export_type


def _experimental_config(**kwargs: Any) -> _ExperimentalConfig:
    return _ExperimentalConfig(**kwargs)


class schedule:  # noqa: N801 - torch_npu's name
    def __init__(self, wait: int = 0, active: int = 1, warmup: int = 0, repeat: int = 0, skip_first: int = 0) -> None:
        self.wait, self.active, self.warmup, self.repeat, self.skip_first = wait, active, warmup, repeat, skip_first

    def recording(self, step: int) -> bool:
        if step < self.skip_first:
            return False
        cycle = self.wait + self.warmup + self.active
        k = step - self.skip_first
        if self.repeat and k >= cycle * self.repeat:
            return False
        return k % cycle >= self.wait + self.warmup


def tensorboard_trace_handler(
    dir_name: str | os.PathLike[str], worker_name: str | None = None, analyse_flag: bool = True
):
    """The handler ``profile(on_trace_ready=...)`` calls: writes the collected steps under ``dir_name``."""

    def handler(prof: profile) -> None:
        prof.export_to(Path(dir_name), worker_name)

    return handler


class profile:  # noqa: N801 - torch_npu's name
    def __init__(
        self,
        activities: Any = None,
        schedule: schedule | None = None,
        on_trace_ready: Any = None,
        record_shapes: bool = False,
        profile_memory: bool = False,
        with_stack: bool = False,
        experimental_config: _ExperimentalConfig | None = None,
        **_: Any,
    ) -> None:
        self.schedule, self.on_trace_ready = schedule, on_trace_ready
        self.config = experimental_config or _ExperimentalConfig()
        self.step_num = 0
        self.steps: list[list[dict[str, Any]]] = [[]]
        self.started_ns = 0
        self.written: list[Path] = []

    def _record(self, event: dict[str, Any]) -> None:
        if self.schedule is None or self.schedule.recording(self.step_num):
            self.steps[-1].append(event)

    def start(self) -> None:
        self.started_ns = time.time_ns()
        runtime.add_listener(self._record)

    def stop(self) -> None:
        runtime.remove_listener(self._record)
        if self.on_trace_ready is not None and any(self.steps):
            self.on_trace_ready(self)

    def step(self) -> None:
        self.step_num += 1
        if self.steps[-1]:
            self.steps.append([])

    def __enter__(self) -> profile:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def export_to(self, out_dir: Path, worker_name: str | None = None) -> Path:
        from workbench.simtoolkit import profdata
        from workbench.simtoolkit.msprof import profiler_soc

        steps = [s for s in self.steps if s]
        same = all(
            [(k["name"], str(k["inputs"])) for k in s] == [(k["name"], str(k["inputs"])) for k in steps[0]]
            for s in steps
        )
        kernels = steps[0] if same else [k for s in steps for k in s]
        script = Path(sys.argv[0]).stem if sys.argv and sys.argv[0] else "python"
        workload = runtime.workload_of(script, kernels)
        cfg = runtime.sim_config()
        seed = int(hashlib.sha256("/".join(k["name"] for k in kernels).encode()).hexdigest()[:8], 16)
        out_dir.mkdir(parents=True, exist_ok=True)
        start = self.started_ns - self.started_ns % 1_000_000
        level = self.config.profiler_level if self.config.profiler_level in profdata.torchnpu.LEVELS else "Level0"
        path = profdata.write_torch_npu(
            out_dir,
            workload,
            soc=profiler_soc(cfg.soc_version),
            steps=len(steps) if same else 1,
            aic_metrics=self.config.aic_metrics,
            seed=seed,
            device=int(kernels[0].get("device") or 0),
            cann_version=cfg.cann_version,
            hostname=worker_name or socket.gethostname(),
            start_ns=start,
            pid=os.getpid(),
            profiler_level=level,
        )
        self.written.append(path)
        print(
            f"{runtime.BANNER}: torch_npu profiler data of {len(kernels)} kernels saved in {path}",
            file=sys.stderr,
            flush=True,
        )
        return path


class _Experimental:
    _ExperimentalConfig = _ExperimentalConfig
