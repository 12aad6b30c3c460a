"""Advisor rules: compute (see the package docstring). Each rule: a RuleText in TEXTS and a check
registered with @rule.

All rules read the OPs table (``ops``: op_summary / kernel_details, one row per device task); the
evidence of an operator is its row there (``table="ops"``, ``row`` = position) with its timeline slice
(``lane`` the Ascend Hardware stream lane, ``device``, ``start_ns``, ``dur_ns``). "Device time" is the
summed task time of the report's non-communication tasks (communication overlaps compute on its own
streams); a finding's severity follows its share of it (:func:`severity_of`).

Facts carried over from msprof-analyze's advisor (PyPI msprof-analyze 26.2, ``advisor/analyzer/
computation`` and ``advisor/rules/en/*.yaml``; the code is not):

- AICPU: every ``AI_CPU`` task counts, the rule applies once one lasts >= 20 us; data types outside
  an op's AI Core kernel's list send it to AI CPU (``aicpu_rules.yaml`` DataTypeChecker; ``DOUBLE``
  inputs: "convert double to float");
- operator bound: an AI Core task is "bound" when a pipe ratio (vec, mac, scalar, mte1, mte2, mte3)
  exceeds 0.8 (``config.ini`` operator_bound_ratio); none above it is "no bound";
- dynamic shape: from CANN 8.0.RC1 the OP State column; no static operator at all is the finding,
  whose advice is ``torch_npu.npu.set_compile_mode(jit_compile=False)`` and
  ``torch_npu.npu.config.allow_internal_format = False``;
- shape affinity (AICorePerformanceChecker): AI_CORE matmuls of a shape moving >= 100 MB in all want the
  inner axis of both inputs a multiple of 256; FlashAttentionScore wants head dim D and sequence S
  multiples of 128 (D = H / N of an SBH / BSH query, N and S from the softmax output; varlen: D of TND);
- fusible operators (fusible_operator.yaml): sequences of 3..10 consecutive tasks (by name and shapes)
  occurring more than 5 times whose MTE time exceeds 0.8 of their core time.

Ours beyond it: AI CPU work of op types that have an AI Core kernel (:data:`AICORE_OP_TYPES`), AI CPU
work taking a large share of one stream, 64-bit data types as the cause of a fallback (msprof-analyze's
list since CANN 8.0.RC1 has int64 on every op and cannot see it), memory-bound operators
(``memory_bound`` > 1 with the MTE2 pipe busy > 80 %) and their share of the device time; sequences of
vector tasks only, with aiv time in the core time (msprof-analyze's aicore time is 0 for a vector task,
so it never sees a vector chain as MTE-bound).
"""

from __future__ import annotations

import warnings
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property

import numpy as np
import pandas as pd

from workbench.core.advisor.model import Evidence, Fact, Finding, RuleText, Severity, count, ms, pct, rule
from workbench.core.profiling import stats, views

TEXTS: dict[str, RuleText] = {
    "compute.aicpu_has_aicore": RuleText(
        title="{op_type} runs on AI CPU although it has an AI Core kernel ({count} tasks, {share} of device time)",
        advice=(
            "AI CPU kernels are much slower than AI Core ones. Find out why {op_type} did not get its AI Core "
            "kernel (an input data type, format or shape the kernel does not take, or an older CANN) and change "
            "the call so that it runs on the AI Core, or replace it by equivalent operators."
        ),
        facts={
            "tasks": "AI CPU tasks",
            "time": "Time on AI CPU",
            "share": "Share of device time",
            "longest": "Longest task",
        },
    ),
    "compute.aicpu_stream": RuleText(
        title="AI CPU operators take {share} of stream {stream} ({time})",
        advice=(
            "The stream waits for slow AI CPU kernels ({op_types}). Move this work to AI Core operators "
            "(supported data types, equivalent operators) or out of the step."
        ),
        facts={
            "stream_time": "Busy time of the stream",
            "aicpu_time": "AI CPU time on the stream",
            "share": "AI CPU share of the stream",
            "tasks": "AI CPU tasks on the stream",
        },
    ),
    "compute.aicpu_dtype": RuleText(
        title="{op_type} runs on AI CPU with {dtypes} data ({count} tasks, {share} of device time)",
        advice=(
            "Many AI Core kernels do not take 64-bit data types: {op_type} has an AI Core kernel and probably fell "
            "back to AI CPU for its {dtypes} tensors. Convert them to a supported type before the call (int64 to "
            "int32, double to float32) where the values allow it."
        ),
        facts={
            "dtypes": "Data types",
            "tasks": "AI CPU tasks",
            "time": "Time on AI CPU",
            "share": "Share of device time",
        },
    ),
    "compute.no_aicore": RuleText(
        title=(
            "No task ran on the AI Core or vector cores: {top_share} of the device time is {top_type} ({count} tasks)"
        ),
        advice=(
            "The device worked, but none of its compute cores did: every task ran on the AI CPU or only copied "
            "memory or communicated (most of all {op_types}). Check that the model and its inputs really are on "
            "the NPU (model.npu() and tensor.npu(), or from torch_npu.contrib import transfer_to_npu at the top of "
            "the script); that these operator types have AI Core kernels in this CANN version and get data types "
            "they take (float16, bfloat16 or float32 rather than int64 or double); and that dynamic shapes do not "
            "send them elsewhere: try torch_npu.npu.set_compile_mode(jit_compile=False)."
        ),
        facts={
            "tasks": "Device tasks",
            "time": "Device time",
            "type_share": "{type} share of the device time",
        },
    ),
    "compute.memory_bound": RuleText(
        title="Memory-bound operators take {share} of the device time ({count} tasks)",
        advice=(
            "These operators wait for data from global memory (MTE2) longer than they compute, most of all "
            "{op_types}. Fuse them with their neighbours, use larger or aligned shapes, keep matrix inputs in the "
            "NZ format and avoid extra casts and copies."
        ),
        facts={
            "tasks": "Memory-bound tasks",
            "time": "Their time",
            "share": "Share of device time",
            "worst": "Highest memory bound",
        },
    ),
    "compute.no_bound": RuleText(
        title="AI Core operators that keep no unit busy take {share} of the device time ({count} tasks)",
        advice=(
            "No pipe of these operators (cube, vector, scalar, MTE1/2/3) is busy more than 80 % of their time, "
            "most of all {op_types}: the cores wait. Check their block dim against the core count, their tiling "
            "and shapes; tune them with AOE or fuse small operators."
        ),
        facts={
            "tasks": "Tasks without a bound pipe",
            "time": "Their time",
            "share": "Share of device time",
        },
    ),
    "compute.cube_optimization": RuleText(
        title="{op_type} on inputs {shape}: {headroom} of room to a cube bound ({count} tasks, {share} of device time)",
        advice=(
            "These matrix multiplications move enough data to matter, have cube-friendly shapes and still keep "
            "neither the cube unit (MAC ratio under 80 %) nor the loads (MTE2 ratio under 95 %) busy: the core "
            "waits. Check the operator's tiling and block dim against the core count, tune it with AOE, or "
            "batch or fuse the multiplications so that each call does more work."
        ),
        facts={
            "mac": "Mean MAC ratio",
            "mte2": "Mean MTE2 ratio",
            "headroom": "Room to a bound",
            "data": "Data moved (all calls)",
            "tasks": "Tasks",
            "time": "Their time",
            "share": "Share of device time",
        },
    ),
    "compute.dynamic_shape": RuleText(
        title="All {count} operators run with dynamic shapes",
        advice=(
            "Dynamic-shape operators are compiled or selected at run time. If the input shapes do not change, "
            "use the binary kernels and no online compilation: call torch_npu.npu.set_compile_mode(jit_compile="
            "False) and set torch_npu.npu.config.allow_internal_format = False at the start of the script."
        ),
        facts={
            "tasks": "Dynamic-shape tasks",
            "types": "Operator types",
        },
    ),
    "compute.cube_affinity": RuleText(
        title="{op_type} on inputs {shape}: inner axes not multiples of 256 ({count} tasks, {share} of device time)",
        advice=(
            "Matrix multiplications run fastest when the inner (last) axis of each input is a multiple of 256 "
            "elements. Pad or reshape these matrices (inner axes {axes}) or choose such sizes in the model."
        ),
        facts={
            "axes": "Inner axes",
            "tasks": "Tasks",
            "time": "Their time",
            "share": "Share of device time",
        },
    ),
    "compute.fa_affinity": RuleText(
        title=(
            "FlashAttentionScore with head dim {head_dim} and sequence length {seq}: not multiples of 128 "
            "({count} tasks, {share} of device time)"
        ),
        advice=(
            "FlashAttention kernels run fastest when the head dimension and the sequence length are multiples of "
            "128. Pad the sequence to a multiple of 128, or use a head dimension of 128 where the model allows it."
        ),
        facts={
            "head_dim": "Head dimension",
            "seq": "Sequence length",
            "tasks": "Tasks",
            "time": "Their time",
        },
    ),
    "compute.fusible_sequence": RuleText(
        title=(
            "{length} operators in a row ({op_types}) run {count} times and mostly move data: a fusion candidate "
            "({share} of device time)"
        ),
        advice=(
            "Each of these small operators reads its inputs from global memory and writes its result back (memory "
            "transfers take {mte} of their core time). One fused operator moves the data once: use a fused API of "
            "torch_npu for the pattern or write one Ascend C kernel for it."
        ),
        facts={
            "length": "Operators in the sequence",
            "count": "Occurrences",
            "time": "Their time",
            "share": "Share of device time",
            "mte": "Memory transfers of their core time",
        },
    ),
    "compute.vector_bound": RuleText(
        title="Vector operators bound by their pipes take {share} of the device time ({op_types})",
        advice=(
            "These vector operators keep their own pipes busy ({bounds}: vector unit, MTE2 loads, MTE3 stores), "
            "so they cannot run faster as they are. Reduce their work: fuse them with their neighbours, avoid "
            "extra casts and copies, use smaller data types where the accuracy allows."
        ),
        facts={
            "tasks": "Tasks",
            "time": "Their time",
            "share": "Share of device time",
            "bounds": "Bound pipes",
        },
    ),
}

