"""A laid-out graph written as layout JSON or SVG (and, through the GUI's renderer, PNG).

**Layout JSON** (``format: "ascend-workbench-graph-layout"``, ``version: 1``), layout units (one
unit ~ one pixel at zoom 1), y downwards::

    {"format": "ascend-workbench-graph-layout", "version": 1,
     "graph": {"name": …, "format": "onnx"|"om"|"caffe"|"tf", "source": the model file},
     "width": …, "height": …,                        # the drawing's extent from (0, 0)
     "nodes": [{"id": 0, "name": …, "type": op type (a collapsed group: its kind, "scope"/"graph"/"function"),
                "x": …, "y": …,                       # the box centre
                "w": …, "h": …,
                "node": index in the model's node list, or null for a collapsed group,
                "group": index of the collapsed group, or null,
                "members": node count of a collapsed group (absent for a node)}, …],
     "edges": [{"source": node id, "target": node id,
                "tensors": [the tensor names it carries],   # several when parallel edges merged
                "points": [[x, y], …]}, …],          # from the source box to the target box
     "groups": [{"name": …, "kind": …, "parent": index or -1}, …],
     "collapsed": [group indexes drawn as one box]}

**SVG**: one ``<rect>`` per box, the op type (bold) and the name's last part as ``<text>``, edges
as ``<polyline>`` with an arrow head; every text is XML-escaped.

Writes are atomic, never replace the model they were made from, and refuse an existing file
unless ``force``.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from xml.sax.saxutils import escape, quoteattr

import numpy as np

from workbench.core import fsutil
from workbench.core.graph.hooks import PngRenderer, png_renderer, set_png_renderer  # noqa: F401 - re-exported
from workbench.core.graph.layout import CHAR_W, LINE_H, group_label, short_name
from workbench.core.graph.model import Graph, Layout

LAYOUT_FORMAT = "ascend-workbench-graph-layout"
LAYOUT_VERSION = 1

# PNG needs Qt: the composition root (workbench.wiring) registers the GUI's renderer in .hooks


def _members(graph: Graph, layout: Layout) -> dict[int, int]:
    if not layout.collapsed:
        return {}
    counts: dict[int, int] = {}
    for i in range(len(graph.nodes)):
        k = layout.item_of_node(graph, i)
        if k is not None and layout.items[k] < 0:
            g = int(-layout.items[k] - 1)
            counts[g] = counts.get(g, 0) + 1
    return counts


def _edge_tensors(graph: Graph, layout: Layout) -> list[list[str]]:
    out: list[list[str]] = [[] for _ in range(len(layout.edge_src))]
    if len(layout.graph_edges) == len(graph.edge_tensor):
        for e, le in enumerate(layout.graph_edges.tolist()):
            if le >= 0 and graph.edge_tensor[e] not in out[le]:
                out[le].append(graph.edge_tensor[e])
    return out


def layout_json(graph: Graph, layout: Layout) -> dict:
    """The document described in the module docstring."""
    members = _members(graph, layout)
    nodes = []
    for k, it in enumerate(layout.items.tolist()):
        box = {
            "id": k,
            "x": float(layout.x[k]),
            "y": float(layout.y[k]),
            "w": float(layout.w[k]),
            "h": float(layout.h[k]),
        }
        if it >= 0:
            n = graph.nodes[it]
            nodes.append({"id": k, "name": n.name, "type": n.op_type, **box, "node": it, "group": None})
        else:
            g = -it - 1
            grp = graph.groups[g]
            nodes.append(
                {
                    "id": k,
                    "name": grp.name,
                    "type": grp.kind,
                    **box,
                    "node": None,
                    "group": g,
                    "members": members.get(g, 0),
                }
            )
    tensors = _edge_tensors(graph, layout)
    edges = []
    for e in range(len(layout.edge_src)):
        a, b = int(layout.edge_offsets[e]), int(layout.edge_offsets[e + 1])
        edges.append(
            {
                "source": int(layout.edge_src[e]),
                "target": int(layout.edge_dst[e]),
                "tensors": tensors[e],
                "points": np.round(layout.edge_points[a:b], 2).tolist(),
            }
        )
    return {
        "format": LAYOUT_FORMAT,
        "version": LAYOUT_VERSION,
        "graph": {"name": graph.name, "format": graph.format, "source": graph.source},
        "width": float(layout.width),
        "height": float(layout.height),
        "nodes": nodes,
        "edges": edges,
        "groups": [{"name": g.name, "kind": g.kind, "parent": g.parent} for g in graph.groups],
        "collapsed": sorted(layout.collapsed),
    }


def _check_out(graph: Graph, out: str | os.PathLike[str], force: bool) -> Path:
    fsutil.refuse_inputs(out, [graph.source], inside=False)
    fsutil.refuse_existing(out, force)
    return Path(out)


def write_layout_json(graph: Graph, layout: Layout, out: str | os.PathLike[str], *, force: bool = False) -> Path:
    path = _check_out(graph, out, force)
    with fsutil.atomic_open(path, "w") as fh:
        json.dump(layout_json(graph, layout), fh, ensure_ascii=False, separators=(",", ":"))
    return path


MARGIN = 16.0
_FILL = {"Input": "#e8f4e8", "Output": "#f4e8e8", "scope": "#eef0f8", "graph": "#f6f0e4", "function": "#f0e8f6"}


def svg_text(graph: Graph, layout: Layout) -> str:
    """The SVG document of the drawing."""
    members = _members(graph, layout)
    w, h = layout.width + 2 * MARGIN, layout.height + 2 * MARGIN
    out = [
        '<?xml version="1.0" encoding="UTF-8"?>',
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{w:.0f}" height="{h:.0f}" viewBox="0 0 {w:.1f} {h:.1f}"'
        f' font-family="sans-serif" font-size="{LINE_H * 0.75:.0f}">',
        f"<title>{escape(graph.name)}</title>",
        '<defs><marker id="arrow" viewBox="0 0 8 8" refX="8" refY="4" markerWidth="6" markerHeight="6"'
        ' orient="auto"><path d="M0,0 L8,4 L0,8 z" fill="#555"/></marker></defs>',
        f'<g transform="translate({MARGIN},{MARGIN})">',
        '<g fill="none" stroke="#777" stroke-width="1.2" marker-end="url(#arrow)">',
    ]
    for e in range(len(layout.edge_src)):
        a, b = int(layout.edge_offsets[e]), int(layout.edge_offsets[e + 1])
        pts = " ".join(f"{x:.1f},{y:.1f}" for x, y in layout.edge_points[a:b].tolist())
        out.append(f'<polyline points="{pts}"/>')
    out.append("</g>")
    for k, it in enumerate(layout.items.tolist()):
        x, y, bw, bh = (float(layout.x[k]), float(layout.y[k]), float(layout.w[k]), float(layout.h[k]))
        if it >= 0:
            n = graph.nodes[it]
            first, second, kind, full = n.op_type, short_name(n.name), n.op_type, n.name
        else:
            grp = graph.groups[-it - 1]
            first, second = group_label(grp, members.get(-it - 1, 0))
            kind, full = grp.kind, grp.name
        fill = _FILL.get(kind, "#ffffff")
        dash = ' stroke-dasharray="4 2"' if it < 0 else ""
        out.append(
            f"<g><title>{escape(full)}</title>"
            f'<rect x="{x - bw / 2:.1f}" y="{y - bh / 2:.1f}" width="{bw:.1f}" height="{bh:.1f}" rx="3"'
            f' fill="{fill}" stroke="#333"{dash}/>'
            f'<text x="{x:.1f}" y="{y - 2:.1f}" text-anchor="middle" font-weight="bold">{escape(first)}</text>'
            f'<text x="{x:.1f}" y="{y + LINE_H - 4:.1f}" text-anchor="middle" fill="#444"'
            f" textLength={quoteattr(f'{min(bw - 8, CHAR_W * len(second)):.1f}')}"
            f' lengthAdjust="spacingAndGlyphs">{escape(second)}</text></g>'
        )
    out.append("</g></svg>")
    return "\n".join(out) + "\n"


def write_svg(graph: Graph, layout: Layout, out: str | os.PathLike[str], *, force: bool = False) -> Path:
    path = _check_out(graph, out, force)
    fsutil.atomic_write_text(path, svg_text(graph, layout))
    return path
