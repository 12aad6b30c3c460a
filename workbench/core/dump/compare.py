"""Vector comparison of an NPU dump folder against ground-truth .npy files (msaccucmp ``compare``).

Ground truth files are ``{op_name}.{output_index}.{timestamp}.npy`` (TensorFlow/Caffe/ONNX dumps).
Each NPU op's output ``i`` is matched with, in this order: the output desc's
``_datadump_origin_name``/``_datadump_origin_output_index`` of the fusion rule (om JSON); the dump
tensor's ``original_op``; the op's ``_datadump_original_op_names`` (the one that has a file, last
first); the NPU op name itself. With a fusion rule, inputs are compared too (against the
producing op's ground truth) and rows follow the model's op order; without one they follow the
dump timestamps. Device layouts are converted back first (:mod:`formats`). A missing file or a
shape mismatch gives a row of ``NaN`` with the reason, as msaccucmp does; the run goes on.

Result CSV (docs/cann-formats.md §7.3): ``Index,OpType,NPUDump,DataType,Address,GroundTruth,DataType,
TensorIndex,Shape,<algorithms>,CompareFailReason`` (the ground truth side is CPU data, so its
Address column is left out, as msaccucmp does); values are 6-decimal strings.
"""

from __future__ import annotations

import csv
import math
import os
import re
from collections import deque
from collections.abc import Iterable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from tokenize import TokenError

import numpy as np

from workbench.core.dump import formats, metrics
from workbench.core.dump.convert import iter_dump_files
from workbench.core.dump.dtypes import DataTypeError
from workbench.core.dump.dumpfile import DumpFile, DumpFileError, DumpTensor, read_dump
from workbench.core.dump.omjson import OmModel, read_om_json
from workbench.core.fsutil import atomic_open, refuse_inputs
from workbench.core.tasks import CancelToken, NullProgress, Progress

NAN = metrics.NAN
WORKERS = max(1, min(2, os.cpu_count() or 1))  # comparison threads (memory bandwidth bound beyond 2)
DEFAULT_THRESHOLD = 0.99
# The seed's advice once the first op below the threshold is found (the UI translates it).
NEXT_STEPS = (
    "Check the input preprocessing: mean/scale, channel order (RGB/BGR), layout (NCHW/NHWC) and AIPP settings "
    "must match the framework's.",
    "Check quantization: compare against a non-quantized model; calibrate again or skip this layer.",
    "Check fusion: the op may be a fused op; compare with the fusion rule (om JSON) or disable the fusion pattern.",
    "Check post-processing: output order, data type (float16 overflow) and the decoding of the results.",
)
_GOLDEN_RE = re.compile(r"^(?P<name>.+)\.(?P<index>\d+)\.(?P<ts>\d+)\.npy$")
KEY_OF = {
    "CosineSimilarity": "cosine",
    "MaxAbsoluteError": "max_abs_error",
    "AccumulatedRelativeError": "accumulated_relative_error",
    "RelativeEuclideanDistance": "relative_euclidean_distance",
    "KullbackLeiblerDivergence": "kl_divergence",
    "StandardDeviation": "standard_deviation",
    "MeanAbsoluteError": "mean_abs_error",
    "RootMeanSquareError": "root_mean_square_error",
    "MaxRelativeError": "max_relative_error",
    "MeanRelativeError": "mean_relative_error",
}


