"""Find out what a path holds: which profiling layout, which files, which devices.

Layouts (docs/cann-formats.md §1.3, §4):
- CANN 7/8 ``PROF_*/mindstudio_profiler_output/{name}_{timestamp}.csv|json``            -> msprof
- CANN 5/6 ``PROF_*/device_N/summary/{name}_{dev}_{model}_{iter}.csv`` + ``timeline/``,
  host data in ``PROF_*/host/summary``                                                 -> msprof-legacy
  (MindSpore: only ``device_N/timeline/msprof_{dev}_{model}_{iter}.json``, one per iteration)
- torch_npu / MindSpore ``*_ascend_pt|ms/ASCEND_PROFILER_OUTPUT/``                       -> torch_npu
  (also a folder holding only its memory / step / communication files by their torch_npu names)
- the communication analysis (docs/cann-formats.md §4.2): ``communication.json`` and
  ``communication_matrix.json`` in ``ASCEND_PROFILER_OUTPUT`` (torch_npu, MindSpore: per step) or in
  ``PROF_*/analyze/`` (``msprof --analyze=on``; "analyse" in CANN 8.0.RC1 docs: flat, by op)
- msprof-analyze ``cluster_analysis_output`` (cluster_step_trace_time.csv, ...)         -> cluster
- a single timeline JSON (-> timeline), a single op_summary / kernel_details CSV, a saved report
- the database exports (docs/cann-formats.md §11): ``PROF_*/msprof_{timestamp}.db`` (msprof 8.x;
  + ``PROF_*/analyze/communication_analyzer.db``), ``ASCEND_PROFILER_OUTPUT/ascend_pytorch_profiler[_{rank}].db``
  (+ ``analysis.db``) and ``ascend_mindspore_profiler[_{rank}].db`` (+ the ``communication_analyzer.db`` MindSpore
  copies from msprof), or one such file (its analysis database found beside it). The analysis database is the
  unit's second db, where msprof-analyze looks for it (``_get_analysis_db_path``: torch_npu ``analysis.db``,
  MindSpore and msprof ``communication_analyzer.db``). Where a folder holds both the Text and the Db export, the
  Text export is read (as before) and the database is left alone.
- a folder holding several of these: one report, several units (devices or ranks).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from workbench.core.artefacts import SAVED_REPORT_SUFFIX
from workbench.core.profiling.errors import ProfilingDataError

# a profiler database by name (docs/cann-formats.md §11); read by workbench.core.profiling.dbread
_DB_NAME = re.compile(
    r"^(?:msprof_\d+|ascend_pytorch_profiler(?:_\d+)?|ascend_mindspore_profiler(?:_\d+)?)\.db$", re.IGNORECASE
)


def is_db_name(name: str) -> bool:
    return bool(_DB_NAME.match(name))


_NAME = re.compile(r"^(?P<name>[A-Za-z][A-Za-z0-9_]*?)(_\d+)*(_slice_\d+)?\.(?P<ext>csv|json)$")
OPS_NAMES = ("op_summary", "kernel_details")
# Timeline JSON names that hold the full timeline (the others are subsets of it).
TIMELINE_NAMES = ("msprof", "trace_view")
SUBSET_TIMELINES = ("step_trace", "msprof_tx")
# API statistics files without a Level column, and the level their rows have.
LEGACY_API = {"acl_statistic": "acl", "runtime_api": "runtime", "os_runtime_statistic": "osrt"}
LEGACY_API_CALLS = {"acl": "acl"}
# The communication analysis JSONs (read by tables.commread), by base name.
COMMUNICATION_NAMES = ("communication", "communication_matrix")
# Files torch_npu writes into ASCEND_PROFILER_OUTPUT under these exact names: a folder holding any of them
# (the output's content copied elsewhere) is read as a torch_npu output even without kernels or a trace.
FRAMEWORK_FILES = (
    "communication.json",
    "communication_matrix.json",
    "memory_record.csv",
    "operator_memory.csv",
    "npu_module_mem.csv",
    "step_trace_time.csv",
)
ANALYZE_DIRS = ("analyze", "analyse")
CLUSTER_FILES = ("cluster_step_trace_time.csv", "cluster_communication.json", "cluster_communication_matrix.json")
LOOKED_FOR = (
    "PROF_*/mindstudio_profiler_output/ (CANN 7/8 msprof)",
    "PROF_*/device_N/summary/ and timeline/ (CANN 5/6 msprof)",
    "*_ascend_pt or *_ascend_ms with ASCEND_PROFILER_OUTPUT/ (torch_npu / MindSpore)",
    "a folder of torch_npu's memory_record.csv, operator_memory.csv, npu_module_mem.csv, step_trace_time.csv, "
    "communication.json, communication_matrix.json",
    "cluster_analysis_output/ (msprof-analyze cluster)",
    "a timeline JSON (msprof_*.json, trace_view.json)",
    "an op_summary_*.csv or kernel_details.csv",
    "a profiler database (msprof_*.db, ascend_pytorch_profiler*.db, ascend_mindspore_profiler*.db)",
    f"a saved report (*{SAVED_REPORT_SUFFIX})",
)


@dataclass
class Unit:
    """One collection: a PROF folder, a device of a legacy PROF, a framework output or a file."""

    root: Path
    kind: str
    device: int | None = None  # device id known from the layout (device_N), if any
    rank: int | None = None  # framework rank (profiler_info_N.json), if any
    timelines: list[Path] = field(default_factory=list)
    ops: list[Path] = field(default_factory=list)
    op_statistic: list[Path] = field(default_factory=list)
    api_statistic: list[Path] = field(default_factory=list)
    api_legacy: list[tuple[Path, str]] = field(default_factory=list)  # (file, level)
    api_calls: list[tuple[Path, str]] = field(default_factory=list)  # (file, level)
    summaries: dict[str, list[Path]] = field(default_factory=dict)  # other CSVs by base name
    infos: list[Path] = field(default_factory=list)  # profiler_info*.json, info.json*
    dbs: list[Path] = field(default_factory=list)  # the profiler database (+ analysis.db), when no Text export
    communication: dict[str, list[Path]] = field(default_factory=dict)  # communication(_matrix).json by base name


@dataclass
class Layout:
    kind: str
    root: Path
    units: list[Unit]
    saved: Path | None = None

    @property
    def files(self) -> list[Path]:
        out: list[Path] = []
        for u in self.units:
            out += u.timelines + u.ops + u.op_statistic + u.api_statistic
            out += [p for p, _ in u.api_legacy + u.api_calls]
            out += [p for ps in u.summaries.values() for p in ps]
            out += u.dbs
            out += [p for ps in u.communication.values() for p in ps]
        return out


def base_name(path: Path) -> str | None:
    """``op_summary_20250215160320.csv`` -> ``op_summary``; ``acl_0_1_1.csv`` -> ``acl``."""
    m = _NAME.match(path.name)
    return m.group("name") if m else None


def _sorted_files(folder: Path) -> list[Path]:
    try:
        return sorted(p for p in folder.iterdir() if p.is_file())
    except OSError:
        return []


def _add_csv(unit: Unit, path: Path, name: str) -> None:
    if name in OPS_NAMES:
        unit.ops.append(path)
    elif name == "op_statistic":
        unit.op_statistic.append(path)
    elif name == "api_statistic":
        unit.api_statistic.append(path)
    elif name in LEGACY_API:
        unit.api_legacy.append((path, LEGACY_API[name]))
        if name == "os_runtime_statistic":  # also kept as is: the OS Runtime API view reads it
            unit.summaries.setdefault(name, []).append(path)
    elif name in LEGACY_API_CALLS:
        unit.api_calls.append((path, LEGACY_API_CALLS[name]))
    else:
        unit.summaries.setdefault(name, []).append(path)


def _scan_output(unit: Unit, folder: Path) -> None:
    """Add every summary CSV and full timeline JSON of ``folder`` to ``unit``."""
    for path in _sorted_files(folder):
        name = base_name(path)
        if name is None:
            continue
        if path.suffix == ".csv":
            _add_csv(unit, path, name)
        elif name in TIMELINE_NAMES:
            unit.timelines.append(path)
        elif name in COMMUNICATION_NAMES and path.name == f"{name}.json":
            unit.communication.setdefault(name, []).append(path)
        elif name.startswith("profiler_info") or name == "profiler_metadata":
            unit.infos.append(path)


def _legacy_timelines(folder: Path) -> list[Path]:
    files = [p for p in _sorted_files(folder) if p.suffix == ".json"]
    full = [p for p in files if base_name(p) == "msprof"]
    if full:
        return full
    return [p for p in files if base_name(p) not in SUBSET_TIMELINES]


def _prof_infos(prof: Path) -> list[Path]:
    """Host and device info files of a PROF folder (host/info.json, device_N/info.json.N)."""
    found = [prof / "host" / "info.json"] + sorted(prof.glob("device_*/info.json*"))
    return [p for p in found if p.is_file()]


def profiler_dbs(folder: Path) -> list[Path]:
    """The profiler databases of a folder (msprof_*.db, ascend_*_profiler*.db), by name."""
    return [p for p in _sorted_files(folder) if is_db_name(p.name)]


# The communication analysis of a database export, by the profiler db's producer: torch_npu writes analysis.db,
# msprof `--analyze=on --type=db` writes PROF_*/analyze/communication_analyzer.db (8.1+; the CANN 8.0.RC1 doc's
# folder `analyse`), MindSpore copies that file into ASCEND_PROFILER_OUTPUT (docs/cann-formats.md §4.2, §11).
ANALYSIS_DB = "analysis.db"
COMM_ANALYZER_DB = "communication_analyzer.db"


def analysis_db(db: Path) -> Path | None:
    """The analysis database that goes with the profiler database ``db``, if there is one."""
    folder = db.parent
    if db.name.lower().startswith("msprof_"):
        found = [folder / d / COMM_ANALYZER_DB for d in ANALYZE_DIRS]
    elif db.name.lower().startswith("ascend_mindspore_profiler"):
        found = [folder / COMM_ANALYZER_DB, folder / ANALYSIS_DB]
    else:
        found = [folder / ANALYSIS_DB]
    return next((p for p in found if p.is_file()), None)


def _db_unit(root: Path, folder: Path, kind: str) -> Unit | None:
    dbs = profiler_dbs(folder)
    if not dbs:
        return None
    unit = Unit(root, kind, dbs=[dbs[-1]])
    analysis = analysis_db(dbs[-1])
    if analysis is not None:
        unit.dbs.append(analysis)
    m = re.search(r"_(\d+)\.db$", dbs[-1].name)
    if m and not dbs[-1].name.startswith("msprof_"):
        unit.rank = int(m.group(1))
    return unit


def _prof_analyze(unit: Unit, prof: Path) -> None:
    """The communication analysis of ``msprof --analyze=on`` (``PROF_*/analyze/``) into ``unit``."""
    for folder in ANALYZE_DIRS:
        for name in COMMUNICATION_NAMES:
            path = prof / folder / f"{name}.json"
            if path.is_file() and not unit.communication.get(name):
                unit.communication[name] = [path]


def _prof_units(prof: Path) -> list[Unit]:
    output = prof / "mindstudio_profiler_output"
    if output.is_dir():
        unit = Unit(prof, "msprof", infos=_prof_infos(prof))
        _scan_output(unit, output)
        _prof_analyze(unit, prof)
        if unit.timelines or unit.ops or unit.summaries or unit.api_statistic:
            return [unit]
    db = _db_unit(prof, prof, "msprof")
    if db is not None:
        db.infos = _prof_infos(prof)
        _prof_analyze(db, prof)
        return [db]
    if output.is_dir():
        return []
    units: list[Unit] = []
    host_summary = prof / "host" / "summary"
    for dev in sorted(prof.glob("device_*")):
        m = re.fullmatch(r"device_(\d+)", dev.name)
        if not m or not dev.is_dir():
            continue
        unit = Unit(dev, "msprof-legacy", device=int(m.group(1)))
        if (dev / "summary").is_dir():
            _scan_output(unit, dev / "summary")
            unit.timelines = []
        if (dev / "timeline").is_dir():
            unit.timelines = _legacy_timelines(dev / "timeline")
        if unit.timelines or unit.ops or unit.summaries or unit.api_legacy:
            units.append(unit)
    if units:
        units[0].infos += _prof_infos(prof)
    if host_summary.is_dir() and units:
        host = Unit(prof / "host", "msprof-legacy")
        _scan_output(host, host_summary)
        host.timelines = []
        if (prof / "host" / "timeline").is_dir():
            host.timelines = _legacy_timelines(prof / "host" / "timeline")
        units[0].api_legacy += host.api_legacy
        units[0].api_calls += host.api_calls
        units[0].api_statistic += host.api_statistic
        if host.timelines:
            host.ops = []
            host.summaries = {}
            units.append(host)
    return units


def _framework_unit(folder: Path) -> list[Unit]:
    """A ``*_ascend_pt`` / ``*_ascend_ms`` folder or its ``ASCEND_PROFILER_OUTPUT``."""
    output = folder if folder.name == "ASCEND_PROFILER_OUTPUT" else folder / "ASCEND_PROFILER_OUTPUT"
    top = output.parent if folder.name == "ASCEND_PROFILER_OUTPUT" else folder
    unit = Unit(top, "torch_npu")
    if output.is_dir():
        _scan_output(unit, output)
    for path in _sorted_files(top):
        name = base_name(path) or ""
        if name.startswith("profiler_info") or name == "profiler_metadata":
            unit.infos.append(path)
            m = re.fullmatch(r"profiler_info_(\d+)\.json", path.name)
            if m:
                unit.rank = int(m.group(1))
    if not (unit.timelines or unit.ops) and output.is_dir():
        db = _db_unit(top, output, "torch_npu")
        if db is not None:
            unit.dbs, unit.rank = db.dbs, unit.rank if unit.rank is not None else db.rank
    if unit.timelines or unit.ops or unit.dbs:
        for prof in sorted(top.glob("PROF_*")):  # the chip, AI Core count, frequencies of each device
            unit.infos += _prof_infos(prof)
        return [unit]
    # Not parsed by the framework: fall back to the CANN data inside.
    units: list[Unit] = []
    for prof in sorted(top.glob("PROF_*")):
        units += _prof_units(prof)
    if not units and _has_framework_files(unit):  # memory, step or communication files only
        return [unit]
    return units


def _has_framework_files(unit: Unit) -> bool:
    names = {p.name for ps in unit.summaries.values() for p in ps}
    names |= {p.name for ps in unit.communication.values() for p in ps}
    return bool(names & set(FRAMEWORK_FILES))


def _cluster_unit(folder: Path) -> list[Unit]:
    unit = Unit(folder, "cluster")
    for path in _sorted_files(folder):
        if path.suffix == ".csv":
            unit.summaries.setdefault(path.stem, []).append(path)
        elif path.suffix == ".json" and path.name.startswith("cluster_"):
            unit.infos.append(path)
    return [unit] if unit.summaries or unit.infos else []


def _is_framework(path: Path) -> bool:
    return path.name == "ASCEND_PROFILER_OUTPUT" or path.name.lower().endswith(("_ascend_pt", "_ascend_ms"))


def _units_of_dir(folder: Path, depth: int) -> list[Unit]:
    if folder.name.startswith("PROF_") or (folder / "mindstudio_profiler_output").is_dir():
        return _prof_units(folder)
    if folder.name == "mindstudio_profiler_output":
        return _prof_units(folder.parent)
    if _is_framework(folder):
        return _framework_unit(folder)
    if re.fullmatch(r"device_\d+", folder.name) and ((folder / "summary").is_dir() or (folder / "timeline").is_dir()):
        return [u for u in _prof_units(folder.parent) if u.root == folder]
    if folder.name == "cluster_analysis_output" or any((folder / n).is_file() for n in CLUSTER_FILES):
        return _cluster_unit(folder)
    units: list[Unit] = []
    if depth > 0:
        try:
            children = sorted(p for p in folder.iterdir() if p.is_dir() and not p.name.startswith("."))
        except OSError as exc:
            raise ProfilingDataError(f"{folder}: cannot list the folder ({exc.strerror or exc})") from exc
        for child in children:
            units += _units_of_dir(child, depth - 1)
    if not units:
        loose = Unit(folder, "")
        _scan_output(loose, folder)
        if loose.timelines or loose.ops:
            loose.kind = _file_kind(loose.ops[0]) if loose.ops else "timeline"
            units.append(loose)
        else:
            db = _db_unit(folder, folder, "")
            if db is not None:
                db.kind = _db_kind(db.dbs[0])
                units.append(db)
            elif _has_framework_files(loose):  # ASCEND_PROFILER_OUTPUT's files copied into a folder
                loose.kind = "torch_npu"
                units.append(loose)
    return units


def _db_kind(path: Path) -> str:
    return "msprof" if path.name.startswith("msprof_") else "torch_npu"


def _file_kind(path: Path) -> str:
    """Kind of a lone CSV: torch_npu for kernel_details, msprof(-legacy) for op_summary by header."""
    if base_name(path) == "kernel_details":
        return "torch_npu"
    try:
        with open(path, encoding="utf-8-sig", errors="replace") as fh:
            header = fh.readline()
    except OSError as exc:
        raise ProfilingDataError(f"{path}: cannot read ({exc.strerror or exc})") from exc
    return "msprof" if "Task Start Time(us)" in header or "Device_id" in header else "msprof-legacy"


def _looks_like_ops_csv(path: Path) -> bool:
    try:
        with open(path, encoding="utf-8-sig", errors="replace") as fh:
            header = fh.readline()
    except OSError:
        return False
    return ("Op Name" in header or "Name" in header) and "Duration(us)" in header


def detect(path: Path) -> Layout:
    """The layout of ``path``; an unknown layout raises an error listing what was looked for."""
    path = Path(path)
    if not path.exists():
        raise ProfilingDataError(f"{path}: no such file or folder")
    if path.is_file():
        if path.suffix == SAVED_REPORT_SUFFIX:
            return Layout("workbench", path, [], saved=path)
        name = base_name(path) or ""
        if path.suffix.lower() == ".json":
            if path.name in CLUSTER_FILES:
                return Layout("cluster", path.parent, _cluster_unit(path.parent))
            return Layout("timeline", path, [Unit(path, "timeline", timelines=[path])])
        if path.suffix.lower() == ".db" and is_db_name(path.name):
            kind = _db_kind(path)
            unit = Unit(path, kind, dbs=[path])
            analysis = analysis_db(path)
            if analysis is not None:
                unit.dbs.append(analysis)
            return Layout(kind, path, [unit])
        if path.suffix.lower() == ".csv" and (name in OPS_NAMES or _looks_like_ops_csv(path)):
            kind = _file_kind(path)
            return Layout(kind, path, [Unit(path, kind, ops=[path])])
        raise _unknown(path)
    units = _units_of_dir(path, depth=2)
    if not units:
        raise _unknown(path)
    kinds = {u.kind for u in units}
    framework = [u for u in units if u.kind == "torch_npu"]
    kind = "cluster" if len(framework) > 1 or len(kinds) > 1 else units[0].kind
    return Layout(kind, path, units)


def _unknown(path: Path) -> ProfilingDataError:
    looked = "; ".join(LOOKED_FOR)
    return ProfilingDataError(f"{path}: not a profiling report this workbench can read. Looked for: {looked}")
