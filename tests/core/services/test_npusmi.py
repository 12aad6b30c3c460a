"""npu-smi info parsing against the three REAL outputs in ../shared/samples/npu-smi.

Expected values were read off the sample text by eye (the one place literal values are right)."""

from __future__ import annotations

import pytest

from workbench.core.services.npusmi import NpuSmiParseError, parse_npu_smi_info


def _parse(samples, name):
    path = samples / "npu-smi" / name
    return parse_npu_smi_info(path.read_text(encoding="utf-8"), str(path))


def test_310_driver_23(samples):
    info = _parse(samples, "npu-smi-info_310_23.0.0.txt")
    assert (info.smi_version, info.driver_version, info.layout) == ("23.0.0", "23.0.0", "310")
    assert len(info.devices) == 1
    d = info.devices[0]
    assert (d.npu_id, d.chip_id, d.device_id, d.name, d.health) == (0, 0, 0, "310", "OK")
    assert (d.power_w, d.temp_c, d.hugepages_used, d.hugepages_total) == (12.8, 61, 0, 969)
    assert (d.bus_id, d.aicore_percent, d.memory_used_mb, d.memory_total_mb) == ("0000:01:00.0", 0, 577, 7759)
    assert d.hbm_used_mb is None and d.hbm_total_mb is None
    assert d.soc_version == "Ascend310"
    assert info.processes == ()


def test_310p3_power_na(samples):
    info = _parse(samples, "npu-smi-info_310P3_25.3.rc1.txt")
    assert (info.smi_version, info.driver_version, info.layout) == ("25.3.rc1", "25.3.rc1", "310")
    (d,) = info.devices
    assert (d.npu_id, d.chip_id, d.device_id, d.name, d.health) == (6, 0, 0, "310P3", "OK")
    assert d.power_w is None and d.power_text == "NA"
    assert (d.temp_c, d.hugepages_used, d.hugepages_total) == (50, 0, 0)
    assert (d.bus_id, d.aicore_percent, d.memory_used_mb, d.memory_total_mb) == ("0000:84:00.0", 0, 1839, 21525)
    assert d.soc_version == "Ascend310P3"


def test_910_eight_cards_with_hbm(samples):
    info = _parse(samples, "npu-smi-info_910_8card_24.1.0.txt")
    assert (info.smi_version, info.driver_version, info.layout) == ("24.1.0", "24.1.0", "910")
    expected = [  # npu, power, temp, bus, mem used, mem total, hbm used  (hbm total 32768 everywhere)
        (0, 70.0, 34, "0000:C1:00.0", 1197, 13553, 1365),
        (1, 66.9, 34, "0000:81:00.0", 2411, 15665, 4),
        (2, 69.8, 34, "0000:41:00.0", 2306, 15665, 4),
        (3, 67.2, 33, "0000:01:00.0", 2472, 15567, 3),
        (4, 68.9, 33, "0000:C2:00.0", 2904, 13553, 3),
        (5, 66.3, 34, "0000:82:00.0", 1694, 15665, 5),
        (6, 70.1, 34, "0000:42:00.0", 1987, 15665, 5),
        (7, 65.6, 33, "0000:02:00.0", 1777, 15567, 4),
    ]
    assert len(info.devices) == 8
    for d, (npu, power, temp, bus, mem, mem_total, hbm) in zip(info.devices, expected):
        assert (d.npu_id, d.chip_id, d.device_id, d.name, d.health) == (npu, 0, None, "910B", "OK")
        assert (d.power_w, d.temp_c, d.hugepages_used, d.hugepages_total) == (power, temp, 0, 0)
        assert (d.bus_id, d.aicore_percent, d.memory_used_mb, d.memory_total_mb) == (bus, 0, mem, mem_total)
        assert (d.hbm_used_mb, d.hbm_total_mb) == (hbm, 32768)
        assert d.soc_version == "Ascend910B"
        assert "Ascend910ProB" in d.soc_versions


def test_json_shape_for_host_check(samples):
    info = _parse(samples, "npu-smi-info_910_8card_24.1.0.txt")
    rows = info.to_json()
    assert [r["id"] for r in rows] == list(range(8))
    assert {r["chip"] for r in rows} == {"910B"} and {r["soc_version"] for r in rows} == {"Ascend910B"}
    assert {"id", "chip", "soc_version", "health"} <= set(rows[0])


def test_process_rows_are_parsed(samples):
    text = (samples / "npu-smi" / "npu-smi-info_310_23.0.0.txt").read_text()
    row = "| 0       0                     | 4242            | python3                  | 311                       |"
    text = text.replace("| No running processes found in NPU 0" + " " * 68 + "|", row)
    assert row in text
    info = parse_npu_smi_info(text)
    assert [(p.npu_id, p.chip_id, p.pid, p.name, p.memory_mb) for p in info.processes] == [(0, 0, 4242, "python3", 311)]


@pytest.mark.parametrize(
    "mutate, message",
    [
        (lambda t: t.replace("npu-smi 23.0.0", "something 23.0.0"), "line 2: expected '| npu-smi <version>"),
        (lambda t: t.replace("577  / 7759", "577 of 7759"), "lines 7-8"),
        (
            lambda t: "\n".join(ln for ln in t.splitlines() if not ln.startswith("| 0       0 ")),
            "line 8: expected the second row",
        ),
        (lambda t: "command not found: npu-smi\n", "line 1"),
    ],
)
def test_bad_text_names_source_and_line(samples, mutate, message):
    text = mutate((samples / "npu-smi" / "npu-smi-info_310_23.0.0.txt").read_text())
    with pytest.raises(NpuSmiParseError) as err:
        parse_npu_smi_info(text, "host1: npu-smi info")
    assert "host1: npu-smi info" in str(err.value) and message in str(err.value)


@pytest.mark.parametrize(
    "power, temp, message",
    [("inf", "34", "expected a power in W"), ("70.0", "inf", "expected a number or NA"), ("abc", "34", "power")],
)
def test_odd_values_are_parse_errors_naming_the_line(samples, power, temp, message):
    text = (samples / "npu-smi" / "npu-smi-info_910_8card_24.1.0.txt").read_text()
    text = text.replace("| 70.0        34  ", f"| {power:<11} {temp:<4}", 1)
    with pytest.raises(NpuSmiParseError, match=message) as err:
        parse_npu_smi_info(text, "host1: npu-smi info")
    assert "host1: npu-smi info" in str(err.value)


def test_a_dash_for_power_is_no_power(samples):
    text = (samples / "npu-smi" / "npu-smi-info_910_8card_24.1.0.txt").read_text()
    info = parse_npu_smi_info(text.replace("| 70.0        34  ", "| -           34  ", 1), "h")
    assert info.devices[0].power_w is None and info.devices[1].power_w == 66.9
