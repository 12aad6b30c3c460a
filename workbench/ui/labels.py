"""Translatable names for labels that come from Qt-free core (which cannot call tr()).

``QT_TRANSLATE_NOOP`` marks them for pyside6-lupdate; ``translate_label`` looks them up at run
time. A test checks that every core label is listed here.
"""

from __future__ import annotations

from PySide6.QtCore import QT_TRANSLATE_NOOP, QCoreApplication

from workbench.core import artefacts, project

ARTEFACT_LABELS = (
    QT_TRANSLATE_NOOP("Artefact", "ONNX model"),
    QT_TRANSLATE_NOOP("Artefact", "TensorFlow model"),
    QT_TRANSLATE_NOOP("Artefact", "Caffe model"),
    QT_TRANSLATE_NOOP("Artefact", "Caffe weights"),
    QT_TRANSLATE_NOOP("Artefact", "AIR model"),
    QT_TRANSLATE_NOOP("Artefact", "Offline model (.om)"),
    QT_TRANSLATE_NOOP("Artefact", "Model structure (om JSON)"),
    QT_TRANSLATE_NOOP("Artefact", "AscendCL config (acl.json)"),
    QT_TRANSLATE_NOOP("Artefact", "AIPP config"),
    QT_TRANSLATE_NOOP("Artefact", "Profiling data (PROF)"),
    QT_TRANSLATE_NOOP("Artefact", "msprof timeline"),
    QT_TRANSLATE_NOOP("Artefact", "torch_npu timeline"),
    QT_TRANSLATE_NOOP("Artefact", "Framework profiling output"),
    QT_TRANSLATE_NOOP("Artefact", "Operator summary CSV"),
    QT_TRANSLATE_NOOP("Artefact", "Workbench report"),
    QT_TRANSLATE_NOOP("Artefact", "Dump data folder"),
    QT_TRANSLATE_NOOP("Artefact", "Dump file"),
    QT_TRANSLATE_NOOP("Artefact", "NumPy array"),
    QT_TRANSLATE_NOOP("Artefact", "Cluster analysis output"),
    QT_TRANSLATE_NOOP("Artefact", "Workbench cluster report"),
    QT_TRANSLATE_NOOP("Artefact", "Migration report"),
)

# The explorer's context-menu actions of each artefact kind (core artefacts.ACTION_LABELS).
ACTION_LABELS = (
    QT_TRANSLATE_NOOP("ArtefactAction", "Convert Model…"),
    QT_TRANSLATE_NOOP("ArtefactAction", "Show Model Structure"),
    QT_TRANSLATE_NOOP("ArtefactAction", "Show Graph"),
    QT_TRANSLATE_NOOP("ArtefactAction", "Dump Configuration…"),
    QT_TRANSLATE_NOOP("ArtefactAction", "Open Dump Data"),
    QT_TRANSLATE_NOOP("ArtefactAction", "Analyse as Cluster"),
)

PROJECT_TYPE_LABELS = (
    QT_TRANSLATE_NOOP("ProjectType", "Ascend App"),
    QT_TRANSLATE_NOOP("ProjectType", "Ascend Operator"),
    QT_TRANSLATE_NOOP("ProjectType", "Ascend Training"),
)


STATISTICS_LABELS = (
    QT_TRANSLATE_NOOP("ReportDocument", "ACL API"),
    QT_TRANSLATE_NOOP("ReportDocument", "Runtime API"),
    QT_TRANSLATE_NOOP("ReportDocument", "OS Runtime API"),
    QT_TRANSLATE_NOOP("ReportDocument", "OPs"),
    QT_TRANSLATE_NOOP("ReportDocument", "Op Info"),
)

SUMMARY_LABELS = (
    QT_TRANSLATE_NOOP("Summary", "Profiling info"),
    QT_TRANSLATE_NOOP("Summary", "Source"),
    QT_TRANSLATE_NOOP("Summary", "Kind"),
    QT_TRANSLATE_NOOP("Summary", "Size"),
    QT_TRANSLATE_NOOP("Summary", "Devices"),
    QT_TRANSLATE_NOOP("Summary", "Elapsed time"),
    QT_TRANSLATE_NOOP("Summary", "CANN version"),
    QT_TRANSLATE_NOOP("Summary", "Collected by"),
    QT_TRANSLATE_NOOP("Summary", "Timeline events"),
    QT_TRANSLATE_NOOP("Summary", "Flows"),
    QT_TRANSLATE_NOOP("Summary", "Host"),
    QT_TRANSLATE_NOOP("Summary", "Host system"),
    QT_TRANSLATE_NOOP("Summary", "Device"),
    QT_TRANSLATE_NOOP("Summary", "Device info"),
    QT_TRANSLATE_NOOP("Summary", "Bandwidth"),
    QT_TRANSLATE_NOOP("Summary", "DDR/HBM read and write"),
    QT_TRANSLATE_NOOP("Summary", "AI Core utilization"),
    QT_TRANSLATE_NOOP("Summary", "Sample-based AI Core data"),
    QT_TRANSLATE_NOOP("Summary", "Warnings"),
)


def artefact_label(kind: artefacts.Artefact) -> str:
    return QCoreApplication.translate("Artefact", artefacts.LABELS[kind])


def action_label(action: str) -> str:
    """The translated context-menu label of a core artefact action id."""
    return QCoreApplication.translate("ArtefactAction", artefacts.ACTION_LABELS[action])


