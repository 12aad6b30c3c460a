"""Atlas A3 nodes: two chips per NPU in ``npu-smi info``, ``Ascend910`` in the Name column, ``-`` as
the second chip's Power, and a soc_version (Ascend910_93xx) that only the chip's board query tells.

``A3_HEAD`` and the rows of chips 0-3 are the published output of an A3 node (npu-smi 24.1.rc3.7,
vllm-project/vllm-ascend#2035; the same layout in #2534, #6245 and ModelEngine-Group/
unified-cache-management#748); chips 4-15 repeat that layout with the node's other bus ids
(chip 15 = 0000:83:00.0 as in vllm-ascend#12980). docs/cann-formats.md §8.1."""

from __future__ import annotations

import pytest

from workbench.core.services.npusmi import (
    A3_SOC_VERSIONS,
    NpuDevice,
    NpuSmiParseError,
    parse_npu_smi_board,
    parse_npu_smi_info,
    soc_proposal,
)

A3_HEAD = """\
+------------------------------------------------------------------------------------------------+
| npu-smi 24.1.rc3.7               Version: 24.1.rc3.7                                           |
+---------------------------+---------------+----------------------------------------------------+
| NPU   Name                | Health        | Power(W)    Temp(C)           Hugepages-Usage(page)|
| Chip  Phy-ID              | Bus-Id        | AICore(%)   Memory-Usage(MB)  HBM-Usage(MB)        |
+===========================+===============+====================================================+
"""
# The first two NPUs as published (vllm-ascend#2035), verbatim.
PUBLISHED = (
    A3_HEAD
    + """\
| 0     Ascend910           | OK            | 178.8       36                0    / 0             |
| 0     0                   | 0000:9D:00.0  | 0           0    / 0          3397 / 65536         |
+------------------------------------------------------------------------------------------------+
| 0     Ascend910           | OK            | -           36                0    / 0             |
| 1     1                   | 0000:9F:00.0  | 0           0    / 0          3186 / 65536         |
+===========================+===============+====================================================+
"""
)
BUS = ("9D", "9F", "99", "9B", "95", "97", "91", "93", "8D", "8F", "89", "8B", "85", "87", "81", "83")
PAIR = "+------------------------------------------------------------------------------------------------+"
NPU_END = "+===========================+===============+====================================================+"
# The A3 board query of one chip (key : value lines as in the npu-smi reference for -t board -i -c;
# the NPU Name line is the one ATC's --soc_version reference names for Atlas A3).
BOARD = """\
        NPU ID                         : 3
        Chip ID                        : 1
        Chip Type                      : Ascend
        Chip Name                      : Ascend910
        NPU Name                       : 9392
        Chip Version                   : V1
        Board ID                       : 0x30
        PCB ID                         : NA
        BOM ID                         : 1
        Chip Position ID               : 1
        PCIe Bus Info                  : 0000:93:00.0
        Firmware Version               : NA
"""


def a3_table() -> str:
    rows = []
    for phy in range(16):
        npu, chip = divmod(phy, 2)
        power = f"{178.8 + npu:<12}" if chip == 0 else f"{'-':<12}"
        hbm = 3397 if chip == 0 else 3186
        rows.append(f"| {npu:<6}{'Ascend910':<20}| OK            | {power}{36:<18}0    / 0             |")
        mem = f"0           0    / 0          {hbm} / 65536         |"
        rows.append(f"| {chip:<6}{phy:<20}| 0000:{BUS[phy]}:00.0  | {mem}")
        rows.append(PAIR if chip == 0 else NPU_END)
    return A3_HEAD + "\n".join(rows) + "\n"


def test_the_table_rows_are_the_published_ones():
    assert a3_table().startswith(PUBLISHED)