# Op types CANN ships an AI Core (TBE / Ascend C) kernel for: an AI_CPU task of one of these fell back.
_AICORE_NAMES = (
    "Abs Add AddN AddV2 ArgMaxV2 ArgMaxD ArgMin ArgMinD AvgPoolV2 BatchMatMul BatchMatMulV2 BatchMatMulV3 "
    "BNInferenceD BroadcastTo Cast Ceil ClipByValue Concat ConcatD ConcatV2 Conv2D Cos Cumsum Div DivNoNan "
    "Equal Erf Exp Expand ExpandDims FastGelu Fill Floor FloorDiv FloorMod GatherElements GatherV2 GatherNd "
    "Gelu Greater GreaterEqual IndexPutV2 LayerNorm LayerNormV3 LeakyRelu Less LessEqual Log LogSoftmaxV2 "
    "LogicalAnd LogicalNot LogicalOr MatMul MatMulV2 MatMulV3 MaskedFill Maximum MaxPoolV3 Minimum Mul Neg "
    "NotEqual OnesLike Pad PadV3 Pow Range RealDiv ReduceMax ReduceMean ReduceMeanD ReduceMin ReduceSum "
    "ReduceSumD Relu ResizeBilinearV2 RmsNorm Rsqrt ScatterNdUpdate ScatterUpdate Select Sigmoid Sin Slice "
    "SoftmaxV2 Sort Split SplitV Sqrt Square StridedSlice StridedSliceD Sub Swish Tanh Tile TopK TopKV2 "
    "TransData Transpose TransposeD ZerosLike"
)
AICORE_OP_TYPES = frozenset(t.lower() for t in _AICORE_NAMES.split())
# 64-bit data types: AI Core kernels take few of them; as a data input they are the usual AI CPU fallback cause.
FALLBACK_DTYPES = frozenset({"INT64", "UINT64", "DOUBLE", "FLOAT64", "COMPLEX64", "COMPLEX128"})
OUTPUT_TYPED_OPS = frozenset({"cast"})  # the output type picks the kernel too
COMM_TASK_TYPES = frozenset({"HCCL", "COMMUNICATION"})
MIN_TASK_US = 20.0  # msprof-analyze's _MIN_TASK_DURATION of the AICPU and bound checkers
BOUND_RATIO = 0.8  # msprof-analyze config.ini operator_bound_ratio
STREAM_AICPU_SHARE = 0.4  # AI CPU share of a stream's busy time that "dominates" it (ours)
MEMORY_BOUND_SHARE = 0.3  # memory-bound share of device time worth a finding (ours)
NO_BOUND_SHARE = 0.1
TOP_N = 10
CUBE_MEMORY_MB = 100.0  # msprof-analyze: cube ops of a shape moving >= 100 MB in all are checked
CUBE_AXIS = 256  # msprof-analyze INNER_AXIS_256
CUBE_BOUND = (("mac", 0.8), ("mte2", 0.95))  # aicore_performance.yaml cube_operators: aic_mac_ratio, aic_mte2_ratio
CUBE_TOP = 5  # msprof-analyze lists the 5 shapes with the most room
FA_AXIS = 128  # msprof-analyze INNER_AXIS_128
SEQUENCE_MIN, SEQUENCE_MAX = 3, 10  # fusible_operator.yaml min_length 2 / max_length 10: sequences of 3..10 ops
SEQUENCE_COUNT = 5  # sequence_count_threshold: more occurrences than this
SEQUENCE_MTE = 0.8  # mte_threshold: MTE time / core time above this
SEQUENCE_TASKS = 100_000  # tasks per device scanned for sequences (ours: bounds the scan of a huge report)
_HASH_MOD = (1 << 61) - 1
VECTOR_TASK_TYPES = ("AI_VECTOR_CORE", "MIX_AIV")  # the tasks a fusible sequence is made of (ours)
VECTOR_PIPES = ("vec_ratio", "mte2_ratio", "mte3_ratio")
VECTOR_TYPE_SHARE = 0.01  # msprof-analyze: vector op types with >= 1 % of the total time are checked
VECTOR_BOUND = (("vec_mte2_mte3", 0.9), ("mte2", 0.7), ("mte3", 0.7), ("vec", 0.7))  # aicore_performance.yaml
PIPES = ("vec_ratio", "mac_ratio", "scalar_ratio", "mte1_ratio", "mte2_ratio", "mte3_ratio")


