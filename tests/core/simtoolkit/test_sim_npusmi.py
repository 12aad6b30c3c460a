"""The simulated npu-smi reproduces the real table layouts byte for byte."""

from __future__ import annotations

import pytest

from workbench.core.services.npusmi import parse_npu_smi_info
from workbench.simtoolkit import platform
from workbench.simtoolkit.npusmi import render_info, simulated_devices


@pytest.mark.parametrize(
    "name", ["npu-smi-info_310_23.0.0.txt", "npu-smi-info_310P3_25.3.rc1.txt", "npu-smi-info_910_8card_24.1.0.txt"]
)
def test_rendering_the_parsed_sample_gives_the_sample_back(samples, name):
    text = (samples / "npu-smi" / name).read_text(encoding="utf-8")
    info = parse_npu_smi_info(text)
    rendered = render_info(info.devices, info.driver_version, info.layout)
    sample_lines = text.splitlines()
    # The 910 sample stops after the device table (its process table was not published).
    assert rendered.splitlines()[: len(sample_lines)] == sample_lines


@pytest.mark.parametrize("soc", sorted(platform.SOCS))
def test_simulated_table_parses_back_to_the_configured_chips(soc):
    chip = platform.SOCS[soc]
    devices = simulated_devices(chip, 5)
    text = render_info(devices, "24.1.rc1", chip.style)
    info = parse_npu_smi_info(text)
    assert info.devices == tuple(devices)
    assert {d.soc_version for d in info.devices} == {soc}
    assert info.layout == chip.style
    widths = {len(line) for line in text.splitlines()}
    assert widths == {106 if chip.style == "310" else 98}
    assert text == render_info(simulated_devices(chip, 5), "24.1.rc1", chip.style)  # deterministic
