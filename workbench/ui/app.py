"""Start the GUI: QApplication, language, theme, main window, first-start demo, screenshots."""

from __future__ import annotations

import argparse
import logging
import os
import sys
import time
from pathlib import Path

from workbench import __version__, wiring

log = logging.getLogger(__name__)
qt_log = logging.getLogger("workbench.qt")  # Qt's own messages (qWarning & co.), see install_logging


def _prepare_environment(args: argparse.Namespace) -> bool:
    """Pick the Qt platform; False when a window is wanted but there is no screen to show it on."""
    headless = not os.environ.get("DISPLAY") and not os.environ.get("WAYLAND_DISPLAY")
    if not sys.platform.startswith("linux") or "QT_QPA_PLATFORM" in os.environ:
        return True
    if args.screenshot:
        os.environ["QT_QPA_PLATFORM"] = "offscreen"  # screenshots need no screen
        return True
    if headless:
        print(
            "ascend-workbench: no display found (DISPLAY is not set), so the window cannot open. "
            "Start it from a desktop session, under Xvfb (xvfb-run -a ascend-workbench), or render it "
            "with --screenshot out.png.",
            file=sys.stderr,
        )
        return False
    return True


def create_app(language: str | None = None, argv: list[str] | None = None):
    """Create (or reuse) the QApplication with theme and translators; returns (app, settings, problems)."""
    install_logging()  # first: Qt's messages from creating the QApplication go to the log too
    wiring.install()  # the simulated toolkit: the demo host, `sim`
    from PySide6.QtWidgets import QApplication

    from workbench.core import settings as core_settings
    from workbench.ui import i18n
    from workbench.ui.theme import apply_theme

    settings, problems = core_settings.load()
    app = QApplication.instance() or QApplication(argv or [sys.argv[0]])
    app.setApplicationName("Ascend Workbench")
    app.setOrganizationName("ascend-workbench")
    app.setApplicationVersion(__version__)
    apply_theme(settings.theme)
    lang = i18n.effective_language(language or settings.language)
    app._wb_translators = i18n.install_translators(app, lang)  # keep alive
    app._wb_language = lang
    return app, settings, problems


def install_logging() -> Path | None:
    """GUI start: the log file (state folder, ``gui.log``), Qt's messages forwarded into it
    (``workbench.qt`` logger) and uncaught exceptions, e.g. in slots, logged too. Safe to call
    again (each test does); returns the log file, or None when it cannot be written."""
    from PySide6.QtCore import qInstallMessageHandler

    from workbench.core.logs import setup_logging

    path = setup_logging("gui")
    global _previous_qt_handler
    previous = qInstallMessageHandler(_qt_message_handler)
    if previous is not _qt_message_handler:  # not already ours: chain to it (e.g. pytest-qt's)
        _previous_qt_handler = previous
    if not getattr(sys.excepthook, "_workbench_logs", False):
        sys.excepthook = _logging_excepthook(sys.excepthook)
    from PySide6 import __version__ as pyside_version

    log.info(
        "Ascend Workbench %s starting: PySide6 %s, Python %s, %s",
        __version__,
        pyside_version,
        sys.version.split()[0],
        sys.platform,
    )
    return path


_previous_qt_handler = None  # the message handler ours replaced; None: Qt's default (stderr)


def _qt_message_handler(msg_type, context, message: str) -> None:
    """Forward a Qt message to the ``workbench.qt`` logger, then to the handler that was there
    before (or to stderr, as Qt's default handler would)."""
    from PySide6.QtCore import QtMsgType

    level = {
        QtMsgType.QtDebugMsg: logging.DEBUG,
        QtMsgType.QtInfoMsg: logging.INFO,
        QtMsgType.QtWarningMsg: logging.WARNING,
        QtMsgType.QtCriticalMsg: logging.ERROR,
        QtMsgType.QtFatalMsg: logging.CRITICAL,
    }.get(msg_type, logging.WARNING)
    category = context.category if context is not None else None
    text = f"{category}: {message}" if category and category != "default" else message
    if qt_log.isEnabledFor(level):
        where = f" ({context.file}:{context.line})" if context is not None and context.file else ""
        qt_log.log(level, "%s%s", text, where)
    previous = _previous_qt_handler
    if previous is not None:
        previous(msg_type, context, message)
    elif sys.stderr is not None:  # a windowed (frozen) app may have no stderr
        sys.stderr.write(text + "\n")


