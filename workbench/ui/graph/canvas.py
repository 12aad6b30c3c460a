"""The graph canvas: a QGraphicsView holding ONE item that paints only what meets the exposed
rectangle (:class:`~workbench.ui.graph.scene.SceneData` finds it with its spatial index), and the
minimap beside it.

Wheel: zoom at the cursor. Drag: pan. Click: select (Shift+click: the path from the selection).
Double-click: expand a collapsed group. Right-click: the node's menu (the document fills it).
"""

from __future__ import annotations

import numpy as np
from PySide6.QtCore import QPoint, QPointF, QRectF, QSize, Qt, Signal
from PySide6.QtGui import QColor, QMouseEvent, QPainter, QPen, QWheelEvent
from PySide6.QtWidgets import (
    QGraphicsItem,
    QGraphicsScene,
    QGraphicsView,
    QStyleOptionGraphicsItem,
    QWidget,
)

from workbench.ui.graph.scene import Highlight, SceneData

MAX_SCALE = 4.0
CLICK_SLOP = 4  # pixels a press may move and still be a click


class GraphItem(QGraphicsItem):
    """The whole graph as one item; paints only the exposed part."""

    def __init__(self, data: SceneData) -> None:
        super().__init__()
        self.scene_data = data
        self.highlight = Highlight()
        self.setFlag(QGraphicsItem.GraphicsItemFlag.ItemUsesExtendedStyleOption, True)

    def boundingRect(self) -> QRectF:  # noqa: N802 - Qt's name
        return self.scene_data.bounds

    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem, widget: QWidget | None = None) -> None:
        scale = painter.worldTransform().m11()
        self.scene_data.paint(painter, option.exposedRect, scale, self.highlight)  # type: ignore[attr-defined]


