"""What the chip and the CANN version change in the output: task types, PMU columns, header names.

Sources: docs/cann-formats.md §1.3 (platform_version), §2.1 (op_summary headers per
version, PMU groups, aic_/aiv_ split on "chip v4" products) and the two real torch_npu
kernel_details samples, whose PMU tails (PipeUtilization and ArithmeticUtilization on a 910B-class
chip) are reproduced exactly. For the other metric groups the reference lists the field names but
not which core type carries which field; there both aic_ and aiv_ get the full set (UNVERIFIED).
"""

from __future__ import annotations

from dataclasses import dataclass

from workbench.core.profiler.chips import A2_ONLY_GROUPS

CANN_VERSIONS = ("8.0.RC1", "7.0.0", "6.0.1", "5.1.RC2")
AIC_METRICS = (
    "PipeUtilization",
    "ArithmeticUtilization",
    "Memory",
    "MemoryL0",
    "MemoryUB",
    "ResourceConflictRatio",
    "L2Cache",
    "MemoryAccess",
)


@dataclass(frozen=True)
class Chip:
    soc: str
    chip_name: str  # as npu-smi shows it
    platform_version: str  # device info.json value (reference §1.3)
    split_pmu: bool  # aic_/aiv_ columns ("chip v4")
    aic_num: int
    aiv_num: int
    freq_mhz: int
    cube_flops: float  # fp16 peak, FLOP/s
    vec_flops: float
    mem_bw: float  # bytes/s
    hbm_kb: int

    def task_type(self, core: str) -> str:
        """The Task Type a kernel of the given preferred core gets on this chip."""
        if core in ("AI_CPU", "HCCL", "DSA_SQE", "COMMUNICATION", "MEMCPY_ASYNC"):
            return core
        if self.split_pmu:
            return core
        if core == "AI_VECTOR_CORE" and self.aiv_num:
            return core
        return "AI_CORE"


CHIPS = {
    "Ascend910B2": Chip("Ascend910B2", "910B2", "5", True, 24, 48, 1800, 350e12, 22e12, 1.6e12, 64 * 1024 * 1024),
    "Ascend910B3": Chip("Ascend910B3", "910B3", "5", True, 20, 40, 1800, 300e12, 18e12, 1.6e12, 64 * 1024 * 1024),
    "Ascend910B4": Chip("Ascend910B4", "910B4", "5", True, 20, 40, 1650, 280e12, 16e12, 0.8e12, 32 * 1024 * 1024),
    "Ascend910": Chip("Ascend910", "910", "1", False, 32, 0, 1000, 256e12, 16e12, 1.2e12, 32 * 1024 * 1024),
    "Ascend310P3": Chip("Ascend310P3", "310P3", "4", False, 8, 7, 1080, 44e12, 4e12, 0.2e12, 24 * 1024 * 1024),
    "Ascend310": Chip("Ascend310", "310", "0", False, 2, 0, 900, 8e12, 1e12, 0.05e12, 8 * 1024 * 1024),
}


def chip(soc: str) -> Chip:
    try:
        return CHIPS[soc]
    except KeyError:
        raise ValueError(f"soc: unknown SoC {soc!r}; expected one of {', '.join(CHIPS)}") from None


@dataclass(frozen=True)
class Cann:
    version: str
    legacy: bool  # CANN 5/6 "device_N/summary" layout and old headers
    block_word: str  # "Dim" (≤8.1) or "Num"
    op_state: bool  # OP State / HF32 Eligible columns


def cann(version: str) -> Cann:
    parts = version.split(".")
    try:
        major, minor = int(parts[0]), int(parts[1])
    except (IndexError, ValueError):
        raise ValueError(f"cann_version: {version!r} is not a CANN version like 8.0.RC1") from None
    if major < 5 or major > 9:
        raise ValueError(
            f"cann_version: {version!r} unsupported; expected 5.x to 8.x (e.g. {', '.join(CANN_VERSIONS)})"
        )
    return Cann(version, major <= 6, "Num" if (major, minor) >= (8, 2) else "Dim", major >= 8)


# ---- PMU columns -------------------------------------------------------------------------------

