"""Which AI Core metric groups (``--aic-metrics``) a chip supports: pure data shared by the
System Profiler (what the wizard offers) and the simulated toolkit's data generator.

Source: docs/cann-formats.md §1.1 (hiascend aclprofAicoreMetrics / ProfilingAicoreMetrics pages,
Ascend/msprof ai_core_metrics_manager.py): six groups exist on every chip; ``L2Cache`` only on
Atlas A2/A3 and Atlas 200I/500 A2, ``MemoryAccess`` only on A2/A3, ``PipelineExecuteUtilization``
only on Atlas 200I/500 A2. A2/A3 are the "chip v4" products whose op_summary splits PMU columns
into ``aic_``/``aiv_`` pairs.

SoC names are the ``--soc_version`` spellings ("Ascend" + the npu-smi Name): A2 = Ascend910B1..B4,
A3 = Ascend910_93xx, 200I/500 A2 = Ascend310B1..B4. The bare ``Ascend910B`` (npu-smi "910B",
ATC's Ascend910ProB) is the older 910 family, not an A2.
"""

from __future__ import annotations

import re

COMMON_GROUPS = ("PipeUtilization", "ArithmeticUtilization", "Memory", "MemoryL0", "MemoryUB", "ResourceConflictRatio")
L2_CACHE, MEMORY_ACCESS, PIPE_EXECUTE = "L2Cache", "MemoryAccess", "PipelineExecuteUtilization"
ALL_GROUPS = (*COMMON_GROUPS, L2_CACHE, PIPE_EXECUTE, MEMORY_ACCESS)
# Groups only the A2/A3 ("chip v4") products have among the ones both families could name.
A2_ONLY_GROUPS = (L2_CACHE, MEMORY_ACCESS)
DEFAULT_GROUP = "PipeUtilization"

_A2_A3 = re.compile(r"^Ascend910(B\d|_93\d*|C\d*)", re.IGNORECASE)
_310B = re.compile(r"^Ascend310B\d*$", re.IGNORECASE)


def family(soc_version: str) -> str:
    """``"a2a3"``, ``"310b"`` (Atlas 200I/500 A2) or ``"classic"`` (910, 310, 310P ...)."""
    if _A2_A3.match(soc_version or ""):
        return "a2a3"
    if _310B.match(soc_version or ""):
        return "310b"
    return "classic"


def split_pmu(soc_version: str) -> bool:
    """True where op_summary has ``aic_``/``aiv_`` PMU column pairs (A2/A3)."""
    return family(soc_version) == "a2a3"


def metric_groups(soc_version: str | None) -> tuple[str, ...]:
    """The ``--aic-metrics`` groups the chip supports, in the order the wizard lists them.
    Unknown chip (``None`` / ""): only the groups every chip has."""
    fam = family(soc_version or "")
    if fam == "a2a3":
        return (*COMMON_GROUPS, L2_CACHE, MEMORY_ACCESS)
    if fam == "310b":
        return (*COMMON_GROUPS, L2_CACHE, PIPE_EXECUTE)
    return COMMON_GROUPS
