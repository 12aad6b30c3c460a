"""Properties/Details dock: a two-column property list for the current selection.

Anything can show details by calling ``show_properties(title, [(name, value), …])``; the project
explorer shows a file's kind, size and modification time here. A row may carry an action as a
third element, ``(name, value, (label, callback))`` — e.g. a slice's name row lists every
occurrence of that name: the row's context menu and a double-click run it.

The rows can be selected (click, Shift/Ctrl+click, Ctrl+A); Ctrl+C and the context menu copy the
selected values, one per line.
"""

from __future__ import annotations

import html
from collections.abc import Callable

from PySide6.QtCore import QPoint, Qt
from PySide6.QtGui import QGuiApplication, QKeySequence
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHeaderView,
    QLabel,
    QMenu,
    QSizePolicy,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from workbench.ui.clipboard import CopyKey

ACTION_ROLE = Qt.ItemDataRole.UserRole + 1


class DetailsPanel(QWidget):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("DetailsPanel")
        self.title = QLabel(self)
        self.title.setWordWrap(True)
        self.title.setContentsMargins(6, 4, 6, 4)
        self.title.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        # a long unbreakable name (a PROF_… folder) is cut, never widening the dock; the tooltip has it
        self.title.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        self.tree = QTreeWidget(self)
        self.tree.setHeaderLabels([self.tr("Property"), self.tr("Value")])
        self.tree.setRootIsDecorated(False)
        self.tree.setAlternatingRowColors(True)
        self.tree.setSelectionMode(QAbstractItemView.SelectionMode.ExtendedSelection)
        # the names' column fits its names, up to half the width: a long attribute name never pushes
        # the values out of sight (its full text is the tooltip); the user may still drag it
        self.tree.header().setSectionResizeMode(0, QHeaderView.ResizeMode.Interactive)
        self.tree.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        self.tree.customContextMenuRequested.connect(self._menu)
        self.tree.itemDoubleClicked.connect(lambda item, _col: self._run_action(item))
        CopyKey(self.tree, self.copy_selection)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.title)
        layout.addWidget(self.tree)
        self._actions: list[tuple[str, Callable[[], object]] | None] = []
        self.clear()

    def clear(self) -> None:
        self.title.setText(self.tr("Nothing selected"))
        self.title.setToolTip("")
        self.tree.clear()
        self._actions = []

    def show_properties(self, title: str, rows) -> None:
        self.title.setText(f"<b>{html.escape(title)}</b>")
        self.title.setToolTip(title)
        self.tree.clear()
        self._actions = []
        for row in rows:
            name, value = row[0], row[1]
            action = row[2] if len(row) > 2 else None
            item = QTreeWidgetItem([name, value])
            item.setToolTip(1, value)
            if action is not None:
                item.setData(0, ACTION_ROLE, len(self._actions))
                item.setToolTip(0, self.tr("Double-click or right-click: {0}").format(action[0]))
            else:
                item.setToolTip(0, name)
            self._actions.append(action)
            self.tree.addTopLevelItem(item)
        self._fit_names()

    def _fit_names(self) -> None:
        wanted = self.tree.sizeHintForColumn(0) + 16
        self.tree.header().resizeSection(0, max(60, min(wanted, self.tree.viewport().width() // 2)))

    def resizeEvent(self, event) -> None:  # noqa: ANN001 - QResizeEvent
        super().resizeEvent(event)
        self._fit_names()

    def properties(self) -> dict[str, str]:
        return {
            self.tree.topLevelItem(i).text(0): self.tree.topLevelItem(i).text(1)
            for i in range(self.tree.topLevelItemCount())
        }

    def copy_selection(self) -> str:
        """The values of the selected rows, one per line, on the clipboard."""
        items = sorted(self.tree.selectedItems(), key=self.tree.indexOfTopLevelItem)
        text = "\n".join(item.text(1) for item in items)
        if items:
            QGuiApplication.clipboard().setText(text)
        return text

    def _action_of(self, item: QTreeWidgetItem | None) -> tuple[str, Callable[[], object]] | None:
        slot = item.data(0, ACTION_ROLE) if item is not None else None
        return self._actions[slot] if isinstance(slot, int) and 0 <= slot < len(self._actions) else None

    def _run_action(self, item: QTreeWidgetItem | None) -> None:
        action = self._action_of(item)
        if action is None:
            return
        try:
            action[1]()
        except RuntimeError:  # the document that offered it was closed
            self.clear()

    def _menu(self, pos: QPoint) -> None:
        item = self.tree.itemAt(pos)
        if item is not None and not item.isSelected():
            self.tree.setCurrentItem(item)
        menu = QMenu(self)
        copy = menu.addAction(self.tr("Copy Value"), self.copy_selection)
        copy.setShortcut(QKeySequence.StandardKey.Copy)
        copy.setEnabled(bool(self.tree.selectedItems()))
        action = self._action_of(item)
        if action is not None:
            menu.addAction(action[0], lambda: self._run_action(item))
        menu.exec(self.tree.viewport().mapToGlobal(pos))
