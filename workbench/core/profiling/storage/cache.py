"""Columnar cache of a parsed source, so re-opening a large report is near instant.

The cache is a folder of ``.npy`` arrays (memory-mapped on load) plus ``report.json``, written
beside the source (``<folder>/.wbcache`` or ``<dir>/.<file>.wbcache``) or, when that place is not
writable, under ``workbench.core.paths.cache_dir()``. It is keyed by the size, mtime and a
content fingerprint (:func:`fingerprint`) of every source file: any change makes it stale and
it is rebuilt. Written to a temp folder and renamed,
so a crash never leaves a half cache that would be trusted.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import shutil
import tempfile
from pathlib import Path
from typing import Any

from workbench.core import paths
from workbench.core.profiling.detect import Layout
from workbench.core.profiling.report import Report
from workbench.core.profiling.storage import columnar
from workbench.core.profiling.storage.saved import report_from_store, report_to_store

CACHE_VERSION = 3  # 2: timeline meta version 2 (big flow-name tables in arrays); 3: compact columns,
# the AI Core metrics recomputed on load (issue #18: the cache was 1.4x its source, now < 0.5x)
AUTO_CACHE_BYTES = 32 * 1024 * 1024
META = "report.json"


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


def present(layout: Layout) -> bool:
    """Is there a cache matching the current source files (its arrays not read)?"""
    try:
        key = source_key(layout)
    except OSError:
        return False
    for place in locations(layout):
        try:
            meta = json.loads((place / META).read_text(encoding="utf-8"))
        except (OSError, ValueError, RecursionError):
            continue
        if not isinstance(meta, dict):
            continue
        if meta.get("cache_version") == CACHE_VERSION and meta.get("source_key") == key:
            return True
    return False


def load(layout: Layout) -> Report | None:
    """The cached report if a cache matching the current source files exists, else None."""
    try:
        key = source_key(layout)
    except OSError:
        return None
    for place in locations(layout):
        meta_path = place / META
        try:
            meta = json.loads(meta_path.read_text(encoding="utf-8"))
        except (OSError, ValueError, RecursionError):  # a damaged cache is rebuilt
            continue
        if not isinstance(meta, dict):
            continue
        if meta.get("cache_version") != CACHE_VERSION or meta.get("source_key") != key:
            continue
        try:
            report = report_from_store(columnar.DirStore(place), meta, str(place))
        except Exception:  # noqa: BLE001 - a damaged or outdated cache is rebuilt, never fatal
            continue
        report.source = layout.root
        report.info["cache"] = str(place)
        return report
    return None


def store(layout: Layout, report: Report, cancel=None) -> Path | None:
    """Write the cache in the first writable place; None when no place is writable. Cancelled,
    it leaves nothing behind."""
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
