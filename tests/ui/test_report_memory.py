"""The Memory tab of a report document over the real torch_npu sample (rank 0 of a 2-rank 910B job),
driven as a user does: File ▸ Open Report…, click the Memory tab, read the curves, the peaks and the
operators alive there, filter / sort / click operator_memory rows, toggle kinds, choose a component,
click the plot. Every number is checked against the sample files read here with csv and Decimal."""

from __future__ import annotations

import csv
import json
import re
import shutil
from decimal import Decimal
from pathlib import Path

import numpy as np
import pytest
from PySide6.QtCore import QPoint, QPointF, Qt
from reportkit import (  # tests/ui is on sys.path
    click_row,
    click_tab,
    open_report,
    open_tab,
    sample_run,
    tab_titles,
    table,
)

KIND_COLUMNS = {"allocated": "Total Allocated(MB)", "reserved": "Total Reserved(MB)", "active": "Total Active(MB)"}


def ns(text: str) -> int:
    """An epoch µs cell (``1736408883573957.920\\t``) as exact int ns."""
    return int(Decimal(text.strip()) * 1000)


def rows(path: Path) -> list[dict[str, str]]:
    with path.open(newline="", encoding="utf-8") as fh:
        return list(csv.DictReader(fh))


@pytest.fixture
def run(tmp_path, samples) -> Path:
    return sample_run(tmp_path, samples)


def files(run: Path) -> Path:
    return run / "ASCEND_PROFILER_OUTPUT"


def open_memory(qtbot, user, window, path: Path, title: str = "Memory"):
    return open_tab(qtbot, user, window, path, title, "memory_tab")


def origin_of(out: Path) -> int:
    """Time 0 without a timeline: the earliest time the three memory files record."""
    times = [ns(r["Timestamp(us)"]) for r in rows(out / "memory_record.csv")]
    times += [ns(r["Timestamp(us)"]) for r in rows(out / "npu_module_mem.csv")]
    times += [
        ns(r["Allocation Time(us)"]) for r in rows(out / "operator_memory.csv") if r["Allocation Time(us)"].strip()
    ]
    return min(times)


def curves_of(out: Path) -> dict[tuple[str, str], tuple[np.ndarray, np.ndarray]]:
    """memory_record per (component, kind): (epoch ns, MB) of the filled cells, in time order."""
    found: dict[tuple[str, str], list[tuple[int, float]]] = {}
    for r in rows(out / "memory_record.csv"):
        for kind, column in KIND_COLUMNS.items():
            if r[column].strip():
                found.setdefault((r["Component"], kind), []).append((ns(r["Timestamp(us)"]), float(r[column])))
    return {
        key: (np.array([t for t, _ in sorted(v)], dtype=np.int64), np.array([m for _, m in sorted(v)]))
        for key, v in found.items()
    }


def alive_at(out: Path, t_ns: int) -> list[tuple[str, float]]:
    """(name, size KB) of the operators allocated at or before ``t_ns`` and not released before it."""
    alive = []
    for r in rows(out / "operator_memory.csv"):
        alloc = ns(r["Allocation Time(us)"])
        release = ns(r["Release Time(us)"]) if r["Release Time(us)"].strip() else None
        if alloc <= t_ns and (release is None or release >= t_ns):
            alive.append((r["Name"], float(r["Size(KB)"])))
    return sorted(alive)


def shown_alive(pane) -> list[tuple[str, float]]:
    return sorted((r["Name"], float(r["Size (KB)"])) for r in table(pane.alive))