def _logging_excepthook(previous):
    """An excepthook that logs an uncaught exception (PySide calls it for one raised in a slot)
    and then hands it to ``previous`` (by default: the traceback printed on stderr)."""

    def hook(exc_type, exc, tb):
        if not issubclass(exc_type, KeyboardInterrupt):
            log.critical("uncaught exception", exc_info=(exc_type, exc, tb))
        previous(exc_type, exc, tb)

    hook._workbench_logs = True
    return hook


def build_window(
    settings,
    problems: list[str],
    open_paths: list[str],
    *,
    restore: bool = True,
    demo: bool = True,
    view: str | None = None,
    screenshot: bool = False,
    after_first_paint: bool = False,
):
    """Create the main window, restore its layout, report start-up problems and open things.

    ``after_first_paint`` (the interactive start, :func:`run_gui`): the window is shown first; after
    its first paint the docks it did not show are filled (``MainWindow.build_deferred``, when the
    last session saved their sizes), the heavy modules (:data:`WARM_UP_BACKGROUND`,
    :data:`WARM_UP_GUI`) imported and the paths / the last project / the demo opened; otherwise
    (tests, screenshots) all that happens now, before the window shows."""
    # Everything imported so far lives as long as the app: keep it out of the collector's full
    # passes (a gen-2 pass over it otherwise costs tens of ms on the GUI thread at random times).
    import gc

    from PySide6.QtCore import QCoreApplication

    from workbench.ui.main_window import MainWindow

    gc.freeze()
    window = MainWindow(settings)
    window._screenshot_mode = screenshot
    if not after_first_paint:
        window.build_deferred()  # tests and screenshots get the whole window at once
    if restore:
        problem = window.restore_state()
        if problem:
            problems = [*problems, problem]
    if after_first_paint and not window.hidden_docks_can_wait():
        window.build_deferred()  # a first start: the panels' sizes are not known before they are built
    if problems:
        window.output.add_text_tab(QCoreApplication.translate("App", "Start-up problems"), "\n".join(problems))
        window.statusBar().showMessage(problems[0])

    def open_at_start() -> None:
        if open_paths:
            for path in open_paths:
                window.open_path(path, view=view)
        elif settings.last_project and Path(settings.last_project).is_dir():
            window.open_project(settings.last_project, ask=False)
        elif demo and settings.open_demo_when_unconfigured and not settings.recent_projects:
            open_demo(window)

    def after_paint() -> None:
        window.build_deferred()  # the docks the first paint did not show (nothing left if built already)
        warm_up(window, then=open_at_start)

    if after_first_paint:
        _after_first_paint(window, after_paint)
    else:
        open_at_start()
    return window


# Imported after the first paint, before anything opens, so that the first report load or comparison
# does not stall the GUI thread importing them (pyqtgraph alone takes ~0.3 s, pandas ~0.3 s).
# Pure-Python (no Qt objects at import): on a background thread, the window stays responsive.
WARM_UP_BACKGROUND = (
    "numpy",
    "pandas",
    "workbench.core.profiling.build",
    "workbench.core.profiling.views",
    "workbench.core.compare.engine",
    "workbench.core.services.ssh",  # paramiko, for the first connection
)
# Qt widgets and pyqtgraph (which sets Qt up as it imports): on the GUI thread, in one piece.
WARM_UP_GUI = (
    "pyqtgraph",
    "workbench.ui.report.document",
    "workbench.ui.report.timeline",
    "workbench.ui.compare.dialog",
)


def warm_up(window, then) -> None:
    """Import :data:`WARM_UP_BACKGROUND` on a thread, then :data:`WARM_UP_GUI` on the GUI thread,
    then call ``then()`` there. A module that fails to import is logged; ``then`` runs anyway."""
    import threading

    from PySide6.QtCore import QObject, Qt, Signal

    class _WarmUp(QObject):
        background_done = Signal()

    def gui_part() -> None:
        import gc

        _import_all(WARM_UP_GUI)
        gc.freeze()  # these modules live as long as the app, too (see build_window)
        helper.deleteLater()
        then()

    helper = _WarmUp(window)  # lives in the GUI thread: its signal, emitted by the thread, is queued there
    helper.background_done.connect(gui_part, Qt.ConnectionType.QueuedConnection)

    def background() -> None:
        _import_all(WARM_UP_BACKGROUND)
        try:
            helper.background_done.emit()
        except RuntimeError:  # the window was closed (and deleted) meanwhile: nothing left to open
            log.debug("start-up warm-up finished after the window closed")

    threading.Thread(target=background, name="warm-up", daemon=True).start()


