"""The offline model's op tree for the Dump Configuration: search, multi-select, tick ops to dump.

One top-level item per graph, its ops below in model order (name, type, output shapes). Ops the
runtime never dumps (Data, Const, NetOutput…) are greyed and cannot be ticked. Ticking is enabled
only for Dump Option "Several"; right-click Enable Dump / Disable Dump ticks or unticks every
selected op at once; Show in Graph (``graph_requested``) names the op under the cursor.
"""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QAction
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QMenu,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from workbench.core.dump.omjson import OmModel

NAME_ROLE = Qt.ItemDataRole.UserRole


class OpTree(QWidget):
    """Search box + tree of ops with check boxes; ``checked_changed`` fires after each (un)tick."""

    checked_changed = Signal()
    graph_requested = Signal(str)  # an op's context menu ▸ Show in Graph: its name

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.model: OmModel | None = None
        self._items: dict[str, QTreeWidgetItem] = {}
        self._checkable = False
        self._bulk = False
        self._popup: QMenu | None = None
        self.search = QLineEdit(self)
        self.search.setPlaceholderText(self.tr("Search ops by name or type"))
        self.search.setClearButtonEnabled(True)
        self.search.textChanged.connect(self.filter)
        self.count = QLabel(self)
        self.tree = QTreeWidget(self)
        self.tree.setHeaderLabels([self.tr("Op"), self.tr("Type"), self.tr("Output shape")])
        self.tree.setSelectionMode(QAbstractItemView.SelectionMode.ExtendedSelection)
        self.tree.setUniformRowHeights(True)
        self.tree.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        self.tree.customContextMenuRequested.connect(self._context_menu)
        self.tree.itemChanged.connect(self._item_changed)
        self.act_enable = QAction(self.tr("Enable Dump"), self)
        self.act_enable.triggered.connect(self.enable_selected)
        self.act_disable = QAction(self.tr("Disable Dump"), self)
        self.act_disable.triggered.connect(self.disable_selected)
        top = QHBoxLayout()
        top.addWidget(self.search, 1)
        top.addWidget(self.count)
        lay = QVBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.addLayout(top)
        lay.addWidget(self.tree, 1)

    # ----- content
    def set_model(self, model: OmModel | None, checked: list[str] | tuple[str, ...] = ()) -> None:
        self._bulk = True
        self.tree.clear()
        self._items.clear()
        self.model = model
        if model is not None:
            graphs: dict[str, QTreeWidgetItem] = {}
            wanted = set(checked)
            for op in model.ops:
                parent = graphs.get(op.graph)
                if parent is None:
                    parent = graphs[op.graph] = QTreeWidgetItem(self.tree, [op.graph, self.tr("graph"), ""])
                    parent.setFlags(Qt.ItemFlag.ItemIsEnabled)
                shapes = "; ".join("[" + ",".join(map(str, d.shape)) + "]" for d in op.output_descs)
                item = QTreeWidgetItem(parent, [op.name, op.type, shapes])
                item.setData(0, NAME_ROLE, op.name)
                item.setToolTip(0, op.name)
                if not op.dumped:
                    item.setFlags(Qt.ItemFlag.ItemIsEnabled)
                    item.setDisabled(True)
                    item.setToolTip(
                        0, self.tr("{0}: {1} ops have no kernel and are not dumped").format(op.name, op.type)
                    )
                else:
                    item.setCheckState(0, Qt.CheckState.Checked if op.name in wanted else Qt.CheckState.Unchecked)
                self._items[op.name] = item
            self.tree.expandAll()
            for col in (1, 2):
                self.tree.resizeColumnToContents(col)
            self.tree.setColumnWidth(0, max(200, min(340, self.tree.sizeHintForColumn(0) + 30)))
        self._bulk = False
        self.set_checkable(self._checkable)
        self.filter(self.search.text())

    def set_checkable(self, on: bool) -> None:
        """Ticking is possible only with Dump Option "Several"."""
        self._checkable = on
        self.act_enable.setEnabled(on)
        self.act_disable.setEnabled(on)
        self._bulk = True
        for name, item in self._items.items():
            if self.model is not None and self.model.op(name).dumped:
                flags = Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable
                if on:
                    flags |= Qt.ItemFlag.ItemIsUserCheckable
                item.setFlags(flags)
        self._bulk = False

    def filter(self, text: str) -> None:
        needle = text.strip().lower()
        shown = 0
        for name, item in self._items.items():
            hit = not needle or needle in name.lower() or needle in item.text(1).lower()
            item.setHidden(not hit)
            shown += hit
        self.count.setText(self.tr("{0} of {1} ops").format(shown, len(self._items)))

    # ----- ticks
    def names(self) -> list[str]:
        """The ops that can be ticked (the runtime dumps them), in model order."""
        return [n for n, it in self._items.items() if it.flags() & Qt.ItemFlag.ItemIsSelectable]

    def checked(self) -> list[str]:
        """Ticked op names in model order."""
        return [
            n
            for n, it in self._items.items()
            if it.flags() & Qt.ItemFlag.ItemIsSelectable and it.checkState(0) == Qt.CheckState.Checked
        ]

    def set_checked(self, names: list[str] | tuple[str, ...], on: bool = True) -> None:
        self._bulk = True
        state = Qt.CheckState.Checked if on else Qt.CheckState.Unchecked
        for n in names:
            item = self._items.get(n)
            if item is not None and item.flags() & Qt.ItemFlag.ItemIsSelectable:
                item.setCheckState(0, state)
        self._bulk = False
        self.checked_changed.emit()

    def select(self, names: list[str]) -> None:
        self.tree.clearSelection()
        for n in names:
            if n in self._items:
                self._items[n].setSelected(True)

    def selected_ops(self) -> list[str]:
        return [it.data(0, NAME_ROLE) for it in self.tree.selectedItems() if it.data(0, NAME_ROLE)]

    def enable_selected(self) -> None:
        if self._checkable:
            self.set_checked(self.selected_ops(), True)

    def disable_selected(self) -> None:
        if self._checkable:
            self.set_checked(self.selected_ops(), False)

    def _item_changed(self, _item: QTreeWidgetItem, column: int) -> None:
        if column == 0 and not self._bulk:
            self.checked_changed.emit()

    def _context_menu(self, pos) -> None:
        if self._popup is not None:  # the last one (closed by now): one menu kept, not one per right-click
            self._popup.deleteLater()
        menu = self._popup = QMenu(self)
        menu.addAction(self.act_enable)
        menu.addAction(self.act_disable)
        if not self._checkable:
            menu.addSection(self.tr('Choose Dump Option "Several" to pick ops'))
        item = self.tree.itemAt(pos)
        name = item.data(0, NAME_ROLE) if item is not None else None
        if name:  # an op's row (any op, dumped or not): where it is in the model graph
            menu.addSeparator()
            show = menu.addAction(self.tr("Show in Graph"))
            show.setToolTip(self.tr("Centre and select {0} in the model graph").format(name))
            show.triggered.connect(lambda: self.graph_requested.emit(name))
        menu.popup(self.tree.viewport().mapToGlobal(pos))
