"""The advisor side by side with ``msprof-analyze advisor all`` (issue #21, "Compared with the anchor").

On the same inputs, in the same run, it runs msprof-analyze's advisor (PyPI msprof-analyze, ``advisor all -d
INPUT -o OUT -l cn``: the categories of the sheet "问题综述" of ``OUT/log/mstt_advisor_*.xlsx``) and ours
(:func:`~workbench.core.advisor.run.advise` over :func:`~workbench.core.profiling.build.open_report`, or
:func:`~workbench.core.advisor.run.advise_cluster` over ``open_cluster(path, write=False).report`` for a
cluster folder), and prints one table: input x problem class, what each tool found, and both tools' wall time
per input (ours: opening the report or analysing the cluster, plus the rules).

The inputs (:func:`make_inputs`): a clean run (and a clean rank 0 of a 2-rank data-parallel job); one run per
plant of ``workbench.simtoolkit.profdata.problems.PLANTS`` (the communication plants on rank 0 of a 2-rank
data-parallel job with 32 MB gradient buckets); the shipped real samples that open as reports, copied into
the ``*_ascend_pt/ASCEND_PROFILER_OUTPUT`` layout msprof-analyze reads; an 8-rank cluster job (pp 2) with
slow rank 3 and slow link 2 -> 6.

A *problem class* is a category of msprof-analyze's summary sheet; a category whose own sheet sorts its
operators by "Type" (the AI Core performance categories: non-affine shapes, bound operators, operators with
room for optimisation) is one class per type. :data:`MAPPING` says which of our rules answer each class
(``()``: none of ours; :data:`NO_RULE` says why); :data:`PLANT_RULES` which of our rules each planted problem
must raise. :data:`KNOWN_GAPS` lists, per input, the classes msprof-analyze finds that ours does not, and why
(tests/core/advisor/test_vs_msprof_analyze.py fails on any other miss). It held, until they were closed:

- on the cluster job, 包分析, 动态shape算子 and Vector bound: msprof-analyze runs its single-rank analysers over
  the ranks it picks (the slow rank of each pipeline stage, the rank of most free time, the ranks of the lowest
  SDMA / RDMA bandwidth); ``advise_cluster`` now runs our report rules over the same ranks' reports
  (``run.analysed_ranks``), each finding marked with its rank;
- on aicpu-op, Cube 性能优化算子集合: compute.no_bound (an AI Core share threshold) answered another question;
  compute.cube_optimization is msprof-analyze's own (cube shapes moving 100 MB or more, affine, whose mean MAC
  and MTE2 ratios reach no bound, whatever their share);
- on the cluster job, Cube 不亲和算子集合, msprof-analyze's false positive on the simulated MatMul rows' single
  input shape: the simulator now writes both inputs ("M,K;K,N").

    python benchmarks/bench_advisor.py [--workdir DIR] [--inputs clean,getnext,...] [--json OUT]
"""

from __future__ import annotations

import argparse
import glob
import json
import re
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

SAMPLES = Path(__file__).resolve().parents[2] / "shared" / "samples"
SHIPPED_SAMPLES = {  # input name -> sample folder (files of one ASCEND_PROFILER_OUTPUT)
    "sample-trace_view": "torch_npu-trace_view",
    "sample-910B-rank0": "torch_npu-910B-rank0-comm-mem",
}
BUCKET = 16 << 20  # gradient bucket elements (BF16: 32 MB, every SDMA transfer over msprof-analyze's 16 MB)
COMM_PLANTS = ("small-packets", "unaligned-comm")  # planted on rank 0 of a 2-rank data-parallel job
CLUSTER = "cluster8"
CLUSTER_PLANTS = ("slow-rank", "slow-link")
SUMMARY_SHEET = "问题综述"

