"""Device info (chip, AI Cores, frequencies) from PROF_*/device_N/info.json.N is read in every
layout that has it, torch_npu's *_ascend_pt folders included."""

from __future__ import annotations

import json

from workbench.core.compare import facts
from workbench.core.profiling.build import open_report
from workbench.simtoolkit.profdata import resnet50_workload, write_msprof_prof, write_torch_npu


def _device_info_files(root):
    return sorted(root.glob("**/PROF_*/device_*/info.json.*"))


def test_torch_npu_output_reads_the_device_info_of_its_prof_folder(tmp_path):
    out = write_torch_npu(tmp_path, resnet50_workload(), soc="Ascend910B2")
    (info_file,) = _device_info_files(out)
    expected = json.loads(info_file.read_text(encoding="utf-8"))
    report = open_report(out, use_cache=False)
    key = f"{info_file.parent.name}/{info_file.name}"
    assert report.info[key] == expected
    assert facts.chip_of(report) is not None and "910B" in facts.chip_of(report)


def test_msprof_output_reads_it_too(tmp_path):
    prof = write_msprof_prof(tmp_path, resnet50_workload(), soc="Ascend910B2")
    report = open_report(prof, use_cache=False)
    assert any(k.startswith("device_0/info.json") for k in report.info)
    assert "910B" in (facts.chip_of(report) or "")


def test_the_summary_shows_the_device_of_a_torch_npu_run(tmp_path):
    from workbench.core.profiling import views

    report = open_report(write_torch_npu(tmp_path, resnet50_workload(), soc="Ascend910B2"), use_cache=False)
    device = dict(views.summary_sections(report))["Device"]
    assert device[0][0] == "Device 0" and "chip=910B2" in device[0][1]


def test_the_summary_size_is_what_the_report_reads_not_its_cache(tmp_path):
    from workbench.core.profiling import views

    out = write_torch_npu(tmp_path, resnet50_workload(), soc="Ascend910B2")
    report = open_report(out, use_cache=True)
    (out / "notes.bin").write_bytes(b"x" * 3_000_000)  # a file of the user's that no reader takes
    assert any((out / ".wbcache").rglob("*"))
    read = {p for p in report.input_paths() if p.is_file()}
    assert read and all(".wbcache" not in p.parts and p.name != "notes.bin" for p in read)
    size = dict(dict(views.summary_sections(report))["Profiling info"])["Size"]
    assert size == f"{sum(p.stat().st_size for p in read) / 2**20:.2f} MiB"