class GraphCanvas(QGraphicsView):
    item_clicked = Signal(int, int)  # item position (-1: none), the Qt.KeyboardModifier flags' value
    item_double_clicked = Signal(int)
    item_menu = Signal(int, QPoint)  # item position (-1: none), global position
    view_changed = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("graphCanvas")
        self.setScene(QGraphicsScene(self))
        self.scene().setItemIndexMethod(QGraphicsScene.ItemIndexMethod.NoIndex)
        self.setBackgroundBrush(QColor("white"))
        self.setRenderHint(QPainter.RenderHint.Antialiasing, False)
        self.setViewportUpdateMode(QGraphicsView.ViewportUpdateMode.FullViewportUpdate)
        self.setTransformationAnchor(QGraphicsView.ViewportAnchor.AnchorViewCenter)
        self.setResizeAnchor(QGraphicsView.ViewportAnchor.AnchorViewCenter)
        self.setDragMode(QGraphicsView.DragMode.ScrollHandDrag)
        # no scroll bars: drag, wheel and the minimap move the view (and a fit really fits)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.setOptimizationFlag(QGraphicsView.OptimizationFlag.DontSavePainterState, True)
        self.item: GraphItem | None = None
        self._press: QPoint | None = None
        self.horizontalScrollBar().valueChanged.connect(lambda _v: self.view_changed.emit())
        self.verticalScrollBar().valueChanged.connect(lambda _v: self.view_changed.emit())

    # --- content ----------------------------------------------------------------------------------
    def set_data(self, data: SceneData) -> None:
        self.scene().clear()
        self.item = GraphItem(data)
        self.scene().addItem(self.item)
        self.scene().setSceneRect(data.bounds)
        self.view_changed.emit()

    @property
    def data(self) -> SceneData | None:
        return self.item.scene_data if self.item is not None else None

    def set_highlight(self, highlight: Highlight) -> None:
        if self.item is not None:
            self.item.highlight = highlight
            self.item.update()
            self.viewport().update()

    # --- view ---------------------------------------------------------------------------------------
    def scale_now(self) -> float:
        return self.transform().m11()

    def min_scale(self) -> float:
        data = self.data
        if data is None:
            return 1.0
        vp = self.viewport().size()
        fit = min(vp.width() / max(data.bounds.width(), 1.0), vp.height() / max(data.bounds.height(), 1.0))
        return min(fit, 1.0) * 0.5

    def set_scale(self, scale: float) -> None:
        scale = max(self.min_scale(), min(MAX_SCALE, scale))
        self.setTransform(self.transform().fromScale(scale, scale))
        self.view_changed.emit()

    def zoom(self, factor: float) -> None:
        self.set_scale(self.scale_now() * factor)

    def fit(self) -> None:
        """The whole graph in the window (no closer than 1:1)."""
        data = self.data
        if data is None:
            return
        vp = self.viewport().size()
        scale = min(vp.width() / max(data.bounds.width(), 1.0), vp.height() / max(data.bounds.height(), 1.0), 1.0)
        self.set_scale(scale * 0.98)
        self.centerOn(data.bounds.center())
        self.view_changed.emit()

    def visible_rect(self) -> QRectF:
        return self.mapToScene(self.viewport().rect()).boundingRect()

    def centre_on_item(self, k: int, *, min_scale: float = 0.8) -> None:
        """``k`` in the middle of the window, zoomed in enough to read it."""
        data = self.data
        if data is None:
            return
        if self.scale_now() < min_scale:
            self.set_scale(min_scale)
        self.centerOn(data.centre(k))
        self.view_changed.emit()

    def item_at_view(self, pos: QPoint) -> int | None:
        data = self.data
        if data is None:
            return None
        p = self.mapToScene(pos)
        return data.item_at(p.x(), p.y())

    def view_pos_of(self, k: int) -> QPoint:
        """Where item ``k``'s centre is on the viewport."""
        assert self.data is not None
        return self.mapFromScene(self.data.centre(k))

    # --- input --------------------------------------------------------------------------------------
    def wheelEvent(self, event: QWheelEvent) -> None:  # noqa: N802 - Qt's name
        delta = event.angleDelta().y()
        if delta == 0:
            return
        self.zoom_at(1.0015**delta, event.position().toPoint())
        event.accept()

    def zoom_at(self, factor: float, pos: QPoint) -> None:
        """Zoom by ``factor`` keeping the scene point under the viewport position ``pos`` there."""
        before = self.mapToScene(pos)
        self.set_scale(self.scale_now() * factor)
        after = self.mapToScene(pos)
        centre = self.mapToScene(self.viewport().rect().center())
        self.centerOn(centre + (before - after))
        self.view_changed.emit()

    def mousePressEvent(self, event: QMouseEvent) -> None:  # noqa: N802 - Qt's name
        if event.button() == Qt.MouseButton.LeftButton:
            self._press = event.position().toPoint()
        super().mousePressEvent(event)

    def mouseReleaseEvent(self, event: QMouseEvent) -> None:  # noqa: N802 - Qt's name
        super().mouseReleaseEvent(event)
        if event.button() != Qt.MouseButton.LeftButton or self._press is None:
            return
        pos = event.position().toPoint()
        moved = (pos - self._press).manhattanLength()
        self._press = None
        if moved <= CLICK_SLOP:
            k = self.item_at_view(pos)
            self.item_clicked.emit(-1 if k is None else k, event.modifiers().value)

    def mouseDoubleClickEvent(self, event: QMouseEvent) -> None:  # noqa: N802 - Qt's name
        if event.button() == Qt.MouseButton.LeftButton:
            k = self.item_at_view(event.position().toPoint())
            if k is not None:
                self.item_double_clicked.emit(k)
                event.accept()
                return
        super().mouseDoubleClickEvent(event)

    def contextMenuEvent(self, event) -> None:  # noqa: N802 - Qt's name
        k = self.item_at_view(event.pos())
        self.item_menu.emit(-1 if k is None else k, event.globalPos())
        event.accept()

    def scrollContentsBy(self, dx: int, dy: int) -> None:  # noqa: N802 - Qt's name
        super().scrollContentsBy(dx, dy)
        self.view_changed.emit()

    def resizeEvent(self, event) -> None:  # noqa: N802 - Qt's name
        super().resizeEvent(event)
        self.view_changed.emit()


MIN_FILL = 1 / 6  # a very long graph fills at least this much of the minimap across


