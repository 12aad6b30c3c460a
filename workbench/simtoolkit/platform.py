"""What the simulated toolkit can pretend to be: CANN versions and Ascend SoCs.

Facts taken from docs/cann-formats.md and the real samples are marked REAL; the
rest are realistic values chosen for the simulator (marked SIM) — the real tools never read them.

- ``CannRelease.component`` is the 5-part version the om stores in ``atc_version``/``opp_version``
  (REAL for 5.1.RC2 ``1.82.22.2.220`` from samples/atc-om2json-310-cann5.1, 6.0.1
  ``1.84.15.1.310`` from an ``ascend_toolkit_install.info`` quoted in the reference; SIM otherwise).
- ``CannRelease.driver`` is the driver (and npu-smi) release usually installed with it (SIM pairing).
- ``CannRelease.modern_output``: 7.0+ writes ``PROF_*/mindstudio_profiler_output``; 5.x/6.x write
  ``device_N/summary`` + ``timeline`` (REAL, reference §1.3).
- ``CannRelease.pid_prefix``: 8.x error-manager lines carry ``[PID: n] timestamp`` (REAL, §6.2).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class CannRelease:
    version: str
    component: str
    inner_version: str
    driver: str
    modern_output: bool
    pid_prefix: bool


RELEASES: dict[str, CannRelease] = {
    r.version: r
    for r in (
        CannRelease("8.0.RC1", "7.2.T7.0.B121", "V100R001C17SPC001B121", "24.1.rc1", True, True),
        CannRelease("7.0.0", "7.0.0.5.242", "V100R001C15SPC002B224", "23.0.0", True, False),
        CannRelease("6.0.1", "1.84.15.1.310", "V100R001C29SPC001B220", "22.0.4", False, False),
        CannRelease("5.1.RC2", "1.82.22.2.220", "V100R001C82B220", "22.0.2", False, False),
    )
}
DEFAULT_CANN = "8.0.RC1"


@dataclass(frozen=True)
class Soc:
    """One Ascend chip model as npu-smi shows it.

    ``style`` selects the npu-smi table layout (REAL, samples/npu-smi): "310" (Chip/Device column,
    Memory-Usage only), "910" (HBM-Usage column) or "a3" (910 widths, ``Chip  Phy-ID`` column, two
    chips per NPU). ``memory_mb`` cycles over devices.
    """

    soc_version: str
    npu_name: str
    style: str
    memory_mb: tuple[int, ...]
    hbm_mb: int | None
    power_w: float | None
    temp_c: int
    hugepages_total: int
    target_type: str
    ai_cores: int
    chips_per_npu: int = 1  # Atlas A3: 2 (chip 0 and 1 of each NPU, REAL layout, docs §8.1)

    @property
    def board_chip_name(self) -> str:
        """``Chip Name`` of ``npu-smi info -t board -i N -c C`` (A3: Ascend910; else the npu-smi Name)."""
        return self.soc_version.split("_", 1)[0] if "_" in self.soc_version else self.npu_name

    @property
    def board_npu_name(self) -> str:
        """``NPU Name`` of the board query (A3 only: Ascend910_9392 -> 9392), "" for other chips."""
        return self.soc_version.split("_", 1)[1] if "_" in self.soc_version else ""


SOCS: dict[str, Soc] = {
    s.soc_version: s
    for s in (
        # REAL values from npu-smi-info_310_23.0.0.txt
        Soc("Ascend310", "310", "310", (7759,), None, 12.8, 61, 969, "MINI", 2),
        # REAL values from npu-smi-info_310P3_25.3.rc1.txt (Power NA)
        Soc("Ascend310P3", "310P3", "310", (21525,), None, None, 50, 0, "MINI", 8),
        # REAL values from npu-smi-info_910_8card_24.1.0.txt (Name 910B, 32 GB HBM)
        Soc("Ascend910B", "910B", "910", (13553, 15665, 15665, 15567), 32768, 70.0, 34, 0, "CLOUD", 30),
        Soc("Ascend910A", "910A", "910", (13553, 15665, 15665, 15567), 32768, 70.0, 34, 0, "CLOUD", 32),
        # Atlas A2 (SIM values: 64 GB HBM, device DDR not reported)
        Soc("Ascend910B1", "910B1", "910", (0,), 65536, 95.0, 36, 0, "CLOUD", 24),
        Soc("Ascend910B2", "910B2", "910", (0,), 65536, 92.0, 36, 0, "CLOUD", 24),
        Soc("Ascend910B3", "910B3", "910", (0,), 65536, 90.0, 35, 0, "CLOUD", 20),
        Soc("Ascend910B4", "910B4", "910", (0,), 32768, 85.0, 35, 0, "CLOUD", 20),
    )
}
# Atlas A3 (REAL layout of npu-smi 24.1.rc3.7 / 25.2.1: Name "Ascend910", 2 chips per NPU, HBM 65536,
# Power "-" on chip 1; the soc_version exists only in the board query). SIM: power, temp, AI cores.
# Kept apart from SOCS: their npu-smi info table cannot name the soc_version, the board query does.
BOARD_SOCS: dict[str, Soc] = {
    s.soc_version: s
    for s in (
        Soc("Ascend910_9392", "Ascend910", "a3", (0,), 65536, 178.0, 36, 0, "CLOUD", 24, chips_per_npu=2),
        Soc("Ascend910_9382", "Ascend910", "a3", (0,), 65536, 166.0, 37, 0, "CLOUD", 24, chips_per_npu=2),
    )
}
# ``--soc Ascend910`` is accepted like ATC accepts it: the plain 910 is the A variant.
SOC_ALIASES = {"Ascend910": "Ascend910A"}
DEFAULT_SOC = "Ascend910B2"


def release(version: str) -> CannRelease:
    try:
        return RELEASES[version]
    except KeyError:
        raise ValueError(f"CANN version {version!r} is not simulated; expected one of {', '.join(RELEASES)}") from None


def soc(name: str) -> Soc:
    key = SOC_ALIASES.get(name, name)
    found = SOCS.get(key) or BOARD_SOCS.get(key)
    if found is None:
        names = ", ".join([*SOCS, *SOC_ALIASES, *BOARD_SOCS])
        raise ValueError(f"SoC {name!r} is not simulated; expected one of {names}")
    return found


def find_soc(name: str) -> Soc | None:
    """The simulated chip of a ``--soc_version`` (aliases too), None when it is not simulated."""
    key = SOC_ALIASES.get(name, name)
    return SOCS.get(key) or BOARD_SOCS.get(key)
