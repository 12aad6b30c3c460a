"""Rows of the per-task and statistics tables, shared by the msprof and torch_npu writers.

Column names per CANN version come from reference §2; the torch_npu kernel_details renaming from §4
(``Op Name→Name, OP Type→Type, Task Type→Accelerator Core, Task Start Time(us)→Start Time(us)``...).
"""

from __future__ import annotations

from .chips import Cann, Chip, pmu_columns
from .fmt import NA, dur_text, quoted_shapes, r3, ts_us
from .pmu import pmu_row
from .schedule import Run, Task
from .stats import Agg

TENSOR_COLS = [
    "Input Shapes",
    "Input Data Types",
    "Input Formats",
    "Output Shapes",
    "Output Data Types",
    "Output Formats",
]
_NO_TENSOR_INFO = {"HCCL", "COMMUNICATION"}


def _shape(t) -> str:
    return ",".join(str(d) for d in t.shape)


def tensor_cells(task: Task, legacy_formats: bool) -> list[str]:
    """Shapes (quoted, ``;`` between tensors, ``,`` between dims), data types, formats."""
    if task.task_type in _NO_TENSOR_INFO:
        return [NA] * 6
    op = task.op

    def fmts(ts):
        return ";".join(("FORMAT_ND" if t.format == "ND" else t.format) if legacy_formats else t.format for t in ts)

    def dtypes(ts):
        return ";".join(t.dtype if not legacy_formats else t.dtype.replace("DT_BF16", "BF16") for t in ts)

    return [
        quoted_shapes(";".join(_shape(t) for t in op.inputs)),
        dtypes(op.inputs) or "UNDEFINED",
        fmts(op.inputs) or "NULL",
        quoted_shapes(";".join(_shape(t) for t in op.outputs)),
        dtypes(op.outputs) or "UNDEFINED",
        fmts(op.outputs) or "NULL",
    ]


def op_summary_header(cv: Cann, chip: Chip, metrics: str | None) -> list[str]:
    if cv.legacy:
        base = [
            "Model Name",
            "Model ID",
            "Task ID",
            "Stream ID",
            "Infer ID",
            "Op Name",
            "OP Type",
            "Task Type",
            "Task Start Time",
            "Task Duration(us)",
            "Task Wait Time(us)",
            "Block Dim",
            "Mix Block Dim",
        ]
        return base + TENSOR_COLS + pmu_columns(chip, metrics)
    w = cv.block_word
    base = ["Device_id", "Model ID", "Task ID", "Stream ID", "Op Name", "OP Type"] + (
        ["OP State"] if cv.op_state else []
    )
    base += [
        "Task Type",
        "Task Start Time(us)",
        "Task Duration(us)",
        "Task Wait Time(us)",
        f"Block {w}",
        f"Mix Block {w}",
    ]
    base += ["HF32 Eligible"] if cv.op_state else []
    return base + TENSOR_COLS + ["Context ID"] + pmu_columns(chip, metrics)


def _ids(t: Task) -> tuple[str, str]:
    if t.task_type in _NO_TENSOR_INFO:
        return NA, NA
    return str(t.task_id), str(t.stream_id)


def _mix(t: Task) -> str:
    return NA if t.task_type in _NO_TENSOR_INFO else str(t.mix_block_dim)


def _state(t: Task) -> str:
    return NA if t.task_type in _NO_TENSOR_INFO else ("dynamic" if t.op.dynamic else "static")


def _hf32(t: Task) -> str:
    return NA if t.task_type in _NO_TENSOR_INFO else "NO"