@dataclass
class CompareRow:
    index: int  # op position (0-based, the CSV's Index)
    op_type: str
    npu_op: str
    npu_dtype: str
    ground_truth: str
    golden_dtype: str
    kind: str  # "input" | "output"
    tensor: int
    shape: str
    values: dict[str, str]
    reason: str = ""
    npu_file: str = ""
    golden_file: str = ""
    npu_address: str = NAN

    @property
    def tensor_index(self) -> str:
        return f"{self.npu_op}:{self.kind}:{self.tensor}"

    @property
    def cosine(self) -> float | None:
        v = self.values.get("CosineSimilarity", NAN)
        try:
            f = float(v)
        except ValueError:
            return None
        return None if math.isnan(f) else f

    def to_json(self) -> dict:
        out = {
            "index": self.index,
            "op": self.npu_op,
            "op_type": self.op_type,
            "tensor_index": self.tensor_index,
            "kind": self.kind,
            "tensor": self.tensor,
            "ground_truth": self.ground_truth,
            "shape": self.shape,
            "npu_dtype": self.npu_dtype,
            "golden_dtype": self.golden_dtype,
            "npu_file": self.npu_file,
            "golden_file": self.golden_file,
            "reason": self.reason,
        }
        for alg, value in self.values.items():
            try:
                out[KEY_OF[alg]] = None if value == NAN else float(value)
            except ValueError:  # StandardDeviation's composite string
                out[KEY_OF[alg]] = value
        return out


@dataclass
class CompareReport:
    algorithms: list[str]
    rows: list[CompareRow] = field(default_factory=list)
    threshold: float = DEFAULT_THRESHOLD
    warnings: list[str] = field(default_factory=list)
    unreadable: list[str] = field(default_factory=list)  # "<golden file>: why" of ground truth not read

    @property
    def first_below_threshold(self) -> CompareRow | None:
        """The first output row in model order whose cosine similarity is below the threshold."""
        return next(
            (r for r in self.rows if r.kind == "output" and r.cosine is not None and r.cosine < self.threshold), None
        )

    def header(self) -> list[str]:
        return [
            "Index",
            "OpType",
            "NPUDump",
            "DataType",
            "Address",
            "GroundTruth",
            "DataType",
            "TensorIndex",
            "Shape",
            *self.algorithms,
            "CompareFailReason",
        ]

    def csv_rows(self) -> list[list[str]]:
        return [
            [
                str(r.index),
                r.op_type,
                r.npu_op,
                r.npu_dtype,
                r.npu_address,
                r.ground_truth,
                r.golden_dtype,
                r.tensor_index,
                r.shape,
                *(r.values[a] for a in self.algorithms),
                r.reason,
            ]
            for r in self.rows
        ]

    def to_json(self) -> dict:
        first = self.first_below_threshold
        return {
            "algorithms": self.algorithms,
            "threshold": self.threshold,
            "rows": [r.to_json() for r in self.rows],
            "first_below_threshold": first.to_json() if first else None,
            "next_steps": list(NEXT_STEPS) if first else [],
            "warnings": self.warnings,
        }


def write_result_csv(
    report: CompareReport, path: str | os.PathLike[str], inputs: Iterable[str | os.PathLike[str]] = ()
) -> Path:
    """msaccucmp's result CSV (written atomically; never over one of the compared ``inputs``)."""
    refuse_inputs(path, inputs)
    with atomic_open(path, "w", encoding="utf-8") as fh:
        w = csv.writer(fh, lineterminator="\n")
        w.writerow(report.header())
        w.writerows(report.csv_rows())
    return Path(path)


def write_result_xlsx(
    report: CompareReport, path: str | os.PathLike[str], inputs: Iterable[str | os.PathLike[str]] = ()
) -> Path:
    """The result table as an .xlsx sheet (numbers as numbers), the first low-cosine row filled amber."""
    refuse_inputs(path, inputs)
    from openpyxl import Workbook
    from openpyxl.styles import PatternFill

    wb = Workbook()
    ws = wb.active
    ws.title = "result"
    ws.append(report.header())
    first = report.first_below_threshold
    for row, values in zip(report.rows, report.csv_rows()):
        cells = []
        for v in values:
            try:
                cells.append(float(v) if v not in ("", NAN) and not v.startswith("(") else v)
            except ValueError:
                cells.append(v)
        cells[0] = row.index
        ws.append(cells)
        if row is first:
            for c in ws[ws.max_row]:
                c.fill = PatternFill("solid", fgColor="FFD966")
    with atomic_open(path, "wb", encoding=None) as fh:
        wb.save(fh)
    return Path(path)


