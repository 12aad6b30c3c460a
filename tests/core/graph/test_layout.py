"""The layered layout's invariants: edges run downwards layer by layer (after cycle breaking), no two
boxes of a layer overlap, routes start and end at their boxes, a collapsed group is one box with
its edges re-targeted and merged; progress is reported and a cancel ends the work."""

from __future__ import annotations

import numpy as np
import pytest

from workbench.core.graph.layout import (
    CHAR_W,
    NODE_H,
    crossings,
    layout_graph,
    node_size,
    short_name,
)
from workbench.core.graph.load import load_graph
from workbench.core.graph.model import Graph, Group, Layout, Node
from workbench.core.tasks import Cancelled, CancelToken, RecordingProgress


def hand_graph(names: list[str], edges: list[tuple[int, int]], groups=(), member_of=None) -> Graph:
    member_of = member_of or {}
    nodes = [Node(n, "Op", group=member_of.get(i, -1)) for i, n in enumerate(names)]
    return Graph(
        "hand",
        "onnx",
        "hand.onnx",
        nodes,
        np.asarray([a for a, _ in edges], dtype=np.int64),
        np.asarray([b for _, b in edges], dtype=np.int64),
        [f"t{k}" for k in range(len(edges))],
        groups=list(groups),
    )


def route(lay: Layout, e: int) -> np.ndarray:
    return lay.edge_points[lay.edge_offsets[e] : lay.edge_offsets[e + 1]]


def check_invariants(lay: Layout) -> None:
    k = len(lay.items)
    assert len(lay.x) == len(lay.y) == len(lay.w) == len(lay.h) == k
    assert len(lay.edge_offsets) == len(lay.edge_src) + 1
    # no two boxes of one layer overlap
    for y in np.unique(lay.y):
        row = np.flatnonzero(lay.y == y)
        order = row[np.argsort(lay.x[row])]
        right = lay.x[order] + lay.w[order] / 2
        left = lay.x[order] - lay.w[order] / 2
        assert np.all(left[1:] >= right[:-1] - 1e-6), f"overlap in the layer at y={y}"
    assert np.all(lay.x - lay.w / 2 >= -1e-6) and np.all(lay.y - lay.h / 2 >= -1e-6)
    assert lay.width >= float((lay.x + lay.w / 2).max()) - 1e-6
    reversed_edges = 0
    for e in range(len(lay.edge_src)):
        s, t = int(lay.edge_src[e]), int(lay.edge_dst[e])
        pts = route(lay, e)
        assert len(pts) >= 2
        assert lay.y[s] != lay.y[t], "an edge inside one layer"
        down = lay.y[t] > lay.y[s]
        reversed_edges += not down
        # the route leaves the source box at its bottom (top when reversed) and ends at the target's top (bottom)
        sy = lay.y[s] + (lay.h[s] / 2 if down else -lay.h[s] / 2)
        ty = lay.y[t] - (lay.h[t] / 2 if down else -lay.h[t] / 2)
        assert pts[0] == pytest.approx([lay.x[s], sy]) and pts[-1] == pytest.approx([lay.x[t], ty])
        # layer by layer: one bend per layer passed, monotone in y
        ys = pts[:, 1]
        assert np.all(np.diff(ys) > 0) if down else np.all(np.diff(ys) < 0)
    assert reversed_edges == lay.figures["reversed"]


def test_synthetic_model_layout_keeps_the_invariants(synth300):
    g = load_graph(synth300)
    lay = layout_graph(g)
    assert sorted(lay.items.tolist()) == list(range(len(g.nodes)))
    check_invariants(lay)
    assert lay.figures["reversed"] == 0 and lay.figures["dummies"] > 0
    # the graph's edges are all drawn: each maps to a layout edge joining its two nodes
    assert len(lay.graph_edges) == len(g.edge_src) and np.all(lay.graph_edges >= 0)
    pos = {int(v): k for k, v in enumerate(lay.items)}
    for e, le in enumerate(lay.graph_edges.tolist()):
        assert (lay.edge_src[le], lay.edge_dst[le]) == (pos[int(g.edge_src[e])], pos[int(g.edge_dst[e])])
    # every edge goes downwards: the source's layer is above the target's
    assert np.all(lay.y[lay.edge_dst] > lay.y[lay.edge_src])


def test_real_om_sample_layout(samples):
    g = load_graph(samples / "atc-om2json-large/test.om.json")
    lay = layout_graph(g)
    check_invariants(lay)
    assert crossings(lay) == lay.figures["crossings"]


