"""Which ranks a job folder holds: every rank's profiling folder below a path, found the way
msprof-analyze's ``cluster`` finds them.

A rank is a torch_npu ``*_ascend_pt`` or MindSpore ``*_ascend_ms`` folder holding
``profiler_info_{rank}.json`` and an ``ASCEND_PROFILER_OUTPUT`` folder (the rank id is the number in
that file's name). Its :attr:`RankSource.data` says what the reduction reads: ``"db"`` for torch_npu's
``export_type=Db`` (``ascend_pytorch_profiler[_{rank}].db`` and/or ``analysis.db`` in
``ASCEND_PROFILER_OUTPUT``) and MindSpore's db export (``ascend_mindspore_profiler[_{rank}].db`` and/or the
``communication_analyzer.db`` it copies from msprof), with neither ``step_trace_time.csv`` nor
``communication.json`` (:mod:`.reduce_db`), else ``"text"`` (a folder with both exports is read as text).
Two folders of one rank (a job profiled twice into one place): the one with the newest timestamp in its name
(``{worker}_{timestamp}_ascend_pt``) is taken, with a warning naming both.

A msprof job (``msprof`` / acl-profiled processes, no framework: msprof-analyze 26.2's
``MsprofDataPreprocessor``) is read only when the folder holds no torch_npu / MindSpore rank, as
msprof-analyze does: every ``PROF_*`` folder is a rank (:attr:`RankSource.kind` ``"msprof"``) when a folder
of it (``device_{id}``) holds ``info.json.{id}``, and it is parsed: ``msprof_{timestamp}.db`` in it (``"db"``),
else ``mindstudio_profiler_output`` and ``analyze`` (``"text"``: what ``msprof --export=on`` and
``msprof --analyze=on`` write). The rank id is that file's ``rank_id``; when every folder says ``-1`` (a
process that was not given a rank), the folders are numbered 0, 1, ... in the order of their
(``hostUid``, device id) and of two folders of one (host, device) the one with the *oldest* timestamp in its
name (``PROF_{n}_{timestamp}_{letters}``) is taken (msprof-analyze's rule); folders with a rank id and
folders without one: only the former are ranks. A PROF folder of several devices (one process) is one rank, its
first ``device_{id}`` (by name) naming it, with a warning.

STDLIB ONLY: :func:`discover` runs on Dask workers of the user's cluster, where workbench is not
installed (the engine ships this module by value). Symbolic links are never followed.
"""

from __future__ import annotations

import json
import os
import re
from dataclasses import dataclass, field

MAX_DEPTH = 5  # folder levels below the chosen path that are searched (msprof-analyze: 5)
OUTPUT = "ASCEND_PROFILER_OUTPUT"
KINDS = {"_ascend_pt": "pytorch", "_ascend_ms": "mindspore"}
MSPROF = "msprof"  # RankSource.kind of a PROF_* rank
PROF_PREFIX = "PROF_"
PROF_OUTPUT = "mindstudio_profiler_output"
PROF_ANALYZE = "analyze"
_PROF_INFO = re.compile(r"^info\.json\.\d{1,2}$")  # msprof-analyze INFO_JSON_PATTERN
_MSPROF_DB = re.compile(r"^msprof_\d{1,20}\.db$")  # msprof-analyze's db_pattern of a PROF folder
NO_RANK = -1  # info.json's rank_id of a process without one
_INFO = re.compile(r"^profiler_info_(\d+)\.json$")
_INFO_ANY = re.compile(r"^profiler_info_(.*)\.json$")
_PROFILER_DB = re.compile(r"^ascend_(?:pytorch|mindspore)_profiler(?:_\d+)?\.db$")  # msprof-analyze's patterns
ANALYSIS_DB = "analysis.db"
MS_ANALYSIS_DB = "communication_analyzer.db"  # MindSpore's copy of msprof's communication analysis
TEXT_FILES = ("step_trace_time.csv", "communication.json")


@dataclass(frozen=True)
class RankSource:
    """One rank's folder: where it is (``host`` is None on this machine) and what produced it."""

    rank: int
    path: str
    kind: str  # pytorch | mindspore | msprof
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
    dbs = (ANALYSIS_DB, MS_ANALYSIS_DB)
    return "db" if any(n in names for n in dbs) or any(_PROFILER_DB.match(n) for n in names) else "text"


def _stamp(path: str) -> int:
    """The timestamp field of ``{worker}_{timestamp}_ascend_pt`` (third from the end); -1 if none."""
    parts = os.path.basename(path).split("_")
    try:
        return int(parts[-3])
    except (IndexError, ValueError):
        return -1


@dataclass
class _Prof:
    """A PROF_* folder that is a rank: its rank id (or ``NO_RANK``), host and device, export."""

    path: str
    rank: int
    host_uid: str
    device: int
    data: str


def _prof_stamp(path: str) -> str:
    """The timestamp field of ``PROF_{n}_{timestamp}_{letters}`` (second from the end); '' if none."""
    parts = os.path.basename(path).split("_")
    return parts[-2] if len(parts) >= 3 else ""


