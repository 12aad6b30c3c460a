"""Benchmark: baseline comparison of two torch_npu reports of 1 M op rows each. Target ≤ 3 s.

Run: ``python benchmarks/bench_compare.py [--rows N] [--msprof-analyze EXE] [--keep DIR]``.

Writes two ``*_ascend_pt`` folders (profiler_info.json, an empty trace_view.json and a
kernel_details.csv of N rows in the 2025 torch_npu layout with PipeUtilization PMU columns; the
current one has three OP types 20 % slower and two 10 % faster), then times, in one run:

- ours in-process: ``open_report`` of each side, then ``compare_reports`` (by type, by name, AI
  Core metrics, overall) — the ≤ 3 s target is the comparison of the two opened reports;
- ours end to end: ``ascend-workbench compare BASE CURRENT --json --cache off`` as a subprocess;
- msprof-analyze end to end: ``msprof-analyze compare -d CURRENT -bp BASE --enable_kernel_compare``
  (its kernel_details comparison per OP type and input shape, the closest to ours) as a
  subprocess, when the executable is found (``--msprof-analyze``, else on PATH; install it with
  ``pip install msprof-analyze``, best into its own venv), and prints the ratio. Its per-type
  totals are checked against ours.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

HEADER = (
    "Step Id,Model ID,Task ID,Stream ID,Name,Type,OP State,Accelerator Core,Start Time(us),Duration(us),"
    "Wait Time(us),Block Dim,Mix Block Dim,HF32 Eligible,Input Shapes,Input Data Types,Input Formats,"
    "Output Shapes,Output Data Types,Output Formats,Context ID,aicore_time(us),aic_total_cycles,"
    "aic_mac_time(us),aic_mac_ratio,aic_scalar_time(us),aic_scalar_ratio,aic_mte1_time(us),aic_mte1_ratio,"
    "aic_mte2_time(us),aic_mte2_ratio,aic_fixpipe_time(us),aic_fixpipe_ratio,aic_icache_miss_rate,"
    "aiv_time(us),aiv_total_cycles,aiv_vec_time(us),aiv_vec_ratio,aiv_scalar_time(us),aiv_scalar_ratio,"
    "aiv_mte2_time(us),aiv_mte2_ratio,aiv_mte3_time(us),aiv_mte3_ratio,aiv_icache_miss_rate,"
    "cube_utilization(%)"
)
N_TYPES, N_NAMES = 200, 5000
SLOWER = {3: 1.2, 7: 1.2, 11: 1.2}  # type index -> duration factor in the current report
FASTER = {5: 0.9, 13: 0.9}
START_NS = 1_736_413_971_000_000_000


def _templates(rng: np.random.Generator) -> tuple[list[str], list[str], list[str], np.ndarray, np.ndarray]:
    """Per op name: the text before the start time, the text after the duration, its type, mean duration."""
    types = np.arange(N_NAMES) % N_TYPES
    cores = ["AI_CORE", "AI_VECTOR_CORE", "MIX_AIC", "AI_CPU"]
    heads, tails, names = [], [], []
    mean_ns = rng.integers(2_000, 400_000, N_NAMES)
    for k in range(N_NAMES):
        t = int(types[k])
        name = f"aclnnOp{t}_Kernel{k}"
        core = cores[t % len(cores)]
        heads.append(f"{name},OpType{t},dynamic,{core}")
        pmu = ",".join(f"{v:.3f}" for v in rng.random(25))
        shape = f'"""{k % 64 + 1},1024"""'
        tails.append(f"0.5,24,0,NO,{shape},DT_BF16,ND,{shape},DT_BF16,ND,N/A,{pmu}")
        names.append(name)
    return heads, tails, names, types, mean_ns


def write_pair(root: Path, rows: int, seed: int = 0) -> tuple[Path, Path]:
    """Base and current ``*_ascend_pt`` folders with ``rows`` kernels each."""
    rng = np.random.default_rng(seed)
    heads, tails, _, types, mean_ns = _templates(rng)
    which = rng.integers(0, N_NAMES, rows)
    dur = (mean_ns[which] * rng.uniform(0.9, 1.1, rows)).astype(np.int64)
    factor = np.ones(N_TYPES)
    for t, f in {**SLOWER, **FASTER}.items():
        factor[t] = f
    out = []
    for label, d in (("base", dur), ("current", np.rint(dur * factor[types[which]]).astype(np.int64))):
        folder = root / label / f"bench_{label}_20250109101435646_ascend_pt"
        (folder / "ASCEND_PROFILER_OUTPUT").mkdir(parents=True)
        info = {"torch_npu_version": "2.1.0", "cann_version": "8.0.RC1"}
        (folder / "profiler_info.json").write_text(json.dumps(info))
        (folder / "ASCEND_PROFILER_OUTPUT" / "trace_view.json").write_text("[]")
        start = START_NS + np.cumsum(d + 1_000) - d
        lines = [HEADER]
        lines += [
            f'1,4294967295,{i % 65535},2,{heads[w]},"{s // 1000}.{s % 1000:03d}\t",{x // 1000}.{x % 1000:03d},'
            f"{tails[w]}"
            for i, (w, s, x) in enumerate(zip(which.tolist(), start.tolist(), d.tolist()))
        ]
        (folder / "ASCEND_PROFILER_OUTPUT" / "kernel_details.csv").write_text("\n".join(lines) + "\n")
        out.append(folder)
    return out[0], out[1]


def timed(label: str, fn, *args, **kwargs):
    start = time.perf_counter()
    value = fn(*args, **kwargs)
    elapsed = time.perf_counter() - start
    print(f"{label:<52} {elapsed:8.3f} s")
    return value, elapsed


def ours_in_process(base: Path, current: Path) -> tuple[float, object]:
    from workbench.core.compare import compare_reports
    from workbench.core.profiling.build import open_report

    b, _ = timed("ours: open base (1 kernel_details.csv)", open_report, base, use_cache=False)
    c, _ = timed("ours: open current", open_report, current, use_cache=False)

    def full():
        comparison = compare_reports(b, c)
        comparison.op_rows("name")
        return comparison

    comparison, elapsed = timed("ours: compare (type + name + AI Core metrics + overall)", full)
    print(
        f"    rows by type {len(comparison.rows)}, by name {len(comparison.op_rows('name'))}, "
        f"metric rows {len(comparison.metrics)}, statuses {comparison.status_counts()}"
    )
    return elapsed, comparison


def run_cli(label: str, argv: list[str], timeout: float) -> float | None:
    start = time.perf_counter()
    try:
        proc = subprocess.run(
            argv,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            text=True,
            timeout=timeout,
            stdin=subprocess.DEVNULL,
        )
    except subprocess.TimeoutExpired:
        print(f"{label:<52} timed out after {timeout:.0f} s")
        return None
    elapsed = time.perf_counter() - start
    if proc.returncode != 0:
        print(f"{label:<52} failed (exit {proc.returncode}): {proc.stderr.strip()[-400:]}")
        return None
    print(f"{label:<52} {elapsed:8.3f} s")
    return elapsed


def check_against_msprof_analyze(out_dir: Path, comparison) -> None:
    """Sum msprof-analyze's KernelCompare rows per kernel type and compare with our by-type totals."""
    import openpyxl

    files = sorted(out_dir.glob("performance_comparison_result_*.xlsx"))
    if not files:
        print("    msprof-analyze wrote no xlsx")
        return
    sheet = openpyxl.load_workbook(files[-1], read_only=True)["KernelCompare"]
    theirs: dict[str, list[float]] = {}
    for row in sheet.iter_rows(min_row=4, values_only=True):
        if row[1] is None or row[3] is None:
            continue
        acc = theirs.setdefault(str(row[1]), [0.0, 0.0])
        acc[0] += float(row[3])
        acc[1] += float(row[8] or 0.0)
    ours = comparison.rows.set_index("key")
    worst = max(
        (
            abs(v[0] - ours.loc[k, "base_total_us"]) / max(ours.loc[k, "base_total_us"], 1e-9)
            for k, v in theirs.items()
            if k in ours.index
        ),
        default=float("nan"),
    )
    print(
        f"    msprof-analyze kernel types {len(theirs)}, ours {len(ours)}; "
        f"largest relative difference of base totals {worst:.2e} (theirs are rounded to 0.01 us)"
    )