def test_cycles_are_broken_and_drawn_back_up():
    g = hand_graph(["a", "b", "c", "d"], [(0, 1), (1, 2), (2, 1), (2, 3), (3, 0)])
    lay = layout_graph(g)
    check_invariants(lay)
    assert lay.figures["reversed"] >= 1
    assert lay.y[1] < lay.y[2] < lay.y[3]  # the DFS from a: a, b, c, d downwards


def test_self_loops_and_parallel_edges_give_one_route():
    g = hand_graph(["a", "b"], [(0, 1), (0, 1), (1, 1)])
    lay = layout_graph(g)
    assert len(lay.edge_src) == 1 and lay.graph_edges.tolist() == [0, 0, -1]


def test_a_collapsed_group_is_one_box_with_edges_retargeted_and_merged():
    # in -> [g: a -> b, a -> c] -> out, in -> c; nested scope h = {b} inside g
    groups = [Group("g", "scope"), Group("g/h", "scope", parent=0)]
    g = hand_graph(
        ["in", "g/a", "g/h/b", "g/c", "out"],
        [(0, 1), (1, 2), (1, 3), (0, 3), (2, 4), (3, 4)],
        groups,
        member_of={1: 0, 2: 1, 3: 0},
    )
    open_lay = layout_graph(g)
    assert len(open_lay.items) == 5 and len(open_lay.edge_src) == 6
    lay = layout_graph(g, frozenset({0, 1}))  # the inner one is hidden in the outer
    assert lay.items.tolist() == [0, -1, 4]
    assert lay.collapsed == frozenset({0, 1})
    check_invariants(lay)
    pairs = sorted(zip(lay.edge_src.tolist(), lay.edge_dst.tolist()))
    assert pairs == [(0, 1), (1, 2)]  # in -> g twice and g -> out twice merged; inside edges gone
    assert lay.graph_edges.tolist() == [0, -1, -1, 0, 1, 1]
    assert lay.item_of_node(g, 2) == 1 and lay.item_of_node(g, 4) == 2
    assert lay.w[1] > node_size(g.nodes[1])[0] - 1  # the group box has its own label
    inner = layout_graph(g, frozenset({1}))
    assert sorted(inner.items.tolist()) == [-2, 0, 1, 3, 4]


def test_node_sizes_follow_the_label_lengths():
    short = Node("/enc/layer.0/MatMul", "MatMul")
    long = Node("/enc/layer.0/a_much_longer_operator_name_here_and_more", "MatMul")
    assert short_name(short.name) == "MatMul"
    assert node_size(short)[1] == NODE_H
    assert node_size(long)[0] > node_size(short)[0]
    assert node_size(long)[0] <= 16 + CHAR_W * 28 + 1e-9  # the name is elided


def test_crossings_are_counted_on_a_drawing():
    # two boxes on top, two below, edges crossing once: 0 -> 3, 1 -> 2
    x = np.array([0.0, 100.0, 0.0, 100.0])
    y = np.array([0.0, 0.0, 100.0, 100.0])
    pts = np.array([[0, 10], [100, 90], [100, 10], [0, 90]], dtype=np.float64)
    lay = Layout(
        items=np.arange(4),
        x=x,
        y=y,
        w=np.full(4, 20.0),
        h=np.full(4, 20.0),
        edge_src=np.array([0, 1]),
        edge_dst=np.array([3, 2]),
        edge_points=pts,
        edge_offsets=np.array([0, 2, 4]),
        width=110.0,
        height=110.0,
    )
    assert crossings(lay) == 1
    lay.edge_dst = np.array([2, 3])
    assert crossings(lay) == 0


def test_progress_and_cancel(synth300):
    g = load_graph(synth300)
    rec = RecordingProgress()
    layout_graph(g, progress=rec)
    statuses = [v for kind, v in rec.events if kind == "status"]
    fractions = [v for kind, v in rec.events if kind == "fraction"]
    assert {"Layering", "Ordering", "Placing"} <= set(statuses)
    assert fractions and fractions[-1] == 1.0 and fractions == sorted(fractions)

    token = CancelToken()

    class CancelOnOrdering(RecordingProgress):
        def status(self, text: str) -> None:
            super().status(text)
            if text == "Ordering":
                token.cancel()

    with pytest.raises(Cancelled):
        layout_graph(g, progress=CancelOnOrdering(), cancel=token)


def test_an_empty_graph():
    lay = layout_graph(hand_graph([], []))
    assert len(lay.items) == 0 and lay.width == 0.0 and len(lay.edge_offsets) == 1