def test_an_a3_table_is_16_chips_of_8_npus_with_no_guessed_soc():
    info = parse_npu_smi_info(a3_table(), "a3: npu-smi info")
    assert info.layout == "a3" and info.chips_per_npu == 2
    assert len(info.devices) == 16
    assert [(d.npu_id, d.chip_id, d.device_id) for d in info.devices] == [(p // 2, p % 2, p) for p in range(16)]
    assert [d.bus_id for d in info.devices] == [f"0000:{b}:00.0" for b in BUS]
    second = info.devices[1::2]
    assert all(d.power_w is None and d.power_text == "-" for d in second)
    assert [d.power_w for d in info.devices[0::2]] == [pytest.approx(178.8 + n) for n in range(8)]
    for d in info.devices:
        assert d.name == "Ascend910" and (d.hbm_total_mb, d.memory_total_mb) == (65536, 0)
        # never "AscendAscend910", never the old 910A's "Ascend910": the table does not tell
        assert d.soc_ambiguous and d.soc_version == "" and d.soc_versions == ()
        assert d.soc_candidates == A3_SOC_VERSIONS
    assert soc_proposal(info.devices) == (None, A3_SOC_VERSIONS)
    rows = info.to_json()
    assert rows[3]["id"] == 1 and rows[3]["chip_id"] == 1 and rows[3]["device_id"] == 3
    assert rows[3]["soc_version"] is None and rows[3]["soc_ambiguous"] is True
    assert rows[3]["soc_candidates"] == list(A3_SOC_VERSIONS)


def test_the_board_query_resolves_the_soc_version():
    board = parse_npu_smi_board(BOARD, "a3: npu-smi info -t board -i 3 -c 1")
    assert (board.npu_id, board.chip_id, board.chip_type) == (3, 1, "Ascend")
    assert (board.chip_name, board.npu_name, board.soc_version) == ("Ascend910", "9392", "Ascend910_9392")
    info = parse_npu_smi_info(a3_table())
    chip = info.devices[7]
    assert (chip.npu_id, chip.chip_id) == (3, 1)
    resolved = chip.with_board(board)
    assert not resolved.soc_ambiguous
    assert resolved.soc_version == "Ascend910_9392" and resolved.soc_versions == ("Ascend910_9392",)
    assert soc_proposal([resolved, *info.devices]) == ("Ascend910_9392", ())


def test_a_board_query_without_npu_name_names_the_chip():
    text = BOARD.replace("Ascend910", "910B1").replace("        NPU Name                       : 9392\n", "")
    board = parse_npu_smi_board(text)
    assert board.npu_name == "" and board.soc_version == "Ascend910B1"


@pytest.mark.parametrize(
    "text, message",
    [
        ("", "NPU ID, Chip ID, Chip Name"),
        ("command not found: npu-smi\n", "NPU ID, Chip ID, Chip Name"),
        (BOARD.replace(": 3\n", ": three\n"), "expected integer NPU ID / Chip ID, got 'three' / '1'"),
        (BOARD.replace(": 9392", ": 93 92!"), "NPU Name: expected letters and digits"),
    ],
)
def test_a_bad_board_answer_is_one_line_naming_the_command(text, message):
    with pytest.raises(NpuSmiParseError) as err:
        parse_npu_smi_board(text, "a3: npu-smi info -t board -i 3 -c 1")
    assert str(err.value).startswith("a3: npu-smi info -t board -i 3 -c 1: ") and message in str(err.value)
    assert "\n" not in str(err.value)


def test_names_that_already_read_ascend_are_not_prefixed_again():
    d = NpuDevice(0, 0, "Ascend910B3", "OK", None, 30, 0, 0, "0000:C1:00.0", 0, 0, 0)
    assert d.soc_version == "Ascend910B3" and d.soc_versions == ("Ascend910B3",)


# ----- the simulated A3 npu-smi and the resolution on a host


def test_the_simulated_a3_table_round_trips_and_matches_the_published_layout():
    from workbench.simtoolkit import platform
    from workbench.simtoolkit.npusmi import render_info, simulated_devices

    chip = platform.soc("Ascend910_9392")
    devices = simulated_devices(chip, 16)
    text = render_info(devices, "24.1.rc3.7", chip.style)
    info = parse_npu_smi_info(text)
    assert info.devices == tuple(devices) and info.layout == "a3" and len(info.devices) == 16
    ours, real = text.splitlines(), a3_table().splitlines()
    assert ours[:6] == real[:6]  # the header, byte for byte
    assert {len(line) for line in ours} == {len(real[0])}
    assert [ours[i] for i in (8, 11)] == [PAIR, NPU_END]  # chips of one NPU: '-', between NPUs: '='
    assert [d.bus_id for d in info.devices] == [f"0000:{b}:00.0" for b in BUS]
    assert all(d.power_text == "-" for d in info.devices[1::2])
    assert all(d.soc_ambiguous for d in info.devices)
    assert ours.count("| No running processes found in NPU 7" + " " * 60 + "|") == 1  # per NPU, not chip


@pytest.fixture(scope="module")
def a3_prefix(tmp_path_factory):
    from workbench.simtoolkit.install import install

    prefix = tmp_path_factory.mktemp("a3") / "Ascend"
    install(prefix, cann_version="8.0.RC1", soc_version="Ascend910_9392", devices=16)
    return prefix


def _local():
    from workbench.core.services.transport import LocalTransport

    return LocalTransport()


def test_the_simulated_board_query_and_its_bad_ids(a3_prefix):
    from workbench.core.services.toolkit import detect_toolkit, run_tool

    tr = _local()
    info = detect_toolkit(tr, str(a3_prefix))
    smi = info.tools["npu_smi"]
    ok = run_tool(tr, info, [smi, "info", "-t", "board", "-i", "3", "-c", "1"], timeout=60)
    assert ok.exit_status == 0
    assert parse_npu_smi_board(ok.stdout).soc_version == "Ascend910_9392"
    npu = run_tool(tr, info, [smi, "info", "-t", "board", "-i", "3"], timeout=60)
    assert npu.exit_status == 0 and "        Chip Count                     : 2" in npu.stdout.splitlines()
    for argv, said in ((["-i", "8", "-c", "0"], "card id 8"), (["-i", "3", "-c", "2"], "chip id 2")):
        bad = run_tool(tr, info, [smi, "info", "-t", "board", *argv], timeout=60)
        assert bad.exit_status == 1 and said in bad.stdout
        with pytest.raises(NpuSmiParseError):
            parse_npu_smi_board(bad.stdout)


def test_check_host_resolves_every_a3_chip_with_the_board_query(a3_prefix):
    from workbench.core.services.toolkit import check_host

    result = check_host(_local(), str(a3_prefix))
    assert result["errors"] == []
    devices = result["devices"]
    assert len(devices) == 16 and len({d["id"] for d in devices}) == 8
    assert {d["soc_version"] for d in devices} == {"Ascend910_9392"}
    assert not any(d["soc_ambiguous"] for d in devices)
    assert [d["device_id"] for d in devices] == list(range(16))


def test_a_failing_board_query_leaves_the_choice_open_and_says_why(a3_prefix, monkeypatch):
    from workbench.core.services import toolkit as tk

    info = tk.detect_toolkit(_local(), str(a3_prefix))
    real_run = tk.run_tool

    def no_board(transport, toolkit, argv, **kw):  # the board sub-command exits 1 like an old driver's
        if argv[:2] == ["bash", "-c"]:
            argv = ["bash", "-c", argv[2].replace(" info -t board ", " info -t nosuch ")]
        return real_run(transport, toolkit, argv, **kw)

    monkeypatch.setattr(tk, "run_tool", no_board)
    smi = tk.read_npu_smi(_local(), info)
    assert all(d.soc_ambiguous for d in smi.devices) and len(smi.devices) == 16
    assert soc_proposal(smi.devices) == (None, A3_SOC_VERSIONS)
    assert len(smi.warnings) == 16
    assert smi.warnings[0].startswith("local: npu-smi info -t board -i 0 -c 0: exited with status 1")