def _import_all(names) -> None:
    import importlib

    for name in names:
        try:
            importlib.import_module(name)
        except Exception:  # noqa: BLE001 - the app must start; the view that needs it fails visibly when opened
            log.warning("start-up warm-up: %s not imported", name, exc_info=True)


def _after_first_paint(window, callback) -> None:
    """Call ``callback`` once, on the event-loop turn after the window's first paint (or, should the
    window not get painted at all, e.g. started minimised, a few seconds after this call)."""
    from PySide6.QtCore import QEvent, QObject, QTimer

    fired = False

    def fire() -> None:
        nonlocal fired
        if not fired:
            fired = True
            window.removeEventFilter(watcher)
            callback()

    class _FirstPaint(QObject):
        def eventFilter(self, obj, event):  # noqa: N802 - Qt's name
            if event.type() == QEvent.Type.Paint and not fired:
                QTimer.singleShot(0, self, fire)  # after this paint reached the screen
            return False

    watcher = _FirstPaint(window)
    window.installEventFilter(watcher)
    QTimer.singleShot(FIRST_PAINT_FALLBACK_MS, watcher, fire)  # no timer outlives the window


FIRST_PAINT_FALLBACK_MS = 3000


def open_demo(window) -> None:
    from PySide6.QtCore import QCoreApplication

    from workbench.core import demo

    try:
        project, reports = demo.ensure_demo_project()
    except Exception as exc:  # noqa: BLE001 - the app must start even if the demo cannot be made
        log.warning("demo project not created", exc_info=True)
        window.output.add_text_tab(
            QCoreApplication.translate("App", "Start-up problems"),
            QCoreApplication.translate("App", "Demo project not created: {0}").format(exc),
        )
        return
    window.set_project(project)
    first = demo.first_report(reports)
    if first is not None:
        window.open_path(first)


def wait_for_jobs(app, window, timeout: float = 60.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        app.processEvents()
        if not window.bridge.running():
            break
        time.sleep(0.01)
    for _ in range(5):
        app.processEvents()
        time.sleep(0.02)


def take_screenshot(args: argparse.Namespace) -> int:
    from PySide6.QtCore import QSize

    app, settings, problems = create_app(args.lang)
    window = build_window(
        settings, problems, args.open, restore=False, demo=not args.no_demo, view=args.view, screenshot=True
    )
    try:
        w, h = (int(v) for v in args.size.lower().split("x"))
    except ValueError:
        print(f"ascend-workbench: --size must look like 1400x900, got {args.size!r}", file=sys.stderr)
        return 2
    window.resize(QSize(w, h))
    window.show()
    wait_for_jobs(app, window)
    pixmap = window.grab()
    out = Path(args.screenshot)
    out.parent.mkdir(parents=True, exist_ok=True)
    ok = pixmap.save(str(out))
    window._quitting = True
    window.close()
    if not ok:
        print(f"ascend-workbench: cannot write the screenshot to {out}", file=sys.stderr)
        return 1
    print(str(out))
    return 0


def run_gui(args: argparse.Namespace) -> int:
    if not _prepare_environment(args):
        return 2
    if args.screenshot:
        return take_screenshot(args)
    import gc

    # Until the window is painted, what is made lives as long as the app (modules, the window): no
    # collector passes over it (~60 of them, ~10 ms), frozen at the paint as build_window freezes it.
    gc.disable()
    app, settings, problems = create_app(args.lang)
    window = build_window(settings, problems, args.open, demo=not args.no_demo, view=args.view, after_first_paint=True)
    _after_first_paint(window, lambda: (gc.freeze(), gc.enable()))
    if os.environ.get(STARTUP_PROBE):
        _quit_after_first_paint(app, window)
    window.show()
    return app.exec()


STARTUP_PROBE = "WORKBENCH_STARTUP_PROBE"  # benchmarks/bench_startup.py: print "painted" and quit at the first paint


def _quit_after_first_paint(app, window) -> None:
    from PySide6.QtCore import QEvent, QObject

    class _Probe(QObject):
        def eventFilter(self, obj, event):  # noqa: N802 - Qt's name
            if event.type() == QEvent.Type.Paint:
                print("painted", flush=True)
                os._exit(0)  # a measurement only: no close dialogs, no waiting for jobs started at start-up
            return False

    window._startup_probe = _Probe(window)
    window.installEventFilter(window._startup_probe)