# msprof-analyze problem class -> the rules of ours that answer it ("Category · Type" for the categories whose
# sheet lists its operators by type, see the module docstring); () = no rule of ours (NO_RULE says why)
MAPPING: dict[str, tuple[str, ...]] = {
    "整网耗时分析": ("schedule.overview",),
    "Cube算子性能分析 · 不亲和算子集合": ("compute.cube_affinity",),
    "Cube算子性能分析 · bound算子集合": ("compute.memory_bound",),
    "Cube算子性能分析 · 性能优化算子集合": ("compute.cube_optimization",),
    "FA算子性能分析 · 不亲和算子集合": ("compute.fa_affinity",),
    "FA算子性能分析 · bound算子集合": ("compute.memory_bound",),
    "FA算子性能分析 · 性能优化算子集合": ("compute.no_bound",),
    "Vector算子性能分析 · bound算子集合": ("compute.vector_bound",),
    "Vector算子性能分析 · 性能优化算子集合": ("compute.vector_bound", "compute.no_bound"),
    "算子瓶颈": ("compute.memory_bound", "compute.no_bound", "compute.vector_bound"),
    "AICPU算子": ("compute.aicpu_has_aicore", "compute.aicpu_stream", "compute.aicpu_dtype"),
    "动态shape算子": ("compute.dynamic_shape",),
    "可融合算子分析": ("compute.fusible_sequence",),
    "AICore核数": (),
    "AIcore频率": (),
    "融合问题": (),
    "亲和API接口": ("schedule.affinity_api",),
    "算子下发": ("schedule.recompile",),
    "Slow Dataloader Issues": ("schedule.dataloader",),
    "环境变量分析": ("schedule.env_settings", "schedule.launch_blocking", "schedule.task_queue"),
    "GC分析": (),
    "SynchronizeStream": (),
    "SyncBatchNorm": (),
    "内存申请释放": (),
    "包分析": ("communication.small_packets",),
    "字节对齐分析": ("communication.byte_alignment",),
    "带宽分析": ("communication.bandwidth_contention",),
    "通信重传分析": (),
    "慢卡分析": ("cluster.slow_rank",),
    "慢链路分析": ("cluster.slow_link",),
    "Kernel compare": (),
    "Api compare": (),
}

NO_RULE: dict[str, str] = {
    "AICore核数": "block dim against the AI Core count: no rule of ours",
    "AIcore频率": "AI Core frequency drops (needs the frequency samples): no rule of ours",
    "融合问题": "graph fusion (needs the GE graph dump): no rule of ours",
    "GC分析": "Python GC events in the trace: no rule of ours",
    "SynchronizeStream": "SynchronizeStream next to NodeLaunch: no rule of ours",
    "SyncBatchNorm": "SyncBatchNorm count: no rule of ours",
    "内存申请释放": "aclMallocMemInner / aclrtFree time: no rule of ours",
    "通信重传分析": "RDMA retransmission (cluster): no rule of ours",
    "Kernel compare": "the slow rank's kernels against the fastest rank's: no advisor rule (the Cluster "
    "document's compare tab shows the diff)",
    "Api compare": "a slow rank's torch APIs against another rank's: no advisor rule (the Cluster document's "
    "compare tab)",
}

# a planted problem -> the rules of ours that must find it (every one of them)
PLANT_RULES: dict[str, tuple[str, ...]] = {
    "aicpu-op": ("compute.aicpu_has_aicore", "compute.aicpu_stream"),
    "int64-aicpu": ("compute.aicpu_dtype",),
    "memory-bound": ("compute.memory_bound",),
    "unfused-rmsnorm": ("compute.fusible_sequence",),
    "idle-device": ("schedule.device_idle",),
    "getnext": ("schedule.dataloader",),
    "recompile": ("schedule.recompile",),
    "small-packets": ("communication.small_packets",),
    "unaligned-comm": ("communication.byte_alignment",),
    "env-task-queue": ("schedule.task_queue",),
    "slow-rank": ("cluster.slow_rank",),
    "slow-link": ("cluster.slow_link",),
}

# (input, class) -> why ours does not find what msprof-analyze finds there (none left: issue #21's gaps are closed;
# the entries it had and how each was closed are in the module docstring)
KNOWN_GAPS: dict[tuple[str, str], str] = {}

# msprof-analyze categories whose title carries numbers: (pattern, class)
_VARIABLE_TITLES = (
    (re.compile(r"^Kernel compare of "), "Kernel compare"),
    (re.compile(r"^Api compare of "), "Api compare"),
    (re.compile(r"^dataloader"), "Slow Dataloader Issues"),
    (re.compile(r"^SynchronizeStream"), "SynchronizeStream"),
    (re.compile(r"SyncBatchNorm"), "SyncBatchNorm"),
    (re.compile(r"^发现了\d+个.*算子，花费"), "内存申请释放"),
)
_RANK_PREFIX = re.compile(r"^(\d+)号卡")  # a per-rank analysis of a cluster: "3号卡动态shape算子"


