"""What the graph canvas draws, prepared once per layout (off the GUI thread) and painted per frame.

:class:`SceneData` holds a layout as flat numpy arrays: the item boxes (sorted by their centre's y
for a spatial look-up: the rows of a layered layout), their colour categories and labels, and the
edges cut into straight segments with their bounding boxes. :func:`paint` draws the part of it that
meets a rectangle at the painter's scale, with level of detail:

- far (more than :data:`VECTOR_MAX` boxes in the window, or a zoom at which the overview is sharp):
  the pre-rendered overview image, scaled (one ``drawImage`` whatever the size of the graph);
- middle: boxes filled by category (one ``drawRects`` per category, from numpy through pyqtgraph's
  primitive arrays) and the edges as lines (one ``drawLines``);
- near (a box at least :data:`TEXT_PX` tall): also the op type, the name and the first output's shape.

The highlights (selection, its edges, a path, search hits) are drawn over any of them.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
from pyqtgraph.Qt.internals import PrimitiveArray
from PySide6.QtCore import QT_TRANSLATE_NOOP, QCoreApplication, QLineF, QPointF, QRectF, Qt
from PySide6.QtGui import QBrush, QColor, QFont, QFontMetricsF, QImage, QPainter, QPen, QStaticText

from workbench.core.graph.layout import LINE_H, group_label, short_name
from workbench.core.graph.model import Graph, Layout
from workbench.ui.graph.style import CATEGORIES, GROUP, category

OVERVIEW_MAX = 4096  # the overview image's longest side, pixels
VECTOR_MAX = 8000  # more boxes than this in the window: the overview image is drawn (also where it is sharp)
OUTLINE_PX = 24.0  # from this box width on screen the boxes get an outline (a pen costs as much as the fill)
MAX_SEGMENTS = 1500  # more edge segments than this in the window (vector mode): the edges are not drawn
TEXT_PX = 24.0  # from this box height on screen the labels are drawn (a ~8 px font)
MARGIN = 40.0  # layout units around the graph

GROUP_KINDS = {
    "scope": QT_TRANSLATE_NOOP("GraphGroup", "scope"),
    "function": QT_TRANSLATE_NOOP("GraphGroup", "function"),
    "graph": QT_TRANSLATE_NOOP("GraphGroup", "subgraph"),
}


def group_size_text(kind: str, count: int) -> str:
    """A collapsed group's second line, translated: "scope · 13 nodes"."""
    label = QCoreApplication.translate("GraphGroup", str(GROUP_KINDS.get(kind, kind)))
    return QCoreApplication.translate("GraphGroup", "{0} · {1} nodes").format(label, count)


SELECT_COLOUR = QColor("#ff8c00")
PATH_COLOUR = QColor("#d62728")
HIT_COLOUR = QColor("#1f77b4")
EDGE_COLOUR = QColor("#9a9a9a")


def shape_text(shape: list[int] | None) -> str:
    if shape is None:
        return "?"
    return "[" + ",".join("?" if d < 0 else str(d) for d in shape) + "]"


def group_counts(graph: Graph) -> np.ndarray:
    """The number of nodes in each group, nested groups' included."""
    counts = np.zeros(len(graph.groups), np.int64)
    for node in graph.nodes:
        for g in graph.group_path(node.group):
            counts[g] += 1
    return counts


@dataclass
class Highlight:
    """What is drawn over the graph: the selected items, their edges, a path, search hits (item positions)."""

    selected: np.ndarray = field(default_factory=lambda: np.zeros(0, np.int64))
    edges: np.ndarray = field(default_factory=lambda: np.zeros(0, np.int64))  # edge indices of the selection
    path: np.ndarray = field(default_factory=lambda: np.zeros(0, np.int64))
    path_edges: np.ndarray = field(default_factory=lambda: np.zeros(0, np.int64))
    hits: np.ndarray = field(default_factory=lambda: np.zeros(0, np.int64))


