"""The layered (Sugiyama) layout of a :class:`~workbench.core.graph.model.Graph`, in numpy.

:func:`layout_graph` (a work function: progress, cancellable) goes through the classic steps:

1. **items**: every node not inside a collapsed group, and one box per outermost collapsed group;
   graph edges re-targeted to the items, self loops dropped, parallel edges merged
   (``Layout.graph_edges`` says which layout edge draws each graph edge, -1: inside a box);
2. **cycle breaking**: the back edges of a depth-first search are reversed (their routes still run
   from source to target: from the source box's top to the target box's bottom);
3. **layering**: longest path from the sources, then every source pulled down to just above its
   first consumer (weights and constants sit beside their op, not all on layer 0);
4. **dummy nodes** on every layer an edge passes, so that every edge spans one layer;
5. **crossing reduction**: barycentre sweeps down and up (each layer sorted by the mean position
   of its neighbours in the layer swept from), the order with the fewest crossings kept (counted
   exactly, merge-sort inversions over every layer pair at once);
6. **coordinates**: each node pulled to the weighted mean x of its neighbours (long edges weigh
   more, so they run straight), then projected onto "in order, no overlap" per layer (the mean
   of the leftmost and rightmost feasible placements, a vectorised cumulative max); alternating
   down/up passes;
7. **routes**: polylines through the dummies' positions.

Every step is vectorised over all layers except the sweeps (one small numpy step per layer). The
engine was chosen by measurement against dagre, igraph's Sugiyama and grandalf: see
``benchmarks/bench_graph_layout.py``.

Box sizes come from :func:`node_size` (a character-count model: op type on the first line, the
name's last part on the second; the view draws with :data:`CHAR_W` wide characters and
:data:`LINE_H` high lines).
"""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np

from workbench.core.graph.model import Graph, Group, Layout, Node
from workbench.core.tasks import CancelToken, NullProgress, Progress

CHAR_W = 7.0  # layout units per character of the label font
LINE_H = 16.0  # layout units per label line
PAD_X = 16.0  # horizontal padding inside a box (both sides together)
PAD_Y = 8.0  # vertical padding inside a box
MIN_W = 48.0
NAME_MAX_CHARS = 28  # a longer name's tail is shown, elided at the left
NODE_H = 2 * LINE_H + PAD_Y
GROUP_H = 2 * LINE_H + PAD_Y + 8.0
RANK_SEP = 36.0  # vertical gap between layers
NODE_SEP = 24.0  # horizontal gap between boxes
EDGE_SEP = 8.0  # horizontal gap next to an edge's dummy
DUMMY_W = 4.0
SWEEPS = 4  # down+up sweep pairs of the crossing reduction
PLACE_PASSES = 12

# The status lines of a layout (progress.status); the UI shows them translated (ui/labels.tr_status; their
# translations: ui/graph/work.STATUS_TEMPLATES).
LAYERING = "Layering"
ORDERING = "Ordering"
PLACING = "Placing"
STATUS_TEMPLATES = (LAYERING, ORDERING, PLACING)


def short_name(name: str) -> str:
    """The second label line: the name's last ``/`` part, left-elided to :data:`NAME_MAX_CHARS`."""
    tail = name.rstrip("/").rsplit("/", 1)[-1] or name
    return tail if len(tail) <= NAME_MAX_CHARS else "…" + tail[-(NAME_MAX_CHARS - 1) :]


def node_size(node: Node) -> tuple[float, float]:
    """Width and height of a node's box: two lines, op type and :func:`short_name`."""
    chars = max(len(node.op_type), len(short_name(node.name)))
    return max(MIN_W, PAD_X + CHAR_W * chars), NODE_H


def group_label(group: Group, count: int) -> tuple[str, str]:
    """A collapsed group's two lines: its name's last part and ``"<kind> · n nodes"``."""
    return short_name(group.name), f"{group.kind} · {count} nodes"


def group_size(group: Group, count: int) -> tuple[float, float]:
    first, second = group_label(group, count)
    return max(MIN_W, PAD_X + 8.0 + CHAR_W * max(len(first), len(second))), GROUP_H


# --- items and edges ----------------------------------------------------------------------------