_PIPE_AIC = ["mac", "scalar", "mte1", "mte2", "fixpipe"]
_PIPE_AIV = ["vec", "scalar", "mte2", "mte3"]
_PIPE_FLAT = ["vec", "mac", "scalar", "mte1", "mte2", "mte3"]
_ARITH_AIC = ["mac_fp16_ratio", "mac_int8_ratio", "cube_fops", "vector_fops"]
_ARITH_AIV = ["vec_fp32_ratio", "vec_fp16_ratio", "vec_int32_ratio", "vec_misc_ratio", "cube_fops", "vector_fops"]
_ARITH_FLAT = [
    "mac_fp16_ratio",
    "mac_int8_ratio",
    "vec_fp32_ratio",
    "vec_fp16_ratio",
    "vec_int32_ratio",
    "vec_misc_ratio",
    "cube_fops",
    "vector_fops",
]
_GROUP_FIELDS = {
    "Memory": [
        "ub_read_bw(GB/s)",
        "ub_write_bw(GB/s)",
        "l1_read_bw(GB/s)",
        "l1_write_bw(GB/s)",
        "l2_read_bw",
        "l2_write_bw",
        "main_mem_read_bw(GB/s)",
        "main_mem_write_bw(GB/s)",
    ],
    "MemoryL0": [
        "l0a_read_bw(GB/s)",
        "l0a_write_bw(GB/s)",
        "l0b_read_bw(GB/s)",
        "l0b_write_bw(GB/s)",
        "l0c_read_bw(GB/s)",
        "l0c_write_bw(GB/s)",
        "l0c_read_bw_cube(GB/s)",
        "l0c_write_bw_cube(GB/s)",
    ],
    "MemoryUB": [
        "ub_read_bw_vector(GB/s)",
        "ub_write_bw_vector(GB/s)",
        "ub_read_bw_scalar(GB/s)",
        "ub_write_bw_scalar(GB/s)",
    ],
    "ResourceConflictRatio": ["vec_bankgroup_cflt_ratio", "vec_bank_cflt_ratio", "vec_resc_cflt_ratio"],
    "MemoryAccess": [
        "read_main_memory_datas(KB)",
        "write_main_memory_datas(KB)",
        "GM_to_L1_datas(KB)",
        "L0C_to_L1_datas(KB)",
        "L0C_to_GM_datas(KB)",
        "GM_to_UB_datas(KB)",
        "UB_to_GM_datas(KB)",
    ],
    "L2Cache": [
        "write_cache_hit",
        "write_cache_miss_allocate",
        "r0_read_cache_hit",
        "r0_read_cache_miss_allocate",
        "r1_read_cache_hit",
        "r1_read_cache_miss_allocate",
    ],
}
_SPLIT_ONLY = A2_ONLY_GROUPS  # A2/A3 only (reference §1.1; shared with the System Profiler)


def _pipe(names: list[str]) -> list[str]:
    return [c for n in names for c in (f"{n}_time(us)", f"{n}_ratio")]


def pmu_columns(c: Chip, group: str | None) -> list[str]:
    """The PMU tail of op_summary / kernel_details (after ``Context ID``) for chip and metric group."""
    if group is None:
        return []
    if group not in AIC_METRICS:
        raise ValueError(f"aic_metrics: unknown group {group!r}; expected one of {', '.join(AIC_METRICS)}")
    if group in _SPLIT_ONLY and not c.split_pmu:
        raise ValueError(f"aic_metrics: {group} is not available on {c.soc} (Atlas A2/A3 only)")
    if c.split_pmu:
        if group == "PipeUtilization":
            aic, aiv = _pipe(_PIPE_AIC) + ["icache_miss_rate"], _pipe(_PIPE_AIV) + ["icache_miss_rate"]
        elif group == "ArithmeticUtilization":
            aic, aiv = _ARITH_AIC, _ARITH_AIV
        else:
            aic = aiv = _GROUP_FIELDS[group]
        cols = [
            "aicore_time(us)",
            "aic_total_cycles",
            *(f"aic_{n}" for n in aic),
            "aiv_time(us)",
            "aiv_total_cycles",
            *(f"aiv_{n}" for n in aiv),
        ]
        return cols + (["cube_utilization(%)"] if group == "PipeUtilization" else [])
    if group == "PipeUtilization":
        body = _pipe(_PIPE_FLAT) + ["icache_miss_rate", "memory_bound", "cube_utilization(%)"]
    elif group == "ArithmeticUtilization":
        body = _ARITH_FLAT
    else:
        body = _GROUP_FIELDS[group]
    return ["aicore_time(us)", "total_cycles", *body]
