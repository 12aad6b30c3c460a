"""Recognise Ascend artefacts and decide how each is opened: the one registry of what the
workbench can open.

Every kind of artefact has exactly one :class:`Kind` in :data:`KINDS`: its label (a source string
the UI translates), how it is identified, what *Open* does with it and the extra actions of its
context menu, as plain ids (:data:`ACTION_LABELS`); ``workbench.ui.openers`` maps each id to the
UI callable that performs it. Adding a format = one :class:`Kind` here + one UI opener there.

Identification has three steps, cheapest first:

1. ``name``: the file or folder name alone (no I/O). Kinds are mutually exclusive by name except
   where :data:`KINDS`' order decides (a ``PROF_*_ascend_pt`` folder is a PROF folder).
2. ``content``: a few bytes (or a folder's first entries) where the name is ambiguous (AIPP
   configs, dump folders). With 1. this is :func:`classify`, what the project explorer shows, so
   it can classify thousands of files quickly.
3. ``on_open``: a content check for a file whose name says nothing at all (a Chrome-trace JSON of
   any name, an om JSON called ``*.json``). Too broad for the explorer (every ``*.json`` would be
   read); :func:`recognise` uses it when a single file is opened or right-clicked.

A folder no kind claims stays a plain folder (Open expands it), but may still offer actions of its
own in its context menu: :data:`FOLDER_ACTIONS`, checked only when that menu is asked for (a job's
folder of ranks offers "Analyse as Cluster").
"""

from __future__ import annotations

import enum
import json
import os
import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path


class Artefact(enum.Enum):
    ONNX_MODEL = "onnx_model"
    TF_MODEL = "tf_model"
    CAFFE_MODEL = "caffe_model"  # .prototxt (its weights are the .caffemodel beside it)
    CAFFE_WEIGHTS = "caffe_weights"
    AIR_MODEL = "air_model"
    OM_MODEL = "om_model"
    OM_JSON = "om_json"  # atc --mode=1 output
    ACL_JSON = "acl_json"
    AIPP_CONFIG = "aipp_config"
    PROF_DIR = "prof_dir"  # msprof PROF_* folder
    MSPROF_TIMELINE = "msprof_timeline"  # msprof_*.json
    TRACE_VIEW = "trace_view"  # torch_npu trace_view.json
    PROFILER_OUTPUT = "profiler_output"  # ASCEND_PROFILER_OUTPUT or *_ascend_pt / *_ascend_ms
    OP_SUMMARY = "op_summary"  # op_summary_*.csv / kernel_details.csv
    SAVED_REPORT = "saved_report"  # the workbench's own single-file report
    DUMP_DIR = "dump_dir"
    DUMP_FILE = "dump_file"
    NPY = "npy"
    CLUSTER_OUTPUT = "cluster_output"  # msprof-analyze's (or our) cluster_analysis_output folder
    CLUSTER_REPORT = "cluster_report"  # the workbench's saved cluster report (cluster.wbcluster)
    MIGRATION_REPORT = "migration_report"  # convert_tf2npu's report_npu_* / msFmkTransplt's *_msft folder


# --- actions: plain ids; the UI maps each to its opener (workbench.ui.openers.OPENERS) -----------
OPEN_PROJECT = "open_project"  # not a kind's action: a project folder opens as the project
OPEN_REPORT = "open_report"  # the report document (timeline, statistics, ...)
OPEN_TEXT = "open_text"  # the text / hex view (also any file no kind claims)
CONVERT_MODEL = "convert_model"  # the Model Converter wizard with this model
SHOW_MODEL_STRUCTURE = "show_model_structure"  # the model's op list
DUMP_CONFIGURATION = "dump_configuration"  # the Dump Configuration dialog for this model
EDIT_DUMP_CONFIG = "edit_dump_config"  # the Dump Configuration dialog editing this acl.json
OPEN_DUMP_DATA = "open_dump_data"  # the dump data view
OPEN_CLUSTER = "open_cluster"  # the Cluster document (a job's ranks analysed, or an analysis re-opened)
OPEN_MIGRATION = "open_migration"  # the Migration Report document (GPU -> Ascend migration, issue #22)
OPEN_MODEL_GRAPH = "open_model_graph"  # the model as a navigable graph (issue #23)

