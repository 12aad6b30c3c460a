"""Planted problems (compute): see the ``problems`` module. Each plant is a function registered with
``@register(name, point, description)``.

- ``aicpu-op``: every ``FastGelu`` runs as an AI CPU kernel (``FastGeluAiCpu``) although the op has an AI
  Core one, at what an element-wise kernel costs on the AI CPU (0.5 ns per element + 40 us launch: ~1.1 ms
  for the transformer's 512 x 4096 activations against ~12 us on the vector cores), so AI CPU work takes most
  of the compute stream's time;
- ``int64-aicpu``: a ``Cumsum`` over an INT64 (1 x seq) mask before the embedding (``position_ids =
  mask.long().cumsum(-1)``) run as ``CumsumAiCpu``: its INT64 input sends it to AI CPU (chosen: that the AI
  Core Cumsum lacks int64 is UNVERIFIED in the reference; the plant only needs a 64-bit data input on AI CPU);
- ``unfused-rmsnorm``: every ``LayerNormV3`` written out as the six small vector ops of a hand-written
  RMSNorm (Pow, ReduceMean, Add, Rsqrt, Mul, Mul) with MTE-bound PMU values (MTE2 0.957 + MTE3 0.413 of
  the core time against a vector ratio of 0.18): a chain of 6 that repeats 8 times in a 2-layer, 2-step run;
- ``no-aicore``: the forum's "after migration only HBM is used, no AI Core": every op but the communication
  ones runs as an AI CPU kernel (``...AiCore...`` names become ``...AiCpu...``, the time the scheduler gives an
  AI CPU kernel: 40 us + its bytes / 200 per ns), so no task is on the AI Core or vector cores;
- ``memory-bound``: every ``MatMulV3`` task has memory-bound PMU values (MTE2 ratio 0.957 against a MAC ratio
  of 0.557: memory_bound 1.718), so memory-bound operators take most of the device time.
"""

from __future__ import annotations

import dataclasses

from .problems import register
from .schedule import Run
from .workload import Op, Tensor, Workload

AICPU_US_PER_ELEMENT = 0.0005  # an element-wise op on the AI CPU (chosen: ~100x the vector cores' time)
AICPU_LAUNCH_US = 40.0


@register(
    "aicpu-op",
    "workload",
    "FastGelu forced onto AI CPU (~1.1 ms per call): AI CPU work dominates the compute stream",
)
def _aicpu_op(workload: Workload) -> Workload:
    ops = []
    for op in workload.ops:
        if op.type == "FastGelu":
            elements = sum(t.elements for t in op.outputs) or 1
            op = dataclasses.replace(
                op,
                name=op.name.replace("FastGeluAiCore", "FastGeluAiCpu"),
                core="AI_CPU",
                duration_us=AICPU_LAUNCH_US + elements * AICPU_US_PER_ELEMENT,
            )
        ops.append(op)
    return dataclasses.replace(workload, ops=tuple(ops))


@register(
    "int64-aicpu",
    "workload",
    "Cumsum over an INT64 mask before the embedding: the INT64 input sends it to AI CPU",
)
def _int64_aicpu(workload: Workload) -> Workload:
    seq = _sequence_length(workload)
    cumsum = Op(
        "aclnnCumsum_CumsumAiCpu_Cumsum",
        "Cumsum",
        (Tensor((1, seq), "INT64", "ND"), Tensor((), "INT64", "ND")),
        (Tensor((1, seq), "INT64", "ND"),),
        "AI_CPU",
        torch_op="aten::cumsum",
        acl_api="aclnnCumsum",
        dynamic=True,
    )
    return dataclasses.replace(workload, ops=(cumsum, *workload.ops))


@register(
    "no-aicore",
    "workload",
    "every op (communication aside) moved to AI CPU: no task on the AI Core or vector cores",
)
def _no_aicore(workload: Workload) -> Workload:
    ops = []
    for op in workload.ops:
        if op.core != "HCCL":
            op = dataclasses.replace(op, name=op.name.replace("AiCore", "AiCpu"), core="AI_CPU", duration_us=None)
        ops.append(op)
    return dataclasses.replace(workload, ops=tuple(ops))


