"""Which ranks a job folder holds: every rank's profiling folder below a path, found the way
msprof-analyze's ``cluster`` finds them.

A rank is a torch_npu ``*_ascend_pt`` or MindSpore ``*_ascend_ms`` folder holding
``profiler_info_{rank}.json`` and an ``ASCEND_PROFILER_OUTPUT`` folder (the rank id is the number in
that file's name). Its :attr:`RankSource.data` says what the reduction reads: ``"db"`` for torch_npu's
``export_type=Db`` (``ascend_pytorch_profiler[_{rank}].db`` and/or ``analysis.db`` in
``ASCEND_PROFILER_OUTPUT``, and neither ``step_trace_time.csv`` nor ``communication.json``:
:mod:`.reduce_db`), else ``"text"`` (a folder with both exports is read as text). Two folders of one rank
(a job profiled twice into one place): the one with the newest timestamp in its name
(``{worker}_{timestamp}_ascend_pt``) is taken, with a warning naming both.

STDLIB ONLY: :func:`discover` runs on Dask workers of the user's cluster, where workbench is not
installed (the engine ships this module by value). Symbolic links are never followed.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field

MAX_DEPTH = 5  # folder levels below the chosen path that are searched (msprof-analyze: 5)
OUTPUT = "ASCEND_PROFILER_OUTPUT"
KINDS = {"_ascend_pt": "pytorch", "_ascend_ms": "mindspore"}
_INFO = re.compile(r"^profiler_info_(\d+)\.json$")
_INFO_ANY = re.compile(r"^profiler_info_(.*)\.json$")
_PROFILER_DB = re.compile(r"^ascend_pytorch_profiler(?:_\d+)?\.db$")  # msprof-analyze's pattern
ANALYSIS_DB = "analysis.db"
TEXT_FILES = ("step_trace_time.csv", "communication.json")


@dataclass(frozen=True)
class RankSource:
    """One rank's folder: where it is (``host`` is None on this machine) and what produced it."""

    rank: int
    path: str
    kind: str  # pytorch | mindspore
    host: str | None = None
    data: str = "text"  # text | db: which export the reduction reads


@dataclass
class Discovery:
    ranks: list[RankSource] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)


def _kind(name: str) -> str | None:
    for suffix, kind in KINDS.items():
        if name.endswith(suffix):
            return kind
    return None


def _rank_of(folder: str, names: list[str]) -> int | None | str:
    """The rank id of ``profiler_info_{rank}.json``; a str (the file's name) when it is not a number."""
    for name in sorted(names):
        m = _INFO.match(name)
        if m:
            return int(m.group(1))
        if _INFO_ANY.match(name):
            return name
    return None


def _data_of(folder: str) -> str:
    """``"db"`` when the rank's ASCEND_PROFILER_OUTPUT holds a db export and no text files, else ``"text"``."""
    try:
        with os.scandir(os.path.join(folder, OUTPUT)) as it:
            names = {e.name for e in it if e.is_file(follow_symlinks=False)}
    except OSError:
        return "text"
    if any(n in names for n in TEXT_FILES):
        return "text"
    return "db" if ANALYSIS_DB in names or any(_PROFILER_DB.match(n) for n in names) else "text"


def _stamp(path: str) -> int:
    """The timestamp field of ``{worker}_{timestamp}_ascend_pt`` (third from the end); -1 if none."""
    parts = os.path.basename(path).split("_")
    try:
        return int(parts[-3])
    except (IndexError, ValueError):
        return -1


def discover(path: str, host: str | None = None, max_depth: int = MAX_DEPTH) -> Discovery:
    """Every rank folder below ``path`` (``path`` itself may be one), sorted by rank."""
    found: dict[int, list[str]] = {}
    kinds: dict[str, str] = {}
    out = Discovery()
    root = os.path.abspath(path)
    if not os.path.isdir(root):
        out.warnings.append(f"{path}: not a folder")
        return out
    todo = [(root, 0)]
    while todo:
        folder, depth = todo.pop()
        try:
            with os.scandir(folder) as it:
                entries = [e for e in it]
        except OSError as exc:
            out.warnings.append(f"{folder}: cannot be read ({exc.strerror or exc})")
            continue
        names = [e.name for e in entries if e.is_file(follow_symlinks=False)]
        kind = _kind(os.path.basename(folder))
        if kind is not None:
            rank = _rank_of(folder, names)
            has_output = any(e.name == OUTPUT and e.is_dir(follow_symlinks=False) for e in entries)
            if isinstance(rank, str):
                out.warnings.append(f"{folder}: {rank} does not name a rank number (profiler_info_<rank>.json)")
            elif rank is None:
                out.warnings.append(f"{folder}: no profiler_info_<rank>.json, so its rank is unknown; skipped")
            elif not has_output:
                out.warnings.append(f"{folder}: no {OUTPUT} folder (the profiling was not parsed); skipped")
            else:
                found.setdefault(rank, []).append(folder)
                kinds[folder] = kind
            continue  # a rank's own subfolders are never searched
        if depth >= max_depth:
            continue
        for e in sorted(entries, key=lambda e: e.name, reverse=True):
            if e.is_dir(follow_symlinks=False) and e.name != "cluster_analysis_output":
                todo.append((e.path, depth + 1))
    for rank in sorted(found):
        paths = sorted(found[rank])
        chosen = max(paths, key=_stamp)
        if len(paths) > 1:
            others = ", ".join(p for p in paths if p != chosen)
            out.warnings.append(f"rank {rank}: {len(paths)} folders; the newest, {chosen}, is taken (not {others})")
        out.ranks.append(RankSource(rank, chosen, kinds[chosen], host, _data_of(chosen)))
    return out