def test_memory_curves_peaks_and_the_operators_alive_at_the_peak(qtbot, user, window, run):
    out = files(run)
    doc, pane = open_memory(qtbot, user, window, run)
    assert "Memory" in tab_titles(doc)
    curves = curves_of(out)
    origin = origin_of(out)
    order = list(dict.fromkeys(r["Component"] for r in rows(out / "memory_record.csv")))
    assert [pane.component.itemText(i) for i in range(pane.component.count())] == ["All components", *order]
    # allocated and reserved are on, active off: every filled column of those kinds is drawn, as in the file
    assert pane.kind_boxes["allocated"].isChecked() and pane.kind_boxes["reserved"].isChecked()
    assert not pane.kind_boxes["active"].isChecked()
    wanted = {key for key in curves if key[1] in ("allocated", "reserved")}
    assert set(pane.drawn) == wanted
    for key in wanted:
        x, y = pane.drawn[key].getData()
        ts, mb = curves[key]
        assert np.array_equal(y, mb), key
        assert np.array_equal(x, (ts - origin).astype(np.float64)), key  # the time axis: ns from the start

    # the peaks: the highest allocated and reserved curve, labelled on the plot
    def top(kind):
        return max(
            ((c, float(mb.max()), int(ts[int(np.argmax(mb))])) for (c, k), (ts, mb) in curves.items() if k == kind),
            key=lambda p: p[1],
        )

    (a_comp, a_mb, a_ts), (r_comp, r_mb, _r_ts) = top("allocated"), top("reserved")
    labels = {item.toPlainText() for item in pane.peak_items if hasattr(item, "toPlainText")}
    assert labels == {f"Peak allocated: {a_mb:,.2f} MB ({a_comp})", f"Peak reserved: {r_mb:,.2f} MB ({r_comp})"}
    # the cursor starts at the allocated peak and lists what is alive there, largest first
    assert pane.time_cursor.isVisible() and pane.time_cursor.value() == pytest.approx(a_ts - origin, abs=200)
    expected = alive_at(out, a_ts)
    assert expected and shown_alive(pane) == expected
    sizes = [float(r["Size (KB)"]) for r in table(pane.alive)]
    assert sizes == sorted(sizes, reverse=True)
    total = sum(s for _, s in expected) / 1024
    assert pane.alive.note.text() == (
        f"At the peak of {a_comp} allocated ({a_mb:,.2f} MB at {(a_ts - origin) / 1e6:,.3f} ms)"
        f" · alive: {len(expected)} · {total:,.2f} MB"
    )
    # npu_module_mem: the modules that hold memory are drawn, with their values
    modules: dict[str, list[tuple[int, float]]] = {}
    for r in rows(out / "npu_module_mem.csv"):
        modules.setdefault(r["Component"], []).append((ns(r["Timestamp(us)"]), float(r["Total Reserved(MB)"])))
    in_use = {m for m, v in modules.items() if max(mb for _, mb in v) > 0}
    assert pane.module.currentText() == f"Modules in use ({len(in_use)})"
    drawn = {item.name(): item for item in pane.module_plot.getPlotItem().listDataItems()}
    assert set(drawn) == in_use
    for name in in_use:
        x, y = drawn[name].getData()
        assert np.array_equal(y, [mb for _, mb in sorted(modules[name])])
        assert np.array_equal(x, [t - origin for t, _ in sorted(modules[name])])


