"""Opening reports from the main window: delegates to the report document (workbench.ui.report)."""
from __future__ import annotations

from pathlib import Path


def open_report(window, path: Path, view: str | None = None) -> None:
    from workbench.ui.report.document import open_report as open_document

    open_document(window, path, view)