def find_msprof_analyze(given: str | None) -> str | None:
    if given:
        return given
    return shutil.which("msprof-analyze")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rows", type=int, default=1_000_000)
    parser.add_argument("--msprof-analyze", dest="msprof_analyze", default=None, metavar="EXE")
    parser.add_argument("--timeout", type=float, default=900.0, help="per external run (s)")
    parser.add_argument("--keep", type=Path, default=None, help="write the inputs here and keep them")
    args = parser.parse_args()
    root = Path(tempfile.mkdtemp(prefix="bench_compare_", dir=args.keep))
    try:
        (base, current), _ = timed(f"generate 2 x {args.rows} kernel_details rows", write_pair, root, args.rows)
        size = (base / "ASCEND_PROFILER_OUTPUT" / "kernel_details.csv").stat().st_size
        print(f"    {base.name}: kernel_details.csv {size / 1e6:.0f} MB")
        compare_s, comparison = ours_in_process(base, current)
        print(f"==> ours, compare of two opened {args.rows}-row reports: {compare_s:.3f} s (target <= 3 s)")
        env_cmd = [sys.executable, "-m", "workbench", "compare", str(base), str(current), "--json", "--cache", "off"]
        ours = run_cli("ours end to end: ascend-workbench compare --json", env_cmd, args.timeout)
        exe = find_msprof_analyze(args.msprof_analyze)
        if exe is None:
            print("msprof-analyze not found: pip install msprof-analyze (e.g. into a venv) and pass --msprof-analyze")
            return
        out_dir = root / "msprof_analyze_out"
        out_dir.mkdir()
        theirs = run_cli(
            "msprof-analyze compare --enable_kernel_compare",
            [exe, "compare", "-d", str(current), "-bp", str(base), "--enable_kernel_compare", "-o", str(out_dir)],
            args.timeout,
        )
        if theirs is not None:
            check_against_msprof_analyze(out_dir, comparison)
        if ours and theirs:
            print(f"==> end to end: msprof-analyze {theirs:.1f} s / ours {ours:.1f} s = {theirs / ours:.1f}x")
    finally:
        if args.keep is None:
            shutil.rmtree(root, ignore_errors=True)
        else:
            print(f"inputs kept in {root}")


if __name__ == "__main__":
    os.environ.setdefault("ASCEND_WORKBENCH_HOME", tempfile.mkdtemp(prefix="bench_home_"))
    main()