# What a kind's context actions are called in the explorer's menu (translated in the UI; these
# are the source strings). Open actions are all "Open" there.
ACTION_LABELS: dict[str, str] = {
    CONVERT_MODEL: "Convert Model…",
    SHOW_MODEL_STRUCTURE: "Show Model Structure",
    OPEN_MODEL_GRAPH: "Show Graph",
    DUMP_CONFIGURATION: "Dump Configuration…",
    OPEN_DUMP_DATA: "Open Dump Data",
    OPEN_CLUSTER: "Analyse as Cluster",
}

SAVED_REPORT_SUFFIX = ".wbreport"

# Cluster analysis (core.cluster sits above this module, so its names are repeated here; a test checks
# they agree): msprof-analyze's output folder and files, and our saved cluster report in it.
CLUSTER_OUTPUT_DIR = "cluster_analysis_output"
CLUSTER_FILES = (
    "cluster_step_trace_time.csv",
    "communication_group.json",
    "cluster_communication.json",
    "cluster_communication_matrix.json",
)
CLUSTER_REPORT_NAME = "cluster.wbcluster"
# A rank of a job (torch_npu / MindSpore, text or db export, as msprof-analyze finds them): a *_ascend_pt /
# *_ascend_ms folder holding profiler_info_{rank}.json.
RANK_SUFFIXES = ("_ascend_pt", "_ascend_ms")
_RANK_INFO = re.compile(r"^profiler_info_(\d+)\.json\Z")
# A rank of a msprof job (msprof-analyze's MsprofDataPreprocessor, core.cluster.ranks): a parsed PROF_* folder
# (msprof_<timestamp>.db, or mindstudio_profiler_output and analyze) whose device_<id> folder holds
# info.json.<id>; its rank is that file's rank_id, or (-1: no rank given) its host uid and device.
PROF_PREFIX = "PROF_"
_PROF_INFO = re.compile(r"^info\.json\.(\d{1,2})\Z")
_PROF_DEVICE = re.compile(r"^device_\d{1,2}\Z")
_PROF_DB = re.compile(r"^msprof_\d{1,20}\.db\Z")
_PROF_TEXT = {"mindstudio_profiler_output", "analyze"}
_INFO_BYTES = 65536  # an info.json.<id> is a few KB; a larger one is not read whole
_PROF_DEVICES_READ = 2  # device_<id> folders looked into per PROF folder

# {op_type}.{op_name}.{task_id}.{stream_id}.{timestamp}: the last three are integers.
DUMP_NAME = re.compile(r"^[A-Za-z0-9_]+\.[^/]+\.\d+\.\d+\.\d{10,}\Z")  # \Z: not before a trailing newline
_OP_SUMMARY = re.compile(r"^(op_summary(_\d+)*(_\d{14})?|kernel_details)\.csv$")
_MSPROF_JSON = re.compile(r"^msprof(_\d+)*(_\d{14})?\.json$")


# --- content checks ---------------------------------------------------------------------------
def _head(path: Path, size: int) -> bytes:
    try:
        with open(path, "rb") as fh:
            return fh.read(size)
    except OSError:
        return b""


def _is_aipp(path: Path) -> bool:
    return b"aipp_op" in _head(path, 4096)


# A model dump: {dump_path}/{timestamp}/{device_id}/{model_name}/{model_id}/{iteration}/ holds the
# files (docs/cann-formats.md §7.1). Counted up from the folder holding the files, every level is a
# number but the model's name (level 2); single-op dumps omit levels, so fewer are accepted.
DUMP_DEPTH = 5  # levels from a dump_path down to the folder holding its files
DUMP_MODEL_LEVEL = 2
_DIGITS = re.compile(r"^\d+$")
_ENTRIES_READ = 64  # entries read per folder (the files come in thousands; a few tell)
_FOLDERS_LISTED = 96  # folders listed per search (the explorer classifies every row it shows)


