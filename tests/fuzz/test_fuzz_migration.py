"""Fuzz of the migration tools' report readers (issue #22) and the diff: convert_tf2npu's
success_report.txt, failed_report.txt, api_brief_report.txt and api_analysis_report.xlsx (damaged
bytes, and sheets of any cell values), msFmkTransplt's change_list.csv, unsupported_api.csv and
msFmkTranspltlog.txt, a whole report folder with one file damaged, and the side-by-side diff of two
damaged sources.

The seeds are what the simulated tools write for the shipped GPU samples (run once per session on
the demo host). A reader returns, or raises MigrationReportError naming the file; the report model
(counts, by_file, to_json) takes whatever a reader returned; the diff returns, or raises DiffError
naming the file."""

from __future__ import annotations

import atexit
import functools
import itertools
import json
import shutil
import tempfile
from pathlib import Path

import hypothesis.strategies as st
from fuzzkit import encodings, feed, mutated, scalars, write
from hypothesis import given

from workbench.core.migration import reports
from workbench.core.migration.diff import DiffError, diff_files, diff_lines

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = ROOT / "resources" / "samples"
_n = itertools.count()


@functools.cache
def seeds() -> dict[str, Path]:
    """The report folders the simulated tools write for the two GPU samples: {"tf": …, "pt": …}."""
    from workbench.core.migration.run import run_migration
    from workbench.core.services.cli import open_transport
    from workbench.core.services.demohost import resolve_host

    work = Path(tempfile.mkdtemp(prefix="fuzz-migration-"))
    atexit.register(shutil.rmtree, work, True)
    host = resolve_host("demo")
    out: dict[str, Path] = {}
    for key, framework, sample in (("tf", "tf1", "gpu_tf_trainer"), ("pt", "pytorch", "gpu_pytorch_trainer")):
        src = Path(shutil.copytree(SAMPLES / sample, work / "src" / sample))
        transport = open_transport(host)
        try:
            result = run_migration(framework, src, work / key, transport, host.toolkit or None, main="train.py")
        finally:
            transport.close()
        assert result.ok and result.report_dir, result.error
        out[key] = Path(result.report_dir)
        out[key + "_src"] = src
        out[key + "_out"] = Path(result.output_dir or "")
    return out


def _use(report: reports.MigrationReport) -> None:
    report.counts()
    report.by_file()
    json.dumps(report.to_json(), ensure_ascii=False)
    _ = report.unsupported


READERS = {
    "success_report.txt": lambda p: reports.read_success_report(p, ("/x",)),
    "failed_report.txt": lambda p: reports.read_failed_report(p, ("/x",)),
    "api_brief_report.txt": reports.read_brief,
    "api_analysis_report.xlsx": lambda p: reports.read_api_analysis_xlsx(p, ("/x",)),
    "change_list.csv": reports.read_change_list,
    "unsupported_api.csv": lambda p: reports.read_api_csv(p, "unsupported"),
    "msFmkTranspltlog.txt": reports.read_transplant_log,
}
TF_NAMES = ["success_report.txt", "failed_report.txt", "api_brief_report.txt", "api_analysis_report.xlsx"]
PT_NAMES = ["change_list.csv", "unsupported_api.csv", "msFmkTranspltlog.txt"]


def _seed(name: str) -> Path:
    return seeds()["tf" if name in TF_NAMES else "pt"] / name


def _fresh(tmp_path: Path) -> Path:
    return tmp_path / f"x{next(_n)}"


@given(name=st.sampled_from(TF_NAMES + PT_NAMES), data=st.data())
def test_report_file_mutated(tmp_path: Path, name: str, data: st.DataObject) -> None:
    blob = data.draw(mutated(_seed(name).read_bytes()))
    path = write(_fresh(tmp_path) / name, blob)
    feed(f"migration/{name}", path, lambda: READERS[name](path), (reports.MigrationReportError,))