def op_summary_row(run: Run, t: Task, cv: Cann, pmu_cols: list[str]) -> list[str]:
    task_id, stream_id = _ids(t)
    if cv.legacy:
        row = [
            run.workload.model_name if run.style == "model" else NA,
            str(run.model_id),
            task_id,
            stream_id,
            str(t.step),
            t.op.name,
            t.op.type,
            t.task_type,
            ts_us(t.start_ns),
            dur_text(t.dur_ns),
            dur_text(t.wait_ns),
            str(t.block_dim),
            _mix(t),
        ]
        return row + tensor_cells(t, True) + pmu_row(t, run.chip, pmu_cols)
    row = [str(t.device), str(run.model_id), task_id, stream_id, t.op.name, t.op.type]
    row += [_state(t)] if cv.op_state else []
    row += [t.task_type, ts_us(t.start_ns), dur_text(t.dur_ns), dur_text(t.wait_ns), str(t.block_dim), _mix(t)]
    row += [_hf32(t)] if cv.op_state else []
    return row + tensor_cells(t, False) + [t.context_id] + pmu_row(t, run.chip, pmu_cols)


# kernel_details (torch_npu): "2025" matches samples/torch_npu-kernel_details-pipe, "2023" the -arith one.
def kernel_details_header(style: str, chip: Chip, metrics: str | None) -> list[str]:
    head = ["Step Id", "Model ID", "Task ID", "Stream ID", "Name", "Type"] + (["OP State"] if style == "2025" else [])
    head += ["Accelerator Core", "Start Time(us)", "Duration(us)", "Wait Time(us)", "Block Dim", "Mix Block Dim"]
    head += ["HF32 Eligible"] if style == "2025" else []
    return head + TENSOR_COLS + ["Context ID"] + pmu_columns(chip, metrics)


def kernel_details_row(run: Run, t: Task, style: str, pmu_cols: list[str]) -> list[str]:
    task_id, stream_id = _ids(t)
    # real torch_npu 2025: quoted, trailing TAB; 2023 torch_npu wrote a float (e.g. 1699529622790614.8)
    start = ts_us(t.start_ns) + "\t" if style == "2025" else repr(t.start_ns / 1000)
    row = [str(t.step), str(run.model_id), task_id, stream_id, t.op.name, t.op.type]
    row += [_state(t)] if style == "2025" else []
    row += [t.task_type, start, dur_text(t.dur_ns), dur_text(t.wait_ns), str(t.block_dim), _mix(t)]
    row += [_hf32(t)] if style == "2025" else []
    return row + tensor_cells(t, style == "2023") + [t.context_id] + pmu_row(t, run.chip, pmu_cols)


OP_STATISTIC_COLS = [
    "OP Type",
    "Core Type",
    "Count",
    "Total Time(us)",
    "Min Time(us)",
    "Avg Time(us)",
    "Max Time(us)",
    "Ratio(%)",
]


def op_statistic_rows(aggs: list[Agg]) -> list[list[str]]:
    total = sum(a.total_ns for a in aggs) or 1
    return [
        [
            a.key[0],
            a.key[1],
            str(a.count),
            dur_text(a.total_ns),
            dur_text(a.min_ns),
            r3(a.avg_us),
            dur_text(a.max_ns),
            r3(100 * a.total_ns / total),
        ]
        for a in aggs
    ]


API_STATISTIC_COLS = ["Level", "API Name", "Time(us)", "Count", "Avg(us)", "Min(us)", "Max(us)", "Variance"]


def api_statistic_rows(aggs: list[Agg]) -> list[list[str]]:
    return [
        [
            a.key[0],
            a.key[1],
            dur_text(a.total_ns),
            str(a.count),
            r3(a.avg_us),
            dur_text(a.min_ns),
            dur_text(a.max_ns),
            r3(a.variance),
        ]
        for a in aggs
    ]


TASK_TIME_COLS = [
    "kernel_name",
    "kernel_type",
    "stream_id",
    "task_id",
    "task_time(us)",
    "task_start(us)",
    "task_stop(us)",
]


def task_time_row(t: Task) -> list[str]:
    return [
        t.op.name,
        t.task_type,
        str(t.stream_id),
        str(t.task_id),
        dur_text(t.dur_ns),
        ts_us(t.start_ns),
        ts_us(t.end_ns),
    ]
