"""``ascend-workbench advise PATH`` as a user runs it: findings sorted by severity as text or JSON,
the HTML page and the workbook written (never over an existing file without --force), --only, a
cluster (job folder, saved report), and one-line errors with exit 2."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from openpyxl import load_workbook

from workbench.cli import main
from workbench.simtoolkit.profdata import resnet50_workload, write_torch_npu

pytestmark = pytest.mark.usefixtures("advise_verb", "test_rules")


@pytest.fixture(scope="module")
def run_dir(tmp_path_factory) -> Path:
    return write_torch_npu(tmp_path_factory.mktemp("advise") / "run", resnet50_workload(), steps=2, rank=0)


@pytest.fixture(scope="module")
def job(tmp_path_factory) -> Path:
    from workbench.simtoolkit.profdata.torchnpu import write_torch_npu_job
    from workbench.simtoolkit.profdata.workload import mixed_parallel

    root = tmp_path_factory.mktemp("advise-cluster") / "job"
    write_torch_npu_job(root, mixed_parallel(resnet50_workload(kind="ops")), 2)
    return root


def test_text_lists_findings_by_severity_in_blocks(run_dir, capsys):
    assert main(["advise", str(run_dir)]) == 0
    out = capsys.readouterr().out
    lines = out.splitlines()
    assert lines[0] == f"advisor: {run_dir}"
    assert " high, " in lines[1] and "rules run)" in lines[1]
    high = next(i for i, line in enumerate(lines) if line.startswith("[HIGH] ") and "test.d3_slow_op" in line)
    low = next(i for i, line in enumerate(lines) if line.startswith("[LOW] A note"))
    assert high < low  # high first
    block = lines[high : lines.index("", high)]
    assert " takes " in block[0] and block[0].endswith("of the device time  (test.d3_slow_op)")
    assert block[1].startswith("    Time of ") and block[2].startswith("    Operators: ")
    assert block[3] == "    evidence (top 3 of 10):"
    assert block[4].startswith("      - slice · ") and " ns · dur " in block[4]
    assert block[5].startswith("      - op · ") and " · ops[" in block[5]
    assert block[6] == "      - step · step 1"
    assert block[7].startswith("    advice: Look at <")


def test_json_html_xlsx_and_refusing_to_overwrite(run_dir, tmp_path, capsys):
    html, xlsx = tmp_path / "a.html", tmp_path / "a.xlsx"
    assert main(["advise", str(run_dir), "--json", "--html", str(html), "--xlsx", str(xlsx)]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["written"] == [str(html), str(xlsx)]
    slow = next(f for f in doc["findings"] if f["rule"] == "test.d3_slow_op")
    assert [e["kind"] for e in slow["evidence"]] == ["slice", "op", "step"] and slow["evidence_total"] == 10
    assert isinstance(slow["evidence"][0]["start_ns"], int)
    page = html.read_text(encoding="utf-8")
    assert slow["title"].replace("<", "&lt;") in page and "&lt;" in page
    assert load_workbook(xlsx).sheetnames == ["Findings", "Evidence"]
    before = (html.read_bytes(), xlsx.read_bytes())
    assert main(["advise", str(run_dir), "--html", str(html)]) == 2
    err = capsys.readouterr().err
    assert err == f"error: {html}: exists; pass --force to replace it\n"
    assert main(["advise", str(run_dir), "--xlsx", str(xlsx)]) == 2
    assert capsys.readouterr().err == f"error: {xlsx}: exists; pass --force to replace it\n"
    assert (html.read_bytes(), xlsx.read_bytes()) == before
    assert main(["advise", str(run_dir), "--html", str(html), "--xlsx", str(xlsx), "--force"]) == 0
    assert f"wrote {html}\nwrote {xlsx}\n" in capsys.readouterr().out


def test_only_a_category_or_a_rule(run_dir, capsys):
    assert main(["advise", str(run_dir), "--only", "schedule", "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert "test.d3_slow_op" not in doc["rules_run"] and "test.d3_note" in doc["rules_run"]
    assert main(["advise", str(run_dir), "--only", "test.d3_slow_op", "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["rules_run"] == ["test.d3_slow_op"]
    assert main(["advise", str(run_dir), "--only", "nosuch"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: --only nosuch: no report rule or category of that name (categories: ")
    assert err.count("\n") == 1


def test_bad_paths_are_one_line(tmp_path, capsys):
    missing = tmp_path / "nothing-here"
    assert main(["advise", str(missing)]) == 2
    assert capsys.readouterr().err == f"error: {missing}: no such file or folder\n"
    empty = tmp_path / "empty"
    empty.mkdir()
    assert main(["advise", str(empty)]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"error: {empty}") and err.count("\n") == 1 and "Traceback" not in err
    bad = tmp_path / "run"
    write_torch_npu(bad, resnet50_workload(), steps=1, rank=0)
    assert main(["advise", str(bad), "--xlsx", str(tmp_path / "out.csv")]) == 2
    assert capsys.readouterr().err == f"error: {tmp_path / 'out.csv'}: expected a .xlsx file name\n"


def test_a_cluster_job_folder_and_its_saved_report(job, tmp_path, capsys):
    assert main(["advise", str(job), "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert "test.d3_cluster" in doc["rules_run"] and "test.d3_slow_op" in doc["rules_run"]
    mine = next(f for f in doc["findings"] if f["rule"] == "test.d3_cluster")
    assert mine["title"] == "2 ranks analysed" and [e["rank"] for e in mine["evidence"]] == [0, 1]
    assert mine["rank"] is None  # the cluster's own finding
    # the report rules ran over the reports of the ranks msprof-analyze would analyse, each finding marked
    assert {f["rank"] for f in doc["findings"] if f["rule"] == "test.d3_slow_op"} <= {0, 1}
    assert any(f["rule"] == "test.d3_slow_op" for f in doc["findings"])
    assert not (job / "cluster_analysis_output").exists()  # nothing written into the job
    work = tmp_path / "job"
    import shutil

    shutil.copytree(job, work)
    assert main(["cluster", "analyze", str(work)]) == 0
    capsys.readouterr()
    saved = work / "cluster_analysis_output" / "cluster.wbcluster"
    assert main(["advise", str(saved)]) == 0
    out = capsys.readouterr().out
    assert "[MEDIUM] 2 ranks analysed  (test.d3_cluster)" in out
    assert "      - rank · rank 0 · rank 0" in out


def test_help_imports_no_heavy_module():
    code = (
        "import sys\n"
        "from workbench.core import verbs\n"
        "verbs.add_verb_module('workbench.core.advisor.cli', ['advise'])\n"
        "from workbench.cli import main\n"
        "try:\n"
        "    main(['advise', '--help'])\n"
        "except SystemExit:\n"
        "    pass\n"
        "print(sorted(m for m in ('pandas', 'numpy', 'paramiko', 'duckdb', 'openpyxl') if m in sys.modules))\n"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert "--only RULE_OR_CATEGORY,..." in proc.stdout
    assert proc.stdout.strip().splitlines()[-1] == "[]"