def _outer_collapsed(graph: Graph, collapsed: frozenset[int]) -> np.ndarray:
    """Per group: its outermost collapsed ancestor-or-self, or -1."""
    n = len(graph.groups)
    out = np.full(n, -2, dtype=np.int64)
    for g in range(n):
        chain: list[int] = []
        h = g
        while h >= 0 and out[h] == -2 and len(chain) <= n:
            chain.append(h)
            h = graph.groups[h].parent
        best = out[h] if h >= 0 and out[h] != -2 else -1
        for c in reversed(chain):  # outermost first
            if best < 0 and c in collapsed:
                best = c
            out[c] = best
    return out


def _items(graph: Graph, collapsed: frozenset[int]) -> tuple[np.ndarray, np.ndarray]:
    """``items`` (node index, or -g-1) and each node's item position."""
    groups = np.asarray([n.group for n in graph.nodes], dtype=np.int64)
    key = np.arange(len(graph.nodes), dtype=np.int64)
    if collapsed and graph.groups:
        outer = _outer_collapsed(graph, collapsed)
        inside = groups >= 0
        root = np.full(len(groups), -1, dtype=np.int64)
        root[inside] = outer[groups[inside]]
        key = np.where(root >= 0, -root - 1, key)
    items, first, pos = np.unique(key, return_index=True, return_inverse=True)
    order = np.argsort(first, kind="stable")  # items in node order
    rank = np.empty_like(order)
    rank[order] = np.arange(len(order))
    return items[order], rank[pos.reshape(-1)]


# --- crossings ----------------------------------------------------------------------------------


def _inversions(a: np.ndarray) -> int:
    """Pairs i < j with a[i] > a[j] (non-negative ints), bottom-up merge sort in numpy."""
    a = np.asarray(a, dtype=np.int64)
    n = len(a)
    if n < 2:
        return 0
    big = int(a.max()) + 1
    idx = np.arange(n)
    total = 0
    width = 1
    while width < n:
        block = idx // (2 * width)
        right = (idx % (2 * width)) >= width
        key = block * big + a
        left_keys = key[~right]
        rk = key[right]
        ends = np.searchsorted(left_keys, (block[right] + 1) * big, side="left")
        total += int((ends - np.searchsorted(left_keys, rk, side="right")).sum())
        a = np.sort(key) - block * big
        width *= 2
    return total


def _gap_crossings(level: np.ndarray, top: np.ndarray, bottom: np.ndarray) -> int:
    """Crossings of segments between adjacent levels: ``level`` of the upper end, the ends' order keys."""
    if len(level) < 2:
        return 0
    order = np.lexsort((bottom, top, level))
    lv, bt = level[order], bottom[order]
    _, b_rank = np.unique(bt, return_inverse=True)
    span = int(b_rank.max()) + 1
    return _inversions((lv - lv.min()) * span + b_rank.reshape(-1))


def crossings(layout: Layout) -> int:
    """Edge crossings of a drawing (ours or another engine's in the same :class:`Layout` form):
    levels are the distinct y of box centres and route bends; a segment spanning several levels
    is cut at each; the route ends count at the box centres."""
    if len(layout.edge_src) == 0:
        return 0
    pts = layout.edge_points
    inner_y = []
    for e in range(len(layout.edge_src)):
        a, b = int(layout.edge_offsets[e]), int(layout.edge_offsets[e + 1])
        inner_y.append(pts[a + 1 : b - 1, 1])
    levels = np.unique(np.round(np.concatenate([layout.y, *inner_y]), 3))
    seg_l: list[int] = []
    seg_t: list[float] = []
    seg_b: list[float] = []
    for e in range(len(layout.edge_src)):
        a, b = int(layout.edge_offsets[e]), int(layout.edge_offsets[e + 1])
        s, t = int(layout.edge_src[e]), int(layout.edge_dst[e])
        xs = [layout.x[s], *pts[a + 1 : b - 1, 0], layout.x[t]]
        ys = [layout.y[s], *pts[a + 1 : b - 1, 1], layout.y[t]]
        ls = np.searchsorted(levels, np.round(ys, 3))
        if ls[0] > ls[-1]:
            xs, ls = xs[::-1], ls[::-1]
        for k in range(len(xs) - 1):
            l0, l1 = int(ls[k]), int(ls[k + 1])
            if l1 <= l0:
                continue
            for lv in range(l0, l1):
                f0, f1 = (lv - l0) / (l1 - l0), (lv + 1 - l0) / (l1 - l0)
                seg_l.append(lv)
                seg_t.append(xs[k] + (xs[k + 1] - xs[k]) * f0)
                seg_b.append(xs[k] + (xs[k + 1] - xs[k]) * f1)
    return _gap_crossings(np.asarray(seg_l), np.round(seg_t, 3), np.round(seg_b, 3))


