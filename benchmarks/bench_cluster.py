"""Cluster analysis side by side with ``msprof-analyze cluster`` on generated N-rank jobs (issue #20).

For each N (default 8, 64, 256; ``--ranks 8,64,256,1024``) the simulated toolkit writes an N-rank
torch_npu job (tp 2, pp 2 where N allows, a slow rank and a slow link), then in fresh processes, one
after the other on the same job:

- ours: ``analyze()`` writing into a folder outside the job (embedded engine: the local Dask cluster
  on this machine's cores; ``--engine sync`` for the in-process path);
- msprof-analyze: ``msprof-analyze cluster -d JOB`` (writes JOB/cluster_analysis_output).

It prints wall time, peak RSS of the merging process (ours: the process that merges; its worker
processes separately) and msprof-analyze's (its whole process tree), and checks that the four files
are identical (cluster_step_trace_time.csv byte for byte up to row order, the JSON files parsed).

    python benchmarks/bench_cluster.py [--ranks 8,64,256] [--engine auto|sync|local] [--workdir DIR]
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

FILES = ("cluster_step_trace_time.csv", "communication_group.json", "cluster_communication.json",
         "cluster_communication_matrix.json")  # fmt: skip


def _child(job: str, out: str, engine: str) -> None:
    from workbench.core.cluster.analyze import analyze
    from workbench.core.cluster.engine import EngineSpec

    t0 = time.perf_counter()
    result = analyze(job, out=out, spec=EngineSpec(engine), force=True)
    elapsed = time.perf_counter() - t0
    doc = {
        "seconds": elapsed,
        "maxrss_self_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
        "maxrss_children_mb": resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024,
        "ranks": len(result.report.tables.ranks),
        "slow_ranks": [s.rank for s in result.report.findings.slow_ranks],
        "slow_links": [[s.src, s.dst] for s in result.report.findings.slow_links],
    }
    print(json.dumps(doc))


def _run(cmd: list[str]) -> tuple[float, float, str]:
    t0 = time.perf_counter()
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    _pid, status, usage = os.wait4(proc.pid, 0)
    elapsed = time.perf_counter() - t0
    out = proc.stdout.read() if proc.stdout else ""
    err = proc.stderr.read() if proc.stderr else ""
    proc.returncode = os.waitstatus_to_exitcode(status)
    if proc.returncode != 0:
        raise SystemExit(f"{cmd[:3]} failed ({proc.returncode}): {err[-2000:]}")
    return elapsed, usage.ru_maxrss / 1024, out


def _same(ours: Path, theirs: Path) -> list[str]:
    diffs = []
    for name in FILES:
        a, b = ours / name, theirs / name
        if not a.is_file() or not b.is_file():
            diffs.append(f"{name}: ours {a.is_file()}, msprof-analyze {b.is_file()}")
            continue
        if name.endswith(".csv"):
            ra, rb = a.read_bytes().split(b"\r\n"), b.read_bytes().split(b"\r\n")
            if ra[0] != rb[0] or sorted(ra[1:]) != sorted(rb[1:]):
                diffs.append(f"{name}: rows differ")
        elif _unordered(json.loads(a.read_bytes())) != _unordered(json.loads(b.read_bytes())):
            diffs.append(f"{name}: content differs")
    return diffs


def _unordered(doc: object) -> object:
    """msprof-analyze lists ranks, groups and rank keys in the order its directory walk met the rank
    folders; this app in rank order: compare lists of ranks as sets and "(r, ...)" keys as sets."""
    if isinstance(doc, dict):
        out = {}
        for k, v in doc.items():
            key = frozenset(k.strip("()").replace(" ", "").split(",")) if k.startswith("(") else k
            out[key] = _unordered(v)
        return out
    if isinstance(doc, list):
        items = [_unordered(x) for x in doc]
        return tuple(sorted(items)) if all(isinstance(x, int) for x in items) else sorted(items, key=repr)
    return doc


def _size(folder: Path) -> int:
    return sum(p.stat().st_size for p in folder.rglob("*") if p.is_file())


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--ranks", default="8,64,256")
    ap.add_argument("--engine", default="auto", choices=("auto", "sync", "local"))
    ap.add_argument("--workdir")
    ap.add_argument("--no-msprof-analyze", action="store_true")
    ap.add_argument("--child", nargs=3, metavar=("JOB", "OUT", "ENGINE"), help=argparse.SUPPRESS)
    a = ap.parse_args(argv)
    if a.child:
        _child(*a.child)
        return 0
    from workbench.simtoolkit.profdata.clusterjob import write_cluster_job

    exe = None if a.no_msprof_analyze else shutil.which("msprof-analyze")
    work = Path(a.workdir or tempfile.mkdtemp(prefix="bench_cluster_"))
    rows = []
    for n in (int(x) for x in a.ranks.split(",")):
        job = work / f"job{n}"
        if job.exists():
            shutil.rmtree(job)
        tp, pp = (2, 2) if n % 4 == 0 else (1, 1)
        t0 = time.perf_counter()
        write_cluster_job(job, n, tp=tp, pp=pp, slow_rank=n // 2 + 1, slow_link=(2, 3) if n >= 4 else None)
        gen = time.perf_counter() - t0
        ours_out = work / f"ours{n}"
        secs, rss_tree, out = _run([sys.executable, __file__, "--child", str(job), str(ours_out), a.engine])
        child = json.loads(out.strip().splitlines()[-1])
        row = {
            "ranks": n,
            "input_mb": round(_size(job) / 2**20, 2),
            "generate_s": round(gen, 2),
            "ours_s": round(child["seconds"], 3),
            "ours_process_s": round(secs, 3),
            "ours_merge_rss_mb": round(child["maxrss_self_mb"], 1),
            "ours_worker_rss_mb": round(child["maxrss_children_mb"], 1),
            "slow_ranks": child["slow_ranks"],
            "slow_links": child["slow_links"],
        }
        if exe:
            secs_m, rss_m, _ = _run([exe, "cluster", "-d", str(job)])
            row.update(
                {
                    "msprof_analyze_s": round(secs_m, 3),
                    "msprof_analyze_rss_mb": round(rss_m, 1),
                    "speedup": round(secs_m / secs, 2),
                    "identical": _same(ours_out, job / "cluster_analysis_output") or "yes",
                }
            )
        rows.append(row)
        print(json.dumps(row), flush=True)
    print(f"work folder: {work}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
