"""The graph model every loader builds and the layout and view read.

Nodes are ops (and the graph's inputs/outputs, as nodes of type :data:`INPUT` / :data:`OUTPUT`),
identified by their index in :attr:`Graph.nodes`; an edge is one tensor from a producer to one
consumer. Groups are subgraphs, functions and name scopes that collapse into one box.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field
from typing import Any

import numpy as np

INPUT = "Input"  # op type of a graph-input node
OUTPUT = "Output"  # op type of a graph-output node


@dataclass
class Tensor:
    """One input or output of a node: the tensor's name, shape (None: unknown; -1 a dynamic dim),
    dtype and format as the source writes them (e.g. ``DT_FLOAT16`` / ``NC1HWC0`` for om,
    ``float32`` for ONNX); ``initializer``: a weight/constant, not produced by a node."""

    name: str
    shape: list[int] | None = None
    dtype: str = ""
    format: str = ""
    initializer: bool = False


@dataclass
class Node:
    name: str
    op_type: str
    inputs: list[Tensor] = field(default_factory=list)
    outputs: list[Tensor] = field(default_factory=list)
    attrs: dict[str, Any] = field(default_factory=dict)  # attribute name -> plain Python value
    group: int = -1  # innermost group (index into Graph.groups), -1: top level
    original_names: list[str] = field(default_factory=list)  # om: the framework ops fused into this one


@dataclass
class Group:
    """A subgraph, function or name scope: ``kind`` is ``"graph"``, ``"function"`` or ``"scope"``."""

    name: str
    kind: str
    parent: int = -1  # enclosing group, -1: top level


@dataclass
class Graph:
    name: str
    format: str  # "onnx", "om", "caffe", "tf"
    source: str  # the file it was read from
    nodes: list[Node]
    edge_src: np.ndarray  # int64 node index of each edge's producer
    edge_dst: np.ndarray  # int64 node index of each edge's consumer
    edge_tensor: list[str]  # the tensor name each edge carries
    groups: list[Group] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)  # one line each: what was skipped or guessed

    def index(self, name: str) -> int | None:
        """The node named ``name`` (exact), or None."""
        cache = self.__dict__.get("_by_name")
        if cache is None:
            cache = self.__dict__["_by_name"] = {n.name: i for i, n in reversed(list(enumerate(self.nodes)))}
        return cache.get(name)

    def find(self, text: str, field: str = "any") -> list[int]:
        """Nodes whose name (``field="name"``), op type (``"type"``) or either (``"any"``) contains
        ``text``, case-insensitively, in node order; an exact name match comes first."""
        needle = text.strip().lower()
        if not needle:
            return []
        hits = []
        for i, n in enumerate(self.nodes):
            if (field in ("any", "name") and needle in n.name.lower()) or (
                field in ("any", "type") and needle in n.op_type.lower()
            ):
                hits.append(i)
        exact = self.index(text.strip())
        if exact is not None and exact in hits:
            hits.remove(exact)
            hits.insert(0, exact)
        return hits

    def by_original_name(self, name: str) -> list[int]:
        """Nodes (om) whose fused originals include ``name``, or the node of that name."""
        out = [i for i, n in enumerate(self.nodes) if name in n.original_names]
        own = self.index(name)
        if own is not None and own not in out:
            out.insert(0, own)
        return out

    def successors(self, i: int) -> list[int]:
        return sorted({int(d) for d in self.edge_dst[self.edge_src == i]})

    def predecessors(self, i: int) -> list[int]:
        return sorted({int(s) for s in self.edge_src[self.edge_dst == i]})

    def path(self, a: int, b: int) -> list[int] | None:
        """A shortest directed path of nodes from ``a`` to ``b`` (either direction tried), or None."""
        for s, t in ((a, b), (b, a)):
            found = self._bfs(s, t)
            if found is not None:
                return found if s == a else found[::-1]
        return None

    def _bfs(self, s: int, t: int) -> list[int] | None:
        order = np.argsort(self.edge_src, kind="stable")
        src = self.edge_src[order]
        dst = self.edge_dst[order]
        starts = np.searchsorted(src, np.arange(len(self.nodes) + 1))
        prev = {s: -1}
        todo = deque([s])
        while todo:
            u = todo.popleft()
            if u == t:
                out = [u]
                while prev[out[-1]] != -1:
                    out.append(prev[out[-1]])
                return out[::-1]
            for v in dst[starts[u] : starts[u + 1]]:
                v = int(v)
                if v not in prev:
                    prev[v] = u
                    todo.append(v)
        return None

    def group_path(self, g: int) -> list[int]:
        """``g`` and its enclosing groups, innermost first."""
        out = []
        while g >= 0:
            out.append(g)
            g = self.groups[g].parent
        return out


@dataclass
class Layout:
    """Where each visible item sits. An item is a node (``items[k] >= 0``: its node index) or a
    collapsed group drawn as one box (``items[k] < 0``: group ``-items[k] - 1``). Coordinates are
    layout units (one unit ~ one pixel at zoom 1), y grows downwards, ``x``/``y`` are box centres.
    Edge ``e`` runs from item ``edge_src[e]`` to item ``edge_dst[e]`` (positions in ``items``) along
    the points ``edge_points[edge_offsets[e]:edge_offsets[e + 1]]`` (first at the source box's
    bottom, last at the target box's top; an edge reversed to break a cycle runs upwards, from the
    source box's top to the target box's bottom)."""

    items: np.ndarray  # int64
    x: np.ndarray  # float64 centres
    y: np.ndarray
    w: np.ndarray  # float64 sizes
    h: np.ndarray
    edge_src: np.ndarray  # int64 item positions
    edge_dst: np.ndarray
    edge_points: np.ndarray  # float64 (P, 2)
    edge_offsets: np.ndarray  # int64 (E + 1,)
    width: float
    height: float
    collapsed: frozenset[int] = frozenset()  # the collapsed groups this layout was made with
    # per graph edge: the layout edge drawing it (-1: inside a collapsed box); parallel edges share one
    graph_edges: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=np.int64))
    figures: dict[str, int] = field(default_factory=dict)  # layers, dummies, crossings, reversed edges

    def item_of_node(self, graph: Graph, i: int) -> int | None:
        """The position in ``items`` of node ``i``, or of the outermost collapsed group holding it."""
        cache = self.__dict__.get("_pos")
        if cache is None:
            cache = self.__dict__["_pos"] = {int(v): k for k, v in enumerate(self.items)}
        for g in reversed(graph.group_path(graph.nodes[i].group)):
            if g in self.collapsed:
                return cache.get(-g - 1)
        return cache.get(i)