def read_result_csv(path: str | os.PathLike[str], threshold: float = DEFAULT_THRESHOLD) -> CompareReport:
    """Read a result CSV written by msaccucmp (e.g. on the host) or by :func:`write_result_csv`."""
    p = Path(path)
    with open(p, encoding="utf-8", newline="") as fh:
        rows = list(csv.reader(fh))
    if not rows or rows[0][:1] != ["Index"] or "CompareFailReason" not in rows[0]:
        raise ValueError(f"{p}: line 1: expected msaccucmp's header starting 'Index,OpType,NPUDump'")
    header = rows[0]
    algs = [h for h in header if h in metrics.ALGORITHMS]
    col = {h: i for i, h in reversed(list(enumerate(header)))}  # first occurrence of a repeated name wins
    dtype_cols = [i for i, h in enumerate(header) if h == "DataType"]
    report = CompareReport(algorithms=algs, threshold=threshold)
    for n, r in enumerate(rows[1:], start=2):
        if len(r) != len(header):
            raise ValueError(f"{p}: line {n}: {len(r)} fields, the header has {len(header)}")
        tindex = r[col["TensorIndex"]]
        op, kind, tensor = (tindex.rsplit(":", 2) + ["", ""])[:3] if tindex.count(":") >= 2 else (tindex, "output", "0")
        report.rows.append(
            CompareRow(
                index=int(r[0]) if r[0].isdigit() else n - 2,
                op_type=r[col["OpType"]],
                npu_op=r[col["NPUDump"]],
                npu_dtype=r[dtype_cols[0]] if dtype_cols else "",
                ground_truth=r[col["GroundTruth"]],
                golden_dtype=r[dtype_cols[-1]] if len(dtype_cols) > 1 else "",
                kind=kind or "output",
                tensor=int(tensor) if tensor.isdigit() else 0,
                shape=r[col["Shape"]],
                values={a: r[col[a]] for a in algs},
                reason=r[col["CompareFailReason"]],
                npu_address=r[col["Address"]] if "Address" in col else NAN,
            )
        )
    return report


def index_golden(golden_dir: str | os.PathLike[str]) -> dict[tuple[str, int], Path]:
    """(op name, output index) -> ground-truth .npy (the latest timestamp when there are several)."""
    found: dict[tuple[str, int], tuple[int, Path]] = {}
    for f in Path(golden_dir).rglob("*.npy"):
        m = _GOLDEN_RE.match(f.name)
        if m:
            key, ts = (m["name"], int(m["index"])), int(m["ts"])
            if key not in found or ts > found[key][0]:
                found[key] = (ts, f)
    return {k: v[1] for k, v in found.items()}


def _shape_str(shape: Iterable[int]) -> str:
    return "[" + ",".join(str(int(d)) for d in shape) + "]"


def _paren(shape: Iterable[int]) -> str:
    return "(" + ", ".join(str(int(d)) for d in shape) + ")"


class _Matcher:
    """Finds the ground truth of an NPU op's output."""

    def __init__(self, golden: dict[tuple[str, int], Path], model: OmModel | None) -> None:
        self.golden, self.model = golden, model

    def originals(self, op_name: str) -> list[str]:
        op = self.model.op(op_name) if self.model else None
        return op.original_op_names if op else []

    def candidates(self, op_name: str, out_index: int, tensor: DumpTensor | None) -> list[tuple[str, int]]:
        cands: list[tuple[str, int]] = []
        op = self.model.op(op_name) if self.model else None
        if op and out_index < len(op.output_descs) and op.output_descs[out_index].origin_name:
            d = op.output_descs[out_index]
            cands.append((d.origin_name, d.origin_output_index if d.origin_output_index is not None else out_index))
        if tensor is not None and tensor.original_op and tensor.original_op[0]:
            cands.append(tensor.original_op)
        cands += [(name, out_index) for name in reversed(self.originals(op_name))]
        cands.append((op_name, out_index))
        return cands

    def find(self, op_name: str, out_index: int, tensor: DumpTensor | None) -> tuple[str, int, Path | None]:
        cands = self.candidates(op_name, out_index, tensor)
        for name, idx in cands:
            for key in ((name, idx), (name.replace("/", "_").replace(".", "_"), idx)):  # framework dump names
                if key in self.golden:
                    return name, idx, self.golden[key]
        return cands[0][0], cands[0][1], None


