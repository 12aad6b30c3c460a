"""One rank's reduction: only what cluster analysis needs from a rank's folder, as small plain data.

From ``ASCEND_PROFILER_OUTPUT``: ``step_trace_time.csv`` (every step's row, the values as
msprof-analyze takes them: ``float()`` of each cell but ``Step`` / ``Device_id``, 0 for a cell that is
not a number), ``communication.json`` and ``communication_matrix.json`` (every operator but the
per-rank ``Total Op Info``, which the merge recomputes per group); from the rank folder:
``profiler_metadata.json``'s ``parallel_group_info`` and ``distributed_args``.

A db rank (torch_npu ``export_type=Db``: :attr:`~workbench.core.cluster.ranks.RankSource.data` ``"db"``)
is read by :mod:`.reduce_db` into the same reduction.

STDLIB ONLY (json, csv; sqlite3 in :mod:`.reduce_db`): :func:`reduce_rank` runs on Dask workers of the
user's cluster, where workbench is not installed (the engine ships this module by value; :mod:`.reduce_db`
is imported at the top, not inside :func:`reduce_source`, so it travels with it: an ``import`` run on such a
worker would fail). The result pickles small.
"""

from __future__ import annotations

import csv
import json
import os
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
    meta_path = os.path.join(path, METADATA_FILE)
    meta = reduce_db.read_json(meta_path, red)
    if isinstance(meta, dict):
        info = meta.get("parallel_group_info")
        if isinstance(info, dict):
            red.parallel_group_info = info
        args = meta.get("distributed_args")
        if isinstance(args, dict):
            red.distributed_args = args
    return red


def reduce_source(source: Any) -> RankReduction:
    """The reduction of a :class:`~workbench.core.cluster.ranks.RankSource` (the engine's item): its text
    export by :func:`reduce_rank`, its db export (``source.data == "db"``) by :mod:`.reduce_db`."""
    if getattr(source, "data", "text") == "db":
        return reduce_db.reduce_db_rank(RankReduction(source.rank, source.path, source.host))
    return reduce_rank(source.rank, source.path, source.host)