class SceneData:
    """A layout ready to paint (see the module docstring); built on a worker thread."""

    def __init__(self, graph: Graph, layout: Layout, *, overview: bool = True) -> None:
        self.graph = graph
        self.layout = layout
        n = len(layout.items)
        self.n = n
        x, y, w, h = (np.asarray(a, dtype=np.float64) for a in (layout.x, layout.y, layout.w, layout.h))
        self.x0, self.y0, self.x1, self.y1 = x - w / 2, y - h / 2, x + w / 2, y + h / 2
        self.order = np.argsort(y, kind="stable")
        self.sorted_y = y[self.order]
        self.max_half_h = float(h.max() / 2) if n else 0.0
        self.box_w = float(np.median(w)) if n else 1.0
        self.box_h = float(np.median(h)) if n else 1.0
        items = np.asarray(layout.items, dtype=np.int64)
        cats = np.empty(n, dtype=np.int64)
        counts = group_counts(graph) if (items < 0).any() else np.zeros(0, np.int64)
        self.types: list[str] = []
        self.names: list[str] = []
        self.shapes: list[str] = []
        for k, v in enumerate(items.tolist()):
            if v >= 0:
                node = graph.nodes[v]
                cats[k] = category(node.op_type)
                self.types.append(node.op_type)
                self.names.append(short_name(node.name))
                self.shapes.append(shape_text(node.outputs[0].shape) if node.outputs else "")
            else:
                g = graph.groups[-v - 1]
                cats[k] = GROUP
                first, _second = group_label(g, int(counts[-v - 1]))
                second = group_size_text(g.kind, int(counts[-v - 1]))
                self.types.append(first)
                self.names.append(second)
                self.shapes.append("")
        self.items = items
        self.cats = cats
        self.by_cat = [np.flatnonzero(cats == c) for c in range(len(CATEGORIES))]
        # edges as segments
        pts = np.asarray(layout.edge_points, dtype=np.float64).reshape(-1, 2)
        offs = np.asarray(layout.edge_offsets, dtype=np.int64)
        self.edge_src = np.asarray(layout.edge_src, dtype=np.int64)
        self.edge_dst = np.asarray(layout.edge_dst, dtype=np.int64)
        if len(pts) >= 2 and len(offs) >= 2:
            starts = np.arange(len(pts) - 1)
            edge_of_point = np.searchsorted(offs, np.arange(len(pts)), side="right") - 1
            same = edge_of_point[:-1] == edge_of_point[1:]
            starts = starts[same]
            self.seg = np.column_stack([pts[starts], pts[starts + 1]])  # (S, 4): x0, y0, x1, y1
            self.seg_edge = edge_of_point[starts]
        else:
            self.seg = np.zeros((0, 4))
            self.seg_edge = np.zeros(0, np.int64)
        self.seg_lo_x = np.minimum(self.seg[:, 0], self.seg[:, 2])
        self.seg_hi_x = np.maximum(self.seg[:, 0], self.seg[:, 2])
        self.seg_lo_y = np.minimum(self.seg[:, 1], self.seg[:, 3])
        self.seg_hi_y = np.maximum(self.seg[:, 1], self.seg[:, 3])
        lo_x = float(min(self.x0.min(initial=0.0), self.seg_lo_x.min(initial=0.0)))
        lo_y = float(min(self.y0.min(initial=0.0), self.seg_lo_y.min(initial=0.0)))
        hi_x = float(max(self.x1.max(initial=float(layout.width)), self.seg_hi_x.max(initial=0.0)))
        hi_y = float(max(self.y1.max(initial=float(layout.height)), self.seg_hi_y.max(initial=0.0)))
        self.bounds = QRectF(lo_x - MARGIN, lo_y - MARGIN, hi_x - lo_x + 2 * MARGIN, hi_y - lo_y + 2 * MARGIN)
        self._rects = [PrimitiveArray(QRectF, 4) for _ in CATEGORIES]
        self._lines = PrimitiveArray(QLineF, 4)
        self._labels: dict[tuple[int, int], tuple[QStaticText, float]] = {}
        bold, plain, small = QFont(), QFont(), QFont()
        bold.setBold(True)
        bold.setPixelSize(int(LINE_H * 0.75))
        plain.setPixelSize(int(LINE_H * 0.72))
        small.setPixelSize(int(LINE_H * 0.6))
        self._fonts = (bold, plain, small)
        self._metrics = (QFontMetricsF(bold), QFontMetricsF(plain), QFontMetricsF(small))
        self.overview: QImage | None = self.render_overview() if overview else None

    # --- look-ups ---------------------------------------------------------------------------------
    def visible(self, rect: QRectF) -> np.ndarray:
        """Item positions whose box meets ``rect`` (sorted by y)."""
        lo = np.searchsorted(self.sorted_y, rect.top() - self.max_half_h, side="left")
        hi = np.searchsorted(self.sorted_y, rect.bottom() + self.max_half_h, side="right")
        cand = self.order[lo:hi]
        keep = (
            (self.x1[cand] >= rect.left())
            & (self.x0[cand] <= rect.right())
            & (self.y1[cand] >= rect.top())
            & (self.y0[cand] <= rect.bottom())
        )
        return cand[keep]

    def item_at(self, x: float, y: float) -> int | None:
        """The item whose box holds the point, or None."""
        hits = self.visible(QRectF(x, y, 0.0, 0.0))
        return int(hits[0]) if len(hits) else None

    def segments_in(self, rect: QRectF) -> np.ndarray:
        return np.flatnonzero(
            (self.seg_hi_x >= rect.left())
            & (self.seg_lo_x <= rect.right())
            & (self.seg_hi_y >= rect.top())
            & (self.seg_lo_y <= rect.bottom())
        )

    def centre(self, k: int) -> QPointF:
        return QPointF(float(self.layout.x[k]), float(self.layout.y[k]))

    def box(self, k: int) -> QRectF:
        return QRectF(
            float(self.x0[k]), float(self.y0[k]), float(self.x1[k] - self.x0[k]), float(self.y1[k] - self.y0[k])
        )

    # --- painting ---------------------------------------------------------------------------------
    def render_overview(self) -> QImage:
        """The whole graph as an image of at most :data:`OVERVIEW_MAX` pixels a side (boxes and edges)."""
        b = self.bounds
        scale = min(OVERVIEW_MAX / max(b.width(), 1.0), OVERVIEW_MAX / max(b.height(), 1.0), 1.0)
        image = QImage(max(1, int(b.width() * scale)), max(1, int(b.height() * scale)), QImage.Format.Format_RGB32)
        image.fill(QColor("white"))
        painter = QPainter(image)
        painter.scale(scale, scale)
        painter.translate(-b.left(), -b.top())
        self.paint_vector(painter, b, scale, text=False, edges=True)
        painter.end()
        self.overview_scale = scale
        return image

    def paint(self, painter: QPainter, rect: QRectF, scale: float, highlight: Highlight | None = None) -> None:
        """Draw the part of the graph meeting ``rect`` (scene units) at ``scale`` pixels per unit."""
        text = scale * self.box_h >= TEXT_PX
        sharp = scale <= self.overview_scale * 1.25 and not text  # the overview has no labels
        if self.overview is not None and (sharp or len(self.visible(rect)) > VECTOR_MAX):
            b = self.bounds
            s = self.overview_scale
            r = rect.intersected(b)
            if not r.isEmpty():
                painter.setRenderHint(QPainter.RenderHint.SmoothPixmapTransform, True)
                src = QRectF((r.left() - b.left()) * s, (r.top() - b.top()) * s, r.width() * s, r.height() * s)
                painter.drawImage(r, self.overview, src)
        else:
            self.paint_vector(painter, rect, scale, text=text, edges=True)
        if highlight is not None:
            self.paint_highlight(painter, rect, scale, highlight)

    def _draw_segments(self, painter: QPainter, segs: np.ndarray) -> None:
        if not len(segs):
            return
        self._lines.resize(len(segs))
        self._lines.ndarray()[:] = self.seg[segs]
        painter.drawLines(*self._lines.drawargs())

    def _draw_boxes(self, painter: QPainter, ks: np.ndarray, cat: int) -> None:
        if not len(ks):
            return
        arr = self._rects[cat]
        arr.resize(len(ks))
        m = arr.ndarray()
        m[:, 0] = self.x0[ks]
        m[:, 1] = self.y0[ks]
        m[:, 2] = self.x1[ks] - self.x0[ks]
        m[:, 3] = self.y1[ks] - self.y0[ks]
        painter.drawRects(*arr.drawargs())

    def paint_vector(self, painter: QPainter, rect: QRectF, scale: float, *, text: bool, edges: bool) -> None:
        if edges:
            segs = self.segments_in(rect)
            if len(segs) <= MAX_SEGMENTS:
                painter.setPen(QPen(EDGE_COLOUR, 0))  # a hairline: the fastest pen
                self._draw_segments(painter, segs)
        vis = self.visible(rect)
        if not len(vis):
            return
        cats = self.cats[vis]
        outlined = scale * self.box_w >= OUTLINE_PX
        for c, (_name, fill, outline) in enumerate(CATEGORIES):
            ks = vis[cats == c]
            if not len(ks):
                continue
            if outlined:
                painter.setPen(QPen(QColor(outline), 0))
                painter.setBrush(QBrush(QColor(fill)))
            else:  # small boxes: filled with the darker colour, no pen
                painter.setPen(Qt.PenStyle.NoPen)
                painter.setBrush(QBrush(QColor(outline if scale * self.box_w < OUTLINE_PX / 2 else fill).darker(105)))
            self._draw_boxes(painter, ks, c)
        if text and len(vis) <= 1500:
            self._paint_text(painter, vis, scale)

    def _label(self, k: int, line: int, font: QFont, metrics: QFontMetricsF) -> tuple[QStaticText, float]:
        """Item ``k``'s label ``line`` (0: op type / group name, 1: short name / group size, 2: shape)
        elided to its box (in scene units, so once per item whatever the zoom) and its x offset."""
        key = (k, line)
        got = self._labels.get(key)
        if got is None:
            width = float(self.x1[k] - self.x0[k]) - 8.0
            raw = (self.types, self.names, self.shapes)[line][k]
            mode = Qt.TextElideMode.ElideLeft if line == 1 else Qt.TextElideMode.ElideRight
            text = metrics.elidedText(raw, mode, width) if line < 2 else raw
            static = QStaticText(text)
            static.setTextFormat(Qt.TextFormat.PlainText)
            static.setPerformanceHint(QStaticText.PerformanceHint.AggressiveCaching)
            offset = 4.0 + (width - metrics.horizontalAdvance(text)) / 2 if line < 2 else 0.0
            got = self._labels[key] = (static, offset)
        return got

    def _paint_text(self, painter: QPainter, vis: np.ndarray, scale: float) -> None:
        """Two lines in each box (op type, the name's last part; a group: its name and size, with a
        ``+``) and, nearer, the first output's shape under the box."""
        bold, plain, small = self._fonts
        fm_bold, fm_plain, fm_small = self._metrics
        detail = scale * LINE_H * 0.6 >= 9.0
        ink, grey = QColor("#202020"), QColor("#606060")
        line_top = (float(self.box_h) - 2 * LINE_H) / 2
        for k in vis.tolist():
            x0, y0 = float(self.x0[k]), float(self.y0[k])
            painter.setPen(ink)
            painter.setFont(bold)
            static, dx = self._label(k, 0, bold, fm_bold)
            painter.drawStaticText(QPointF(x0 + dx, y0 + line_top), static)
            painter.setFont(plain)
            static, dx = self._label(k, 1, plain, fm_plain)
            painter.drawStaticText(QPointF(x0 + dx, y0 + line_top + LINE_H), static)
            if self.items[k] < 0:
                painter.setFont(bold)
                painter.drawText(QPointF(float(self.x1[k]) - 12.0, y0 + 13.0), "+")
            elif detail and self.shapes[k]:
                painter.setPen(grey)
                painter.setFont(small)
                static, _dx = self._label(k, 2, small, fm_small)
                painter.drawStaticText(QPointF(x0, float(self.y1[k]) + 1.0), static)

    def paint_highlight(self, painter: QPainter, rect: QRectF, scale: float, hl: Highlight) -> None:
        painter.setBrush(Qt.BrushStyle.NoBrush)
        for edges_of, colour in ((hl.path_edges, PATH_COLOUR), (hl.edges, SELECT_COLOUR)):
            if len(edges_of):
                pen = QPen(colour, 2.5)
                pen.setCosmetic(True)
                painter.setPen(pen)
                segs = np.flatnonzero(np.isin(self.seg_edge, edges_of))
                self._draw_segments(painter, segs)
        # at least a few pixels wide however far out: a selection stays visible in an overview
        grow = max(0.0, 6.0 / max(scale, 1e-9) - self.box_w) / 2
        for ks, colour, width in (
            (hl.hits, HIT_COLOUR, 2.0),
            (hl.path, PATH_COLOUR, 2.5),
            (hl.selected, SELECT_COLOUR, 3.0),
        ):
            if not len(ks):
                continue
            pen = QPen(colour, width)
            pen.setCosmetic(True)
            painter.setPen(pen)
            for k in np.asarray(ks).tolist()[:5000]:
                painter.drawRect(self.box(k).adjusted(-grow, -grow, grow, grow))
