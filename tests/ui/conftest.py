"""Qt tests run offscreen (set before any Qt import) with a fresh settings dir per test."""

from __future__ import annotations

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import pytest  # noqa: E402
from uikit import User  # noqa: E402 - tests/ui is on sys.path (pytest's rootdir-relative conftest import)


@pytest.fixture(autouse=True)
def close_log_file():
    """create_app() points the log file at this test's home (core.logs): close it afterwards, so
    no test writes into another's log."""
    yield
    from workbench.core.logs import stop_logging

    stop_logging()


def _main_window(lang: str):
    """A main window in ``lang`` with default settings and no demo; closed after the test (its
    threads joined), and the translators back to English."""
    from workbench.ui import i18n
    from workbench.ui.app import build_window, create_app

    app, settings, problems = create_app(lang)
    win = build_window(settings, problems, [], restore=True, demo=False)
    # Not qtbot.addWidget: pytest-qt would close it before this fixture can mark it quitting,
    # and closing with a job still running asks a (modal) question.
    win.resize(1200, 800)
    win.show()
    yield win
    win._quitting = True
    win.close()
    win.deleteLater()
    if lang != "en":
        for tr in getattr(app, "_wb_translators", []):
            app.removeTranslator(tr)
        app._wb_translators = i18n.install_translators(app, "en")


@pytest.fixture
def window(qtbot):
    """A main window with default settings, no demo, closed (and its threads joined) after the test."""
    yield from _main_window("en")


@pytest.fixture
def zh_window(qtbot):
    """A main window in zh_CN, like ``window``; the translators go back to English afterwards."""
    yield from _main_window("zh_CN")


@pytest.fixture
def user(qtbot) -> User:
    return User(qtbot)
