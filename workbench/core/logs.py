"""The workbench's log file: where it lives and the one handler that writes it (Qt-free).

Every module logs through ``logging.getLogger(__name__)``; everything under the ``workbench``
logger goes to a rotating file in ``state_dir()/logs`` once :func:`setup_logging` has run: the
GUI calls it at start (``kind="gui"`` -> ``gui.log``), the CLI only when it has something to
write there (an internal error: ``kind="cli"`` -> ``cli.log``). GUI and CLI get separate files
because a rotating file is not safe to share between processes. Help ▸ Open Log Folder opens
:func:`log_dir`. Importing this module costs only the stdlib ``logging`` (``logging.handlers``
is imported when the handler is made).
"""

from __future__ import annotations

import logging
import os
import threading
from pathlib import Path

from workbench.core import paths

LOGGER_NAME = "workbench"
MAX_BYTES = 1024 * 1024  # rotate at 1 MB ...
BACKUP_COUNT = 5  # ... keeping gui.log.1 … gui.log.5
FORMAT = "%(asctime)s %(levelname)-8s %(name)s [%(threadName)s] %(message)s"

_lock = threading.Lock()
_handler: logging.Handler | None = None  # the file handler setup_logging installed, if any


def log_dir() -> Path:
    """The folder holding the log files (``ASCEND_WORKBENCH_HOME/state/logs`` in tests)."""
    return paths.state_dir() / "logs"


def log_file() -> Path | None:
    """The file the ``workbench`` logger currently writes to, or None before/without setup."""
    handler = _handler
    return Path(handler.baseFilename) if isinstance(handler, logging.FileHandler) else None


def setup_logging(kind: str = "gui", level: int = logging.INFO) -> Path | None:
    """Send the ``workbench`` logger to ``log_dir()/<kind>.log`` (1 MB x 5, UTF-8); returns that path.

    Idempotent: a second call for the same file changes nothing. A call that resolves to another
    file (another ``kind``, or ``ASCEND_WORKBENCH_HOME`` changed, as it does between tests) moves
    the one handler there. Never raises: when the folder or the file cannot be made, the logger
    keeps no file handler and None is returned.
    """
    global _handler
    logger = logging.getLogger(LOGGER_NAME)
    with _lock:
        try:
            target = Path(os.path.abspath(log_dir() / f"{kind}.log"))
            if _handler is not None and log_file() == target:
                return target
            from logging.handlers import RotatingFileHandler

            target.parent.mkdir(parents=True, exist_ok=True)
            handler: logging.Handler | None = RotatingFileHandler(
                target, maxBytes=MAX_BYTES, backupCount=BACKUP_COUNT, encoding="utf-8"
            )
        except Exception:  # noqa: BLE001 - a log file must never stop the app (read-only home, ...)
            handler = None
        _remove_handler(logger)
        if handler is None:
            return None
        handler.setFormatter(logging.Formatter(FORMAT))
        _handler = handler
        logger.addHandler(handler)
        if logger.level == logging.NOTSET or logger.level > level:
            logger.setLevel(level)
        return target


def stop_logging() -> None:
    """Close the log file and detach its handler (tests; a clean shutdown)."""
    with _lock:
        _remove_handler(logging.getLogger(LOGGER_NAME))


def _remove_handler(logger: logging.Logger) -> None:
    global _handler
    if _handler is not None:
        logger.removeHandler(_handler)
        _handler.close()
        _handler = None
