"""``python -m workbench.simtoolkit.profdata`` — regenerate samples or write reports from a shell.

samples OUT_DIR                       the shipped sample report (resources/samples)
msprof OUT_DIR [--cann V] [--soc S] [--iterations N] [--devices 0,1] [--metrics G] [--workload W]
torch OUT_DIR [--soc S] [--steps N] [--metrics G] [--style 2025|2023] [--workload W]
              [--world-size N [--rank R] [--parallel dp|mixed]]   (every rank's folder unless --rank)
              [--plant NAME[,NAME]]   (problems put in on purpose for the advisor)
big OUT_FILE --form msprof|torch_npu --events N
cluster OUT_DIR --world-size N [--tp T] [--pp P] [--steps S] [--slow-rank R] [--slow-link SRC-DST] [--seed X] [--full]
              [--export text|db|both]   (every rank's folder of an N-rank tp/dp/pp job: the input of cluster
              analysis; --export db: torch_npu's export_type=Db, ascend_pytorch_profiler_{rank}.db + analysis.db)
              [--layout torch_npu|msprof]   (msprof: a PROF_* folder per rank, as msprof / acl profiling writes it)
              [--framework pytorch|mindspore]   (mindspore: *_ascend_ms folders; with --export db
              ascend_mindspore_profiler_{rank}.db + communication_analyzer.db)
"""

from __future__ import annotations

import argparse
import sys

from . import (
    data_parallel,
    mixed_parallel,
    problems,
    resnet50_workload,
    transformer_workload,
    write_big_timeline,
    write_msprof_prof,
    write_torch_npu,
    write_torch_npu_job,
)
from .clusterjob import write_cluster_job
from .samples import write_samples

WORKLOADS = {"resnet50": lambda kind: resnet50_workload(kind=kind), "transformer": lambda kind: transformer_workload()}


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m workbench.simtoolkit.profdata")
    sub = p.add_subparsers(dest="cmd", required=True)
    s = sub.add_parser("samples")
    s.add_argument("out")
    m = sub.add_parser("msprof")
    m.add_argument("out")
    m.add_argument("--cann", default="8.0.RC1")
    m.add_argument("--soc", default="Ascend910B2")
    m.add_argument("--iterations", type=int, default=2)
    m.add_argument("--devices", default="0")
    m.add_argument("--metrics", default="PipeUtilization")
    m.add_argument("--workload", choices=sorted(WORKLOADS), default="resnet50")
    m.add_argument("--seed", type=int, default=0)
    t = sub.add_parser("torch")
    t.add_argument("out")
    t.add_argument("--soc", default="Ascend910B2")
    t.add_argument("--steps", type=int, default=2)
    t.add_argument("--metrics", default="PipeUtilization")
    t.add_argument("--style", default="2025")
    t.add_argument("--workload", choices=sorted(WORKLOADS), default="transformer")
    t.add_argument("--seed", type=int, default=0)
    t.add_argument("--world-size", type=int, default=1)
    t.add_argument("--rank", type=int, default=None)
    t.add_argument("--parallel", choices=("dp", "mixed"), default="dp")
    t.add_argument(
        "--plant",
        default="",
        metavar="NAME[,NAME]",
        help="problems to put in on purpose for the advisor: " + ", ".join(sorted(problems.PLANTS)),
    )
    b = sub.add_parser("big")
    b.add_argument("out")
    b.add_argument("--form", required=True)
    b.add_argument("--events", type=int, required=True)
    c = sub.add_parser("cluster")
    c.add_argument("out")
    c.add_argument("--world-size", type=int, required=True)
    c.add_argument("--tp", type=int, default=1)
    c.add_argument("--pp", type=int, default=1)
    c.add_argument("--steps", type=int, default=2)
    c.add_argument("--slow-rank", type=int, default=None)
    c.add_argument("--slow-link", default=None, metavar="SRC-DST")
    c.add_argument("--seed", type=int, default=0)
    c.add_argument("--full", action="store_true")
    c.add_argument("--export", choices=("text", "db", "both"), default="text")
    c.add_argument("--layout", choices=("torch_npu", "msprof"), default="torch_npu")
    c.add_argument("--framework", choices=("pytorch", "mindspore"), default="pytorch")
    a = p.parse_args(argv)
    try:
        if a.cmd == "samples":
            paths = write_samples(a.out)
        elif a.cmd == "msprof":
            devices = [int(x) for x in a.devices.split(",")]
            paths = [
                write_msprof_prof(
                    a.out,
                    WORKLOADS[a.workload]("model"),
                    a.cann,
                    a.soc,
                    devices,
                    a.iterations,
                    a.metrics or None,
                    a.seed,
                )
            ]
        elif a.cmd == "torch":
            workload = WORKLOADS[a.workload]("ops")
            plants = [x.strip() for x in a.plant.split(",") if x.strip()]
            if a.world_size > 1:
                workload = (mixed_parallel if a.parallel == "mixed" else data_parallel)(workload)
                paths = write_torch_npu_job(
                    a.out,
                    workload,
                    a.world_size,
                    a.soc,
                    a.steps,
                    a.metrics or None,
                    a.seed,
                    ranks=None if a.rank is None else [a.rank],
                    style=a.style,
                    plants=plants,
                )
            else:
                paths = [
                    write_torch_npu(
                        a.out, workload, a.soc, a.steps, a.metrics or None, a.seed, style=a.style, plants=plants
                    )
                ]
        elif a.cmd == "cluster":
            plan = write_cluster_job(
                a.out,
                a.world_size,
                tp=a.tp,
                pp=a.pp,
                steps=a.steps,
                slow_rank=a.slow_rank,
                slow_link=None if a.slow_link is None else _link(a.slow_link),
                seed=a.seed,
                full=a.full,
                export=a.export,
                layout=a.layout,
                framework=a.framework,
            )
            paths = list(plan.rank_dirs)
        else:
            print(write_big_timeline(a.out, a.form, a.events))
            return 0
    except (ValueError, FileExistsError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    for path in paths:
        print(path)
    return 0


def _link(text: str) -> tuple[int, int]:
    """``--slow-link 3-7`` -> (3, 7)."""
    src, sep, dst = text.partition("-")
    if not sep or not src.strip().isdigit() or not dst.strip().isdigit():
        raise ValueError(f"--slow-link: expected SRC-DST ranks such as 0-1, got {text!r}")
    return int(src), int(dst)


if __name__ == "__main__":
    sys.exit(main())