def _viable(chain: tuple[str, ...]) -> bool:
    """Can ``chain`` (folder names below the searched folder) still lead down the dump layout to
    the files: a depth of at most :data:`DUMP_DEPTH` where each name is a number but the model's?"""
    return any(
        all(_DIGITS.match(name) or depth - i == DUMP_MODEL_LEVEL for i, name in enumerate(chain, start=1))
        for depth in range(len(chain), DUMP_DEPTH + 1)
    )


def dump_leaves(path: Path, *, limit: int | None = None) -> list[Path]:
    """The folders at or below ``path`` that hold dump files, following the dump layout down (at
    most :data:`DUMP_DEPTH` levels, numbered folders but the model's name), in name order; at most
    ``limit`` of them. Reads a bounded number of entries, so it answers fast for any folder; a
    symlinked folder below ``path`` is not followed (``path`` itself may be one)."""
    found: list[Path] = []
    budget = _FOLDERS_LISTED * (1 if limit is not None and limit <= 1 else 16)
    stack: list[tuple[Path, tuple[str, ...]]] = [(Path(path), ())]
    while stack and budget > 0 and (limit is None or len(found) < limit):
        folder, chain = stack.pop()
        budget -= 1
        holds, subdirs = False, []
        try:
            with os.scandir(folder) as it:
                for n, entry in enumerate(it):
                    if n >= _ENTRIES_READ:
                        break
                    try:
                        if entry.is_dir(follow_symlinks=False):  # as the view's scan (rglob): no loops, not out
                            if len(chain) < DUMP_DEPTH and _viable((*chain, entry.name)):
                                subdirs.append(entry.name)
                        elif not holds and DUMP_NAME.match(entry.name) and entry.is_file():
                            holds = True
                    except OSError:
                        continue
        except OSError:
            continue
        if holds:
            found.append(folder)
        stack += [(folder / name, (*chain, name)) for name in sorted(subdirs, reverse=True)]
    return sorted(found)


def _looks_like_dump_dir(path: Path) -> bool:
    """A folder holding dump files, or one above them in the dump layout (``dump/``, a timestamp…)."""
    return bool(dump_leaves(path, limit=1))


# The migration tools' report folders (core.migration.reports sits above this module; a test checks the names
# agree): convert_tf2npu's report_npu_<time>/ and msFmkTransplt's migrated copy <name>_msft/ (or its
# transplant_result_file/), identified by their files.
MIGRATION_TF_FILES = ("api_brief_report.txt", "api_analysis_report.xlsx", "success_report.txt")
MIGRATION_PT_FILES = ("unsupported_api.csv", "unsupported_op.csv", "msFmkTranspltlog.txt")


def _is_migration_report(path: Path) -> bool:
    """A folder holding convert_tf2npu's reports, or msFmkTransplt's change_list.csv with its log or API list."""
    if any((path / name).is_file() for name in MIGRATION_TF_FILES):
        return True
    return (path / "change_list.csv").is_file() and any((path / name).is_file() for name in MIGRATION_PT_FILES)


def _is_cluster_output(path: Path) -> bool:
    """A ``cluster_analysis_output`` folder holding one of msprof-analyze's files or our saved report
    (at most five look-ups, and only for a folder of that name)."""
    return path.name == CLUSTER_OUTPUT_DIR and any(
        (path / name).is_file() for name in (CLUSTER_REPORT_NAME, *CLUSTER_FILES)
    )


def _rank_suffix(name: str) -> str | None:
    return next((s for s in RANK_SUFFIXES if name.endswith(s)), None)


def rank_id(folder: Path) -> int | None:
    """The rank of a job's rank folder (``*_ascend_pt`` / ``*_ascend_ms`` holding
    ``profiler_info_{rank}.json``), None for any other path. Reads at most :data:`_ENTRIES_READ`
    entries of it."""
    folder = Path(folder)
    if _rank_suffix(folder.name) is None:
        return None
    try:
        with os.scandir(folder) as it:
            for n, entry in enumerate(it):
                if n >= _ENTRIES_READ:
                    break
                m = _RANK_INFO.match(entry.name)
                try:
                    if m and entry.is_file(follow_symlinks=False):
                        return int(m.group(1))
                except OSError:
                    continue
    except OSError:
        return None
    return None


