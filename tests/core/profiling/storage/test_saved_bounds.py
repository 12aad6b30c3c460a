"""A crafted .wbreport can neither make the reader inflate gigabytes (zip bomb) nor make it
allocate what a member's header claims: both are one clear error naming the file."""

from __future__ import annotations

import io
import json
import zipfile
from pathlib import Path

import numpy as np
import pytest

from workbench.cli import main
from workbench.core.profiling.errors import ProfilingDataError
from workbench.core.profiling.storage import columnar, saved

SAMPLE = Path(__file__).resolve().parents[4].parent / "shared" / "samples" / "torch_npu-trace_view" / "trace_view.json"


@pytest.fixture
def good(tmp_path):
    from workbench.core.profiling.build import open_report

    out = saved.save_report(open_report(SAMPLE, use_cache=False), tmp_path / "good")
    return out


def _rewrite(src: Path, dst: Path, replace: dict[str, bytes]) -> Path:
    with zipfile.ZipFile(src) as a, zipfile.ZipFile(dst, "w", compression=zipfile.ZIP_DEFLATED) as b:
        for info in a.infolist():
            b.writestr(info.filename, replace.get(info.filename, a.read(info.filename)))
    return dst


def test_a_report_that_declares_far_more_than_it_holds_is_refused(good, tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(columnar, "MIN_BOMB_BYTES", 1 << 20)  # the real floor is 256 MB: keep the test small
    with zipfile.ZipFile(good) as a:
        first_npy = next(n for n in a.namelist() if n.endswith(".npy"))
    zeros = io.BytesIO()
    np.save(zeros, np.zeros(40 << 20, dtype=np.uint8))  # 40 MB that deflates to ~40 KB
    bomb = _rewrite(good, tmp_path / "bomb.wbreport", {first_npy: zeros.getvalue()})
    assert bomb.stat().st_size < 1 << 20
    with pytest.raises(ProfilingDataError, match=r"bomb\.wbreport: declares .* GB of data in .* MB"):
        saved.load_saved(bomb)
    assert main(["report", "info", str(bomb)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "bomb.wbreport" in err and "Traceback" not in err


def test_a_member_whose_header_claims_more_than_it_holds_is_refused(good, tmp_path):
    with zipfile.ZipFile(good) as a:
        meta = json.loads(a.read(saved.META_MEMBER))
        first_npy = next(n for n in a.namelist() if n.endswith(".npy"))
    liar = io.BytesIO()
    np.lib.format.write_array_header_1_0(liar, {"descr": "<i8", "fortran_order": False, "shape": (10**12,)})
    liar.write(b"\0" * 64)
    damaged = _rewrite(good, tmp_path / "liar.wbreport", {first_npy: liar.getvalue()})
    with pytest.raises(ProfilingDataError, match=r"liar\.wbreport: member .* damaged \(its header describes"):
        saved.load_saved(damaged)
    assert meta["format"] == saved.FORMAT_NAME  # the rest of the file is a real report


def test_a_real_report_still_opens(good):
    report = saved.load_saved(good)
    assert report.kind == "workbench" and report.event_count > 0
