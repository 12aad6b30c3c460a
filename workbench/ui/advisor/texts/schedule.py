"""Texts of core/advisor/rules/schedule.py marked for translation (see the package docstring)."""

from __future__ import annotations

from PySide6.QtCore import QT_TRANSLATE_NOOP

STRINGS = (
    QT_TRANSLATE_NOOP(
        "Advisor",
        "The steps take {e2e} end to end: computing {computing}, communication not overlapped "
        "{not_overlapped}, free {free}",
    ),
    QT_TRANSLATE_NOOP(
        "Advisor",
        "An overview of where the step time goes (msprof-analyze's end-to-end analysis): the other "
        "findings say what to change; the Steps tab shows each step's breakdown.",
    ),
    QT_TRANSLATE_NOOP("Advisor", "End-to-end time"),
    QT_TRANSLATE_NOOP("Advisor", "Computing"),
    QT_TRANSLATE_NOOP("Advisor", "Communication not overlapped"),
    QT_TRANSLATE_NOOP("Advisor", "Free"),
    QT_TRANSLATE_NOOP("Advisor", "The device is idle {share} of the step time ({idle} of {total})"),
    QT_TRANSLATE_NOOP(
        "Advisor",
        "The device waits for work. Where host activity fills its idle time the host is the "
        "bottleneck: keep the task queue on (TASK_QUEUE_ENABLE=1 or 2), bind the process to cores, "
        "avoid synchronisations (.item(), .cpu(), prints) inside the step, use fused operators and "
        "larger batches so each launch carries more work; otherwise look at what the gaps wait for.",
    ),
    QT_TRANSLATE_NOOP("Advisor", "Device idle time"),
    QT_TRANSLATE_NOOP("Advisor", "Share of the step time"),
    QT_TRANSLATE_NOOP("Advisor", "Host activity during the idle time"),
    QT_TRANSLATE_NOOP("Advisor", "Gaps between device tasks of {min_gap} or more"),
    QT_TRANSLATE_NOOP("Advisor", "Largest gap"),
    QT_TRANSLATE_NOOP("Advisor", "Steps"),
    QT_TRANSLATE_NOOP("Advisor", "Data loading takes {share} of the step time ({time})"),
    QT_TRANSLATE_NOOP(
        "Advisor",
        "The step waits for its input. Use more DataLoader workers (num_workers), pin_memory=True "
        "and prefetching, keep the data on fast local disk, avoid archive formats (tar, zip) and "
        "check that no other process (core binding, preprocessing) slows the loader down.",
    ),
    QT_TRANSLATE_NOOP("Advisor", "Data loading time"),
    QT_TRANSLATE_NOOP("Advisor", "Data loading calls"),
    QT_TRANSLATE_NOOP("Advisor", "Longest call (msprof-analyze flags 10 ms)"),
    QT_TRANSLATE_NOOP("Advisor", "Operators are compiled {count} times during the steps ({time})"),
    QT_TRANSLATE_NOOP(
        "Advisor",
        "Operators compiled at run time stall the launches. Use the binary kernels: "
        "torch_npu.npu.set_compile_mode(jit_compile=False) and "
        "torch_npu.npu.config.allow_internal_format=False; keep input shapes static (pad to fixed "
        "buckets) so an operator is not compiled again for every new shape.",
    ),
    QT_TRANSLATE_NOOP("Advisor", "Compilations"),
    QT_TRANSLATE_NOOP("Advisor", "Compilation time"),
    QT_TRANSLATE_NOOP("Advisor", "Host API"),
    QT_TRANSLATE_NOOP("Advisor", "{api} can replace {count} operator sequences ({pattern})"),
    QT_TRANSLATE_NOOP(
        "Advisor",
        "A fused NPU API does the work of this operator sequence in one call. Replace the sequence "
        "by it where the semantics match (see the torch_npu API reference); profile with "
        "with_stack=True to see the call stacks that lead to each sequence.",
    ),
    QT_TRANSLATE_NOOP("Advisor", "Occurrences"),
    QT_TRANSLATE_NOOP("Advisor", "Operator sequence"),
    QT_TRANSLATE_NOOP("Advisor", "Host time of the sequences"),
    QT_TRANSLATE_NOOP("Advisor", "The task queue is switched off (TASK_QUEUE_ENABLE={value})"),
    QT_TRANSLATE_NOOP(
        "Advisor",
        "With TASK_QUEUE_ENABLE=0 the Python thread launches every operator itself and the device "
        "waits for it. Unset it or export TASK_QUEUE_ENABLE=1 (2 also moves more of the launch work"
        " off the main thread).",
    ),
    QT_TRANSLATE_NOOP("Advisor", "Value of TASK_QUEUE_ENABLE"),
    QT_TRANSLATE_NOOP("Advisor", "Operators run synchronously (ASCEND_LAUNCH_BLOCKING={value})"),
    QT_TRANSLATE_NOOP(
        "Advisor",
        "ASCEND_LAUNCH_BLOCKING=1 makes every launch wait for its operator: a debugging setting "
        "that serialises host and device. export ASCEND_LAUNCH_BLOCKING=0 (or unset it) for "
        "training.",
    ),
    QT_TRANSLATE_NOOP("Advisor", "Value of ASCEND_LAUNCH_BLOCKING"),
    QT_TRANSLATE_NOOP("Advisor", "{count} environment settings can slow the run"),
    QT_TRANSLATE_NOOP(
        "Advisor",
        "Change the settings listed (each line says what to set), then profile again. These are the"
        " environment variables msprof-analyze's advisor checks.",
    ),
    QT_TRANSLATE_NOOP(
        "Advisor",
        "ASCEND_GLOBAL_LOG_LEVEL (debug/info logging slows training; export ASCEND_GLOBAL_LOG_LEVEL=3)",
    ),
    QT_TRANSLATE_NOOP("Advisor", "HCCL_RDMA_TC (RoCE DSCP value; must match the network's configuration)"),
    QT_TRANSLATE_NOOP("Advisor", "HCCL_RDMA_SL (RDMA NIC priority; must match the PFC priority)"),
    QT_TRANSLATE_NOOP(
        "Advisor",
        "ACLNN_CACHE_LIMIT (aclnn operator cache; when host bound export ACLNN_CACHE_LIMIT=100000)",
    ),
    QT_TRANSLATE_NOOP("Advisor", "HOST_CACHE_CAPACITY (dynamic-shape cache off; export HOST_CACHE_CAPACITY=20)"),
    QT_TRANSLATE_NOOP(
        "Advisor",
        "PYTORCH_NPU_ALLOC_CONF (export PYTORCH_NPU_ALLOC_CONF=expandable_segments:True against fragmentation)",
    ),
    QT_TRANSLATE_NOOP("Advisor", "HCCL_ALGO (a fixed communication algorithm; unset it to let HCCL choose)"),
)
