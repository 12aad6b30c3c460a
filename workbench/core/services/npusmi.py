"""Parse ``npu-smi info`` (the box-drawn device table, docs/cann-formats.md §8.1) into devices.

Two real layouts exist (see ../shared/samples/npu-smi):

* "310" (Ascend 310 / 310P): ``| NPU Name | Health | Power(W) Temp(C) Hugepages-Usage(page) |`` over
  ``| Chip Device | Bus-Id | AICore(%) Memory-Usage(MB) |``;
* "910" (HBM chips): the second header row is ``| Chip | Bus-Id | AICore(%) Memory-Usage(MB)
  HBM-Usage(MB) |``.

Each device takes two rows (name/health/power/temp/hugepages, then chip/device/bus/aicore/memory);
rows are told apart by the header, never by column index alone. ``Power(W)`` may be ``NA``.
A process table may follow; "No running processes found in NPU n" lines are skipped.

Atlas A3 nodes (§8.1) print the 910 layout with ``| Chip  Phy-ID | Bus-Id | ...`` as the second
header, **two chips per NPU** (chip 0 and 1, Phy-ID 0..15 over the node, a ``+-----+`` line between
the two chips of one NPU), ``Ascend910`` already in the Name column and ``-`` as the Power of the
second chip. The Phy-ID lands in ``device_id`` like the 310 layout's Device column.

The ``--soc_version`` a chip implies is ``"Ascend" + Name`` (ATC requires the npu-smi name
prefixed with "Ascend", §6.1): 310 -> Ascend310, 310P3 -> Ascend310P3, 910B -> Ascend910B,
910B2 -> Ascend910B2; a bare "910" is Ascend910 (ATC's alias of Ascend910A); a name that already
starts with "Ascend" is not prefixed again. The Atlas A3 ``Ascend910`` name does **not** tell the
soc_version: ATC wants ``<Chip Name>_<NPU Name>`` of ``npu-smi info -t board -i <npu> -c <chip>``
(e.g. Ascend910_9392; :func:`parse_npu_smi_board`, :meth:`NpuDevice.with_board`). Until the chip
answered, such a device has ``soc_version == ""`` and lists :data:`A3_SOC_VERSIONS` as its
``soc_candidates``: the choice is the user's, never a guess.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace

_PAIR = r"(\d+)\s*/\s*(\d+)"
_ROW1_VALUES = re.compile(r"^(?P<power>\S+)\s+(?P<temp>\S+)\s+" + _PAIR + r"$")
_ROW2_VALUES = re.compile(r"^(?P<aicore>\S+)\s+" + _PAIR + r"(?:\s+" + _PAIR + r")?$")
_VERSION = re.compile(r"npu-smi\s+(?P<smi>\S+)\s+Version:\s*(?P<ver>\S+)")
_NO_PROC = re.compile(r"No running processes found in NPU\s+(\d+)")

_BOARD_LINE = re.compile(r"^\s*(?P<key>[A-Za-z][\w ()%/.-]*?)\s*:\s*(?P<value>.*?)\s*$")
_NPU_NAME = re.compile(r"^[0-9A-Za-z]+$")

# Names whose ATC soc_version is not simply "Ascend" + name, and the other spellings ATC accepts.
SOC_ALTERNATIVES = {
    "910": ("Ascend910", "Ascend910A"),
    "910A": ("Ascend910A", "Ascend910"),
    "910B": ("Ascend910B", "Ascend910ProB"),
}
# The Atlas A3 --soc_version values (Chip Name "Ascend910" + "_" + NPU Name), from the SoC table of
# Ascend/RecSDK cust_op/ascendc_op/config/transform.json (docs/cann-formats.md §6.1, §8.1).
A3_SOC_VERSIONS = (
    "Ascend910_9391",
    "Ascend910_9392",
    "Ascend910_9381",
    "Ascend910_9382",
    "Ascend910_9372",
    "Ascend910_9362",
)
# npu-smi Names that do not tell the soc_version: the board query must (Atlas A3).
AMBIGUOUS_NAMES = {"Ascend910": A3_SOC_VERSIONS}


def soc_from_board(chip_name: str, npu_name: str = "") -> str:
    """``--soc_version`` from the board query's Chip Name / NPU Name: ``Ascend910`` + ``9392`` ->
    ``Ascend910_9392``; without an NPU Name ``"Ascend" + Chip Name`` (910B1 -> Ascend910B1)."""
    chip = chip_name if chip_name.startswith("Ascend") else "Ascend" + chip_name
    return f"{chip}_{npu_name}" if npu_name else chip


class NpuSmiParseError(ValueError):
    """``npu-smi info`` text that does not look like the real table; names source and line."""


@dataclass(frozen=True)
class NpuDevice:
    npu_id: int
    chip_id: int
    name: str  # as npu-smi prints it: "310", "310P3", "910B", "910B2"
    health: str  # OK, Warning, Alarm, Critical, ...
    power_w: float | None  # None when npu-smi prints NA
    temp_c: int | None
    hugepages_used: int
    hugepages_total: int
    bus_id: str
    aicore_percent: int | None
    memory_used_mb: int
    memory_total_mb: int
    hbm_used_mb: int | None = None
    hbm_total_mb: int | None = None
    device_id: int | None = None  # Device column (310 layout) / Phy-ID column (Atlas A3)
    power_text: str = ""  # the power cell as printed ("12.8", "NA", "-"), for faithful display
    board_chip_name: str = ""  # "Chip Name" of npu-smi info -t board -i <npu> -c <chip>, once asked
    board_npu_name: str = ""  # its "NPU Name" (Atlas A3: 9392, ...)

    @property
    def soc_ambiguous(self) -> bool:
        """True when npu-smi info's Name does not tell the soc_version and the chip was not asked."""
        return self.name in AMBIGUOUS_NAMES and not self.board_npu_name

    @property
    def soc_version(self) -> str:
        """The exact ``--soc_version``; "" while it is ambiguous (see :attr:`soc_candidates`)."""
        if self.soc_ambiguous:
            return ""
        if self.board_chip_name:
            return soc_from_board(self.board_chip_name, self.board_npu_name)
        return self.name if self.name.startswith("Ascend") else "Ascend" + self.name

    @property
    def soc_versions(self) -> tuple[str, ...]:
        """Every ``--soc_version`` spelling this chip accepts, the preferred first (none while
        ambiguous: the candidates are alternatives to choose from, not spellings)."""
        if self.soc_ambiguous:
            return ()
        if self.board_chip_name:
            return (self.soc_version,)
        return SOC_ALTERNATIVES.get(self.name, (self.soc_version,))

    @property
    def soc_candidates(self) -> tuple[str, ...]:
        """What the soc_version can be: the ambiguous name's candidates, else :attr:`soc_versions`."""
        return AMBIGUOUS_NAMES[self.name] if self.soc_ambiguous else self.soc_versions

    def with_board(self, board: "NpuBoard") -> "NpuDevice":
        """This device with the board query's chip name (the query must be for this NPU and chip)."""
        return replace(self, board_chip_name=board.chip_name, board_npu_name=board.npu_name)

    @property
    def healthy(self) -> bool:
        return self.health.upper() == "OK"


