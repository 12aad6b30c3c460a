"""The Communication tab of a report document over the real torch_npu sample (rank 0 of a 2-rank 910B
job: communication.json, communication_matrix.json), driven as a user does: File ▸ Open Report…, click
the Communication tab, read the op table, click an op (its bandwidth per transport and packet sizes),
filter by step and kind, read the rank heatmap per op and aggregated (tooltips), click an op that the
timeline has. Numbers are checked against the files read here with json and Decimal."""

from __future__ import annotations

import copy
import json
import re
from decimal import Decimal
from pathlib import Path

import numpy as np
import pytest
from PySide6.QtCore import QCoreApplication, QPoint, Qt
from reportkit import (  # tests/ui is on sys.path
    click_row,
    open_tab,
    sample_run,
    table,
)

TOTAL = "Total Op Info"
TIME_FIELDS = {
    "Elapse (ms)": "Elapse Time(ms)",
    "Transit (ms)": "Transit Time(ms)",
    "Wait (ms)": "Wait Time(ms)",
    "Synchronization (ms)": "Synchronization Time(ms)",
    "Idle (ms)": "Idle Time(ms)",
    "Wait Ratio": "Wait Time Ratio",
    "Synchronization Ratio": "Synchronization Time Ratio",
}


@pytest.fixture
def run(tmp_path, samples) -> Path:
    return sample_run(tmp_path, samples)


def comm_json(run: Path) -> dict:
    return json.loads((run / "ASCEND_PROFILER_OUTPUT" / "communication.json").read_text())


def matrix_json(run: Path) -> dict:
    return json.loads((run / "ASCEND_PROFILER_OUTPUT" / "communication_matrix.json").read_text())


def open_comm(qtbot, user, window, path: Path, title: str = "Communication"):
    return open_tab(qtbot, user, window, path, title, "comm_tab")


def fmt(value) -> str:
    """A number as the tables write it (FrameTable: integers plain, else 3 decimals)."""
    value = float(value)
    return f"{int(value)}" if value.is_integer() else f"{value:.3f}"


def start_ns(info: dict) -> int:
    """``Start Timestamp(us)`` exact, from the number's text as the file writes it."""
    return int(Decimal(repr(info["Start Timestamp(us)"])) * 1000)


def ops_of(doc: dict) -> list[tuple[int, str, str, dict]]:
    """(step, kind, op key, op) of communication.json, Total Op Info last in each kind, as in the file."""
    out = []
    for step_key, kinds in doc.items():
        for kind, ops in kinds.items():
            for op, value in ops.items():
                out.append((int(step_key.removeprefix("step")), kind, op, value))
    return out


def test_the_op_table_and_an_ops_bandwidth_and_packet_sizes(qtbot, user, window, run):
    data = comm_json(run)
    ops = [o for o in ops_of(data) if o[2] != TOTAL]
    totals = [o for o in ops_of(data) if o[2] == TOTAL]
    doc, pane = open_comm(qtbot, user, window, run)
    shown = table(pane.ops)
    assert len(shown) == len(ops) + len(totals)
    origin = min(start_ns(o[3]["Communication Time Info"]) for o in ops)
    for got, (step, kind, op, value) in zip(shown, ops):
        info = value["Communication Time Info"]
        name, group = op.split("@")
        assert (got["Step"], got["Kind"], got["Operator"], got["Group"]) == (str(step), kind, name, group)
        assert got["Start (ms)"] == fmt((start_ns(info) - origin) / 1e6)
        for header, key in TIME_FIELDS.items():
            assert got[header] == fmt(info[key]), header
    total_row = len(ops)
    assert shown[total_row]["Operator"] == TOTAL
    assert shown[total_row]["Elapse (ms)"] == fmt(totals[0][3]["Communication Time Info"]["Elapse Time(ms)"])
    assert pane.ops.model.highlight[total_row] and not pane.ops.model.highlight[:total_row].any()
    # a click on the first op: its bandwidth per transport, in the file's order, and its packet sizes
    click_row(qtbot, pane.ops.view, 0)
    first = ops[0][3]["Communication Bandwidth Info"]
    qtbot.waitUntil(lambda: pane.bandwidth.model.rowCount() == len(first), timeout=5000)
    assert pane.detail_title.text() == f"{ops[0][2].split('@')[0]} (step {ops[0][0]}): bandwidth per transport"
    for got, (transport, info) in zip(table(pane.bandwidth), first.items()):
        assert got == {
            "Transport": transport,
            "Transit Size (MB)": fmt(info["Transit Size(MB)"]),
            "Transit Time (ms)": fmt(info["Transit Time(ms)"]),
            "Bandwidth (GB/s)": fmt(info["Bandwidth(GB/s)"]),
            "Large Packet Ratio": fmt(info["Large Packet Ratio"]),
        }
    packets = [(t, float(size), n) for t, info in first.items() for size, (n, _ms) in info["Size Distribution"].items()]
    assert len(pane.sizes.names) == len(packets)
    assert sorted(zip(pane.sizes.names, pane.sizes.values)) == sorted(
        (f"{t} {size:g} MB", float(n)) for t, size, n in packets
    )
    assert pane.status.text() == f"{ops[0][2].split('@')[0]}: the report has no timeline"
    # the Total Op Info row: its transports, bandwidth = size / time (the file gives none for it)
    click_row(qtbot, pane.ops.view, total_row)
    qtbot.waitUntil(lambda: pane.detail_title.text().startswith(f"{TOTAL} (step "), timeout=5000)
    for got, (transport, info) in zip(table(pane.bandwidth), totals[0][3]["Communication Bandwidth Info"].items()):
        assert (got["Transport"], got["Transit Size (MB)"]) == (transport, fmt(info["Transit Size(MB)"]))
        size, ms = float(info["Transit Size(MB)"]), float(info["Transit Time(ms)"])
        assert got["Bandwidth (GB/s)"] == fmt(size / ms if ms else 0.0)
    total_packets = sum(len(i["Size Distribution"]) for i in totals[0][3]["Communication Bandwidth Info"].values())
    assert len(pane.sizes.names) == total_packets
    assert not pane.show_button.isEnabled()


