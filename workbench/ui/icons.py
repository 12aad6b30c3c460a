"""Icons from resources/icons (SVG), cached."""

from __future__ import annotations

from functools import lru_cache

from PySide6.QtGui import QIcon

from workbench.core.artefacts import Artefact
from workbench.core.paths import resource_path

_ARTEFACT_ICON = {
    Artefact.ONNX_MODEL: "model",
    Artefact.TF_MODEL: "model",
    Artefact.CAFFE_MODEL: "model",
    Artefact.CAFFE_WEIGHTS: "model",
    Artefact.AIR_MODEL: "model",
    Artefact.OM_MODEL: "om",
    Artefact.OM_JSON: "om",
    Artefact.ACL_JSON: "config",
    Artefact.AIPP_CONFIG: "config",
    Artefact.PROF_DIR: "profiling",
    Artefact.PROFILER_OUTPUT: "profiling",
    Artefact.MSPROF_TIMELINE: "timeline",
    Artefact.TRACE_VIEW: "timeline",
    Artefact.OP_SUMMARY: "table",
    Artefact.SAVED_REPORT: "report",
    Artefact.CLUSTER_OUTPUT: "profiling",
    Artefact.CLUSTER_REPORT: "report",
    Artefact.DUMP_DIR: "dump",
    Artefact.DUMP_FILE: "dump",
    Artefact.NPY: "array",
}


@lru_cache(maxsize=None)
def icon(name: str) -> QIcon:
    return QIcon(str(resource_path("icons", f"{name}.svg")))


def artefact_icon(kind: Artefact) -> QIcon:
    return icon(_ARTEFACT_ICON[kind])