@dataclass(frozen=True)
class NpuBoard:
    """``npu-smi info -t board -i <npu> -c <chip>`` of one chip (``Key : value`` lines)."""

    npu_id: int
    chip_id: int
    chip_type: str  # "Ascend" for an NPU chip, "mcu" for the MCU
    chip_name: str  # "310B1", "910B1", Atlas A3: "Ascend910"
    npu_name: str  # Atlas A3 only ("9392"); "" when the line is absent
    fields: dict[str, str] = field(default_factory=dict)  # every line as printed

    @property
    def soc_version(self) -> str:
        return soc_from_board(self.chip_name, self.npu_name)


@dataclass(frozen=True)
class NpuProcess:
    npu_id: int
    chip_id: int
    pid: int
    name: str
    memory_mb: int


@dataclass(frozen=True)
class NpuSmiInfo:
    smi_version: str
    driver_version: str
    layout: str  # "310", "910" or "a3" (910 with the Chip Phy-ID column, two chips per NPU)
    devices: tuple[NpuDevice, ...]
    processes: tuple[NpuProcess, ...] = field(default=())
    warnings: tuple[str, ...] = ()  # what could not be asked (a board query that failed)

    @property
    def chips_per_npu(self) -> int:
        """The most chips one NPU shows (2 on Atlas A3 and 310P Duo cards)."""
        counts: dict[int, int] = {}
        for d in self.devices:
            counts[d.npu_id] = counts.get(d.npu_id, 0) + 1
        return max(counts.values(), default=1)

    def to_json(self) -> list[dict]:
        return [
            {
                "id": d.npu_id,
                "chip": d.name,
                "chip_id": d.chip_id,
                "device_id": d.device_id,
                "soc_version": d.soc_version or None,
                "soc_candidates": list(d.soc_candidates),
                "soc_ambiguous": d.soc_ambiguous,
                "health": d.health,
                "bus_id": d.bus_id,
                "power_w": d.power_w,
                "temp_c": d.temp_c,
                "aicore_percent": d.aicore_percent,
                "memory_used_mb": d.memory_used_mb,
                "memory_total_mb": d.memory_total_mb,
                "hbm_used_mb": d.hbm_used_mb,
                "hbm_total_mb": d.hbm_total_mb,
            }
            for d in self.devices
        ]