def severity_of(share: float) -> Severity:
    """By impact: >= 20 % of the device time high, >= 5 % medium, else low."""
    if share >= 0.2:
        return Severity.HIGH
    if share >= 0.05:
        return Severity.MEDIUM
    return Severity.LOW


# --- the OPs table, prepared once per run -----------------------------------------------------------


@dataclass
class Ops:
    """The columns of the OPs table the rules read, as numpy arrays (row i = position i of ``ops``)."""

    frame: pd.DataFrame
    name: np.ndarray  # str
    type: np.ndarray  # str
    task_type: np.ndarray  # str, upper case ("" when absent)
    stream: np.ndarray  # int, -1 when absent
    device: np.ndarray  # int, -1 when absent
    start_ns: np.ndarray  # int64, -1 when absent
    dur_us: np.ndarray  # float, 0 when absent
    lanes: dict[tuple[int, int], str]  # (device, stream) -> timeline lane label

    def __len__(self) -> int:
        return len(self.name)

    def task_types(self, *types: str) -> np.ndarray:
        """Rows whose task type is one of ``types`` (a hash lookup: object arrays are slow in np.isin)."""
        return pd.Series(self.task_type, dtype=object).isin(types).to_numpy()

    @cached_property
    def compute(self) -> np.ndarray:
        """Rows that are not communication tasks."""
        return ~self.task_types(*COMM_TASK_TYPES)

    @cached_property
    def device_us(self) -> float:
        return float(self.dur_us[self.compute].sum())

    def text(self, column: str) -> np.ndarray:
        return _texts(self.frame, column)

    def evidence(self, rows: Iterable[int], **values: np.ndarray) -> tuple[Evidence, ...]:
        """One "op" item per row: its OPs row and its slice on the timeline."""
        out = []
        for i in rows:
            i = int(i)
            dev, stream, start = int(self.device[i]), int(self.stream[i]), int(self.start_ns[i])
            extra = {k: _plain(v[i]) for k, v in values.items()}
            out.append(
                Evidence(
                    kind="op",
                    label=str(self.name[i]),
                    table="ops",
                    row=i,
                    lane=self.lanes.get((dev, stream)),
                    device=dev if dev >= 0 else None,
                    start_ns=start if start >= 0 else None,
                    dur_ns=int(round(float(self.dur_us[i]) * 1000)),
                    values={
                        "type": str(self.type[i]),
                        "task_type": str(self.task_type[i]),
                        "stream_id": stream if stream >= 0 else None,
                        "duration_us": float(self.dur_us[i]),
                        **extra,
                    },
                )
            )
        return tuple(out)


def _plain(value: object) -> object:
    item = getattr(value, "item", None)
    return item() if callable(item) else value


def _texts(frame: pd.DataFrame, column: str, fold: Callable[[str], str] | None = None) -> np.ndarray:
    """A column as str objects ("" where absent or empty), ``fold`` applied (to the categories only when
    the column is categorical: a million rows cost their few distinct values)."""
    if column not in frame.columns:
        return np.full(len(frame), "", dtype=object)
    col = frame[column]
    if isinstance(col.dtype, pd.CategoricalDtype):
        cats = [str(c) for c in col.cat.categories]
        table = np.asarray([fold(c) if fold else c for c in cats] + [""], dtype=object)
        codes = col.cat.codes.to_numpy()
        return table[np.where(codes < 0, len(cats), codes)]
    values = col.astype(object).where(col.notna(), "").astype(str).to_numpy(dtype=object)
    return np.asarray([fold(v) for v in values], dtype=object) if fold else values


def _ints(frame: pd.DataFrame, column: str, n: int) -> np.ndarray:
    if column not in frame.columns:
        return np.full(n, -1, dtype=np.int64)
    return pd.to_numeric(frame[column], errors="coerce").fillna(-1).astype(np.int64).to_numpy()


def _lanes(report: object) -> dict[tuple[int, int], str]:
    tl = getattr(report, "timeline", None)
    found: dict[tuple[int, int], str] = {}
    for lane in getattr(tl, "lanes", None) or ():
        if not lane.is_stream or lane.device is None:
            continue
        words = str(lane.thread_name or "").split()
        if len(words) == 2 and words[0] == "Stream" and words[1].isdigit():
            found[(int(lane.device), int(words[1]))] = views.lane_label(lane)
    return found


def prepare(report: object) -> Ops | None:
    """The OPs table's columns the rules need, or None when the report has no OPs table."""
    frame = getattr(report, "tables", {}).get("ops")
    if frame is None or not len(frame) or "duration_us" not in frame.columns:
        return None
    n = len(frame)
    return Ops(
        frame=frame,
        name=_texts(frame, "name"),
        type=_texts(frame, "type"),
        task_type=_texts(frame, "task_type", str.upper),
        stream=_ints(frame, "stream_id", n),
        device=_ints(frame, "device", n),
        start_ns=_ints(frame, "start_ns", n),
        dur_us=pd.to_numeric(frame["duration_us"], errors="coerce").fillna(0.0).to_numpy(dtype=np.float64),
        lanes=_lanes(report),
    )


def _ops(subject) -> Ops | None:
    return subject.cached("compute.ops", lambda: prepare(subject.report))


def _top(rows: np.ndarray, dur_us: np.ndarray, n: int = TOP_N) -> np.ndarray:
    """``rows`` by duration, longest first (stable), cut to ``n``."""
    order = np.argsort(-dur_us[rows], kind="stable")
    return rows[order][:n]


def _type_list(types: Sequence[str], dur_us: np.ndarray, n: int = 3) -> str:
    """The ``n`` op types with the most time, as "A, B, C"."""
    totals: dict[str, float] = {}
    for t, d in zip(types, dur_us):
        totals[t] = totals.get(t, 0.0) + float(d)
    return ", ".join(sorted(totals, key=lambda t: (-totals[t], t))[:n])


