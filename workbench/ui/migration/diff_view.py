"""The side-by-side diff of the Migration Report: the input file (left) beside the migrated file
(right), two read-only text views scrolled together, one block per aligned row of core
``migration.diff`` (a padding row is empty), changed rows tinted (replaced amber, inserted green on
the right, deleted red on the left) and the row the user opened outlined in blue on both sides."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QFont, QFontDatabase, QTextCharFormat, QTextCursor, QTextFormat
from PySide6.QtWidgets import QGridLayout, QLabel, QPlainTextEdit, QTextEdit, QVBoxLayout, QWidget

from workbench.core.migration.diff import DELETE, INSERT, REPLACE, FileDiff

TINTS = {REPLACE: "#fff1c2", INSERT: "#d8f5d8", DELETE: "#fbd9d9"}
CURRENT = "#9ec5fe"


def _number(n: int | None) -> str:
    return f"{n:>5}  " if n is not None else " " * 7


class DiffView(QWidget):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.diff: FileDiff | None = None
        self.current_row = -1
        self.title = QLabel(self)
        self.title.setWordWrap(True)
        self.left_label = QLabel(self)
        self.right_label = QLabel(self)
        for label in (self.left_label, self.right_label):
            label.setWordWrap(True)
            label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.left = self._text_view("migrationDiffInput")
        self.right = self._text_view("migrationDiffOutput")
        self._syncing = False
        for a, b in ((self.left, self.right), (self.right, self.left)):
            a.verticalScrollBar().valueChanged.connect(lambda v, other=b: self._sync(other, v, True))
            a.horizontalScrollBar().valueChanged.connect(lambda v, other=b: self._sync(other, v, False))
        sides = QGridLayout()  # labels in one row, views in the next: both views as high, rows level
        for col, (label, view) in enumerate(((self.left_label, self.left), (self.right_label, self.right))):
            sides.addWidget(label, 0, col, Qt.AlignmentFlag.AlignBottom)
            sides.addWidget(view, 1, col)
            sides.setColumnStretch(col, 1)
        sides.setRowStretch(1, 1)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.title)
        layout.addLayout(sides, 1)
        self.title.setText(self.tr("Double-click a row of the tables to compare the input file with the migrated one."))

    def _text_view(self, name: str) -> QPlainTextEdit:
        view = QPlainTextEdit(self)
        view.setObjectName(name)
        view.setReadOnly(True)
        view.setLineWrapMode(QPlainTextEdit.LineWrapMode.NoWrap)
        font = QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont)
        font.setStyleHint(QFont.StyleHint.Monospace)
        view.setFont(font)
        view.setTextInteractionFlags(
            Qt.TextInteractionFlag.TextSelectableByMouse | Qt.TextInteractionFlag.TextSelectableByKeyboard
        )
        return view

    def _sync(self, other: QPlainTextEdit, value: int, vertical: bool) -> None:
        if self._syncing:
            return
        self._syncing = True
        try:
            (other.verticalScrollBar() if vertical else other.horizontalScrollBar()).setValue(value)
        finally:
            self._syncing = False

    def show_diff(self, diff: FileDiff, title: str, line: int, side: str) -> None:
        """Show ``diff`` and scroll both sides to ``line`` of ``side`` ("left": input, "right": migrated)."""
        self.diff = diff
        self.title.setText(title)
        missing = set(diff.missing)
        for label, path, caption in (
            (self.left_label, diff.input_path, self.tr("Input (GPU)")),
            (self.right_label, diff.output_path, self.tr("Migrated (NPU)")),
        ):
            if path in missing:
                label.setText(self.tr("{0}: {1} — not found").format(caption, path))
            else:
                label.setText(f"{caption}: {path}")
        self.left.setPlainText("\n".join(_number(r.left) + r.left_text for r in diff.rows))
        self.right.setPlainText("\n".join(_number(r.right) + r.right_text for r in diff.rows))
        self.current_row = diff.row_of(line, side)
        self._highlight()
        for view in (self.left, self.right):
            block = view.document().findBlockByNumber(self.current_row)
            view.setTextCursor(QTextCursor(block))
            view.centerCursor()

    def _highlight(self) -> None:
        assert self.diff is not None
        for view, side in ((self.left, "left"), (self.right, "right")):
            selections = []
            for i, row in enumerate(self.diff.rows):
                if i == self.current_row:
                    color = CURRENT
                elif (
                    not row.changed or (side == "left" and row.tag == INSERT) or (side == "right" and row.tag == DELETE)
                ):
                    continue
                else:
                    color = TINTS[row.tag]
                sel = QTextEdit.ExtraSelection()
                fmt = QTextCharFormat()
                fmt.setBackground(QColor(color))
                fmt.setProperty(QTextFormat.Property.FullWidthSelection, True)
                sel.format = fmt
                cursor = QTextCursor(view.document().findBlockByNumber(i))
                sel.cursor = cursor
                selections.append(sel)
            view.setExtraSelections(selections)

    def highlighted(self, side: str) -> dict[int, str]:
        """Block number -> background colour of what is highlighted on ``side`` (what the user sees tinted)."""
        view = self.left if side == "left" else self.right
        return {s.cursor.blockNumber(): s.format.background().color().name() for s in view.extraSelections()}

    def block_text(self, side: str, row: int) -> str:
        view = self.left if side == "left" else self.right
        return view.document().findBlockByNumber(row).text()
