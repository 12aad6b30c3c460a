"""One rank's reduction: only what cluster analysis needs from a rank's folder, as small plain data.

From ``ASCEND_PROFILER_OUTPUT``: ``step_trace_time.csv`` (every step's row, the values as
msprof-analyze takes them: ``float()`` of each cell but ``Step`` / ``Device_id``, 0 for a cell that is
not a number), ``communication.json`` and ``communication_matrix.json`` (every operator but the
per-rank ``Total Op Info``, which the merge recomputes per group); from the rank folder:
``profiler_metadata.json``'s ``parallel_group_info`` and ``distributed_args``.

A db rank (torch_npu ``export_type=Db``, MindSpore's db export, a msprof PROF folder with ``msprof_*.db``:
:attr:`~workbench.core.cluster.ranks.RankSource.data` ``"db"``) is read by :mod:`.reduce_db` into the same
reduction.

A msprof rank (a ``PROF_*`` folder, :attr:`~workbench.core.cluster.ranks.RankSource.kind` ``"msprof"``) is
read as msprof-analyze 26.2 reads it (``MsprofStepTraceTimeAdapter``, ``MsprofCommunicationTimeAdapter``,
``MsprofCommunicationMatrixAdapter``): one step row, Step empty, from the timeline
``mindstudio_profiler_output/msprof_{timestamp}.json`` (the newest timestamp; else the
``msprof_slice_{n}_{timestamp}.json`` of the newest one, concatenated): Computing, Communication,
Communication(Not Overlapped) and Free the sums of the ``dur`` of the events so named (the Overlap Analysis
lanes), Bubble the sum over the events whose name starts ``hcom_receive``, Overlapped = Communication - Not
Overlapped, Not Overlapped and Exclude Receive = Not Overlapped - Bubble, Stage = Free + Computing + Not
Overlapped - Bubble, Preparing 0 (floats summed in file order, as msprof-analyze sums them);
``analyze/communication.json`` (msprof's form: the operators at the top level) filed under step ``"step"``
into ``p2p`` (names starting ``hcom_send`` / ``hcom_receive`` / ``hcom_batchsendrecv``, any case) and
``collective`` (but names starting ``total``); ``analyze/communication_matrix.json`` per kind integrated as
torch_npu does (per op type, group and link over the operators sorted by bandwidth: ``top1``, ``middle``,
``bottom1``, ``total``, ``bottom2``, ``bottom3``, each picked entry with its ``Op Name``); the PROF folder's
profiler_metadata.json, if any, as for a torch_npu rank.

STDLIB ONLY (json, csv; sqlite3 in :mod:`.reduce_db`): :func:`reduce_rank` runs on Dask workers of the
user's cluster, where workbench is not installed (the engine ships this module by value; :mod:`.reduce_db`
is imported at the top, not inside :func:`reduce_source`, so it travels with it: an ``import`` run on such a
worker would fail). The result pickles small.
"""

from __future__ import annotations

import csv
import json
import os
import re
from dataclasses import dataclass, field
from typing import Any

from workbench.core.cluster import reduce_db  # stdlib only; a module global, so it ships by value with this one

try:  # a worker without msgspec (the user's cluster) reads with the standard library
    from msgspec.json import decode as _loads
except ImportError:  # pragma: no cover - msgspec is a dependency of the app itself
    _loads = json.loads  # type: ignore[assignment]

OUTPUT = "ASCEND_PROFILER_OUTPUT"
STEP_FILE = "step_trace_time.csv"
COMM_FILE = "communication.json"
MATRIX_FILE = "communication_matrix.json"
METADATA_FILE = "profiler_metadata.json"
NOT_VALUES = ("Step", "Device_id")  # step_trace_time columns that are not time values
TOTAL = "Total"  # operators whose name starts with it are a rank's own totals
# a msprof (PROF_*) rank
PROF_OUTPUT = "mindstudio_profiler_output"
PROF_ANALYZE = "analyze"
_TIMELINE = re.compile(r"^msprof_(\d{14})\.json$")
_TIMELINE_SLICE = re.compile(r"^msprof_slice_\d_(\d{14})\.json$")
LANES = ("Computing", "Communication(Not Overlapped)", "Communication", "Free")
RECEIVE = "hcom_receive"
PROF_STEP_HEADER = [
    "Computing",
    "Communication(Not Overlapped)",
    "Overlapped",
    "Communication",
    "Free",
    "Stage",
    "Bubble",
    "Communication(Not Overlapped and Exclude Receive)",
    "Preparing",
]
P2P_PREFIXES = ("hcom_send", "hcom_receive", "hcom_batchsendrecv")
_OP_TYPE = re.compile(
    r"send|reduce|invalid|broadcast|allreduce|receive|allgather|reducescatter|scatter|alltoall|alltoallv|"
    r"alltoallvc|batchsendrecv"
)
BANDWIDTH = "Bandwidth(GB/s)"


