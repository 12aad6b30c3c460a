"""The side-by-side diff of an input file and its migrated copy (core migration.diff)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from workbench.core.migration.diff import (
    DELETE,
    EQUAL,
    INSERT,
    REPLACE,
    DiffError,
    diff_files,
    diff_lines,
    project_files,
    read_source,
)

SAMPLES = Path(__file__).resolve().parents[3] / "resources" / "samples"


def test_rows_keep_every_line_of_both_sides_in_order() -> None:
    a = ["import torch", "x = 1", "y = x.cuda()", "print(y)", "gone()"]
    b = ["import torch", "import torch_npu", "x = 1", "y = x.npu()", "print(y)"]
    rows = diff_lines(a, b)
    assert [r.left_text for r in rows if r.left is not None] == a
    assert [r.right_text for r in rows if r.right is not None] == b
    assert [r.left for r in rows if r.left is not None] == [1, 2, 3, 4, 5]
    assert [r.right for r in rows if r.right is not None] == [1, 2, 3, 4, 5]
    by_right = {r.right: r for r in rows if r.right is not None}
    assert by_right[2].tag == INSERT and by_right[2].left is None
    assert by_right[4].tag == REPLACE and by_right[4].left == 3 and by_right[4].left_text == "y = x.cuda()"
    assert by_right[5].tag == EQUAL
    assert [r.tag for r in rows if r.right is None] == [DELETE]


def test_row_of_finds_the_line_on_either_side() -> None:
    d = diff_files_from(["a", "b", "c"], ["a", "new", "b", "C"])
    assert d.rows[d.row_of(2, "right")].right_text == "new"
    assert d.rows[d.row_of(2, "left")].left_text == "b"
    assert d.rows[d.row_of(3, "left")].left_text == "c"
    assert d.rows[d.row_of(3, "left")].right_text == "C"
    assert d.row_of(99, "right") == len(d.rows) - 1  # beyond the end: the last row
    assert d.changed_rows() == [i for i, r in enumerate(d.rows) if r.tag != EQUAL]


def diff_files_from(a, b):
    from workbench.core.migration.diff import FileDiff

    return FileDiff("in", "out", diff_lines(a, b))


def test_missing_side_is_empty_and_named(tmp_path: Path) -> None:
    out = tmp_path / "out.py"
    out.write_text("import torch_npu\nx = 1\n", encoding="utf-8")
    d = diff_files(tmp_path / "nope.py", out)
    assert d.missing == [str(tmp_path / "nope.py")]
    assert [r.tag for r in d.rows] == [INSERT, INSERT]


def test_gbk_source_and_binary_file(tmp_path: Path) -> None:
    gbk = tmp_path / "gbk.py"
    gbk.write_bytes("# 训练脚本\nx = 1\n".encode("gbk"))
    assert read_source(gbk) == ["# 训练脚本", "x = 1"]
    binary = tmp_path / "b.py"
    binary.write_bytes(b"\0\1\2")
    with pytest.raises(DiffError, match=r"b\.py: not a text file"):
        read_source(binary)


def test_sample_migrated_by_the_simulated_tool(tmp_path: Path) -> None:
    """The demo's PyTorch sample against its msFmkTransplt copy: every change-list line is a changed row."""
    from workbench.core.migration.reports import read_report_folder
    from workbench.core.migration.run import run_migration
    from workbench.core.services.cli import open_transport
    from workbench.core.services.demohost import resolve_host

    src = tmp_path / "gpu_pytorch_trainer"
    shutil.copytree(SAMPLES / "gpu_pytorch_trainer", src)
    host = resolve_host("demo")
    transport = open_transport(host)
    try:
        result = run_migration("pytorch", src, tmp_path / "out", transport, host.toolkit or None, main="train.py")
    finally:
        transport.close()
    assert result.ok, result.error
    rep = read_report_folder(result.report_dir)
    files = project_files(result.report_dir, rep.tool, src)
    assert files.output_dir == Path(result.output_dir)
    assert rep.changes
    for change in rep.changes:
        left, right = files.pair(change.file)
        d = diff_files(left, right)
        row = d.rows[d.row_of(change.line, "right")]
        assert row.right == change.line and row.changed, (change, row)


def test_report_folders_are_an_artefact_kind(tmp_path: Path) -> None:
    """core artefacts knows the tools' report folders by their files (names repeated there: they agree)."""
    from workbench.core import artefacts
    from workbench.core.migration import reports

    assert set(artefacts.MIGRATION_TF_FILES) <= set(reports.TF_FILES)
    assert set(artefacts.MIGRATION_PT_FILES) | {"change_list.csv"} <= set(reports.PT_FILES)
    tf = tmp_path / "report_npu_20240101000000"
    tf.mkdir()
    (tf / "api_brief_report.txt").write_text("1.In brief: Total API: 0\n")
    pt = tmp_path / "proj_msft"
    pt.mkdir()
    (pt / "change_list.csv").write_text("File,Start Line,End Line,Operation Type,Message\n")
    (pt / "msFmkTranspltlog.txt").write_text("MsFmkTransplt run success\n")
    plain = tmp_path / "plain"
    plain.mkdir()
    (plain / "change_list.csv").write_text("a,b\n")  # a change list alone is any CSV
    for folder in (tf, pt):
        assert artefacts.classify(folder) == artefacts.Artefact.MIGRATION_REPORT
        assert artefacts.open_action(folder) == artefacts.OPEN_MIGRATION
    assert artefacts.classify(plain) is None


def test_the_wizards_input_check_is_bounded(tmp_path: Path) -> None:
    """job.check_local_input(limit=): the wizard checks as the user types, so it looks at a bounded
    number of entries for a .py (the run itself checks the whole folder). Here for want of a better room."""
    from workbench.core.migration.job import JobError, check_local_input

    big = tmp_path / "big"
    for i in range(30):
        (big / f"d{i:02d}").mkdir(parents=True)
        (big / f"d{i:02d}" / "data.txt").write_text("x")
    with pytest.raises(JobError, match="no Python"):
        check_local_input(big)
    assert check_local_input(big, limit=10) == big.resolve()  # bound reached: the run decides
    (big / "d29" / "train.py").write_text("import torch\n")
    assert check_local_input(big) == big.resolve()
