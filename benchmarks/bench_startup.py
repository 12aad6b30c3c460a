"""Benchmark: whole-process start-up of the command line, side by side with ``python3 -c pass``.

Run: ``python benchmarks/bench_startup.py [--runs N] [--report PATH]``. Each case is a fresh
process (what a user or a script pays per call); the best of ``--runs`` is the code's own cost on
a shared machine, the median is shown beside it. ``--report`` adds ``report info`` on that report
(opened once first so its cache is warm). Targets (issue #18): ``--version`` / ``--help`` ≤ 0.15 s,
``report info`` on a cached 1 GB report ≤ 0.3 s.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time


def whole_process(cmd: list[str], runs: int) -> tuple[float, float]:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
        times.append(time.perf_counter() - start)
    return min(times), statistics.median(times)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=7)
    ap.add_argument("--report", help="a report to time `report info` on (cache warmed first)")
    args = ap.parse_args()
    py = sys.executable
    cases = [
        ("python3 -c pass", [py, "-c", "pass"]),
        ("python3 -c 'import numpy'", [py, "-c", "import numpy"]),
        ("ascend-workbench --version", [py, "-m", "workbench", "--version"]),
        ("ascend-workbench --help", [py, "-m", "workbench", "--help"]),
        ("ascend-workbench report --help", [py, "-m", "workbench", "report", "--help"]),
    ]
    if args.report:
        subprocess.run([py, "-m", "workbench", "report", "info", args.report], capture_output=True, check=False)
        cases.append(("report info (cached)", [py, "-m", "workbench", "report", "info", args.report]))
    base = None
    print(f"{'case':<34} {'best':>8} {'median':>8}  vs python3 -c pass")
    for label, cmd in cases:
        best, median = whole_process(cmd, args.runs)
        base = base or best
        print(f"{label:<34} {best:7.3f}s {median:7.3f}s  {best / base:5.1f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