@dataclass
class RankReduction:
    rank: int
    path: str
    host: str | None = None
    step_header: list[str] = field(default_factory=list)  # the value columns, file order
    steps: list[tuple[str, list[float]]] = field(default_factory=list)  # (Step cell, values)
    # step key -> op type (collective / p2p) -> op name -> info, as the rank's files hold them
    communication: dict[str, dict[str, dict[str, Any]]] = field(default_factory=dict)
    matrix: dict[str, dict[str, dict[str, Any]]] = field(default_factory=dict)
    parallel_group_info: dict[str, Any] = field(default_factory=dict)
    distributed_args: dict[str, Any] | None = None
    warnings: list[str] = field(default_factory=list)
    read_bytes: int = 0


def _read_steps(path: str, red: RankReduction) -> None:
    try:
        f = open(path, newline="", encoding="utf-8-sig")  # noqa: SIM115 - closed by the with below
    except FileNotFoundError:
        red.warnings.append(f"rank {red.rank}: no {STEP_FILE} in {os.path.dirname(path)}")
        return
    except OSError as exc:
        red.warnings.append(f"{path}: cannot be read ({exc.strerror or exc})")
        return
    with f:
        try:
            _parse_steps(f, path, red)
        except (UnicodeDecodeError, csv.Error) as exc:
            red.steps.clear()
            red.warnings.append(f"{path}: not a readable CSV ({exc}); its steps are left out")


def _parse_steps(f: Any, path: str, red: RankReduction) -> None:
    reader = csv.reader(f)
    header = next(reader, None)
    if not header:
        red.warnings.append(f"{path}: empty (expected a header row starting with Step)")
        return
    if "Step" not in header:
        red.warnings.append(f"{path}: line 1 has no Step column (found {', '.join(header[:4])}, ...)")
        return
    step_at = header.index("Step")
    keep = [i for i, h in enumerate(header) if h not in NOT_VALUES]
    red.step_header = [header[i] for i in keep]
    bad = 0
    for line, row in enumerate(reader, start=2):
        if not row:
            continue
        values: list[float] = []
        for i in keep:
            try:
                values.append(float(row[i]))
            except (IndexError, ValueError):
                values.append(0.0)
                bad += 1
                if bad == 1:
                    cell = row[i] if i < len(row) else "(missing)"
                    red.warnings.append(f"{path}: line {line}, {header[i]}: {cell!r} is not a number; taken as 0")
        red.steps.append((row[step_at] if step_at < len(row) else "", values))
    red.read_bytes += os.path.getsize(path)


def _ops(doc: Any, path: str, red: RankReduction) -> dict[str, dict[str, dict[str, Any]]]:
    out: dict[str, dict[str, dict[str, Any]]] = {}
    if doc is None:
        return out
    if not isinstance(doc, dict):
        red.warnings.append(f"{path}: expected an object of steps, found {type(doc).__name__}")
        return out
    for step, by_type in doc.items():
        if not isinstance(by_type, dict):
            red.warnings.append(f"{path}: step {step!r} is not an object; skipped")
            continue
        kept: dict[str, dict[str, Any]] = {}
        for op_type, ops in by_type.items():
            if not isinstance(ops, dict):
                red.warnings.append(f"{path}: {step}/{op_type} is not an object; skipped")
                continue
            kept[op_type] = {
                name: info for name, info in ops.items() if not name.startswith(TOTAL) and isinstance(info, dict)
            }
        out[step] = kept
    return out


def reduce_rank(rank: int, path: str, host: str | None = None) -> RankReduction:
    """Read one rank's folder (on the machine this runs on)."""
    red = RankReduction(rank, path, host)
    output = os.path.join(path, OUTPUT)
    _read_steps(os.path.join(output, STEP_FILE), red)
    comm_path = os.path.join(output, COMM_FILE)
    matrix_path = os.path.join(output, MATRIX_FILE)
    red.communication = _ops(reduce_db.read_json(comm_path, red), comm_path, red)
    red.matrix = _ops(reduce_db.read_json(matrix_path, red), matrix_path, red)
    if not os.path.exists(comm_path) and not os.path.exists(matrix_path):
        red.warnings.append(f"rank {rank}: no {COMM_FILE} or {MATRIX_FILE} in {output}")
    _read_metadata(os.path.join(path, METADATA_FILE), red)
    return red