def _read_info(path: str, warnings: list[str]) -> dict | None:
    try:
        with open(path, "rb") as f:
            doc = json.loads(f.read())
    except OSError as exc:
        warnings.append(f"{path}: cannot be read ({exc.strerror or exc})")
        return None
    except (ValueError, RecursionError) as exc:
        warnings.append(f"{path}: not valid JSON ({str(exc)[:200]})")
        return None
    if not isinstance(doc, dict):
        warnings.append(f"{path}: expected an object with rank_id, found {type(doc).__name__}; skipped")
        return None
    return doc


def _prof(folder: str, entries: list[os.DirEntry], warnings: list[str]) -> _Prof | None:
    """``folder`` (a ``PROF_*``) as a rank, or None with a warning saying why not."""
    infos: list[str] = []
    for e in sorted((e for e in entries if e.is_dir(follow_symlinks=False)), key=lambda e: e.name):
        try:
            names = sorted(os.listdir(e.path))
        except OSError:
            continue
        found = next((n for n in names if _PROF_INFO.match(n)), None)
        if found is not None:
            infos.append(os.path.join(e.path, found))
    info_path = infos[0] if infos else None
    if len(infos) > 1:  # one process profiling several devices: msprof-analyze takes the first info.json
        warnings.append(
            f"{folder}: {len(infos)} devices in one PROF folder; read as one rank, as msprof-analyze reads it "
            f"(the rank of {os.path.relpath(infos[0], folder)})"
        )
    if info_path is None:
        warnings.append(f"{folder}: no device_<id>/info.json.<id>, so its rank is unknown; skipped")
        return None
    dirs = {e.name for e in entries if e.is_dir(follow_symlinks=False)}
    if any(_MSPROF_DB.match(e.name) for e in entries if e.is_file(follow_symlinks=False)):
        data = "db"
    elif PROF_OUTPUT in dirs and PROF_ANALYZE in dirs:
        data = "text"
    else:
        step = "msprof --analyze=on" if PROF_OUTPUT in dirs else "msprof --export=on, then msprof --analyze=on"
        warnings.append(f"{folder}: not parsed (no {PROF_OUTPUT} and {PROF_ANALYZE} folders: run {step}); skipped")
        return None
    doc = _read_info(info_path, warnings)
    if doc is None:
        return None
    rank = doc.get("rank_id", NO_RANK)
    if isinstance(rank, bool) or not isinstance(rank, int) or rank < NO_RANK:
        warnings.append(f"{info_path}: rank_id {rank!r} is not a rank number; skipped")
        return None
    host_uid = doc.get("hostUid")
    device = int(os.path.basename(info_path).rsplit(".", 1)[-1])
    return _Prof(folder, rank, "" if host_uid is None else str(host_uid), device, data)


def _prof_ranks(profs: list[_Prof], host: str | None, out: Discovery) -> None:
    """msprof-analyze's ranks of the PROF folders (see the module docstring)."""
    ranked = [p for p in profs if p.rank != NO_RANK]
    if ranked:
        unranked = [p.path for p in profs if p.rank == NO_RANK]
        if unranked:
            out.warnings.append(
                f"{len(unranked)} PROF folders have no rank_id ({unranked[0]}, ...) while others have one; "
                "they are left out"
            )
        by_rank: dict[int, list[_Prof]] = {}
        for p in ranked:
            by_rank.setdefault(p.rank, []).append(p)
        for rank in sorted(by_rank):
            paths = sorted(by_rank[rank], key=lambda p: p.path)
            chosen = max(paths, key=lambda p: int(_prof_stamp(p.path)) if _prof_stamp(p.path).isdigit() else -1)
            if len(paths) > 1:
                others = ", ".join(p.path for p in paths if p is not chosen)
                out.warnings.append(
                    f"rank {rank}: {len(paths)} folders; the newest, {chosen.path}, is taken (not {others})"
                )
            out.ranks.append(RankSource(rank, chosen.path, MSPROF, host, chosen.data))
        return
    by_device: dict[tuple[str, int], list[_Prof]] = {}
    for p in profs:
        by_device.setdefault((p.host_uid, p.device), []).append(p)
    for rank, key in enumerate(sorted(by_device)):
        paths = sorted(by_device[key], key=lambda p: (_prof_stamp(p.path), p.path))
        chosen = paths[0]
        if len(paths) > 1:
            others = ", ".join(p.path for p in paths[1:])
            out.warnings.append(
                f"rank {rank}: {len(paths)} folders of device {key[1]} without a rank_id; the oldest, "
                f"{chosen.path}, is taken (not {others})"
            )
        out.ranks.append(RankSource(rank, chosen.path, MSPROF, host, chosen.data))


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
    profs: list[_Prof] = []
    prof_warnings: list[str] = []
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
        if os.path.basename(folder).startswith(PROF_PREFIX):
            prof = _prof(folder, entries, prof_warnings)
            if prof is not None:
                profs.append(prof)
            continue  # nor a PROF folder's
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
    if out.ranks:  # msprof-analyze reads PROF folders only when there is no framework rank
        if profs:
            out.warnings.append(
                f"{len(profs)} PROF folders ({profs[0].path}, ...) are left out: the torch_npu / MindSpore "
                "ranks are analysed"
            )
        return out
    out.warnings.extend(prof_warnings)
    _prof_ranks(profs, host, out)
    return out
