"""The advisor against ``msprof-analyze advisor all`` (issue #21, "Compared with the anchor") on four of the
inputs of benchmarks/bench_advisor.py: a run with the unfused RMSNorm plant (the compute classes), one with the
recompile plant (operator dispatch), rank 0 of a 2-rank data-parallel job with unaligned transfers (the
communication classes) and the 8-rank cluster job with slow rank 3 and slow link 2 -> 6.

For every class msprof-analyze finds that the benchmark's MAPPING answers with rules of ours, one of those
rules finds something (but the benchmark's KNOWN_GAPS, each with its reason: none is left); on the cluster that
includes the classes msprof-analyze finds in the reports of the ranks it picks; every planted problem is found
by the rules PLANT_RULES names. msprof-analyze runs as the installed tool (the [test] extra); without it the
module is skipped."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parents[3] / "benchmarks" / "bench_advisor.py"
INPUTS = ("unfused-rmsnorm", "recompile", "unaligned-comm", "cluster8")
# a class each input must give msprof-analyze (what the comparison is about: it must not be empty)
MSPROF_FINDS = {
    "unfused-rmsnorm": "可融合算子分析",
    "recompile": "算子下发",
    "unaligned-comm": "字节对齐分析",
    "cluster8": "慢卡分析",
}


def _load_bench():
    spec = importlib.util.spec_from_file_location("bench_advisor", BENCH)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up
    spec.loader.exec_module(module)
    return module


bench = _load_bench()

pytestmark = pytest.mark.skipif(
    not bench.msprof_available(), reason="msprof-analyze is not on PATH (it comes with the [test] extra)"
)


@pytest.fixture(scope="module")
def side_by_side(tmp_path_factory):
    """input name -> (Input, msprof-analyze's run, ours); msprof-analyze's four runs go side by side."""
    root = tmp_path_factory.mktemp("vs_msprof")
    inputs = bench.make_inputs(root / "inputs", INPUTS)
    ours = {item.name: bench.run_ours(item) for item in inputs}
    longest_first = sorted(inputs, key=lambda item: item.kind != "cluster")  # the cluster's run takes longest
    started = [(item, *bench.start_msprof(item.path, root / "msprof" / item.name)) for item in longest_first]
    return {
        item.name: (item, bench.finish_msprof(proc, t0, root / "msprof" / item.name), ours[item.name])
        for item, proc, t0 in started
    }


@pytest.mark.parametrize("name", INPUTS)
def test_msprof_analyze_ran_and_every_class_is_mapped(side_by_side, name):
    _item, msprof, ours = side_by_side[name]
    assert not msprof.error, msprof.error
    assert not ours.error, ours.error
    assert MSPROF_FINDS[name] in msprof.found, sorted(msprof.found)
    unmapped = [c for c in msprof.found if c not in bench.MAPPING]
    assert unmapped == [], f"{name}: msprof-analyze classes the benchmark's MAPPING does not know: {unmapped}"


@pytest.mark.parametrize("name", INPUTS)
def test_ours_finds_every_class_msprof_analyze_finds(side_by_side, name):
    item, msprof, ours = side_by_side[name]
    missed = bench.misses(item, msprof, ours)["classes"]
    detail = [f"{c} (ours would be one of {', '.join(bench.MAPPING[c])})" for c in missed]
    assert missed == [], f"{name}: msprof-analyze finds what no rule of ours does: {detail}"


@pytest.mark.parametrize("name", INPUTS)
def test_ours_finds_every_planted_problem(side_by_side, name):
    item, msprof, ours = side_by_side[name]
    assert item.plants, name
    missed = bench.misses(item, msprof, ours)["plants"]
    assert missed == [], f"{name}: planted problems ours does not find: {missed}"


@pytest.mark.parametrize(
    ("name", "removed", "kind"),
    [
        ("unfused-rmsnorm", "compute.fusible_sequence", "classes"),  # 可融合算子分析, and the plant
        ("unaligned-comm", "communication.byte_alignment", "classes"),  # 字节对齐分析, and the plant
        ("recompile", "schedule.recompile", "plants"),
        ("cluster8", "cluster.slow_link", "classes"),
        ("cluster8", "compute.dynamic_shape", "classes"),  # a report rule over the slow rank 3's report
        ("cluster8", "communication.small_packets", "classes"),  # over the lowest SDMA bandwidth's rank 2
        ("unfused-rmsnorm", "compute.cube_optimization", "classes"),  # Cube 性能优化算子集合
    ],
)
def test_a_rule_taken_away_is_a_miss(side_by_side, name, removed, kind):
    """The comparison can fail: ours without one rule (``only`` = every other rule) misses what it found."""
    from workbench.core.advisor.run import rules  # (run registers every rule)

    item, msprof, _ours = side_by_side[name]
    pool = rules("cluster") + rules("report") if item.kind == "cluster" else rules("report")  # a cluster runs both
    others = [r.id for r in pool if r.id != removed]
    assert removed in {r.id for r in pool} and others  # (only=[] would run every rule)
    missed = bench.misses(item, msprof, bench.run_ours(item, only=others))
    assert missed[kind], f"{name} without {removed}: nothing missed"
    assert any(removed in bench.MAPPING.get(c, ()) for c in missed["classes"]) or any(
        p.endswith(": " + removed) for p in missed["plants"]
    )
