"""The graph document's work functions (run as tasks, off the GUI thread): read a model, lay it out
and prepare what the canvas paints (:class:`~workbench.ui.graph.scene.SceneData`, its overview
image included: QImage painting is allowed on a worker thread)."""

from __future__ import annotations

import contextlib
import os
import tempfile
from pathlib import Path
from typing import Any

from PySide6.QtCore import QT_TRANSLATE_NOOP

from workbench.core.graph.model import Graph
from workbench.core.tasks import CancelToken, Progress, ScaledProgress
from workbench.ui.graph.scene import SceneData

LARGE_GRAPH = 2000  # more nodes than this: open with the top-level scopes collapsed
MIN_ITEMS = 8  # collapsing should leave at least this many boxes, else one level deeper


def initial_collapsed(graph: Graph) -> frozenset[int]:
    """The groups a graph opens collapsed: none up to :data:`LARGE_GRAPH` nodes; above, the
    top-level groups — or, where that leaves fewer than :data:`MIN_ITEMS` boxes (one scope
    holding everything), the first level below that does."""
    if len(graph.nodes) <= LARGE_GRAPH or not graph.groups:
        return frozenset()
    children: dict[int, list[int]] = {}
    for g, group in enumerate(graph.groups):
        children.setdefault(group.parent, []).append(g)
    loose = sum(1 for n in graph.nodes if n.group < 0)
    level = children.get(-1, [])
    for _ in range(8):
        if loose + len(level) >= MIN_ITEMS:
            break
        deeper = [c for g in level for c in children.get(g, [])]
        if not deeper:
            break
        # the expanded groups' own nodes become loose boxes
        opened = {g for g in level if children.get(g)}
        loose += sum(1 for n in graph.nodes if n.group in opened)
        level = deeper + [g for g in level if not children.get(g)]
    return frozenset(level)


def _load(path: str, transport: Any, toolkit: Any, progress: Progress, cancel: CancelToken) -> Graph:
    from workbench.core.graph.load import load_graph

    if Path(path).suffix.lower() != ".om":
        return load_graph(path, progress=progress, cancel=cancel)
    from workbench.core.atc.structure import read_om

    # an .om is read as its om JSON: atc --mode=1 on a CANN machine (as the structure view does)
    fd, json_path = tempfile.mkstemp(prefix="wb-graph-", suffix=".json")
    os.close(fd)
    try:
        read_om(
            path, transport, toolkit, save_json=json_path, progress=ScaledProgress(progress, 0.0, 0.6), cancel=cancel
        )
        graph = load_graph(json_path, progress=ScaledProgress(progress, 0.6, 1.0), cancel=cancel)
    finally:
        with contextlib.suppress(OSError):
            os.unlink(json_path)
    graph.source = path
    return graph


def open_graph(
    path: str,
    transport: Any = None,
    toolkit: Any = None,
    *,
    collapsed: frozenset[int] | None = None,
    progress: Progress,
    cancel: CancelToken,
) -> SceneData:
    """Work function: ``path`` read (an .om through ``transport``), laid out with ``collapsed`` (None:
    :func:`initial_collapsed`) and prepared for painting."""
    from workbench.core.graph.layout import layout_graph

    graph = _load(path, transport, toolkit, ScaledProgress(progress, 0.0, 0.35), cancel)
    cancel.raise_if_cancelled()
    groups = initial_collapsed(graph) if collapsed is None else collapsed
    layout = layout_graph(graph, groups, progress=ScaledProgress(progress, 0.35, 0.9), cancel=cancel)
    cancel.raise_if_cancelled()
    data = SceneData(graph, layout)
    progress.fraction(1.0)
    return data


def relayout(graph: Graph, collapsed: frozenset[int], *, progress: Progress, cancel: CancelToken) -> SceneData:
    """Work function: ``graph`` laid out again with other groups collapsed."""
    from workbench.core.graph.layout import layout_graph

    layout = layout_graph(graph, collapsed, progress=ScaledProgress(progress, 0.0, 0.9), cancel=cancel)
    cancel.raise_if_cancelled()
    data = SceneData(graph, layout)
    progress.fraction(1.0)
    return data


def map_models(first: Graph, second: Graph, *, progress: Progress, cancel: CancelToken) -> dict[int, list[int]]:
    """Work function: which nodes of ``second`` each node of ``first`` stands for, in both
    directions' sense: an om graph's fused op -> its original ONNX ops (core ``map_fused``), the
    reverse for ONNX -> om, else nodes of the same name."""
    cancel.raise_if_cancelled()
    if first.format == "om" and second.format != "om":
        from workbench.core.graph.mapping import map_fused

        return {int(k): [int(v) for v in vs] for k, vs in map_fused(second, first).items()}
    if second.format == "om" and first.format != "om":
        from workbench.core.graph.mapping import map_fused

        out: dict[int, list[int]] = {}
        for om, originals in map_fused(first, second).items():
            for o in originals:
                out.setdefault(int(o), []).append(int(om))
        return out
    out = {}
    for i, node in enumerate(first.nodes):
        j = second.index(node.name)
        if j is not None:
            out[i] = [j]
    return out


EXPORT_SUFFIXES = (".svg", ".png", ".json")


def export_graph(graph: Graph, layout: Any, path: str, *, progress: Progress, cancel: CancelToken) -> Path:
    """Work function: the graph as shown (its collapsed groups as boxes) written to ``path``, by its
    suffix: SVG, PNG or the layout JSON (core ``graph.export``). The user chose the file in a dialog
    that asked before replacing one; the model itself is never written over."""
    from workbench.core.graph import export

    cancel.raise_if_cancelled()
    progress.status(f"Writing {Path(path).name}")
    suffix = Path(path).suffix.lower()
    if suffix == ".svg":
        return export.write_svg(graph, layout, path, force=True)
    if suffix == ".json":
        return export.write_layout_json(graph, layout, path, force=True)
    from workbench.ui.graph.render import render_png

    return render_png(graph, layout, path)


# The translations of core's layout status lines (core graph.layout.STATUS_TEMPLATES, shown by ui/labels.tr_status).
STATUS_TEMPLATES = (
    QT_TRANSLATE_NOOP("GraphStatus", "Layering"),
    QT_TRANSLATE_NOOP("GraphStatus", "Ordering"),
    QT_TRANSLATE_NOOP("GraphStatus", "Placing"),
)
