"""Accuracy comparison throughput (target: >= 0.5 GB/s of tensor data) and parity with msaccucmp.

Usage: ``python benchmarks/bench_accuracy.py [--mb 400] [--msaccucmp DIR]``

1. Writes ``--mb`` MB of real-format NPU dump files (float16, NC1HWC0 and ND) plus float32 ground
   truth, then times ``compare_dirs`` end to end (dump parsing, layout conversion, 8 default metrics);
   GB/s counts the bytes of both sides.
2. When mindstudio-probe's msaccucmp is available (``--msaccucmp`` = the extracted
   ``msprobe/msaccucmp`` folder of the PyPI wheel, or the installed package), runs its
   AlgorithmManager on the same arrays: reports both speeds and checks every value string is equal.
   (Its dump-file parser needs CANN's libascend_dump_parser.so, so the side by side is at the array level.)
"""

from __future__ import annotations

import argparse
import importlib.util
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from workbench.core.dump import dtypes, metrics  # noqa: E402
from workbench.core.dump.compare import compare_dirs  # noqa: E402
from workbench.core.dump.dumpfile import TensorSpec, write_dump  # noqa: E402
from workbench.core.dump.formats import nc1hwc0_to_nchw  # noqa: E402


def make_data(root: Path, total_mb: int, rng: np.random.Generator) -> tuple[int, list[tuple[np.ndarray, np.ndarray]]]:
    npu, golden = root / "npu", root / "golden"
    npu.mkdir(), golden.mkdir()
    nbytes, pairs, i = 0, [], 0
    while nbytes < total_mb * 1e6:
        if i % 2 == 0:  # a conv output in NC1HWC0 with padded channels
            n, c, h, w = 1, 120, 112, 112
            dev = rng.standard_normal((n, 8, h, w, 16)).astype(np.float16)
            logical = nc1hwc0_to_nchw(dev, c)
            spec = TensorSpec(dtypes.encode(dev, 2), 2, dtypes.FORMAT_NC1HWC0, dev.shape, (n, c, h, w))
        else:
            logical = rng.standard_normal((1024, 1024)).astype(np.float16)
            spec = TensorSpec(dtypes.encode(logical, 2), 2, dtypes.FORMAT_ND, logical.shape, logical.shape)
        gold = logical.astype(np.float32) * (1 + 1e-3 * rng.standard_normal(logical.shape, np.float32))
        write_dump(npu / f"Conv2D.op{i}.{i}.0.{1000 + i}", f"op{i}", [], [spec])
        np.save(golden / f"op{i}.0.{1000 + i}.npy", gold)
        nbytes += logical.size * 2 + gold.nbytes
        pairs.append((logical, gold))
        i += 1
    return nbytes, pairs


def load_msaccucmp(path: str | None):
    candidates = [path] if path else []
    spec = importlib.util.find_spec("msprobe")
    if spec and spec.submodule_search_locations:
        candidates.append(str(Path(list(spec.submodule_search_locations)[0]) / "msaccucmp"))
    for c in candidates:
        if c and (Path(c) / "algorithm_manager").is_dir():
            sys.path.insert(0, c)
            from algorithm_manager.algorithm_manager import AlgorithmManager
            from cmp_utils import log, utils

            log.print_info_log = log.print_warn_log = lambda *a, **k: None
            return AlgorithmManager("", ",".join(metrics.DEFAULT_ALGORITHMS), ""), utils
    return None, None


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--mb", type=int, default=400, help="MB of tensor data (NPU + golden), default 400")
    ap.add_argument("--msaccucmp", help="path of msprobe/msaccucmp (extracted mindstudio-probe wheel)")
    args = ap.parse_args()
    rng = np.random.default_rng(0)
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        nbytes, pairs = make_data(root, args.mb, rng)
        t0 = time.perf_counter()
        report = compare_dirs(root / "npu", root / "golden")
        dt = time.perf_counter() - t0
        assert all(not r.reason for r in report.rows), [r.reason for r in report.rows if r.reason][:3]
        print(
            f"workbench compare_dirs: {len(report.rows)} tensors, {nbytes / 1e9:.2f} GB in {dt:.2f} s "
            f"= {nbytes / 1e9 / dt:.2f} GB/s (end to end: parse + NC1HWC0->NCHW + 8 metrics)"
        )
        t0 = time.perf_counter()
        ours = [
            metrics.compare_arrays(x, y, metrics.DEFAULT_ALGORITHMS, npu_file="L", golden_file="R") for x, y in pairs
        ]
        dt_ours = time.perf_counter() - t0
        print(f"workbench metrics only: {nbytes / 1e9 / dt_ours:.2f} GB/s")
        mgr, utils = load_msaccucmp(args.msaccucmp)
        if mgr is None:
            print("msaccucmp (mindstudio-probe) not found: pass --msaccucmp DIR for the side by side")
            return 0
        t0 = time.perf_counter()
        theirs = [
            mgr.compare(
                x.reshape(-1),
                y.reshape(-1),
                {
                    "my_output_dump_file": "L",
                    "ground_truth_dump_file": "R",
                    "shape_type": utils.get_shape_type(list(x.shape)),
                },
            )
            for x, y in pairs
        ]
        dt_theirs = time.perf_counter() - t0
        same = sum(a[0] == b[0] and a[1] == b[1] for a, b in zip(ours, theirs))
        print(
            f"msaccucmp AlgorithmManager: {nbytes / 1e9 / dt_theirs:.2f} GB/s; workbench/msaccucmp speed ratio "
            f"{dt_theirs / dt_ours:.2f}x; identical value strings for {same}/{len(pairs)} tensors"
        )
        return 0 if same == len(pairs) else 1


if __name__ == "__main__":
    sys.exit(main())
