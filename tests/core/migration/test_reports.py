"""The report readers on files the simulated tools wrote (read back with openpyxl / csv to prove the
columns), every documented variant, and bad input naming file, line and field."""

from __future__ import annotations

import csv
from pathlib import Path

import pytest
from openpyxl import Workbook, load_workbook

from workbench.core.migration.reports import (
    MigrationReportError,
    find_report_dir,
    read_api_analysis_xlsx,
    read_brief,
    read_report_folder,
)

from ._migration_util import run_tool


def _tf_run(project: Path, tmp_path: Path, module: str = "tf1") -> Path:
    r = run_tool(module, "-i", str(project), "-o", str(tmp_path / "out"), "-r", str(tmp_path / "rep"), cwd=tmp_path)
    assert r.returncode == 0, r.stdout + r.stderr
    return find_report_dir(tmp_path / "rep")


def test_tf1_xlsx_has_the_chinese_columns_and_the_reader_lists_exactly_its_rows(tf_project, tmp_path):
    rep_dir = _tf_run(tf_project, tmp_path)
    assert rep_dir.name.startswith("report_npu_")
    ws = load_workbook(rep_dir / "api_analysis_report.xlsx").worksheets[0]
    rows = list(ws.iter_rows(values_only=True))
    assert list(rows[0]) == ["序号", "脚本文件名", "代码行", "模块名", "API名", "支持度", "迁移建议"]
    report = read_report_folder(tmp_path / "rep", (str(tf_project),))
    xlsx_rows = [a for a in report.apis if a.source == "api_analysis_report.xlsx"]
    assert len(xlsx_rows) == len(rows) - 1
    expected = sorted((str(Path(r[1]).relative_to(tf_project)), r[2], r[4], r[5]) for r in rows[1:])
    assert sorted((a.file, a.line, a.api, a.support) for a in xlsx_rows) == expected
    allreduce = [a for a in report.apis if a.api == "hvd.allreduce"]
    assert len(allreduce) == 1 and allreduce[0].support == "不支持" and allreduce[0].category == "unsupported"
    assert allreduce[0].file == "train.py" and report.unsupported == allreduce
    src = (tf_project / "train.py").read_text().splitlines()
    assert "hvd.allreduce(" in src[allreduce[0].line - 1]  # the xlsx line is in the input file
    assert report.brief["in_brief"]["total"] == len(rows) - 1
    assert report.brief["in_brief"]["unsupported"] == 1
    assert report.warnings == []


def test_tf_success_report_lines_are_in_the_migrated_file(tf_project, tmp_path):
    _tf_run(tf_project, tmp_path)
    report = read_report_folder(tmp_path / "rep", (str(tf_project),))
    migrated = next((tmp_path / "out").iterdir())
    assert migrated.name.startswith("gpu_tf_trainer_npu_")
    by_file = report.by_file()
    assert set(by_file) == {"train.py", "data.py"}
    for ch in report.changes:
        lines = (migrated / ch.file).read_text().splitlines()
        assert lines[ch.line - 1].strip() == ch.text, ch
    kinds = {(c.file, c.text) for c in report.changes if c.kind == "insert"}
    assert ("train.py", "from npu_bridge.npu_init import *") in kinds
    assert any("npu_config_proto(config_proto=config)" in c.text for c in report.changes)


def test_tf2_xlsx_uses_the_newer_headers(tf_project, tmp_path):
    rep_dir = _tf_run(tf_project, tmp_path, "tf2")
    header = next(load_workbook(rep_dir / "api_analysis_report.xlsx").worksheets[0].iter_rows(values_only=True))
    assert list(header) == ["序号", "脚本文件名", "代码行", "模块名", "API名", "工具迁移API支持度", "说明"]
    report = read_report_folder(rep_dir, (str(tf_project),))
    assert {"import npu_device as npu", "npu.open().as_default()"} <= {c.text for c in report.changes}
    assert [a.api for a in report.unsupported] == ["hvd.allreduce"]
    assert "need_migration_doc.txt" in report.files_read


