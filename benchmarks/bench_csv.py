"""Benchmark: the summary-CSV reader (issue #18) beside ``pyarrow.csv.read_csv`` of the same file.

Run: ``python benchmarks/bench_csv.py [--rows 1000000 5000000] [--keep DIR] [--before SRC]``.

Writes a torch_npu ``kernel_details.csv`` (2025 layout: quoted start times with a trailing TAB,
tripled-quote shapes, PipeUtilization PMU columns) and an msprof 8.x ``op_summary`` of each size,
then times, each case in a FRESH process (wall time of the read only, peak RSS of the process):

- ``ours``: ``tables.read_ops`` (exact int64 ns, N/A missing, categorical text);
- ``pyarrow``: ``pyarrow.csv.read_csv(path)`` with its defaults (the goal: ours <= 1.5x its time,
  peak RSS <= 1.0x the file);
- ``duckdb``: ``duckdb.read_csv(path).to_arrow_table()`` (the other columnar reader considered);
- ``legacy``: the pandas reader before issue #18 (tests/core/profiling/legacy_schemas.py), 1 M only;

and on the 1 M kernel_details: a cold ``ascend-workbench report info --cache off`` and the cache
size after ``--cache on``, with this tree and, given ``--before SRC`` (an unpacked copy of the
previous commit, e.g. ``git archive HEAD~1 | tar -x -C SRC``), with that one.

``--repeat N`` (default 3) runs the cases N times, the modes taking turns (on a shared machine each
mode meets the same load), and shows the best time of each, its CPU time (all threads) and the
highest peak RSS; the ratio is the best time over pyarrow's best.
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

import numpy as np

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
PMU = (
    "aicore_time(us),aic_total_cycles,aic_mac_time(us),aic_mac_ratio,aic_scalar_time(us),aic_scalar_ratio,"
    "aic_mte1_time(us),aic_mte1_ratio,aic_mte2_time(us),aic_mte2_ratio,aic_fixpipe_time(us),aic_fixpipe_ratio,"
    "aic_icache_miss_rate,aiv_time(us),aiv_total_cycles,aiv_vec_time(us),aiv_vec_ratio,aiv_scalar_time(us),"
    "aiv_scalar_ratio,aiv_mte2_time(us),aiv_mte2_ratio,aiv_mte3_time(us),aiv_mte3_ratio,aiv_icache_miss_rate,"
    "cube_utilization(%)"
)
TENSORS = "Input Shapes,Input Data Types,Input Formats,Output Shapes,Output Data Types,Output Formats"
KERNEL_DETAILS = (
    "Step Id,Model ID,Task ID,Stream ID,Name,Type,OP State,Accelerator Core,Start Time(us),Duration(us),"
    f"Wait Time(us),Block Dim,Mix Block Dim,HF32 Eligible,{TENSORS},Context ID,{PMU}"
)
OP_SUMMARY = (
    "Device_id,Model ID,Task ID,Stream ID,Op Name,OP Type,OP State,Task Type,Task Start Time(us),"
    f"Task Duration(us),Task Wait Time(us),Block Dim,Mix Block Dim,HF32 Eligible,{TENSORS},Context ID,{PMU}"
)
N_NAMES, N_TYPES = 5000, 200
START_NS = 1_736_413_971_000_000_000
CORES = ("AI_CORE", "AI_VECTOR_CORE", "MIX_AIC", "AI_CPU")


def _templates(rng: np.random.Generator, op_summary: bool) -> tuple[list[str], list[str], np.ndarray]:
    """Per op name: the cells before the start time, the cells after the duration, a mean duration."""
    heads, tails = [], []
    for k in range(N_NAMES):
        t = k % N_TYPES
        core = CORES[t % len(CORES)]
        name = f"aclnnOp{t}_OpType{t}Common_Kernel{k}"
        heads.append(f"{name},OpType{t},dynamic,{core}")
        time_us = rng.uniform(1, 500, 12)
        cycles = rng.integers(1_000, 20_000_000, 2)
        ratio = rng.random(13)
        pmu = [
            f"{time_us[0]:.3f}",
            str(cycles[0]),
            f"{time_us[1]:.3f}",
            f"{ratio[0]:.3f}",
            f"{time_us[2]:.3f}",
            f"{ratio[1]:.3f}",
            f"{time_us[3]:.3f}",
            f"{ratio[2]:.3f}",
            f"{time_us[4]:.3f}",
            f"{ratio[3]:.3f}",
            f"{time_us[5]:.3f}",
            f"{ratio[4]:.3f}",
            f"{ratio[5]:.3f}",
            f"{time_us[6]:.3f}",
            str(cycles[1]),
            f"{time_us[7]:.3f}",
            f"{ratio[6]:.3f}",
            f"{time_us[8]:.3f}",
            f"{ratio[7]:.3f}",
            f"{time_us[9]:.3f}",
            f"{ratio[8]:.3f}",
            f"{time_us[10]:.3f}",
            f"{ratio[9]:.3f}",
            f"{ratio[10]:.3f}",
            f"{ratio[11] * 100:.3f}",
        ]
        if core == "AI_CPU":
            pmu = ["N/A"] * len(pmu)
        a, b = k % 64 + 1, (k * 7) % 4096 + 1
        shapes = f'"""{a * 128},{b};{b},512""",DT_BF16;DT_BF16,ND;ND,"""{a * 128},512""",DT_BF16,ND'
        tails.append(f"{rng.uniform(0, 3):.3f},{8 * (t % 6 + 1)},0,NO,{shapes},N/A,{','.join(pmu)}")
    return heads, tails, rng.integers(2_000, 400_000, N_NAMES)


def write_csv(path: Path, rows: int, layout: str = "kernel_details", seed: int = 0) -> Path:
    """``rows`` tasks in the real kernel_details (torch_npu) or op_summary (msprof 8.x) layout."""
    op_summary = layout == "op_summary"
    rng = np.random.default_rng(seed)
    heads, tails, mean_ns = _templates(rng, op_summary)
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "w", encoding="utf-8", newline="") as fh:
        fh.write((OP_SUMMARY if op_summary else KERNEL_DETAILS) + "\n")
        done, block = 0, 200_000
        start = START_NS
        while done < rows:
            n = min(block, rows - done)
            which = rng.integers(0, N_NAMES, n)
            dur = (mean_ns[which] * rng.uniform(0.9, 1.1, n)).astype(np.int64)
            starts = start + np.cumsum(dur + 1_000) - dur
            start = int(starts[-1] + dur[-1])
            first = "0" if op_summary else "1"
            lines = []
            for i, (w, s, d) in enumerate(zip(which.tolist(), starts.tolist(), dur.tolist())):
                ts = f"{s // 1000}.{s % 1000:03d}" if op_summary else f'"{s // 1000}.{s % 1000:03d}\t"'
                lines.append(
                    f"{first},4294967295,{(done + i) % 65535},2,{heads[w]},{ts},{d // 1000}.{d % 1000:03d},{tails[w]}\n"
                )
            fh.write("".join(lines))
            done += n
    return path


def write_torch_npu_folder(root: Path, rows: int) -> Path:
    """A ``*_ascend_pt`` folder holding profiler_info.json, an empty trace and the kernel_details."""
    folder = root / "bench_20250109101435646_ascend_pt"
    out = folder / "ASCEND_PROFILER_OUTPUT"
    out.mkdir(parents=True, exist_ok=True)
    (folder / "profiler_info.json").write_text(json.dumps({"torch_npu_version": "2.1.0", "cann_version": "8.0.RC1"}))
    (out / "trace_view.json").write_text("[]")
    write_csv(out / "kernel_details.csv", rows)
    return folder


# ---- one case per process ----------------------------------------------------------------------


def _cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def child(mode: str, path: str) -> None:
    """Run one case here and print ``{"seconds": .., "cpu": .., "rss": ..}`` (peak RSS in bytes)."""
    if mode == "ours":
        from workbench.core.profiling import tables

        cpu_before, start = _cpu(), time.perf_counter()
        rows = len(tables.read_ops(Path(path)))
    elif mode == "legacy":
        sys.path.insert(0, str(REPO / "tests" / "core" / "profiling"))
        import legacy_schemas

        cpu_before, start = _cpu(), time.perf_counter()
        rows = len(legacy_schemas.read_ops(Path(path)))
    elif mode == "pyarrow":
        import pyarrow.csv

        cpu_before, start = _cpu(), time.perf_counter()
        rows = pyarrow.csv.read_csv(path).num_rows
    elif mode == "duckdb":
        import duckdb

        cpu_before, start = _cpu(), time.perf_counter()
        rows = duckdb.read_csv(path).to_arrow_table().num_rows
    else:
        raise SystemExit(f"unknown mode {mode}")
    seconds = time.perf_counter() - start
    usage = resource.getrusage(resource.RUSAGE_SELF)
    cpu = usage.ru_utime + usage.ru_stime - cpu_before
    print(json.dumps({"seconds": seconds, "cpu": cpu, "rss": usage.ru_maxrss * 1024, "rows": rows}))


def run_case(mode: str, path: Path) -> dict:
    proc = subprocess.run(
        [sys.executable, __file__, "--child", mode, str(path)], capture_output=True, text=True, check=False
    )
    if proc.returncode != 0:
        return {"error": proc.stderr.strip().splitlines()[-1] if proc.stderr.strip() else f"exit {proc.returncode}"}
    return json.loads(proc.stdout.strip().splitlines()[-1])


def best_of(modes: list[str], path: Path, repeat: int) -> dict[str, dict]:
    """Each mode ``repeat`` times, taking turns: its best time (and that run's CPU), its highest peak RSS."""
    runs: dict[str, list[dict]] = {mode: [] for mode in modes}
    for _ in range(max(1, repeat)):
        for mode in modes:
            runs[mode].append(run_case(mode, path))
    results: dict[str, dict] = {}
    for mode, got in runs.items():
        ok = [r for r in got if "error" not in r]
        results[mode] = dict(min(ok, key=lambda r: r["seconds"]), rss=max(r["rss"] for r in ok)) if ok else got[0]
    return results


def cli_cases(folder: Path, source: Path, label: str) -> None:
    """Cold ``report info --cache off`` and the cache size of ``--cache on``, with the tree ``source``."""
    env = dict(os.environ, PYTHONPATH=str(source))  # run from `source`: its tree comes first on sys.path
    argv = [sys.executable, "-m", "workbench", "report", "info", str(folder)]
    start = time.perf_counter()
    proc = subprocess.run([*argv, "--cache", "off"], env=env, cwd=source, capture_output=True, text=True, check=False)
    off = time.perf_counter() - start
    shutil.rmtree(folder / ".wbcache", ignore_errors=True)
    subprocess.run([*argv, "--cache", "on"], env=env, cwd=source, capture_output=True, text=True, check=False)
    size = sum(p.stat().st_size for p in (folder / ".wbcache").rglob("*") if p.is_file())
    start = time.perf_counter()
    subprocess.run([*argv, "--cache", "on"], env=env, cwd=source, capture_output=True, text=True, check=False)
    cached = time.perf_counter() - start
    shutil.rmtree(folder / ".wbcache", ignore_errors=True)
    csv_bytes = (folder / "ASCEND_PROFILER_OUTPUT" / "kernel_details.csv").stat().st_size
    status = "ok" if proc.returncode == 0 else f"exit {proc.returncode}: {proc.stderr.strip()[-200:]}"
    print(
        f"  {label:<7} report info --cache off {off:6.2f} s ({status}); cache {size / 1e6:6.0f} MB "
        f"= {size / csv_bytes:.2f}x the CSV; cached report info {cached:5.2f} s"
    )


def main() -> None:
    if len(sys.argv) == 4 and sys.argv[1] == "--child":
        child(sys.argv[2], sys.argv[3])
        return
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rows", type=int, nargs="+", default=[1_000_000, 5_000_000])
    parser.add_argument("--keep", type=Path, default=None, help="write the inputs here and keep them")
    parser.add_argument("--before", type=Path, default=None, help="source tree of the previous version (CLI figures)")
    parser.add_argument("--modes", nargs="+", default=["pyarrow", "ours", "duckdb", "legacy"])
    parser.add_argument("--repeat", type=int, default=3, help="runs of each case (best time, highest peak RSS)")
    args = parser.parse_args()
    root = Path(tempfile.mkdtemp(prefix="bench_csv_", dir=args.keep))
    try:
        for rows in args.rows:
            folder = write_torch_npu_folder(root / f"kd{rows}", rows)
            files = [folder / "ASCEND_PROFILER_OUTPUT" / "kernel_details.csv"]
            files.append(write_csv(root / f"os{rows}" / "op_summary_20250109101435.csv", rows, "op_summary"))
            for path in files:
                size = path.stat().st_size
                print(f"{path.name} {rows:,} rows, {size / 1e6:.0f} MB")
                modes = [m for m in args.modes if not (m == "legacy" and rows > 1_000_000)]
                results = best_of(modes, path, args.repeat)
                for mode in modes:
                    got = results[mode]
                    if "error" in got:
                        print(f"  {mode:<8} failed: {got['error']}")
                        continue
                    ratio = (
                        got["seconds"] / results["pyarrow"]["seconds"]
                        if "seconds" in results.get("pyarrow", {})
                        else float("nan")
                    )
                    print(
                        f"  {mode:<8} {got['seconds']:6.2f} s ({ratio:4.2f}x pyarrow; CPU {got['cpu']:5.2f} s)  "
                        f"peak RSS "
                        f"{got['rss'] / 1e6:6.0f} MB ({got['rss'] / size:4.2f}x the file)  "
                        f"{size / got['seconds'] / 1e6:5.0f} MB/s"
                    )
            if rows == min(args.rows):
                cli_cases(folder, REPO, "now")
                if args.before is not None:
                    cli_cases(folder, args.before, "before")
    finally:
        if args.keep is None:
            shutil.rmtree(root, ignore_errors=True)


if __name__ == "__main__":
    main()
