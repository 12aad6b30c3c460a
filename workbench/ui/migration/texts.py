"""The translated names of core's migration values: support categories, frameworks, the checks'
templates (core ``migration.job`` makes the lines in English; :func:`tr_check` translates them)."""

from __future__ import annotations

from PySide6.QtCore import QT_TRANSLATE_NOOP, QCoreApplication

CATEGORY_LABELS = {
    "supported": QT_TRANSLATE_NOOP("Migration", "Supported"),
    "migrated_by_tool": QT_TRANSLATE_NOOP("Migration", "Supported after migration by the tool"),
    "manual": QT_TRANSLATE_NOOP("Migration", "Supported after manual migration"),
    "analysing": QT_TRANSLATE_NOOP("Migration", "Analysing"),
    "unsupported": QT_TRANSLATE_NOOP("Migration", "Unsupported"),
    "deprecated": QT_TRANSLATE_NOOP("Migration", "Deprecated"),
    "na": QT_TRANSLATE_NOOP("Migration", "NA"),
    "unknown": QT_TRANSLATE_NOOP("Migration", "Unknown"),
    "precision_advice": QT_TRANSLATE_NOOP("Migration", "Precision advice"),
    "performance_advice": QT_TRANSLATE_NOOP("Migration", "Performance advice"),
    "other": QT_TRANSLATE_NOOP("Migration", "Other"),
}
# the failed / unsupported rows first, the supported ones last
CATEGORY_ORDER = (
    "unsupported",
    "deprecated",
    "manual",
    "unknown",
    "analysing",
    "other",
    "precision_advice",
    "performance_advice",
    "migrated_by_tool",
    "supported",
    "na",
)
FRAMEWORK_LABELS = {
    "tf1": QT_TRANSLATE_NOOP("Migration", "TensorFlow 1.x (convert_tf2npu, npu_bridge)"),
    "tf2": QT_TRANSLATE_NOOP("Migration", "TensorFlow 2.x (convert_tf2npu, npu_device)"),
    "pytorch": QT_TRANSLATE_NOOP("Migration", "PyTorch (msFmkTransplt)"),
}
# core migration.job / run's refusals (JobError, FileExistsError), as templates
CHECK_TEMPLATES = (
    QT_TRANSLATE_NOOP("MigrationCheck", "--input: the folder of the GPU project to migrate is missing"),
    QT_TRANSLATE_NOOP("MigrationCheck", "--out: the output folder is missing"),
    QT_TRANSLATE_NOOP("MigrationCheck", "--out {0}: must not be inside the input folder {1} (the tool refuses it)"),
    QT_TRANSLATE_NOOP("MigrationCheck", "--main {0}: expected a Python file (.py)"),
    QT_TRANSLATE_NOOP("MigrationCheck", "--main {0}: expected a file inside the input folder {1}"),
    QT_TRANSLATE_NOOP("MigrationCheck", "--main {0}: no such file in {1}"),
    QT_TRANSLATE_NOOP("MigrationCheck", "--pytorch-version {0}: expected one of {1}"),
    QT_TRANSLATE_NOOP("MigrationCheck", "--distributed: needs --main, the entry script of the training"),
    QT_TRANSLATE_NOOP("MigrationCheck", "--input {0}: expected the folder of a GPU project (it is not a folder)"),
    QT_TRANSLATE_NOOP("MigrationCheck", "--input {0}: no Python (.py) file in this folder: nothing to migrate"),
    QT_TRANSLATE_NOOP("MigrationCheck", "{0}: already holds files; choose another --out or pass --force"),
)

# core migration.run's status lines (progress.status)
STATUS_TEMPLATES = (
    QT_TRANSLATE_NOOP("MigrationStatus", "Uploading {0} to {1} on {2}"),
    QT_TRANSLATE_NOOP("MigrationStatus", "Running {0} on {1}"),
    QT_TRANSLATE_NOOP("MigrationStatus", "Downloading the migrated project and the reports from {0}"),
    QT_TRANSLATE_NOOP("MigrationStatus", "Migration finished"),
    QT_TRANSLATE_NOOP("MigrationStatus", "Migration failed"),
)


def category_label(category: str) -> str:
    return QCoreApplication.translate("Migration", str(CATEGORY_LABELS.get(category, category)))


def framework_label(framework: str) -> str:
    return QCoreApplication.translate("Migration", str(FRAMEWORK_LABELS[framework]))


def tr_check(line: str) -> str:
    from workbench.ui.labels import tr_template

    return tr_template("MigrationCheck", line, [str(t) for t in CHECK_TEMPLATES])


def tr_status(line: str) -> str:
    from workbench.ui.labels import tr_template

    return tr_template("MigrationStatus", line, [str(t) for t in STATUS_TEMPLATES])