def test_the_rank_matrix_aggregated_and_per_op_with_tooltips(qtbot, user, window, run):
    matrix = matrix_json(run)["step50"]["collective"]
    doc, pane = open_comm(qtbot, user, window, run)
    heat = pane.heatmap
    ranks = sorted({int(r) for links in matrix.values() for link in links for r in link.split("-")})
    assert heat.ranks == ranks
    # aggregated: torch_npu's "-total" entry already sums the op type's ops (nothing counted twice)
    total = next(g for g in matrix if g.startswith("allreduce-total@"))
    assert pane.group_op.currentText() == "All ops (aggregated)"

    def expected(entry):
        grid = np.full((len(ranks), len(ranks)), np.nan)
        for link, info in matrix[entry].items():
            s, d = (int(r) for r in link.split("-"))
            grid[ranks.index(s), ranks.index(d)] = info["Bandwidth(GB/s)"]
        return grid

    assert np.array_equal(heat.bandwidth, expected(total), equal_nan=True)
    assert pane.matrix_title.text() == (
        f"Bandwidth (GB/s) from source rank to destination rank: {len(ranks)} ranks, {len(matrix[total])} links."
    )
    # an aggregated cell's tooltip: the link's summed size and time (here its one "-total" entry), not
    # the file's six entries of the link (top1 … total) to add up by hand
    link = matrix[total]["0-1"]
    lines = [
        "Rank 0 → rank 1",
        f"Transport: {link['Transport Type']}",
        f"Bandwidth: {link['Bandwidth(GB/s)']:,.3f} GB/s",
        f"Size: {link['Transit Size(MB)']:,.3f} MB",
        f"Time: {link['Transit Time(ms)']:,.4f} ms",
        "Matrix entries summed: 1",
    ]
    hover(qtbot, heat, ranks.index(0), ranks.index(1), "\n".join(lines), whole=True)
    # one op of the matrix
    top1 = next(g for g in matrix if g.startswith("allreduce-top1@"))
    assert [pane.group_op.itemText(i) for i in range(1, pane.group_op.count())] == list(matrix)
    user.choose(pane.group_op, top1)
    qtbot.waitUntil(lambda: np.array_equal(heat.bandwidth, expected(top1), equal_nan=True), timeout=5000)
    link = matrix[top1]["0-1"]
    size, ms, kind = link["Transit Size(MB)"], link["Transit Time(ms)"], link["Transport Type"]
    lines = [
        "Rank 0 → rank 1",
        f"Transport: {kind}",
        f"Bandwidth: {link['Bandwidth(GB/s)']:,.3f} GB/s",
        f"Size: {size:,.3f} MB",
        f"Time: {ms:,.4f} ms",
    ]
    hover(qtbot, heat, ranks.index(0), ranks.index(1), "\n".join(lines), whole=True)
    # a rank pair with no link says so
    hover(qtbot, heat, ranks.index(1), ranks.index(0), "Rank 1 → rank 0: no link")


def hover(qtbot, heat, i: int, j: int, starts: str, whole: bool = False) -> None:
    """Move the mouse onto cell (src i, dst j) of the heatmap until its tooltip starts with ``starts``
    (is ``starts`` when ``whole``), aimed again while the plot settles into its final size."""

    jiggle = [0]

    def there() -> None:
        jiggle[0] ^= 1  # one pixel apart each time: a move to where the mouse already is sends nothing
        qtbot.mouseMove(heat.view.viewport(), heat.view.mapFromScene(heat.cell_center(i, j)) + QPoint(jiggle[0], 0))
        text = heat.view.toolTip()
        if whole:
            assert text.split("\n") == starts.split("\n")
        else:
            assert text.startswith(starts), text

    qtbot.waitUntil(there, timeout=5000)


