"""The main window: docks like MindStudio's, a tabbed document area and the menus.

Docks: Project Explorer (left), Properties/Details (right), Output and Tasks (bottom). Menus
follow MindStudio's layout; an entry whose feature is not built yet is present but disabled with
a tooltip saying so. Window geometry and dock layout are saved in the state file (not settings)
and restored on the next start; a damaged state file falls back to the default layout.

Reports open from File ▸ Open Report… (files and report folders), File ▸ Open Report Folder… (any
folder), a drop, ``--open`` and Recent Reports. A folder that is not itself one report is searched
(a task: bounded depth, cancellable); one report found opens, several go to the report picker.
"""

from __future__ import annotations

import datetime as _dt
import logging
import struct
import threading
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

from PySide6.QtCore import QByteArray, QEvent, QFileSystemWatcher, QRect, QSize, Qt, QTimer, Signal
from PySide6.QtGui import QAction, QActionGroup, QCloseEvent, QKeySequence
from PySide6.QtWidgets import (
    QAbstractButton,
    QDialog,
    QDockWidget,
    QFileDialog,
    QLabel,
    QLineEdit,
    QMainWindow,
    QMenu,
    QMessageBox,
    QStyle,
    QTabBar,
    QTabWidget,
    QWidget,
)

from workbench.core import artefacts, uistate
from workbench.core import project as core_project
from workbench.core import settings as core_settings
from workbench.ui import icons
from workbench.ui.bridge import QtTask, TaskBridge
from workbench.ui.context import AppContext, AppEvents
from workbench.ui.labels import artefact_label
from workbench.ui.panels.details.panel import DetailsPanel
from workbench.ui.panels.output.panel import OutputPanel
from workbench.ui.panels.project_explorer.panel import ProjectExplorerPanel
from workbench.ui.panels.tasks.panel import TasksPanel

if TYPE_CHECKING:
    from workbench.core.services.ssh import ConnectionPool
    from workbench.ui.hosts.host_panel import HostPanel
    from workbench.ui.hosts.prompter import QtPrompter

log = logging.getLogger(__name__)

HOST_PANEL_MIN = "host_panel_min"  # window-state blob: the CANN Machine panel's minimum size, b"W,H"


class _LazyConnectionPool:
    """Stands in for ``services.ssh.ConnectionPool``, which it makes at its first use (from any thread)
    and forwards everything to: services.ssh imports paramiko (~0.15 s), which the window's first paint
    must not wait for (the start-up warm-up imports it in the background)."""

    def __init__(self, prompter: QtPrompter) -> None:
        self._prompter = prompter
        self._pool: ConnectionPool | None = None
        self._lock = threading.Lock()

    def _made(self) -> ConnectionPool:
        with self._lock:
            if self._pool is None:
                from workbench.core.services.ssh import ConnectionPool

                self._pool = ConnectionPool(self._prompter)
            return self._pool

    def __getattr__(self, name: str) -> Any:  # only for names this class does not have itself
        return getattr(self._made(), name)

    def close_all(self) -> None:
        if self._pool is not None:  # never used: nothing to close, nothing to import
            self._pool.close_all()