def _sequence_length(workload: Workload) -> int:
    """The token count of the workload's embedding lookup (its INT64 indices), else 512."""
    for op in workload.ops:
        for t in op.inputs:
            if t.dtype == "INT64" and t.shape:
                return t.shape[-1]
    return 512


MEMORY_BOUND_DRAWS = {0: 0.02, 1: 0.05, 4: 0.98}  # Task.rnd index -> draw: MAC ratio 0.557, MTE2 ratio 0.957


@register(
    "memory-bound",
    "run",
    "every MatMulV3 memory-bound (MTE2 ratio 0.957, MAC ratio 0.557): memory-bound ops take most device time",
)
def _memory_bound(run: Run) -> None:
    for tasks in run.tasks.values():
        for task in tasks:
            if task.op.type == "MatMulV3":
                draws = list(task.rnd)
                for i, value in MEMORY_BOUND_DRAWS.items():
                    draws[i] = value
                task.rnd = tuple(draws)


# the decomposed RMSNorm a hand-written model runs instead of one fused kernel: (name, type, torch op, aclnn API)
RMSNORM_CHAIN = (
    ("aclnnPowTensorScalar_PowAiCore_Pow", "Pow", "aten::pow", "aclnnPowTensorScalar"),
    ("aclnnMean_ReduceMeanAiCore_ReduceMean", "ReduceMean", "aten::mean", "aclnnMean"),
    ("aclnnAdds_AddAiCore_Add", "Add", "aten::add", "aclnnAdds"),
    ("aclnnRsqrt_RsqrtAiCore_Rsqrt", "Rsqrt", "aten::rsqrt", "aclnnRsqrt"),
    ("aclnnMul_MulAiCore_Mul", "Mul", "aten::mul", "aclnnMul"),
    ("aclnnMul_MulAiCore_Mul", "Mul", "aten::mul", "aclnnMul"),
)
RMSNORM_DRAWS = {1: 0.05, 4: 0.98, 5: 0.95}  # Task.rnd index -> draw: vec ratio 0.18, MTE2 0.957, MTE3 0.413
UNFUSED_RMSNORM = "every LayerNormV3 as 6 small vector ops (Pow, ReduceMean, Add, Rsqrt, Mul, Mul), MTE-bound"


@register("unfused-rmsnorm", "workload", UNFUSED_RMSNORM)
def _unfused_rmsnorm(workload: Workload) -> Workload:
    ops: list[Op] = []
    for op in workload.ops:
        if op.type != "LayerNormV3" or not op.inputs:
            ops.append(op)
            continue
        x = op.inputs[0]
        row = Tensor((*x.shape[:-1], 1), x.dtype, x.format)
        weight = Tensor(x.shape[-1:], x.dtype, x.format)
        tensors = (  # (inputs, outputs) of Pow, ReduceMean, Add (eps), Rsqrt, Mul, Mul (weight)
            ((x,), (x,)),
            ((x,), (row,)),
            ((row,), (row,)),
            ((row,), (row,)),
            ((x, row), (x,)),
            ((x, weight), (x,)),
        )
        for (name, typ, torch_op, api), (ins, outs) in zip(RMSNORM_CHAIN, tensors):
            ops.append(Op(name, typ, ins, outs, "AI_VECTOR_CORE", torch_op=torch_op, acl_api=api, dynamic=op.dynamic))
    return dataclasses.replace(workload, ops=tuple(ops))


@register("unfused-rmsnorm", "run", UNFUSED_RMSNORM)  # and its PMU values
def _unfused_rmsnorm_pmu(run: Run) -> None:
    names = {name for name, *_ in RMSNORM_CHAIN}
    for tasks in run.tasks.values():
        for task in tasks:
            if task.op.name in names:
                draws = list(task.rnd)
                for i, value in RMSNORM_DRAWS.items():
                    draws[i] = value
                task.rnd = tuple(draws)
