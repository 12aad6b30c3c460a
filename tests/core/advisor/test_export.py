"""The advisor's exports: JSON with every field (exact int ns), one escaped self-contained HTML page,
an Excel workbook of findings and evidence; translated through ``translate``; atomic, never over an
existing file without ``force`` nor over the report."""

from __future__ import annotations

import json

import pytest
from openpyxl import load_workbook

from workbench.core.advisor import export
from workbench.core.advisor.model import AdvisorResult, Evidence, Fact, Finding, Severity
from workbench.core.advisor.run import advise
from workbench.core.fsutil import OutputRefused
from workbench.core.profiling.build import open_report
from workbench.core.tasks import run_inline
from workbench.simtoolkit.profdata import resnet50_workload, write_torch_npu

BIG_NS = 1717407000000180133  # > 2**53: a float would round it


@pytest.fixture
def run_dir(tmp_path):
    return write_torch_npu(tmp_path / "run", resnet50_workload(), steps=2, rank=0)


@pytest.fixture
def result(test_rules, run_dir):
    return advise(run_inline(open_report, str(run_dir)))


def test_json_has_every_field_with_exact_ns(test_rules, run_dir, result):
    doc = json.loads(export.to_json(result))
    assert doc["source"] == str(run_dir)
    assert doc["counts"]["high"] >= 1 and doc["counts"]["low"] >= 1
    mine = [f for f in doc["findings"] if f["rule"].startswith("test.d3")]
    assert [f["rule"] for f in mine] == ["test.d3_slow_op", "test.d3_note"]  # sorted: high first
    slow = mine[0]
    report = run_inline(open_report, str(run_dir))
    ops = report.ops
    row = int(ops["duration_us"].astype(float).idxmax())
    name = str(ops["name"].iloc[row])
    assert set(slow) >= {"rule", "category", "severity", "title", "advice", "facts", "evidence", "evidence_total"}
    assert slow["category"] == "compute" and slow["severity"] == "high"
    assert slow["title"].startswith(f"{name} takes ") and slow["title"].endswith(" % of the device time")
    assert slow["advice"] == f"Look at <{name}> & its inputs"
    assert slow["facts"][0]["label"] == f"Time of {name}" and slow["facts"][0]["value"].endswith(" us")
    assert slow["facts"][1] == {"key": "count", "label": "Operators", "value": str(len(ops))}
    kinds = [e["kind"] for e in slow["evidence"]]
    assert kinds == ["slice", "op", "step"]
    op = slow["evidence"][1]
    assert op["table"] == "ops" and op["row"] == row and op["start_ns"] == int(ops["start_ns"].iloc[row])
    tl = report.timeline
    sl = slow["evidence"][0]
    index = sl["values"]["index"]
    assert sl["start_ns"] == int(tl.origin_ns) + int(tl.start_ns[index])  # exact: no float on the way
    assert isinstance(sl["start_ns"], int) and sl["start_ns"] > 2**53
    assert slow["evidence_total"] == 3 + 7


def _one(**kw) -> AdvisorResult:
    """A HIGH finding of the test rule about ``<b>Cast</b>`` (with ``kw``: facts, evidence, ...) and a LOW one."""
    f = Finding("test.d3_slow_op", "compute", Severity.HIGH, args={"op": "<b>Cast</b>", "share": "41.0 %"}, **kw)
    return AdvisorResult(source="/data/run", findings=[f, Finding("test.d3_note", "schedule", Severity.LOW)])


def test_json_values_and_numpy(test_rules):
    import numpy as np

    e = Evidence("slice", "Cast", lane="Stream 3", start_ns=BIG_NS, dur_ns=5, values={"n": np.int64(BIG_NS)})
    doc = json.loads(export.to_json(_one(evidence=(e,))))
    got = doc["findings"][0]["evidence"][0]
    assert got["start_ns"] == BIG_NS and got["values"] == {"n": BIG_NS}
    assert doc["findings"][0]["evidence_total"] == 1  # no top-N cut: the items themselves