def _other_rank(folder: Path, suffix: str, rank: int, skip: str = "") -> bool:
    """Does ``folder`` directly hold a rank folder of the kind ``suffix`` whose rank is not ``rank``,
    other than the entry ``skip``? Reads at most :data:`_ENTRIES_READ` entries
    of it and of each rank folder; folders reached through a symbolic link are not counted (the
    analysis does not follow them)."""
    try:
        with os.scandir(folder) as it:
            for n, entry in enumerate(it):
                if n >= _ENTRIES_READ:
                    break
                if entry.name == skip or not entry.name.endswith(suffix):
                    continue
                try:
                    if not entry.is_dir(follow_symlinks=False):
                        continue
                except OSError:
                    continue
                found = rank_id(Path(entry.path))
                if found is not None and found != rank:
                    return True
    except OSError:
        return False
    return False


def holds_ranks(folder: Path) -> bool:
    """Does ``folder`` directly hold two or more rank folders of one job (one framework, two rank
    ids at least; or two msprof ``PROF_*`` ranks: :func:`prof_rank`)? What offers "Analyse as Cluster";
    reads a bounded number of entries."""
    folder = Path(folder)
    prof: tuple[str, tuple[object, ...]] | None = None  # the first PROF_* rank
    try:
        with os.scandir(folder) as it:
            firsts: dict[str, tuple[str, int]] = {}
            for n, entry in enumerate(it):
                if n >= _ENTRIES_READ:
                    break
                suffix = _rank_suffix(entry.name)
                is_prof = prof is None and entry.name.startswith(PROF_PREFIX)
                if (suffix is None or suffix in firsts) and not is_prof:
                    continue
                try:
                    if not entry.is_dir(follow_symlinks=False):
                        continue
                except OSError:
                    continue
                if is_prof:
                    key = prof_rank(Path(entry.path))
                    prof = (entry.name, key) if key is not None else None
                    continue
                rank = rank_id(Path(entry.path))
                if rank is not None and suffix is not None:
                    firsts[suffix] = (entry.name, rank)
    except OSError:
        return False
    if prof is not None and _other_prof_rank(folder, prof[1], skip=prof[0]):
        return True
    return any(_other_rank(folder, suffix, rank, skip=name) for suffix, (name, rank) in firsts.items())


def _entries(folder: Path | str, limit: int = _ENTRIES_READ) -> list[tuple[str, bool, bool]]:
    """(name, is a folder, is a file) of ``folder``'s first ``limit`` entries, symbolic links neither."""
    out = []
    try:
        with os.scandir(folder) as it:
            for n, entry in enumerate(it):
                if n >= limit:
                    break
                try:
                    out.append((entry.name, entry.is_dir(follow_symlinks=False), entry.is_file(follow_symlinks=False)))
                except OSError:
                    continue
    except OSError:
        return []
    return out


def _info_rank(path: Path, device: int) -> tuple[object, ...] | None:
    """The rank an ``info.json.<id>`` names: ``("rank", rank_id)``, or ``("device", hostUid, device)`` for -1."""
    try:
        with open(path, "rb") as fh:
            doc = json.loads(fh.read(_INFO_BYTES))
    except (OSError, ValueError, RecursionError):
        return None
    if not isinstance(doc, dict):
        return None
    rank = doc.get("rank_id", -1)
    if isinstance(rank, bool) or not isinstance(rank, int) or rank < -1:
        return None
    return ("rank", rank) if rank != -1 else ("device", str(doc.get("hostUid")), device)


