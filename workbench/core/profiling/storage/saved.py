"""The workbench's single-file saved report (``*.wbreport``), documented in docs/report-format.md.

A zip archive holding ``report.json`` (format name, version, report facts and the description of
every table and of the timeline) and one ``.npy`` member per column / timeline array. Opening it
needs nothing else. The same serialisation, written to a folder, is the columnar cache.
"""

from __future__ import annotations

import json
import time
import zipfile
import zlib
from collections.abc import Callable, Collection, Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from workbench.core import fsutil
from workbench.core.artefacts import SAVED_REPORT_SUFFIX
from workbench.core.profiling import stats
from workbench.core.profiling.errors import ProfilingDataError
from workbench.core.profiling.report import LazyTables, Report
from workbench.core.profiling.storage import columnar
from workbench.core.profiling.storage.columnar import ArrayStore
from workbench.core.profiling.tables.schemas import LABELS
from workbench.core.profiling.timeline import Timeline, TimelineError
from workbench.core.tasks import CancelToken, NullProgress, Progress

if TYPE_CHECKING:
    import pandas as pd

FORMAT_NAME = "ascend-workbench-report"
FORMAT_VERSION = 2  # 2: timeline meta version 2 (see docs/report-format.md)
META_MEMBER = "report.json"
MAX_META_BYTES = 256 << 20  # report.json of a million-lane trace stays far below this


# Tables the cache may leave out and recompute from the OPs table on load. None today: recomputing
# the AI Core metrics of a million-kernel report took 0.7-1.3 s of a cached re-open (2.0 s instead of
# 1.1 s, 969 MB instead of 572 MB peak), while storing them compact costs 0.64x instead of 0.44x the
# source in cache size; a re-open is what users wait for. The mechanism stays for tables that pay.
RECOMPUTED: tuple[str, ...] = ()


# The columns every view reads at once stay float64 in the cache, memory-mapped on load (a cached
# re-open reads nothing of them); the PMU and other columns are stored compact (see columnar).
MAPPED = frozenset(LABELS)


def report_to_store(
    report: Report, store: ArrayStore, cancel: CancelToken | None = None, compact: bool = False
) -> dict[str, Any]:
    """Write the report's tables and timeline arrays to ``store``; return the JSON metadata.
    ``compact`` (the cache): compact column encodings, and the tables of :data:`RECOMPUTED` the
    report computed itself are left out (listed under ``recomputed``)."""
    tables_meta: dict[str, Any] = {}
    recomputed = []
    for i, (name, frame) in enumerate(report.tables.items()):
        if cancel is not None:
            cancel.raise_if_cancelled()
        if compact and name in RECOMPUTED and report.table_sources.get(name) == "computed":
            recomputed.append(name)
            continue
        meta = columnar.put_frame(store, f"tables/{i}", frame, compact, mapped=MAPPED)
        tables_meta[name] = {"prefix": f"tables/{i}", **meta}
    timeline_meta: dict[str, Any] | None = None
    if report.timeline is not None:
        tl_meta, arrays = report.timeline.to_arrays()
        timeline_meta = {"meta": tl_meta, "arrays": columnar.put_arrays(store, "timeline", arrays)}
    return {
        "format": FORMAT_NAME,
        "version": FORMAT_VERSION,
        "source": str(report.source),
        "kind": report.kind,
        "devices": [int(d) for d in report.devices],
        "warnings": list(report.warnings),
        "info": report.info,
        "pmu_group": report.pmu_group,
        "pmu_split": report.pmu_split,
        "start_ns": report.start_ns,
        "end_ns": report.end_ns,
        "table_sources": report.table_sources,
        "tables": tables_meta,
        "recomputed": recomputed,
        "timeline": timeline_meta,
    }


def report_from_store(
    store: ArrayStore,
    meta: dict[str, Any],
    label: str,
    lazy: bool = False,
    on_damaged: Callable[[], str] | None = None,
) -> Report:
    """Rebuild a Report from ``meta`` (as written by :func:`report_to_store`) and ``store``.

    ``lazy`` (the cache): every table is checked now (members mapped, types and lengths, see
    :func:`columnar.frame_reader`) but decoded on its first use (:class:`LazyTables`). A table whose
    values turn out damaged then raises ProfilingDataError naming ``label``, after ``on_damaged()``
    (which may return a sentence to add, e.g. that the cache is rebuilt on the next open)."""
    if not isinstance(meta, dict):
        raise ProfilingDataError(f"{label}: damaged report description (expected a JSON object)")
    if meta.get("format") != FORMAT_NAME:
        raise ProfilingDataError(f"{label}: not a workbench report (format {meta.get('format')!r})")
    version = meta.get("version")
    if not isinstance(version, int) or version > FORMAT_VERSION:
        raise ProfilingDataError(
            f"{label}: report format version {version!r} is newer than this workbench reads ({FORMAT_VERSION})"
        )
    try:
        tables: dict[str, Any] = LazyTables() if lazy else {}
        for name, t in meta["tables"].items():
            decode = columnar.frame_reader(store, t["prefix"], t)
            if isinstance(tables, LazyTables):
                tables.add_pending(name, columnar.frame_rows(t), _guarded(decode, label, name, on_damaged))
            else:
                tables[name] = decode()
        timeline = None
        if meta.get("timeline"):
            arrays = columnar.get_arrays(store, "timeline", meta["timeline"]["arrays"])
            try:
                timeline = Timeline.from_arrays(meta["timeline"]["meta"], arrays)
            except TimelineError as exc:
                raise ProfilingDataError(f"{label}: timeline data not readable by this workbench ({exc})") from exc
        info = meta.get("info", {})
        if not isinstance(info, dict):
            raise TypeError("field 'info': expected an object")
        warnings = meta.get("warnings", [])
        if not isinstance(warnings, list) or not all(isinstance(w, str) for w in warnings):
            raise TypeError("field 'warnings': expected a list of texts")
        report = Report(
            source=Path(meta["source"]),
            kind=meta["kind"],
            devices=[int(d) for d in meta["devices"]],
            timeline=timeline,
            tables=tables,
            table_sources=dict(meta.get("table_sources", {})),
            info=info,
            warnings=list(warnings),
            pmu_group=meta.get("pmu_group"),
            pmu_split=bool(meta.get("pmu_split")),
            start_ns=meta.get("start_ns"),
            end_ns=meta.get("end_ns"),
        )
        _recompute(report, meta.get("recomputed") or [])
        return report
    except (KeyError, TypeError, ValueError, IndexError, AttributeError) as exc:  # a field of the wrong shape
        if isinstance(exc, ProfilingDataError):
            raise
        detail = f"missing field {exc}" if isinstance(exc, KeyError) else str(exc)
        raise ProfilingDataError(f"{label}: damaged report description ({detail})") from exc