def _npu_for_golden(t: DumpTensor, golden_shape: tuple[int, ...]) -> np.ndarray:
    arr = t.array()
    converted = formats.to_original(arr, t.format, t.original_shape or golden_shape)
    return converted[0] if converted is not None else arr


def _compare_tensor(row: CompareRow, t: DumpTensor, golden_path: Path, algorithms: list[str]) -> None:
    try:
        golden = np.load(golden_path, allow_pickle=False)
    except (ValueError, EOFError, SyntaxError, TokenError) as exc:  # empty, not .npy, a pickled object array
        raise OSError(f"not a readable .npy file ({exc})") from None
    row.golden_dtype = str(golden.dtype)
    npu = _npu_for_golden(t, tuple(golden.shape))
    row.npu_dtype = str(npu.dtype)
    row.shape = _shape_str(npu.shape)
    if npu.size != golden.size:
        row.reason = (
            f"[{row.npu_op}] Due to the different shapes on the left and right,the left dump data"
            f"{_paren(npu.shape)} can not be compared to the right dump data{_paren(golden.shape)}. "
            "Please check the batch of the dump data or the shape may be changed due to optimization."
        )
        return
    values, reasons = metrics.compare_arrays(
        npu, golden, algorithms, npu_file=row.npu_file, golden_file=str(golden_path), shape=npu.shape
    )
    row.values = dict(zip(algorithms, values))
    row.reason = ",".join(reasons)


def _order(dumps: list[DumpFile], model: OmModel | None) -> list[DumpFile]:
    by_time = sorted(dumps, key=lambda d: (d.name.timestamp if d.name else 0, d.name.task_id if d.name else 0))
    if model is None:
        return by_time
    pos = {op.name: op.index for op in model.ops}
    return sorted(by_time, key=lambda d: pos.get(_op_name(d), len(pos)))


def _op_name(d: DumpFile) -> str:
    """The header's op name (file names have '/' and '.' replaced), else the file name's."""
    return d.op_name or (d.name.op_name if d.name else Path(d.path).name)


def _rows(dumps: list[DumpFile], matcher: _Matcher, model: OmModel | None, algs: list[str]):
    """(row, job or None, op name when it is the op's last row else None), in report order; a job
    is the arguments of :func:`_run` (rows without one already say why they have no values)."""
    for op_index, d in enumerate(dumps):
        name = _op_name(d)
        originals = matcher.originals(name)
        om_op = model.op(name) if model else None
        work: list[tuple[DumpTensor, str | None, int]] = [(t, name, t.index) for t in d.outputs]
        if om_op is not None:
            for t in d.inputs:
                src = om_op.inputs[t.index] if t.index < len(om_op.inputs) else ""
                src_op, _, src_idx = src.rpartition(":")
                work.append((t, src_op or None, int(src_idx) if src_idx.lstrip("-").isdigit() else 0))
        work.sort(key=lambda w: w[0].kind != "input")
        if not work:
            yield None, None, name
        for k, (t, src_name, src_index) in enumerate(work):
            row = CompareRow(
                index=op_index,
                op_type=d.op_type,
                npu_op=name,
                npu_dtype=NAN,
                ground_truth="*",
                golden_dtype=NAN,
                kind=t.kind,
                tensor=t.index,
                shape=_shape_str(t.shape),
                values=dict.fromkeys(algs, NAN),
                npu_file=d.path,
            )
            gname, _gidx, gpath = (
                (src_name, src_index, None)
                if src_name is None
                else matcher.find(src_name, src_index, t if t.kind == "output" else None)
            )
            job = None
            if gpath is None:
                row.reason = f'[{name}] There is no right dump file for the op "{name}".'
            else:
                row.ground_truth = ",".join(originals) if originals and t.kind == "output" else gname
                row.golden_file = str(gpath)
                job = (t, gpath, algs, d.path)
            yield row, job, (name if k == len(work) - 1 else None)