# --- AI CPU -----------------------------------------------------------------------------------------


def _fallback_dtypes(ops: Ops, rows: np.ndarray) -> dict[int, set[str]]:
    """For each of ``rows``: the 64-bit data types of its data tensors (inputs; a Cast's output too). A
    scalar (empty shape or one element: an axis, a count) is an attribute, not data."""
    in_types, in_shapes = ops.text("input_dtypes"), ops.text("input_shapes")
    out_types, out_shapes = ops.text("output_dtypes"), ops.text("output_shapes")
    found: dict[int, set[str]] = {}
    seen: dict[tuple[str, str, str, str, str], set[str]] = {}  # few distinct signatures, many rows
    for r in rows:
        i = int(r)
        key = (str(ops.type[i]), in_types[i], in_shapes[i], out_types[i], out_shapes[i])
        if key not in seen:
            hits = _wide(in_types[i], in_shapes[i])
            if key[0].lower() in OUTPUT_TYPED_OPS:
                hits |= _wide(out_types[i], out_shapes[i])
            seen[key] = hits
        found[i] = seen[key]
    return found


def _wide(dtypes: str, shapes: str) -> set[str]:
    types = [t.strip().upper() for t in dtypes.split(";")] if dtypes else []
    dims = [s.strip().strip('"') for s in shapes.split(";")] if shapes else []
    hits = set()
    for k, t in enumerate(types):
        if t not in FALLBACK_DTYPES:
            continue
        shape = dims[k] if k < len(dims) else ""
        if _elements(shape) > 1:
            hits.add(t)
    return hits


def _elements(shape: str) -> int:
    total = 1
    parts = [p for p in shape.split(",") if p.strip()]
    if not parts:
        return 1
    for p in parts:
        try:
            total *= int(p)
        except ValueError:
            return 2  # a symbolic / unknown dimension: treat as data
    return total


def _aicpu(subject) -> tuple[Ops, np.ndarray, dict[int, set[str]]] | None:
    """The prepared ops, the AI CPU rows and each row's fallback data types, or None when the report has
    no AI CPU task that lasts MIN_TASK_US (msprof-analyze's threshold)."""

    def make():
        ops = _ops(subject)
        if ops is None:
            return None
        rows = np.flatnonzero(ops.task_type == "AI_CPU")
        if not len(rows) or float(ops.dur_us[rows].max()) < MIN_TASK_US:
            return None
        return ops, rows, _fallback_dtypes(ops, rows)

    return subject.cached("compute.aicpu", make)


def _groups(rows: np.ndarray, keys: np.ndarray) -> Iterator[tuple[str, np.ndarray]]:
    """``rows`` grouped by ``keys`` (one key per row of ``rows``), groups in first-seen order."""
    if not len(rows):
        return
    codes, uniques = pd.factorize(pd.Series(keys, dtype=object))  # uniques in order of appearance
    order = np.argsort(codes, kind="stable")
    bounds = np.cumsum(np.bincount(codes, minlength=len(uniques)))[:-1]
    for key, members in zip(uniques, np.split(np.asarray(rows, dtype=np.int64)[order], bounds)):
        yield str(key), members


@rule("compute.aicpu_has_aicore", "compute", TEXTS["compute.aicpu_has_aicore"])
def aicpu_has_aicore(subject) -> list[Finding]:
    """AI CPU tasks of op types that have an AI Core kernel, one finding per op type, where no 64-bit data
    type explains the fallback (that is :func:`aicpu_dtype`)."""
    found = _aicpu(subject)
    if found is None:
        return []
    ops, rows, wide = found
    rows = np.asarray([r for r in rows if str(ops.type[r]).lower() in AICORE_OP_TYPES and not wide[int(r)]], np.int64)
    findings = []
    for op_type, members in _groups(rows, ops.type[rows]):
        longest = Fact("longest", ms(float(ops.dur_us[members].max()) * 1000))
        findings.append(_group_finding("compute.aicpu_has_aicore", ops, members, {"op_type": op_type}, last=(longest,)))
    return sorted(findings, key=lambda f: f.severity.rank)


@rule("compute.aicpu_stream", "compute", TEXTS["compute.aicpu_stream"])
def aicpu_stream(subject) -> list[Finding]:
    """A stream whose busy time is STREAM_AICPU_SHARE or more AI CPU work."""
    found = _aicpu(subject)
    if found is None:
        return []
    ops, rows, _ = found
    total = ops.device_us
    findings = []
    compute = ops.compute
    for dev, stream in sorted({(int(ops.device[r]), int(ops.stream[r])) for r in rows}):
        on_stream = (ops.device == dev) & (ops.stream == stream) & compute
        stream_us = float(ops.dur_us[on_stream].sum())
        mine = rows[(ops.device[rows] == dev) & (ops.stream[rows] == stream)]
        aicpu_us = float(ops.dur_us[mine].sum())
        share = aicpu_us / stream_us if stream_us else 0.0
        if share < STREAM_AICPU_SHARE:
            continue
        device_share = aicpu_us / total if total else 0.0
        severity = severity_of(device_share)
        if severity is Severity.LOW:
            severity = Severity.MEDIUM  # a stream that mostly waits for AI CPU is never a detail
        lane = ops.lanes.get((dev, stream))
        lane_item = (Evidence(kind="lane", label=lane, lane=lane, device=dev if dev >= 0 else None),) if lane else ()
        findings.append(
            Finding(
                rule="compute.aicpu_stream",
                category="compute",
                severity=severity,
                args={
                    "share": pct(share),
                    "stream": str(stream) if stream >= 0 else "?",
                    "time": ms(aicpu_us * 1000),
                    "op_types": _type_list(list(ops.type[mine]), ops.dur_us[mine]),
                },
                facts=(
                    Fact("stream_time", ms(stream_us * 1000)),
                    Fact("aicpu_time", ms(aicpu_us * 1000)),
                    Fact("share", pct(share)),
                    Fact("tasks", count(len(mine))),
                ),
                evidence=lane_item + ops.evidence(_top(mine, ops.dur_us)),
                evidence_total=len(lane_item) + len(mine),
            )
        )
    return findings


@rule("compute.aicpu_dtype", "compute", TEXTS["compute.aicpu_dtype"])
def aicpu_dtype(subject) -> list[Finding]:
    """AI CPU tasks of AI Core op types whose data tensors have 64-bit types, one finding per op type."""
    found = _aicpu(subject)
    if found is None:
        return []
    ops, rows, wide = found
    rows = np.asarray([r for r in rows if str(ops.type[r]).lower() in AICORE_OP_TYPES and wide[int(r)]], np.int64)
    findings = []
    for op_type, members in _groups(rows, ops.type[rows]):
        dtypes = ", ".join(sorted(set().union(*(wide[int(r)] for r in members))))
        args = {"op_type": op_type, "dtypes": dtypes}
        findings.append(_group_finding("compute.aicpu_dtype", ops, members, args, first=(Fact("dtypes", dtypes),)))
    return sorted(findings, key=lambda f: f.severity.rank)