def _guarded(
    decode: columnar.FrameDecoder, label: str, name: str, on_damaged: Callable[[], str] | None
) -> columnar.FrameDecoder:
    """``decode`` raising one ProfilingDataError naming ``label`` and the table for damaged values."""

    def load(only: Collection[str] | None = None) -> pd.DataFrame:
        try:
            return decode(only)
        except (KeyError, TypeError, ValueError, IndexError, AttributeError, OSError) as exc:
            note = on_damaged() if on_damaged is not None else ""
            raise ProfilingDataError(f"{label}: table {name!r} is damaged ({exc}){note}") from exc

    return load


def _recompute(report: Report, names: list[Any]) -> None:
    """Rebuild the tables the store left out (:data:`RECOMPUTED`), in the order they were in."""
    if not isinstance(names, list) or any(n not in RECOMPUTED for n in names):
        raise ValueError(f"field 'recomputed': expected a list of {', '.join(RECOMPUTED)}")
    if "ai_core_metrics" in names and "ops" in report.tables:
        metrics, _, _ = stats.ai_core_metrics(report.tables["ops"])
        if len(metrics.columns):
            report.tables["ai_core_metrics"] = metrics


def saved_path(out: str | Path) -> Path:
    """Where :func:`save_report` writes for ``out`` (``.wbreport`` appended if missing)."""
    out = Path(out)
    return out if out.suffix == SAVED_REPORT_SUFFIX else out.with_name(out.name + SAVED_REPORT_SUFFIX)


def save_report(
    report: Report,
    out: str | Path,
    progress: Progress | None = None,
    cancel: CancelToken | None = None,
    inputs: Iterable[str | Path] = (),
) -> Path:
    """Write ``report`` to ``out`` (``.wbreport`` appended if missing), atomically; never over
    the report's source or ``inputs`` (a merge's sources)."""
    progress = progress or NullProgress()
    out = saved_path(out)
    fsutil.refuse_inputs(out, report.input_paths(), inside=False)
    fsutil.refuse_inputs(out, inputs)
    progress.status(f"Saving {out.name}")
    with (
        fsutil.atomic_open(out, "wb", encoding=None) as fh,
        zipfile.ZipFile(fh, "w", compression=zipfile.ZIP_DEFLATED, compresslevel=1) as archive,
    ):
        meta = report_to_store(report, columnar.ZipStore(archive, str(out)), cancel)
        meta["saved_at"] = time.strftime("%Y-%m-%dT%H:%M:%S%z")
        archive.writestr(META_MEMBER, json.dumps(meta, ensure_ascii=False, indent=1, default=_json_default))
    progress.fraction(1.0)
    return out


def load_saved(path: str | Path, progress: Progress | None = None, cancel: CancelToken | None = None) -> Report:
    """Open a ``.wbreport``: kind ``workbench`` (the original kind is ``info['saved_kind']``)."""
    path = Path(path)
    (progress or NullProgress()).status(f"Opening {path.name}")
    try:
        with zipfile.ZipFile(path) as archive:
            store = columnar.ZipStore(archive, str(path))
            store.check_sizes()  # before anything is inflated, report.json included
            try:
                if archive.getinfo(META_MEMBER).file_size > MAX_META_BYTES:
                    raise ProfilingDataError(f"{path}: {META_MEMBER} is larger than any report's description")
                meta = json.loads(archive.read(META_MEMBER))
            except KeyError:
                raise ProfilingDataError(f"{path}: not a workbench report (no {META_MEMBER} inside)") from None
            report = report_from_store(store, meta, str(path))
    except zipfile.BadZipFile as exc:
        raise ProfilingDataError(f"{path}: not a workbench report (not a zip archive: {exc})") from exc
    except (zlib.error, EOFError, NotImplementedError) as exc:  # a damaged member, an unknown compression
        raise ProfilingDataError(f"{path}: damaged report ({exc or 'ends early'})") from exc
    except RecursionError:
        raise ProfilingDataError(f"{path}: {META_MEMBER} is nested too deeply to be a report description") from None
    except OSError as exc:
        raise ProfilingDataError(f"{path}: cannot read ({exc.strerror or exc})") from exc
    except ValueError as exc:
        if isinstance(exc, ProfilingDataError):
            raise
        raise ProfilingDataError(f"{path}: damaged report ({exc})") from exc
    report.info.setdefault("saved_from", meta.get("source"))
    report.info.setdefault("saved_kind", report.kind)
    report.kind = "workbench"
    report.source = path
    return report


def _json_default(value: Any) -> Any:
    """numpy scalars and paths in info dicts."""
    if hasattr(value, "item"):
        return value.item()
    return str(value)
