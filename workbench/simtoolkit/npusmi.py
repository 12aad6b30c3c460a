"""Simulated ``npu-smi``: prints the real ``npu-smi info`` table for the configured chips.

The two table layouts and their column widths are those of the real outputs in
../shared/samples/npu-smi (a test re-renders each sample from its parsed values and compares the
text byte for byte). Values per device are deterministic: the same install prints the same table.
Only ``npu-smi info`` is simulated; other sub-commands print what is missing and exit 1.
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


def simulated_devices(chip: Soc, count: int) -> list[NpuDevice]:
    """The devices a simulated host of ``count`` ``chip`` cards reports (deterministic)."""
    out = []
    for i in range(count):
        wobble = (i * 37) % 11 - 5  # -5..5, fixed per device
        memory_total = chip.memory_mb[i % len(chip.memory_mb)]
        hbm_total = chip.hbm_mb
        if chip.style == "910":
            bus = f"0000:{_BUS_910[i] if i < len(_BUS_910) else format(0x10 + i, '02X')}:00.0"
        else:
            bus = f"0000:{i + 1:02X}:00.0"
        power = None if chip.power_w is None else round(chip.power_w + wobble * 0.45, 1)
        out.append(
            NpuDevice(
                npu_id=i,
                chip_id=0,
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
                device_id=i if chip.style == "310" else None,
                power_text="NA" if power is None else f"{power:.1f}",
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
    w = _WIDTHS[layout]
    total = sum(w) + len(w) - 1
    head = f"npu-smi {driver_version}".ljust(49 if layout == "310" else 33) + f"Version: {driver_version}"
    out = [_full(w), "| " + head.ljust(total - 1) + "|", _line(w)]
    if layout == "310":
        out.append(_row(["NPU     Name", "Health", "Power(W)     Temp(C)           Hugepages-Usage(page)"], w))
        out.append(_row(["Chip    Device", "Bus-Id", "AICore(%)    Memory-Usage(MB)"], w))
    else:
        out.append("| NPU   Name                | Health        | Power(W)    Temp(C)           Hugepages-Usage(page)|")
        out.append(_row(["Chip", "Bus-Id", "AICore(%)   Memory-Usage(MB)  HBM-Usage(MB)"], w))
    out.append(_line(w, "="))
    for d in devices:
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
            out.append(
                _row(
                    [str(d.chip_id), d.bus_id, f"{aicore:<12}{f'{d.memory_used_mb:<5}/ {d.memory_total_mb}':<18}{hbm}"],
                    w,
                )
            )
        out.append(_line(w, "="))
    out.append(_line(w))
    proc_left = "NPU     Chip"
    name_w = 25
    out.append(_row([proc_left, "Process id", "Process name".ljust(name_w) + "| Process memory(MB)"], w))
    out.append(_line(w, "="))
    for d in devices:
        out.append(_text_row(w, f"No running processes found in NPU {d.npu_id}"))
        out.append(_line(w, "="))
    return "\n".join(out) + "\n"


USAGE = """npu-smi (simulated): only 'npu-smi info' is available in the simulated CANN toolkit.
"""


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    simconfig.banner()
    cfg = simconfig.load()
    if args != ["info"]:
        sys.stderr.write(f"npu-smi {' '.join(args)}: not simulated. " + USAGE)
        return 1
    chip = cfg.soc
    sys.stdout.write(render_info(simulated_devices(chip, cfg.devices), cfg.driver_version, chip.style))
    return 0


if __name__ == "__main__":
    sys.exit(main())
