"""A real 2-rank torch_npu job (910B, tests/core/cluster/data/SOURCES.md) analysed as a user runs it gives
msprof-analyze's files: the same cluster_step_trace_time.csv bytes and the same JSON documents as
msprof-analyze 26.2 wrote for it, and the same complaint about the matrix's local ranks of unprofiled
devices."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from workbench.cli import main

DATA = Path(__file__).resolve().parent / "data"
JOB = DATA / "torch_npu-910B-2rank"
EXPECTED = DATA / "msprof-analyze-26.2-torch_npu-910B-2rank"
JSONS = ("cluster_communication.json", "cluster_communication_matrix.json", "communication_group.json")


@pytest.fixture
def job(tmp_path: Path) -> Path:
    root = tmp_path / "job"
    shutil.copytree(JOB, root)
    return root


def test_the_real_job_gives_msprof_analyzes_files(job: Path, capsys) -> None:
    assert main(["cluster", "analyze", str(job), "--json"]) == 0
    said = json.loads(capsys.readouterr().out)["warnings"]
    out = job / "cluster_analysis_output"
    assert (out / "cluster_step_trace_time.csv").read_bytes() == (EXPECTED / "cluster_step_trace_time.csv").read_bytes()
    for name in JSONS:
        assert json.loads((out / name).read_text()) == json.loads((EXPECTED / name).read_text()), name
    # ranks 2..7 of the 8-device server were not profiled: msprof-analyze warns of each, so do we — once
    # per operator and local rank (both ranks' links name them)
    line = "allreduce-middle@17522688603477080586: local rank 3 maps to no global rank"
    assert said.count(line) == 1, said
    assert len(said) == 6 * 6  # 6 operators x local ranks 2..7
