"""Find the reports below a folder: what File ▸ Open Report Folder…, a dropped folder and ``--open``
do with a folder that is not itself one report (an msprof output folder with several PROF_*, a
folder of ranks, msprof-analyze's cluster output next to its ranks, a folder of saved reports).

:func:`find_reports` is a work function (progress, cancel): it walks the folder breadth first, at
most :data:`MAX_DEPTH` levels down and :data:`MAX_FOLDERS` folders in all, and stops at every report
root (a report's own subfolders are never searched). What a folder is follows
:mod:`workbench.core.profiling.detect` (its layout checks decide; :func:`report_root` is the cheap
name-and-marker test it starts with). Each report comes back as a :class:`FoundReport` with what a
picker lists: its kind, devices, ranks, size and collection time. :func:`ranks_of_one_job` says
whether several of them are the ranks of one job (they can be opened together "as a cluster").
"""

from __future__ import annotations

import datetime as _dt
import os
import re
from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from workbench.core.artefacts import SAVED_REPORT_SUFFIX
from workbench.core.profiling.detect import (
    CLUSTER_FILES,
    FRAMEWORK_FILES,
    LOOKED_FOR,
    OPS_NAMES,
    TIMELINE_NAMES,
    Layout,
    base_name,
    detect,
    is_db_name,
)
from workbench.core.profiling.errors import ProfilingDataError
from workbench.core.tasks import CancelToken, NullProgress, Progress

MAX_DEPTH = 4  # levels below the chosen folder that are searched
MAX_FOLDERS = 20_000  # folders looked at before the search stops (a home folder, a dataset)
_DEVICE = re.compile(r"^device_(\d+)$")
# PROF_000001_20240603093000000_XXXX, host_1234_20240603093000000_ascend_pt: YYYYmmddHHMMSS[fff]
_STAMP = re.compile(r"(?:^|_)(\d{14})(\d{3})?(?:_|$)")


@dataclass(frozen=True)
class FoundReport:
    """One report found below the searched folder."""

    path: Path
    kind: str  # the layout kind of detect: msprof, msprof-legacy, torch_npu, cluster, timeline, workbench
    devices: tuple[int, ...] = ()
    ranks: tuple[int, ...] = ()
    size: int = 0  # bytes of every file of the report
    time: float = 0.0  # collection time (from the folder's name) or the newest file's time, epoch seconds

    def relative_to(self, root: Path) -> str:
        """The path shown to the user: relative to the searched folder ("." for the folder itself)."""
        try:
            text = str(self.path.relative_to(root))
        except ValueError:
            return str(self.path)
        return text or "."


@dataclass
class Discovery:
    """What a search found, and how far it looked."""

    root: Path
    reports: list[FoundReport] = field(default_factory=list)
    folders: int = 0  # folders looked at
    max_depth: int = MAX_DEPTH
    truncated: bool = False  # stopped at MAX_FOLDERS: there may be more
    skipped: list[str] = field(default_factory=list)  # folders that looked like reports but are not readable

    def nothing_found(self) -> str:
        """One line: the folder holds no report, and what was looked for."""
        return (
            f"{self.root}: no profiling report in this folder or up to {self.max_depth} levels below "
            f"({self.folders} folders searched). Looked for: {'; '.join(LOOKED_FOR)}"
        )


def report_root(path: Path) -> bool:
    """Is the folder ``path`` itself the root of one report (by its name and marker entries only):
    a PROF_* folder or one holding mindstudio_profiler_output/, a torch_npu / MindSpore output
    (``*_ascend_pt``, ``*_ascend_ms``, ``ASCEND_PROFILER_OUTPUT``), msprof-analyze's
    ``cluster_analysis_output`` (or a folder holding its cluster_*.json/csv files), a folder holding
    torch_npu's memory / step / communication files by their names (:data:`FRAMEWORK_FILES`)."""
    name = path.name
    if name.startswith("PROF_") or name == "ASCEND_PROFILER_OUTPUT":
        return True
    if name.lower().endswith(("_ascend_pt", "_ascend_ms")) or name == "cluster_analysis_output":
        return True
    try:
        if (path / "mindstudio_profiler_output").is_dir() or any((path / n).is_file() for n in CLUSTER_FILES):
            return True
        return any((path / n).is_file() for n in FRAMEWORK_FILES)  # torch_npu's output files copied elsewhere
    except OSError:  # a folder that may not be looked into (permissions): not a report we can read
        return False


def _report_file(path: Path) -> bool:
    """A file that is a report by its name alone: a saved report, a full timeline JSON, an OPs CSV,
    a profiler database (msprof_*.db, ascend_*_profiler*.db)."""
    if path.suffix == SAVED_REPORT_SUFFIX or is_db_name(path.name):
        return True
    name = base_name(path)
    if name is None:
        return False
    if path.suffix == ".json":
        return name in TIMELINE_NAMES
    return path.suffix == ".csv" and name in OPS_NAMES


def _walk_size(root: Path, cancel: CancelToken) -> tuple[int, float]:
    """Bytes of every file below ``root`` (or of the file) and the newest modification time."""
    if root.is_file():
        st = root.stat()
        return st.st_size, st.st_mtime
    total, newest = 0, 0.0
    for n, (folder, _dirs, files) in enumerate(os.walk(root)):
        if n % 64 == 0:
            cancel.raise_if_cancelled()
        for f in files:
            try:
                st = os.stat(os.path.join(folder, f))
            except OSError:
                continue
            total += st.st_size
            newest = max(newest, st.st_mtime)
    return total, newest


