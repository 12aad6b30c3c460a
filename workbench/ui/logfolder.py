"""Help ▸ Open Log Folder: the folder of the rotating log files (``workbench.core.logs.log_dir()``)."""

from __future__ import annotations

import logging

from PySide6.QtCore import QCoreApplication, QUrl
from PySide6.QtGui import QDesktopServices

from workbench.core.logs import log_dir

log = logging.getLogger(__name__)


def open_log_folder(window=None) -> bool:
    """Help ▸ Open Log Folder: make the log folder if needed and show it in the file manager.
    False (and a message in the window's status bar) when that fails."""
    folder = log_dir()
    try:
        folder.mkdir(parents=True, exist_ok=True)
        ok = QDesktopServices.openUrl(QUrl.fromLocalFile(str(folder)))
        problem = (
            None
            if ok
            else QCoreApplication.translate("App", "No application could open the log folder {0}").format(folder)
        )
    except OSError as exc:
        problem = QCoreApplication.translate("App", "Cannot create the log folder {0}: {1}").format(
            folder, exc.strerror or exc
        )
    if problem is None:
        return True
    log.warning("%s", problem)
    if window is not None:
        window.statusBar().showMessage(problem)
    return False
