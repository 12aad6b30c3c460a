"""Texts of core/advisor/rules/compute.py marked for translation (see the package docstring)."""

from __future__ import annotations

from PySide6.QtCore import QT_TRANSLATE_NOOP

STRINGS: tuple[str, ...] = tuple(
    str(s)
    for s in (
        QT_TRANSLATE_NOOP(
            "Advisor",
            "{op_type} runs on AI CPU although it has an AI Core kernel ({count} tasks, {share} of device time)",
        ),
        QT_TRANSLATE_NOOP(
            "Advisor",
            "AI CPU kernels are much slower than AI Core ones. Find out why {op_type} did not get its AI Core"
            " kernel (an input data type, format or shape the kernel does not take, or an older CANN) and "
            "change the call so that it runs on the AI Core, or replace it by equivalent operators.",
        ),
        QT_TRANSLATE_NOOP("Advisor", "AI CPU tasks"),
        QT_TRANSLATE_NOOP("Advisor", "Time on AI CPU"),
        QT_TRANSLATE_NOOP("Advisor", "Share of device time"),
        QT_TRANSLATE_NOOP("Advisor", "Longest task"),
        QT_TRANSLATE_NOOP("Advisor", "AI CPU operators take {share} of stream {stream} ({time})"),
        QT_TRANSLATE_NOOP(
            "Advisor",
            "The stream waits for slow AI CPU kernels ({op_types}). Move this work to AI Core operators "
            "(supported data types, equivalent operators) or out of the step.",
        ),
        QT_TRANSLATE_NOOP("Advisor", "Busy time of the stream"),
        QT_TRANSLATE_NOOP("Advisor", "AI CPU time on the stream"),
        QT_TRANSLATE_NOOP("Advisor", "AI CPU share of the stream"),
        QT_TRANSLATE_NOOP("Advisor", "AI CPU tasks on the stream"),
        QT_TRANSLATE_NOOP(
            "Advisor",
            "{op_type} runs on AI CPU with {dtypes} data ({count} tasks, {share} of device time)",
        ),
        QT_TRANSLATE_NOOP(
            "Advisor",
            "Many AI Core kernels do not take 64-bit data types: {op_type} has an AI Core kernel and probably"
            " fell back to AI CPU for its {dtypes} tensors. Convert them to a supported type before the call "
            "(int64 to int32, double to float32) where the values allow it.",
        ),
        QT_TRANSLATE_NOOP("Advisor", "Data types"),
        QT_TRANSLATE_NOOP(
            "Advisor",
            "No task ran on the AI Core or vector cores: {top_share} of the device time is {top_type} ({count} tasks)",
        ),
        QT_TRANSLATE_NOOP(
            "Advisor",
            "The device worked, but none of its compute cores did: every task ran on the AI CPU or only copied "
            "memory or communicated (most of all {op_types}). Check that the model and its inputs really are on "
            "the NPU (model.npu() and tensor.npu(), or from torch_npu.contrib import transfer_to_npu at the top of "
            "the script); that these operator types have AI Core kernels in this CANN version and get data types "
            "they take (float16, bfloat16 or float32 rather than int64 or double); and that dynamic shapes do not "
            "send them elsewhere: try torch_npu.npu.set_compile_mode(jit_compile=False).",
        ),
        QT_TRANSLATE_NOOP("Advisor", "Device tasks"),
        QT_TRANSLATE_NOOP("Advisor", "Device time"),
        QT_TRANSLATE_NOOP("Advisor", "{type} share of the device time"),
        QT_TRANSLATE_NOOP("Advisor", "Memory-bound operators take {share} of the device time ({count} tasks)"),
        QT_TRANSLATE_NOOP(
            "Advisor",
            "These operators wait for data from global memory (MTE2) longer than they compute, most of all "
            "{op_types}. Fuse them with their neighbours, use larger or aligned shapes, keep matrix inputs in"
            " the NZ format and avoid extra casts and copies.",
        ),
        QT_TRANSLATE_NOOP("Advisor", "Memory-bound tasks"),
        QT_TRANSLATE_NOOP("Advisor", "Their time"),
        QT_TRANSLATE_NOOP("Advisor", "Highest memory bound"),
        QT_TRANSLATE_NOOP(
            "Advisor",
            "AI Core operators that keep no unit busy take {share} of the device time ({count} tasks)",
        ),
        QT_TRANSLATE_NOOP(
            "Advisor",
            "No pipe of these operators (cube, vector, scalar, MTE1/2/3) is busy more than 80 % of their "
            "time, most of all {op_types}: the cores wait. Check their block dim against the core count, "
            "their tiling and shapes; tune them with AOE or fuse small operators.",
        ),
        QT_TRANSLATE_NOOP("Advisor", "Tasks without a bound pipe"),
        QT_TRANSLATE_NOOP(
            "Advisor",
            "{op_type} on inputs {shape}: {headroom} of room to a cube bound ({count} tasks, {share} of device time)",
        ),
        QT_TRANSLATE_NOOP(
            "Advisor",
            "These matrix multiplications move enough data to matter, have cube-friendly shapes and still keep "
            "neither the cube unit (MAC ratio under 80 %) nor the loads (MTE2 ratio under 95 %) busy: the core "
            "waits. Check the operator's tiling and block dim against the core count, tune it with AOE, or "
            "batch or fuse the multiplications so that each call does more work.",
        ),
        QT_TRANSLATE_NOOP("Advisor", "Mean MAC ratio"),
        QT_TRANSLATE_NOOP("Advisor", "Mean MTE2 ratio"),
        QT_TRANSLATE_NOOP("Advisor", "Room to a bound"),
        QT_TRANSLATE_NOOP("Advisor", "Data moved (all calls)"),
        QT_TRANSLATE_NOOP("Advisor", "All {count} operators run with dynamic shapes"),
        QT_TRANSLATE_NOOP(
            "Advisor",
            "Dynamic-shape operators are compiled or selected at run time. If the input shapes do not change,"
            " use the binary kernels and no online compilation: call "
            "torch_npu.npu.set_compile_mode(jit_compile=False) and set "
            "torch_npu.npu.config.allow_internal_format = False at the start of the script.",
        ),
        QT_TRANSLATE_NOOP("Advisor", "Dynamic-shape tasks"),
        QT_TRANSLATE_NOOP("Advisor", "Operator types"),
        QT_TRANSLATE_NOOP(
            "Advisor",
            "{op_type} on inputs {shape}: inner axes not multiples of 256 ({count} tasks, {share} of device time)",
        ),
        QT_TRANSLATE_NOOP(
            "Advisor",
            "Matrix multiplications run fastest when the inner (last) axis of each input is a multiple of 256"
            " elements. Pad or reshape these matrices (inner axes {axes}) or choose such sizes in the model.",
        ),
        QT_TRANSLATE_NOOP("Advisor", "Inner axes"),
        QT_TRANSLATE_NOOP("Advisor", "Tasks"),
        QT_TRANSLATE_NOOP(
            "Advisor",
            "FlashAttentionScore with head dim {head_dim} and sequence length {seq}: not multiples of 128 "
            "({count} tasks, {share} of device time)",
        ),
        QT_TRANSLATE_NOOP(
            "Advisor",
            "FlashAttention kernels run fastest when the head dimension and the sequence length are multiples"
            " of 128. Pad the sequence to a multiple of 128, or use a head dimension of 128 where the model "
            "allows it.",
        ),
        QT_TRANSLATE_NOOP("Advisor", "Head dimension"),
        QT_TRANSLATE_NOOP("Advisor", "Sequence length"),
        QT_TRANSLATE_NOOP(
            "Advisor",
            "{length} operators in a row ({op_types}) run {count} times and mostly move data: a fusion "
            "candidate ({share} of device time)",
        ),
        QT_TRANSLATE_NOOP(
            "Advisor",
            "Each of these small operators reads its inputs from global memory and writes its result back "
            "(memory transfers take {mte} of their core time). One fused operator moves the data once: use a "
            "fused API of torch_npu for the pattern or write one Ascend C kernel for it.",
        ),
        QT_TRANSLATE_NOOP("Advisor", "Operators in the sequence"),
        QT_TRANSLATE_NOOP("Advisor", "Occurrences"),
        QT_TRANSLATE_NOOP("Advisor", "Memory transfers of their core time"),
        QT_TRANSLATE_NOOP(
            "Advisor",
            "Vector operators bound by their pipes take {share} of the device time ({op_types})",
        ),
        QT_TRANSLATE_NOOP(
            "Advisor",
            "These vector operators keep their own pipes busy ({bounds}: vector unit, MTE2 loads, MTE3 "
            "stores), so they cannot run faster as they are. Reduce their work: fuse them with their "
            "neighbours, avoid extra casts and copies, use smaller data types where the accuracy allows.",
        ),
        QT_TRANSLATE_NOOP("Advisor", "Bound pipes"),
    )
)