def test_translate_reaches_every_text(test_rules):
    table = {
        "{op} takes {share} of the device time": "{op} 占设备时间的 {share}",
        "Time of {op}": "{op} 的时间",
        "High": "高",
        "Compute": "计算",
        "Facts": "事实",
    }
    result = _one(facts=(Fact("time", "3.000 us", {"op": "Cast"}),))
    doc = json.loads(export.to_json(result, lambda s: table.get(s, s)))
    assert doc["findings"][0]["title"] == "<b>Cast</b> 占设备时间的 41.0 %"
    assert doc["findings"][0]["facts"][0]["label"] == "Cast 的时间"
    assert doc["findings"][0]["severity"] == "high"  # keys and values stay as they are
    page = export.to_html(result, lambda s: table.get(s, s))
    assert "&lt;b&gt;Cast&lt;/b&gt; 占设备时间的 41.0 %" in page and ">高<" in page and ">计算<" in page
    assert ">事实<" in page


def test_html_is_one_escaped_page(test_rules):
    e = Evidence("op", "<script>alert(1)</script>", table="ops", row=4, start_ns=BIG_NS, dur_ns=1500)
    page = export.to_html(_one(evidence=(e,), facts=(Fact("count", "12"),), evidence_total=40))
    assert page.startswith("<!DOCTYPE html>") and page.rstrip().endswith("</html>")
    assert "<script" not in page and "<link" not in page and "src=" not in page  # self-contained, nothing runs
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page
    assert "&lt;b&gt;Cast&lt;/b&gt; takes 41.0 % of the device time" in page
    assert "Look at &lt;&lt;b&gt;Cast&lt;/b&gt;&gt; &amp; its inputs" in page
    assert "High: 1" in page and "Medium: 0" in page and "Low: 1" in page  # the counts by severity
    assert page.index('<h2 id="compute">Compute</h2>') < page.index('<h2 id="schedule">Scheduling</h2>')
    assert "<td>Operators</td><td>12</td>" in page  # the facts table
    assert f"<td>{BIG_NS}</td><td>1500</td>" in page and "ops[4]" in page  # the evidence list
    assert "Evidence (1 of 40 items)" in page


def test_xlsx_sheets(tmp_path, test_rules, result):
    out = export.to_xlsx(result, tmp_path / "advice.xlsx")
    book = load_workbook(out)
    assert book.sheetnames == ["Findings", "Evidence"]
    rows = list(book["Findings"].values)
    assert rows[0] == export.FINDING_COLUMNS
    slow = next(r for r in rows[1:] if r[3] == "test.d3_slow_op")
    assert slow[1] == "High" and slow[2] == "Compute" and slow[7] == 10
    assert "Operators: " in slow[5]
    evidence = [r for r in list(book["Evidence"].values)[1:] if r[1] == "test.d3_slow_op"]
    assert [r[2] for r in evidence] == ["Slice", "Operator", "Step"]
    f = next(f for f in result.findings if f.rule == "test.d3_slow_op")
    assert evidence[0][5] == str(f.evidence[0].start_ns)  # exact ns digits in the file (not a double)
    assert evidence[0][0] == slow[0]  # the finding's number


@pytest.mark.parametrize("kind", ["json", "html", "xlsx"])
def test_writes_refuse_existing_and_inputs(tmp_path, test_rules, kind):
    result = _one()
    out = tmp_path / f"a.{kind}"
    out.write_text("keep")
    with pytest.raises(OutputRefused, match="exists; pass --force"):
        export.WRITERS[kind](result, out)
    assert out.read_text() == "keep"
    export.WRITERS[kind](result, out, force=True)
    assert out.read_bytes() != b"keep"
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".")]  # no temp left beside it
    with pytest.raises(OutputRefused, match="expected a"):
        export.WRITERS[kind](result, tmp_path / "a.txt")
    report_file = tmp_path / f"trace.{kind}"
    report_file.write_text("the input")
    with pytest.raises(OutputRefused, match="is an input"):
        export.WRITERS[kind](AdvisorResult(source=str(report_file)), report_file, force=True)
    assert report_file.read_text() == "the input"
