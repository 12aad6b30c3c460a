"""Simulated ``npu-smi``: prints the real ``npu-smi info`` table for the configured chips.

The two table layouts and their column widths are those of the real outputs in
../shared/samples/npu-smi (a test re-renders each sample from its parsed values and compares the
text byte for byte); the Atlas A3 layout ("a3": 910 widths, ``Chip  Phy-ID``, two chips per NPU
split by a ``+-----+`` line, Power ``-`` on chip 1) is the one of the A3 tables quoted in
docs/cann-formats.md §8.1. Values per device are deterministic: the same install prints the same
table. ``npu-smi info`` and ``npu-smi info -t board -i <npu> [-c <chip>]`` are simulated; other
sub-commands print what is missing and exit 1.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence

from workbench.core.services.npusmi import NpuDevice
from workbench.simtoolkit import config as simconfig
from workbench.simtoolkit.platform import Soc

# Column widths (inside the "|" borders) of the real layouts.
_WIDTHS = {"310": (31, 17, 54), "910": (27, 15, 52)}
_BUS_910 = ("C1", "81", "41", "01", "C2", "82", "42", "02")  # real 8-card order (910 sample)
# A3 chips 0-3 and 15 are REAL (9D 9F 99 9B ... 83, §8.1); 4-14 continue the pattern (SIM).
_BUS_A3 = ("9D", "9F", "99", "9B", "95", "97", "91", "93", "8D", "8F", "89", "8B", "85", "87", "81", "83")


def simulated_devices(chip: Soc, count: int) -> list[NpuDevice]:
    """The devices a simulated host of ``count`` ``chip`` cards reports (deterministic)."""
    out = []
    per = max(1, chip.chips_per_npu)
    for i in range(count):
        wobble = (i * 37) % 11 - 5  # -5..5, fixed per device
        memory_total = chip.memory_mb[i % len(chip.memory_mb)]
        hbm_total = chip.hbm_mb
        if chip.style == "910":
            bus = f"0000:{_BUS_910[i] if i < len(_BUS_910) else format(0x10 + i, '02X')}:00.0"
        elif chip.style == "a3":
            bus = f"0000:{_BUS_A3[i] if i < len(_BUS_A3) else format(0x10 + i, '02X')}:00.0"
        else:
            bus = f"0000:{i + 1:02X}:00.0"
        power = None if chip.power_w is None else round(chip.power_w + wobble * 0.45, 1)
        if i % per:  # Atlas A3: the NPU's power is shown on chip 0, chip 1 prints "-"
            power = None
        out.append(
            NpuDevice(
                npu_id=i // per,
                chip_id=i % per,
                name=chip.npu_name,
                health="OK",
                power_w=power,
                temp_c=chip.temp_c + (i * 3) % 4 - 1,
                hugepages_used=0,
                hugepages_total=chip.hugepages_total,
                bus_id=bus,
                aicore_percent=0,
                memory_used_mb=0 if memory_total == 0 else 1200 + (i * 613) % 1700,
                memory_total_mb=memory_total,
                hbm_used_mb=None if hbm_total is None else (3397 if chip.memory_mb == (0,) else 3) + (i * 7) % 4,
                hbm_total_mb=hbm_total,
                device_id=i if chip.style in ("310", "a3") else None,
                power_text=("-" if i % per else "NA") if power is None else f"{power:.1f}",
            )
        )
    return out


def _line(widths: Sequence[int], fill: str = "-") -> str:
    return "+" + "+".join(fill * w for w in widths) + "+"


def _full(widths: Sequence[int], fill: str = "-") -> str:
    return "+" + fill * (sum(widths) + len(widths) - 1) + "+"


def _text_row(widths: Sequence[int], text: str) -> str:
    return "| " + text.ljust(sum(widths) + len(widths) - 2) + "|"


def _row(cells: Sequence[str], widths: Sequence[int]) -> str:
    return "|" + "|".join((" " + c).ljust(w) for c, w in zip(cells, widths)) + "|"


def render_info(devices: Sequence[NpuDevice], driver_version: str, layout: str) -> str:
    """The ``npu-smi info`` text for ``devices`` in the "310" or "910" layout."""
    a3 = layout == "a3"
    w = _WIDTHS["910" if a3 else layout]
    total = sum(w) + len(w) - 1
    head = f"npu-smi {driver_version}".ljust(49 if layout == "310" else 33) + f"Version: {driver_version}"
    out = [_full(w), "| " + head.ljust(total - 1) + "|", _line(w)]
    if layout == "310":
        out.append(_row(["NPU     Name", "Health", "Power(W)     Temp(C)           Hugepages-Usage(page)"], w))
        out.append(_row(["Chip    Device", "Bus-Id", "AICore(%)    Memory-Usage(MB)"], w))
    else:
        out.append("| NPU   Name                | Health        | Power(W)    Temp(C)           Hugepages-Usage(page)|")
        out.append(_row(["Chip  Phy-ID" if a3 else "Chip", "Bus-Id", "AICore(%)   Memory-Usage(MB)  HBM-Usage(MB)"], w))
    out.append(_line(w, "="))
    for n, d in enumerate(devices):
        temp = "NA" if d.temp_c is None else str(d.temp_c)
        aicore = "NA" if d.aicore_percent is None else str(d.aicore_percent)
        power = d.power_text or ("NA" if d.power_w is None else f"{d.power_w:.1f}")
        if layout == "310":
            out.append(
                _row(
                    [
                        f"{d.npu_id:<8}{d.name}",
                        d.health,
                        f"{power:<13}{temp:<18}{d.hugepages_used:<6}/ {d.hugepages_total}",
                    ],
                    w,
                )
            )
            out.append(
                _row(
                    [
                        f"{d.chip_id:<8}{'' if d.device_id is None else d.device_id}",
                        d.bus_id,
                        f"{aicore:<13}{d.memory_used_mb:<5}/ {d.memory_total_mb}",
                    ],
                    w,
                )
            )
        else:
            out.append(
                _row(
                    [
                        f"{d.npu_id:<6}{d.name}",
                        d.health,
                        f"{power:<12}{temp:<18}{d.hugepages_used:<5}/ {d.hugepages_total}",
                    ],
                    w,
                )
            )
            hbm = f"{d.hbm_used_mb if d.hbm_used_mb is not None else 0:<5}/ {d.hbm_total_mb or 0}"
            ids = f"{d.chip_id:<6}{'' if d.device_id is None else d.device_id}" if a3 else str(d.chip_id)
            out.append(
                _row([ids, d.bus_id, f"{aicore:<12}{f'{d.memory_used_mb:<5}/ {d.memory_total_mb}':<18}{hbm}"], w)
            )
        same_npu = n + 1 < len(devices) and devices[n + 1].npu_id == d.npu_id
        out.append(_full(w) if a3 and same_npu else _line(w, "="))
    out.append(_line(w))
    proc_left = "NPU     Chip"
    name_w = 25
    out.append(_row([proc_left, "Process id", "Process name".ljust(name_w) + "| Process memory(MB)"], w))
    out.append(_line(w, "="))
    for npu in dict.fromkeys(d.npu_id for d in devices):
        out.append(_text_row(w, f"No running processes found in NPU {npu}"))
        out.append(_line(w, "="))
    return "\n".join(out) + "\n"


def _board_line(key: str, value: object) -> str:
    return f"        {key:<31}: {value}"


def render_board(
    chip: Soc, devices: Sequence[NpuDevice], npu: int, chip_id: int | None, *, npu_name: bool = True
) -> str:
    """``npu-smi info -t board -i <npu> [-c <chip>]``: the ``Key : value`` lines of the real tool (§8.1).

    With ``-c`` the chip's lines (Atlas A3 adds ``NPU Name``: Ascend910 + 9392 = Ascend910_9392);
    without it the NPU's. Ids, board ids and die ids are SIM values."""
    mine = [d for d in devices if d.npu_id == npu]
    if chip_id is None:
        lines = [
            ("NPU ID", npu),
            ("Product Name", "NA"),
            ("Model", "NA"),
            ("Manufacturer", "Huawei"),
            ("Serial Number", f"SIM{npu:013d}"),
            ("Board ID", "0x30"),
            ("PCB ID", "NA"),
            ("BOM ID", "1"),
            ("Chip Count", len(mine)),
            ("Faulty Chip Count", sum(1 for d in mine if not d.healthy)),
        ]
    else:
        d = next(d for d in mine if d.chip_id == chip_id)
        lines = [("NPU ID", npu), ("Chip ID", chip_id), ("Chip Type", "Ascend"), ("Chip Name", chip.board_chip_name)]
        if chip.board_npu_name and npu_name:
            lines.append(("NPU Name", chip.board_npu_name))
        lines += [
            ("Chip Version", "V1"),
            ("Board ID", "0x30"),
            ("PCB ID", "NA"),
            ("BOM ID", "1"),
            ("Chip Position ID", chip_id),
            ("PCIe Bus Info", d.bus_id),
            ("Firmware Version", "NA"),
        ]
    return "\n".join(_board_line(k, v) for k, v in lines) + "\n"