def project_type_label(ptype: str) -> str:
    assert ptype in project.PROJECT_TYPES
    return QCoreApplication.translate("ProjectType", ptype)


# core's status lines (views.STATUS_TEMPLATES), for pyside6-lupdate; a test checks the lists match
STATUS_LABELS = (
    QT_TRANSLATE_NOOP("TaskStatus", "Reading {0}"),
    QT_TRANSLATE_NOOP("TaskStatus", "Building the timeline"),
    QT_TRANSLATE_NOOP("TaskStatus", "Laying out the timeline"),
    QT_TRANSLATE_NOOP("TaskStatus", "Writing the cache of {0} for fast re-opening"),
    QT_TRANSLATE_NOOP("TaskStatus", "Opening {0}"),
    QT_TRANSLATE_NOOP("TaskStatus", "Opening {0} ({1}/{2})"),
    QT_TRANSLATE_NOOP("TaskStatus", "Opening base report {0}"),
    QT_TRANSLATE_NOOP("TaskStatus", "Opening current report {0}"),
    QT_TRANSLATE_NOOP("TaskStatus", "Comparing"),
    QT_TRANSLATE_NOOP("TaskStatus", "Exporting {0}"),
    QT_TRANSLATE_NOOP("TaskStatus", "Saving {0}"),
    QT_TRANSLATE_NOOP("TaskStatus", "Writing {0}"),
)


# core's report warnings made from a template (views.REPORT_WARNING_TEMPLATES), for pyside6-lupdate; a
# test checks the lists match
REPORT_WARNING_LABELS = (
    QT_TRANSLATE_NOOP(
        "ReportWarning",
        "{0}: {1} derived from {2} (Ascend Hardware slices matched by stream, task id and start) for {3} of {4} "
        "rows; {5} rows have no timeline partner and stay N/A",
    ),
    QT_TRANSLATE_NOOP(
        "ReportWarning", "{0}: the file groups by the types that were N/A; computed from the OPs table instead"
    ),
    QT_TRANSLATE_NOOP(
        "ReportWarning", "{0}: no OP Type in the args of {1} device tasks; their type is read from the op name ({2})"
    ),
    QT_TRANSLATE_NOOP(
        "ReportWarning",
        "{0}: {1} slices on a device stream named like step markers ({2}) have no Task Type; kept as step markers, "
        "not OPs",
    ),
    # workbench.core.profiling.align.TEMPLATES: a merge of ranks aligned on a step or an operator
    QT_TRANSLATE_NOOP("ReportWarning", "Timelines aligned on the start of step {0}; the reference is {1}"),
    QT_TRANSLATE_NOOP("ReportWarning", "Timelines aligned on the start of {0} (occurrence {1}); the reference is {2}"),
    QT_TRANSLATE_NOOP("ReportWarning", "{0}: shifted by {1} ns"),
    QT_TRANSLATE_NOOP("ReportWarning", "{0}: step {1} has no start time there; left unshifted"),
    QT_TRANSLATE_NOOP(
        "ReportWarning",
        "{0}: occurrence {1} of {2} is not on its communication lanes (it starts there {3} times); left unshifted",
    ),
)


def tr_report_warning(line: str) -> str:
    """A report warning translated where core made it from a known template; others as they are."""
    from workbench.core.profiling import views

    return tr_template("ReportWarning", line, views.REPORT_WARNING_TEMPLATES)


def tr_template(context: str, text: str, templates) -> str:
    """``text`` (an English line core made from one of ``templates``) translated in ``context``,
    its arguments kept; unchanged when it matches none."""
    from workbench.core.profiling import views  # pandas: imported at the first translated line, not at start

    found = views.match_template(text, templates)
    if found is None:
        return text
    template, args = found
    return QCoreApplication.translate(context, template).format(*args)


# Where core's status lines come from: (translation context, core module with its STATUS_TEMPLATES). A core package
# contributes its templates here (core packages do not import each other for it: profiling knows nothing of
# migration); their translations are the QT_TRANSLATE_NOOP lists in that context (STATUS_LABELS,
# ui/migration/texts.STATUS_TEMPLATES, ui/graph/work.STATUS_TEMPLATES; tests check each list equals its module's).
STATUS_SOURCES = (
    ("TaskStatus", "workbench.core.profiling.views"),
    ("MigrationStatus", "workbench.core.migration.run"),
    ("GraphStatus", "workbench.core.graph.layout"),
)


def status_templates() -> dict[str, str]:
    """Every known status template -> its translation context. Profiling's always; another package's once it is
    imported (a work function's line comes from a module that is loaded, so nothing heavy is imported here)."""
    import sys

    from workbench.core.profiling import views  # noqa: F401 - profiling's lines are known from the start

    found: dict[str, str] = {}
    for context, name in STATUS_SOURCES:
        for template in getattr(sys.modules.get(name), "STATUS_TEMPLATES", ()):
            found.setdefault(template, context)
    return found


def tr_status(line: str) -> str:
    """A status line of a core work function (``progress.status``), translated where its
    template is known (:func:`status_templates`); other lines are shown as they are."""
    from workbench.core.profiling import views

    templates = status_templates()
    found = views.match_template(line, templates)
    if found is None:
        return line
    template, args = found
    return QCoreApplication.translate(templates[template], template).format(*args)
