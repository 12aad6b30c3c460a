"""Model graph view benchmark (issue #23): frame times of the graph canvas while panning and zooming.

    python benchmarks/bench_graph_view.py [--sizes 10000,50000] [--frames 30]

For each size: a generated ONNX model (``core.graph.synth``) is read and laid out fully expanded
(``load_graph`` + ``layout_graph``; their times are printed), prepared for painting (``SceneData``,
overview image included), and shown in a real ``GraphCanvas`` of 1600x1000. Then, at every zoom level
(fit, 0.01 … 1.5 pixels per layout unit), the view pans from the middle a quarter of the window per
frame (as a drag does; the first frame at a zoom starts cold: no label cached), each frame rendered
offscreen into a QImage through the viewport's own paint event (``QWidget.render``); the median and
the maximum ms per frame are printed. A second case, "dense", lays the same number of nodes on a
wide grid (150 columns): the most boxes a window can show at once. Goal: median ≤ 16 ms per frame.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

SCALES = ("fit", 0.01, 0.03, 0.06, 0.1, 0.3, 0.7, 1.5)


def dense_layout(graph, columns: int = 150):
    """Every node on a grid ``columns`` wide, edges as straight lines: the densest window."""
    import numpy as np

    from workbench.core.graph.model import Layout

    n = len(graph.nodes)
    k = np.arange(n)
    w, h = 110.0, 40.0
    x = (k % columns) * (w + 24) + w / 2
    y = (k // columns) * (h + 36) + h / 2
    src, dst = graph.edge_src, graph.edge_dst
    pts = np.empty((2 * len(src), 2))
    pts[0::2, 0], pts[0::2, 1] = x[src], y[src] + h / 2
    pts[1::2, 0], pts[1::2, 1] = x[dst], y[dst] - h / 2
    return Layout(
        k.astype(np.int64),
        x,
        y,
        np.full(n, w),
        np.full(n, h),
        src.astype(np.int64),
        dst.astype(np.int64),
        pts,
        np.arange(0, 2 * len(src) + 1, 2, dtype=np.int64),
        float(x.max() + w),
        float(y.max() + h),
    )


def frames(canvas, n_frames: int) -> list[tuple[str, float, float, int]]:
    """(zoom, median ms, max ms, boxes in the window) per zoom level."""
    from PySide6.QtCore import QPointF
    from PySide6.QtGui import QImage
    from PySide6.QtWidgets import QApplication

    data = canvas.data
    image = QImage(canvas.viewport().size(), QImage.Format.Format_RGB32)
    out = []
    for scale in SCALES:
        if scale == "fit":
            canvas.fit()
        else:
            canvas.set_scale(float(scale))
        b = data.bounds
        canvas.centerOn(b.center())
        QApplication.processEvents()
        view = canvas.visible_rect()
        times = []
        boxes = 0
        for f in range(n_frames):
            # a pan as a drag makes it: a quarter of the window per frame, down and sideways (zig-zag)
            dx = view.width() / 4 * (1 if (f // 4) % 2 == 0 else -1)
            dy = view.height() / 4
            centre = canvas.visible_rect().center()
            canvas.centerOn(QPointF(centre.x() + dx, centre.y() + dy))
            QApplication.processEvents()
            start = time.perf_counter()
            canvas.viewport().render(image)
            times.append((time.perf_counter() - start) * 1000)
            boxes = max(boxes, len(data.visible(canvas.visible_rect())))
        out.append((str(scale), statistics.median(times), max(times), boxes))
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="10000,50000")
    parser.add_argument("--frames", type=int, default=30)
    args = parser.parse_args()

    from PySide6.QtWidgets import QApplication

    from workbench.core.graph.layout import layout_graph
    from workbench.core.graph.load import load_graph
    from workbench.core.graph.synth import synth_onnx
    from workbench.core.tasks import CancelToken, NullProgress
    from workbench.ui.graph.canvas import GraphCanvas
    from workbench.ui.graph.scene import SceneData

    app = QApplication.instance() or QApplication([])
    canvas = GraphCanvas()
    canvas.resize(1600, 1000)
    canvas.show()
    app.processEvents()
    worst = 0.0
    with tempfile.TemporaryDirectory() as tmp:
        for n in [int(s) for s in args.sizes.split(",")]:
            path = synth_onnx(n, Path(tmp) / f"g{n}.onnx")
            t0 = time.perf_counter()
            graph = load_graph(path, progress=NullProgress(), cancel=CancelToken())
            t1 = time.perf_counter()
            layout = layout_graph(graph, frozenset(), progress=NullProgress(), cancel=CancelToken())
            t2 = time.perf_counter()
            for case, lay in (("layered", layout), ("dense", dense_layout(graph))):
                t3 = time.perf_counter()
                data = SceneData(graph, lay)
                t4 = time.perf_counter()
                canvas.set_data(data)
                print(
                    f"\n{n} nodes, {case}: load {t1 - t0:.2f} s, layout {t2 - t1:.2f} s, "
                    f"scene + overview {t4 - t3:.2f} s, {lay.width:.0f} x {lay.height:.0f} units"
                )
                print(f"  {'zoom':>6} {'median ms':>10} {'max ms':>8} {'boxes':>7}")
                for zoom, med, mx, boxes in frames(canvas, args.frames):
                    worst = max(worst, med)
                    print(f"  {zoom:>6} {med:10.2f} {mx:8.2f} {boxes:7d}")
    print(f"\nworst median frame: {worst:.2f} ms (goal <= 16 ms): {'OK' if worst <= 16 else 'MISSED'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