def _run(row: CompareRow, t: DumpTensor, gpath: Path, algs: list[str], dump_path: str) -> None:
    try:
        _compare_tensor(row, t, gpath, algs)
    except (DataTypeError, ValueError, OSError) as err:
        row.reason = f"{gpath if isinstance(err, OSError) else dump_path}: {err}"


def compare_dirs(
    npu_dir: str | os.PathLike[str],
    golden_dir: str | os.PathLike[str],
    *,
    fusion_rule: str | os.PathLike[str] | OmModel | None = None,
    algorithms: str | list[str] | None = None,
    threshold: float = DEFAULT_THRESHOLD,
    progress: Progress | None = None,
    cancel: CancelToken | None = None,
) -> CompareReport:
    """Work function: compare every dumped op with its ground truth; returns the report (rows in model order)."""
    progress = progress or NullProgress()
    cancel = cancel or CancelToken()
    algs = metrics.parse_algorithms(algorithms) if not isinstance(algorithms, list) else algorithms
    model = read_om_json(fusion_rule) if isinstance(fusion_rule, (str, os.PathLike)) else fusion_rule
    report = CompareReport(algorithms=algs, threshold=threshold)
    progress.status("Indexing the ground truth")
    golden = index_golden(golden_dir)
    if not golden:
        report.warnings.append(
            f"{golden_dir}: no ground-truth files named {{op_name}}.{{output_index}}.{{timestamp}}.npy"
        )
    dumps, latest = [], {}
    for f in iter_dump_files([npu_dir]):
        try:
            d = read_dump(f)
        except DumpFileError as err:
            report.warnings.append(str(err))
            continue
        prev = latest.get(_op_name(d))
        if prev is None or (d.name and prev.name and d.name.timestamp > prev.name.timestamp):
            latest[_op_name(d)] = d
    dumps = _order(list(latest.values()), model)
    matcher = _Matcher(golden, model)
    total = sum(len(d.outputs) + (len(d.inputs) if model else 0) for d in dumps) or 1
    done = 0
    # Tensors are compared on WORKERS threads (numpy releases the GIL in its loops); rows are
    # collected in order, with a few in flight so memory stays bounded.
    with ThreadPoolExecutor(max_workers=WORKERS, thread_name_prefix="compare") as pool:
        pending: deque = deque()

        def finish(entry) -> None:
            nonlocal done
            row, future, op_done = entry
            if future is not None:
                future.result()
            if row is not None:
                report.rows.append(row)
                done += 1
                progress.fraction(done / total)
            if op_done is not None:
                progress.partial(op_done)

        for row, job, op_done in _rows(dumps, matcher, model, algs):
            cancel.raise_if_cancelled()
            pending.append((row, pool.submit(_run, row, *job) if job else None, op_done))
            while len(pending) > 2 * WORKERS:
                finish(pending.popleft())
        while pending:
            finish(pending.popleft())
    # a ground-truth file that could not be read is named once among the warnings (its rows say why too)
    unreadable = {r.reason for r in report.rows if r.golden_file and r.reason.startswith(f"{r.golden_file}: ")}
    report.unreadable = sorted(unreadable)
    report.warnings += report.unreadable
    return report