def test_pytorch_csvs_have_the_documented_headers_and_are_read_row_for_row(pt_project, tmp_path):
    (tmp_path / "out").mkdir()
    r = run_tool("gpu2npu", "-i", str(pt_project), "-o", str(tmp_path / "out"), "-v", "2.1.0", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    res = tmp_path / "out" / "gpu_pytorch_trainer_msft"
    with open(res / "change_list.csv", newline="") as fh:
        changes = list(csv.reader(fh))
    assert changes[0] == ["File", "Start Line", "End Line", "Operation Type", "Message"]
    with open(res / "unsupported_api.csv", newline="") as fh:
        unsupported = list(csv.reader(fh))
    assert unsupported[0] == ["File", "Start Line", "End Line", "OP", "Tips"]
    report = read_report_folder(tmp_path / "out")
    assert report.tool == "msFmkTransplt" and report.log_status == "success"
    assert sorted((c.file, c.line, c.kind, c.text) for c in report.changes) == sorted(
        (row[0], int(row[1]), row[3], row[4]) for row in changes[1:]
    )
    assert sorted((a.file, a.line, a.api) for a in report.unsupported) == sorted(
        (row[0], int(row[1]), row[3]) for row in unsupported[1:]
    )
    assert {a.api for a in report.unsupported} == {"apex.optimizers.FusedAdam", "torch.nn.SyncBatchNorm"}
    migrated = (res / "train.py").read_text()
    assert ".cuda(" not in migrated and 'backend="hccl"' in migrated and "import torch_npu" in migrated
    for ch in report.changes:
        assert (res / ch.file).read_text().splitlines()[ch.line - 1].strip()  # a real line of the migrated file


def _xlsx(path: Path, header: list, *rows: list) -> Path:
    wb = Workbook()
    ws = wb.active
    ws.append(header)
    for row in rows:
        ws.append(row)
    wb.save(path)
    return path


def test_every_documented_support_value_maps_and_an_unknown_one_is_kept_with_a_warning(tmp_path):
    values = [
        "支持",
        "支持但需工具迁移",
        "支持但需手工迁移",
        "分析中",
        "不支持",
        "废弃",
        "NA",
        "支持(无需迁移)",
        "工具迁移后API功能支持",
        "部分支持",
    ]
    p = _xlsx(
        tmp_path / "api_analysis_report.xlsx",
        ["序号", "脚本文件名", "代码行", "模块名", "API名", "工具迁移API支持度", "说明"],
        *[[i, "/in/a.py", i, "tensorflow", f"tf.api{i}", v, ""] for i, v in enumerate(values, 1)],
    )
    rows, warnings = read_api_analysis_xlsx(p)
    assert [r.category for r in rows] == [
        "supported", "migrated_by_tool", "manual", "analysing", "unsupported", "deprecated", "na",
        "supported", "migrated_by_tool", "other",
    ]  # fmt: skip
    assert rows[-1].support == "部分支持"
    assert len(warnings) == 1 and "row 11" in warnings[0] and "'部分支持'" in warnings[0]


def test_xlsx_columns_are_found_by_name_in_any_order(tmp_path):
    p = _xlsx(tmp_path / "api_analysis_report.xlsx", ["API名", "迁移建议", "代码行", "支持度", "脚本文件名"],
              ["hvd.allreduce", "use HCCL", 7, "不支持", "/in/t.py"])  # fmt: skip
    (row,), _ = read_api_analysis_xlsx(p, ("/in",))
    assert (row.file, row.line, row.api, row.support, row.advice, row.module) == (
        "t.py",
        7,
        "hvd.allreduce",
        "不支持",
        "use HCCL",
        "",
    )


@pytest.mark.parametrize(
    ("header", "row", "words"),
    [
        (
            ["序号", "脚本文件名", "代码行", "API名", "支持度"],
            [1, "/a.py", "x7", "tf.abs", "支持"],
            "row 2: 代码行: expected a line number, got 'x7'",
        ),
        (["序号", "脚本文件名", "API名", "支持度"], [1, "/a.py", "tf.abs", "支持"], "row 1: missing column 代码行"),
        (["序号", "脚本文件名", "代码行", "API名"], [1, "/a.py", 3, "tf.abs"], "missing column 支持度"),
    ],
)
def test_bad_xlsx_names_file_row_and_field(tmp_path, header, row, words):
    p = _xlsx(tmp_path / "api_analysis_report.xlsx", header, row)
    with pytest.raises(MigrationReportError) as exc:
        read_api_analysis_xlsx(p)
    assert str(p) in str(exc.value) and words in str(exc.value)


def test_a_file_that_is_not_an_xlsx(tmp_path):
    (tmp_path / "api_analysis_report.xlsx").write_text("not a zip")
    with pytest.raises(MigrationReportError, match=r"api_analysis_report\.xlsx: not a readable \.xlsx workbook"):
        read_report_folder(tmp_path)


def test_brief_old_and_new_wording(tmp_path):
    p = tmp_path / "api_brief_report.txt"
    p.write_text(
        "1.In brief: Total API: 231, in which Support: 222, Unsupport: 2,No operator is involved: 0, Analysing: 0\n"
        "2.After eliminate duplicate: Total API: 100, in which Support: 95, Support after migrated by tool: 3, "
        "Support after migrated manually: 1, Analysing: 0, Unsupport: 1, Deprecated: 0, NA: 0\n"
    )
    brief = read_brief(p)
    assert brief["in_brief"] == {"total": 231, "supported": 222, "unsupported": 2, "no_operator": 0, "analysing": 0}
    assert brief["unique"]["migrated_by_tool"] == 3 and brief["unique"]["manual"] == 1
    p.write_text("1.In brief: Total API: lots\n")
    with pytest.raises(MigrationReportError, match=r"api_brief_report\.txt:1: Total API: expected a count, got 'lots'"):
        read_brief(p)


def test_success_and_failed_report_variants(tmp_path):
    (tmp_path / "success_report.txt").write_text(
        '/home/BERT/run_ner.py:522 "change hvd.rank to get_rank_id"\n/home/BERT/run_ner.py:3 import npu_device as npu\n'
    )
    (tmp_path / "failed_report.txt").write_text(
        "Finish convert file: /home/BERT/model.py\n"
        "/home/BERT/test.py:3, NPU Unsupport API: hvd.allreduce\n"
        "/home/BERT/test.py:9, NPU Unsupported API: hvd.broadcast\n"
        "something else\n"
    )
    report = read_report_folder(tmp_path, ("/home/BERT",))
    assert [(c.file, c.line, c.kind, c.text) for c in report.changes] == [
        ("run_ner.py", 3, "insert", "import npu_device as npu"),
        ("run_ner.py", 522, "modify", "change hvd.rank to get_rank_id"),
    ]
    assert [(a.file, a.line, a.api) for a in report.unsupported] == [
        ("test.py", 3, "hvd.allreduce"),
        ("test.py", 9, "hvd.broadcast"),
    ]
    assert report.converted_files == ["model.py"]
    assert len(report.warnings) == 1 and "failed_report.txt:4" in report.warnings[0]
    (tmp_path / "success_report.txt").write_text("no line number here\n")
    with pytest.raises(MigrationReportError, match=r"success_report\.txt:1: expected '<file>:<line> <code>'"):
        read_report_folder(tmp_path)


def test_pytorch_older_and_mindstudio_layouts(tmp_path):
    res = tmp_path / "proj_msft" / "transplant_result_file"
    res.mkdir(parents=True)
    (res / "unsupported_op.csv").write_text(
        "File,Start Line,End Line,OP,Tips\nmain.py,12,12,torch.nn.Conv3d,use Conv2d\n"
    )
    (res / "unknown_api.csv").write_text("File,Start Line,End Line,OP,Tips\nmain.py,20,20,torch.special.foo\n")
    (res / "change_list.csv").write_text(
        "File,Start Line,End Line,Operation Type,Message\nmain.py,1,1,Insert,import torch_npu\n"
    )
    (res / "cuda_op_list.csv").write_text("Op Name,File\nmy_op,ext.cu\n")
    report = read_report_folder(tmp_path)
    assert report.folder == str(res)
    assert [(a.api, a.category, a.advice) for a in report.apis] == [
        ("torch.nn.Conv3d", "unsupported", "use Conv2d"),
        ("torch.special.foo", "unknown", ""),
    ]
    assert report.extra_tables["cuda_op_list.csv"] == [{"Op Name": "my_op", "File": "ext.cu"}]
    assert any("cuda_op_list.csv: its columns are not documented" in w for w in report.warnings)
    (res / "change_list.csv").write_text("File,Start Line,End Line,Operation Type,Message\nmain.py,one,1,Insert,x\n")
    with pytest.raises(MigrationReportError) as exc:
        read_report_folder(tmp_path)
    assert f"{res / 'change_list.csv'}:2: Start Line: expected a line number, got 'one'" == str(exc.value)
    (res / "change_list.csv").write_text("Path,Line\nmain.py,1\n")
    with pytest.raises(MigrationReportError, match=r"change_list\.csv:1: missing column File / Start Line"):
        read_report_folder(tmp_path)


def test_a_folder_without_a_report(tmp_path):
    with pytest.raises(MigrationReportError, match="no migration report here"):
        read_report_folder(tmp_path)
    with pytest.raises(MigrationReportError, match="not a folder"):
        read_report_folder(tmp_path / "nope")