def test_step_and_kind_filters(qtbot, user, window, run):
    """A second step with a point-to-point op (the sample's first op as an hcom_send): the step and
    kind filters list exactly those ops."""
    path = run / "ASCEND_PROFILER_OUTPUT" / "communication.json"
    data = json.loads(path.read_text())
    op, value = next(iter(data["step50"]["collective"].items()))
    data["step51"] = {"p2p": {"hcom_send__7_0_1@" + op.split("@")[1]: copy.deepcopy(value)}, "collective": {}}
    path.write_text(json.dumps(data))
    _doc, pane = open_comm(qtbot, user, window, run)
    assert [pane.step.itemText(i) for i in range(pane.step.count())] == ["All steps", "50", "51"]
    assert [pane.kind.itemText(i) for i in range(pane.kind.count())] == ["All kinds", "collective", "p2p"]
    every = len(table(pane.ops))
    user.choose(pane.step, "51")
    qtbot.waitUntil(lambda: len(table(pane.ops)) == 1, timeout=5000)
    assert [(r["Step"], r["Kind"], r["Operator"]) for r in table(pane.ops)] == [("51", "p2p", "hcom_send__7_0_1")]
    user.step_to(pane.step, "All steps")  # (typed right after "51", the keyboard search would look for "51All")
    user.step_to(pane.kind, "collective")
    qtbot.waitUntil(lambda: len(table(pane.ops)) == every - 1, timeout=5000)
    assert {r["Step"] for r in table(pane.ops)} == {"50"} and {r["Kind"] for r in table(pane.ops)} == {"collective"}
    assert pane.ops.note.text() == f"{every - 2} ops; the highlighted rows are the totals of a step (Total Op Info)."


def test_a_clicked_op_is_selected_on_the_timeline(qtbot, user, window, run):
    """With a trace beside the files holding the op (and an earlier slice of the same name), a click
    on the op's row selects the slice that starts when communication.json says the op started."""
    data = comm_json(run)
    step, kind, op, value = next(o for o in ops_of(data) if o[2] != TOTAL)
    info = value["Communication Time Info"]
    start_us = Decimal(repr(info["Start Timestamp(us)"]))
    name = op.split("@")[0]
    events = [
        {"ph": "M", "name": "process_name", "pid": 9, "tid": 0, "args": {"name": "HCCL"}},
        {"ph": "M", "name": "thread_name", "pid": 9, "tid": 1, "args": {"name": "Communication"}},
        {
            "ph": "X",
            "name": name,
            "pid": 9,
            "tid": 1,
            "ts": str(start_us - 1_000_000),
            "dur": 100.0,
            "cat": "HostToDevice",
        },
        {
            "ph": "X",
            "name": name,
            "pid": 9,
            "tid": 1,
            "ts": str(start_us),
            "dur": info["Elapse Time(ms)"] * 1000,
            "cat": "HostToDevice",
        },
    ]
    (run / "ASCEND_PROFILER_OUTPUT" / "trace_view.json").write_text(json.dumps(events))
    doc, pane = open_comm(qtbot, user, window, run)
    tl = doc.report.timeline
    assert table(pane.ops)[0]["Start (ms)"] == fmt((int(start_us * 1000) - tl.origin_ns) / 1e6)  # the timeline's axis
    click_row(qtbot, pane.ops.view, 0)
    qtbot.waitUntil(lambda: doc.timeline_view.selected is not None, timeout=5000)
    hit = doc.timeline_view.selected
    assert tl.names[int(tl.name_id[hit])] == name
    assert int(tl.start_ns[hit]) + tl.origin_ns == int(start_us * 1000)
    assert pane.status.text() == f"{name}: selected on the timeline"
    assert doc.tabs.currentWidget() is doc.comm_tab
    user.click(pane.show_button)
    qtbot.waitUntil(lambda: doc.tabs.currentIndex() == 0, timeout=5000)
    assert window.details.properties()["Name"] == name


def test_zh_cn_communication_tab_and_headers_are_chinese(qtbot, user, zh_window, run):
    title = QCoreApplication.translate("ReportDocument", "Communication")
    cjk = re.compile(r"[\u4e00-\u9fff]")
    assert cjk.search(title)
    doc, pane = open_comm(qtbot, user, zh_window, run, title)
    click_row(qtbot, pane.ops.view, 0)
    qtbot.waitUntil(lambda: pane.bandwidth.model.rowCount() > 0, timeout=5000)
    for frame_table in (pane.ops, pane.bandwidth):
        model = frame_table.model
        headers = [model.headerData(c, Qt.Orientation.Horizontal) for c in range(model.columnCount())]
        assert headers and all(cjk.search(h) for h in headers), headers
    for text in (pane.step.itemText(0), pane.kind.itemText(0), pane.group_op.itemText(0), pane.matrix_title.text()):
        assert cjk.search(text), text
    assert cjk.search(pane.detail_title.text()) and cjk.search(pane.show_button.text())
