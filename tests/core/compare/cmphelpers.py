"""Independent reading/rewriting of kernel_details CSVs for the comparison tests (csv + Decimal only)."""

from __future__ import annotations

import csv
from collections.abc import Callable
from decimal import Decimal
from pathlib import Path

MS = Decimal("0.001")
PIPE = ("torch_npu-kernel_details-pipe", "kernel_details.csv")
ARITH = ("torch_npu-kernel_details-arith", "kernel_details.csv")


def read(path: Path) -> tuple[list[str], list[dict[str, str]]]:
    with open(path, newline="", encoding="utf-8") as fh:
        reader = csv.reader(fh)
        header = next(reader)
        return header, [dict(zip(header, row)) for row in reader if row]


def write(path: Path, header: list[str], rows: list[dict[str, str]]) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "w", newline="", encoding="utf-8") as fh:
        writer = csv.writer(fh, lineterminator="\n")
        writer.writerow(header)
        writer.writerows([[row[h] for h in header] for row in rows])
    return path


def number(text: str) -> Decimal | None:
    text = text.strip()
    return None if text in ("", "N/A") else Decimal(text)


def totals(rows: list[dict[str, str]], key: str) -> dict[str, dict[str, Decimal | int]]:
    """Per key: count and exact total of Duration(us) (rows without a duration left out)."""
    out: dict[str, dict] = {}
    for row in rows:
        d = number(row["Duration(us)"])
        if d is None:
            continue
        k = row[key].strip() or row["Name"].strip()
        entry = out.setdefault(k, {"count": 0, "total": Decimal(0), "min": d, "max": d})
        entry["count"] += 1
        entry["total"] += d
        entry["min"], entry["max"] = min(entry["min"], d), max(entry["max"], d)
    return out


def scaled_copy(
    src: Path, dst: Path, match: Callable[[dict[str, str]], bool], factor: str, column: str = "Duration(us)"
) -> Path:
    """``src`` with ``column`` of the matching rows multiplied by ``factor`` (to the ns, as CANN writes)."""
    header, rows = read(src)
    for row in rows:
        value = number(row[column])
        if match(row) and value is not None:
            row[column] = str((value * Decimal(factor)).quantize(MS))
    return write(dst, header, rows)


def pct(base: Decimal, current: Decimal) -> float | None:
    if base == 0:
        return 0.0 if current == 0 else None
    return round(float((current - base) * 100 / base), 2)
