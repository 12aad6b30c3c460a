"""Properties/Details dock: a two-column property list for the current selection.

Anything can show details by calling ``show_properties(title, [(name, value), …])``; the project
explorer shows a file's kind, size and modification time here.
"""

from __future__ import annotations

from PySide6.QtWidgets import QHeaderView, QLabel, QTreeWidget, QTreeWidgetItem, QVBoxLayout, QWidget


class DetailsPanel(QWidget):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("DetailsPanel")
        self.title = QLabel(self)
        self.title.setWordWrap(True)
        self.title.setContentsMargins(6, 4, 6, 4)
        self.tree = QTreeWidget(self)
        self.tree.setHeaderLabels([self.tr("Property"), self.tr("Value")])
        self.tree.setRootIsDecorated(False)
        self.tree.setAlternatingRowColors(True)
        self.tree.header().setSectionResizeMode(0, QHeaderView.ResizeMode.ResizeToContents)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.title)
        layout.addWidget(self.tree)
        self.clear()

    def clear(self) -> None:
        self.title.setText(self.tr("Nothing selected"))
        self.tree.clear()

    def show_properties(self, title: str, rows: list[tuple[str, str]]) -> None:
        self.title.setText(f"<b>{title}</b>")
        self.tree.clear()
        for name, value in rows:
            item = QTreeWidgetItem([name, value])
            item.setToolTip(1, value)
            self.tree.addTopLevelItem(item)

    def properties(self) -> dict[str, str]:
        return {
            self.tree.topLevelItem(i).text(0): self.tree.topLevelItem(i).text(1)
            for i in range(self.tree.topLevelItemCount())
        }
