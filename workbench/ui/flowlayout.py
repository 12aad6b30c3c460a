"""A layout that puts its widgets in a row and wraps them onto more rows when the row is narrower
than they are, so a bar of controls never makes a document (and the main window) wider: its
minimum width is that of its widest item. ``trailing``: that many last items sit at the right end
of their row (a toolbar's trailing group after a stretch)."""

from __future__ import annotations

from PySide6.QtCore import QMargins, QPoint, QRect, QSize, Qt
from PySide6.QtWidgets import QLayout, QLayoutItem, QSizePolicy, QWidget, QWidgetItem


class FlowLayout(QLayout):
    def __init__(self, parent: QWidget | None = None, spacing: int = 6, *, trailing: int = 0) -> None:
        super().__init__(parent)
        self._items: list[QLayoutItem] = []
        self._spacing = spacing
        self.trailing = trailing
        self.setContentsMargins(QMargins(0, 0, 0, 0))

    # --- QLayout -------------------------------------------------------------------------------
    def addItem(self, item: QLayoutItem) -> None:  # noqa: N802 - Qt API
        self._items.append(item)

    def addWidget(self, widget: QWidget) -> None:  # noqa: N802 - Qt API
        self.addChildWidget(widget)
        self.addItem(QWidgetItem(widget))

    def count(self) -> int:
        return len(self._items)

    def itemAt(self, index: int) -> QLayoutItem | None:  # noqa: N802 - Qt API
        return self._items[index] if 0 <= index < len(self._items) else None

    def takeAt(self, index: int) -> QLayoutItem | None:  # noqa: N802 - Qt API
        return self._items.pop(index) if 0 <= index < len(self._items) else None

    def expandingDirections(self) -> Qt.Orientation:  # noqa: N802 - Qt API
        return Qt.Orientation(0)

    def hasHeightForWidth(self) -> bool:  # noqa: N802 - Qt API
        return True

    def heightForWidth(self, width: int) -> int:  # noqa: N802 - Qt API
        return self._place(QRect(0, 0, width, 0), apply=False)

    def setGeometry(self, rect: QRect) -> None:  # noqa: N802 - Qt API
        super().setGeometry(rect)
        self._place(rect, apply=True)

    def sizeHint(self) -> QSize:  # noqa: N802 - Qt API
        """All on one row."""
        shown = self._shown()
        width = sum(i.sizeHint().width() for i in shown) + self._spacing * max(0, len(shown) - 1)
        height = max((i.sizeHint().height() for i in shown), default=0)
        m = self.contentsMargins()
        return QSize(width + m.left() + m.right(), height + m.top() + m.bottom())

    def minimumSize(self) -> QSize:  # noqa: N802 - Qt API
        """The widest item (the others wrap onto more rows)."""
        size = QSize()
        for item in self._shown():
            size = size.expandedTo(item.minimumSize())
        m = self.contentsMargins()
        return size + QSize(m.left() + m.right(), m.top() + m.bottom())

    # --- placing ---------------------------------------------------------------------------------
    def _shown(self) -> list[QLayoutItem]:
        return [i for i in self._items if not i.isEmpty()]

    def _place(self, rect: QRect, apply: bool) -> int:
        """Lay the items out in ``rect`` row by row (when ``apply``); the height used."""
        m = self.contentsMargins()
        area = rect.adjusted(m.left(), m.top(), -m.right(), -m.bottom())
        shown = self._shown()
        first_trailing = len(shown) - self.trailing if self.trailing else len(shown)
        order = {id(item): k for k, item in enumerate(shown)}
        rows: list[list[tuple[QLayoutItem, QSize]]] = [[]]
        x = 0
        for item in shown:
            hint = item.sizeHint().boundedTo(QSize(area.width(), 1 << 20)).expandedTo(item.minimumSize())
            if rows[-1] and x + hint.width() > area.width():
                rows.append([])
                x = 0
            rows[-1].append((item, hint))
            x += hint.width() + self._spacing
        y = area.y()
        for n, row in enumerate(rows):
            height = max((h.height() for _i, h in row), default=0)
            if apply:
                x = area.x()
                right = [h.width() for i, h in row if order[id(i)] >= first_trailing]
                right_x = area.right() + 1 - sum(right) - self._spacing * max(0, len(right) - 1)
                for item, hint in row:
                    if order[id(item)] >= first_trailing:
                        x = max(x, right_x)
                    item.setGeometry(QRect(QPoint(x, y + (height - hint.height()) // 2), hint))
                    x += hint.width() + self._spacing
            y += height + (self._spacing if n < len(rows) - 1 else 0)
        return y - rect.y() + m.bottom()


def flow_widget(parent: QWidget, widgets: list[QWidget], *, trailing: int = 0, spacing: int = 6) -> QWidget:
    """A widget holding ``widgets`` in a :class:`FlowLayout` (its height follows its width)."""
    box = QWidget(parent)
    layout = FlowLayout(box, spacing, trailing=trailing)
    for w in widgets:
        layout.addWidget(w)
    policy = QSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Preferred)
    policy.setHeightForWidth(True)
    box.setSizePolicy(policy)
    return box
