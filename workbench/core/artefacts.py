"""Recognise Ascend artefacts in a project folder: models, configs, profiling data, dumps.

``classify(path)`` looks at the name first and at a few bytes of content only where the name is
ambiguous (AIPP configs, dump folders), so the project explorer can classify thousands of files
quickly.
"""
from __future__ import annotations

import enum
import re
from pathlib import Path


class Artefact(enum.Enum):
    ONNX_MODEL = "onnx_model"
    TF_MODEL = "tf_model"
    CAFFE_MODEL = "caffe_model"        # .prototxt (its weights are the .caffemodel beside it)
    CAFFE_WEIGHTS = "caffe_weights"
    AIR_MODEL = "air_model"
    OM_MODEL = "om_model"
    OM_JSON = "om_json"                # atc --mode=1 output
    ACL_JSON = "acl_json"
    AIPP_CONFIG = "aipp_config"
    PROF_DIR = "prof_dir"              # msprof PROF_* folder
    MSPROF_TIMELINE = "msprof_timeline"  # msprof_*.json
    TRACE_VIEW = "trace_view"          # torch_npu trace_view.json
    PROFILER_OUTPUT = "profiler_output"  # ASCEND_PROFILER_OUTPUT or *_ascend_pt / *_ascend_ms
    OP_SUMMARY = "op_summary"          # op_summary_*.csv / kernel_details.csv
    SAVED_REPORT = "saved_report"      # the workbench's own single-file report
    DUMP_DIR = "dump_dir"
    DUMP_FILE = "dump_file"
    NPY = "npy"


# What each artefact is called in the UI (translated there; these are the source strings).
LABELS: dict[Artefact, str] = {
    Artefact.ONNX_MODEL: "ONNX model",
    Artefact.TF_MODEL: "TensorFlow model",
    Artefact.CAFFE_MODEL: "Caffe model",
    Artefact.CAFFE_WEIGHTS: "Caffe weights",
    Artefact.AIR_MODEL: "AIR model",
    Artefact.OM_MODEL: "Offline model (.om)",
    Artefact.OM_JSON: "Model structure (om JSON)",
    Artefact.ACL_JSON: "AscendCL config (acl.json)",
    Artefact.AIPP_CONFIG: "AIPP config",
    Artefact.PROF_DIR: "Profiling data (PROF)",
    Artefact.MSPROF_TIMELINE: "msprof timeline",
    Artefact.TRACE_VIEW: "torch_npu timeline",
    Artefact.PROFILER_OUTPUT: "Framework profiling output",
    Artefact.OP_SUMMARY: "Operator summary CSV",
    Artefact.SAVED_REPORT: "Workbench report",
    Artefact.DUMP_DIR: "Dump data folder",
    Artefact.DUMP_FILE: "Dump file",
    Artefact.NPY: "NumPy array",
}

SAVED_REPORT_SUFFIX = ".wbreport"

_SUFFIXES = {
    ".onnx": Artefact.ONNX_MODEL,
    ".pb": Artefact.TF_MODEL,
    ".prototxt": Artefact.CAFFE_MODEL,
    ".caffemodel": Artefact.CAFFE_WEIGHTS,
    ".air": Artefact.AIR_MODEL,
    ".om": Artefact.OM_MODEL,
    ".npy": Artefact.NPY,
    SAVED_REPORT_SUFFIX: Artefact.SAVED_REPORT,
}
# {op_type}.{op_name}.{task_id}.{stream_id}.{timestamp}: the last three are integers.
DUMP_NAME = re.compile(r"^[A-Za-z0-9_]+\.[^/]+\.\d+\.\d+\.\d{10,}$")
_OP_SUMMARY = re.compile(r"^(op_summary(_\d+)*(_\d{14})?|kernel_details)\.csv$")
_MSPROF_JSON = re.compile(r"^msprof(_\d+)*(_\d{14})?\.json$")


def _is_aipp(path: Path) -> bool:
    try:
        with path.open("rb") as fh:
            head = fh.read(4096)
    except OSError:
        return False
    return b"aipp_op" in head


def _looks_like_dump_dir(path: Path) -> bool:
    try:
        for n, child in enumerate(path.iterdir()):
            if n > 50:
                break
            if child.is_file() and DUMP_NAME.match(child.name):
                return True
    except OSError:
        return False
    return False


def classify(path: Path) -> Artefact | None:
    """What kind of Ascend artefact ``path`` is, or None for an ordinary file or folder."""
    name = path.name
    lower = name.lower()
    if path.is_dir():
        if name.startswith("PROF_"):
            return Artefact.PROF_DIR
        if name == "ASCEND_PROFILER_OUTPUT" or lower.endswith(("_ascend_pt", "_ascend_ms")):
            return Artefact.PROFILER_OUTPUT
        if _looks_like_dump_dir(path):
            return Artefact.DUMP_DIR
        return None
    suffix = path.suffix.lower()
    if suffix in _SUFFIXES:
        return _SUFFIXES[suffix]
    if lower == "acl.json":
        return Artefact.ACL_JSON
    if lower == "trace_view.json":
        return Artefact.TRACE_VIEW
    if _MSPROF_JSON.match(lower):
        return Artefact.MSPROF_TIMELINE
    if _OP_SUMMARY.match(lower):
        return Artefact.OP_SUMMARY
    if lower.endswith((".om.json",)) or (suffix == ".json" and lower.startswith("model")):
        return Artefact.OM_JSON if lower.endswith(".om.json") else None
    if suffix in (".cfg", ".config", ".conf", ".txt") and "aipp" in lower or (suffix in (".cfg", ".config") and _is_aipp(path)):
        return Artefact.AIPP_CONFIG
    if DUMP_NAME.match(name):
        return Artefact.DUMP_FILE
    return None


def looks_like_trace(path: Path, probe: int = 65536) -> bool:
    """Is ``path`` a Chrome-trace timeline JSON whatever its name (a top-level event array, or an
    object with ``traceEvents``)? Reads only its first ``probe`` bytes; for opening a file the
    name does not identify (``classify`` stays name-based)."""
    try:
        with open(path, "rb") as fh:
            head = fh.read(probe)
    except OSError:
        return False
    text = head.lstrip(b"\xef\xbb\xbf \t\r\n")
    if text.startswith(b"["):
        body = text[1:].lstrip()
        return body.startswith(b"{") and b'"ph"' in text
    return text.startswith(b"{") and b'"traceEvents"' in text
