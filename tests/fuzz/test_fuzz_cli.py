"""The issue's known items at the command line: one line on stderr naming the file, exit 2, never
a traceback or a Python class name (each failed before its fix)."""

from __future__ import annotations

import io
import json
import zipfile
from pathlib import Path

import numpy as np
import pytest
from test_fuzz_dump import DUMP, DUMP_NAME
from test_fuzz_profiling import HW, SIM_TORCH

from workbench.cli import main
from workbench.core.profiling.build import open_report
from workbench.core.profiling.storage.saved import META_MEMBER, save_report

CLASS_NAMES = ("Traceback", "Error:", "internal error", "KeyError", "IndexError", "TypeError", "zlib")


def run_cli(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str]:
    code = main(list(argv))
    return code, capsys.readouterr().err


def assert_one_line(err: str, path: Path, code: int) -> None:
    lines = err.strip().splitlines()
    assert code == 2, (code, err)
    assert len(lines) == 1, err
    assert str(path) in lines[0], err
    assert not any(c in lines[0] for c in CLASS_NAMES), err


@pytest.fixture(scope="module")
def saved(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("cli") / "sim.wbreport"
    return save_report(open_report(SIM_TORCH, use_cache=False), out)


def _rezip(src: Path, out: Path, change) -> Path:
    with zipfile.ZipFile(src) as z:
        members = {n: z.read(n) for n in z.namelist()}
    change(members)
    with zipfile.ZipFile(out, "w", compression=zipfile.ZIP_DEFLATED) as z:
        for name, data in members.items():
            z.writestr(name, data)
    return out


def test_report_info_damaged_deflate_stream(tmp_path: Path, saved: Path, capsys) -> None:
    """A damaged compressed member of report.json (zlib.error before)."""
    blob = bytearray(saved.read_bytes())
    with zipfile.ZipFile(saved) as z:
        info = z.getinfo(META_MEMBER)
    start = info.header_offset + 30 + len(info.filename.encode()) + len(info.extra)
    for i in range(start + 2, start + min(info.compress_size, 64)):
        blob[i] ^= 0xA5
    bad = tmp_path / "bad.wbreport"
    bad.write_bytes(bytes(blob))
    code, err = run_cli(capsys, "report", "info", str(bad))
    assert_one_line(err, bad, code)


def test_report_info_codes_beyond_categories(tmp_path: Path, saved: Path, capsys) -> None:
    """A string column whose codes point past its categories (IndexError in the columnar store before)."""

    def change(members: dict[str, bytes]) -> None:
        meta = json.loads(members[META_MEMBER])
        col = next(c for c in meta["tables"]["ops"]["columns"] if c["kind"] == "category")
        col.update(kind="object", dtype="object", categories=[])
        members[META_MEMBER] = json.dumps(meta).encode()

    bad = _rezip(saved, tmp_path / "codes.wbreport", change)
    code, err = run_cli(capsys, "report", "info", str(bad))
    assert_one_line(err, bad, code)


def test_report_info_crafted_report_json(tmp_path: Path, saved: Path, capsys) -> None:
    """``tables`` a string ('str' object has no attribute 'items' before)."""

    def change(members: dict[str, bytes]) -> None:
        meta = json.loads(members[META_MEMBER])
        members[META_MEMBER] = json.dumps({**meta, "tables": "x"}).encode()

    bad = _rezip(saved, tmp_path / "crafted.wbreport", change)
    code, err = run_cli(capsys, "report", "info", str(bad))
    assert_one_line(err, bad, code)


def test_report_info_kernel_details_task_id_beyond_int64(tmp_path: Path, capsys) -> None:
    bad = tmp_path / "kernel_details.csv"
    bad.write_text("Name,Duration(us),Task ID\nk,1.0,99999999999999999999999\n", encoding="utf-8")
    code, err = run_cli(capsys, "report", "info", str(bad))
    assert_one_line(err, bad, code)
    assert "line 2" in err and "Task ID" in err


def test_report_info_trace_with_gbk_args(tmp_path: Path, capsys) -> None:
    """GBK bytes inside a device task's args (msgspec DecodeError before): the trace opens, the args
    show as text."""
    events = HW + [{"ph": "X", "name": "k", "ts": 1, "dur": 2, "pid": 1, "tid": 7, "args": {"OP Type": "卷积"}}]
    trace = tmp_path / "trace_view.json"
    trace.write_bytes(json.dumps(events, ensure_ascii=False).encode("gbk"))
    code, err = run_cli(capsys, "report", "info", str(trace))
    assert code == 0, err
    assert "Traceback" not in err


def _compare_dirs(tmp_path: Path, golden_bytes: bytes) -> tuple[Path, Path, Path]:
    npu = tmp_path / "npu"
    npu.mkdir()
    (npu / DUMP_NAME).write_bytes(DUMP)
    golden = tmp_path / "golden"
    golden.mkdir()
    npy = golden / "conv1.0.1700000000000001.npy"
    npy.write_bytes(golden_bytes)
    return npu, golden, npy


def test_accuracy_fusion_rule_list_as_key(tmp_path: Path, capsys) -> None:
    """A fusion rule whose attr key is a list (unhashable type: 'list' before)."""
    buf = io.BytesIO()
    np.save(buf, np.zeros((3, 4), dtype=np.float32))
    npu, golden, _ = _compare_dirs(tmp_path, buf.getvalue())
    rule = tmp_path / "rule.json"
    rule.write_text(json.dumps({"name": "m", "graph": [{"op": [{"name": "conv1", "attr": [{"key": ["k"]}]}]}]}))
    code, err = run_cli(
        capsys, "accuracy", "compare", "--npu", str(npu), "--golden", str(golden),
        "--fusion-rule", str(rule), "--out", str(tmp_path / "out.csv"),
    )  # fmt: skip
    assert_one_line(err, rule, code)


def test_accuracy_zero_byte_golden_npy(tmp_path: Path, capsys) -> None:
    """A 0-byte .npy in the golden folder (EOFError before, a traceback from the compare thread):
    the other tensors are compared and written; the file is named in one line on stderr and in its
    row's reason, and the exit is 2 (bad input), not a clean pass."""
    npu, golden, npy = _compare_dirs(tmp_path, b"")
    out = tmp_path / "out.csv"
    code, err = run_cli(capsys, "accuracy", "compare", "--npu", str(npu), "--golden", str(golden), "--out", str(out))
    lines = err.strip().splitlines()
    assert code == 2, err
    assert len(lines) == 1 and lines[0].startswith(f"error: {npy}: not a readable .npy file"), err
    assert "Traceback" not in err and "EOFError" not in err
    assert str(npy) in out.read_text(encoding="utf-8")