COMPUTE_CORE_TASK_TYPES = ("AI_CORE", "AI_VECTOR_CORE", "MIX_AIC", "MIX_AIV")  # tasks on the compute cores


@rule("compute.no_aicore", "compute", TEXTS["compute.no_aicore"])
def no_aicore(subject) -> list[Finding]:
    """The forum's "only HBM is used, no AI Core": the device ran tasks, and not one of them on the AI Core,
    AI Vector or MIX cores (all on AI CPU, or only memory copies / DSA / communication). A report whose tasks
    lack a task type cannot tell, so says nothing. Facts: the share of the device time per task type (all
    tasks, communication too: it is all the device did); evidence: the longest tasks."""
    ops = _ops(subject)
    if ops is None or not len(ops) or (ops.task_type == "").any():
        return []
    if ops.task_types(*COMPUTE_CORE_TASK_TYPES).any():
        return []
    total = float(ops.dur_us.sum())
    if total <= 0:
        return []
    rows = np.arange(len(ops))
    shares = [(t, float(ops.dur_us[m].sum()) / total) for t, m in _groups(rows, ops.task_type)]
    shares.sort(key=lambda x: (-x[1], x[0]))
    top_type, top_share = shares[0]
    return [
        Finding(
            rule="compute.no_aicore",
            category="compute",
            severity=Severity.HIGH,
            args={
                "top_type": top_type,
                "top_share": pct(top_share),
                "count": count(len(ops)),
                "op_types": _type_list(list(ops.type), ops.dur_us),
            },
            facts=(
                Fact("tasks", count(len(ops))),
                Fact("time", ms(total * 1000)),
                *(Fact("type_share", pct(share), {"type": t}) for t, share in shares),
            ),
            evidence=ops.evidence(_top(rows, ops.dur_us)),
            evidence_total=len(ops),
        )
    ]


# --- AI Core pipes ----------------------------------------------------------------------------------


def _pipes(ops: Ops) -> dict[str, np.ndarray]:
    """Per pipe ratio base name (``mte2_ratio``...), the largest of its aic_/aiv_ columns per row (NaN
    where the row has none)."""
    out: dict[str, np.ndarray] = {}
    for base in PIPES:
        cols = [c for c in ops.frame.columns if stats.pmu_base(str(c)) == base]
        if not cols:
            continue
        data = np.vstack([pd.to_numeric(ops.frame[c], errors="coerce").to_numpy(dtype=np.float64) for c in cols])
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)  # all-NaN rows stay NaN
            out[base] = np.nanmax(data, axis=0)
    return out


def _aicore_rows(ops: Ops) -> np.ndarray:
    return ops.task_types(*stats.AI_CORE_TASK_TYPES)


def _rows_finding(
    rule_id: str,
    ops: Ops,
    rows: np.ndarray,
    severity: tuple[float, Severity, Severity],
    *,
    min_share: float = 0.0,
    with_count: bool = True,
    args: Mapping[str, str] | None = None,
    facts: tuple[Fact, ...] = (),
    values: Mapping[str, np.ndarray] | None = None,
) -> list[Finding]:
    """The one finding of a rule about a set of OPs rows taken together (none when ``rows`` is empty or takes
    less than ``min_share`` of the device time): ``severity`` (at, at or above, below) by the share; args the
    share, the task count (``with_count``), the top op types, then ``args``; facts the tasks, their time and
    share, then ``facts``; evidence the longest rows with ``values``."""
    time, share = _share_facts(ops, rows)
    if not len(rows) or share < min_share:
        return []
    return [
        Finding(
            rule=rule_id,
            category="compute",
            severity=severity[1] if share >= severity[0] else severity[2],
            args={
                "share": pct(share),
                **({"count": count(len(rows))} if with_count else {}),
                "op_types": _type_list(list(ops.type[rows]), ops.dur_us[rows]),
                **(args or {}),
            },
            facts=(Fact("tasks", count(len(rows))), Fact("time", ms(time * 1000)), Fact("share", pct(share)), *facts),
            evidence=ops.evidence(_top(rows, ops.dur_us), **(values or {})),
            evidence_total=len(rows),
        )
    ]


@rule("compute.memory_bound", "compute", TEXTS["compute.memory_bound"])
def memory_bound(subject) -> list[Finding]:
    """AI Core tasks with memory_bound > 1 (the file's column, else mte2 / max(mac, vec)) whose MTE2 pipe
    is busy more than BOUND_RATIO, when they take MEMORY_BOUND_SHARE of the device time or more."""
    ops = _ops(subject)
    if ops is None:
        return []
    if "memory_bound" in ops.frame.columns:
        bound = pd.to_numeric(ops.frame["memory_bound"], errors="coerce").to_numpy(dtype=np.float64)
    else:
        bound = stats.memory_bound(ops.frame)
    pipes = _pipes(ops)
    mte2 = pipes.get("mte2_ratio")
    if mte2 is None or np.isnan(bound).all():
        return []
    with np.errstate(invalid="ignore"):
        hit = _aicore_rows(ops) & (bound > 1.0) & (mte2 > BOUND_RATIO)
    rows = np.flatnonzero(hit)
    if not len(rows):
        return []
    worst = Fact("worst", f"{float(np.nanmax(bound[rows])):.3f}")
    severity = (0.5, Severity.HIGH, Severity.MEDIUM)
    values = {"memory_bound": bound, "mte2_ratio": mte2}
    return _rows_finding(
        "compute.memory_bound", ops, rows, severity, min_share=MEMORY_BOUND_SHARE, facts=(worst,), values=values
    )


@rule("compute.no_bound", "compute", TEXTS["compute.no_bound"])
def no_bound(subject) -> list[Finding]:
    """msprof-analyze's "operator no bound": AI Core tasks of MIN_TASK_US or more with PMU pipe ratios of
    which none exceeds BOUND_RATIO, when they take NO_BOUND_SHARE of the device time or more."""
    ops = _ops(subject)
    if ops is None:
        return []
    pipes = _pipes(ops)
    if not pipes:
        return []
    measured = np.zeros(len(ops), dtype=bool)
    busy = np.zeros(len(ops), dtype=bool)
    for ratio in pipes.values():  # pipe by pipe: no (pipes x tasks) copy; NaN (not measured) is never busy
        measured |= ~np.isnan(ratio)
        with np.errstate(invalid="ignore"):
            busy |= ratio > BOUND_RATIO
    rows = np.flatnonzero(_aicore_rows(ops) & measured & ~busy & (ops.dur_us >= MIN_TASK_US))
    severity = (0.3, Severity.MEDIUM, Severity.LOW)
    return _rows_finding("compute.no_bound", ops, rows, severity, min_share=NO_BOUND_SHARE, values=pipes)


