"""The application context dialogs, wizards, panels and documents get instead of the main window.

A dialog is given an :class:`AppContext` (the services it may use) and, separately, its QWidget
``parent``; it never reaches into the main window's attributes. The main window builds the one
context of the application (``MainWindow.context``); a test can build one from fakes.

Entry functions follow one shape: ``open_x(context, parent, …)`` for a dialog or wizard (the
parent makes it window-modal and owns it), ``open_x(context, …)`` for a document (it becomes a tab
through :attr:`AppContext.add_document`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QObject, Signal

if TYPE_CHECKING:
    from PySide6.QtWidgets import QWidget

    from workbench.core.profiling.report import Report
    from workbench.core.project import Project
    from workbench.core.services.ssh import ConnectionPool
    from workbench.core.services.transport import Transport
    from workbench.core.settings import Settings
    from workbench.ui.bridge import TaskBridge
    from workbench.ui.hosts.prompter import QtPrompter


class AppEvents(QObject):
    """Application-wide notifications. It lives as long as the main window, so it is also the
    QObject parent of helpers that must outlive the dialog that started them (a task follower
    that opens the report when a run finishes, the opener of a model-structure document)."""

    project_changed = Signal(object)  # the current project was opened, closed or switched (Project | None)
    runs_changed = Signal()  # a profiling run was added, re-run or deleted


@dataclass(frozen=True, eq=False)
class AppContext:
    """What the application offers its dialogs (Scrutiny-style component interface)."""

    bridge: TaskBridge
    """Runs core work functions as tasks whose signals arrive on the GUI thread (Tasks/Output docks)."""
    pool: ConnectionPool
    """The SSH connection pool: work functions that open hosts themselves take it with the prompter."""
    prompter: QtPrompter
    """Asks for host keys, passwords and passphrases (from any thread)."""
    settings: Settings
    """The user's settings (read and change; then call :attr:`save_settings`)."""
    save_settings: Callable[[], None]
    """Write :attr:`settings` (a failure is shown in the status bar)."""
    current_project: Callable[[], Project | None]
    """The open project now (see :attr:`project`); it changes as the user opens another."""
    events: AppEvents
    """``project_changed`` / ``runs_changed`` notifications; the parent of long-lived helpers."""
    host_transport: Callable[[str], Transport]
    """The transport to a CANN machine by name (SSH ones pooled; the demo host runs locally)."""
    add_document: Callable[[QWidget, str, str], int]
    """Show a widget as a document tab: ``add_document(widget, title, tooltip)`` -> tab index."""
    open_report: Callable[..., None]
    """Open a profiling report as a document: ``open_report(path, view=None, then=None)`` (recorded as
    recent; ``then(document)`` once it is filled)."""
    show_status: Callable[..., None]
    """A message in the status bar: ``show_status(text, timeout_ms=0)``."""
    warn: Callable[[str, str], None]
    """A non-blocking warning box ``warn(title, message)`` over the window; nothing while
    screenshots are taken or the application quits."""
    show_properties: Callable[[str, list[tuple[str, str]]], None]
    """Rows ``(name, value)`` under a title in the Properties dock."""
    open_reports: Callable[[], list[Report]]
    """The reports open as documents (the Baseline Comparison dialog offers them)."""
    show_comparison: Callable[[Any], None]
    """Open a finished baseline comparison (core ``Comparison``) as a document tab."""
    comparison_failed: Callable[[str, object], None]
    """A comparison task failed ``(message, exception)``: status bar and a warning box."""
    open_comparison_row: Callable[[Any, int], None]
    """Open both timelines of row ``int`` of a ``Comparison`` (the comparison views' double-click)."""
    open_project: Callable[[str | Path], object] | None = None
    """Open a folder as the workbench project: ``open_project(folder)`` (the main window's; it asks
    before closing the current one). None in a context without a window (a test's fakes)."""
    documents: Callable[[], list[QWidget]] | None = None
    """The widgets open as document tabs, in tab order (None without a window)."""
    show_document: Callable[[QWidget], None] | None = None
    """Make an open document the current tab (None without a window)."""

    @property
    def project(self) -> Project | None:
        """The open project (None when there is none)."""
        return self.current_project()

    def project_root(self) -> Path | None:
        project = self.current_project()
        return Path(project.root) if project is not None else None