def timeline_files(folder: str) -> list[str]:
    """msprof-analyze's timeline of a PROF rank: ``msprof_{ts}.json`` of the newest ``ts`` (else the slices of the
    newest one), sorted by name; [] when there is none or the folder cannot be listed."""
    try:
        names = os.listdir(folder)
    except OSError:
        return []
    for pattern in (_TIMELINE, _TIMELINE_SLICE):
        by_stamp: dict[str, list[str]] = {}
        for name in names:
            m = pattern.match(name)
            if m:
                by_stamp.setdefault(m.group(1), []).append(name)
        if by_stamp:
            return [os.path.join(folder, n) for n in sorted(by_stamp[max(by_stamp)])]
    return []


def _dur(event: dict[str, Any], path: str, red: RankReduction, bad: list[int]) -> float:
    """An event's ``dur`` as msprof-analyze's ``convert_to_float`` takes it (0 when it is no number: one
    warning per file)."""
    value = event.get("dur", 0)
    try:
        return float(value)
    except (TypeError, ValueError):
        bad[0] += 1
        if bad[0] == 1:
            red.warnings.append(
                f"{path}: event {str(event.get('name'))[:80]}, dur: {value!r} is not a number; taken as 0"
            )
        return 0.0


def _read_prof_steps(folder: str, red: RankReduction) -> None:
    paths = timeline_files(folder)
    if not paths:
        red.warnings.append(f"rank {red.rank}: no msprof_<timestamp>.json in {folder}; its steps are left out")
        return
    lanes: dict[str, list[float]] = {}
    receives: list[float] = []
    for path in paths:
        bad = [0]
        doc = reduce_db.read_json(path, red)
        if isinstance(doc, dict) and isinstance(doc.get("traceEvents"), list):
            doc = doc["traceEvents"]
        if doc is None:
            return
        if not isinstance(doc, list):
            red.warnings.append(f"{path}: expected a list of trace events, found {type(doc).__name__}; no steps")
            return
        for event in doc:
            if not isinstance(event, dict):
                continue
            name = event.get("name", "")
            if name in LANES:
                lanes.setdefault(name, []).append(_dur(event, path, red, bad))
            elif isinstance(name, str) and name.startswith(RECEIVE):
                receives.append(_dur(event, path, red, bad))
    got: dict[str, float] = {name: sum(values) for name, values in lanes.items()}  # msprof-analyze's sums
    computing, not_ov = got.get("Computing", 0), got.get("Communication(Not Overlapped)", 0)
    communication, free = got.get("Communication", 0), got.get("Free", 0)
    bubble = sum(receives)
    stage = free + computing + not_ov - bubble
    values = [computing, not_ov, communication - not_ov, communication, free, stage, bubble, not_ov - bubble, 0]
    red.step_header = list(PROF_STEP_HEADER)
    red.steps = [("", [float(v) for v in values])]


def _prof_doc(path: str, red: RankReduction) -> dict[str, Any] | None:
    doc = reduce_db.read_json(path, red)
    if doc is None:
        return None
    if not isinstance(doc, dict):
        red.warnings.append(f"{path}: expected an object of operators, found {type(doc).__name__}")
        return None
    return doc


def _prof_kind(name: str) -> str | None:
    lower = name.lower()
    if lower.startswith(P2P_PREFIXES):
        return "p2p"
    return None if lower.startswith("total") else "collective"


def _prof_communication(path: str, red: RankReduction) -> dict[str, dict[str, dict[str, Any]]]:
    doc = _prof_doc(path, red)
    if doc is None:
        return {}
    kinds: dict[str, dict[str, Any]] = {"p2p": {}, "collective": {}}
    for name, info in doc.items():
        kind = _prof_kind(name)
        if kind is not None:
            kinds[kind][name] = info
    return {"step": kinds}


def _number(value: Any) -> Any:
    return value if isinstance(value, (int, float)) and not isinstance(value, bool) else 0