class Minimap(QWidget):
    """The whole graph small (its overview image) with the canvas's visible rectangle; a click or a
    drag in it centres the canvas there."""

    def __init__(self, canvas: GraphCanvas, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("graphMinimap")
        self.canvas = canvas
        self.setFixedSize(QSize(180, 180))
        self.setCursor(Qt.CursorShape.PointingHandCursor)
        canvas.view_changed.connect(self.update)
        self.setToolTip(self.tr("Overview: click or drag to move the view"))

    def _frame(self) -> tuple[QRectF, float, QRectF] | None:
        """Where the minimap's part of the graph is drawn in the widget, its scale (pixels per scene
        unit) and that part (scene units). The whole graph where it fits legibly; a graph far taller
        (or wider) than the minimap — a long chain of layers — fills at least :data:`MIN_FILL` of
        the minimap across, and the minimap shows the stretch around the view (it scrolls with it)."""
        data = self.canvas.data
        if data is None:
            return None
        b = data.bounds
        bw, bh = max(b.width(), 1.0), max(b.height(), 1.0)
        room_w, room_h = self.width() - 4.0, self.height() - 4.0
        fit = min(room_w / bw, room_h / bh)
        cover = max(room_w / bw, room_h / bh)
        s = min(cover, max(fit, cover * MIN_FILL))
        part_w, part_h = min(bw, room_w / s), min(bh, room_h / s)
        centre = self.canvas.visible_rect().center()
        left = min(max(centre.x() - part_w / 2, b.left()), b.right() - part_w)
        top = min(max(centre.y() - part_h / 2, b.top()), b.bottom() - part_h)
        part = QRectF(left, top, part_w, part_h)
        w, h = part_w * s, part_h * s
        return QRectF((self.width() - w) / 2, (self.height() - h) / 2, w, h), s, part

    def scene_point(self, pos: QPointF) -> QPointF | None:
        frame = self._frame()
        if frame is None:
            return None
        rect, s, part = frame
        return QPointF(part.left() + (pos.x() - rect.left()) / s, part.top() + (pos.y() - rect.top()) / s)

    def widget_point(self, scene: QPointF) -> QPointF | None:
        frame = self._frame()
        if frame is None:
            return None
        rect, s, part = frame
        return QPointF(rect.left() + (scene.x() - part.left()) * s, rect.top() + (scene.y() - part.top()) * s)

    def paintEvent(self, _event) -> None:  # noqa: N802 - Qt's name
        painter = QPainter(self)
        painter.fillRect(self.rect(), QColor("#f4f4f4"))
        frame = self._frame()
        data = self.canvas.data
        if frame is not None and data is not None:
            rect, s, part = frame
            painter.setRenderHint(QPainter.RenderHint.SmoothPixmapTransform, True)
            b = data.bounds
            if part == b or data.overview is None:
                if data.overview is not None:
                    painter.drawImage(rect, data.overview)
            else:  # a stretch of the graph: drawn from the scene itself, clipped to it
                painter.save()
                painter.setClipRect(rect)
                painter.translate(rect.left() - part.left() * s, rect.top() - part.top() * s)
                painter.scale(s, s)
                data.paint(painter, part, s)
                painter.restore()
            view = self.canvas.visible_rect()
            r = QRectF(
                rect.left() + (view.left() - part.left()) * s,
                rect.top() + (view.top() - part.top()) * s,
                max(view.width() * s, 3.0),
                max(view.height() * s, 3.0),
            )
            painter.setPen(QPen(QColor("#d62728"), 1.5))
            painter.drawRect(r.intersected(QRectF(self.rect()).adjusted(0, 0, -1, -1)))
        painter.setPen(QColor("#a0a0a0"))
        painter.drawRect(self.rect().adjusted(0, 0, -1, -1))
        painter.end()

    def _move(self, event: QMouseEvent) -> None:
        p = self.scene_point(event.position())
        if p is not None:
            self.canvas.centerOn(p)
            self.canvas.view_changed.emit()

    def mousePressEvent(self, event: QMouseEvent) -> None:  # noqa: N802 - Qt's name
        if event.button() == Qt.MouseButton.LeftButton:
            self._move(event)

    def mouseMoveEvent(self, event: QMouseEvent) -> None:  # noqa: N802 - Qt's name
        if event.buttons() & Qt.MouseButton.LeftButton:
            self._move(event)


def item_edges(data: SceneData, items: np.ndarray) -> np.ndarray:
    """The layout edges into or out of any of ``items``."""
    if not len(items):
        return np.zeros(0, np.int64)
    return np.flatnonzero(np.isin(data.edge_src, items) | np.isin(data.edge_dst, items))


def path_edges(data: SceneData, path_items: list[int]) -> np.ndarray:
    """The layout edges joining consecutive items of a path."""
    if len(path_items) < 2:
        return np.zeros(0, np.int64)
    n = max(data.n, 1)
    want = np.array([a * n + b for a, b in zip(path_items, path_items[1:])], dtype=np.int64)
    key = data.edge_src * n + data.edge_dst
    return np.flatnonzero(np.isin(key, want))