def prof_rank(folder: Path) -> tuple[object, ...] | None:
    """The rank of a msprof job's ``PROF_*`` folder (see :data:`PROF_PREFIX`) as a comparable key, None for any
    other path. Reads a bounded number of entries and one small ``info.json.<id>``."""
    folder = Path(folder)
    if not folder.name.startswith(PROF_PREFIX):
        return None
    entries = _entries(folder)
    dirs = sorted(name for name, is_dir, _f in entries if is_dir)
    if not any(is_file and _PROF_DB.match(name) for name, _d, is_file in entries) and not set(dirs) >= _PROF_TEXT:
        return None  # not parsed: the analysis skips it
    for device in [d for d in dirs if _PROF_DEVICE.match(d)][:_PROF_DEVICES_READ]:
        for name, _d, is_file in _entries(folder / device):
            m = _PROF_INFO.match(name)
            if m and is_file:
                return _info_rank(folder / device / name, int(m.group(1)))
    return None


def _other_prof_rank(folder: Path, rank: tuple[object, ...], skip: str = "") -> bool:
    """Does ``folder`` directly hold a ``PROF_*`` rank other than ``rank`` (and the entry ``skip``)?"""
    for name, is_dir, _f in _entries(folder):
        if name != skip and is_dir and name.startswith(PROF_PREFIX):
            found = prof_rank(folder / name)
            if found is not None and found != rank:
                return True
    return False


def is_job_rank(path: Path) -> bool:
    """Is ``path`` one rank of a job whose folder holds other ranks too (its folder
    :func:`holds_ranks`)? Such a folder is part of a cluster, not a report on its own."""
    path = Path(path)
    if path.name.startswith(PROF_PREFIX):
        key = prof_rank(path)
        return key is not None and _other_prof_rank(path.parent, key, skip=path.name)
    suffix = _rank_suffix(path.name)
    if suffix is None:
        return False
    rank = rank_id(path)
    return rank is not None and _other_rank(path.parent, suffix, rank, skip=path.name)


def looks_like_trace(path: Path, probe: int = 65536) -> bool:
    """Is ``path`` a Chrome-trace timeline JSON whatever its name (a top-level event array, or an
    object with ``traceEvents``)? Reads only its first ``probe`` bytes; for opening a file the
    name does not identify (``classify`` stays name-based)."""
    text = _head(path, probe).lstrip(b"\xef\xbb\xbf \t\r\n")
    if text.startswith(b"["):
        body = text[1:].lstrip()
        return body.startswith(b"{") and b'"ph"' in text
    return text.startswith(b"{") and b'"traceEvents"' in text


def looks_like_om_json(path: Path, probe: int = 262144) -> bool:
    """Is ``path`` the JSON of an offline model (``atc --mode=1``: an object with ``graph`` and
    its ``op`` list) whatever its name? Reads only its first ``probe`` bytes."""
    text = _head(path, probe).lstrip(b"\xef\xbb\xbf \t\r\n")
    return text.startswith(b"{") and b'"graph"' in text and b'"op"' in text and b'"traceEvents"' not in text


def _json_file(check: Callable[[Path], bool]) -> Callable[[Path], bool]:
    """``check`` for a ``*.json`` file only (other names are never read)."""
    return lambda p: p.suffix.lower() == ".json" and check(p)


# --- the registry -----------------------------------------------------------------------------
@dataclass(frozen=True)
class Kind:
    """One kind of artefact: how it is identified, what it is called, how it is opened."""

    artefact: Artefact
    label: str  # source string; the UI translates it ("Artefact")
    name: Callable[[str], bool]  # by its name alone (no I/O)
    open: str  # action id of Open / double-click / Enter
    actions: tuple[str, ...] = ()  # context-menu action ids (after Open), in order
    folder: bool = False  # a folder kind (else a file kind)
    content: Callable[[Path], bool] | None = None  # a content check where the name is ambiguous
    on_open: Callable[[Path], bool] | None = None  # a content check for any name, on open only

    def identify(self, path: Path, *, on_open: bool = False) -> bool:
        """Is ``path`` of this kind? By name, then by content where the name is ambiguous;
        with ``on_open`` also by the open-time content check (a single file being opened)."""
        if path.is_dir() != self.folder:
            return False
        if self.name(path.name) or (self.content is not None and self.content(path)):
            return True
        return on_open and self.on_open is not None and self.on_open(path)


