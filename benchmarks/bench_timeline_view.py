"""Timeline view benchmark: frame times, first paint, GUI-thread stalls while loading.

    python benchmarks/bench_timeline_view.py [--data DIR] [--sizes 1000000,5000000] [--form msprof]

For each size it (1) opens the generated trace as a report through the same task bridge the window
uses, measuring the longest gap between 5 ms GUI timer ticks during the load (GUI-thread stall),
the time to the first painted timeline (the preview of a big uncached trace, else the document)
and the time until the document is ready; (2) renders the timeline offscreen at full view and at
1 %, 0.01 % and 0.0001 % of the span, reporting the SlicesItem paint time per frame (median and max
over 20 frames each). Goals: frames ≤ 16 ms, first paint before the load finishes, no stall > 100 ms.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def ensure_data(data: Path, sizes: list[int], form: str) -> None:
    subprocess.run(
        [
            sys.executable,
            str(ROOT / "benchmarks" / "gen_big_traces.py"),
            str(data),
            "--sizes",
            ",".join(map(str, sizes)),
            "--forms",
            form,
        ],
        check=True,
    )


def bench_one(app, path: Path) -> dict:
    from PySide6.QtCore import QElapsedTimer, QTimer

    from workbench.core import settings as core_settings
    from workbench.ui.app import build_window
    from workbench.ui.report.document import ReportDocument
    from workbench.ui.report.loading import ReportLoadingPage

    settings = core_settings.Settings(open_demo_when_unconfigured=False)
    window = build_window(settings, [], [], restore=False, demo=False)
    window.resize(1600, 1000)
    window.show()
    app.processEvents()
    gaps: list[float] = []
    clock = QElapsedTimer()
    clock.start()
    last = [clock.elapsed()]

    def tick() -> None:
        now = clock.elapsed()
        gaps.append(now - last[0])
        last[0] = now

    timer = QTimer()
    timer.timeout.connect(tick)
    timer.start(5)
    t0 = time.perf_counter()
    window.open_report(path)  # by content, whatever the file is called
    first_paint = None
    while True:
        app.processEvents()
        doc = window.documents.currentWidget()
        if first_paint is None and (
            (isinstance(doc, ReportLoadingPage) and doc.preview_view is not None and doc.preview_view.item.frame_ms)
            or isinstance(doc, ReportDocument)
        ):
            first_paint = time.perf_counter() - t0
        if isinstance(doc, ReportDocument) and doc.ready:
            break
        if not isinstance(doc, (ReportDocument, ReportLoadingPage)) and time.perf_counter() - t0 > 5:
            out = window.output
            log = "\n".join(out.tabs.widget(i).toPlainText()[-600:] for i in range(out.tabs.count()))
            raise RuntimeError(f"{path}: the report did not open:\n{log}")
        time.sleep(0.001)
    load_done = time.perf_counter() - t0
    for _ in range(10):
        app.processEvents()
    timer.stop()
    tv = doc.timeline_view
    span = float(tv.timeline.span_ns)
    start = float(tv.timeline.start_ns.min())
    frames = {}
    for label, frac in (("full", 1.0), ("1%", 1e-2), ("0.01%", 1e-4), ("0.0001%", 1e-6)):
        times = []
        for k in range(20):
            center = start + span * (0.1 + 0.8 * k / 19)
            half = span * frac / 2
            tv.viewbox.setXRange(center - half, center + half, padding=0)
            tv.plot.viewport().repaint()
            times.append(tv.item.frame_ms)
        frames[label] = (statistics.median(times), max(times))
    window._quitting = True
    window.close()
    return {
        "events": tv.timeline.event_count,
        "open_s": load_done,
        "first_paint_s": first_paint,
        "max_gui_stall_ms": max(gaps[2:] or [0.0]),
        "frames": frames,
    }


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", default="/tmp/wb-bench-traces")
    ap.add_argument("--sizes", default="1000000,5000000")
    ap.add_argument("--form", default="msprof")
    a = ap.parse_args()
    sizes = [int(s) for s in a.sizes.split(",")]
    data = Path(a.data)
    ensure_data(data, sizes, a.form)
    from PySide6.QtWidgets import QApplication

    app = QApplication.instance() or QApplication([])
    os.environ.setdefault("ASCEND_WORKBENCH_HOME", str(data / "home"))
    import shutil

    for n in sizes:
        path = data / f"{a.form}_{n}.json"
        size_mb = path.stat().st_size / 1e6
        cache = path.with_name(f".{path.name}.wbcache")
        for label in ("cold (no cache)", "warm (cache)"):
            if label.startswith("cold") and cache.exists():
                shutil.rmtree(cache) if cache.is_dir() else cache.unlink()
            r = bench_one(app, path)
            print(
                f"{path.name} {label}: {r['events']:,} events, {size_mb:.0f} MB; first timeline paint "
                f"{r['first_paint_s']:.2f} s; document ready {r['open_s']:.2f} s; "
                f"longest GUI stall {r['max_gui_stall_ms']:.0f} ms"
            )
        for label, (med, worst) in r["frames"].items():
            print(f"  frame at {label:>8} of span: median {med:.1f} ms, max {worst:.1f} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
