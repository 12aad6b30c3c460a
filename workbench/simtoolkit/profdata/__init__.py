"""Deterministic generator of realistic msprof and torch_npu profiling output (simulated toolkit).

No Ascend hardware exists here; this package writes what the real tools write for a given op
sequence, so the profiling engine, its tests, the shipped sample report and the simulated
``msprof`` all stand on files that parse exactly like real ones (formats: reference
docs/cann-formats.md §1.3, §2, §3, §4 and the real samples in ../shared/samples). Qt-free, stdlib only
(``onnx`` is imported only by :func:`workload_from_onnx`).

Describe the work
    :class:`Tensor` (shape, dtype, format), :class:`Op` (name, OP type, inputs, outputs, core
    ``AI_CORE | AI_VECTOR_CORE | AI_CPU | MIX_AIC | MIX_AIV | DSA_SQE | HCCL``, optional
    ``duration_us``), :class:`Workload` (ops of one iteration, ``kind="model"`` for an offline model
    run with aclmdlExecute or ``"ops"`` for single-op launches). Ready-made:
    :func:`resnet50_workload`, :func:`transformer_workload`; from a model:
    :func:`workload_from_onnx`; from plain data (e.g. what an .om stores):
    :meth:`Workload.from_dicts`; :func:`data_parallel` adds gradient AllReduce (HCCL) operators,
    :func:`mixed_parallel` one of every other HCCL operator too.

Write a report
    ``write_msprof_prof(out_dir, workload, cann_version="8.0.RC1", soc="Ascend910B2", devices=[0],
    iterations=2, aic_metrics="PipeUtilization", seed=0) -> Path`` of the new ``PROF_*`` folder,
    in the layout of that CANN version (7.x/8.x ``mindstudio_profiler_output``; 5.x/6.x
    ``device_N/summary`` + ``device_N/timeline`` with the old headers).
    ``write_torch_npu(out_dir, workload, soc="Ascend910B2", steps=2, aic_metrics=..., seed=0,
    style="2025"|"2023") -> Path`` of the new ``*_ascend_pt`` folder.
    ``write_torch_npu(..., profiler_level="Level0")``: kernel types left ``N/A`` for the timeline.
    ``write_mindspore_prof(out_dir, workload, soc="Ascend910", iterations_count=3, devices=[0],
    seed=0, cann_version="6.0.1") -> Path`` of a MindSpore-style CANN 5/6 PROF folder with only
    per-iteration timelines and step traces (:mod:`.mindspore`; ground truth: ``simulate_mindspore``).
    Database exports (docs/cann-formats.md §11): ``write_torch_npu(..., export_type="Db"|"Text+Db",
    framework="mindspore")``, ``write_msprof_prof(..., export_type="db"|"text+db")`` (:mod:`.dbexport`);
    ``write_torch_npu(..., rank=r, world_size=n)`` of a workload with HCCL ops (:func:`data_parallel`,
    :func:`mixed_parallel`: allReduce, allGather, reduceScatter, broadcast, send / receive) writes their
    Communication lanes, COMMUNICATION_OP / COMMUNICATION_TASK_INFO (:mod:`.hccl`), communication.json and
    communication_matrix.json (:mod:`.commfiles`); ``write_torch_npu_job(out_dir, workload, n)`` every
    rank's folder. Every run has the memory files (:mod:`.memory`) and a step_trace_time computed from its
    own Overlap Analysis lanes (:mod:`.overlap`).
    ``write_big_timeline(path, "msprof"|"torch_npu", n_events)`` streams a huge timeline for
    benchmarks. ``simulate(...)`` returns the in-memory :class:`Run` the writers format, for tests
    that want expected values.

Guarantees
    Same inputs -> byte-identical output (fixed seed, fixed epoch base time
    ``DEFAULT_START_NS``). Timestamps are integer ns formatted as µs strings with 3 decimals,
    never through float64. The timeline's device tasks and op_summary / kernel_details rows are
    the same tasks with the same start and duration text; op_statistic aggregates op_summary; every
    device task has a HostToDevice flow from its Node@launch (and torch_to_npu from its Python op).
    PMU columns follow the chip (aic_/aiv_ split on 910B-class, unprefixed on 910/310P/310) and
    the metric group. Folders appear atomically and are never overwritten.

Known gaps (UNVERIFIED in the reference, so chosen, not copied): counter argument names of AI
Core Freq / NPU MEM / HBM, sort indices 19+, pids of the CANN 5/6 timeline, raw host/device data
content, the db exports' unverified details (:mod:`.dbexport`), sample-based ai_core_utilization (not written),
the memory model (:mod:`.memory`: sizes, when PTA frees, GE's pool, the APP samples; no ``WORKSPACE``
component, which the sample's torch_npu does not write), the small-task timing of HCCL operators and
their links (:mod:`.hccl`: HCCS only, no RDMA between servers), msprof's ``PROF_*/analyze`` files (not
written: torch_npu's split of them is).
"""

from __future__ import annotations

from .bigtrace import write_big_timeline
from .chips import AIC_METRICS, CANN_VERSIONS, CHIPS
from .mindspore import simulate_mindspore, write_mindspore_prof
from .msprof import write_msprof_prof
from .schedule import DEFAULT_START_NS, Run, simulate
from .timeline import format_pid
from .torchnpu import write_torch_npu, write_torch_npu_job
from .workload import (
    Op,
    Tensor,
    Workload,
    data_parallel,
    mixed_parallel,
    resnet50_workload,
    transformer_workload,
    workload_from_onnx,
)

SOCS = tuple(CHIPS)

__all__ = [
    "AIC_METRICS",
    "CANN_VERSIONS",
    "DEFAULT_START_NS",
    "SOCS",
    "Op",
    "Run",
    "Tensor",
    "Workload",
    "data_parallel",
    "format_pid",
    "mixed_parallel",
    "resnet50_workload",
    "simulate",
    "simulate_mindspore",
    "transformer_workload",
    "workload_from_onnx",
    "write_big_timeline",
    "write_mindspore_prof",
    "write_msprof_prof",
    "write_torch_npu",
    "write_torch_npu_job",
]
