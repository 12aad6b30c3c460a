"""Report document (temporary minimal form until the profiling views land)."""
from __future__ import annotations

from pathlib import Path


def open_report(window, path: Path) -> None:
    from workbench.ui.documents.text_view import TextView

    if path.is_file():
        window.add_document(TextView(path, window), path.name, str(path))