def _cells(line: str) -> list[str]:
    return [c.strip() for c in line.strip()[1:-1].split("|")]


def _int_or_none(text: str, where: str) -> int | None:
    if text.upper() in ("NA", "N/A", "-"):
        return None
    try:
        return int(float(text))
    except (ValueError, OverflowError):  # "abc", "nan", "inf"
        raise NpuSmiParseError(f"{where}: expected a number or NA, got {text!r}") from None


def _power(text: str, where: str) -> float | None:
    """Power(W): a number, or NA / - (Atlas A3 prints '-' for the second chip of an NPU)."""
    if text.upper() in ("NA", "N/A", "-"):
        return None
    try:
        value = float(text)
    except ValueError:
        value = float("nan")
    if value != value or value in (float("inf"), float("-inf")):
        raise NpuSmiParseError(f"{where}: expected a power in W, NA or -, got {text!r}")
    return value


def parse_npu_smi_info(text: str, source: str = "npu-smi info") -> NpuSmiInfo:
    """Parse the whole ``npu-smi info`` output. Raises NpuSmiParseError naming source and line."""
    lines = text.splitlines()
    smi = driver = ""
    layout = ""
    header_seen = 0
    devices: list[NpuDevice] = []
    processes: list[NpuProcess] = []
    pending: tuple[int, list[str]] | None = None
    in_procs = False
    for no, raw in enumerate(lines, 1):
        line = raw.rstrip()
        where = f"{source}: line {no}"
        if not line.startswith("|"):
            if pending is not None and line.startswith("+"):
                raise NpuSmiParseError(f"{where}: expected the second row of NPU {pending[1][0]!r}, got a separator")
            continue
        cells = _cells(line)
        m = _VERSION.search(line)
        if m and not smi:
            smi, driver = m.group("smi"), m.group("ver")
            continue
        if not smi:
            raise NpuSmiParseError(
                f"{where}: expected '| npu-smi <version> Version: <version> |' as the first row; "
                "is this the output of 'npu-smi info'?"
            )
        first = cells[0].split()
        if first[:2] == ["NPU", "Name"]:
            header_seen = 1
            continue
        if first[:1] == ["Chip"] and header_seen == 1:
            hbm = any("HBM-Usage" in c for c in cells)
            layout = ("a3" if "Phy-ID" in first else "910") if hbm else "310"
            header_seen = 2
            continue
        if first[:2] == ["NPU", "Chip"]:
            in_procs = True
            continue
        if _NO_PROC.search(line):
            continue
        if header_seen < 2:
            raise NpuSmiParseError(f"{where}: expected the 'NPU Name | Health' and 'Chip | Bus-Id' header rows first")
        if in_procs:
            processes.append(_process(cells, where))
            continue
        if pending is None:
            if len(cells) != 3 or len(first) != 2:
                raise NpuSmiParseError(
                    f"{where}: expected '| <npu> <name> | <health> | <power> <temp> <hugepages> |', "
                    f"got {line.strip()!r}"
                )
            pending = (no, cells)
            continue
        devices.append(_device(pending[1], cells, layout, f"{source}: lines {pending[0]}-{no}"))
        pending = None
    if pending is not None:
        raise NpuSmiParseError(f"{source}: line {pending[0]}: NPU row without its Chip/Bus-Id row")
    if not smi:
        raise NpuSmiParseError(
            f"{source}: line 1: expected '| npu-smi <version> Version: <version> |'; "
            "is this the output of 'npu-smi info'?"
        )
    if header_seen < 2:
        raise NpuSmiParseError(f"{source}: no device table header ('NPU Name | Health ...') found")
    return NpuSmiInfo(smi, driver, layout, tuple(devices), tuple(processes))


