"""The real torch_npu memory + communication sample as a report folder, changed copies of it, and
independent readings of its files (csv / json + Decimal only) for the memory and communication
comparison tests."""

from __future__ import annotations

import csv
import json
import os
import re
import shutil
import subprocess
import sys
from collections.abc import Callable
from decimal import Decimal
from pathlib import Path

SAMPLE = "torch_npu-910B-rank0-comm-mem"
KERNELS = ("torch_npu-kernel_details-pipe", "kernel_details.csv")
PEAK_COLUMNS = {"allocated": "Total Allocated(MB)", "reserved": "Total Reserved(MB)"}


def make_report(samples: Path, dst: Path, with_files: tuple[str, ...] | None = None) -> Path:
    """``dst/rank0_ascend_pt`` holding the sample's files (all, or ``with_files``) in
    ASCEND_PROFILER_OUTPUT, beside the real kernel_details sample (a torch_npu output has one)."""
    out = dst / "rank0_ascend_pt" / "ASCEND_PROFILER_OUTPUT"
    out.mkdir(parents=True)
    for src in sorted((samples / SAMPLE).iterdir()):
        if with_files is None or src.name in with_files:
            shutil.copy(src, out / src.name)
    shutil.copy(samples.joinpath(*KERNELS), out / "kernel_details.csv")
    return out.parent


def output(report: Path) -> Path:
    return report / "ASCEND_PROFILER_OUTPUT"


def cell(text: str) -> str:
    return text.strip()  # timestamps end in a TAB in these files


def read_rows(path: Path) -> tuple[list[str], list[list[str]]]:
    with open(path, newline="", encoding="utf-8") as fh:
        rows = [r for r in csv.reader(fh) if r]
    return rows[0], rows[1:]


def write_rows(path: Path, header: list[str], rows: list[list[str]]) -> None:
    with open(path, "w", newline="", encoding="utf-8") as fh:
        csv.writer(fh, lineterminator="\r\n").writerows([header, *rows])


def number(text: str) -> Decimal | None:
    text = cell(text)
    return None if text in ("", "N/A") else Decimal(text)


def scale_column(path: Path, column: str, match: Callable[[dict[str, str]], bool], factor: str) -> None:
    """Multiply ``column`` of the rows ``match`` picks by ``factor`` (the cell keeps its trailing text)."""
    header, rows = read_rows(path)
    i = header.index(column)
    for row in rows:
        value = number(row[i])
        if value is not None and match(dict(zip(header, map(cell, row)))):
            row[i] = str(value * Decimal(factor))
    write_rows(path, header, rows)


def drop_rows(path: Path, match: Callable[[dict[str, str]], bool]) -> None:
    header, rows = read_rows(path)
    write_rows(path, header, [r for r in rows if not match(dict(zip(header, map(cell, r))))])


def rename_rows(path: Path, old: str, new: str) -> None:
    header, rows = read_rows(path)
    for row in rows:
        if cell(row[0]) == old:
            row[0] = new
    write_rows(path, header, rows)


def operator_memory(path: Path) -> dict[str, dict[str, Decimal | int]]:
    """Per operator name: allocations, total Size(KB), total Duration(us) (an empty duration: 0)."""
    header, rows = read_rows(path)
    out: dict[str, dict] = {}
    for row in rows:
        r = dict(zip(header, row))
        size = number(r["Size(KB)"])
        if size is None:
            continue
        e = out.setdefault(cell(r["Name"]), {"count": 0, "size": Decimal(0), "duration": Decimal(0)})
        e["count"] += 1
        e["size"] += size
        e["duration"] += number(r["Duration(us)"]) or Decimal(0)
    return out


def memory_peaks(path: Path) -> dict[tuple[str, str], Decimal]:
    """(component, allocated | reserved) -> the highest value (MB) memory_record.csv has."""
    header, rows = read_rows(path)
    out: dict[tuple[str, str], Decimal] = {}
    for row in rows:
        r = dict(zip(header, row))
        for kind, column in PEAK_COLUMNS.items():
            value = number(r[column])
            key = (cell(r["Component"]), kind)
            if value is not None and (key not in out or value > out[key]):
                out[key] = value
    return out


def communication(path: Path) -> dict[str, list[Decimal]]:
    """Per op type (msprof-analyze's grouping, written here as a regular expression): the elapse
    of each operator in µs."""
    doc = json.loads(path.read_text(encoding="utf-8"))
    out: dict[str, list[Decimal]] = {}
    for step in doc.values():
        for ops in step.values():
            for name, info in ops.items():
                if name == "Total Op Info":
                    continue
                m = re.match(r"^(?:hcom_)?([^_@]+)", name.lower())
                assert m, name
                elapse = Decimal(repr(info["Communication Time Info"]["Elapse Time(ms)"])) * 1000
                out.setdefault(m.group(1), []).append(elapse)
    return out


def scale_elapse(path: Path, match: Callable[[str], bool], factor: float) -> None:
    """Multiply the Elapse Time(ms) of the operators ``match`` picks by name (json rewritten)."""
    doc = json.loads(path.read_text(encoding="utf-8"))
    for step in doc.values():
        for ops in step.values():
            for name, info in ops.items():
                if name != "Total Op Info" and match(name):
                    info["Communication Time Info"]["Elapse Time(ms)"] *= factor
    path.write_text(json.dumps(doc, indent=1), encoding="utf-8")


def pct(base: Decimal, current: Decimal) -> float | None:
    if base == 0:
        return 0.0 if current == 0 else None
    return round(float((current - base) * 100 / base), 2)


def cli(*args, env_home: Path) -> subprocess.CompletedProcess:
    """``ascend-workbench compare ARGS`` as a subprocess."""
    env = dict(os.environ, ASCEND_WORKBENCH_HOME=str(env_home))
    return subprocess.run(
        [sys.executable, "-m", "workbench", "compare", *map(str, args)],
        capture_output=True,
        text=True,
        env=env,
        stdin=subprocess.DEVNULL,
        timeout=300,
    )


def sheet_rows(book, title: str) -> tuple[tuple, list[dict]]:
    rows = list(book[title].iter_rows(values_only=True))
    return rows[0], [dict(zip(rows[0], r)) for r in rows[1:]]
