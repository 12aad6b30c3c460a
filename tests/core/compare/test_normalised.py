"""A longer run is no slower run: statuses and the gate compare per step (both reports record
steps) or per call (otherwise); totals stay visible."""

from __future__ import annotations

import argparse
import csv
import math
import shutil
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from workbench.core.compare import compare_paths, compare_reports
from workbench.core.compare.cli import add_arguments, handler
from workbench.core.profiling.report import Report
from workbench.core.profiling.steps import report_steps
from workbench.core.tasks import run_inline
from workbench.simtoolkit.profdata import resnet50_workload, write_msprof_prof

SAMPLES = Path(__file__).resolve().parents[3].parent / "shared" / "samples"


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    """The same model and seed profiled for 2 and for 4 iterations (as the simulated msprof does)."""
    out = {}
    for n in (2, 4):
        folder = tmp_path_factory.mktemp(f"iter{n}")
        out[n] = write_msprof_prof(folder, resnet50_workload(), iterations=n, seed=7)
    return out


def _scaled(prof: Path, dest: Path, op_type: str, factor: float) -> Path:
    """A copy of ``prof`` whose ``op_type`` tasks take ``factor`` times as long (op_summary only)."""
    copy = dest / prof.name
    shutil.copytree(prof, copy)
    (summary,) = copy.glob("mindstudio_profiler_output/op_summary_*.csv")
    for json_file in copy.glob("mindstudio_profiler_output/msprof_*.json"):
        json_file.unlink()  # the OPs then come from op_summary alone
    with summary.open(newline="", encoding="utf-8") as fh:
        rows = list(csv.reader(fh))
    head = rows[0]
    t, d = head.index("OP Type"), head.index("Task Duration(us)")
    for row in rows[1:]:
        if row[t] == op_type:
            row[d] = f"{float(row[d]) * factor:.3f}"
    with summary.open("w", newline="", encoding="utf-8") as fh:
        csv.writer(fh).writerows(rows)
    return copy


def test_a_longer_run_of_the_same_model_passes_the_gate(runs):
    c = run_inline(compare_paths, runs[2], runs[4])
    assert c.basis == "step" and c.steps == (2, 4)
    rows = c.rows.set_index("key")
    # the totals doubled, and stay visible; per step nothing moved by more than a couple of percent
    assert (rows["diff_pct"] > 90).all()
    assert (rows["per_step_diff_pct"].abs() < 3).all()
    assert c.regressions(5) == []
    overall = c.overall.set_index("metric")
    assert overall.loc["Total device time", "diff_pct"] > 90
    assert abs(overall.loc["Device time per step", "diff_pct"]) < 3
    assert c.total()["status"] == overall.loc["Device time per step", "status"] == "same"
    base_total = overall.loc["Total device time", "base"]
    assert overall.loc["Device time per step", "base"] == pytest.approx(base_total / 2, abs=0.001)


def test_a_slower_step_still_fails_the_gate(runs, tmp_path):
    slower = _scaled(runs[4], tmp_path, "Conv2D", 1.25)
    c = run_inline(compare_paths, runs[2], slower)
    assert c.basis == "step"
    hits = c.regressions(5)
    assert any(h.startswith("Conv2D: ") and "per step" in h for h in hits)
    assert any(h.startswith("device time per step: ") for h in hits)
    row = c.rows.set_index("key").loc["Conv2D"]
    assert row["status"] == "slower" and 20 < row["per_step_diff_pct"] < 30


def test_cli_gate_passes_a_longer_run_and_says_which_rule(runs, capsys):
    parser = argparse.ArgumentParser()
    add_arguments(parser)  # the verb's own arguments
    args = parser.parse_args([str(runs[2]), str(runs[4]), "--fail-on-regression", "5"])
    assert handler(args) == 0
    out = capsys.readouterr().out
    assert "statuses and the gate compare per step: 2 base steps" in out and "4 current steps" in out
    assert "device time per step:" in out


def _report(durations: dict[str, list[float]]) -> Report:
    types = [t for t, ds in durations.items() for _ in ds]
    ds = [d for ds in durations.values() for d in ds]
    ops = pd.DataFrame(
        {
            "device": pd.array([0] * len(ds), dtype="Int64"),
            "name": pd.Categorical([f"{t}_op" for t in types]),
            "type": pd.Categorical(types),
            "task_type": pd.Categorical(["AI_CORE"] * len(ds)),
            "start_ns": pd.array(np.arange(len(ds), dtype=np.int64) * 1_000_000 + 1_700_000_000 * 10**9, dtype="Int64"),
            "duration_us": np.array(ds, dtype=np.float64),
        }
    )
    return Report(source="mem", kind="msprof", tables={"ops": ops}).finish()


def test_without_steps_the_average_per_call_decides():
    base = _report({"A": [10.0] * 2, "B": [4.0] * 3})
    more_calls = _report({"A": [10.05] * 4, "B": [4.0] * 6})  # twice the calls, same per call
    c = compare_reports(base, more_calls)
    assert c.basis == "call" and c.steps == (None, None)
    rows = c.rows.set_index("key")
    assert rows.loc["A", "diff_pct"] > 90 and rows.loc["A", "status"] == "same"
    assert math.isnan(rows.loc["A", "per_step_diff_pct"])
    assert c.regressions(5) == []
    slower = compare_reports(base, _report({"A": [12.0] * 2, "B": [4.0] * 3}))
    assert slower.rows.set_index("key").loc["A", "status"] == "slower"
    assert slower.regressions(5) == ["A: 10.000 -> 12.000 us per call (+20.00 %)"]
    assert "per call" in slower.basis_text() and "base and current" in slower.basis_text()


def test_steps_come_from_every_source_the_tools_write():
    ops = _report({"A": [1.0] * 4}).tables["ops"].assign(step=pd.array([3, 3, 4, 4], dtype="Int64"))
    assert report_steps(Report("m", "torch_npu", tables={"ops": ops})).ids == (3, 4)
    real = pd.read_csv(SAMPLES / "torch_npu-910B-rank0-comm-mem" / "step_trace_time.csv")
    got = report_steps(Report("m", "torch_npu", tables={"step_trace_time": real}))
    assert got.ids == tuple(sorted(set(real["Step"]))) and got.source == "step_trace_time"
    msprof = pd.DataFrame({"Device_id": [0, 0, 1, 1, 1], "Iteration ID": [1, 2, 1, 2, 3]})
    tables = {"step_trace": msprof}
    assert report_steps(Report("m", "msprof", tables=tables)).count == 3
    assert report_steps(Report("m", "msprof", tables=tables), devices=[0]).count == 2
    assert report_steps(Report("m", "msprof", tables={"ops": _report({"A": [1.0]}).tables["ops"]})) is None