@given(name=st.sampled_from(TF_NAMES + PT_NAMES), data=st.data())
def test_report_folder_with_one_file_mutated(tmp_path: Path, name: str, data: st.DataObject) -> None:
    blob = data.draw(mutated(_seed(name).read_bytes()))
    folder = Path(shutil.copytree(_seed(name).parent, _fresh(tmp_path) / _seed(name).parent.name))
    write(folder / name, blob)

    def run() -> None:
        _use(reports.read_report_folder(folder, ("/x",)))

    feed(f"migration-folder/{name}", folder, run, (reports.MigrationReportError,))


cells = st.one_of(scalars, st.datetimes(), st.sampled_from(list(reports.SUPPORT_VALUES)), st.text(max_size=20))
HEADERS = ["序号", "脚本文件名", "代码行", "模块名", "API名", "支持度", "工具迁移API支持度", "迁移建议", "说明", "x"]


@given(
    header=st.lists(st.sampled_from(HEADERS), min_size=0, max_size=8),
    rows=st.lists(st.lists(cells, max_size=9), max_size=6),
)
def test_api_analysis_sheet_of_any_cells(tmp_path: Path, header: list[str], rows: list[list[object]]) -> None:
    from openpyxl import Workbook
    from openpyxl.utils.exceptions import IllegalCharacterError

    wb = Workbook()
    ws = wb.active
    try:
        if header:
            ws.append(header)
        for row in rows:
            ws.append(row)
    except (IllegalCharacterError, ValueError, TypeError):
        return  # a value openpyxl cannot write: no such file exists
    path = _fresh(tmp_path) / "api_analysis_report.xlsx"
    path.parent.mkdir(parents=True)
    wb.save(path)

    def run() -> None:
        out, warnings = reports.read_api_analysis_xlsx(path)
        for a in out:
            assert isinstance(a.line, int) and a.category in reports.CATEGORIES
        assert all(str(path) in w for w in warnings)

    feed("migration/api_analysis_report.xlsx(cells)", path, run, (reports.MigrationReportError,))


@given(text=st.text(max_size=300), data=st.data())
def test_text_reports_of_any_text(tmp_path: Path, text: str, data: st.DataObject) -> None:
    name = data.draw(
        st.sampled_from(
            [
                "success_report.txt",
                "failed_report.txt",
                "api_brief_report.txt",
                "change_list.csv",
                "unsupported_api.csv",
                "msFmkTranspltlog.txt",
            ]
        )
    )
    path = write(_fresh(tmp_path) / name, data.draw(encodings(text)))
    feed(f"migration/{name}(text)", path, lambda: READERS[name](path), (reports.MigrationReportError,))


@given(data=st.data())
def test_diff_of_damaged_sources(tmp_path: Path, data: st.DataObject) -> None:
    s = seeds()
    original = (s["pt_src"] / "train.py").read_bytes()
    migrated = (s["pt_out"] / "train.py").read_bytes()
    folder = _fresh(tmp_path)
    left = write(folder / "in" / "train.py", data.draw(mutated(original)))
    right = write(folder / "out" / "train.py", data.draw(mutated(migrated, original)))

    def run() -> None:
        d = diff_files(left, right)
        assert [r.left for r in d.rows if r.left is not None] == list(
            range(1, 1 + sum(r.left is not None for r in d.rows))
        )
        for line in (1, 10, 10**6):
            assert 0 <= d.row_of(line, "left") < max(1, len(d.rows))
            assert 0 <= d.row_of(line, "right") < max(1, len(d.rows))

    feed("migration/diff", left, run, (DiffError,), (str(right),))


@given(a=st.lists(st.text(max_size=6), max_size=20), b=st.lists(st.text(max_size=6), max_size=20))
def test_diff_rows_keep_both_sides(a: list[str], b: list[str]) -> None:
    rows = diff_lines(a, b)
    assert [r.left_text for r in rows if r.left is not None] == a
    assert [r.right_text for r in rows if r.right is not None] == b
    assert all(r.left_text == r.right_text for r in rows if r.tag == "equal")