def test_operator_table_filter_sort_and_a_click_marks_the_allocation(qtbot, user, window, run):
    out = files(run)
    _doc, pane = open_memory(qtbot, user, window, run)
    origin = origin_of(out)
    ops = rows(out / "operator_memory.csv")
    assert pane.operators.model.rowCount() == len(ops)
    assert pane.operators.note.text() == f"operator_memory: {len(ops)} allocations. Click one to mark it on the curve."
    user.retype(pane.operators.filter, "convolution")
    hits = [r for r in ops if "convolution" in r["Name"].lower()]
    qtbot.waitUntil(lambda: pane.operators.count.text() == f"{len(hits)} of {len(ops)} rows", timeout=5000)
    assert {r["Name"] for r in table(pane.operators)} == {r["Name"] for r in hits}
    # sort by size: a click on its header
    header = pane.operators.view.horizontalHeader()
    heads = [
        pane.operators.model.headerData(c, Qt.Orientation.Horizontal) for c in range(pane.operators.model.columnCount())
    ]
    size_col = heads.index("Size (KB)")
    x = header.sectionViewportPosition(size_col) + header.sectionSize(size_col) // 2
    qtbot.mouseClick(header.viewport(), Qt.MouseButton.LeftButton, pos=QPoint(x, header.height() // 2))
    shown = [float(r["Size (KB)"]) for r in table(pane.operators)]
    descending = header.sortIndicatorOrder() == Qt.SortOrder.DescendingOrder
    assert shown == sorted(shown, reverse=descending) and len(set(shown)) > 1
    # a click on the largest released allocation: marked on the curve from allocation to release
    released = [r for r in hits if r["Release Time(us)"].strip()]
    target = max(released, key=lambda r: float(r["Size(KB)"]))
    row = next(i for i, r in enumerate(table(pane.operators)) if float(r["Size (KB)"]) == float(target["Size(KB)"]))
    click_row(qtbot, pane.operators.view, row)
    a, r_ = ns(target["Allocation Time(us)"]) - origin, ns(target["Release Time(us)"]) - origin
    qtbot.waitUntil(lambda: pane.alloc_region.isVisible(), timeout=5000)
    # (an item's position on the plot is not exact to the ns; 200 ns is far below what the file tells apart)
    assert pane.alloc_region.getRegion() == pytest.approx((a, r_), abs=200)
    xs, ys = pane.alloc_marker.getData()
    assert list(xs) == [float(a), float(r_)]
    assert list(ys) == [float(target["Allocation Total Allocated(MB)"]), float(target["Release Total Allocated(MB)"])]
    shown_row = table(pane.operators)[row]
    assert shown_row["Allocated at (ms)"] == f"{a / 1e6:.3f}" and shown_row["Released at (ms)"] == f"{r_ / 1e6:.3f}"
    # the cursor moved to the allocation; no timeline in this report: nothing to show there
    assert pane.time_cursor.value() == pytest.approx(a, abs=200)
    assert shown_alive(pane) == alive_at(out, a + origin)
    assert pane.status.text() == (
        f"{target['Name']}: {float(target['Size(KB)']):,.1f} KB allocated at {a / 1e6:,.3f} ms, released at "
        f"{r_ / 1e6:,.3f} ms — the report has no timeline"
    )
    assert not pane.show_button.isEnabled()


def test_kind_toggles_component_choice_go_to_peak_and_a_click_on_the_plot(qtbot, user, window, run):
    out = files(run)
    _doc, pane = open_memory(qtbot, user, window, run)
    curves = curves_of(out)
    origin = origin_of(out)
    user.set_checked(pane.kind_boxes["active"], True)
    user.set_checked(pane.kind_boxes["allocated"], False)
    assert set(pane.drawn) == {key for key in curves if key[1] in ("reserved", "active")}
    user.choose(pane.component, "PTA")
    assert set(pane.drawn) == {key for key in curves if key[0] == "PTA" and key[1] in ("reserved", "active")}
    ts, mb = curves[("PTA", "reserved")]
    labels = {item.toPlainText() for item in pane.peak_items if hasattr(item, "toPlainText")}
    act_ts, act = curves[("PTA", "active")]
    assert labels == {f"Peak reserved: {mb.max():,.2f} MB (PTA)", f"Peak active: {act.max():,.2f} MB (PTA)"}
    user.click(pane.peak_button)  # allocated is off: the reserved peak, first reached
    peak_ts = int(ts[int(np.argmax(mb))])
    qtbot.waitUntil(lambda: abs(pane.time_cursor.value() - (peak_ts - origin)) < 200, timeout=5000)
    assert shown_alive(pane) == alive_at(out, peak_ts)
    assert pane.alive.note.text().startswith(f"At the peak of PTA reserved ({mb.max():,.2f} MB at ")
    # a click on the plot puts the cursor there; what is alive there is listed, the readout says the values
    vb = pane.plot.getPlotItem().getViewBox()
    t = float((ts[0] + ts[-1]) // 2 - origin)
    at = pane.plot.mapFromScene(vb.mapViewToScene(QPointF(t, float(mb.max()) / 2)))
    qtbot.mouseClick(pane.plot.viewport(), Qt.MouseButton.LeftButton, pos=at)
    qtbot.waitUntil(
        lambda: abs(pane.time_cursor.value() - t) < (vb.viewRange()[0][1] - vb.viewRange()[0][0]) / 100, timeout=5000
    )
    cursor = pane.time_cursor.value()
    assert shown_alive(pane) == alive_at(out, int(round(origin + cursor)))
    last = int(np.searchsorted(ts - origin, cursor, side="right")) - 1
    assert f"PTA reserved {mb[last]:,.2f} MB" in pane.readout.text()
    assert pane.readout.text().startswith(f"Cursor {cursor / 1e6:,.3f} ms")


TRACE_PID = 4242


def write_trace(out: Path, events: list[dict]) -> None:
    """A torch_npu trace_view.json (Chrome trace, ``ts`` as a decimal string of epoch µs) beside the files."""
    meta = [
        {"ph": "M", "name": "process_name", "pid": TRACE_PID, "tid": 0, "args": {"name": "Python"}},
        {"ph": "M", "name": "thread_name", "pid": TRACE_PID, "tid": 1, "args": {"name": "Thread 1"}},
    ]
    (out / "trace_view.json").write_text(json.dumps(meta + events), encoding="utf-8")


def cpu_op(name: str, start_us: Decimal, dur_us: float) -> dict:
    return {"ph": "X", "name": name, "pid": TRACE_PID, "tid": 1, "ts": str(start_us), "dur": dur_us, "cat": "cpu_op"}


def test_a_clicked_allocation_selects_its_operator_on_the_timeline(qtbot, user, window, run):
    out = files(run)
    ops = rows(out / "operator_memory.csv")
    target = next(r for r in ops if r["Name"] == "aten::_convolution")
    alloc_us = Decimal(target["Allocation Time(us)"].strip())
    first_us = min(Decimal(r["Timestamp(us)"].strip()) for r in rows(out / "memory_record.csv"))
    write_trace(
        out,
        [
            cpu_op("ProfilerStep#50", first_us - 1000, 400000.0),
            cpu_op("aten::_convolution", alloc_us - 40, 20.0),  # an earlier call: ends before the allocation
            cpu_op("aten::_convolution", alloc_us - 5, 60.0),  # the call that allocated
        ],
    )
    doc, pane = open_memory(qtbot, user, window, run)
    tl = doc.report.timeline
    assert pane.origin_ns == tl.origin_ns  # one time axis with the timeline
    ts, _mb = curves_of(out)[("PTA", "allocated")]
    assert pane.drawn[("PTA", "allocated")].getData()[0][0] == float(ts[0] - tl.origin_ns)
    user.retype(pane.operators.filter, "aten::_convolution")
    qtbot.waitUntil(lambda: pane.operators.model.rowCount() == sum(r["Name"] == "aten::_convolution" for r in ops))
    row = next(i for i, r in enumerate(table(pane.operators)) if float(r["Size (KB)"]) == float(target["Size(KB)"]))
    click_row(qtbot, pane.operators.view, row)
    qtbot.waitUntil(lambda: doc.timeline_view.selected is not None, timeout=5000)
    hit = doc.timeline_view.selected
    assert tl.names[int(tl.name_id[hit])] == "aten::_convolution"
    assert int(tl.start_ns[hit]) + tl.origin_ns == int((alloc_us - 5) * 1000)
    assert pane.status.text().endswith("— selected on the timeline")
    assert doc.tabs.currentWidget() is doc.memory_tab  # the user stays on the Memory tab
    # the memory cursor shows on the timeline too
    assert doc.timeline_view.cursor_line.value() == pane.time_cursor.value()
    user.click(pane.show_button)
    qtbot.waitUntil(lambda: doc.tabs.currentIndex() == 0, timeout=5000)
    assert window.details.properties()["Name"] == "aten::_convolution"
    t0, t1 = doc.timeline_view.x_range()
    assert t0 <= float(tl.start_ns[hit]) <= t1


def test_a_long_curve_is_drawn_downsampled_and_keeps_its_peak(qtbot, user, window, tmp_path):
    """300,001 records: drawn from core's downsample (a few ten thousand points), the one-record spike
    kept; the status line says so."""
    out = tmp_path / "long_ascend_pt" / "ASCEND_PROFILER_OUTPUT"
    out.mkdir(parents=True)
    n = 300_001
    rng = np.random.default_rng(7)
    mb = 1000 + np.cumsum(rng.normal(0, 0.5, n))
    spike = 123_457
    mb[spike] = mb.max() + 500
    t0 = 1736408883573957920
    lines = ["Component,Timestamp(us),Total Allocated(MB),Total Reserved(MB),Total Active(MB),Stream Ptr,Device Type"]
    lines += [
        f"PTA,{(t0 + 1000 * i) // 1000}.{(t0 + 1000 * i) % 1000:03d}\t,{v:.6f},2600.0,{v:.6f},1,NPU:0"
        for i, v in enumerate(mb)
    ]
    (out / "memory_record.csv").write_text("\n".join(lines) + "\n", encoding="utf-8")
    _doc, pane = open_memory(qtbot, user, window, out.parent)
    x, y = pane.drawn[("PTA", "allocated")].getData()
    assert len(y) < n // 10
    assert y.max() == float(f"{mb[spike]:.6f}") and x[int(np.argmax(y))] == float(spike * 1000)
    assert "Peak allocated: " + f"{float(f'{mb[spike]:.6f}'):,.2f} MB (PTA)" in {
        item.toPlainText() for item in pane.peak_items if hasattr(item, "toPlainText")
    }
    assert re.match(r"Curves of more than 200,000 points are drawn from 20,000 points each", pane.status.text())


def test_a_report_without_memory_files_has_no_memory_tab(qtbot, user, window, samples, tmp_path):
    trace = tmp_path / "trace_view.json"
    shutil.copy(samples / "torch_npu-trace_view" / "trace_view.json", trace)
    doc = open_report(qtbot, user, window, trace)
    assert "Memory" not in tab_titles(doc) and doc.memory_tab is None


def test_zh_cn_memory_tab_and_headers_are_chinese(qtbot, user, zh_window, run):
    doc = open_report(qtbot, user, zh_window, run)
    assert "内存" in tab_titles(doc)
    click_tab(qtbot, doc, "内存")
    qtbot.waitUntil(lambda: doc.memory_tab.widget is not None and doc.memory_tab.widget.isVisible(), timeout=20000)
    pane = doc.memory_tab.widget
    cjk = re.compile(r"[\u4e00-\u9fff]")
    for frame_table in (pane.operators, pane.alive):
        model = frame_table.model
        headers = [model.headerData(c, Qt.Orientation.Horizontal) for c in range(model.columnCount())]
        assert headers and all(cjk.search(h) for h in headers), headers
    for widget in (*pane.kind_boxes.values(), pane.peak_button, pane.show_button):
        assert cjk.search(widget.text()), widget.text()
    assert cjk.search(pane.component.itemText(0)) and cjk.search(pane.alive.note.text())
