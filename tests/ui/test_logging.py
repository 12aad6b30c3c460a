"""GUI logging: Qt's messages and uncaught slot exceptions reach the log file, pytest-qt still
sees Qt's warnings through our handler, and Help ▸ Open Log Folder opens the log folder."""

from __future__ import annotations

import logging
import shutil
import sys

import pytest
from PySide6.QtCore import QFile, QIODevice, QObject, QUrl, Signal, Slot, qWarning
from PySide6.QtGui import QAction, QDesktopServices

from workbench.core import logs


def _log_text() -> str:
    for handler in logging.getLogger("workbench").handlers:
        handler.flush()
    path = logs.log_file()
    assert path is not None, "create_app() set up no log file"
    return path.read_text(encoding="utf-8")


def _help_action(window, object_name: str) -> QAction:
    """The action as the user reaches it: through the menu bar's Help menu."""
    [help_menu] = [a.menu() for a in window.menuBar().actions() if a.text() == "&Help"]
    [action] = [a for a in help_menu.actions() if a.objectName() == object_name]
    return action


class _UrlCatcher(QObject):
    def __init__(self) -> None:
        super().__init__()
        self.urls: list[QUrl] = []

    @Slot(QUrl)
    def open(self, url: QUrl) -> None:
        self.urls.append(url)


@pytest.fixture
def opened_urls():
    catcher = _UrlCatcher()
    QDesktopServices.setUrlHandler("file", catcher, "open")
    yield catcher.urls
    QDesktopServices.unsetUrlHandler("file")


def test_gui_start_logs_to_the_state_folder(window, isolated_home):
    assert logs.log_file() == isolated_home / "state" / "logs" / "gui.log"
    assert "Ascend Workbench" in _log_text() and "starting" in _log_text()


@pytest.mark.qt_log_ignore("wb-test: ", "QFSFileEngine::open: No file name specified")
def test_qt_warnings_go_to_the_log_and_still_reach_pytest_qt(window, qtlog):
    qWarning("wb-test: a warning through qWarning")
    assert not QFile("").open(QIODevice.OpenModeFlag.ReadOnly)  # a real warning from Qt's C++ side
    text = _log_text()
    assert "WARNING  workbench.qt [MainThread] wb-test: a warning through qWarning" in text
    assert "workbench.qt [MainThread] QFSFileEngine::open: No file name specified" in text
    # our handler chains to the one installed before it: pytest-qt still fails tests on warnings
    seen = [rec.message for rec in qtlog.records]
    assert "wb-test: a warning through qWarning" in seen
    assert "QFSFileEngine::open: No file name specified" in seen


class _Emitter(QObject):
    fired = Signal()


@pytest.mark.qt_no_exception_capture
def test_an_exception_in_a_slot_is_logged_and_still_printed(qtbot, monkeypatch, capsys):
    from workbench.ui.app import create_app

    monkeypatch.setattr(sys, "excepthook", sys.excepthook)  # put the test run's hook back afterwards
    create_app("en")
    emitter = _Emitter()

    def broken_slot():
        raise RuntimeError("wb-test: slot bug")

    emitter.fired.connect(broken_slot)
    emitter.fired.emit()
    text = _log_text()
    assert "CRITICAL workbench.ui.app" in text and "uncaught exception" in text
    assert "RuntimeError: wb-test: slot bug" in text and "broken_slot" in text
    assert "RuntimeError: wb-test: slot bug" in capsys.readouterr().err  # shown as before


def test_help_open_log_folder_opens_the_log_folder(window, opened_urls):
    folder = logs.log_dir()
    logs.stop_logging()
    shutil.rmtree(folder)
    _help_action(window, "OpenLogFolderAction").trigger()
    assert folder.is_dir()  # made when missing
    assert [u.toLocalFile() for u in opened_urls] == [str(folder)]
    assert opened_urls[0] == QUrl.fromLocalFile(str(folder))


def test_open_log_folder_that_cannot_be_made_says_so(window, opened_urls, tmp_path, monkeypatch):
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder\n")
    monkeypatch.setenv("ASCEND_WORKBENCH_HOME", str(blocker / "home"))
    _help_action(window, "OpenLogFolderAction").trigger()
    assert opened_urls == []
    message = window.statusBar().currentMessage()
    assert "Cannot create the log folder" in message and str(blocker / "home" / "state" / "logs") in message
