"""Lanes of a trace from its metadata: process/thread names and sort order, and device ids.

Processes are identified by ``process_name`` metadata, never by pid value. A device id comes from
explicit args/labels, from msprof 8.x pid packing ``(pid << 10) | (sort << 5) | device`` (device
31 = host) when the file uses it, or from the process kind (host processes have none).
"""

from __future__ import annotations

import re

import msgspec
import numpy as np

from .model import Lane

# Process names (CANN "component layers", torch_npu) that live on the host / on a device.
HOST_PROCESSES = {
    "Python",
    "python",
    "CANN",
    "AscendCL",
    "Runtime",
    "GE",
    "CPU Usage",
    "Memory Usage",
    "Network Usage",
    "Disk Usage",
    "OS Runtime API",
    "Python GC",
    "DPU",
    "MsTx",
    "Host",
    "HostCPU",
}
DEVICE_PROCESSES = {
    "Ascend Hardware",
    "AI Core Freq",
    "NPU MEM",
    "Overlap Analysis",
    "Communication",
    "HCCL",
    "Task Scheduler",
    "AI CPU",
    "Step Trace",
    "All Reduce",
    "HBM",
    "LLC",
    "PCIe",
    "HCCS",
    "NIC",
    "RoCE",
    "Acc PMU",
    "Stars Soc Info",
    "Stars Chip Trans",
    "SIO",
    "QoS",
    "Voltage Info",
    "Fusion Task",
    "DDR",
    "Device",
    "NPU",
}
_DIGITS = re.compile(r"(\d+)\s*$")
_HOST_DEVICE_ID = 31


class Proc:
    """What the metadata says about one process."""

    def __init__(self) -> None:
        self.name = ""
        self.labels = ""
        self.sort_index: int | None = None
        self.device_arg: int | None = None
        self.threads: dict[str, tuple[str, int | None]] = {}  # tid -> (thread_name, sort_index)


def _meta_value(raw: bytes, key: str):
    try:
        args = msgspec.json.decode(raw) if raw else {}
    except msgspec.DecodeError:
        return None
    return args.get(key) if isinstance(args, dict) else None


def _as_int(v) -> int | None:
    try:
        return int(v)
    except (TypeError, ValueError):
        return None


def read_meta(rows: list, procs: dict[str, Proc]) -> None:
    for pid, tid, name, raw in rows:
        proc = procs.setdefault(pid, Proc())
        if name == "process_name":
            proc.name = str(_meta_value(raw, "name") or "")
        elif name == "process_labels":
            proc.labels = str(_meta_value(raw, "labels") or "")
        elif name == "process_sort_index":
            proc.sort_index = _as_int(_meta_value(raw, "sort_index"))
        elif name == "thread_name":
            old = proc.threads.get(tid, ("", None))
            proc.threads[tid] = (str(_meta_value(raw, "name") or ""), old[1])
        elif name == "thread_sort_index":
            old = proc.threads.get(tid, ("", None))
            proc.threads[tid] = (old[0], _as_int(_meta_value(raw, "sort_index")))
        elif name in ("device_id", "process_device"):
            proc.device_arg = _as_int(_meta_value(raw, "device_id") or _meta_value(raw, "name"))


def packed_pids(procs: dict[str, Proc]) -> bool:
    """Does this file use msprof 8.x pid packing ``(pid << 10) | (sort << 5) | device``?"""
    ints = {p: v for p in procs if (v := _as_int(p)) is not None}
    ok = [p for p, v in ints.items() if v >= 1024]
    if not ok:
        return False
    with_sort = [p for p in ok if procs[p].sort_index is not None]
    if with_sort and all(((ints[p] >> 5) & 31) == procs[p].sort_index for p in with_sort):
        return True
    high = {ints[p] >> 10 for p in ok}
    return len(ok) >= 2 and len(high) == 1 and len({(ints[p] >> 5) & 31 for p in ok}) == len(ok)


def group_device(group: str, default_device: int | None) -> int | None:
    """A ``device_N`` folder (CANN 5/6 layout) names the device of its files."""
    m = re.search(r"(?:^|[/\\])device_(\d+)(?:$|[/\\])", group)
    return int(m.group(1)) if m else default_device


def device_of(pid: str, proc: Proc, packed: bool, default_device: int | None) -> int | None:
    if proc.device_arg is not None:
        return proc.device_arg
    m = _DIGITS.search(proc.labels)
    if m and proc.labels.upper().startswith(("NPU", "DEVICE")):
        return int(m.group(1))
    if packed:
        dev = int(pid) & 31
        return None if dev == _HOST_DEVICE_ID else dev
    if proc.name in HOST_PROCESSES or proc.labels.upper() == "CPU":
        return None
    if proc.name in DEVICE_PROCESSES or proc.labels.upper() == "NPU":
        return default_device
    return None


def _num_key(text: str) -> tuple:
    v = _as_int(text)
    return (0, v, "") if v is not None else (1, 0, text)


def build_lanes(
    groups: list[str],
    keys: list[tuple[str, str, str]],
    procs_by_group: dict,
    packed_by_group: dict,
    default_device: int | None,
):
    """Lanes in display order; returns (lane records, old index -> new index)."""
    rows = []
    for old, (group, pid, tid) in enumerate(keys):
        proc = procs_by_group[group].get(pid) or Proc()
        tname, tsort = proc.threads.get(tid, ("", None))
        psort = proc.sort_index if proc.sort_index is not None else (1 << 62)
        order = (
            psort,
            groups.index(group),
            _num_key(pid),
            tsort if tsort is not None else (1 << 62),
            _num_key(tid),
            pid,
            tid,
        )  # the texts last: the order never depends on how the file was read
        rows.append((order, old, group, pid, tid, proc, tname))
    rows.sort(key=lambda r: r[0])
    lanes, remap = [], np.zeros(max(len(keys), 1), dtype=np.int32)
    for new, (_, old, group, pid, tid, proc, tname) in enumerate(rows):
        device = device_of(pid, proc, packed_by_group[group], group_device(group, default_device))
        lanes.append(
            Lane(
                index=new,
                pid=pid,
                tid=tid,
                process_name=proc.name,
                thread_name=tname,
                device=device,
                sort_index=new,
                is_stream=proc.name == "Ascend Hardware",
            )
        )
        remap[old] = new
    return lanes, remap
