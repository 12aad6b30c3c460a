"""The advisor rules' texts marked for translation (context "Advisor"): one module per core rules module
(``core/advisor/rules/<name>.py`` -> ``texts/<name>.py``, a tuple ``STRINGS`` of QT_TRANSLATE_NOOP
marks of its titles, advice and fact labels). tests/ui/test_advisor_texts.py keeps them equal to core."""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication

from workbench.ui.advisor.texts import cluster, communication, compute, schedule

CONTEXT = "Advisor"
MIRRORS = {
    "compute": compute.STRINGS,
    "schedule": schedule.STRINGS,
    "communication": communication.STRINGS,
    "cluster": cluster.STRINGS,
}


def tr_advisor(template: str) -> str:
    """One of the rules' English templates in the UI's language (unchanged when it has no translation)."""
    return QCoreApplication.translate(CONTEXT, template)
