"""Layered layout of generated ONNX graphs: ours (workbench.core.graph.layout) vs @dagrejs/dagre
(Netron's layout, under node) and the library candidates, side by side in one run (issue #23).

    python benchmarks/bench_graph_layout.py [--sizes 1000,10000,50000] [--runs 3]
        [--dagre-timeout 1800] [--candidates PATH]

The graphs come from ``workbench.core.graph.synth.synth_onnx`` (branches, skip connections, a
Concat now and then; names in torch's scopes); each is loaded with ``load_graph`` and every engine
gets the same boxes (``node_size``) and edges. Times are the median of ``--runs`` runs of the
layout alone: for dagre only ``dagre.layout(g)`` inside node (``benchmarks/dagre/run.cjs``; the
graph is rebuilt before each run), installed on first run with ``npm install --prefix
benchmarks/dagre`` (package.json pins @dagrejs/dagre 3.1.3). dagre recurses once per layer: node
runs with an unlimited stack and ``--stack-size``, else it overflows at a few thousand layers.
Crossings are counted exactly on every drawing with ``layout.crossings`` (route segments between
adjacent levels, merge-sort inversions).

The candidates (``--candidates`` adds a folder to ``sys.path``, e.g. ``pip install --target
/tmp/cand igraph grandalf``): python-igraph's ``layout_sugiyama`` (C; unit-spaced, it ignores box
widths, so it would still need our coordinate pass), grandalf (pure Python; only up to
``--grandalf-max`` nodes) and Graphviz ``dot`` when it is on PATH (``apt-get install graphviz``;
what pygraphviz runs). rustworkx has no layered layout (only the pieces: topological
generations), so it is not a candidate on its own.

Measured on the 2-core machine (Python 3.11, numpy 2.4, node 20.20, igraph 1.0.0, grandalf 0.8,
Graphviz dot 2.43 from apt; 2026-12-02, other test runs sharing the cores), median of 3 runs, dagre
at 50 k one run; grandalf at 10 k and dot run once (dot: a second run of the bench with
``--no-dagre``; it is the whole ``dot -Tplain`` process, parsing included)::

    nodes   edges layers   ours s  igraph s  grandalf s     dot s   dagre s ours/dagre  crossings ours/igraph/dagre
     1002    1210    693    0.028     0.039       0.302     0.616     2.092      0.014   20 / 55 / 16
    10002   12075   6843    0.421     1.363      19.503   169.686    26.012      0.016   196 / 459 / 200
    50002   60505  34308    1.640     2.572           -         -   347.331      0.005   1035 / 1480 / 1032

(ours alone on a quiet machine: 0.02 s, 0.20-0.25 s and 1.1 s; loading the 50 k ONNX model takes
1.4 s more). dagre needs 26 s at 10 k nodes and almost 6 minutes at 50 k; ours is 0.016x and
0.005x of that, with as many crossings (igraph's: 2.3x and 1.4x as many). dot takes ~3 minutes
at 10 k; grandalf 20 s.

Chosen: our numpy engine. It meets the goal (<= 0.5x dagre at 10 k nodes) by two orders of
magnitude, places boxes of their real widths, is cancellable between every step and adds no
dependency; igraph (C) is slower here (1.4-3x), draws more crossings, ignores box widths and
would be a new dependency; dot and grandalf are far slower. So pyproject.toml gains nothing.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
DAGRE = ROOT / "benchmarks" / "dagre"

from workbench.core.graph.layout import crossings, layout_graph  # noqa: E402
from workbench.core.graph.load import load_graph  # noqa: E402
from workbench.core.graph.model import Layout  # noqa: E402
from workbench.core.graph.synth import synth_onnx  # noqa: E402


def ensure_dagre() -> None:
    if not (DAGRE / "node_modules" / "@dagrejs" / "dagre").is_dir():
        print("installing @dagrejs/dagre (npm install --prefix benchmarks/dagre) ...", file=sys.stderr)
        subprocess.run(["npm", "install", "--prefix", str(DAGRE), "--no-audit", "--no-fund"], check=True)


def _unlimited_stack() -> None:
    resource.setrlimit(resource.RLIMIT_STACK, (resource.RLIM_INFINITY, resource.RLIM_INFINITY))


def run_dagre(lay: Layout, runs: int, timeout: float, work: Path) -> tuple[float | None, int | None, str]:
    """Median seconds of dagre.layout() and the crossings of its drawing; or None and why not."""
    graph = work / "dagre-in.json"
    out = work / "dagre-out.json"
    graph.write_text(
        json.dumps(
            {
                "nodes": [[float(w), float(h)] for w, h in zip(lay.w, lay.h)],
                "edges": [[int(s), int(t)] for s, t in zip(lay.edge_src, lay.edge_dst)],
            }
        )
    )
    try:
        subprocess.run(
            ["node", "--stack-size=200000", str(DAGRE / "run.cjs"), str(graph), str(runs), str(out)],
            check=True,
            timeout=timeout,
            preexec_fn=_unlimited_stack,
            capture_output=True,
            text=True,
        )
    except subprocess.TimeoutExpired:
        return None, None, f"> {timeout:.0f} s"
    except subprocess.CalledProcessError as exc:
        return None, None, "failed: " + (exc.stderr.strip().splitlines() or ["?"])[-1][:60]
    doc = json.loads(out.read_text())
    pts = [np.asarray(p, dtype=np.float64).reshape(-1, 2) for p in doc["edges"]]
    offsets = np.concatenate([[0], np.cumsum([len(p) for p in pts])]).astype(np.int64)
    drawn = Layout(
        items=lay.items,
        x=np.asarray(doc["x"], dtype=np.float64),
        y=np.asarray(doc["y"], dtype=np.float64),
        w=lay.w,
        h=lay.h,
        edge_src=lay.edge_src,
        edge_dst=lay.edge_dst,
        edge_points=np.concatenate(pts) if pts else np.zeros((0, 2)),
        edge_offsets=offsets,
        width=0.0,
        height=0.0,
    )
    return statistics.median(doc["times"]), crossings(drawn), ""


def run_igraph(lay: Layout, runs: int) -> tuple[float | None, int | None, str]:
    try:
        import igraph
    except ImportError:
        return None, None, "not installed"
    g = igraph.Graph(n=len(lay.items), edges=list(zip(lay.edge_src.tolist(), lay.edge_dst.tolist())), directed=True)
    times = []
    for _ in range(runs):
        t0 = time.perf_counter()
        result = g.layout_sugiyama()
        times.append(time.perf_counter() - t0)
    xy = np.asarray(result.coords, dtype=np.float64)[: len(lay.items)]
    routes = result.edge_routing  # per edge: the bends (dummy positions) between its ends
    pts = [np.vstack([xy[s], np.asarray(r, dtype=np.float64).reshape(-1, 2), xy[t]]) for s, t, r in
           zip(lay.edge_src.tolist(), lay.edge_dst.tolist(), routes)]  # fmt: skip
    k = len(xy)
    drawn = Layout(
        items=np.arange(k),
        x=xy[:, 0],
        y=xy[:, 1],
        w=np.zeros(k),
        h=np.zeros(k),
        edge_src=lay.edge_src,
        edge_dst=lay.edge_dst,
        edge_points=np.concatenate(pts) if pts else np.zeros((0, 2)),
        edge_offsets=np.concatenate([[0], np.cumsum([len(p) for p in pts])]).astype(np.int64),
        width=0.0,
        height=0.0,
    )
    return statistics.median(times), crossings(drawn), ""


def run_dot(lay: Layout, timeout: float, work: Path) -> tuple[float | None, str]:
    """Graphviz ``dot`` (the C program, as pygraphviz would run it): the whole run, file to layout."""
    import shutil

    if shutil.which("dot") is None:
        return None, "not installed"
    src = work / "g.dot"
    lines = ["digraph g {", "node [shape=box fixedsize=true];", "nodesep=0.28; ranksep=0.28;"]
    lines += [f"n{i} [width={w / 72:.3f} height={h / 72:.3f}];" for i, (w, h) in enumerate(zip(lay.w, lay.h))]
    lines += [f"n{s} -> n{t};" for s, t in zip(lay.edge_src.tolist(), lay.edge_dst.tolist())]
    src.write_text("\n".join(lines) + "}\n")
    t0 = time.perf_counter()
    try:
        subprocess.run(["dot", "-Tplain", "-o", str(work / "g.plain"), str(src)], check=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return None, f"> {timeout:.0f} s"
    except subprocess.CalledProcessError:
        return None, "failed"
    return time.perf_counter() - t0, ""


def run_grandalf(lay: Layout, max_nodes: int) -> tuple[float | None, str]:
    if len(lay.items) > max_nodes:
        return None, f"> {max_nodes} nodes"
    try:
        from grandalf.graphs import Edge, Graph, Vertex
        from grandalf.layouts import SugiyamaLayout
    except ImportError:
        return None, "not installed"

    class View:
        def __init__(self, w: float, h: float) -> None:
            self.w, self.h, self.xy = w, h, (0.0, 0.0)

    vs = [Vertex(i) for i in range(len(lay.items))]
    for v, w, h in zip(vs, lay.w, lay.h):
        v.view = View(float(w), float(h))
    g = Graph(vs, [Edge(vs[s], vs[t]) for s, t in zip(lay.edge_src.tolist(), lay.edge_dst.tolist())])
    t0 = time.perf_counter()
    for comp in g.C:
        sug = SugiyamaLayout(comp)
        sug.init_all()
        sug.draw(2)
    return time.perf_counter() - t0, ""


def fmt(v: float | None, why: str = "") -> str:
    return f"{v:.3f}" if v is not None else (why or "-")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--sizes", default="1000,10000,50000")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--dagre-timeout", type=float, default=1800.0, help="seconds per dagre call (all its runs)")
    ap.add_argument("--dagre-runs-max-nodes", type=int, default=20000, help="above this, dagre runs once")
    ap.add_argument("--no-dagre", action="store_true")
    ap.add_argument("--candidates", help="a folder with igraph / grandalf installed (pip install --target)")
    ap.add_argument("--grandalf-max", type=int, default=2000)
    ap.add_argument("--dot-timeout", type=float, default=600.0, help="seconds for Graphviz dot (if installed)")
    ap.add_argument("--save", help="also write the table to this file")
    args = ap.parse_args()
    if args.candidates:
        sys.path.insert(0, args.candidates)
    if not args.no_dagre:
        ensure_dagre()
    rows = []
    header = (
        f"{'nodes':>7} {'edges':>7} {'layers':>6} {'ours s':>8} {'igraph s':>9} {'grandalf s':>11} {'dot s':>9}"
        f" {'dagre s':>9}"
        f" {'ours/dagre':>10}   crossings ours / igraph / dagre"
    )
    print(header, flush=True)
    with tempfile.TemporaryDirectory(prefix="wb-bench-graph-") as tmp:
        work = Path(tmp)
        for n in (int(s) for s in args.sizes.split(",")):
            path = synth_onnx(n, work / f"synth{n}.onnx")
            graph = load_graph(path)
            times = []
            for _ in range(args.runs):
                t0 = time.perf_counter()
                lay = layout_graph(graph)
                times.append(time.perf_counter() - t0)
            ours = statistics.median(times)
            ours_x = lay.figures["crossings"]
            ig_t, ig_x, ig_why = run_igraph(lay, args.runs)
            ga_t, ga_why = run_grandalf(lay, args.grandalf_max)
            dot_t, dot_why = run_dot(lay, args.dot_timeout, work)
            if args.no_dagre:
                dg_t, dg_x, dg_why = None, None, "skipped"
            else:
                runs = args.runs if len(lay.items) <= args.dagre_runs_max_nodes else 1
                dg_t, dg_x, dg_why = run_dagre(lay, runs, args.dagre_timeout, work)
            ratio = f"{ours / dg_t:.3f}" if dg_t else "-"
            row = (
                f"{len(lay.items):>7} {len(lay.edge_src):>7} {lay.figures['layers']:>6} {ours:>8.3f}"
                f" {fmt(ig_t, ig_why):>9} {fmt(ga_t, ga_why):>11} {fmt(dot_t, dot_why):>9} {fmt(dg_t, dg_why):>9}"
                f" {ratio:>10}"
                f"   {ours_x} / {ig_x if ig_x is not None else '-'} / {dg_x if dg_x is not None else '-'}"
            )
            print(row, flush=True)
            rows.append(row)
    if args.save:
        Path(args.save).write_text(header + "\n" + "\n".join(rows) + "\n")
    return 0


if __name__ == "__main__":
    os.environ.setdefault("OMP_NUM_THREADS", "1")
    sys.exit(main())