# --- shapes -----------------------------------------------------------------------------------------


@rule("compute.dynamic_shape", "compute", TEXTS["compute.dynamic_shape"])
def dynamic_shape(subject) -> list[Finding]:
    """msprof-analyze's dynamic-shape rule: the OP State column (CANN 8.0.RC1 on) names no static
    operator. Evidence: the longest dynamic tasks."""
    ops = _ops(subject)
    if ops is None or "op_state" not in ops.frame.columns:
        return []
    state = _texts(ops.frame, "op_state", str.lower)
    known = ops.compute & pd.Series(state, dtype=object).isin(["dynamic", "static"]).to_numpy()
    if not known.any() or (state[known] == "static").any():
        return []
    rows = np.flatnonzero(known)
    types = sorted({str(t) for t in ops.type[rows]})
    return [
        Finding(
            rule="compute.dynamic_shape",
            category="compute",
            severity=Severity.MEDIUM,
            args={"count": count(len(rows))},
            facts=(Fact("tasks", count(len(rows))), Fact("types", count(len(types)))),
            evidence=ops.evidence(_top(rows, ops.dur_us)),
            evidence_total=len(rows),
        )
    ]


def _dims(shapes: str) -> list[list[int]]:
    """ "512,1024;1024,32000" -> [[512, 1024], [1024, 32000]]; an empty or unreadable tensor -> []."""
    out = []
    for part in shapes.strip().strip('"').split(";"):
        try:
            out.append([int(d) for d in part.split(",") if d.strip()])
        except ValueError:
            out.append([])
    return out


def _shape_groups(ops: Ops, rows: np.ndarray) -> Iterator[tuple[tuple[str, str, str], np.ndarray]]:
    """``rows`` grouped by (name, input shapes, output shapes), as msprof-analyze groups them."""
    ins, outs = ops.text("input_shapes"), ops.text("output_shapes")
    keys = ops.name[rows] + "\x1f" + ins[rows] + "\x1f" + outs[rows]
    for key, members in _groups(rows, keys):
        name, shape_in, shape_out = key.split("\x1f")
        yield (name, shape_in, shape_out), members


def _megabytes(shape_in: str, shape_out: str) -> float:
    """What one call moves, as msprof-analyze estimates it (``memory_size``): every element of every tensor,
    2 bytes, a 1-D input (a bias) counted twice."""
    elements = sum(int(np.prod(d)) * (2 if len(d) == 1 else 1) for d in _dims(shape_in) if d)
    elements += sum(int(np.prod(d)) for d in _dims(shape_out) if d)
    return elements * 2 / 1024 / 1024


def _inner_axes(shape_in: str) -> tuple[int, int] | None:
    """The inner axes of a matmul's two inputs: the last dims (ND, 2-D) or dims 1 x 2 (NZ, 4-D)."""
    dims = _dims(shape_in)
    if len(dims) < 2:
        return None
    a, b = dims[0], dims[1]
    if len(a) == 4 and len(b) == 4:
        return a[1] * a[2], b[1] * b[2]
    if len(a) == 2 and b:
        return a[-1], b[-1]
    return None


def _share_facts(ops: Ops, members: np.ndarray) -> tuple[float, float]:
    time = float(ops.dur_us[members].sum())
    total = ops.device_us
    return time, (time / total if total else 0.0)


def _group_finding(
    rule_id: str,
    ops: Ops,
    members: np.ndarray,
    args: Mapping[str, str],
    *,
    first: tuple[Fact, ...] = (),
    last: tuple[Fact, ...] = (),
    share_fact: bool = True,
    values: Mapping[str, np.ndarray] | None = None,
) -> Finding:
    """The finding about one group of OPs rows (an op type, a shape): severity from the group's share of the
    device time; args ``args``, then its task count and share; facts ``first``, its tasks, their time (and
    share: ``share_fact``), then ``last``; evidence its longest rows with ``values``."""
    time, share = _share_facts(ops, members)
    share_facts = (Fact("share", pct(share)),) if share_fact else ()
    return Finding(
        rule=rule_id,
        category="compute",
        severity=severity_of(share),
        args={**args, "count": count(len(members)), "share": pct(share)},
        facts=(*first, Fact("tasks", count(len(members))), Fact("time", ms(time * 1000)), *share_facts, *last),
        evidence=ops.evidence(_top(members, ops.dur_us), **(values or {})),
        evidence_total=len(members),
    )


@rule("compute.cube_affinity", "compute", TEXTS["compute.cube_affinity"])
def cube_affinity(subject) -> list[Finding]:
    """msprof-analyze's cube affinity: AI_CORE matmul tasks, grouped by name and shapes, of groups moving
    CUBE_MEMORY_MB or more in all, whose inputs' inner axes are not multiples of CUBE_AXIS."""
    ops = _ops(subject)
    if ops is None or "input_shapes" not in ops.frame.columns:
        return []
    matmuls = [t for t in set(ops.type) if "matmul" in str(t).lower()]
    rows = np.flatnonzero((ops.task_type == "AI_CORE") & pd.Series(ops.type, dtype=object).isin(matmuls).to_numpy())
    findings = []
    for (_, shape_in, shape_out), members in _shape_groups(ops, rows):
        if _megabytes(shape_in, shape_out) * len(members) < CUBE_MEMORY_MB:
            continue
        axes = _inner_axes(shape_in)
        if axes is None or all(a % CUBE_AXIS == 0 for a in axes):
            continue
        axes_text = ", ".join(str(a) for a in axes)
        args = {"op_type": str(ops.type[members[0]]), "shape": shape_in.strip('"'), "axes": axes_text}
        findings.append(_group_finding("compute.cube_affinity", ops, members, args, first=(Fact("axes", axes_text),)))
    return sorted(findings, key=lambda f: f.severity.rank)


def cube_bound(mac: float, mte2: float) -> tuple[str, float]:
    """msprof-analyze's ``del_cube_operator_bound`` on a shape's mean ratios: (its bound, "" for none; the
    room to a bound when there is none). As msprof-analyze has it, a MAC bound alone needs the MTE2
    threshold (0.95)."""
    (_, mac_at), (_, mte2_at) = CUBE_BOUND
    if mac >= mac_at and mte2 >= mte2_at:
        return "mac_and_mte2_bound", 0.0
    if mac >= mte2_at:
        return "mac", 0.0
    if mte2 >= mte2_at:
        return "mte2", 0.0
    return "", max(mac_at - mac, mte2_at - mte2)


