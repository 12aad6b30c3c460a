"""Texts of core/advisor/rules/communication.py marked for translation (see the package docstring)."""

from __future__ import annotations

from PySide6.QtCore import QT_TRANSLATE_NOOP

STRINGS = (
    QT_TRANSLATE_NOOP("Advisor", "Communication not overlapped with computation takes {share} of the step ({time})"),
    QT_TRANSLATE_NOOP(
        "Advisor",
        "The device waits for communication. Overlap it with computation: bucket gradients so their"
        " AllReduce starts during the backward pass, prefetch parameters (ZeRO / FSDP), use the "
        "communication-computation fusion operators, and reduce the communication volume (larger "
        "data-parallel groups only where the links allow it).",
    ),
    QT_TRANSLATE_NOOP("Advisor", "Communication not overlapped"),
    QT_TRANSLATE_NOOP("Advisor", "Share of the step"),
    QT_TRANSLATE_NOOP("Advisor", "All communication"),
    QT_TRANSLATE_NOOP("Advisor", "Overlapped with computation"),
    QT_TRANSLATE_NOOP("Advisor", "Read from"),
    QT_TRANSLATE_NOOP("Advisor", "{share} of the {transport} communication operators move less than {limit} each"),
    QT_TRANSLATE_NOOP(
        "Advisor",
        "Many small transfers make the host launch bottleneck and waste the link. In data "
        "parallelism increase the batch size or the gradient accumulation and the gradient bucket "
        "size; with ZeRO-3 consider ZeRO-2/1 if memory allows; use the affinity optimisers and "
        "fused operators that issue fewer communication operators.",
    ),
    QT_TRANSLATE_NOOP("Advisor", "Operators with a {transport} transfer"),
    QT_TRANSLATE_NOOP("Advisor", "Smaller than {limit}"),
    QT_TRANSLATE_NOOP("Advisor", "Share of small operators (msprof-analyze flags 20 %)"),
    QT_TRANSLATE_NOOP("Advisor", "Transit time of the small operators"),
    QT_TRANSLATE_NOOP("Advisor", "{count} communication operators move data sizes not aligned to 512 bytes"),
    QT_TRANSLATE_NOOP(
        "Advisor",
        "SDMA transfers whose size is not a multiple of 512 bytes run slower. Pad the tensors you "
        "communicate (or the bucket sizes) to multiples of 512 bytes; ask the HCCL engineers for "
        "the operator's data layout where it is not yours to change.",
    ),
    QT_TRANSLATE_NOOP("Advisor", "Unaligned operators"),
    QT_TRANSLATE_NOOP("Advisor", "Unaligned transfers"),
    QT_TRANSLATE_NOOP("Advisor", "Time of the unaligned transfers"),
    QT_TRANSLATE_NOOP("Advisor", "Share of the SDMA transfer time"),
    QT_TRANSLATE_NOOP(
        "Advisor", "{count} communication operators reach less than {limit} while MatMul runs beside them"
    ),
    QT_TRANSLATE_NOOP(
        "Advisor",
        "Computation and communication share the memory bandwidth. Compare a run with the overlap "
        "switched off (or the communication moved) to see whether the overlap still pays; where it "
        "does not, schedule the communication next to lighter operators.",
    ),
    QT_TRANSLATE_NOOP("Advisor", "Operators below the limit"),
    QT_TRANSLATE_NOOP("Advisor", "Slowest operator"),
    QT_TRANSLATE_NOOP("Advisor", "MatMul tasks running beside them"),
    QT_TRANSLATE_NOOP("Advisor", "{count} communication operators reach less than {limit} on {transport}"),
    QT_TRANSLATE_NOOP(
        "Advisor",
        "The link runs under what it should give. Check for bandwidth contention with concurrent "
        "computation, the placement of the ranks (HCCS inside a server, RDMA between them), the NIC"
        " and switch configuration for RDMA, and compare with a run of the same operators alone.",
    ),
    QT_TRANSLATE_NOOP("Advisor", "Slow operators"),
    QT_TRANSLATE_NOOP("Advisor", "Expected bandwidth of {transport}"),
    QT_TRANSLATE_NOOP("Advisor", "Median bandwidth of the large operators"),
)
