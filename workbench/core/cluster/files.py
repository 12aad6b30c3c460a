"""msprof-analyze's cluster output files, written and read in its exact layout.

``cluster_analysis_output/`` holds ``cluster_step_trace_time.csv`` (``csv`` module, CRLF rows, floats
as Python prints them), ``communication_group.json``, ``cluster_communication.json`` and
``cluster_communication_matrix.json`` (``json.dumps`` with its default separators, one line), so the
users' scripts and MindStudio Insight read what this app writes as their own. :func:`read_output`
reads such a folder back (msprof-analyze's or ours) into :class:`~workbench.core.cluster.merge.ClusterTables`.

Writes are atomic; an existing file is replaced only with ``force`` (the CLI's ``--force``, the GUI's
yes); the output never goes inside a rank's folder.
"""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path
from typing import Any

from workbench.core.cluster.merge import ClusterTables, digits
from workbench.core.fsutil import OutputRefused, atomic_write_text, refuse_existing

OUTPUT_DIR = "cluster_analysis_output"
STEP_CSV = "cluster_step_trace_time.csv"
GROUP_JSON = "communication_group.json"
COMM_JSON = "cluster_communication.json"
MATRIX_JSON = "cluster_communication_matrix.json"
NAMES = (STEP_CSV, GROUP_JSON, COMM_JSON, MATRIX_JSON)


class ClusterFileError(ValueError):
    """A cluster output file that cannot be read: the message names the file, line or key."""


def step_csv_text(tables: ClusterTables) -> str:
    buf = io.StringIO(newline="")
    writer = csv.writer(buf)
    writer.writerow(tables.step_header)
    writer.writerows(tables.step_rows)
    return buf.getvalue()


def planned(tables: ClusterTables) -> list[str]:
    """The files a write of ``tables`` creates (msprof-analyze writes none for an empty part)."""
    out = []
    if tables.step_rows and tables.step_header:
        out.append(STEP_CSV)
    if tables.groups.get("collective") or tables.groups.get("p2p"):
        out.append(GROUP_JSON)
    if tables.communication:
        out.append(COMM_JSON)
    if tables.matrix:
        out.append(MATRIX_JSON)
    return out


def write_output(tables: ClusterTables, out_dir: str | Path, *, force: bool = False) -> list[Path]:
    """Write the msprof-analyze files of ``tables`` into ``out_dir``; the paths written."""
    out = Path(out_dir)
    names = planned(tables)
    targets = [out / n for n in names]
    for target in targets:
        refuse_existing(target, force)
    if out.exists() and not out.is_dir():
        raise OutputRefused(f"{out}: exists and is not a folder")
    out.mkdir(parents=True, exist_ok=True)
    texts = {
        STEP_CSV: lambda: step_csv_text(tables),
        GROUP_JSON: lambda: json.dumps(tables.groups),
        COMM_JSON: lambda: json.dumps(tables.communication),
        MATRIX_JSON: lambda: json.dumps(tables.matrix),
    }
    for name, target in zip(names, targets):
        atomic_write_text(target, texts[name]())
    return targets


# ---- reading ----------------------------------------------------------------------------------------


def _number(cell: str) -> Any:
    try:
        return int(cell)
    except ValueError:
        pass
    try:
        return float(cell)
    except ValueError:
        return cell


def _read_steps(path: Path, tables: ClusterTables) -> None:
    try:
        with open(path, newline="", encoding="utf-8-sig") as f:
            rows = list(csv.reader(f))
    except (UnicodeDecodeError, csv.Error) as exc:
        raise ClusterFileError(f"{path}: not a readable CSV ({exc})") from None
    if not rows or rows[0][:3] != ["Step", "Type", "Index"]:
        found = ", ".join(rows[0][:3]) if rows else "nothing"
        raise ClusterFileError(f"{path}: line 1 should start with Step,Type,Index (found {found})")
    tables.step_header = rows[0]
    for line, row in enumerate(rows[1:], start=2):
        if not row:
            continue
        if len(row) < 4 or row[1] not in ("rank", "stage"):
            raise ClusterFileError(f"{path}: line {line}: expected Step,rank|stage,Index,values... (found {row[:3]})")
        if row[1] == "rank" and not digits(row[2]):
            raise ClusterFileError(f"{path}: line {line}: Index {row[2]!r} of a rank row is not a rank number")
        index: Any = int(row[2]) if row[1] == "rank" else row[2]
        values = [_number(c) for c in row[3:]]
        tables.step_rows.append([row[0], row[1], index, *values])
    tables.ranks = sorted({r[2] for r in tables.step_rows if r[1] == "rank" and isinstance(r[2], int)})
    for row in tables.step_rows:
        if row[1] == "stage" and isinstance(row[2], str):
            stage = [int(x) for x in row[2].strip("()").replace(" ", "").split(",") if digits(x.lstrip("-"))]
            if stage and stage not in tables.stages:
                tables.stages.append(stage)


def _read_json(path: Path) -> Any:
    try:
        return json.loads(path.read_bytes())
    except (ValueError, RecursionError) as exc:
        raise ClusterFileError(f"{path}: not valid JSON ({exc})") from None


def read_output(folder: str | Path) -> ClusterTables:
    """The cluster tables of a ``cluster_analysis_output`` folder (any of its files may be missing)."""
    base = Path(folder)
    tables = ClusterTables()
    if not any((base / n).is_file() for n in NAMES):
        raise ClusterFileError(f"{base}: none of {', '.join(NAMES)} is there")
    if (base / STEP_CSV).is_file():
        _read_steps(base / STEP_CSV, tables)
    for name, attr in ((GROUP_JSON, "groups"), (COMM_JSON, "communication"), (MATRIX_JSON, "matrix")):
        path = base / name
        if not path.is_file():
            continue
        doc = _read_json(path)
        if not isinstance(doc, dict):
            raise ClusterFileError(f"{path}: expected an object, found {type(doc).__name__}")
        setattr(tables, attr, doc)
    if not tables.ranks:
        ranks: set[int] = set()
        for group in tables.groups.get("collective", []) + tables.groups.get("p2p", []):
            ranks.update(r for r in group if isinstance(r, int))
        tables.ranks = sorted(ranks)
    return tables