@rule("compute.cube_optimization", "compute", TEXTS["compute.cube_optimization"])
def cube_optimization(subject) -> list[Finding]:
    """msprof-analyze's cube "operators with room for optimisation" (Cube算子性能分析 · 性能优化算子集合):
    AI_CORE matmul tasks grouped by name and shapes, of groups moving CUBE_MEMORY_MB or more in all whose
    inputs' inner axes are multiples of CUBE_AXIS (the others are :func:`cube_affinity`'s), whose mean
    aic_mac_ratio / aic_mte2_ratio reach no bound of CUBE_BOUND; the CUBE_TOP with the most room, whatever
    their share of the device time (msprof-analyze has no share threshold here)."""
    ops = _ops(subject)
    columns = ops.frame.columns if ops is not None else ()
    if ops is None or "input_shapes" not in columns or not {"aic_mac_ratio", "aic_mte2_ratio"} <= set(columns):
        return []
    mac_all = pd.to_numeric(ops.frame["aic_mac_ratio"], errors="coerce").to_numpy(dtype=np.float64)
    mte2_all = pd.to_numeric(ops.frame["aic_mte2_ratio"], errors="coerce").to_numpy(dtype=np.float64)
    matmuls = [t for t in set(ops.type) if "matmul" in str(t).lower()]
    rows = np.flatnonzero((ops.task_type == "AI_CORE") & pd.Series(ops.type, dtype=object).isin(matmuls).to_numpy())
    found: list[tuple[float, Finding]] = []
    for (_, shape_in, shape_out), members in _shape_groups(ops, rows):
        data_mb = _megabytes(shape_in, shape_out) * len(members)
        if data_mb < CUBE_MEMORY_MB:
            continue
        axes = _inner_axes(shape_in)
        if axes is None or not all(a % CUBE_AXIS == 0 for a in axes):
            continue
        measured = members[~(np.isnan(mac_all[members]) | np.isnan(mte2_all[members]))]
        if not len(measured):
            continue
        mac, mte2 = float(mac_all[measured].mean()), float(mte2_all[measured].mean())
        bound, room = cube_bound(mac, mte2)
        if bound:
            continue
        finding = _group_finding(
            "compute.cube_optimization",
            ops,
            members,
            {"op_type": str(ops.type[members[0]]), "shape": shape_in.strip('"'), "headroom": pct(room)},
            first=(
                Fact("mac", f"{mac:.3f}"),
                Fact("mte2", f"{mte2:.3f}"),
                Fact("headroom", pct(room)),
                Fact("data", f"{data_mb:.1f} MB"),
            ),
            values={"aic_mac_ratio": mac_all, "aic_mte2_ratio": mte2_all},
        )
        found.append((room, finding))
    found.sort(key=lambda x: -x[0])
    return [f for _room, f in found[:CUBE_TOP]]


def _fa_dims(name: str, shape_in: str, shape_out: str) -> tuple[int, str] | None:
    """(head dim, sequence length) of a FlashAttentionScore call, as msprof-analyze reads them: a
    ``varlen`` op's query is (T, N, D) and its sequence length varies ("varlen"); else the query is
    (S, B, H) with H = N x D, N and S from the softmax output (B, N, S, 8), or a 4-D query (B, N, S, D)."""
    ins, outs = _dims(shape_in), _dims(shape_out)
    q = ins[0] if ins else []
    if "varlen" in name.lower():
        return (q[2], "varlen") if len(q) >= 3 else None
    out = outs[0] if outs else []
    if len(out) != 4 or not out[1]:
        return None
    if len(q) == 3:
        return q[2] // out[1], str(out[2])
    if len(q) == 4:
        return q[3], str(out[2])
    return None


@rule("compute.fa_affinity", "compute", TEXTS["compute.fa_affinity"])
def fa_affinity(subject) -> list[Finding]:
    """msprof-analyze's FA affinity: FlashAttentionScore tasks whose head dimension or sequence length is
    not a multiple of FA_AXIS, grouped by name and shapes."""
    ops = _ops(subject)
    if ops is None or "input_shapes" not in ops.frame.columns:
        return []
    rows = np.flatnonzero(
        ops.type == "FlashAttentionScore"
    )  # the forward op (msprof-analyze's grad check is not ported)
    findings = []
    for (name, shape_in, shape_out), members in _shape_groups(ops, rows):
        dims = _fa_dims(name, shape_in, shape_out)
        if dims is None:
            continue
        head_dim, seq = str(dims[0]), dims[1]
        if dims[0] % FA_AXIS == 0 and (not seq.isdigit() or int(seq) % FA_AXIS == 0):
            continue
        args = {"head_dim": head_dim, "seq": seq}
        first = (Fact("head_dim", head_dim), Fact("seq", seq))
        findings.append(_group_finding("compute.fa_affinity", ops, members, args, first=first, share_fact=False))
    return sorted(findings, key=lambda f: f.severity.rank)


def _pmu_sum(ops: Ops, base: str) -> np.ndarray:
    """Per row, the largest of the PMU columns whose base name is ``base`` (0 where none)."""
    cols = [c for c in ops.frame.columns if stats.pmu_base(str(c)) == base]
    if not cols:
        return np.zeros(len(ops))
    data = np.vstack([pd.to_numeric(ops.frame[c], errors="coerce").to_numpy(dtype=np.float64) for c in cols])
    return np.nan_to_num(data, nan=0.0).max(axis=0)


@dataclass
class _Sequence:
    tokens: tuple[int, ...]
    first: np.ndarray  # the rows of its first occurrence
    starts: list[tuple[np.ndarray, int]] = field(default_factory=list)  # (device rows by start, position)
    count: int = 0
    npu_us: float = 0.0
    mte_us: float = 0.0
    core_us: float = 0.0


def _joint_codes(*columns: np.ndarray) -> np.ndarray:
    """One code per distinct combination of the columns' values (row by row), without making a string
    per row: each column factorized, the codes combined as one integer."""
    joint = np.zeros(len(columns[0]), dtype=np.int64)
    span = 1
    for column in columns:
        codes, uniques = pd.factorize(pd.Series(column, dtype=object))
        width = max(1, len(uniques))
        if span * width >= 2**62:  # too many combinations for one int64: number the ones seen so far
            joint, _ = pd.factorize(joint)
            span = int(joint.max()) + 1 if len(joint) else 1
        joint = joint * width + codes
        span *= width
    return pd.factorize(joint)[0]