@dataclass
class Input:
    name: str
    path: Path
    kind: str  # "report" | "cluster"
    plants: tuple[str, ...] = ()


@dataclass
class ToolRun:
    seconds: float
    found: dict[str, str] = field(default_factory=dict)  # msprof-analyze: class -> its description; ours: rule -> title
    error: str = ""


@dataclass
class Row:
    input: str
    problem: str  # an msprof-analyze class, or "(ours) RULE" for a rule answering no class found here
    msprof: bool
    ours: list[str]  # the rules of ours that found it
    expected: list[str]  # the mapped rules (MAPPING), or the rule itself
    planted: str = ""  # the plant it is, if any
    note: str = ""


# --- the inputs ---------------------------------------------------------------------------------------------


def input_names() -> list[str]:
    from workbench.simtoolkit.profdata import problems, torchnpu  # noqa: F401  (torchnpu registers every plant)

    return ["clean", "clean-dp2", *problems.PLANTS, *SHIPPED_SAMPLES, CLUSTER]


def make_inputs(root: Path, names: Iterable[str] | None = None) -> list[Input]:
    """Write the inputs named (all of :func:`input_names` by default) under ``root``."""
    from workbench.simtoolkit.profdata import data_parallel, problems, transformer_workload, write_torch_npu
    from workbench.simtoolkit.profdata.clusterjob import write_cluster_job

    known = input_names()
    chosen = list(names) if names is not None else known
    for name in chosen:
        if name not in known:
            raise ValueError(f"--inputs: {name!r} is not an input (known: {', '.join(known)})")
    out: list[Input] = []
    for name in chosen:
        folder = root / name
        shutil.rmtree(folder, ignore_errors=True)  # a rerun in the same --workdir starts afresh
        if name == CLUSTER:
            write_cluster_job(folder, 8, pp=2, slow_rank=3, slow_link=(2, 6), full=True)
            out.append(Input(name, folder, "cluster", CLUSTER_PLANTS))
        elif name in SHIPPED_SAMPLES:
            layout = folder / "rank0_ascend_pt" / "ASCEND_PROFILER_OUTPUT"
            layout.mkdir(parents=True, exist_ok=True)
            for f in sorted((SAMPLES / SHIPPED_SAMPLES[name]).iterdir()):
                shutil.copy2(f, layout / f.name)
            out.append(Input(name, layout.parent, "report"))
        elif name == "clean-dp2" or name in COMM_PLANTS:
            plants = [name] if name in problems.PLANTS else []
            workload = data_parallel(transformer_workload(), bucket_elements=BUCKET)
            path = write_torch_npu(folder, workload, world_size=2, rank=0, plants=plants)
            out.append(Input(name, path, "report", tuple(plants)))
        else:
            plants = [name] if name in problems.PLANTS else []
            path = write_torch_npu(folder, transformer_workload(), plants=plants)
            out.append(Input(name, path, "report", tuple(plants)))
    return out


# --- the two tools ------------------------------------------------------------------------------------------


def msprof_available() -> bool:
    return shutil.which("msprof-analyze") is not None


def start_msprof(path: Path, out: Path) -> tuple[subprocess.Popen, float]:
    """Start ``msprof-analyze advisor all`` over ``path`` writing into ``out`` (emptied first)."""
    shutil.rmtree(out, ignore_errors=True)
    out.mkdir(parents=True)
    cmd = ["msprof-analyze", "advisor", "all", "-d", str(path), "-o", str(out), "-l", "cn"]
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    return proc, time.perf_counter()


def finish_msprof(proc: subprocess.Popen, started: float, out: Path) -> ToolRun:
    output, _ = proc.communicate()
    seconds = time.perf_counter() - started
    books = sorted(glob.glob(str(out / "log" / "mstt_advisor_*.xlsx")))
    if proc.returncode != 0:
        return ToolRun(seconds, error=f"msprof-analyze exit {proc.returncode}: {output.strip().splitlines()[-1:]}")
    if not books:  # "Finish analysis, no optimization suggestions": nothing found
        return ToolRun(seconds)
    return ToolRun(seconds, read_summary(Path(books[-1])))


def run_msprof(path: Path, out: Path) -> ToolRun:
    proc, started = start_msprof(path, out)
    return finish_msprof(proc, started, out)