def _integrate(ops: dict[str, Any], path: str, red: RankReduction) -> dict[str, dict[str, Any]]:
    """torch_npu's (and msprof-analyze's adapter's) matrix of one kind from msprof's per-operator links."""
    grouped: dict[tuple[str, str, str], list[dict[str, Any]]] = {}
    for name, links in ops.items():
        if not isinstance(links, dict):
            red.warnings.append(f"{path}: operator {name} is not an object; skipped")
            continue
        m = _OP_TYPE.search(name.lower())
        op_type = m.group() if m else name.split("__")[0]
        for link, entry in links.items():
            if not isinstance(entry, dict):
                continue
            entry = dict(entry)
            entry["Op Name"] = name.split("@")[0]
            grouped.setdefault((op_type, name.split("@")[-1], link), []).append(entry)
    out: dict[str, dict[str, Any]] = {}
    for (op_type, group, link), data in grouped.items():
        data.sort(key=lambda x: _number(x.get(BANDWIDTH, 0)), reverse=True)
        size = sum(_number(x.get("Transit Size(MB)", 0)) for x in data)
        time = sum(_number(x.get("Transit Time(ms)", 0)) for x in data)
        total = {
            "Transport Type": data[0].get("Transport Type", ""),
            "Transit Size(MB)": size,
            "Transit Time(ms)": time,
            BANDWIDTH: 0 if abs(time) < 1e-15 else round(size / time, 4),
        }
        picks = [("top1", data[0]), ("middle", data[len(data) // 2]), ("bottom1", data[-1]), ("total", total)]
        picks += [("bottom2", data[-2])] if len(data) >= 2 else []
        picks += [("bottom3", data[-3])] if len(data) >= 3 else []
        for stat, entry in picks:
            out.setdefault(f"{op_type}-{stat}@{group}", {})[link] = entry
    return out


def _prof_matrix(path: str, red: RankReduction) -> dict[str, dict[str, dict[str, Any]]]:
    doc = _prof_doc(path, red)
    if doc is None:
        return {}
    kinds: dict[str, dict[str, Any]] = {"p2p": {}, "collective": {}}
    for name, links in doc.items():
        kind = _prof_kind(name)
        if kind is not None:
            kinds[kind][name] = links
    return {"step": {kind: _integrate(ops, path, red) for kind, ops in kinds.items()}}


def reduce_prof_rank(rank: int, path: str, host: str | None = None) -> RankReduction:
    """Read one msprof rank's ``PROF_*`` folder (its text export; on the machine this runs on)."""
    red = RankReduction(rank, path, host)
    _read_prof_steps(os.path.join(path, PROF_OUTPUT), red)
    analyze = os.path.join(path, PROF_ANALYZE)
    comm_path = os.path.join(analyze, COMM_FILE)
    matrix_path = os.path.join(analyze, MATRIX_FILE)
    red.communication = _ops(_prof_communication(comm_path, red), comm_path, red)
    red.matrix = _ops(_prof_matrix(matrix_path, red), matrix_path, red)
    if not os.path.exists(comm_path) and not os.path.exists(matrix_path):
        red.warnings.append(f"rank {rank}: no {COMM_FILE} or {MATRIX_FILE} in {analyze}")
    _read_metadata(os.path.join(path, METADATA_FILE), red)
    return red


def _read_metadata(meta_path: str, red: RankReduction) -> None:
    meta = reduce_db.read_json(meta_path, red)
    if isinstance(meta, dict):
        info = meta.get("parallel_group_info")
        if isinstance(info, dict):
            red.parallel_group_info = info
        args = meta.get("distributed_args")
        if isinstance(args, dict):
            red.distributed_args = args


def input_files(source: Any) -> list[str]:
    """The files the reduction of ``source`` (a :class:`~workbench.core.cluster.ranks.RankSource`) reads, for
    their sizes (those that exist or not: the caller stats them)."""
    if getattr(source, "kind", "") == "msprof" and getattr(source, "data", "text") == "db":
        profiler = reduce_db.msprof_db(source.path)
        return [*([profiler] if profiler else []), os.path.join(source.path, PROF_ANALYZE, reduce_db.MS_ANALYSIS_DB)]
    if getattr(source, "kind", "") == "msprof":
        analyze = os.path.join(source.path, PROF_ANALYZE)
        return [
            *timeline_files(os.path.join(source.path, PROF_OUTPUT)),
            *(os.path.join(analyze, n) for n in (COMM_FILE, MATRIX_FILE)),
        ]
    output = os.path.join(source.path, OUTPUT)
    if getattr(source, "data", "text") == "db":
        name = reduce_db.MS_ANALYSIS_DB if getattr(source, "kind", "") == "mindspore" else reduce_db.ANALYSIS_DB
        profiler = reduce_db.PROFILER_PREFIX.get(getattr(source, "kind", ""), reduce_db.PROFILER_PREFIX["pytorch"])
        return [os.path.join(output, name), os.path.join(output, f"{profiler}_{source.rank}.db")]
    return [os.path.join(output, n) for n in (STEP_FILE, COMM_FILE, MATRIX_FILE)]


def reduce_source(source: Any) -> RankReduction:
    """The reduction of a :class:`~workbench.core.cluster.ranks.RankSource` (the engine's item): its text
    export by :func:`reduce_rank`, its db export (``source.data == "db"``) by :mod:`.reduce_db`, a msprof rank's
    text export by :func:`reduce_prof_rank`."""
    if getattr(source, "kind", "") == "msprof" and getattr(source, "data", "text") != "db":
        return reduce_prof_rank(source.rank, source.path, source.host)
    if getattr(source, "data", "text") == "db":
        red = RankReduction(source.rank, source.path, source.host)
        return reduce_db.reduce_db_rank(red, getattr(source, "kind", "pytorch"))
    return reduce_rank(source.rank, source.path, source.host)