def _suffix(suffix: str) -> Callable[[str], bool]:
    """The name's suffix (as ``Path.suffix``: a dot file such as ``.om`` has none) is ``suffix``."""
    return lambda name: os.path.splitext(name)[1].lower() == suffix


def _named(*names: str) -> Callable[[str], bool]:
    return lambda name: name.lower() in names


def _never(_name: str) -> bool:
    return False


def _aipp_name(name: str) -> bool:
    return os.path.splitext(name)[1].lower() in (".cfg", ".config", ".conf", ".txt") and "aipp" in name.lower()


def _aipp_content(path: Path) -> bool:
    return path.suffix.lower() in (".cfg", ".config") and _is_aipp(path)


# In precedence order (classify returns the first kind that matches).
KINDS: tuple[Kind, ...] = (
    # folders
    Kind(Artefact.PROF_DIR, "Profiling data (PROF)", lambda n: n.startswith("PROF_"), OPEN_REPORT, folder=True),
    Kind(
        Artefact.PROFILER_OUTPUT,
        "Framework profiling output",
        lambda n: n == "ASCEND_PROFILER_OUTPUT" or n.lower().endswith(("_ascend_pt", "_ascend_ms")),
        OPEN_REPORT,
        folder=True,
    ),
    Kind(
        Artefact.DUMP_DIR,
        "Dump data folder",
        _never,
        OPEN_DUMP_DATA,
        (OPEN_DUMP_DATA,),
        folder=True,
        content=_looks_like_dump_dir,
    ),
    # named so, and holding at least one of its files (an empty one is a plain folder)
    Kind(
        Artefact.CLUSTER_OUTPUT,
        "Cluster analysis output",
        _never,
        OPEN_CLUSTER,
        folder=True,
        content=_is_cluster_output,
    ),
    Kind(
        Artefact.MIGRATION_REPORT,
        "Migration report",
        _never,
        OPEN_MIGRATION,
        folder=True,
        content=_is_migration_report,
    ),
    # files
    Kind(Artefact.ONNX_MODEL, "ONNX model", _suffix(".onnx"), OPEN_MODEL_GRAPH, (CONVERT_MODEL, SHOW_MODEL_STRUCTURE)),
    Kind(Artefact.TF_MODEL, "TensorFlow model", _suffix(".pb"), OPEN_TEXT, (CONVERT_MODEL, OPEN_MODEL_GRAPH)),
    Kind(Artefact.CAFFE_MODEL, "Caffe model", _suffix(".prototxt"), OPEN_TEXT, (CONVERT_MODEL, OPEN_MODEL_GRAPH)),
    Kind(Artefact.CAFFE_WEIGHTS, "Caffe weights", _suffix(".caffemodel"), OPEN_TEXT),
    Kind(Artefact.AIR_MODEL, "AIR model", _suffix(".air"), OPEN_TEXT, (CONVERT_MODEL,)),
    Kind(
        Artefact.OM_MODEL,
        "Offline model (.om)",
        _suffix(".om"),
        SHOW_MODEL_STRUCTURE,
        (SHOW_MODEL_STRUCTURE, OPEN_MODEL_GRAPH, DUMP_CONFIGURATION),
    ),
    Kind(Artefact.NPY, "NumPy array", _suffix(".npy"), OPEN_DUMP_DATA, (OPEN_DUMP_DATA,)),
    Kind(Artefact.SAVED_REPORT, "Workbench report", _suffix(SAVED_REPORT_SUFFIX), OPEN_REPORT),
    Kind(Artefact.CLUSTER_REPORT, "Workbench cluster report", lambda n: n == CLUSTER_REPORT_NAME, OPEN_CLUSTER),
    Kind(Artefact.ACL_JSON, "AscendCL config (acl.json)", _named("acl.json"), EDIT_DUMP_CONFIG),
    # a Chrome trace of any name opens as a timeline report (torch_npu's or msprof's)
    Kind(
        Artefact.TRACE_VIEW,
        "torch_npu timeline",
        _named("trace_view.json"),
        OPEN_REPORT,
        on_open=_json_file(looks_like_trace),
    ),
    Kind(Artefact.MSPROF_TIMELINE, "msprof timeline", lambda n: bool(_MSPROF_JSON.match(n.lower())), OPEN_REPORT),
    Kind(Artefact.OP_SUMMARY, "Operator summary CSV", lambda n: bool(_OP_SUMMARY.match(n.lower())), OPEN_REPORT),
    Kind(
        Artefact.OM_JSON,
        "Model structure (om JSON)",
        lambda n: n.lower().endswith(".om.json"),
        OPEN_MODEL_GRAPH,
        (SHOW_MODEL_STRUCTURE, DUMP_CONFIGURATION),
        on_open=_json_file(looks_like_om_json),
    ),
    Kind(Artefact.AIPP_CONFIG, "AIPP config", _aipp_name, OPEN_TEXT, content=_aipp_content),
    Kind(Artefact.DUMP_FILE, "Dump file", lambda n: bool(DUMP_NAME.match(n)), OPEN_DUMP_DATA, (OPEN_DUMP_DATA,)),
)

