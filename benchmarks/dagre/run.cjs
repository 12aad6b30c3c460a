// Times dagre's layout() in process on a graph written by bench_graph_layout.py:
//   node run.cjs GRAPH.json RUNS OUT.json
// GRAPH.json: {"nodes": [[w, h], ...], "edges": [[src, dst], ...]}; the graph is rebuilt before every
// run (layout() mutates it) and only layout() is timed. OUT.json: {"times": [s, ...], "x", "y",
// "edges": [[[x, y], ...], ...]} from the last run (for the crossing count).
const fs = require("fs");
const path = require("path");
const dagre = require(path.join(__dirname, "node_modules/@dagrejs/dagre"));

const [file, runsArg, out] = process.argv.slice(2);
const doc = JSON.parse(fs.readFileSync(file, "utf8"));
const runs = Number(runsArg || 3);
const times = [];
let g = null;
for (let r = 0; r < runs; r++) {
  g = new dagre.graphlib.Graph({ multigraph: false });
  // Netron's settings: top-to-bottom, nodesep 20, ranksep 20
  g.setGraph({ rankdir: "TB", nodesep: 20, ranksep: 20 });
  g.setDefaultEdgeLabel(() => ({}));
  doc.nodes.forEach(([w, h], i) => g.setNode(String(i), { width: w, height: h }));
  doc.edges.forEach(([s, t]) => g.setEdge(String(s), String(t)));
  const t0 = process.hrtime.bigint();
  dagre.layout(g);
  times.push(Number(process.hrtime.bigint() - t0) / 1e9);
}
const x = doc.nodes.map((_, i) => g.node(String(i)).x);
const y = doc.nodes.map((_, i) => g.node(String(i)).y);
const edges = doc.edges.map(([s, t]) => g.edge(String(s), String(t)).points.map((p) => [p.x, p.y]));
fs.writeFileSync(out, JSON.stringify({ times, x, y, edges }));
