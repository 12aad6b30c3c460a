"""Project Explorer: the project folder as a tree, Ascend artefacts marked with an icon and type.

A ``QFileSystemModel`` watches the folder, so files changed on disk appear without a restart.
Classification is core's ``artefacts.classify`` (cached per path and modification time). The
context menu comes from core's registry too: *Open* and the kind's actions
(``artefacts.context_actions``); the panel emits them and the window runs them
(``workbench.ui.openers``).
"""

from __future__ import annotations

import html
from pathlib import Path

from PySide6.QtCore import QCoreApplication, QDir, QModelIndex, QObject, QPoint, Qt, Signal
from PySide6.QtWidgets import QFileSystemModel, QHeaderView, QLabel, QMenu, QSizePolicy, QTreeView, QVBoxLayout, QWidget

from workbench.core.artefacts import Artefact, classify, context_actions
from workbench.core.project import Project
from workbench.ui import icons
from workbench.ui.elided import ElidedLabel
from workbench.ui.labels import action_label, artefact_label, project_type_label


class ArtefactFileModel(QFileSystemModel):
    """Column 0 gets an artefact icon, column 1 ("Type") the artefact's name; hidden files are
    shown except the project's own ``.ascend-workbench`` folder."""

    TYPE_COLUMN = 1

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self._cache: dict[str, tuple[float, Artefact | None]] = {}
        self.setReadOnly(True)
        self.setFilter(QDir.Filter.AllEntries | QDir.Filter.NoDotAndDotDot | QDir.Filter.AllDirs)
        self.setNameFilters([])

    def artefact(self, index: QModelIndex) -> Artefact | None:
        path = self.filePath(index)
        if not path:
            return None
        mtime = self.lastModified(index).toMSecsSinceEpoch()
        cached = self._cache.get(path)
        if cached is None or cached[0] != mtime:
            cached = (mtime, classify(Path(path)))
            self._cache[path] = cached
        return cached[1]

    def columnCount(self, parent=QModelIndex()) -> int:  # noqa: B008
        return 2

    def headerData(self, section, orientation, role=Qt.ItemDataRole.DisplayRole):
        if orientation == Qt.Orientation.Horizontal and role == Qt.ItemDataRole.DisplayRole:
            return self.tr("Name") if section == 0 else self.tr("Type")
        return super().headerData(section, orientation, role)

    def data(self, index, role=Qt.ItemDataRole.DisplayRole):
        if not index.isValid():
            return None
        if index.column() == self.TYPE_COLUMN:
            if role in (Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.ToolTipRole):  # elided when narrow
                kind = self.artefact(index.siblingAtColumn(0))
                if kind is not None:
                    return artefact_label(kind)
                return self.tr("Folder") if self.isDir(index.siblingAtColumn(0)) else ""
            return None
        if role == Qt.ItemDataRole.DecorationRole and index.column() == 0:
            kind = self.artefact(index)
            if kind is not None:
                try:
                    return icons.artefact_icon(kind)
                except KeyError:  # a kind without an icon of its own: the file system's
                    pass
        return super().data(index, role)


class _ExplorerTree(QTreeView):
    """The explorer's tree: the Name column takes the room, the Type column gets at most
    ``TYPE_SHARE`` of it (its text elides; the tooltip has it), so a name stays readable in a narrow
    dock."""

    TYPE_SHARE = 0.4

    def resizeEvent(self, event) -> None:  # noqa: N802 - Qt API
        super().resizeEvent(event)
        self.fit_columns()

    def type_width(self) -> int:
        """The width the Type column wants: its longest label (every kind and "Folder")."""
        fm = self.fontMetrics()
        texts = [artefact_label(a) for a in Artefact] + [QCoreApplication.translate("ArtefactFileModel", "Folder")]
        return max(fm.horizontalAdvance(t) for t in texts) + 2 * fm.averageCharWidth() + 8

    def fit_columns(self) -> None:
        if self.model() is None or self.model().columnCount() < 2:
            return
        room = self.viewport().width()
        self.setColumnWidth(ArtefactFileModel.TYPE_COLUMN, min(self.type_width(), int(room * self.TYPE_SHARE)))


class _MenuAction(QObject):
    """Emits the panel's request for one menu entry (a bound method, not a lambda holding widgets)."""

    def __init__(self, panel: ProjectExplorerPanel, action: str, path: str, parent: QObject) -> None:
        super().__init__(parent)
        self.panel, self.action, self.path = panel, action, path

    def trigger(self) -> None:
        if self.action:
            self.panel.action_requested.emit(self.action, self.path)
        else:
            self.panel.open_requested.emit(self.path)