BY_ARTEFACT: dict[Artefact, Kind] = {k.artefact: k for k in KINDS}


@dataclass(frozen=True)
class FolderAction:
    """A context-menu action of a folder no kind claims, offered when ``applies`` says so. Open stays
    what it is for any plain folder (it expands); ``applies`` runs only when the menu is asked for,
    never in :func:`classify`."""

    action: str
    applies: Callable[[Path], bool]


# In menu order.
FOLDER_ACTIONS: tuple[FolderAction, ...] = (FolderAction(OPEN_CLUSTER, holds_ranks),)

# What each artefact is called in the UI (translated there; these are the source strings).
LABELS: dict[Artefact, str] = {k.artefact: k.label for k in KINDS}


def _first(path: Path, on_open: bool) -> Kind | None:
    folder = path.is_dir()
    kinds = [k for k in KINDS if k.folder == folder]
    name = path.name
    for kind in kinds:  # names first: no I/O
        if kind.name(name):
            return kind
    for kind in kinds:  # then content, where the name is ambiguous
        if kind.content is not None and kind.content(path):
            return kind
    if on_open:  # a single file being opened: any name
        for kind in kinds:
            if kind.on_open is not None and kind.on_open(path):
                return kind
    return None


def classify(path: Path) -> Artefact | None:
    """What kind of Ascend artefact ``path`` is, or None for an ordinary file or folder (by name,
    and by a little content where the name is ambiguous: what the project explorer shows)."""
    kind = _first(Path(path), on_open=False)
    return kind.artefact if kind is not None else None


def recognise(path: Path) -> Kind | None:
    """The kind of ``path`` when it is opened or right-clicked: :func:`classify`, and for a name
    that says nothing, the open-time content checks (a renamed timeline, an om JSON ``*.json``)."""
    return _first(Path(path), on_open=True)


def is_project_folder(path: Path) -> bool:
    from workbench.core.project import PROJECT_DIR, PROJECT_FILE

    return path.is_dir() and (path / PROJECT_DIR / PROJECT_FILE).exists()


def open_action(path: Path, *, as_report: bool = False) -> str | None:
    """The action id that opens ``path``: :data:`OPEN_PROJECT` for a project folder, else the
    kind's open action, else :data:`OPEN_TEXT` for a file and None for a folder (it expands).
    ``as_report`` (the user chose File ▸ Open Report…): everything but a project opens as a
    report, whatever it is called; the engine says what it looked for if it is not one."""
    path = Path(path)
    if is_project_folder(path):
        return OPEN_PROJECT
    if as_report:
        return OPEN_REPORT
    kind = recognise(path)
    if kind is not None:
        return kind.open
    return None if path.is_dir() else OPEN_TEXT


def context_actions(path: Path) -> tuple[str, ...]:
    """The extra actions of ``path``'s context menu (after Open), as ids: its kind's, or for a plain
    folder the :data:`FOLDER_ACTIONS` that apply to it."""
    path = Path(path)
    kind = recognise(path)
    if kind is not None:
        return kind.actions
    if path.is_dir():
        return tuple(fa.action for fa in FOLDER_ACTIONS if fa.applies(path))
    return ()
