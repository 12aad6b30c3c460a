"""Facts about each side (chip, CANN version, model, PMU group, devices), device pairing, and
the warnings when the two sides differ in a way that makes the numbers less comparable."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any

import numpy as np
import pandas as pd

from workbench.core.compare.model import CompareError
from workbench.core.profiling.report import Report

# Keys of the info JSON files (host/device info.json, profiler_info.json) that name a fact.
CHIP_KEYS = ("chip_name", "soc_version", "soc", "chip")
CANN_KEYS = ("cann_version", "CANN_VERSION")
# Tables whose absence on one side is worth saying (the rest are optional extras).
CHECKED_TABLES = {
    "ops": ("OPs table (op_summary / kernel_details)", "all its OP rows show as added / removed"),
    "ai_core_metrics": ("AI Core metrics (PMU data)", "AI Core metrics are not compared"),
    "step_trace_time": ("step_trace_time table", "step trace rows are left out"),
}


def _walk(value: Any) -> Iterator[tuple[str, Any]]:
    if isinstance(value, dict):
        for k, v in value.items():
            yield str(k), v
            yield from _walk(v)
    elif isinstance(value, list):
        for item in value:
            yield from _walk(item)


def _first_value(info: dict[str, Any], keys: Iterable[str]) -> str | None:
    wanted = set(keys)
    for k, v in _walk(info):
        if k in wanted and isinstance(v, (str, int, float)) and str(v).strip():
            return str(v).strip()
    return None


def chip_of(report: Report) -> str | None:
    chip = _first_value(report.info, CHIP_KEYS)
    if chip is None:
        platform = _first_value(report.info, ("platform_version",))
        chip = f"platform_version {platform}" if platform else None
    return chip


def cann_of(report: Report) -> str | None:
    found = _first_value(report.info, CANN_KEYS)
    if found is None:  # msprof's host/info.json carries the toolkit version as "version"
        host = report.info.get("host/info.json")
        if isinstance(host, dict) and host.get("version"):
            found = str(host["version"])
    return found


def model_of(report: Report) -> str | None:
    for table in ("ops", "op_statistic"):
        frame = report.tables.get(table)
        if frame is not None and "model_name" in frame.columns:
            names = sorted({str(v) for v in pd.unique(frame["model_name"].dropna())})
            if names:
                return ", ".join(names)
    return None


def op_devices(report: Report) -> list[int]:
    """Devices of the OPs table (the report's devices when the table has no device column)."""
    ops = report.tables.get("ops")
    if ops is not None and "device" in ops.columns and len(ops):
        return sorted(int(d) for d in pd.unique(ops["device"].dropna()))
    return sorted(report.devices)


def pair_devices(
    base: list[int], current: list[int], pairs: list[tuple[int, int]] | None, warnings: list[str]
) -> list[tuple[int, int]]:
    """The (base device, current device) pairs to compare: the user's, else the same IDs, else in
    order (saying so). Devices left out are named in ``warnings``."""
    if pairs:
        for side, devices, wanted in (
            ("base", base, [p[0] for p in pairs]),
            ("current", current, [p[1] for p in pairs]),
        ):
            missing = [d for d in wanted if d not in devices]
            if missing and devices:
                raise CompareError(
                    f"{side}: no device {', '.join(map(str, missing))} "
                    f"(its devices: {', '.join(map(str, devices)) or 'none'})"
                )
        chosen = list(pairs)
    else:
        common = sorted(set(base) & set(current))
        chosen = [(d, d) for d in common] if common else list(zip(base, current))
    differing = [p for p in chosen if p[0] != p[1]]
    if differing:
        warnings.append(
            "different device IDs: "
            + ", ".join(f"base device {b} compared with current device {c}" for b, c in differing)
        )
    for side, devices, used in (("base", base, {p[0] for p in chosen}), ("current", current, {p[1] for p in chosen})):
        left = [d for d in devices if d not in used]
        if left:
            warnings.append(
                f"{side} device(s) {', '.join(map(str, left))} left out of the comparison "
                "(no counterpart on the other side)"
            )
    return chosen


def device_slice(frame: pd.DataFrame | None, devices: list[int]) -> pd.DataFrame:
    """Rows of ``frame`` on ``devices`` (the whole frame when it has no device column or all match)."""
    if frame is None or not len(frame.columns):
        return pd.DataFrame()
    if "device" not in frame.columns or not len(frame):
        return frame
    dev = frame["device"]
    keep = np.asarray(dev.isin(devices), dtype=bool)
    if keep.all():
        return frame
    return frame[keep].reset_index(drop=True)


def fact_warnings(
    base: Report, current: Report, base_facts: dict[str, Any], current_facts: dict[str, Any]
) -> list[str]:
    """Differences in collection facts: kind, chip, CANN version, model, PMU group, missing tables."""
    out: list[str] = []
    if base.kind != current.kind:
        out.append(
            f"different kinds of report: base is {base.kind} output, current is {current.kind} output "
            "(OPs are matched by key; the tools may count time differently)"
        )
    for fact, label in (
        ("chip", "chip / SoC"),
        ("cann_version", "CANN version"),
        ("model_name", "model name"),
        ("pmu_group", "AI Core PMU group"),
    ):
        b, c = base_facts.get(fact), current_facts.get(fact)
        if b is not None and c is not None and b != c:
            out.append(f"different {label}: base {b}, current {c}")
        elif (b is None) != (c is None) and fact != "pmu_group":  # a missing PMU table is said below
            known, value = ("base", b) if b is not None else ("current", c)
            other = "current" if known == "base" else "base"
            out.append(f"{label} not recorded in {other} (the {known} has {value}): cannot check that they match")
    for table, (label, effect) in CHECKED_TABLES.items():
        has_b, has_c = table in base.tables, table in current.tables
        if has_b != has_c:
            missing = "current" if has_b else "base"
            out.append(f"{missing} has no {label}: {effect}")
        elif not has_b and table == "ops":
            out.append(f"neither report has an {label}: no OP rows to compare")
    return out