def _sequences(ops: Ops, limit: int = 3) -> list[_Sequence]:
    """msprof-analyze's fusible operator sequences, MTE-bound kind: runs of SEQUENCE_MIN..SEQUENCE_MAX
    consecutive tasks of one device (by start; msprof-analyze ends a run at a communication or AI CPU task,
    we at any task that is not a vector one: cube work is no element-wise chain to fuse), keyed by each
    task's name and shapes, that occur more than SEQUENCE_COUNT times and whose memory transfers (MTE2 plus
    MTE3 / fixpipe) exceed SEQUENCE_MTE of their core time (aicore + aiv time); the most time first, a
    sequence most of whose tasks belong to one already listed left out."""
    mte = _pmu_sum(ops, "mte2_time(us)") + np.maximum(_pmu_sum(ops, "mte3_time(us)"), _pmu_sum(ops, "fixpipe_time(us)"))
    core = _pmu_sum(ops, "aicore_time(us)") + _pmu_sum(ops, "aiv_time(us)") + _pmu_sum(ops, "time(us)")
    ins, outs = ops.text("input_shapes"), ops.text("output_shapes")
    tokens = _joint_codes(ops.name, ins, outs)
    breaker = ~ops.task_types(*VECTOR_TASK_TYPES)
    found: dict[int, _Sequence] = {}  # by a rolling hash of the tokens (2**61 - 1: no collision in practice)
    for dev in sorted(set(ops.device.tolist())):
        rows = np.flatnonzero(ops.device == dev)
        rows = rows[np.argsort(ops.start_ns[rows], kind="stable")][:SEQUENCE_TASKS]
        tok, brk = tokens[rows].tolist(), breaker[rows].tolist()
        dur, m, c = ops.dur_us[rows].tolist(), mte[rows].tolist(), core[rows].tolist()
        for j in range(len(rows)):
            if brk[j]:
                continue
            key = tok[j] + 1
            npu, mt, co = dur[j], m[j], c[j]
            for k in range(j + 1, min(j + SEQUENCE_MAX, len(rows))):
                if brk[k]:
                    break
                key = (key * 1_000_003 + tok[k] + 1) % _HASH_MOD
                npu, mt, co = npu + dur[k], mt + m[k], co + c[k]
                if k - j + 1 < SEQUENCE_MIN:
                    continue
                seq = found.get(key)
                if seq is None:
                    seq = found[key] = _Sequence(tuple(tok[j : k + 1]), rows[j : k + 1])
                seq.starts.append((rows, j))
                seq.count += 1
                seq.npu_us += npu
                seq.mte_us += mt
                seq.core_us += co
    kept = [
        s for s in found.values() if s.count > SEQUENCE_COUNT and s.core_us > 0 and s.mte_us / s.core_us > SEQUENCE_MTE
    ]
    kept.sort(key=lambda s: (-s.npu_us, -len(s.tokens)))
    out: list[_Sequence] = []
    covered: set[int] = set()
    for s in kept:  # the most time first; one whose tasks are mostly those of a listed one is the same finding
        mine = {int(r) for rows, j in s.starts for r in rows[j : j + len(s.tokens)]}
        if len(mine & covered) * 2 > len(mine):
            continue
        out.append(s)
        covered |= mine
        if len(out) == limit:
            break
    return out


@rule("compute.fusible_sequence", "compute", TEXTS["compute.fusible_sequence"])
def fusible_sequence(subject) -> list[Finding]:
    """The three MTE-bound operator sequences (:func:`_sequences`) with the most time."""
    ops = _ops(subject)
    if ops is None or not any(stats.pmu_base(str(c)) == "mte2_time(us)" for c in ops.frame.columns):
        return []
    total = ops.device_us
    findings = []
    for seq in _sequences(ops):
        share = seq.npu_us / total if total else 0.0
        types = " > ".join(str(ops.type[r]) for r in seq.first)
        findings.append(
            Finding(
                rule="compute.fusible_sequence",
                category="compute",
                severity=severity_of(share),
                args={
                    "length": count(len(seq.tokens)),
                    "op_types": types,
                    "count": count(seq.count),
                    "share": pct(share),
                    "mte": pct(seq.mte_us, seq.core_us),
                },
                facts=(
                    Fact("length", count(len(seq.tokens))),
                    Fact("count", count(seq.count)),
                    Fact("time", ms(seq.npu_us * 1000)),
                    Fact("share", pct(share)),
                    Fact("mte", pct(seq.mte_us, seq.core_us)),
                ),
                evidence=ops.evidence(seq.first),
                evidence_total=len(seq.tokens) * seq.count,
            )
        )
    return findings


def _vector_bound(vec: float, mte2: float, mte3: float) -> str | None:
    """msprof-analyze's bound type of a vector op from its mean ratios, in its order of checks."""
    for name, threshold in VECTOR_BOUND:
        value = vec + mte2 + mte3 if name == "vec_mte2_mte3" else {"mte2": mte2, "mte3": mte3, "vec": vec}[name]
        if value >= threshold:
            return name
    return None


@rule("compute.vector_bound", "compute", TEXTS["compute.vector_bound"])
def vector_bound(subject) -> list[Finding]:
    """msprof-analyze's vector operator analysis, bound kind: vector tasks (AI_VECTOR_CORE, MIX_AIV) of op
    types with VECTOR_TYPE_SHARE of the total time or more, grouped by name and shapes; a group is bound
    by the first of VECTOR_BOUND its mean ratios reach. One finding for all bound groups (LOW below 20 % of
    the device time: a bound operator uses the hardware it has)."""
    ops = _ops(subject)
    if ops is None:
        return []
    pipes = _pipes(ops)
    if not set(VECTOR_PIPES) <= set(pipes):
        return []
    total = ops.device_us
    vector = np.flatnonzero(ops.task_types(*VECTOR_TASK_TYPES))
    heavy = set()
    for op_type, members in _groups(vector, ops.type[vector]):
        if total and float(ops.dur_us[members].sum()) / total >= VECTOR_TYPE_SHARE:
            heavy.add(op_type)
    rows = np.asarray([r for r in vector if ops.type[r] in heavy], dtype=np.int64)
    bound_rows: list[np.ndarray] = []
    bounds: dict[int, str] = {}
    for _, members in _shape_groups(ops, rows):
        vec, mte2, mte3 = (
            float(np.nan_to_num(pipes[k][members]).mean()) for k in ("vec_ratio", "mte2_ratio", "mte3_ratio")
        )
        bound = _vector_bound(vec, mte2, mte3)
        if bound is not None:
            bound_rows.append(members)
            bounds.update({int(r): bound for r in members})
    if not bound_rows:
        return []
    kinds = ", ".join(sorted(set(bounds.values())))
    label = {"bound": np.asarray([bounds.get(i, "") for i in range(len(ops))], dtype=object)}
    hit, severity = np.concatenate(bound_rows), (0.2, Severity.MEDIUM, Severity.LOW)
    args, facts = {"bounds": kinds}, (Fact("bounds", kinds),)
    return _rows_finding(
        "compute.vector_bound", ops, hit, severity, with_count=False, args=args, facts=facts, values=label
    )