def _device(row1: list[str], row2: list[str], layout: str, where: str) -> NpuDevice:
    npu_text, name = row1[0].split()
    health = row1[1]
    m1 = _ROW1_VALUES.match(row1[2])
    if not m1:
        raise NpuSmiParseError(
            f"{where}: expected '<power> <temp> <used> / <total>' under Power(W)/Temp(C)/"
            f"Hugepages-Usage, got {row1[2]!r}"
        )
    ids = row2[0].split()
    if len(row2) != 3 or not ids or len(ids) > 2:
        raise NpuSmiParseError(f"{where}: expected '| <chip> [<device>] | <bus-id> | <aicore> <memory> ...|'")
    m2 = _ROW2_VALUES.match(row2[2])
    if not m2:
        raise NpuSmiParseError(
            f"{where}: expected '<aicore> <used> / <total>' under AICore(%)/Memory-Usage, got {row2[2]!r}"
        )
    pairs = [g for g in m2.groups()[1:]]
    if layout in ("910", "a3") and pairs[2] is None:
        raise NpuSmiParseError(
            f"{where}: expected an HBM-Usage '<used> / <total>' value (the header has HBM-Usage(MB))"
        )
    try:
        npu_id, chip_id = int(npu_text), int(ids[0])
        device_id = int(ids[1]) if len(ids) == 2 else None
    except ValueError:
        raise NpuSmiParseError(
            f"{where}: expected integer NPU/Chip/Device ids, got {npu_text!r} / {row2[0]!r}"
        ) from None
    power = m1.group("power")
    return NpuDevice(
        npu_id=npu_id,
        chip_id=chip_id,
        name=name,
        health=health,
        power_w=_power(power, where),
        temp_c=_int_or_none(m1.group("temp"), where),
        hugepages_used=int(m1.group(3)),
        hugepages_total=int(m1.group(4)),
        bus_id=row2[1],
        aicore_percent=_int_or_none(m2.group("aicore"), where),
        memory_used_mb=int(pairs[0]),
        memory_total_mb=int(pairs[1]),
        hbm_used_mb=int(pairs[2]) if pairs[2] is not None else None,
        hbm_total_mb=int(pairs[3]) if pairs[3] is not None else None,
        device_id=device_id,
        power_text=power,
    )


def _process(cells: list[str], where: str) -> NpuProcess:
    try:
        npu, chip = cells[0].split()
        return NpuProcess(int(npu), int(chip), int(cells[1]), cells[2], int(float(cells[3])))
    except (ValueError, IndexError, OverflowError):
        raise NpuSmiParseError(
            f"{where}: expected '| <npu> <chip> | <pid> | <name> | <memory> |' in the process table"
        ) from None


def parse_npu_smi_board(text: str, source: str = "npu-smi info -t board") -> NpuBoard:
    """Parse ``npu-smi info -t board -i <npu> -c <chip>`` (``        Chip Name    : Ascend910`` lines).

    Raises NpuSmiParseError naming the source when the NPU ID / Chip ID / Chip Name lines are missing."""
    fields: dict[str, str] = {}
    for raw in text.splitlines():
        m = _BOARD_LINE.match(raw)
        if m and m.group("key").strip() not in fields:
            fields[m.group("key").strip()] = m.group("value")
    missing = [k for k in ("NPU ID", "Chip ID", "Chip Name") if not fields.get(k)]
    if missing:
        raise NpuSmiParseError(
            f"{source}: expected '<key> : <value>' lines with {', '.join(missing)}; "
            "is this the output of 'npu-smi info -t board -i <id> -c <chip>'?"
        )
    try:
        npu_id, chip_id = int(fields["NPU ID"]), int(fields["Chip ID"])
    except ValueError:
        raise NpuSmiParseError(
            f"{source}: expected integer NPU ID / Chip ID, got {fields['NPU ID']!r} / {fields['Chip ID']!r}"
        ) from None
    npu_name = fields.get("NPU Name", "")
    if npu_name.upper() in ("NA", "N/A", "-"):
        npu_name = ""
    if npu_name and not _NPU_NAME.match(npu_name):
        raise NpuSmiParseError(f"{source}: NPU Name: expected letters and digits (e.g. 9392), got {npu_name!r}")
    chip_name = fields["Chip Name"].replace(" ", "")  # npu-smi info -m prints "Ascend 910B3"
    return NpuBoard(npu_id, chip_id, fields.get("Chip Type", ""), chip_name, npu_name, fields)


def soc_proposal(devices: tuple[NpuDevice, ...] | list[NpuDevice]) -> tuple[str | None, tuple[str, ...]]:
    """(the ``--soc_version`` to preselect or None, the candidates when the choice is ambiguous).

    The first healthy device decides; an ambiguous one proposes nothing and lists its candidates."""
    ordered = sorted(devices, key=lambda d: not d.healthy)
    if not ordered:
        return None, ()
    first = ordered[0]
    if first.soc_ambiguous:
        return None, first.soc_candidates
    return (first.soc_versions[0] if first.soc_versions else None), ()