class MainWindow(QMainWindow):
    project_changed = Signal(object)  # Project | None

    def __init__(self, settings: core_settings.Settings, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.settings = settings
        self.project: core_project.Project | None = None
        # Until a saved layout is restored or the user moves a dock or drags a separator, the docks
        # follow the window's size (it first shows at its own size, then gets the screen's).
        self._default_dock_layout = True
        self.setObjectName("MainWindow")
        self.setWindowIcon(icons.icon("app"))
        self.bridge = TaskBridge(parent=self)
        self.bridge.task_started.connect(self._follow_task)
        from workbench.ui.hosts.prompter import QtPrompter

        self.prompter = QtPrompter(self)
        self.pool = cast("ConnectionPool", _LazyConnectionPool(self.prompter))
        self._quitting = False
        self._screenshot_mode = False
        self.app_events = AppEvents(self)
        self.project_changed.connect(self.app_events.project_changed)
        self.context = self._build_context()

        self.documents = QTabWidget(self)
        self.documents.setObjectName("Documents")
        self.documents.setTabsClosable(True)
        self.documents.setMovable(True)
        self.documents.setDocumentMode(True)
        self.documents.tabCloseRequested.connect(self.close_document)
        self.welcome = QLabel(self)
        self.welcome.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.welcome.setWordWrap(True)
        self.welcome.setText(
            self.tr(
                "<h2>Ascend Workbench</h2><p>Open a project (File ▸ Open Project) or a profiling report "
                "(File ▸ Open Report…), or drop a report folder here.</p>"
            )
        )
        self.documents.addTab(self.welcome, self.tr("Welcome"))
        self.setCentralWidget(self.documents)
        self.setAcceptDrops(True)

        self.explorer = ProjectExplorerPanel(self)
        self.details = DetailsPanel(self)
        self.documents.currentChanged.connect(self._document_changed)  # the dock follows the current tab
        self.output = OutputPanel(self)
        self.tasks = TasksPanel(self)
        # in the explorer a plain folder expands on activation: it is not searched for reports
        self.explorer.open_requested.connect(lambda path: self.open_path(path, search_folders=False))
        self.explorer.action_requested.connect(self.run_action)
        self.explorer.selection_changed.connect(self._show_file_details)
        self.docks: dict[str, QDockWidget] = {}
        self._add_dock(
            "ProjectExplorerDock", self.tr("Project Explorer"), self.explorer, Qt.DockWidgetArea.LeftDockWidgetArea
        )
        self._add_dock("DetailsDock", self.tr("Properties"), self.details, Qt.DockWidgetArea.RightDockWidgetArea)
        self._add_dock("OutputDock", self.tr("Output"), self.output, Qt.DockWidgetArea.BottomDockWidgetArea)
        self._add_dock("TasksDock", self.tr("Tasks"), self.tasks, Qt.DockWidgetArea.BottomDockWidgetArea)
        # The CANN Machine dock, behind Properties, may get its panel after the first paint (host_panel,
        # build_deferred): the panel imports the host services, run configurations and the toolkit check.
        self._host_panel: HostPanel | None = None
        self._host_panel_min: QSize | None = None  # the panel's minimum size, saved by the last session
        self._probing_tab_bars = False  # see _hide_stale_tab_bars
        self._add_dock("HostDock", self.tr("CANN Machine"), QWidget(self), Qt.DockWidgetArea.RightDockWidgetArea)
        self.docks["HostDock"].visibilityChanged.connect(self._host_dock_visibility)
        self.tabifyDockWidget(self.docks["DetailsDock"], self.docks["HostDock"])
        self.docks["DetailsDock"].raise_()
        self.tabifyDockWidget(self.docks["OutputDock"], self.docks["TasksDock"])
        self.docks["OutputDock"].raise_()
        for dock in self.docks.values():
            dock.setMinimumWidth(self._dock_title_width(dock))  # the title is never clipped
            dock.dockLocationChanged.connect(self._dock_layout_touched)
            dock.topLevelChanged.connect(self._dock_layout_touched)
        self._size_docks_by_default()
        self._default_state = self.saveState()

        self._build_menus()
        self._update_title()
        self.statusBar().showMessage(self.tr("Ready"))
        self._project_watch = QFileSystemWatcher(self)
        self._project_watch.fileChanged.connect(self._project_file_changed)

    # --- what the first paint does not show -------------------------------------------------------------
    def build_deferred(self) -> None:
        """Build the parts of the window its first paint does not show: the CANN Machine dock's panel
        (behind Properties; it imports the host services, run configurations and the toolkit check,
        ~25 ms). The interactive start calls this on the event-loop turn after the first paint when
        :meth:`hidden_docks_can_wait`, every other start before showing the window; a dock shown
        earlier (a saved layout with it in front or floating, a click on its tab) builds its panel
        then. Calling it again does nothing."""
        _ = self.host_panel

    def hidden_docks_can_wait(self) -> bool:
        """Whether the docks hidden behind others can get their panels after the first paint, the
        window looking the same. The docks grow to every panel's minimum size (the CANN Machine
        panel's depends on the host names and the language), so a panel added after the paint would
        move the splitters — unless its placeholder already has that size: the size the panel had
        when the last session saved the layout (:meth:`restore_state`). On a first start nothing is
        known and everything is built before the paint."""
        return self._host_panel is None and self._host_panel_min is not None

    def _size_host_placeholder(self, blob: bytes) -> None:
        """Give the CANN Machine dock's placeholder the panel's minimum size saved as b"W,H"."""
        try:
            width, height = (int(v) for v in blob.decode("ascii").split(","))
        except ValueError:  # none saved (a first start, an older state file) or not two numbers
            return
        if self._host_panel is None and 0 < width < 10000 and 0 < height < 10000:
            self._host_panel_min = QSize(width, height)
            placeholder = self.docks["HostDock"].widget()
            if placeholder is not None:
                placeholder.setMinimumSize(self._host_panel_min)

    @property
    def host_panel(self) -> HostPanel:
        """The CANN Machine dock's panel, made on first use."""
        if self._host_panel is None:
            from workbench.ui.hosts.host_panel import HostPanel

            dock = self.docks["HostDock"]
            placeholder = dock.widget()
            self._host_panel = HostPanel(self.context, self)
            dock.setWidget(self._host_panel)
            self._host_panel.show()  # a widget set into a dock already shown stays hidden otherwise
            if placeholder is not None:
                placeholder.deleteLater()
        return self._host_panel

    def _host_dock_visibility(self, visible: bool) -> None:
        if visible and self._host_panel is None and not self._probing_tab_bars:
            self.build_deferred()

    # --- the application context (what dialogs get instead of this window) -----------------------------
    def _build_context(self) -> AppContext:
        return AppContext(
            bridge=self.bridge,
            pool=self.pool,
            prompter=self.prompter,
            settings=self.settings,
            save_settings=self.save_settings,
            current_project=self._current_project,
            events=self.app_events,
            host_transport=self.host_transport,
            add_document=self.add_document,
            open_report=self.open_report,
            show_status=self.show_status,
            warn=self.warn_later,
            show_properties=self._show_properties,
            open_reports=self.open_reports,
            show_comparison=self.show_comparison,
            comparison_failed=self.report_task_failed,
            open_comparison_row=self.open_comparison_row,
            open_project=self.open_project,
            documents=self.document_widgets,
            show_document=self.show_document,
        )

    def _current_project(self) -> core_project.Project | None:
        return self.project

    def show_status(self, text: str, timeout_ms: int = 0) -> None:
        self.statusBar().showMessage(text, timeout_ms)

    def warn_later(self, title: str, message: str) -> None:
        """A warning box that does not block the event loop (none for screenshots or when quitting)."""
        if self._screenshot_mode or self._quitting:
            return
        box = QMessageBox(QMessageBox.Icon.Warning, title, message, QMessageBox.StandardButton.Ok, self)
        box.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        box.open()

    def _show_properties(self, title: str, rows) -> None:
        self.details.show_properties(title, rows)

    def open_reports(self) -> list:
        """The reports open as documents."""
        from workbench.ui.report.document import ReportDocument

        docs = [self.documents.widget(i) for i in range(self.documents.count())]
        return [d.report for d in docs if isinstance(d, ReportDocument)]

    # --- docks and menus --------------------------------------------------------------------------
    def _add_dock(self, name: str, title: str, widget: QWidget, area: Qt.DockWidgetArea) -> None:
        dock = QDockWidget(title, self)
        dock.setObjectName(name)
        dock.setWidget(widget)
        self.addDockWidget(area, dock)
        self.docks[name] = dock

    def _dock_title_width(self, dock: QDockWidget) -> int:
        """The width a dock needs to show its (translated) title in full beside its buttons."""
        style = dock.style()
        margin = style.pixelMetric(QStyle.PixelMetric.PM_DockWidgetTitleMargin, None, dock)
        frame = style.pixelMetric(QStyle.PixelMetric.PM_DockWidgetFrameWidth, None, dock)
        buttons = sum(b.sizeHint().width() for b in dock.findChildren(QAbstractButton) if b.parent() is dock)
        return dock.fontMetrics().horizontalAdvance(dock.windowTitle()) + buttons + 4 * margin + 2 * frame + 8

    def _size_docks_by_default(self) -> None:
        """The first-start layout at this window size: explorer and Properties wide enough to work
        in (at least 260 px), Output a fifth of the height."""
        width, height = max(self.width(), 800), max(self.height(), 600)
        side = max(260, min(420, width // 5))
        right = max(260, min(380, width * 9 // 50))
        self.resizeDocks(
            [self.docks["ProjectExplorerDock"], self.docks["DetailsDock"]], [side, right], Qt.Orientation.Horizontal
        )
        self.resizeDocks([self.docks["OutputDock"]], [max(180, min(320, height // 5))], Qt.Orientation.Vertical)

    def _dock_layout_touched(self, *_args) -> None:
        self._default_dock_layout = False

    def resizeEvent(self, event) -> None:  # noqa: N802 - Qt API
        super().resizeEvent(event)
        if self._default_dock_layout:
            self._size_docks_by_default()

    def event(self, event: QEvent) -> bool:
        # A press the window itself gets is on a dock separator: the user sizes the docks now.
        if event.type() == QEvent.Type.MouseButtonPress:
            self._default_dock_layout = False
        return super().event(event)

    def _action(
        self,
        menu: QMenu,
        text: str,
        slot: Callable[[], object] | None = None,
        shortcut: QKeySequence | str | None = None,
        not_built: str | None = None,
    ) -> QAction:
        action = QAction(text, self)
        if shortcut:
            action.setShortcut(QKeySequence(shortcut))
        if not_built is not None:
            action.setEnabled(False)
            action.setProperty("not_built", True)
            action.setToolTip(self.tr("Not available yet: {0}").format(not_built))
            action.setStatusTip(action.toolTip())
        elif slot is not None:
            action.triggered.connect(lambda _checked=False: slot())
        menu.addAction(action)
        return action

    def _build_menus(self) -> None:
        bar = self.menuBar()
        file_menu = bar.addMenu(self.tr("&File"))
        file_menu.setToolTipsVisible(True)
        self.act_new_project = self._action(
            file_menu, self.tr("New Project…"), self.new_project_dialog, QKeySequence.StandardKey.New
        )
        self.act_open_project = self._action(
            file_menu, self.tr("Open Project…"), self.open_project_dialog, "Ctrl+Shift+O"
        )
        self.act_close_project = self._action(file_menu, self.tr("Close Project"), self.close_project)
        file_menu.addSeparator()
        self.act_open_report = self._action(
            file_menu, self.tr("Open Report…"), self.open_report_dialog, QKeySequence.StandardKey.Open
        )
        self.act_open_report.setToolTip(
            self.tr("Open a report file, or a report folder (PROF_*, *_ascend_pt) selected in the list")
        )
        self.act_open_report_folder = self._action(
            file_menu, self.tr("Open Report Folder…"), self.open_report_folder_dialog, "Ctrl+Alt+O"
        )
        self.act_open_report_folder.setToolTip(
            self.tr("Open a report folder, or search any folder for the reports in it")
        )
        self.act_open_cluster = self._action(file_menu, self.tr("Open Cluster…"), self.open_cluster_dialog)
        self.act_open_cluster.setToolTip(
            self.tr("Analyse a job's folder of ranks as a cluster, or open a cluster_analysis_output")
        )
        self.act_open_model_graph = self._action(file_menu, self.tr("Open Model Graph…"), self.open_model_graph_dialog)
        self.act_open_model_graph.setToolTip(
            self.tr("Show an ONNX model, an om JSON, an .om, a prototxt or a pb as a graph")
        )
        file_menu.addSeparator()
        self.recent_projects_menu = file_menu.addMenu(self.tr("Recent Projects"))
        self.recent_reports_menu = file_menu.addMenu(self.tr("Recent Reports"))
        self.recent_projects_menu.aboutToShow.connect(lambda: self._fill_recent("projects"))
        self.recent_reports_menu.aboutToShow.connect(lambda: self._fill_recent("reports"))
        file_menu.addSeparator()
        self._action(file_menu, self.tr("Exit"), self.close, QKeySequence.StandardKey.Quit)

        ascend = bar.addMenu(self.tr("&Ascend"))
        ascend.setToolTipsVisible(True)
        self.ascend_menu = ascend
        self.act_converter = self._action(ascend, self.tr("Model Converter…"), self.model_converter)
        self._action(ascend, self.tr("Dump Configuration…"), self.dump_configuration_dialog)
        prof = ascend.addMenu(self.tr("System Profiler"))
        prof.setToolTipsVisible(True)
        self.profiler_menu = prof
        self._action(prof, self.tr("New Profiling…"), self.new_profiling_wizard)
        self._action(prof, self.tr("Open Report…"), self.open_report_dialog)
        self._action(prof, self.tr("Open Report Folder…"), self.open_report_folder_dialog)
        self._action(prof, self.tr("Import Result…"), self.import_result_dialog)
        self._action(prof, self.tr("Merge Reports…"), self.merge_reports_dialog)
        self._action(prof, self.tr("Profiling Runs…"), self.profiling_runs_dialog)
        self._action(prof, self.tr("Timeline Color…"), self.timeline_color_dialog)
        self._action(ascend, self.tr("Baseline Comparison…"), self.baseline_comparison_dialog)
        self._action(ascend, self.tr("Model Accuracy Analyzer…"), self.accuracy_analyzer)
        trans = ascend.addMenu(self.tr("Framework Trans"))
        self.migration_menu = trans
        self._action(trans, self.tr("TensorFlow GPU2Ascend…"), lambda: self.migration_wizard("tf1"))
        self._action(trans, self.tr("PyTorch GPU2Ascend…"), lambda: self.migration_wizard("pytorch"))
        self._action(trans, self.tr("Open Migration Report…"), self.open_migration_report_dialog)
        ascend.addSeparator()
        self._action(ascend, self.tr("CANN Machines…"), self.cann_machines_dialog)
        self.act_runconfigs = self._action(ascend, self.tr("Run Configurations…"), self.run_configurations_dialog)
        self.act_deployment = self._action(ascend, self.tr("Deployment…"), self.deployment_dialog)
        self.act_deployment.setEnabled(False)
        self.act_deployment.setToolTip(self.tr("Open a project first: deployment maps its folders to a host"))
        self.act_runconfigs.setEnabled(False)
        self.act_runconfigs.setToolTip(self.tr("Open a project first: run configurations belong to a project"))

        view = bar.addMenu(self.tr("&View"))
        self.view_menu = view
        for dock in self.docks.values():
            view.addAction(dock.toggleViewAction())
        view.addSeparator()
        self._action(view, self.tr("Reset Layout"), self.reset_layout)
        view.addSeparator()
        lang_menu = view.addMenu(self.tr("Language"))
        group = QActionGroup(self)
        for code, label in (("", self.tr("System Default")), ("en", "English"), ("zh_CN", "简体中文")):
            act = QAction(label, self, checkable=True)
            act.setChecked(self.settings.language == code)
            act.setData(code)
            act.triggered.connect(lambda _c=False, c=code: self.set_language(c))
            group.addAction(act)
            lang_menu.addAction(act)
        theme_menu = view.addMenu(self.tr("Theme"))
        tgroup = QActionGroup(self)
        for code, label in (("light", self.tr("Light")), ("dark", self.tr("Dark"))):
            act = QAction(label, self, checkable=True)
            act.setChecked(self.settings.theme == code)
            act.triggered.connect(lambda _c=False, c=code: self.set_theme(c))
            tgroup.addAction(act)
            theme_menu.addAction(act)

        tools = self.addToolBar(self.tr("Main Toolbar"))
        tools.setObjectName("MainToolbar")
        tools.addAction(self.act_open_report)
        tools.addAction(self.act_converter)
        for text, slot in (
            (self.tr("New Profiling"), self.new_profiling_wizard),
            (self.tr("Baseline Comparison"), self.baseline_comparison_dialog),
        ):
            act = QAction(text, self)
            act.triggered.connect(lambda _c=False, f=slot: f())
            tools.addAction(act)

        help_menu = bar.addMenu(self.tr("&Help"))
        self._action(help_menu, self.tr("Keyboard Shortcuts"), self.show_shortcuts, "Ctrl+/")
        self.act_open_log_folder = self._action(help_menu, self.tr("Open Log Folder"), self._open_log_folder)
        self.act_open_log_folder.setObjectName("OpenLogFolderAction")
        self._action(help_menu, self.tr("About Ascend Workbench"), self.show_about)

    def menu_entries(self) -> dict[str, QAction]:
        """Every menu action by its (translated) path, e.g. 'Ascend/System Profiler/New Profiling…'."""
        out: dict[str, QAction] = {}

        def walk(menu: QMenu, prefix: str) -> None:
            for act in menu.actions():
                if act.menu() is not None:
                    walk(act.menu(), f"{prefix}{act.menu().title().replace('&', '')}/")
                elif not act.isSeparator():
                    out[prefix + act.text()] = act

        for top in self.menuBar().actions():
            walk(top.menu(), top.text().replace("&", "") + "/")
        return out

    # --- jobs ---------------------------------------------------------------------------------------
    def _follow_task(self, task: QtTask) -> None:
        self.tasks.follow(task)
        self.output.follow(task)

    def closeEvent(self, event: QCloseEvent) -> None:  # noqa: N802 - Qt API
        running = self.bridge.running()
        if running and not self._quitting:
            names = "\n".join(f"• {t.title}" for t in running[:10])
            answer = QMessageBox.question(
                self,
                self.tr("Jobs Running"),
                self.tr("These jobs are still running:\n{0}\n\nCancel them and quit?").format(names),
                QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No,
                QMessageBox.StandardButton.No,
            )
            if answer != QMessageBox.StandardButton.Yes:
                event.ignore()
                return
        if not self._screenshot_mode:  # an offscreen screenshot's geometry would replace the user's
            self.save_state()
        self.bridge.shutdown()
        self.pool.close_all()
        event.accept()

    # --- state ---------------------------------------------------------------------------------------
    def save_state(self) -> None:
        blobs = {"geometry": bytes(self.saveGeometry().data()), "state": bytes(self.saveState().data())}
        size = self._host_panel.minimumSizeHint() if self._host_panel is not None else self._host_panel_min
        if size is not None and size.isValid():  # the next start's placeholder (build_deferred)
            blobs[HOST_PANEL_MIN] = f"{size.width()},{size.height()}".encode("ascii")
        try:
            uistate.save_blobs(blobs)
        except OSError as exc:
            self.statusBar().showMessage(self.tr("Could not save the window layout: {0}").format(exc))

    def restore_state(self) -> str | None:
        """Restore the saved window geometry and dock layout; the problem to report, if any: only a
        saved state that cannot be read is one. Geometry Qt refuses although it reads (it was saved on
        a screen of another size: another monitor, Xvfb, no window manager) is fitted to this screen."""
        blobs, problem = uistate.load_blobs()
        self._size_host_placeholder(blobs.get(HOST_PANEL_MIN, b""))  # first: the docks are sized with it
        if "geometry" in blobs and not self.restoreGeometry(QByteArray(blobs["geometry"])):
            saved = saved_geometry(blobs["geometry"])
            if saved is None:
                problem = problem or self.tr("saved window geometry was not usable; using the default")
            else:
                self._fit_geometry(*saved)
        if "state" in blobs:
            if self.restoreState(QByteArray(blobs["state"])):
                self._default_dock_layout = False  # the user's own layout
            else:
                self.restoreState(self._default_state)
                problem = problem or self.tr("saved dock layout was not usable; using the default layout")
        self._hide_stale_tab_bars()
        return problem

    def _fit_geometry(self, normal: QRect, maximized: bool) -> None:
        """The saved window size and place, kept on this screen's available area."""
        screen = self.screen()
        area = screen.availableGeometry() if screen is not None else QRect(0, 0, 1280, 800)
        size = normal.size().boundedTo(area.size())
        x = min(max(normal.x(), area.left()), area.right() + 1 - size.width())
        y = min(max(normal.y(), area.top()), area.bottom() + 1 - size.height())
        self.resize(size)
        self.move(x, y)
        if maximized:
            self.setWindowState(self.windowState() | Qt.WindowState.WindowMaximized)
        log.info("saved window geometry %s was for another screen; fitted to %s", normal, area)

    def reset_layout(self) -> None:
        for dock in self.docks.values():
            dock.setFloating(False)
            dock.show()
        self.restoreState(self._default_state)
        self._default_dock_layout = True
        self._size_docks_by_default()
        self._hide_stale_tab_bars()

    def showEvent(self, event) -> None:  # noqa: N802 - Qt API
        super().showEvent(event)
        QTimer.singleShot(0, self, self._hide_stale_tab_bars)  # once the layout is on screen

    def _hide_stale_tab_bars(self) -> None:
        """Hide the dock tab bars Qt has retired but not deleted yet. Tabifying docks while the window
        is hidden (the first-start layout) and every restoreState (a saved layout, Reset Layout)
        replace the tab bars of the tabified groups; Qt 6.11 leaves the old bar visible where it was
        (laid out for the 640x480 window before it is shown: an empty "Output | Tasks" strip over
        the Project Explorer) and deletes it with deleteLater — only once control returns to an
        event loop. Until then (``--screenshot`` renders through processEvents, never a loop) it is
        on screen and its tabs do nothing. That is how it is told from a live bar: switching a live
        bar's tab activates that tab's dock (``tabifiedDockWidgetActivated``); a retired one's not."""
        bars = [
            b
            for b in self.findChildren(QTabBar, options=Qt.FindChildOption.FindDirectChildrenOnly)
            if not b.isHidden() and b.count() > 1
        ]
        activated: list[object] = []

        def note(dock: QDockWidget) -> None:
            activated.append(dock)

        self.tabifiedDockWidgetActivated.connect(note)
        self._probing_tab_bars = True  # the docks shown for a moment here are not shown to the user
        try:
            for bar in bars:
                current = bar.currentIndex()
                activated.clear()
                bar.setCurrentIndex((current + 1) % bar.count())
                live = bool(activated)
                bar.setCurrentIndex(current)  # back to the tab the user had
                if not live:
                    bar.hide()
        finally:
            self._probing_tab_bars = False
            self.tabifiedDockWidgetActivated.disconnect(note)

    # --- settings ---------------------------------------------------------------------------------------
    def save_settings(self) -> None:
        try:
            core_settings.save(self.settings)
        except core_settings.SettingsError as exc:
            self.statusBar().showMessage(str(exc))

    def set_language(self, code: str) -> None:
        if self.settings.language == code:
            return
        self.settings.language = code
        self.save_settings()
        QMessageBox.information(
            self, self.tr("Language"), self.tr("The language will change the next time Ascend Workbench starts.")
        )

    def set_theme(self, code: str) -> None:
        from workbench.ui.theme import apply_theme

        self.settings.theme = code
        self.save_settings()
        apply_theme(code)

    # --- projects ------------------------------------------------------------------------------------------
    def _update_title(self) -> None:
        name = f"{self.project.name} — " if self.project else ""
        self.setWindowTitle(name + self.tr("Ascend Workbench"))
        self.act_close_project.setEnabled(self.project is not None) if hasattr(self, "act_close_project") else None

    def set_project(self, project: core_project.Project | None) -> None:
        if self.project is not None and self._project_watch.files():
            self._project_watch.removePaths(self._project_watch.files())
        self.project = project
        self.explorer.set_project(project)
        if project is not None:
            self.settings.add_recent("projects", str(project.root))
            self.settings.last_project = str(project.root)
            self._project_watch.addPath(str(project.file))
        else:
            self.settings.last_project = ""
        self.save_settings()
        self._update_title()
        if hasattr(self, "act_deployment"):
            self.act_deployment.setEnabled(project is not None)
            self.act_runconfigs.setEnabled(project is not None)
        self.project_changed.emit(project)

    def open_project(self, folder: str | Path, ask: bool = True) -> core_project.Project | None:
        try:
            project = core_project.open_project(folder)
        except core_project.ProjectError as exc:
            self._project_error(folder, exc, ask)
            return None
        self.set_project(project)
        self.statusBar().showMessage(self.tr("Opened project {0}").format(project.name), 5000)
        return project

    def _project_error(self, folder: str | Path, exc: Exception, ask: bool) -> None:
        message = str(exc)
        self.output.add_text_tab(self.tr("Project error"), message)
        self.statusBar().showMessage(message)
        if not ask:
            return
        path = Path(folder)
        damaged = (path / core_project.PROJECT_DIR / core_project.PROJECT_FILE).exists()
        if not path.is_dir():
            self.settings.remove_recent("projects", str(folder))
            self.save_settings()
            QMessageBox.warning(
                self, self.tr("Open Project"), self.tr("{0}\n\nIt was removed from Recent Projects.").format(message)
            )
            return
        if damaged:
            answer = QMessageBox.question(
                self,
                self.tr("Open Project"),
                self.tr(
                    "{0}\n\nRepair it? The damaged file is kept beside it as project.json.corrupt "
                    "and a fresh project file is written."
                ).format(message),
                QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No,
                QMessageBox.StandardButton.No,
            )
            if answer == QMessageBox.StandardButton.Yes:
                try:
                    project, _kept = core_project.repair_project(folder)
                except core_project.ProjectError as exc2:
                    QMessageBox.warning(self, self.tr("Open Project"), str(exc2))
                    return
                self.set_project(project)
            return
        QMessageBox.warning(self, self.tr("Open Project"), message)

    def create_project(
        self, folder: str | Path, name: str | None = None, ptype: str | None = None
    ) -> core_project.Project | None:
        try:
            project = core_project.create_project(folder, name=name, ptype=ptype)
        except core_project.ProjectError as exc:
            self.output.add_text_tab(self.tr("Project error"), str(exc))
            QMessageBox.warning(self, self.tr("New Project"), str(exc))
            return None
        self.set_project(project)
        return project

    def close_project(self) -> None:
        self.set_project(None)

    def new_project_dialog(self) -> None:
        from workbench.ui.dialogs.new_project import NewProjectDialog

        dialog = NewProjectDialog(str(Path.home() / "AscendProjects"), self)
        if dialog.exec():
            self.create_project(dialog.folder(), name=dialog.name.text().strip(), ptype=dialog.project_type())

    def open_project_dialog(self) -> None:
        folder = QFileDialog.getExistingDirectory(self, self.tr("Open Project"), str(Path.home()))
        if folder:
            self.open_project(folder)

    def _project_file_changed(self, path: str) -> None:
        # Another program edited project.json: re-read it (a broken edit is reported, not overwritten).
        if self.project is None:
            return
        QTimer.singleShot(200, self, self._reload_project)  # context: dropped if the window goes

    def _reload_project(self) -> None:
        if self.project is None:
            return
        try:
            project = core_project.open_project(self.project.root)
        except core_project.ProjectError as exc:
            self.statusBar().showMessage(str(exc))
            return
        self.project = project
        self.explorer.set_project(project)
        self._update_title()
        if str(project.file) not in self._project_watch.files():
            self._project_watch.addPath(str(project.file))

    def _fill_recent(self, kind: str) -> None:
        menu = self.recent_projects_menu if kind == "projects" else self.recent_reports_menu
        menu.clear()
        items = getattr(self.settings, f"recent_{kind}")
        if not items:
            act = menu.addAction(self.tr("(none)"))
            act.setEnabled(False)
            return
        for path in items:
            act = menu.addAction(path)
            if kind == "projects":
                act.triggered.connect(lambda _c=False, p=path: self.open_project(p))
            else:
                act.triggered.connect(lambda _c=False, p=path: self.open_path(p))
        menu.addSeparator()
        menu.addAction(self.tr("Clear List"), lambda: self._clear_recent(kind))

    def _clear_recent(self, kind: str) -> None:
        getattr(self.settings, f"recent_{kind}").clear()
        self.save_settings()

    # --- documents ---------------------------------------------------------------------------------------------
    def add_document(self, widget: QWidget, title: str, tooltip: str = "") -> int:
        if self.documents.indexOf(self.welcome) >= 0:
            self.documents.removeTab(self.documents.indexOf(self.welcome))
        index = self.documents.addTab(widget, title)
        self.documents.setTabToolTip(index, tooltip or title)
        self.documents.setCurrentIndex(index)
        return index

    def document_widgets(self) -> list[QWidget]:
        """The widgets open as document tabs, in tab order."""
        return [self.documents.widget(i) for i in range(self.documents.count())]

    def show_document(self, widget: QWidget) -> None:
        """Make the open document ``widget`` the current tab."""
        if self.documents.indexOf(widget) >= 0:
            self.documents.setCurrentWidget(widget)

    def _document_changed(self, index: int) -> None:
        """Another document tab is current: the Properties dock no longer shows the previous one's
        selection; a document that can (``publish_properties()``, e.g. a graph) shows its own again."""
        self.details.clear()
        widget = self.documents.widget(index) if index >= 0 else None
        publish = getattr(widget, "publish_properties", None)
        if callable(publish):
            publish()

    def show_slice_details(self, title: str, rows) -> None:
        """A timeline slice was selected (rows) or unselected (no rows): the Details dock follows."""
        if rows:
            self.details.show_properties(title, rows)
        else:
            self.details.clear()

    def close_document(self, index: int) -> None:
        widget = self.documents.widget(index)
        closing = getattr(widget, "closing", None)
        if callable(closing):  # e.g. a report still loading: cancel it
            closing()
        self.documents.removeTab(index)
        if widget is not self.welcome:
            widget.deleteLater()

    def open_path(self, path: str | Path, view: str | None = None, *, search_folders: bool = True) -> None:
        """Open whatever ``path`` is: a project folder, a report, or a file in the text view. Any
        other folder is searched for the reports in it (``search_folders``; the explorer expands it)."""
        p = Path(path).expanduser().absolute()
        if not p.exists():
            self.settings.remove_recent("reports", str(path))
            self.settings.remove_recent("reports", str(p))
            self.save_settings()
            QMessageBox.warning(self, self.tr("Open"), self.tr("{0}: no such file or folder").format(p))
            return
        action = artefacts.open_action(p)
        if action is None and search_folders and p.is_dir():
            self.open_folder(p, view)
            return
        self.run_action(action, str(p), view)

    def run_action(self, action: str | None, path: str, view: str | None = None) -> None:
        """Do one of core ``artefacts``' action ids on ``path`` (Open, the explorer's context menu)
        with its opener in ``workbench.ui.openers``; None (a plain folder) does nothing: it expands."""
        from workbench.ui import openers

        if action is None:
            return
        if action == artefacts.OPEN_PROJECT:
            self.open_project(path)
            return
        openers.run(action, self.context, self, path, view)

    def open_report(self, path: str | Path, view: str | None = None, then=None) -> None:
        """Open ``path`` as a report document; it joins Recent Reports (by its absolute path) once it
        has opened — a report that fails to load is not offered again. ``then(document)`` runs once
        the document is filled."""
        from workbench.ui.report.document import open_report as open_document

        path = Path(path).expanduser().absolute()
        open_document(self, path, view, then)
        pages = [self.documents.widget(i) for i in reversed(range(self.documents.count()))]
        page = next((w for w in pages if getattr(w, "path", None) == path and hasattr(w, "task")), None)
        if page is not None:  # its loading page: Recent Reports once the load succeeded
            page.task.succeeded.connect(lambda _result, p=str(path): self._report_opened(p))

    def _report_opened(self, path: str) -> None:
        self.settings.add_recent("reports", path)
        self.save_settings()

    def _dialog_folder(self) -> str:
        """Where the Open dialogs start: the project, else the latest report's folder, else home."""
        if self.project is not None:
            return str(self.project.root)
        for recent in self.settings.recent_reports:
            parent = Path(recent).parent
            if parent.is_dir():
                return str(parent)
        return str(Path.home())

    def open_report_dialog(self) -> None:
        """File ▸ Open Report…: a report file, or a report folder selected in the list (PROF_*,
        *_ascend_pt, ..., or any folder kind of the artefact registry: a migration report, a cluster output;
        Open opens it as the explorer does; double-click still enters it)."""
        dialog = _ReportFileDialog(self, self.tr("Open Report"), self._dialog_folder())
        dialog.setNameFilter(self.tr("Profiling reports (*.json *.csv *.wbreport);;All files (*)"))
        if dialog.exec() and (dialog.chosen is not None or dialog.selectedFiles()):
            chosen = dialog.chosen or Path(dialog.selectedFiles()[0])
            if chosen.is_dir():
                self.open_path(chosen)
                return
            # the user asked for a report: open it as one whatever it is called (the engine says
            # what it looked for if it is not one)
            self.run_action(artefacts.open_action(chosen, as_report=True), str(chosen))

    def open_report_folder_dialog(self) -> None:
        """File ▸ Open Report Folder…: any folder; a report folder opens, another is searched."""
        dialog = _ReportFileDialog(self, self.tr("Open Report Folder"), self._dialog_folder(), folders=True)
        if dialog.exec() and (dialog.chosen is not None or dialog.selectedFiles()):
            # a report folder is the one report found
            self.open_folder(dialog.chosen or dialog.selectedFiles()[0])

    def open_cluster_dialog(self) -> None:
        """File ▸ Open Cluster…: a job's folder of ranks (analysed) or a cluster_analysis_output (read)."""
        dialog = _ReportFileDialog(self, self.tr("Open Cluster"), self._dialog_folder(), folders=True)
        if dialog.exec() and (dialog.chosen is not None or dialog.selectedFiles()):
            self.open_cluster(dialog.chosen or dialog.selectedFiles()[0])

    def open_model_graph_dialog(self) -> None:
        """File ▸ Open Model Graph…: a model file (ONNX, om JSON, .om, prototxt, pb) as a graph document."""
        from workbench.ui.graph.document import open_model_graph
        from workbench.ui.graph.links import ask_model_file

        path = ask_model_file(self, self.tr("Open Model Graph"), self._dialog_folder())
        if path:
            open_model_graph(self.context, path)

    def open_cluster(self, folder: str | Path) -> None:
        from workbench.ui import openers

        openers.open_cluster(self.context, self, Path(folder).expanduser().absolute())

    # --- a folder holding reports --------------------------------------------------------------------
    def open_folder(self, folder: str | Path, view: str | None = None) -> None:
        """Search ``folder`` for reports (a task: bounded depth, cancellable in the Tasks dock): one
        found opens, several go to the picker, none says what was looked for."""
        from workbench.core.profiling.discover import find_reports

        folder = Path(folder).expanduser().absolute()
        self.statusBar().showMessage(self.tr("Searching {0} for reports…").format(folder))
        task = self.bridge.start(
            find_reports, folder, title=self.tr("Find reports in {0}").format(folder.name or folder), kind="search"
        )
        task.succeeded.connect(lambda found, t=task: self._folder_searched(found, t, view))
        task.failed.connect(lambda message, _exc: self._folder_failed(message))
        task.cancelled.connect(
            lambda: self.statusBar().showMessage(self.tr("Search of {0} cancelled").format(folder), 5000)
        )

    def _folder_searched(self, found, task: QtTask, view: str | None) -> None:
        from workbench.core.profiling.detect import LOOKED_FOR

        reports = found.reports
        if not reports:
            message = self.tr(
                "{0}: no profiling report in this folder or up to {1} levels below ({2} folders searched). "
                "Looked for: {3}"
            ).format(found.root, found.max_depth, found.folders, "; ".join(LOOKED_FOR))
            self.statusBar().showMessage(message)
            output = self.output.view_for(task.handle.task_id)
            if output is not None:
                self.output.append(output, ("stderr", message))
            self.warn_later(self.tr("Open Report Folder"), message)
            return
        if len(reports) == 1:
            self.statusBar().showMessage(self.tr("Opening {0}").format(reports[0].path), 5000)
            if reports[0].kind == "cluster":  # msprof-analyze's (or our) cluster_analysis_output
                self.open_cluster(reports[0].path)
                return
            self.open_report(reports[0].path, view)
            return
        from workbench.ui.dialogs.report_picker import open_report_picker

        self.statusBar().showMessage(self.tr("{0} reports in {1}").format(len(reports), found.root), 5000)
        if self._screenshot_mode:  # a screenshot run cannot answer a dialog: the first report
            self.open_report(reports[0].path, view)
            return
        picker = open_report_picker(self.context, self, found)
        picker.chosen.connect(lambda mode, paths: self._picked(mode, paths, view))

    def _folder_failed(self, message: str) -> None:
        self.statusBar().showMessage(message)
        self.warn_later(self.tr("Open Report Folder"), message)

    def _picked(self, mode: str, paths: list, view: str | None) -> None:
        from workbench.ui.cluster.document import is_cluster_output
        from workbench.ui.dialogs.report_picker import ANALYSE, CLUSTER, OPEN

        if mode == ANALYSE:
            self.open_cluster(paths[0])
        elif mode == OPEN:
            for path in paths:
                if is_cluster_output(path):
                    self.open_cluster(path)
                else:
                    self.open_report(path, view)
        else:
            self.open_merged(paths, cluster=mode == CLUSTER, view=view)

    def open_merged(self, paths: list, cluster: bool = False, view: str | None = None) -> None:
        """Open ``paths`` as one merged report in a new document tab (a task, with a loading page).
        ``cluster``: the ranks of one job; until the cluster view exists they open merged too."""
        import os

        from workbench.ui.report.loading import ReportLoadingPage

        paths = [Path(p) for p in paths]
        common = Path(os.path.commonpath([str(p) for p in paths]))
        if cluster:
            title = self.tr("Cluster {0} ({1} ranks)").format(common.name, len(paths))
        else:
            title = self.tr("Merged {0} ({1} reports)").format(common.name, len(paths))
        task = self.bridge.start(_merged_for_view, paths, title=title, kind="report")
        page = ReportLoadingPage(common, task, self)
        page.title.setText(title)
        tooltip = "\n".join(str(p) for p in paths)
        self.add_document(page, title, tooltip)
        task.status_changed.connect(page.set_status)
        task.progress_changed.connect(page.set_fraction)
        task.succeeded.connect(lambda result: self._merged_opened(page, result, title, tooltip, view))
        task.failed.connect(lambda message, _exc: self._merged_failed(page, message))
        task.cancelled.connect(
            lambda: self._merged_failed(page, self.tr("Opening {0} was cancelled").format(title), False)
        )

    def _merged_opened(self, page: QWidget, result, title: str, tooltip: str, view: str | None) -> None:
        from workbench.ui.report.document import ReportDocument

        index = self.documents.indexOf(page)
        page.deleteLater()
        if index < 0:  # the user closed the loading tab: they do not want it any more
            return
        report, prepared = result
        doc = ReportDocument(
            report, self.settings, self, prepared, staged=not self._screenshot_mode, context=self.context
        )
        doc.slice_details.connect(self.show_slice_details)
        if doc.timeline_view is not None:
            doc.timeline_view.set_color_rule(self.timeline_color_rule())
        if view:
            doc.show_view(view)
        current = self.documents.currentIndex() == index
        self.documents.insertTab(index, doc, title)
        self.documents.setTabToolTip(index, tooltip)
        self.documents.removeTab(index + 1)
        if current:
            self.documents.setCurrentIndex(index)

    def _merged_failed(self, page: QWidget, message: str, warn: bool = True) -> None:
        index = self.documents.indexOf(page)
        if index >= 0:
            self.close_document(index)
        self.statusBar().showMessage(message)
        if warn:
            self.warn_later(self.tr("Open Report"), message)

    # --- details ---------------------------------------------------------------------------------------------------
    def _show_file_details(self, path: str) -> None:
        if not path:
            self.details.clear()
            return
        p = Path(path)
        try:
            st = p.stat()
        except OSError as exc:
            self.details.show_properties(p.name, [(self.tr("Error"), str(exc))])
            return
        kind = artefacts.classify(p)
        rows = [
            (self.tr("Path"), str(p)),
            (self.tr("Kind"), artefact_label(kind) if kind else (self.tr("Folder") if p.is_dir() else self.tr("File"))),
            (self.tr("Modified"), _dt.datetime.fromtimestamp(st.st_mtime).strftime("%Y-%m-%d %H:%M:%S")),
        ]
        if p.is_file():
            rows.insert(2, (self.tr("Size"), self.tr("{0} bytes").format(f"{st.st_size:,}")))
        self.details.show_properties(p.name, rows)

    # --- converter and dump ---------------------------------------------------------------------------------------
    def model_converter(self, model_path: str | None = None):
        from workbench.ui.converter import open_model_converter

        return open_model_converter(self.context, self, model_path)

    def migration_wizard(self, framework: str = "pytorch"):
        """Ascend ▸ Framework Trans ▸ TensorFlow / PyTorch GPU2Ascend…: the GPU → Ascend migration wizard."""
        from workbench.ui.migration.wizard import open_migration_wizard

        return open_migration_wizard(self.context, self, framework)

    def open_migration_report_dialog(self) -> None:
        """Ascend ▸ Framework Trans ▸ Open Migration Report…: a report_npu_* / *_msft folder (or one above it)."""
        from workbench.ui import openers

        dialog = _ReportFileDialog(self, self.tr("Open Migration Report"), self._dialog_folder(), folders=True)
        if dialog.exec() and (dialog.chosen is not None or dialog.selectedFiles()):
            folder = Path(dialog.chosen or dialog.selectedFiles()[0]).expanduser().absolute()
            openers.run(artefacts.OPEN_MIGRATION, self.context, self, folder)

    def dump_configuration_dialog(self):
        from workbench.ui.dump import open_dump_configuration

        return open_dump_configuration(self.context, self)

    def accuracy_analyzer(self):
        from workbench.ui.dump import open_accuracy_analyzer

        return open_accuracy_analyzer(self.context)

    # --- profiler -----------------------------------------------------------------------------------------------
    def new_profiling_wizard(self):
        from workbench.ui.profiler import open_new_profiling

        return open_new_profiling(self.context, self)

    def import_result_dialog(self):
        from workbench.ui.profiler import open_import_result

        return open_import_result(self.context, self)

    def merge_reports_dialog(self):
        from workbench.ui.profiler import open_merge_reports

        return open_merge_reports(self.context, self)

    def profiling_runs_dialog(self):
        from workbench.ui.profiler import open_profiling_runs

        return open_profiling_runs(self.context, self)

    # --- comparison ---------------------------------------------------------------------------------------------
    def baseline_comparison_dialog(self):
        from workbench.ui.compare.dialog import open_compare_dialog

        return open_compare_dialog(self.context, self)

    def show_comparison(self, comparison) -> None:
        from workbench.ui.compare.view import CompareView

        view = CompareView(comparison, self)
        view.row_opened.connect(lambda row, c=comparison: self.open_comparison_row(c, row))
        title = self.tr("{0} vs {1}").format(Path(comparison.base.source).name, Path(comparison.current.source).name)
        self.add_document(view, title, title)

    def report_task_failed(self, message: str, _exc: object = None) -> None:
        self.statusBar().showMessage(message)
        if not self._screenshot_mode:
            QMessageBox.warning(self, self.tr("Baseline Comparison"), message)

    def open_comparison_row(self, comparison, row) -> None:
        """Open both reports' timelines at the operator's first occurrence."""
        from workbench.ui.compare.dialog import locate_slice
        from workbench.ui.report.document import ReportDocument

        for side, first in (
            (comparison.base, row.get("base_first_ns")),
            (comparison.current, row.get("current_first_ns")),
        ):
            if first is None or first != first:  # missing on this side
                continue
            doc = next(
                (
                    self.documents.widget(i)
                    for i in range(self.documents.count())
                    if isinstance(self.documents.widget(i), ReportDocument)
                    and str(self.documents.widget(i).report.source) == str(side.source)
                ),
                None,
            )
            if doc is None:
                report = comparison.base_report if side is comparison.base else comparison.current_report
                if report is None:
                    continue
                doc = ReportDocument(report, self.settings, self, context=self.context)
                doc.slice_details.connect(self.show_slice_details)
                self.add_document(doc, Path(side.source).name, str(side.source))
            index = locate_slice(doc.report, first)
            if index is not None and doc.timeline_view is not None:
                self.documents.setCurrentWidget(doc)
                doc.show_view("timeline")
                doc.timeline_view.select_slice(index, center=True)

    # --- hosts -----------------------------------------------------------------------------------------------------
    def host_transport(self, name: str):
        """The transport for a host by name (the demo host runs locally); SSH ones are pooled."""
        from workbench.core.services.demohost import resolve_host
        from workbench.core.services.ssh import transport_for

        return transport_for(resolve_host(name), self.prompter, self.pool)

    def deployment_dialog(self):
        from workbench.ui.hosts.deployment_dialog import DeploymentDialog

        if self.project is None:
            return None
        dialog = DeploymentDialog(self.context, self.project, self)
        dialog.open()
        return dialog

    def run_configurations_dialog(self):
        from workbench.ui.hosts.runconfig_dialog import RunConfigurationsDialog

        if self.project is None:
            return None
        dialog = RunConfigurationsDialog(self.context, self.project, self)
        dialog.open()
        return dialog

    def cann_machines_dialog(self):
        from workbench.ui.hosts.machines_dialog import CannMachinesDialog

        dialog = CannMachinesDialog(self.context, parent=self)
        dialog.hosts_changed.connect(self.host_panel.reload_hosts)  # the dock lists the new hosts too
        dialog.open()
        return dialog

    # --- timeline colours ---------------------------------------------------------------------------------------
    def timeline_color_rule(self):
        """The persisted Timeline Color rule, or None when colours follow slice names."""
        if not self.settings.timeline_color_rule:
            return None
        from workbench.core.profiling import timeline_ops  # numpy: not before the first paint

        return timeline_ops.ColorRule(self.settings.timeline_color_a, self.settings.timeline_color_b)

    def apply_timeline_colors(self) -> None:
        from workbench.ui.report.document import ReportDocument

        for i in range(self.documents.count()):
            doc = self.documents.widget(i)
            if isinstance(doc, ReportDocument) and doc.timeline_view is not None:
                doc.timeline_view.set_color_rule(self.timeline_color_rule())

    def timeline_color_dialog(self) -> None:
        from workbench.ui.dialogs.timeline_color import TimelineColorDialog

        s = self.settings
        dialog = TimelineColorDialog(s.timeline_color_rule, s.timeline_color_a, s.timeline_color_b, self)
        if dialog.exec():
            s.timeline_color_rule = dialog.enabled.isChecked()
            s.timeline_color_a, s.timeline_color_b = round(dialog.a.value(), 2), round(dialog.b.value(), 2)
            self.save_settings()
            self.apply_timeline_colors()

    # --- help -------------------------------------------------------------------------------------------------
    def shortcut_list(self) -> list[tuple[str, str]]:
        rows = []
        for path, act in self.menu_entries().items():
            if not act.shortcut().isEmpty():
                rows.append((path.replace("/", " ▸ "), act.shortcut().toString(QKeySequence.SequenceFormat.NativeText)))
        rows += [(self.tr("Find next in Output"), "F3"), (self.tr("Find previous in Output"), "Shift+F3")]
        from workbench.ui.report.timeline import help_shortcut_rows  # every key and mouse gesture of the timeline

        return rows + help_shortcut_rows()

    def _open_log_folder(self) -> None:
        from workbench.ui.logfolder import open_log_folder

        open_log_folder(self)

    def show_shortcuts(self) -> None:
        from workbench.ui.dialogs.about import ShortcutsDialog

        ShortcutsDialog(self.shortcut_list(), self).exec()

    def show_about(self) -> None:
        from workbench.ui.dialogs.about import about_text

        QMessageBox.about(self, self.tr("About Ascend Workbench"), about_text())

    # --- drag and drop --------------------------------------------------------------------------------------------
    def dragEnterEvent(self, event) -> None:  # noqa: N802 - Qt API
        if event.mimeData().hasUrls():
            event.acceptProposedAction()

    def dropEvent(self, event) -> None:  # noqa: N802 - Qt API
        paths = [url.toLocalFile() for url in event.mimeData().urls() if url.isLocalFile()]
        if paths:
            event.acceptProposedAction()
        for path in paths:
            self.open_path(path)


_GEOMETRY_MAGIC = 0x1D9D0CB  # QWidget::saveGeometry()'s first four bytes


def saved_geometry(blob: bytes) -> tuple[QRect, bool] | None:
    """A ``QWidget.saveGeometry()`` blob read back: (normal geometry, maximized), or None when the
    bytes are not one (wrong magic number, a newer format, cut short, an empty rectangle). Layout:
    magic u32, version u16 u16, frame and normal geometry as four i32 each, screen i32, maximized
    u8, full screen u8, ... (big-endian, QDataStream)."""
    try:
        magic, major, _minor = struct.unpack_from(">IHH", blob, 0)
        if magic != _GEOMETRY_MAGIC or major > 3:
            return None
        left, top, right, bottom = struct.unpack_from(">4i", blob, 24)
        _screen, maximized, _full = struct.unpack_from(">iBB", blob, 40)
    except struct.error:
        return None
    normal = QRect(left, top, right - left + 1, bottom - top + 1)
    return (normal, bool(maximized)) if normal.isValid() else None


class _ReportFileDialog(QFileDialog):
    """Qt's own (non-native) file dialog for File ▸ Open Report… (``folders=False``: a file, or a
    report folder — PROF_*, *_ascend_pt, cluster_analysis_output — or any folder kind of the artefact
    registry (a migration report, a dump folder) that Open opens, through the registry, instead of
    entering) and File ▸ Open Report Folder… (``folders=True``: any folder). What the file name
    field holds (typed, or the entry clicked in the list) is what opens."""

    def __init__(self, parent: QWidget, caption: str, folder: str, *, folders: bool = False) -> None:
        super().__init__(parent, caption, folder)
        self.setOption(QFileDialog.Option.DontUseNativeDialog, True)
        self.folders = folders
        if folders:
            self.setFileMode(QFileDialog.FileMode.Directory)
            self.setOption(QFileDialog.Option.ShowDirsOnly, True)
        else:
            self.setFileMode(QFileDialog.FileMode.ExistingFile)
        self.chosen: Path | None = None

    def typed_path(self) -> Path | None:
        edit = self.findChild(QLineEdit, "fileNameEdit")
        text = edit.text().strip() if edit is not None else ""
        if not text:
            return None
        path = Path(text).expanduser()
        return path if path.is_absolute() else Path(self.directory().absolutePath()) / path

    def accept(self) -> None:
        from workbench.core.profiling.discover import report_root

        path = self.typed_path()
        if path is None or not path.exists():
            super().accept()  # nothing typed (the current folder), or Qt's "not found" message
            return
        # a folder the registry knows (a migration report, a cluster output, a dump, …) or a report folder opens
        known = path.is_dir() and (artefacts.recognise(path) is not None or report_root(path))
        if path.is_file() and not self.folders or path.is_dir() and (self.folders or known):
            self.chosen = path
            QDialog.accept(self)
            return
        if path.is_dir():  # a plain folder in Open Report…: go into it
            self.setDirectory(str(path))
            edit = self.findChild(QLineEdit, "fileNameEdit")
            if edit is not None:
                edit.clear()
            return
        super().accept()


def _merged_for_view(paths, progress=None, cancel=None):
    """Work function: the reports at ``paths`` merged into one, prepared for the report document."""
    from workbench.core.profiling import merge, views
    from workbench.core.tasks import NullProgress, ScaledProgress

    progress = progress or NullProgress()
    report = merge.merge_reports(paths, progress=ScaledProgress(progress, 0.0, 0.9), cancel=cancel)
    return report, views.prepare(report, progress, cancel)