class ProjectExplorerPanel(QWidget):
    open_requested = Signal(str)  # a path was double-clicked / activated, or Open in its menu
    action_requested = Signal(str, str)  # (core artefacts action id, path): an action of its context menu
    selection_changed = Signal(str)  # a path was selected ('' when none)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("ProjectExplorerPanel")
        self.header = QLabel(self)
        self.header.setWordWrap(True)
        self.header.setContentsMargins(6, 4, 6, 0)
        # a long unbreakable project name is cut (its tooltip has it), it never widens the dock
        self.header.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        self.root_label = ElidedLabel("", self)  # the project's folder: a long path never widens the dock
        self.root_label.setContentsMargins(6, 0, 6, 4)
        small = self.root_label.font()
        small.setPointSizeF(small.pointSizeF() * 0.85)
        self.root_label.setFont(small)
        self.model = ArtefactFileModel(self)
        self.view = _ExplorerTree(self)
        self.view.setModel(self.model)
        self.view.setUniformRowHeights(True)
        self.view.setSortingEnabled(True)
        self.view.sortByColumn(0, Qt.SortOrder.AscendingOrder)
        self._set_column_modes()
        self.view.activated.connect(lambda idx: self.open_requested.emit(self.model.filePath(idx.siblingAtColumn(0))))
        self.view.doubleClicked.connect(lambda idx: None)  # activation covers double-click
        self.view.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        self.view.customContextMenuRequested.connect(self._context_menu)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(0)
        layout.addWidget(self.header)
        layout.addWidget(self.root_label)
        layout.addWidget(self.view)
        self.project: Project | None = None
        self.set_project(None)

    def set_project(self, project: Project | None) -> None:
        self.project = project
        if project is None:
            self.header.setText(self.tr("No project open. Use File ▸ New Project or Open Project."))
            self.header.setToolTip("")
            self.root_label.hide()
            self.view.setModel(None)
            return
        self.header.setText(
            self.tr("<b>{0}</b> — {1}").format(html.escape(project.name), project_type_label(project.type))
        )
        self.header.setToolTip(project.name)
        self.root_label.setText(str(project.root))
        self.root_label.show()
        self.view.setModel(self.model)
        root = self.model.setRootPath(str(project.root))
        self.view.setRootIndex(root)
        self._set_column_modes()
        sel = self.view.selectionModel()
        sel.currentChanged.connect(
            lambda cur, _prev: self.selection_changed.emit(
                self.model.filePath(cur.siblingAtColumn(0)) if cur.isValid() else ""
            )
        )

    def _set_column_modes(self) -> None:
        """Name stretches over the room; Type is as wide as its labels but never most of it."""
        header = self.view.header()
        header.setStretchLastSection(False)
        header.setMinimumSectionSize(24)
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        header.setSectionResizeMode(ArtefactFileModel.TYPE_COLUMN, QHeaderView.ResizeMode.Interactive)
        self.view.fit_columns()

    def menu_for(self, path: str | Path) -> QMenu:
        """The context menu of ``path``: Open, then the actions its kind has in core's registry."""
        menu = QMenu(self)
        path = str(path)
        entries = [("", self.tr("Open"))] + [(a, action_label(a)) for a in context_actions(Path(path))]
        for action, text in entries:
            act = menu.addAction(text)
            act.setData(action or "open")
            act.triggered.connect(_MenuAction(self, action, path, act).trigger)
        return menu

    def _context_menu(self, pos: QPoint) -> None:
        index = self.view.indexAt(pos)
        if not index.isValid():
            return
        menu = self.menu_for(self.model.filePath(index.siblingAtColumn(0)))
        menu.aboutToHide.connect(menu.deleteLater)  # after its action ran (that comes after hiding)
        menu.popup(self.view.viewport().mapToGlobal(pos))

    def index_of(self, path: str | Path) -> QModelIndex:
        return self.model.index(str(path))

    def type_text(self, path: str | Path) -> str:
        """What the Type column shows for ``path`` (used by tests and the details dock)."""
        idx = self.model.index(str(path))
        return self.model.data(idx.siblingAtColumn(ArtefactFileModel.TYPE_COLUMN)) or ""
