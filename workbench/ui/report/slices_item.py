"""The pyqtgraph item that paints timeline rows: slices, merged sub-pixel runs and counters.

A run of slices narrower than a pixel is drawn pale in the colour of its longest slice (Perfetto
colours such a bucket by its biggest slice; pale tells it apart from one real slice).

Painting works in device pixels: every frame rasterises each visible row into one pixel line
(core ``lod.raster_line``: vectorised, O(visible intervals + width)), darkens the first pixel of a
slice that starts where the one before ends (``lod.boundary_pixels``: two back-to-back slices of
one name stay two), stacks the lines into a QImage and draws it once, then adds names on slices
wide enough to hold them — drawn in the part of the slice inside the view, so a slice starting
left of the view keeps its name —, the Steps row and step boundaries, the selection outline, flow
arrows and counter step plots. The cost is bounded by the pixels on screen.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QFont, QFontMetrics, QImage, QPainter, QPainterPath, QPen, QPolygonF, QTransform

from workbench.core.profiling.lod import TimelineLayout, boundary_pixels, raster_line
from workbench.ui.report.palette import MERGED, PALETTE, RULE_COLORS, argb_table

MERGED_INDEX = len(PALETTE)  # value in the raster line (before +1)
RULE_INDEX = {name: len(PALETTE) + 1 + k for k, name in enumerate(("green", "yellow", "red"))}
PALE = len(PALETTE) + 4  # colour k drawn pale (merged sub-pixel slices) is PALE + k
PALE_MIX = 0.45  # share of white in a pale colour
EDGE_DARKEN = 0.62  # a slice's first pixel, where it touches the slice before: its colour this dark
STEP_FILL = (QColor(226, 232, 242), QColor(206, 216, 232))  # alternate steps in the Steps row
STEP_LINE = QColor(70, 80, 100, 150)
SERIES_COLORS = (QColor(78, 121, 167), QColor(225, 87, 89), QColor(89, 161, 79), QColor(176, 122, 161))


def _with_pale(table: np.ndarray) -> np.ndarray:
    """The ARGB table followed by a pale copy of each colour (index 0 stays transparent)."""
    rgb = table[1:]
    channels = [((rgb >> shift) & 0xFF).astype(np.float64) for shift in (16, 8, 0)]
    pale = [np.round(c + (255.0 - c) * PALE_MIX).astype(np.uint32) for c in channels]
    pale_argb = (np.uint32(0xFF) << np.uint32(24)) | (pale[0] << np.uint32(16)) | (pale[1] << np.uint32(8)) | pale[2]
    return np.concatenate((table, pale_argb.astype(np.uint32)))


def _darker(table: np.ndarray) -> np.ndarray:
    """The same ARGB table with every colour darkened (index 0 stays transparent)."""
    out = table.copy()
    rgb = table[1:]
    channels = [np.round(((rgb >> shift) & 0xFF) * EDGE_DARKEN).astype(np.uint32) for shift in (16, 8, 0)]
    out[1:] = (
        (np.uint32(0xFF) << np.uint32(24))
        | (channels[0] << np.uint32(16))
        | (channels[1] << np.uint32(8))
        | channels[2]
    )
    return out


@dataclass
class DisplayRow:
    """One horizontal band of the view: the Steps row, a slice row of a lane, or a counter track."""

    y: int
    kind: str  # "steps", "slices" or "counter"
    lane: int = -1  # lane index (slices)
    row: int = -1  # TimelineLayout row id (slices)
    counter: int = -1  # index into timeline.counters (counter)
    series: str = ""  # counter series name ("": every series of the counter, in one compact row)
    height: int = 1  # rows of the band (an expanded counter series takes 2)


class SlicesItem(pg.GraphicsObject):
    def __init__(self, timeline, layout: TimelineLayout) -> None:
        super().__init__()
        self.timeline = timeline
        self.layout = layout
        self.rows: list[DisplayRow] = []
        self.span_ns = max(1, int(getattr(timeline, "span_ns", 0) or 1))
        self.color_of_name = np.zeros(len(timeline.names), dtype=np.int32)  # palette index per name id
        self.table = _with_pale(argb_table([MERGED, RULE_COLORS["green"], RULE_COLORS["yellow"], RULE_COLORS["red"]]))
        self.dark = _darker(self.table)
        self.steps: list[tuple[int, int, str]] = []  # (start ns, end ns, label) of each step
        self.selected: int | None = None
        self.highlight: set[int] = set()
        self.flows: list[tuple[int, int, int, int]] = []  # (src_ns, src_y, dst_ns, dst_y)
        self.font = QFont()
        self.font.setPointSizeF(8)
        self.frame_ms = 0.0

    # --- configuration ------------------------------------------------------------------------------
    def set_rows(self, rows: list[DisplayRow]) -> None:
        self.prepareGeometryChange()
        self.rows = rows
        self.update()

    def set_colors(self, color_index_per_name: np.ndarray) -> None:
        self.color_of_name = color_index_per_name.astype(np.int32)
        self.update()

    def boundingRect(self) -> QRectF:  # noqa: N802 - Qt API
        return QRectF(0.0, 0.0, float(self.span_ns), float(max(1, len(self.rows))))

    # --- painting -----------------------------------------------------------------------------------
    def _view_px(self, x0: float, ns_per_px: float, width: int) -> tuple[float, float]:
        """The device-pixel columns the view box shows (the item paints the whole plot widget,
        lane axis included, and the view box clips it)."""
        vb = self.getViewBox()
        if vb is None:
            return 0.0, float(width)
        t0, t1 = vb.viewRange()[0]
        return max(0.0, (t0 - x0) / ns_per_px), min(float(width), (t1 - x0) / ns_per_px)

    def paint(self, painter: QPainter, _option, _widget=None) -> None:
        import time

        t_start = time.perf_counter()
        tr = painter.transform()
        sx, sy, dx, dy = tr.m11(), tr.m22(), tr.dx(), tr.dy()
        if sx == 0 or sy == 0 or not self.rows:
            return
        dev = painter.viewport()
        width, height = max(1, dev.width()), max(1, dev.height())
        x0 = (0 - dx) / sx
        x1 = (width - dx) / sx
        if x1 < x0:
            x0, x1 = x1, x0
        ns_per_px = (x1 - x0) / width
        row_px = abs(sy)
        y_top = (0 - dy) / sy
        y_bot = (height - dy) / sy
        lo_y, hi_y = int(np.floor(min(y_top, y_bot))), int(np.ceil(max(y_top, y_bot)))
        visible = [r for r in self.rows if lo_y - r.height <= r.y <= hi_y]
        view_px = self._view_px(x0, ns_per_px, width)
        painter.save()
        painter.setTransform(QTransform())
        image = np.zeros((height, width), dtype=np.uint32)
        labels: list[tuple[float, float, float, str]] = []
        pad = 1 if row_px >= 6 else 0
        names = self.timeline.names
        name_id = np.asarray(self.timeline.name_id)
        for r in visible:
            top = int(round(dy + sy * r.y))
            bottom = int(round(dy + sy * (r.y + 1)))
            top, bottom = max(0, min(top, bottom) + pad), min(height, max(top, bottom) - pad)
            if bottom <= top or r.kind != "slices":
                continue
            draw = self.layout.query(r.row, int(x0), int(np.ceil(x1)) + 1, ns_per_px)
            idx = draw.slices
            s_ind = np.asarray(self.timeline.start_ns)[idx]
            e_ind = s_ind + np.asarray(self.timeline.dur_ns)[idx]
            c_ind = self.color_of_name[name_id[idx]]
            starts = np.concatenate((s_ind, draw.merged_start))
            ends = np.concatenate((e_ind, draw.merged_end))
            if len(draw.merged_rep) == len(draw.merged_start):  # pale, in the colour of the run's longest slice
                c_merged = PALE + self.color_of_name[name_id[draw.merged_rep]]
            else:
                c_merged = np.full(len(draw.merged_start), MERGED_INDEX, dtype=np.int32)
            colors = np.concatenate((c_ind, c_merged.astype(np.int32)))
            order = np.argsort(starts, kind="stable")
            line = raster_line(starts[order], ends[order], colors[order], x0, ns_per_px, width)
            pixels = self.table[line]
            edges = boundary_pixels(starts[order], ends[order], x0, ns_per_px, width)
            if len(edges):
                pixels[edges] = self.dark[line[edges]]
            image[top:bottom, :] = pixels[None, :]
            if row_px >= 13 and len(idx):
                wide = (e_ind - s_ind) / ns_per_px >= 40
                for i, s, e in zip(idx[wide][:300], s_ind[wide][:300], e_ind[wide][:300]):
                    labels.append(((s - x0) / ns_per_px, (e - x0) / ns_per_px, top, names[int(name_id[i])]))
        qimg = QImage(image.data, width, height, width * 4, QImage.Format.Format_ARGB32_Premultiplied)
        painter.drawImage(0, 0, qimg)
        labels += self._paint_steps(painter, visible, x0, ns_per_px, dy, sy, view_px)
        self._paint_counters(painter, visible, x0, ns_per_px, width, dy, sy)
        self._paint_labels(painter, labels, row_px, view_px)
        self._paint_step_lines(painter, x0, ns_per_px, height, view_px)
        self._paint_selection(painter, x0, ns_per_px, dy, sy)
        painter.restore()
        self.frame_ms = (time.perf_counter() - t_start) * 1000

    def _paint_steps(
        self, painter: QPainter, rows: list[DisplayRow], x0: float, ns_per_px: float, dy: float, sy: float, view_px
    ) -> list[tuple[float, float, float, str]]:
        """The Steps row: one block per step (alternating shades); returns their name labels."""
        row = next((r for r in rows if r.kind == "steps"), None)
        if row is None or not self.steps:
            return []
        top, bottom = dy + sy * row.y + 1, dy + sy * (row.y + 1) - 1
        labels = []
        painter.setPen(Qt.PenStyle.NoPen)
        for k, (s, e, text) in enumerate(self.steps):
            nxt = self.steps[k + 1][0] if k + 1 < len(self.steps) else e
            e = min(e, nxt) if nxt > s else e  # steps of several devices may overlap by a little
            a, b = (s - x0) / ns_per_px, (e - x0) / ns_per_px
            if b < view_px[0] or a > view_px[1]:
                continue
            a, b = max(a, view_px[0] - 1), min(b, view_px[1] + 1)
            painter.setBrush(STEP_FILL[k % 2])
            painter.drawRect(QRectF(a, top, max(1.0, b - a), bottom - top))
            labels.append((a, b, top, text))
        return labels

    def _paint_step_lines(self, painter: QPainter, x0: float, ns_per_px: float, height: int, view_px) -> None:
        """A line at every step boundary, across all the rows."""
        if not self.steps:
            return
        bounds = sorted({s for s, _e, _t in self.steps} | {self.steps[-1][1]})
        painter.setPen(QPen(STEP_LINE, 1, Qt.PenStyle.DashLine))
        for t in bounds:
            x = (t - x0) / ns_per_px
            if view_px[0] <= x <= view_px[1]:
                painter.drawLine(QPointF(x, 0), QPointF(x, height))

    def _paint_labels(self, painter: QPainter, labels, row_px: float, view_px=None) -> None:
        """Names on slices, drawn in the part of each slice inside the view."""
        if not labels:
            return
        painter.setFont(self.font)
        painter.setPen(QColor(20, 20, 20))
        fm = QFontMetrics(self.font)
        lo, hi = view_px if view_px is not None else (0.0, float("inf"))
        for px0, px1, top, name in labels[:600]:
            left = max(px0, lo) + 3
            right = min(px1, hi) - 2
            w = right - left
            if w < 20:
                continue
            text = fm.elidedText(name, Qt.TextElideMode.ElideRight, int(w))
            painter.drawText(QRectF(left, top, w, min(row_px - 2, 16)), Qt.AlignmentFlag.AlignVCenter, text)

    def _paint_selection(self, painter: QPainter, x0: float, ns_per_px: float, dy: float, sy: float) -> None:
        sel = self.selected
        if sel is not None:
            try:
                y = next(r.y for r in self.rows if r.kind == "slices" and r.row == self.layout.row_of(sel))
            except (StopIteration, KeyError):
                y = None
            if y is not None:
                s = float(self.timeline.start_ns[sel])
                e = s + float(self.timeline.dur_ns[sel])
                rect = QRectF((s - x0) / ns_per_px, dy + sy * y, max(2.0, (e - s) / ns_per_px), sy)
                painter.setPen(QPen(QColor(0, 0, 0), 2))
                painter.setBrush(Qt.BrushStyle.NoBrush)
                painter.drawRect(rect.normalized())
        if self.flows:
            pen = QPen(QColor(200, 30, 30), 1.5)
            painter.setPen(pen)
            painter.setBrush(QColor(200, 30, 30))
            for src_ns, src_y, dst_ns, dst_y in self.flows:
                a = QPointF((src_ns - x0) / ns_per_px, dy + sy * (src_y + 0.5))
                b = QPointF((dst_ns - x0) / ns_per_px, dy + sy * (dst_y + 0.5))
                painter.drawLine(a, b)
                painter.drawPolygon(_arrow_head(a, b))

    def _paint_counters(
        self, painter: QPainter, rows: list[DisplayRow], x0: float, ns_per_px: float, width: int, dy: float, sy: float
    ) -> None:
        for r in rows:
            if r.kind != "counter":
                continue
            counter = self.timeline.counters[r.counter]
            names = [r.series] if r.series else list(counter.series)
            top, bottom = dy + sy * r.y + 2, dy + sy * (r.y + r.height) - 1
            # a compact row holds every series of the counter on one scale (one unit per counter)
            vmax = 0.0
            for name in names:
                vals = np.asarray(counter.series[name], dtype=np.float64)
                finite = np.isfinite(vals)
                if finite.any():
                    vmax = max(vmax, float(np.nanmax(vals[finite])))
            vmax = vmax if vmax > 0 else 1.0
            for k, name in enumerate(names):
                colour = SERIES_COLORS[k % len(SERIES_COLORS)]
                self._paint_series(
                    painter,
                    counter.ts_ns,
                    counter.series[name],
                    x0,
                    ns_per_px,
                    width,
                    top,
                    bottom,
                    vmax,
                    colour,
                    fill=len(names) == 1,
                )

    def _paint_series(
        self, painter: QPainter, ts_ns, values, x0, ns_per_px, width, top, bottom, vmax, colour: QColor, fill: bool
    ) -> None:
        ts = np.asarray(ts_ns, dtype=np.float64)
        vals = np.asarray(values, dtype=np.float64)
        if len(ts) == 0:
            return
        a = max(0, int(np.searchsorted(ts, x0, side="right")) - 1)
        b = min(len(ts), int(np.searchsorted(ts, x0 + ns_per_px * width, side="right")) + 1)
        t, v = ts[a:b], vals[a:b]
        if len(t) == 0:
            return
        px = np.clip((t - x0) / ns_per_px, -1, width + 1)
        if len(px) > 2 * width:  # decimate to one max per pixel column
            col = px.astype(np.int64)
            bounds = np.flatnonzero(np.diff(col)) + 1
            starts = np.concatenate(([0], bounds))
            px = px[starts]
            v = np.maximum.reduceat(np.nan_to_num(v), starts)
        yv = bottom - (np.nan_to_num(v) / vmax) * (bottom - top)
        xs = np.repeat(px, 2)[1:]
        ys = np.repeat(yv, 2)[:-1]
        xs = np.append(xs, width + 1)
        ys = np.append(ys, yv[-1])
        poly = QPolygonF([QPointF(float(x), float(y)) for x, y in zip(xs, ys)])
        path = QPainterPath()
        path.addPolygon(poly)
        if fill:
            area = QPainterPath(path)
            area.lineTo(float(xs[-1]), bottom)
            area.lineTo(float(xs[0]), bottom)
            area.closeSubpath()
            painter.setPen(Qt.PenStyle.NoPen)
            painter.setBrush(QColor(colour.red(), colour.green(), colour.blue(), 70))
            painter.drawPath(area)
        painter.setPen(QPen(colour, 1))
        painter.setBrush(Qt.BrushStyle.NoBrush)
        painter.drawPath(path)


def _arrow_head(a: QPointF, b: QPointF, size: float = 6.0) -> QPolygonF:
    d = b - a
    length = max(1e-6, (d.x() ** 2 + d.y() ** 2) ** 0.5)
    ux, uy = d.x() / length, d.y() / length
    left = QPointF(b.x() - size * ux + size * 0.5 * uy, b.y() - size * uy - size * 0.5 * ux)
    right = QPointF(b.x() - size * ux - size * 0.5 * uy, b.y() - size * uy + size * 0.5 * ux)
    return QPolygonF([b, left, right])