# UNVERIFIED (docs/cann-formats.md §8.1): the real tool's wording and status for an id it does not have.
BAD_ID = "Error: the {what} id {value} is invalid; valid {what} ids: {valid}.\n"


def _board(args: list[str], chip: Soc, devices: Sequence[NpuDevice], npu_name: bool = True) -> int:
    opts: dict[str, str] = {}
    rest = args[3:]
    while rest:
        flag, *rest = rest
        if flag not in ("-i", "-c") or not rest:
            sys.stderr.write(f"npu-smi {' '.join(args)}: expected -i <id> [-c <chip_id>]\n")
            return 1
        opts[flag], rest = rest[0], rest[1:]
    npus = sorted({d.npu_id for d in devices})
    if "-i" not in opts:
        sys.stderr.write(f"npu-smi {' '.join(args)}: expected -i <id> [-c <chip_id>]\n")
        return 1
    if not opts["-i"].isdigit() or int(opts["-i"]) not in npus:
        sys.stdout.write(BAD_ID.format(what="card", value=opts["-i"], valid=", ".join(map(str, npus))))
        return 1
    npu = int(opts["-i"])
    chips = sorted(d.chip_id for d in devices if d.npu_id == npu)
    if "-c" in opts and (not opts["-c"].isdigit() or int(opts["-c"]) not in chips):
        sys.stdout.write(BAD_ID.format(what="chip", value=opts["-c"], valid=", ".join(map(str, chips))))
        return 1
    sys.stdout.write(render_board(chip, devices, npu, int(opts["-c"]) if "-c" in opts else None, npu_name=npu_name))
    return 0


USAGE = """npu-smi (simulated): only 'npu-smi info' and 'npu-smi info -t board -i <id> [-c <chip_id>]' are
available in the simulated CANN toolkit.
"""


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    simconfig.banner()
    cfg = simconfig.load()
    chip = cfg.soc
    devices = simulated_devices(chip, cfg.devices)
    if args[:3] == ["info", "-t", "board"]:
        return _board(args, chip, devices, not cfg.extra.get(simconfig.EXTRA_BOARD_WITHOUT_NPU_NAME))
    if args != ["info"]:
        sys.stderr.write(f"npu-smi {' '.join(args)}: not simulated. " + USAGE)
        return 1
    sys.stdout.write(render_info(devices, cfg.driver_version, chip.style))
    return 0


if __name__ == "__main__":
    sys.exit(main())
