"""PMU values of a task for the columns :func:`chips.pmu_columns` chose.

Values are plausible, not measured: pipe ratios depend on whether the kernel is cube or vector
work, times are ratio x core time, cycles are core time x frequency x blocks. Derived columns are
computed from the already-rounded values so a reader recomputing them gets the file's numbers:
``memory_bound = mte2_ratio / max(mac_ratio, vec_ratio)`` and
``cube_utilization(%) = total_cycles / (freq * aic_num * duration) * 100``.
Rows of tasks without PMU data (AI_CPU, HCCL, DSA...) are ``N/A``; the idle core of a split chip
is ``0``, as in the real kernel_details samples.
"""

from __future__ import annotations

from .chips import Chip
from .fmt import NA, r3, r4
from .schedule import Task

_PMU_TYPES = {"AI_CORE", "AI_VECTOR_CORE", "MIX_AIC", "MIX_AIV"}


def _side_values(task: Task, chip: Chip, side: str, core_us: float, blocks: int) -> dict[str, str]:
    """Values keyed by unprefixed field name for one core side ('aic', 'aiv' or 'flat')."""
    r = task.rnd
    cube = task.op.is_cube and side != "aiv"
    ratios = {
        "mac": (0.55 + 0.35 * r[0]) if cube else 0.0,
        "vec": 0.0 if side == "aic" else (0.15 + 0.6 * r[1]) if not cube else 0.05 * r[1],
        "scalar": 0.05 + 0.45 * r[2],
        "mte1": (0.3 + 0.4 * r[3]) if cube else 0.0,
        "mte2": 0.3 + 0.67 * r[4],
        "mte3": 0.0 if side == "aic" else 0.08 + 0.35 * r[5],
        "fixpipe": (0.02 + 0.2 * r[6]) if cube else 0.0,
    }
    out: dict[str, str] = {}
    for k, v in ratios.items():
        out[f"{k}_ratio"] = r3(v)
        out[f"{k}_time(us)"] = r3(core_us * float(out[f"{k}_ratio"]))
    out["icache_miss_rate"] = r3(0.001 + 0.03 * r[7])
    mx = max(float(out["mac_ratio"]), float(out["vec_ratio"]))
    out["memory_bound"] = r3(float(out["mte2_ratio"]) / mx) if mx else "0"
    fops = task.op.flops
    elems = sum(t.elements for t in task.op.outputs) or 1
    fp16 = any(t.dtype in ("FLOAT16", "DT_BF16") for t in task.op.inputs)
    out.update(
        {
            "mac_fp16_ratio": r4(ratios["mac"] if fp16 else 0.0),
            "mac_int8_ratio": "0",
            "vec_fp32_ratio": r4(0 if fp16 else ratios["vec"] * 0.4),
            "vec_fp16_ratio": r4(ratios["vec"] * 0.4 if fp16 else 0),
            "vec_int32_ratio": r4(0.02 * r[3] if side != "aic" else 0),
            "vec_misc_ratio": r4(0.03 * r[5] if side != "aic" else 0),
            "cube_fops": str(fops if cube else 0),
            "vector_fops": str(0 if cube else elems * 4),
        }
    )
    bw = task.op.nbytes / max(core_us, 0.001) / 1000  # GB/s
    for i, name in enumerate(
        (
            "ub_read_bw(GB/s)",
            "ub_write_bw(GB/s)",
            "l1_read_bw(GB/s)",
            "l1_write_bw(GB/s)",
            "l2_read_bw",
            "l2_write_bw",
            "main_mem_read_bw(GB/s)",
            "main_mem_write_bw(GB/s)",
        )
    ):
        out[name] = r3(bw * (0.2 + r[i % 8]))
    for i, name in enumerate(
        (
            "l0a_read_bw(GB/s)",
            "l0a_write_bw(GB/s)",
            "l0b_read_bw(GB/s)",
            "l0b_write_bw(GB/s)",
            "l0c_read_bw(GB/s)",
            "l0c_write_bw(GB/s)",
            "l0c_read_bw_cube(GB/s)",
            "l0c_write_bw_cube(GB/s)",
        )
    ):
        out[name] = r3(bw * 2 * r[i % 8]) if cube else "0"
    for i, name in enumerate(
        ("ub_read_bw_vector(GB/s)", "ub_write_bw_vector(GB/s)", "ub_read_bw_scalar(GB/s)", "ub_write_bw_scalar(GB/s)")
    ):
        out[name] = r3(bw * (1.5 if i < 2 else 0.05) * (0.3 + r[i]))
    for i, name in enumerate(("vec_bankgroup_cflt_ratio", "vec_bank_cflt_ratio", "vec_resc_cflt_ratio")):
        out[name] = r3(0.1 * r[i + 2]) if side != "aic" else "0"
    kb = task.op.nbytes / 1024
    for i, name in enumerate(
        (
            "read_main_memory_datas(KB)",
            "write_main_memory_datas(KB)",
            "GM_to_L1_datas(KB)",
            "L0C_to_L1_datas(KB)",
            "L0C_to_GM_datas(KB)",
            "GM_to_UB_datas(KB)",
            "UB_to_GM_datas(KB)",
        )
    ):
        out[name] = r3(kb * (0.3 + r[i]))
    lines = max(1, task.op.nbytes // 512)
    for i, name in enumerate(
        (
            "write_cache_hit",
            "write_cache_miss_allocate",
            "r0_read_cache_hit",
            "r0_read_cache_miss_allocate",
            "r1_read_cache_hit",
            "r1_read_cache_miss_allocate",
        )
    ):
        out[name] = str(int(lines * (r[i] if i % 2 else 1 + r[i])))
    out["time"] = r3(core_us)
    out["total_cycles"] = str(int(core_us * chip.freq_mhz * blocks))
    return out


def _zeros(cols: list[str]) -> dict[str, str]:
    return {c: "0" for c in cols}


def pmu_row(task: Task, chip: Chip, cols: list[str]) -> list[str]:
    """The PMU cells of one task, in column order."""
    if not cols:
        return []
    if task.task_type not in _PMU_TYPES:
        return [NA] * len(cols)
    dur_us = task.dur_ns / 1000
    core_us = dur_us * (0.955 + 0.035 * task.rnd[7])
    values: dict[str, str] = {}
    if chip.split_pmu:
        aic_on = task.task_type in ("AI_CORE", "MIX_AIC")
        aiv_on = task.task_type in ("AI_VECTOR_CORE", "MIX_AIV", "MIX_AIC")
        aic_blocks = task.block_dim
        aiv_blocks = task.mix_block_dim if task.task_type == "MIX_AIC" else task.block_dim
        for side, on, blocks in (("aic", aic_on, aic_blocks), ("aiv", aiv_on, aiv_blocks)):
            names = [c for c in cols if c.startswith(f"{side}_")]
            if not on:
                values.update(_zeros(names))
                continue
            sv = _side_values(task, chip, side, core_us, blocks)
            values.update({c: sv[c[4:]] for c in names if c[4:] in sv})
            values[f"{side}_time(us)"] = sv["time"]
            values[f"{side}_total_cycles"] = sv["total_cycles"]
        values["aicore_time(us)"] = values.pop("aic_time(us)", "0")
        cycles = int(values.get("aic_total_cycles", "0"))
    else:
        sv = _side_values(task, chip, "flat", core_us, task.block_dim)
        values.update({c: sv[c] for c in cols if c in sv})
        values["aicore_time(us)"] = sv["time"]
        cycles = int(sv["total_cycles"])
        if not task.op.is_cube:
            cycles = 0
    values["cube_utilization(%)"] = r3(cycles / (chip.freq_mhz * chip.aic_num * dur_us) * 100) if cycles else "0"
    return [values[c] for c in cols]
