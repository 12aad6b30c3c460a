"""Benchmark: the profiler-database reader (issue #18) beside the Text reader of the same run.

Run: ``python benchmarks/bench_db.py [--tasks 1000000] [--keep DIR] [--before SRC] [--pmu] [--repeat N]
[--db-only]``.

Generates ONE simulated torch_npu run (resnet50 + two gradient AllReduce operators per step, rank 0
of 2; no PMU metrics unless ``--pmu``, with which TASK_PMU_INFO holds ~25 rows per task) and exports
it as Text and as Db in the same folder (``export_type="Text+Db"``: the same tasks, the same values),
then times each case in a FRESH process (wall time, peak RSS of that process):

- ``db read_db``: ``dbread.read_db(ascend_pytorch_profiler_0.db, analysis.db)``;
- ``db open_report``: ``build.open_report(<the .db file>, use_cache=False)`` (the whole Report);
- ``text open_report``: ``build.open_report(<the folder>, use_cache=False)`` (trace_view.json + CSVs);
- ``report info --cache off`` on the .db file and on the folder (whole process, from interpreter start);

and, given ``--before SRC`` (an unpacked copy of the previous commit: ``git archive HEAD | tar -x -C
SRC``; repeatable), the db cases with that tree too (PYTHONPATH: the tree, then what PYTHONPATH named).
``--keep DIR`` keeps the generated run there and reuses it (the generation takes minutes: the simulator
formats every event in Python). ``--repeat N`` runs every case N times, the trees taking turns (the
machine is shared: figures are noisy), and prints each run and then the best and the median;
``--db-only`` leaves out the Text and CLI cases.
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

HERE = Path(__file__).resolve().parent
REPO = HERE.parent


def generate(root: Path, tasks: int, pmu: bool) -> Path:
    """The run's ``*_ascend_pt`` folder under ``root`` (made once; reused when it is there)."""
    done = sorted(root.glob("*_ascend_pt"))
    if done:
        return done[0]
    sys.path.insert(0, str(REPO))
    from workbench.simtoolkit.profdata import data_parallel, resnet50_workload, write_torch_npu

    w = data_parallel(resnet50_workload())
    steps = -(-tasks // len(w.ops))
    start = time.perf_counter()
    folder = write_torch_npu(
        root,
        w,
        steps=steps,
        rank=0,
        world_size=2,
        aic_metrics="PipeUtilization" if pmu else None,
        export_type="Text+Db",
    )
    print(f"generated {steps * len(w.ops):,} tasks ({steps:,} steps) in {time.perf_counter() - start:.0f} s")
    return folder


def child(mode: str, path: str) -> None:
    """One case in this process; prints ``{"seconds", "rss", "what"}``."""
    if mode == "read_db":
        from workbench.core.profiling.dbread import read_db

        start = time.perf_counter()
        data = read_db(Path(path), Path(path).parent / "analysis.db")
        what = f"{len(data.ops):,} ops, {data.timeline.event_count if data.timeline else 0:,} slices"
    elif mode == "open_report":
        from workbench.core.profiling.build import open_report

        start = time.perf_counter()
        report = open_report(Path(path), use_cache=False)
        what = f"{len(report.ops):,} ops, {report.event_count:,} slices, {report.flow_count:,} flows"
    else:
        raise SystemExit(f"unknown mode {mode}")
    seconds = time.perf_counter() - start
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
    print(json.dumps({"seconds": seconds, "rss": rss, "what": what}))


def _run(argv: list[str], env: dict | None = None, cwd: Path | None = None) -> tuple[float, str, str]:
    """Wall seconds, stdout and (on failure) the last line of stderr of one process."""
    start = time.perf_counter()
    proc = subprocess.run(argv, capture_output=True, text=True, env=env, cwd=cwd, check=False)
    wall = time.perf_counter() - start
    err = (proc.stderr.strip().splitlines() or [f"exit {proc.returncode}"])[-1] if proc.returncode else ""
    return wall, proc.stdout, err


def _env(source: Path) -> dict:
    """This environment with ``source`` first on the path (and what PYTHONPATH already named after it)."""
    return dict(os.environ, PYTHONPATH=os.pathsep.join(p for p in (str(source), os.environ.get("PYTHONPATH")) if p))


def case(label: str, mode: str, path: Path, source: Path) -> dict | None:
    env = _env(source)
    _, out, err = _run([sys.executable, str(Path(__file__).resolve()), "--child", mode, str(path)], env, source)
    if err:
        print(f"  {label:<34} failed: {err}")
        return None
    got = json.loads(out.strip().splitlines()[-1])
    print(f"  {label:<34} {got['seconds']:7.2f} s  peak RSS {got['rss'] / 1e6:7.0f} MB   ({got['what']})", flush=True)
    return got


def summary(label: str, runs: list[dict]) -> None:
    """Best and median of the runs of one case."""
    if not runs:
        return
    secs, rss = [r["seconds"] for r in runs], [r["rss"] / 1e6 for r in runs]
    print(
        f"  {label:<34} best {min(secs):7.2f} s  median {statistics.median(secs):7.2f} s  "
        f"peak RSS best {min(rss):6.0f} MB  median {statistics.median(rss):6.0f} MB   ({len(runs)} runs)"
    )


def cli(label: str, path: Path, source: Path) -> None:
    """``report info --cache off`` as a user runs it: a fresh interpreter, wall time from its start."""
    env = _env(source)
    argv = [sys.executable, "-m", "workbench", "report", "info", str(path), "--cache", "off"]
    # a wrapper process per run: the peak RSS of its only child is the CLI's
    wrapper = (
        "import resource, subprocess, sys, time, json; t = time.perf_counter(); "
        "p = subprocess.run(sys.argv[1:], capture_output=True, text=True); "
        "print(json.dumps({'wall': time.perf_counter() - t, "
        "'rss': resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss * 1024, 'rc': p.returncode, "
        "'err': p.stderr.strip()[-300:]}))"
    )
    _, out, err = _run([sys.executable, "-c", wrapper, *argv], env, source)
    got = json.loads(out.strip().splitlines()[-1]) if out.strip() else {"rc": 1, "err": err}
    status = "ok" if got["rc"] == 0 else f"exit {got['rc']}: {got['err']}"
    print(f"  {label:<34} {got.get('wall', 0):7.2f} s  peak RSS {got.get('rss', 0) / 1e6:7.0f} MB   ({status})")


def main() -> None:
    if len(sys.argv) == 4 and sys.argv[1] == "--child":
        child(sys.argv[2], sys.argv[3])
        return
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tasks", type=int, default=1_000_000, help="device tasks of the run (default 1 M)")
    parser.add_argument("--keep", type=Path, default=None, help="write the run here and keep (and reuse) it")
    parser.add_argument(
        "--before", type=Path, action="append", default=[], help="source tree of the previous version (repeatable)"
    )
    parser.add_argument("--pmu", action="store_true", help="collect PipeUtilization PMU metrics (TASK_PMU_INFO)")
    parser.add_argument("--repeat", type=int, default=1, help="runs of every case, the trees taking turns")
    parser.add_argument("--db-only", action="store_true", help="only the db cases (no Text, no CLI)")
    args = parser.parse_args()
    root = args.keep or Path(tempfile.mkdtemp(prefix="bench_db_"))
    root.mkdir(parents=True, exist_ok=True)
    folder = generate(root, args.tasks, args.pmu)
    out = folder / "ASCEND_PROFILER_OUTPUT"
    db = next(out.glob("ascend_pytorch_profiler*.db"))
    sizes = {p.name: p.stat().st_size for p in out.iterdir()}
    text_bytes = sum(v for k, v in sizes.items() if not k.endswith(".db"))
    print(
        f"{db.name} {sizes[db.name] / 1e6:.0f} MB; the Text export (trace_view.json + CSVs) {text_bytes / 1e6:.0f} MB"
    )
    tags = [" (before)"] if len(args.before) == 1 else [f" ({src.resolve().name})" for src in args.before]
    trees = [("", REPO)] + [(tag, src.resolve()) for tag, src in zip(tags, args.before)]
    runs: dict[str, list[dict]] = {}
    for mode in ("read_db", "open_report"):
        for turn in range(args.repeat):
            for tag, source in trees if turn % 2 == 0 else trees[::-1]:
                label = f"db {mode}{tag}"
                got = case(label, mode, db, source)
                runs.setdefault(label, []).extend([got] if got else [])
    if args.repeat > 1:
        for label, got in runs.items():
            summary(label, got)
    if args.db_only:
        return
    case("text open_report", "open_report", folder, REPO)
    for tag, source in trees:
        cli(f"db report info --cache off{tag}", db, source)
    cli("text report info --cache off", folder, REPO)
    wall = min(_run([sys.executable, "-c", "pass"])[0] for _ in range(3))
    print(f"  {'python3 -c pass':<34} {wall:7.2f} s")
    if not args.keep:
        print(f"(inputs left in {root}; delete them or pass --keep to reuse)")


if __name__ == "__main__":
    main()