def problem_class(category: str) -> str:
    """msprof-analyze's category as a key of MAPPING: a rank's analysis ("3号卡...") is the category's, a
    title with numbers in it its fixed name."""
    category = _RANK_PREFIX.sub("", category.strip())
    for pattern, name in _VARIABLE_TITLES:
        if pattern.search(category):
            return name
    return category


def read_summary(book: Path) -> dict[str, str]:
    """The problem classes of one msprof-analyze xlsx: class -> description."""
    import openpyxl

    wb = openpyxl.load_workbook(book, read_only=True)
    try:
        rows = list(wb[SUMMARY_SHEET].iter_rows(values_only=True))
        header = [str(c) for c in rows[0]]
        at, desc = header.index("category"), header.index("description")
        sheets = {name[:31]: name for name in wb.sheetnames}
        found: dict[str, str] = {}
        for row in rows[1:]:
            if row[at] is None:
                continue
            category = str(row[at])
            name = problem_class(category)
            text = " ".join(str(row[desc] or "").split())
            types = _types(wb[sheets[category[:31]]]) if category[:31] in sheets else []
            for key in [f"{name} · {t}" for t in types] or [name]:
                found[key] = text
        return found
    finally:
        wb.close()


def _types(sheet: Any) -> list[str]:
    """The distinct values of a sheet's "Type" column (the AI Core performance sheets), in order."""
    rows = sheet.iter_rows(values_only=True)
    header = next(rows, None)
    if not header or header[0] != "Type":
        return []
    out: list[str] = []
    for row in rows:
        if row and row[0] and str(row[0]) not in out:
            out.append(str(row[0]))
    return out


def run_ours(item: Input, only: Sequence[str] | None = None) -> ToolRun:
    """Our advisor over ``item``, timed from opening the input to the last rule."""
    from workbench.core.advisor.run import advise, advise_cluster

    started = time.perf_counter()
    if item.kind == "cluster":
        from workbench.core.cluster.analyze import open_cluster

        result = advise_cluster(open_cluster(item.path, write=False).report, only=only)
    else:
        from workbench.core.profiling.build import open_report

        result = advise(open_report(item.path), only=only)
    seconds = time.perf_counter() - started
    found: dict[str, str] = {}
    for f in result.sorted():
        found.setdefault(f.rule, f.title())
    return ToolRun(seconds, found, error="; ".join(result.warnings))


# --- the comparison -----------------------------------------------------------------------------------------


def compare(item: Input, msprof: ToolRun, ours: ToolRun) -> list[Row]:
    """One row per class msprof-analyze found, then one per rule of ours that answers none of those."""
    plant_of = {r: p for p in item.plants for r in PLANT_RULES.get(p, ())}
    rows: list[Row] = []
    shown: set[str] = set()
    for problem in msprof.found:
        expected = list(MAPPING.get(problem, ()))
        hits = [r for r in expected if r in ours.found]
        shown.update(hits)
        if problem not in MAPPING:
            note = "class not in MAPPING"
        elif not expected:
            note = "no rule of ours (see below)"
        elif hits:
            note = ""
        else:
            note = "MISSED, known gap (see below)" if (item.name, problem) in KNOWN_GAPS else "MISSED"
        planted = ", ".join(sorted({plant_of[r] for r in hits if r in plant_of}))
        rows.append(Row(item.name, problem, True, hits, expected, planted, note))
    for rule_id in ours.found:
        if rule_id in shown:
            continue
        classes = [c for c, rules in MAPPING.items() if rule_id in rules]
        label = classes[0] if classes else f"(ours) {rule_id}"
        note = "msprof-analyze did not find it" if classes else "no msprof-analyze class"
        rows.append(Row(item.name, label, False, [rule_id], [rule_id], plant_of.get(rule_id, ""), note))
    for plant in item.plants:
        for rule_id in PLANT_RULES.get(plant, ()):
            if rule_id not in ours.found:
                rows.append(Row(item.name, f"(planted) {plant}", False, [], [rule_id], plant, "PLANT MISSED"))
    return rows


