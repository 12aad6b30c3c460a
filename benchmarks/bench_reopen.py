"""Benchmark: re-opening a cached 1 M-kernel torch_npu report (issue #18), whole process.

Run: ``python benchmarks/bench_reopen.py [--rows 1000000] [--source DIR] [--keep DIR] [--runs 5]
[--baseline SRC]``.

Writes (or takes, ``--source``) a ``*_ascend_pt`` folder whose kernel_details.csv has ``--rows`` tasks
in the real 2025 layout with PipeUtilization PMU columns (``bench_csv.write_torch_npu_folder``: 1 M rows
are 363 MB), writes its cache once (``report info --cache on``), then times in FRESH processes, best of
``--runs`` (the median beside it), each with its peak RSS:

- ``python -c pass``: the interpreter alone;
- ``report info`` and ``report info --json`` on the cached report (goal: <= 0.3 s);
- ``report ops --top 20`` on the cached report (each with ``--cache on``: what the default ``auto``
  does for sources of 32 MB and more, and a small ``--rows`` is one);
- ``open + AI Core``: in one process, ``open_report`` from the cache, then the first access of the AI
  Core metrics table (the seconds of each step are printed too).

``--baseline SRC`` (an unpacked older tree, e.g. ``git archive HEAD | tar -x -C SRC``) times the same
cases with that tree's ``workbench`` first on the path, run for run interleaved with this tree's, on a
hard-linked copy of the source (its cache is its own: two cache versions never overwrite each other).
Every case runs once untimed first, byte code going to a cache folder of this run, so that what is
timed is the code and not the compiling of edited modules.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent

OPEN_CHILD = """
import json, resource, sys, time
t0 = time.perf_counter()
from workbench.core.profiling.build import open_report
t1 = time.perf_counter()
report = open_report(sys.argv[1], use_cache=True)
t2 = time.perf_counter()
metrics = report.ai_core_metrics
t3 = time.perf_counter()
assert "cache" in report.info, "not opened from the cache"
print(json.dumps({"import": t1 - t0, "open": t2 - t1, "aicore": t3 - t2, "rows": len(metrics)}))
"""


MEASURE = """
import json, os, subprocess, sys, time
start = time.perf_counter()
proc = subprocess.Popen(sys.argv[1:], stdout=subprocess.PIPE)
out = proc.stdout.read()
_, status, usage = os.wait4(proc.pid, 0)
seconds = time.perf_counter() - start
sys.stdout.write(json.dumps({"seconds": seconds, "rss": usage.ru_maxrss * 1024, "status": status, "out": out.decode()}))
"""


def _measured(argv: list[str], env: dict[str, str], cwd: Path) -> dict:
    """One fresh process of ``argv``: wall seconds from its parent's fork to its exit, its peak RSS."""
    proc = subprocess.run(
        [sys.executable, "-c", MEASURE, *argv], env=env, cwd=cwd, capture_output=True, text=True, check=False
    )
    got = json.loads(proc.stdout)
    if got["status"] != 0:
        raise SystemExit(f"{' '.join(argv)} failed: {proc.stderr[-400:]}")
    return got


def _env(tree: Path | None, pycache: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env["PYTHONPYCACHEPREFIX"] = str(pycache)
    if tree is not None:
        env["PYTHONPATH"] = str(tree) + os.pathsep + env.get("PYTHONPATH", "")
    return env


def _cases(folder: Path) -> dict[str, list[str]]:
    cli = [sys.executable, "-m", "workbench", "report"]
    on = ["--cache", "on"]  # what `auto` does for a source of 32 MB and more (1 M rows: 363 MB)
    return {
        "python -c pass": [sys.executable, "-c", "pass"],
        "report info": [*cli, "info", str(folder), *on],
        "report info --json": [*cli, "info", str(folder), "--json", *on],
        "report ops --top 20": [*cli, "ops", str(folder), "--top", "20", *on],
        "open + AI Core": [sys.executable, "-c", OPEN_CHILD, str(folder)],
    }


def _linked_copy(folder: Path, dest: Path) -> Path:
    """``folder`` without its cache, files hard-linked (copied across file systems)."""
    out = dest / folder.name
    for path in folder.rglob("*"):
        rel = path.relative_to(folder)
        if ".wbcache" in rel.parts or not path.is_file():
            continue
        target = out / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        try:
            os.link(path, target)
        except OSError:
            shutil.copy2(path, target)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rows", type=int, default=1_000_000)
    parser.add_argument("--source", type=Path, default=None, help="an *_ascend_pt folder to use instead")
    parser.add_argument("--keep", type=Path, default=None, help="write the generated input here and keep it")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--baseline", type=Path, default=None, help="source tree of the previous version")
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="bench_reopen_", dir=args.keep))
    try:
        if args.source is not None:
            folder = args.source.resolve()
        else:
            sys.path.insert(0, str(HERE))
            import bench_csv

            folder = bench_csv.write_torch_npu_folder(work / f"kd{args.rows}", args.rows)
        csv_bytes = sum(p.stat().st_size for p in folder.rglob("*.csv") if ".wbcache" not in p.parts)
        home = work / "home"
        empty = work / "cwd"  # `python -m` puts the current folder first on the path
        empty.mkdir()
        trees: dict[str, tuple[Path | None, Path]] = {"now": (None, folder)}
        if args.baseline is not None:
            trees["before"] = (args.baseline.resolve(), _linked_copy(folder, work / "before"))
        envs = {}
        for label, (tree, source) in trees.items():
            env = _env(tree, work / f"pycache-{label}")
            env["ASCEND_WORKBENCH_HOME"] = str(home / label)
            envs[label] = env
            cli = [sys.executable, "-m", "workbench", "report", "info", str(source)]
            subprocess.run([*cli, "--cache", "on"], env=env, cwd=empty, check=True, capture_output=True)
            cache = source / ".wbcache"
            size = sum(p.stat().st_size for p in cache.rglob("*") if p.is_file())
            print(f"{label}: {csv_bytes / 1e6:,.0f} MB of CSV, cache {size / 1e6:,.0f} MB ({size / csv_bytes:.2f}x)")
        results: dict[tuple[str, str], list[dict]] = {}
        for name in _cases(folder):
            for label, (_tree, source) in trees.items():
                _measured(_cases(source)[name], envs[label], empty)  # untimed: byte code compiled
            for _ in range(args.runs):
                for label, (_tree, source) in trees.items():  # interleaved: a pair shares the load
                    results.setdefault((name, label), []).append(_measured(_cases(source)[name], envs[label], empty))
        outputs = [json.loads(results[("report info --json", label)][0]["out"]) for label in trees]
        if any({**o, "source": None} != {**outputs[0], "source": None} for o in outputs):
            print("WARNING: report info --json differs between the trees (beside the source path)")
        print(f"\nbest of {args.runs} fresh processes (median), peak RSS:")
        for name in _cases(folder):
            for label in trees:
                runs = results[(name, label)]
                best = min(r["seconds"] for r in runs)
                median = statistics.median(r["seconds"] for r in runs)
                rss = min(r["rss"] for r in runs)
                line = f"  {name:<22} {label:<7} {best:6.3f} s ({median:6.3f})  {rss / 1e6:7.0f} MB"
                if name == "open + AI Core":
                    steps = min((json.loads(r["out"]) for r in runs), key=lambda s: s["open"] + s["aicore"])
                    line += (
                        f"   in process: import {steps['import']:.3f} s, open {steps['open']:.3f} s, "
                        f"first AI Core access {steps['aicore']:.3f} s ({steps['rows']:,} rows)"
                    )
                print(line)
    finally:
        if args.keep is None:
            shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
