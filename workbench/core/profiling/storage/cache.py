"""Columnar cache of a parsed source, so re-opening a large report is near instant.

The cache is a folder of ``.npy`` arrays (memory-mapped on load) plus ``report.json``, written
beside the source (``<folder>/.wbcache`` or ``<dir>/.<file>.wbcache``) or, when that place is not
writable, under ``workbench.core.paths.cache_dir()``. It is keyed by the size, mtime and a
content fingerprint (:func:`fingerprint`) of every source file: any change makes it stale and
it is rebuilt. Written to a temp folder and renamed,
so a crash never leaves a half cache that would be trusted. ``report.json`` also records the byte
size of every member: a member cut short or replaced is found at open (a stat each, no read).

:func:`load` maps the arrays and checks every table, but decodes a table only on its first use
(:class:`~workbench.core.profiling.report.LazyTables`). :func:`facts` answers ``report info`` from
``report.json`` alone: this module imports numpy and pandas only inside the functions that need them.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import shutil
import tempfile
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any

from workbench.core import paths
from workbench.core.profiling.detect import Layout, detect

if TYPE_CHECKING:  # imported where used: `report info` on a cache needs neither numpy nor pandas
    from workbench.core.profiling.report import Report

CACHE_VERSION = 7  # 2: timeline meta version 2 (big flow-name tables in arrays); 3: compact columns,
# the AI Core metrics recomputed on load (issue #18: the cache was 1.4x its source, now < 0.5x);
# 4: the byte size of every member in report.json (checked at open; tables decoded on first use);
# 5: time-point columns empty in the sampled rows read as exact ns; the communication tables (issue #19);
# 6: a .db export's communication tables (analysis.db CommAnalyzer*); 7: PMU columns as DecimalArray
AUTO_CACHE_BYTES = 32 * 1024 * 1024
META = "report.json"
SAVED_FORMAT = ("ascend-workbench-report", 2)  # saved.FORMAT_NAME and FORMAT_VERSION (a test keeps them equal)


WHOLE_FILE_BYTES = 8 << 20  # files up to this size are hashed whole
SAMPLE_BYTES = 4096
SAMPLES = 16


def fingerprint(path: Path, size: int) -> str:
    """A hash of the file's content: all of it when small, else its first and last 64 KB and 16
    blocks spread between (a dozen reads of a 1 GB file): an edit that keeps the size and puts
    the mtime back still changes the key."""
    digest = hashlib.blake2b(digest_size=16)
    with open(path, "rb") as fh:
        if size <= WHOLE_FILE_BYTES:
            for block in iter(lambda: fh.read(1 << 20), b""):
                digest.update(block)
        else:
            spots = [0, size - 65536] + [size * k // (SAMPLES + 1) for k in range(1, SAMPLES + 1)]
            for at in spots:
                fh.seek(at)
                digest.update(fh.read(65536 if at in (0, size - 65536) else SAMPLE_BYTES))
    return digest.hexdigest()


def source_key(layout: Layout) -> list[list[Any]]:
    """(path, size, mtime_ns, content fingerprint) of every file the report is read from."""
    key = []
    for path in sorted(set(layout.files)):
        st = path.stat()
        key.append([str(path), st.st_size, st.st_mtime_ns, fingerprint(path, st.st_size)])
    return key


def wanted(layout: Layout, use_cache: bool | None) -> bool:
    if use_cache is not None:
        return use_cache
    try:
        return sum(p.stat().st_size for p in set(layout.files)) >= AUTO_CACHE_BYTES
    except OSError:
        return False


def _beside(layout: Layout) -> Path:
    root = layout.root
    if root.is_dir():
        return root / ".wbcache"
    return root.with_name(f".{root.name}.wbcache")


def _user_place(layout: Layout) -> Path:
    digest = hashlib.sha1(str(layout.root.resolve()).encode()).hexdigest()[:20]
    return paths.cache_dir() / "reports" / f"{layout.root.name}-{digest}"


def locations(layout: Layout) -> list[Path]:
    """Where the cache may live, in order of preference."""
    return [_beside(layout), _user_place(layout)]


def _writable(folder: Path) -> bool:
    """Writable, and not marked read-only (no write bit): root may write anywhere, but a folder
    its owner made read-only (e.g. shared samples) must not get a cache inside."""
    try:
        mode = folder.stat().st_mode
    except OSError:
        return True  # created below when its parent allows
    return bool(mode & 0o222) and os.access(folder, os.W_OK)


def _members(folder: Path) -> dict[str, int]:
    """Every ``.npy`` member below ``folder``: its name (as the store names it) and byte size."""
    out = {}
    for path in sorted(folder.rglob("*.npy")):
        out[path.relative_to(folder).as_posix()[: -len(".npy")]] = path.stat().st_size
    return out


def _intact(place: Path, members: Any) -> bool:
    """Are all the members ``report.json`` lists there, each of the size it had when written?"""
    if not isinstance(members, dict):
        return False
    try:
        for name, size in members.items():
            if not isinstance(name, str) or name.startswith("/") or ".." in name.split("/"):
                return False
            if (place / f"{name}.npy").stat().st_size != size:
                return False
    except (OSError, ValueError):
        return False
    return True


def _matching(layout: Layout) -> list[tuple[Path, dict[str, Any]]]:
    """(place, meta) of every cache of ``layout`` that matches its source files, in preference order:
    this cache version, the same source key (sizes, mtimes, fingerprints) and every member intact."""
    try:
        key = source_key(layout)
    except OSError:
        return []
    found = []
    for place in locations(layout):
        try:
            meta = json.loads((place / META).read_text(encoding="utf-8"))
        except (OSError, ValueError, RecursionError):  # a damaged cache is rebuilt
            continue
        if not isinstance(meta, dict):
            continue
        if meta.get("cache_version") != CACHE_VERSION or meta.get("source_key") != key:
            continue
        if not _intact(place, meta.get("members")):
            continue
        found.append((place, meta))
    return found


def present(layout: Layout) -> bool:
    """Is there a cache matching the current source files (its arrays not read)?"""
    return bool(_matching(layout))


def _discard(place: Path) -> str:
    """Make the cache at ``place`` stale (a table of it turned out damaged): the next open rebuilds it."""
    with contextlib.suppress(OSError):
        (place / META).unlink()
    return "; the cache is discarded and rebuilt when the report is opened again"


def load(layout: Layout) -> Report | None:
    """The cached report if a cache matching the current source files exists, else None. Its
    arrays stay memory-mapped and its tables are decoded on first use; every member is checked
    now, and a damaged one makes the cache rebuilt (None)."""
    from workbench.core.profiling.storage import columnar
    from workbench.core.profiling.storage.saved import report_from_store

    for place, meta in _matching(layout):
        try:
            report = report_from_store(
                columnar.DirStore(place), meta, str(place), lazy=True, on_damaged=partial(_discard, place)
            )
        except Exception:  # noqa: BLE001 - a damaged or outdated cache is rebuilt, never fatal
            continue
        report.source = layout.root
        report.info["cache"] = str(place)
        return report
    return None


@dataclass
class Facts:
    """What ``report info`` prints of a cached report, read from its ``report.json`` alone: the
    attributes it reads of a :class:`~workbench.core.profiling.report.Report`, with the same values."""

    source: Path
    kind: str
    devices: list[int]
    event_count: int
    flow_count: int
    start_ns: int | None
    end_ns: int | None
    table_rows: dict[str, int]
    table_sources: dict[str, Any]
    pmu_group: Any
    pmu_split: bool
    warnings: list[Any] = field(default_factory=list)

    @property
    def span_ns(self) -> int:
        if self.start_ns is None or self.end_ns is None:
            return 0
        return self.end_ns - self.start_ns


def _rows(table: Any) -> int:
    if not isinstance(table, dict) or not isinstance(table.get("prefix"), str):
        raise TypeError("table: expected an object with a prefix")
    if not isinstance(table.get("columns"), list):
        raise TypeError("table: expected a list of columns")
    rows = table["rows"]
    if not isinstance(rows, int) or isinstance(rows, bool) or rows < 0:
        raise ValueError(f"rows {rows!r}: expected a row count")
    return rows


def _facts(layout: Layout, meta: dict[str, Any]) -> Facts | None:
    """The facts of ``meta`` exactly as :func:`load` would make them, or None where it might not
    (anything unexpected: the full open then decides, and rebuilds a damaged cache)."""
    name, version = SAVED_FORMAT
    if meta.get("format") != name or not isinstance(meta.get("version"), int) or meta["version"] > version:
        return None
    if meta.get("recomputed"):  # tables rebuilt on load: the full open says which
        return None
    timeline = meta.get("timeline")
    if timeline:
        counts = timeline["meta"]
        event_count, flow_count = int(counts["event_count"]), int(counts["flow_count"])
        if not isinstance(timeline["arrays"], list):
            return None
    else:
        event_count = flow_count = 0
    start_ns, end_ns = meta.get("start_ns"), meta.get("end_ns")
    if any(v is not None and (not isinstance(v, int) or isinstance(v, bool)) for v in (start_ns, end_ns)):
        return None
    if not isinstance(meta["kind"], str) or not isinstance(meta.get("info", {}), dict):
        return None
    return Facts(
        source=layout.root,
        kind=meta["kind"],
        devices=[int(d) for d in meta["devices"]],
        event_count=event_count,
        flow_count=flow_count,
        start_ns=start_ns,
        end_ns=end_ns,
        table_rows={str(name): _rows(t) for name, t in meta["tables"].items()},
        table_sources=dict(meta.get("table_sources", {})),
        pmu_group=meta.get("pmu_group"),
        pmu_split=bool(meta.get("pmu_split")),
        warnings=list(meta.get("warnings", [])),
    )


def facts(path: str | Path, use_cache: bool | None = None) -> Facts | None:
    """``report info``'s facts of ``path`` from a cache matching its source files, without reading
    an array (nor importing numpy or pandas); None when there is no such cache (or ``path`` is a
    saved report, or the cache is not wanted): open the report then. The cache is checked exactly
    as :func:`load` checks it (version, source key, every member's size)."""
    layout = detect(Path(path))
    if layout.saved is not None or not wanted(layout, use_cache):
        return None
    for _place, meta in _matching(layout):
        try:
            return _facts(layout, meta)
        except (KeyError, TypeError, ValueError, AttributeError, IndexError):
            return None
    return None


def store(layout: Layout, report: Report, cancel=None) -> Path | None:
    """Write the cache in the first writable place; None when no place is writable. Cancelled,
    it leaves nothing behind."""
    from workbench.core.profiling.storage import columnar
    from workbench.core.profiling.storage.saved import report_to_store

    key = source_key(layout)
    for n, place in enumerate(locations(layout)):
        if n == 0 and not _writable(place.parent):
            continue
        try:
            place.parent.mkdir(parents=True, exist_ok=True)
            tmp = Path(tempfile.mkdtemp(prefix=f".{place.name}.", dir=place.parent))
        except OSError:
            continue
        try:
            meta = report_to_store(report, columnar.DirStore(tmp), cancel, compact=True)
            meta["cache_version"] = CACHE_VERSION
            meta["source_key"] = key
            meta["members"] = _members(tmp)
            (tmp / META).write_text(json.dumps(meta, ensure_ascii=False, default=str), encoding="utf-8")
            if place.exists():
                shutil.rmtree(place, ignore_errors=True)
            os.replace(tmp, place)
            return place
        except OSError:
            with contextlib.suppress(OSError):
                shutil.rmtree(tmp, ignore_errors=True)
            continue
        except BaseException:  # cancelled: no half cache
            shutil.rmtree(tmp, ignore_errors=True)
            raise
    return None