def misses(item: Input, msprof: ToolRun, ours: ToolRun) -> dict[str, list[str]]:
    """What ours misses on ``item``: ``"classes"`` msprof-analyze found that map to rules of ours none of
    which found anything (known gaps excluded), ``"plants"`` planted problems a required rule missed
    (as "plant: rule")."""
    classes = [
        c
        for c in msprof.found
        if MAPPING.get(c) and not any(r in ours.found for r in MAPPING[c]) and (item.name, c) not in KNOWN_GAPS
    ]
    plants = [f"{p}: {r}" for p in item.plants for r in PLANT_RULES.get(p, ()) if r not in ours.found]
    return {"classes": classes, "plants": plants}


def table(rows: list[Row], times: dict[str, tuple[float, float]]) -> str:
    """The side-by-side table as GitHub markdown (the closing note's format)."""
    lines = [
        "| input | msprof-analyze s | ours s | problem class | msprof-analyze | ours | planted | note |",
        "|---|---|---|---|---|---|---|---|",
    ]
    last = None
    for r in rows:
        first = r.input != last
        last = r.input
        ms_s, ours_s = times[r.input]
        lines.append(
            "| {} | {} | {} | {} | {} | {} | {} | {} |".format(
                r.input if first else "",
                f"{ms_s:.2f}" if first else "",
                f"{ours_s:.2f}" if first else "",
                r.problem,
                "found" if r.msprof else "–",
                ", ".join(r.ours) or "–",
                r.planted,
                r.note,
            )
        )
    legend = sorted({r.problem for r in rows if r.msprof and r.problem in NO_RULE})
    if legend:
        lines += ["", "Classes no rule of ours answers:"]
        lines += [f"- {c}: {NO_RULE[c]}" for c in legend]
    gaps = [(r.input, r.problem) for r in rows if (r.input, r.problem) in KNOWN_GAPS and not r.ours]
    if gaps:
        lines += ["", "Known gaps (msprof-analyze finds it, ours does not):"]
        lines += [f"- {i} / {c}: {KNOWN_GAPS[i, c]}" for i, c in gaps]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--workdir", help="where the inputs and msprof-analyze's output go (default: a temp dir)")
    parser.add_argument("--inputs", help="comma-separated input names (default: all)")
    parser.add_argument("--json", metavar="OUT", help="write the figures as JSON to OUT")
    args = parser.parse_args(argv)
    if not msprof_available():
        print("msprof-analyze is not on PATH (pip install msprof-analyze)", file=sys.stderr)
        return 2
    names = [n.strip() for n in args.inputs.split(",") if n.strip()] if args.inputs else None
    work = Path(args.workdir) if args.workdir else Path(tempfile.mkdtemp(prefix="bench_advisor_"))
    try:
        inputs = make_inputs(work / "inputs", names)
    except ValueError as exc:
        print(exc, file=sys.stderr)
        return 2
    rows: list[Row] = []
    times: dict[str, tuple[float, float]] = {}
    figures: list[dict[str, Any]] = []
    failed = False
    for item in inputs:
        ours = run_ours(item)  # first: msprof-analyze leaves nothing in the input, but ours reads it untouched
        msprof = run_msprof(item.path, work / "msprof" / item.name)
        for tool, run in (("msprof-analyze", msprof), ("ours", ours)):
            if run.error:
                print(f"{item.name}: {tool}: {run.error}", file=sys.stderr)
        times[item.name] = (msprof.seconds, ours.seconds)
        item_rows = compare(item, msprof, ours)
        rows.extend(item_rows)
        missed = misses(item, msprof, ours)
        failed = failed or bool(missed["classes"] or missed["plants"]) or bool(msprof.error)
        figures.append(
            {
                "input": item.name,
                "path": str(item.path),
                "kind": item.kind,
                "plants": list(item.plants),
                "msprof_seconds": round(msprof.seconds, 3),
                "ours_seconds": round(ours.seconds, 3),
                "msprof_classes": msprof.found,
                "msprof_error": msprof.error,
                "ours_rules": ours.found,
                "ours_warnings": ours.error,
                "missed": missed,
                "rows": [r.__dict__ for r in item_rows],
            }
        )
    print(table(rows, times))
    total_ms = sum(t[0] for t in times.values())
    total_ours = sum(t[1] for t in times.values())
    print(f"\ntotal wall time: msprof-analyze {total_ms:.1f} s, ours {total_ours:.1f} s over {len(inputs)} inputs")
    if args.json:
        Path(args.json).write_text(
            json.dumps({"inputs": figures, "mapping": MAPPING, "no_rule": NO_RULE}, ensure_ascii=False, indent=1)
        )
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
