"""Translatable column names and statuses of the comparison tables (core returns English)."""

from __future__ import annotations

from PySide6.QtCore import QT_TRANSLATE_NOOP, QCoreApplication

from workbench.core.compare.model import LABELS

COLUMN_LABELS = (
    QT_TRANSLATE_NOOP("Compare", "Key"),
    QT_TRANSLATE_NOOP("Compare", "Task Type"),
    QT_TRANSLATE_NOOP("Compare", "Status"),
    QT_TRANSLATE_NOOP("Compare", "Metric"),
    QT_TRANSLATE_NOOP("Compare", "Unit"),
    QT_TRANSLATE_NOOP("Compare", "Base Count"),
    QT_TRANSLATE_NOOP("Compare", "Current Count"),
    QT_TRANSLATE_NOOP("Compare", "Base Total(us)"),
    QT_TRANSLATE_NOOP("Compare", "Current Total(us)"),
    QT_TRANSLATE_NOOP("Compare", "Diff(us)"),
    QT_TRANSLATE_NOOP("Compare", "Diff(%)"),
    QT_TRANSLATE_NOOP("Compare", "Base Avg(us)"),
    QT_TRANSLATE_NOOP("Compare", "Current Avg(us)"),
    QT_TRANSLATE_NOOP("Compare", "Avg Diff(us)"),
    QT_TRANSLATE_NOOP("Compare", "Avg Diff(%)"),
    QT_TRANSLATE_NOOP("Compare", "Base Per Step(us)"),
    QT_TRANSLATE_NOOP("Compare", "Current Per Step(us)"),
    QT_TRANSLATE_NOOP("Compare", "Per Step Diff(%)"),
    QT_TRANSLATE_NOOP("Compare", "Base Min(us)"),
    QT_TRANSLATE_NOOP("Compare", "Current Min(us)"),
    QT_TRANSLATE_NOOP("Compare", "Base Max(us)"),
    QT_TRANSLATE_NOOP("Compare", "Current Max(us)"),
    QT_TRANSLATE_NOOP("Compare", "Base First Start(ns)"),
    QT_TRANSLATE_NOOP("Compare", "Current First Start(ns)"),
    QT_TRANSLATE_NOOP("Compare", "Base"),
    QT_TRANSLATE_NOOP("Compare", "Current"),
    QT_TRANSLATE_NOOP("Compare", "Diff"),
    QT_TRANSLATE_NOOP("Compare", "#"),
    QT_TRANSLATE_NOOP("Compare", "Base Name"),
    QT_TRANSLATE_NOOP("Compare", "Current Name"),
    QT_TRANSLATE_NOOP("Compare", "Base Start(ns)"),
    QT_TRANSLATE_NOOP("Compare", "Current Start(ns)"),
    QT_TRANSLATE_NOOP("Compare", "Base Duration(us)"),
    QT_TRANSLATE_NOOP("Compare", "Current Duration(us)"),
    QT_TRANSLATE_NOOP("Compare", "Component"),
    QT_TRANSLATE_NOOP("Compare", "Diff Ratio"),
    QT_TRANSLATE_NOOP("Compare", "Base Peak Time(ns)"),
    QT_TRANSLATE_NOOP("Compare", "Current Peak Time(ns)"),
    QT_TRANSLATE_NOOP("Compare", "Operator Name"),
    QT_TRANSLATE_NOOP("Compare", "Base Size(KB)"),
    QT_TRANSLATE_NOOP("Compare", "Current Size(KB)"),
    QT_TRANSLATE_NOOP("Compare", "Diff Size(KB)"),
    QT_TRANSLATE_NOOP("Compare", "Base Avg Size(KB)"),
    QT_TRANSLATE_NOOP("Compare", "Current Avg Size(KB)"),
    QT_TRANSLATE_NOOP("Compare", "Base Per Step(KB)"),
    QT_TRANSLATE_NOOP("Compare", "Current Per Step(KB)"),
    QT_TRANSLATE_NOOP("Compare", "Diff Duration(us)"),
    QT_TRANSLATE_NOOP("Compare", "Communication OP Name"),
    QT_TRANSLATE_NOOP("Compare", "Base Calls"),
    QT_TRANSLATE_NOOP("Compare", "Current Calls"),
)
STATUS_LABELS = (
    QT_TRANSLATE_NOOP("Compare", "slower"),
    QT_TRANSLATE_NOOP("Compare", "added"),
    QT_TRANSLATE_NOOP("Compare", "same"),
    QT_TRANSLATE_NOOP("Compare", "removed"),
    QT_TRANSLATE_NOOP("Compare", "faster"),
    QT_TRANSLATE_NOOP("Compare", "higher"),
    QT_TRANSLATE_NOOP("Compare", "lower"),
)


def header(column: str) -> str:
    return QCoreApplication.translate("Compare", LABELS.get(column, column))


def status(name: str) -> str:
    return QCoreApplication.translate("Compare", name)