def _stamp(path: Path) -> float | None:
    """The collection time written into a PROF_* / *_ascend_pt name (local time), if any."""
    m = _STAMP.search(path.name)
    if not m:
        return None
    try:
        when = _dt.datetime.strptime(m.group(1), "%Y%m%d%H%M%S")
    except ValueError:
        return None
    return when.timestamp() + (int(m.group(2)) / 1000 if m.group(2) else 0.0)


def _devices(layout: Layout) -> tuple[int, ...]:
    found = {u.device for u in layout.units if u.device is not None}
    for unit in layout.units:
        roots = [unit.root] + sorted(unit.root.glob("PROF_*")) if unit.root.is_dir() else []
        for root in roots:
            try:
                found |= {int(m.group(1)) for p in root.iterdir() if p.is_dir() and (m := _DEVICE.match(p.name))}
            except OSError:
                continue
    return tuple(sorted(found))


def _cluster_ranks(layout: Layout) -> tuple[int, ...]:
    """The ranks msprof-analyze's cluster_step_trace_time.csv lists (its ``rank`` rows)."""
    ranks: set[int] = set()
    for unit in layout.units:
        for path in unit.summaries.get("cluster_step_trace_time", []):
            try:
                with open(path, encoding="utf-8-sig", errors="replace") as fh:
                    header = fh.readline().strip().split(",")
                    if "Type" not in header or "Index" not in header:
                        continue
                    kind, index = header.index("Type"), header.index("Index")
                    for line in fh:
                        cells = line.rstrip("\n").split(",")
                        if len(cells) > max(kind, index) and cells[kind] == "rank" and cells[index].isdigit():
                            ranks.add(int(cells[index]))
            except OSError:
                continue
    return tuple(sorted(ranks))


def describe(path: Path, cancel: CancelToken | None = None) -> FoundReport:
    """What the picker lists for the report at ``path`` (a report root or a report file); raises
    :class:`ProfilingDataError` when ``path`` is not a report after all."""
    cancel = cancel or CancelToken()
    layout = detect(path)
    ranks = {u.rank for u in layout.units if u.rank is not None}
    if layout.kind == "cluster" and not ranks:
        ranks = set(_cluster_ranks(layout))
    size, newest = _walk_size(path, cancel)
    stamp = _stamp(path) if path.is_dir() else None
    return FoundReport(
        path=path,
        kind=layout.kind,
        devices=_devices(layout),
        ranks=tuple(sorted(ranks)),
        size=size,
        time=stamp if stamp is not None else newest,
    )


def find_reports(
    folder: str | os.PathLike[str],
    max_depth: int = MAX_DEPTH,
    progress: Progress | None = None,
    cancel: CancelToken | None = None,
    *,
    max_folders: int = MAX_FOLDERS,
) -> Discovery:
    """Every report in ``folder`` or up to ``max_depth`` levels below (work function). A folder that
    is itself one report comes back as the only one. Hidden folders are not searched; a folder
    reached twice (through a symbolic link) is searched once."""
    progress = progress or NullProgress()
    cancel = cancel or CancelToken()
    root = Path(folder).expanduser().absolute()
    if not root.is_dir():
        raise ProfilingDataError(f"{root}: no such folder")
    out = Discovery(root, max_depth=max_depth)
    progress.status(f"Searching {root} for reports")
    progress.fraction(None)
    queue: deque[tuple[Path, int]] = deque([(root, 0)])
    seen: set[str] = set()
    while queue:
        cancel.raise_if_cancelled()
        here, depth = queue.popleft()
        real = os.path.realpath(here)
        if real in seen:
            continue
        seen.add(real)
        if out.folders >= max_folders:
            out.truncated = True
            break
        out.folders += 1
        if out.folders % 200 == 0:
            progress.status(f"Searched {out.folders} folders, {len(out.reports)} reports so far")
        if report_root(here):
            try:
                out.reports.append(describe(here, cancel))
                continue
            except ProfilingDataError as exc:  # named like a report but not one: say so, look inside
                out.skipped.append(str(exc))
        try:
            entries = sorted(here.iterdir(), key=lambda p: p.name)
        except OSError as exc:
            out.skipped.append(f"{here}: cannot list the folder ({exc.strerror or exc})")
            continue
        for entry in entries:
            if entry.name.startswith("."):
                continue
            try:
                is_dir = entry.is_dir()
            except OSError:
                continue
            if is_dir:
                if depth < max_depth:
                    queue.append((entry, depth + 1))
            elif _report_file(entry):
                try:
                    out.reports.append(describe(entry, cancel))
                except ProfilingDataError as exc:
                    out.skipped.append(str(exc))
    progress.status(f"Found {len(out.reports)} reports in {out.folders} folders")
    return out


def ranks_of_one_job(reports: Sequence[FoundReport]) -> bool:
    """Are ``reports`` the ranks of one job: two or more reports of one kind side by side in one
    folder, each with its own rank (or, where the tool records no rank, its own devices)?"""
    if len(reports) < 2 or len({r.kind for r in reports}) != 1 or reports[0].kind in ("cluster", "workbench"):
        return False
    if len({r.path.parent for r in reports}) != 1:
        return False
    if all(len(r.ranks) == 1 for r in reports):
        return len({r.ranks[0] for r in reports}) == len(reports)
    if any(r.ranks for r in reports) or not all(r.devices for r in reports):
        return False
    devices = [d for r in reports for d in r.devices]
    return len(devices) == len(set(devices))