# --- the layered layout ---------------------------------------------------------------------------


def _csr(n: int, src: np.ndarray, dst: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    order = np.argsort(src, kind="stable")
    starts = np.searchsorted(src[order], np.arange(n + 1))
    return order, starts, dst[order]


def _break_cycles(n: int, src: np.ndarray, dst: np.ndarray, cancel: CancelToken) -> tuple[np.ndarray, np.ndarray]:
    """(reversed mask per edge, DFS preorder per node): back edges of an iterative DFS, started
    from the sources first (in node order), then from any node not yet seen."""
    order, starts, targets = _csr(n, src, dst)
    indeg = np.bincount(dst, minlength=n)
    state = np.zeros(n, dtype=np.int8)  # 0 new, 1 on stack, 2 done
    pre = np.full(n, -1, dtype=np.int64)
    rev = np.zeros(len(src), dtype=bool)
    counter = 0
    starts_l = starts.tolist()
    targets_l = targets.tolist()
    order_l = order.tolist()
    roots = np.concatenate([np.flatnonzero(indeg == 0), np.arange(n)]).tolist()
    st = state.tolist()
    pre_l = pre.tolist()
    for r in roots:
        if st[r]:
            continue
        st[r] = 1
        pre_l[r] = counter
        counter += 1
        stack = [(r, starts_l[r])]
        while stack:
            u, k = stack[-1]
            if k < starts_l[u + 1]:
                stack[-1] = (u, k + 1)
                v = targets_l[k]
                if st[v] == 1:
                    rev[order_l[k]] = True
                elif st[v] == 0:
                    st[v] = 1
                    pre_l[v] = counter
                    counter += 1
                    stack.append((v, starts_l[v]))
            else:
                st[u] = 2
                stack.pop()
        if counter % 8192 < 1:
            cancel.raise_if_cancelled()
    return rev, np.asarray(pre_l, dtype=np.int64)


def _layers(n: int, src: np.ndarray, dst: np.ndarray) -> np.ndarray:
    """Longest path layering of a DAG, then sources pulled down next to their first consumer."""
    layer = np.zeros(n, dtype=np.int64)
    if len(src) == 0:
        return layer
    order, starts, targets = _csr(n, src, dst)
    indeg = np.bincount(dst, minlength=n).tolist()
    starts_l, targets_l = starts.tolist(), targets.tolist()
    lay = [0] * n
    todo = [v for v in range(n) if indeg[v] == 0]
    while todo:
        u = todo.pop()
        lu = lay[u] + 1
        for k in range(starts_l[u], starts_l[u + 1]):
            v = targets_l[k]
            if lay[v] < lu:
                lay[v] = lu
            indeg[v] -= 1
            if not indeg[v]:
                todo.append(v)
    layer = np.asarray(lay, dtype=np.int64)
    sources = np.bincount(dst, minlength=n) == 0
    first = np.full(n, np.iinfo(np.int64).max)
    np.minimum.at(first, src, layer[dst])
    pull = sources & (first < np.iinfo(np.int64).max)
    layer[pull] = first[pull] - 1
    return layer


def _segmented(values: np.ndarray, seg: np.ndarray, reverse: bool) -> np.ndarray:
    """Cumulative max of ``values`` within runs of equal ``seg`` (sorted ascending); ``reverse``:
    the cumulative min from the right end of each run."""
    span = float(np.abs(values).max() + 1.0) * 4.0
    if reverse:
        v = -values[::-1]
        off = (seg.max() - seg[::-1]).astype(np.float64) * span
        return -(np.maximum.accumulate(v + off) - off)[::-1]
    off = (seg - seg.min()).astype(np.float64) * span
    return np.maximum.accumulate(values + off) - off


def sugiyama(
    n: int,
    src: np.ndarray,
    dst: np.ndarray,
    w: np.ndarray,
    h: np.ndarray,
    *,
    progress: Progress | None = None,
    cancel: CancelToken | None = None,
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, dict[str, int]]:
    """The layered layout of ``n`` boxes (sizes ``w``, ``h``) and edges ``src -> dst`` (no self
    loops): x, y centres, the route points and offsets per edge, and figures (layers, dummies,
    crossings, reversed edges)."""
    progress = progress or NullProgress()
    cancel = cancel or CancelToken()
    src = np.asarray(src, dtype=np.int64)
    dst = np.asarray(dst, dtype=np.int64)
    m = len(src)
    progress.status(LAYERING)
    rev, pre = _break_cycles(n, src, dst, cancel)
    a = np.where(rev, dst, src)  # upper end
    b = np.where(rev, src, dst)  # lower end
    layer = _layers(n, a, b)
    cancel.raise_if_cancelled()
    progress.fraction(0.15)

    # dummies: edge e gets span-1 of them, ids base[e] ... base[e]+span-2, from top to bottom
    span = layer[b] - layer[a]
    nd = np.maximum(span - 1, 0)
    total_d = int(nd.sum())
    base = n + np.concatenate([[0], np.cumsum(nd)[:-1]]) if m else np.zeros(0, dtype=np.int64)
    nv = n + total_d
    lay = np.concatenate([layer, np.zeros(total_d, dtype=np.int64)])
    key = np.concatenate([pre.astype(np.float64), np.zeros(total_d)])
    weight_node = np.concatenate([np.zeros(n, dtype=bool), np.ones(total_d, dtype=bool)])  # dummy?
    e_of_d = np.repeat(np.arange(m), nd)
    k_of_d = np.arange(total_d) - np.repeat(base - n, nd)
    lay[n:] = layer[a][e_of_d] + 1 + k_of_d
    key[n:] = pre[a][e_of_d] + 0.5
    # one-layer segments: a -> d0 -> ... -> b
    has = nd > 0
    seg_s = np.concatenate([a[~has], a[has], np.arange(n, nv)])
    nxt = np.arange(n, nv) + 1
    last = np.zeros(total_d, dtype=bool)
    if total_d:
        last[np.cumsum(nd[has]) - 1] = True
    nxt[last] = b[e_of_d[last]]
    seg_t = np.concatenate([b[~has], base[has], nxt])
    seg_w = np.where(
        weight_node[seg_s] & weight_node[seg_t], 8.0, np.where(weight_node[seg_s] | weight_node[seg_t], 2.0, 1.0)
    )

    # initial order: DFS preorder within each layer
    n_layers = int(lay.max()) + 1 if nv else 0
    seq = np.lexsort((key, lay))
    lstart = np.searchsorted(lay[seq], np.arange(n_layers + 1))
    pos = np.empty(nv, dtype=np.int64)
    pos[seq] = np.arange(nv) - lstart[lay[seq]]

    # the sweeps run on flat Python lists: most layers hold a handful of nodes, where numpy's
    # per-call overhead costs more than the work (3x slower at 10 k nodes); no list per node (a
    # million small lists make the garbage collector walk the whole graph again and again)
    def neighbours(frm: np.ndarray, to: np.ndarray) -> tuple[list[int], list[int]]:
        order = np.argsort(frm, kind="stable")
        return np.searchsorted(frm[order], np.arange(nv + 1)).tolist(), to[order].tolist()

    above = neighbours(seg_t, seg_s)  # CSR: per node its neighbours in the layer above
    below = neighbours(seg_s, seg_t)
    seq_l = seq.tolist()
    lstart_l = lstart.tolist()
    pos_l = pos.tolist()

    def count() -> int:
        p = np.asarray(pos_l, dtype=np.int64)
        return _gap_crossings(lay[seg_s], p[seg_s], p[seg_t])

    def sweep(layers: Iterable[int], nbrs: tuple[list[int], list[int]]) -> None:
        st, fl = nbrs
        for k, lv in enumerate(layers):
            if not k % 1024:
                cancel.raise_if_cancelled()
            s0, s1 = lstart_l[lv], lstart_l[lv + 1]
            if s1 - s0 < 2:
                continue
            keyed = []
            for i in range(s0, s1):
                v = seq_l[i]
                a0, a1 = st[v], st[v + 1]
                if a1 - a0 == 1:
                    keyed.append((pos_l[fl[a0]], i, v))
                elif a1 > a0:
                    keyed.append((sum([pos_l[u] for u in fl[a0:a1]]) / (a1 - a0), i, v))
                else:
                    keyed.append((i - s0, i, v))
            keyed.sort()
            for j, item in enumerate(keyed):
                v = item[2]
                seq_l[s0 + j] = v
                pos_l[v] = j

    progress.status(ORDERING)
    best = count()
    best_seq = list(seq_l)
    stale = 0
    for it in range(SWEEPS):
        sweep(range(1, n_layers), above)
        progress.fraction(0.15 + 0.5 * (it + 0.5) / SWEEPS)
        sweep(range(n_layers - 2, -1, -1), below)
        crossed = count()
        progress.fraction(0.15 + 0.5 * (it + 1) / SWEEPS)
        if crossed < best:
            best, best_seq, stale = crossed, list(seq_l), 0
        else:
            stale += 1
            if stale >= 2 or best == 0:
                break
    seq = np.asarray(best_seq, dtype=np.int64)
    pos[seq] = np.arange(nv) - lstart[lay[seq]]
    cancel.raise_if_cancelled()

    # x: separations in layer order, then alternating pulls towards neighbours and projection
    progress.status(PLACING)
    width = np.concatenate([np.asarray(w, dtype=np.float64), np.full(total_d, DUMMY_W)])
    sw = width[seq]
    dummy_seq = weight_node[seq]
    gap = np.where(dummy_seq[1:] | dummy_seq[:-1], EDGE_SEP, NODE_SEP)
    sep = np.concatenate([[0.0], (sw[1:] + sw[:-1]) / 2 + gap])
    lay_seq = lay[seq]
    first_in_layer = np.concatenate([[True], lay_seq[1:] != lay_seq[:-1]]) if nv else np.zeros(0, dtype=bool)
    sep[first_in_layer] = 0.0
    cum = np.cumsum(sep)
    c = cum - np.repeat(cum[lstart[:-1]], np.diff(lstart)) if nv else cum  # offset within the layer
    layer_w = np.zeros(n_layers)
    if nv:
        layer_w = c[lstart[1:] - 1]
    x_seq = c - layer_w[lay_seq] / 2
    x = np.empty(nv)
    x[seq] = x_seq

    def project(desired: np.ndarray) -> np.ndarray:
        d = desired[seq] - c
        lo = _segmented(d, lay_seq, reverse=False)
        hi = _segmented(d, lay_seq, reverse=True)
        out = np.empty(nv)
        out[seq] = c + (lo + hi) / 2
        return out

    if m and nv:
        for it in range(PLACE_PASSES):
            if not it % 4:
                cancel.raise_if_cancelled()
            mode = it % 3  # 0: pull to the layer above, 1: below, 2: both
            num = np.zeros(nv)
            den = np.zeros(nv)
            if mode in (0, 2):
                np.add.at(num, seg_t, seg_w * x[seg_s])
                np.add.at(den, seg_t, seg_w)
            if mode in (1, 2):
                np.add.at(num, seg_s, seg_w * x[seg_t])
                np.add.at(den, seg_s, seg_w)
            desired = np.where(den > 0, num / np.maximum(den, 1e-12), x)
            x = project(desired)
            progress.fraction(0.65 + 0.3 * (it + 1) / PLACE_PASSES)
    if nv:
        left = x - width / 2
        x = x - left.min()

    # y per layer
    hh = np.concatenate([np.asarray(h, dtype=np.float64), np.zeros(total_d)])
    layer_h = np.zeros(n_layers)
    if nv:
        np.maximum.at(layer_h, lay, hh)
    layer_h = np.maximum(layer_h, LINE_H)
    tops = np.concatenate([[0.0], np.cumsum(layer_h + RANK_SEP)[:-1]]) if n_layers else np.zeros(0)
    y = tops[lay] + layer_h[lay] / 2 if nv else np.zeros(0)

    # routes: upper end's bottom, the dummies, lower end's top; reversed edges listed source first
    hn = np.asarray(h, dtype=np.float64)
    npts = nd + 2
    offsets = np.concatenate([[0], np.cumsum(npts)]).astype(np.int64)
    npoints = int(offsets[-1])
    px = np.empty(npoints)
    py = np.empty(npoints)
    first_pt = offsets[:-1]
    last_pt = offsets[1:] - 1
    px[first_pt] = x[a]
    py[first_pt] = y[a] + hn[a] / 2
    px[last_pt] = x[b]
    py[last_pt] = y[b] - hn[b] / 2
    if total_d:
        mid = np.repeat(first_pt + 1, nd) + k_of_d
        px[mid] = x[n:]
        py[mid] = y[n:]
    for e in np.flatnonzero(rev):  # few: flip those routes in place
        s0, s1 = offsets[e], offsets[e + 1]
        px[s0:s1] = px[s0:s1][::-1]
        py[s0:s1] = py[s0:s1][::-1]
    points = np.stack([px, py], axis=1) if npoints else np.zeros((0, 2))
    figures = {"layers": n_layers, "dummies": total_d, "crossings": int(best), "reversed": int(rev.sum())}
    progress.fraction(1.0)
    return x[:n], y[:n], points, offsets, figures


def layout_graph(
    graph: Graph,
    collapsed: frozenset[int] = frozenset(),
    *,
    progress: Progress | None = None,
    cancel: CancelToken | None = None,
) -> Layout:
    """Work function: the layout of ``graph`` with the groups in ``collapsed`` drawn as one box each
    (a collapsed group inside another collapsed group is hidden in the outer one)."""
    progress = progress or NullProgress()
    cancel = cancel or CancelToken()
    collapsed = frozenset(int(g) for g in collapsed if 0 <= int(g) < len(graph.groups))
    items, item_of = _items(graph, collapsed)
    k = len(items)
    w = np.empty(k)
    h = np.empty(k)
    counts: dict[int, int] = {}
    if collapsed:
        keys = items[item_of]
        gk = keys[keys < 0]
        uniq, cnt = np.unique(gk, return_counts=True)
        counts = {int(-u - 1): int(c) for u, c in zip(uniq, cnt)}
    for pos, it in enumerate(items.tolist()):
        if it >= 0:
            w[pos], h[pos] = node_size(graph.nodes[it])
        else:
            g = -it - 1
            w[pos], h[pos] = group_size(graph.groups[g], counts.get(g, 0))
    es = item_of[graph.edge_src] if len(graph.edge_src) else np.zeros(0, dtype=np.int64)
    et = item_of[graph.edge_dst] if len(graph.edge_dst) else np.zeros(0, dtype=np.int64)
    keep = es != et
    pair = es * max(k, 1) + et
    uniq_pairs, first, inverse = np.unique(pair[keep], return_index=True, return_inverse=True)
    order = np.argsort(first, kind="stable")  # layout edges in graph-edge order
    rank = np.empty_like(order)
    rank[order] = np.arange(len(order))
    graph_edges = np.full(len(es), -1, dtype=np.int64)
    graph_edges[keep] = rank[inverse.reshape(-1)]
    lsrc = (uniq_pairs // max(k, 1))[order]
    ldst = (uniq_pairs % max(k, 1))[order]
    x, y, points, offsets, figures = sugiyama(k, lsrc, ldst, w, h, progress=progress, cancel=cancel)
    layout = Layout(
        items=items.astype(np.int64),
        x=x,
        y=y,
        w=w,
        h=h,
        edge_src=lsrc.astype(np.int64),
        edge_dst=ldst.astype(np.int64),
        edge_points=points,
        edge_offsets=offsets,
        width=float((x + w / 2).max()) if k else 0.0,
        height=float((y + h / 2).max()) if k else 0.0,
        collapsed=collapsed,
        graph_edges=graph_edges,
        figures=figures,
    )
    return layout
