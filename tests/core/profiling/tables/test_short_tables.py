"""Summary files the tools write short — only a header (a run that recorded no task), or without
a column an older version had — read as what they are, never as an internal error."""

from __future__ import annotations

import csv
import json
import shutil

import pytest

from workbench.cli import main
from workbench.simtoolkit.profdata import resnet50_workload, write_msprof_prof


@pytest.fixture(scope="module")
def prof(tmp_path_factory):
    return write_msprof_prof(tmp_path_factory.mktemp("p"), resnet50_workload(), iterations=1)


def _rewrite(path, keep_rows: bool, drop: str | None = None) -> None:
    with path.open(newline="", encoding="utf-8") as fh:
        rows = list(csv.reader(fh))
    head = rows[0]
    cut = head.index(drop) if drop else None
    out = [r[:cut] + r[cut + 1 :] if cut is not None else r for r in (rows if keep_rows else rows[:1])]
    with path.open("w", newline="", encoding="utf-8") as fh:
        csv.writer(fh).writerows(out)


def test_an_op_summary_with_only_its_header_reads_as_no_ops(prof, tmp_path, capsys):
    (summary,) = prof.glob("mindstudio_profiler_output/op_summary_*.csv")
    alone = tmp_path / summary.name
    shutil.copyfile(summary, alone)
    _rewrite(alone, keep_rows=False)
    assert main(["report", "info", str(alone), "--json"]) == 0
    info = json.loads(capsys.readouterr().out)
    assert info["op_count"] == 0 and info["tables"]["ops"] == 0
    assert main(["report", "ops", str(alone), "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == []


def test_an_api_statistic_without_min_reads_with_min_missing(prof, tmp_path, capsys):
    copy = tmp_path / prof.name
    shutil.copytree(prof, copy)
    (api,) = copy.glob("mindstudio_profiler_output/api_statistic_*.csv")
    with api.open(newline="", encoding="utf-8") as fh:
        expected = {(r["Level"], r["API Name"]): float(r["Max(us)"]) for r in csv.DictReader(fh)}
    _rewrite(api, keep_rows=True, drop="Min(us)")
    assert main(["report", "api", str(copy), "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert rows and all(r["min_us"] is None for r in rows)
    assert {(r["level"], r["name"]): r["max_us"] for r in rows if (r["level"], r["name"]) in expected} == {
        k: v for k, v in expected.items() if k in {(r["level"], r["name"]) for r in rows}
    }
