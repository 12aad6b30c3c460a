"""Every verb that writes a file refuses to write over one of its inputs (even with --force) and
over an existing file without --force; the message names the file."""

from __future__ import annotations

import hashlib
import shutil
from pathlib import Path

import numpy as np
import pytest

from workbench.cli import main
from workbench.core import fsutil

SAMPLES = Path(__file__).resolve().parents[3].parent / "shared" / "samples"
TRACE = SAMPLES / "torch_npu-trace_view" / "trace_view.json"


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


@pytest.fixture
def trace(tmp_path):
    copy = tmp_path / "trace.json"
    shutil.copyfile(TRACE, copy)
    return copy


def test_the_guard_itself(tmp_path):
    src = tmp_path / "in"
    src.mkdir()
    (src / "a.csv").write_text("x")
    fsutil.refuse_inputs(tmp_path / "new.csv", [src])  # a new file: fine
    fsutil.refuse_inputs(src / "new.csv", [src])  # a new file beside the inputs: fine
    with pytest.raises(fsutil.OutputRefused, match="inside the input"):
        fsutil.refuse_inputs(src / "a.csv", [src])
    link = tmp_path / "link.csv"
    link.symlink_to(src / "a.csv")
    with pytest.raises(fsutil.OutputRefused, match="is an input"):
        fsutil.refuse_inputs(link, [src / "a.csv"])
    with pytest.raises(fsutil.OutputRefused, match="pass --force"):
        fsutil.refuse_existing(src / "a.csv", force=False)
    fsutil.refuse_existing(src / "a.csv", force=True)


def test_report_export_never_writes_over_its_own_trace(trace, capsys):
    before = digest(trace)
    assert main(["report", "export", str(trace), "--out", str(trace), "--force"]) == 2
    assert f"{trace}: is an input of this command" in capsys.readouterr().err
    assert digest(trace) == before


def test_report_export_over_an_existing_file_needs_force(trace, tmp_path, capsys):
    out = tmp_path / "ops.xlsx"
    assert main(["report", "export", str(trace), "--out", str(out)]) == 0
    first = out.stat().st_mtime_ns
    capsys.readouterr()
    assert main(["report", "export", str(trace), "--out", str(out)]) == 2
    assert f"{out}: exists; pass --force to replace it" in capsys.readouterr().err
    assert out.stat().st_mtime_ns == first
    assert main(["report", "export", str(trace), "--out", str(out), "--force"]) == 0


def test_report_save_and_merge_need_force_and_never_replace_an_input(trace, tmp_path, capsys):
    saved = tmp_path / "r.wbreport"
    assert main(["report", "save", str(trace), "--out", str(tmp_path / "r")]) == 0 and saved.exists()
    capsys.readouterr()
    assert main(["report", "save", str(trace), "--out", str(saved)]) == 2
    assert "exists; pass --force" in capsys.readouterr().err
    before = digest(saved)
    # merging the saved report with the trace into the saved report itself: refused even with --force
    assert main(["report", "merge", str(saved), str(trace), "--out", str(saved), "--force"]) == 2
    assert "is an input of this command" in capsys.readouterr().err
    assert digest(saved) == before


def test_compare_out_needs_force(trace, tmp_path, capsys):
    out = tmp_path / "cmp.xlsx"
    out.write_bytes(b"old workbook")
    assert main(["compare", str(trace), str(trace), "--out", str(out)]) == 2
    assert "exists; pass --force" in capsys.readouterr().err and out.read_bytes() == b"old workbook"


def test_accuracy_result_never_replaces_a_golden_tensor(tmp_path, capsys):
    npu, golden = tmp_path / "npu", tmp_path / "golden"
    npu.mkdir()
    golden.mkdir()
    tensor = golden / "Conv2D.conv1.0.1700000000000000.npy"
    np.save(tensor, np.arange(4, dtype=np.float32))
    before = digest(tensor)
    code = main(["accuracy", "compare", "--npu", str(npu), "--golden", str(golden), "--out", str(tensor), "--force"])
    assert code == 2 and "inside the input" in capsys.readouterr().err
    assert digest(tensor) == before


def test_a_verb_whose_reader_went_away_ends_quietly():
    """``ascend-workbench report info … | head``: the reader closes the pipe before the verb
    writes; the verb ends without a traceback."""
    import subprocess
    import sys

    proc = subprocess.Popen(
        [sys.executable, "-m", "workbench", "report", "info", str(TRACE), "--json"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    proc.stdout.close()  # the reader is gone before anything is written
    err = proc.stderr.read().decode()
    proc.wait(timeout=120)
    assert err == "", err
