"""Cluster analysis end to end, as a work function (progress, cancel): find the ranks, reduce each on
the engine, merge, find slow ranks and links, write msprof-analyze's files and our saved report (and, for
a job of db ranks (torch_npu, MindSpore, msprof), msprof-analyze's db output ``cluster_analysis.db``: :mod:`.files_db`).

:func:`open_cluster` is what opening a folder does: a saved ``cluster.wbcluster`` re-opens at once;
an existing ``cluster_analysis_output`` (msprof-analyze's) is read as it is; otherwise the ranks are
analysed (:func:`analyze`).

On ``ssh`` engines the ranks are found *on the hosts*: each host's worker lists the ranks under the
same path on its own disks and reduces those, so only the small reductions travel. On an ``address``
engine (the user's own scheduler) the path is listed by one worker (a shared file system). The listing
and the reductions run on ONE engine :class:`~workbench.core.cluster.engine.Session` (one cluster start,
one close, also when the run fails or is cancelled in between); a local job is listed here and reduced in
this process or on a local cluster, chosen by its size.

For a db job the rank's worker also reads its profiler db's HOST_INFO / RANK_DEVICE_MAP
(:func:`~workbench.core.cluster.files_db.read_rank_host`, with the reduction: one item per rank) for
cluster_analysis.db's HostInfo and RankDeviceMap.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from workbench.core.cluster import files, files_db, findings, merge, ranks, reduce, report
from workbench.core.cluster.files_db import read_rank_host
from workbench.core.cluster.reduce import reduce_source
from workbench.core.tasks import CancelToken, NullProgress, Progress

if TYPE_CHECKING:
    from workbench.core.cluster.engine import Session


class ClusterError(ValueError):
    """The cluster cannot be analysed (no ranks, every rank failed): one line naming the folder."""


@dataclass
class Analysis:
    report: report.ClusterReport
    written: list[Path] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)


def _discover_on(item: tuple[str, str | None]) -> ranks.Discovery:
    path, host = item
    return ranks.discover(path, host)


def _reduce_db_rank(
    src: ranks.RankSource,
) -> tuple[reduce.RankReduction, tuple[Any, list[tuple[Any, ...]], str | None]]:
    """A db rank's reduction and its HOST_INFO / RANK_DEVICE_MAP for cluster_analysis.db, both read on the
    rank's worker (shipped by value: the two functions are globals of their own, stdlib-only modules' code)."""
    return reduce_source(src), read_rank_host(src.rank, src.path, src.kind)


def default_out(path: str | os.PathLike[str]) -> Path:
    """msprof-analyze's place for the output: ``cluster_analysis_output`` inside the analysed folder."""
    return Path(path) / files.OUTPUT_DIR


def output_folder(path: str | os.PathLike[str]) -> Path | None:
    """The ``cluster_analysis_output`` folder ``path`` is or holds (with at least one of its files)."""
    p = Path(path)
    for candidate in (p, p / files.OUTPUT_DIR):
        if candidate.is_dir() and (
            (candidate / report.REPORT_NAME).is_file() or any((candidate / n).is_file() for n in files.NAMES)
        ):
            return candidate
    return None


def _engine_label(spec: object, n_items: int) -> str:
    from workbench.core.cluster import engine

    kind = engine.resolved_kind(spec, n_items)  # type: ignore[arg-type]
    if kind == "ssh":
        return "ssh " + ",".join(getattr(h, "name", str(h)) for h in getattr(spec, "hosts", ()))
    if kind == "address":
        return str(getattr(spec, "address", ""))
    if kind == "local":
        return f"local, {getattr(spec, 'workers', None) or min(os.cpu_count() or 1, n_items)} workers"
    return "in-process" if kind == "sync" else str(kind)


def find_ranks(path: str, session: Session | None, cancel: CancelToken) -> ranks.Discovery:
    """The ranks under ``path``: listed here, or with an ``ssh`` / ``address`` engine :class:`Session`
    (``session``) by its workers, on each host's own disks (the session's cluster then reduces them)."""
    kind = session.spec.kind if session is not None else "sync"
    if session is None or kind not in ("ssh", "address"):
        return ranks.discover(path)
    hosts: Sequence[object] = session.spec.hosts if kind == "ssh" else ()
    # a rank's host is the configured host's name (two hosts may share a hostname: ports, jump hosts)
    items: list[tuple[str, str | None]] = [(path, getattr(h, "name", None)) for h in hosts] or [(path, None)]
    cancel.raise_if_cancelled()
    outcomes = session.map(
        _discover_on,
        items,
        progress=NullProgress(),
        label=lambda item: f"ranks under {item[0]} on {item[1] or 'the cluster'}",
        affinity=lambda item: item[1],
    )
    found = ranks.Discovery()
    seen: dict[int, ranks.RankSource] = {}
    twice: dict[tuple[str | None, str | None], list[int]] = {}
    for outcome in outcomes:
        if outcome.error:
            found.warnings.append(outcome.error)
            continue
        disc: ranks.Discovery = outcome.result
        found.warnings.extend(disc.warnings)
        for src in disc.ranks:
            if src.rank in seen:
                twice.setdefault((seen[src.rank].host, src.host), []).append(src.rank)
                continue
            seen[src.rank] = src
    for (first, other), dup in twice.items():
        shown = ", ".join(map(str, dup[:8])) + (", ..." if len(dup) > 8 else "")
        found.warnings.append(
            f"{len(dup)} ranks ({shown}) are on both {first} and {other} (one shared disk?); {first}'s are taken"
        )
    found.ranks = [seen[r] for r in sorted(seen)]
    return found


def analyze(
    path: str | os.PathLike[str],
    *,
    out: str | os.PathLike[str] | None = None,
    write: bool = True,
    force: bool = False,
    spec: object | None = None,
    progress: Progress | None = None,
    cancel: CancelToken | None = None,
) -> Analysis:
    """Analyse the ranks under ``path``; with ``write``, the files go to ``out`` (default
    ``path/cluster_analysis_output``), never over an existing file unless ``force``."""
    progress = progress or NullProgress()
    cancel = cancel or CancelToken()
    from workbench.core.cluster import engine

    spec = spec or engine.EngineSpec("auto")
    source = str(path)
    out_dir = Path(out) if out is not None else default_out(source)
    with contextlib.ExitStack() as stack:
        # ssh / address: ONE engine session finds the ranks on the hosts and reduces them (one start-up,
        # one close, also on an error or a cancel); otherwise the ranks are listed here and the engine
        # (sync or local, by the ranks' size) is chosen after
        shared: Session | None = None
        if getattr(spec, "kind", None) in ("ssh", "address"):
            shared = stack.enter_context(engine.Session(spec, progress=progress, cancel=cancel))  # type: ignore[arg-type]
        progress.status(f"Finding the ranks under {source}")
        found = find_ranks(source, shared, cancel)
        if not found.ranks:
            why = f" ({found.warnings[0]})" if found.warnings else ""
            raise ClusterError(
                f"{source}: no rank folders (*_ascend_pt / *_ascend_ms with profiler_info_{{rank}}.json "
                f"and ASCEND_PROFILER_OUTPUT, or PROF_* folders with device_<id>/info.json.<id>){why}"
            )
        db_input = all(s.data == "db" for s in found.ranks)  # msprof-analyze writes db output for db input
        if write:  # refuse before the work, not after it
            for name in (*files.NAMES, report.REPORT_NAME, *((files_db.DB_NAME,) if db_input else ())):
                if not force and (out_dir / name).exists():
                    raise files.OutputRefused(f"{out_dir / name}: exists; pass --force to replace it")
            inside = [s.path for s in found.ranks if s.host is None and _inside(out_dir, Path(s.path))]
            if inside:
                raise files.OutputRefused(
                    f"{out_dir}: is inside the rank folder {inside[0]}; write the result elsewhere"
                )
        cancel.raise_if_cancelled()
        spec = _resolve_auto(spec, found.ranks)
        session = shared or stack.enter_context(engine.Session(spec, progress=progress, cancel=cancel))  # type: ignore[arg-type]
        db_out = db_input and write  # cluster_analysis.db also takes each rank's host and devices
        outcomes = session.map(
            _reduce_db_rank if db_out else reduce.reduce_source,
            found.ranks,
            progress=progress,
            label=lambda s: f"rank {s.rank}",
            affinity=lambda s: s.host,
        )
    reds: list[reduce.RankReduction] = []
    hosts: list[tuple[Any, list[tuple[Any, ...]], str | None]] = []
    infos: list[report.RankInfo] = []
    warnings = list(found.warnings)
    for src, outcome in zip(found.ranks, outcomes):
        info = report.RankInfo(src.rank, src.path, src.host, outcome.worker or "", bool(outcome.retried))
        if outcome.error:
            info.error = outcome.error
            warnings.append(outcome.error)
        elif db_out:
            red, host = outcome.result
            reds.append(red)
            hosts.append(host)
        else:
            reds.append(outcome.result)
        if outcome.retried:
            warnings.append(f"rank {src.rank}: its worker was lost; reduced again on {outcome.worker}")
        infos.append(info)
    if not reds:
        raise ClusterError(f"{source}: every rank failed ({warnings[-1] if warnings else 'no reason given'})")
    progress.status(f"Merging {len(reds)} ranks")
    tables = merge.merge(reds)
    warnings.extend(tables.warnings)
    facts = None
    if db_out:  # msprof / MindSpore db ranks: their step rows have no Step (NULL in cluster_analysis.db)
        stepless = [s.rank for s in found.ranks if s.kind in files_db.STEPLESS_KINDS]
        facts = files_db.db_facts(hosts, [r.distributed_args for r in reds], stepless)
    if facts is not None:
        warnings.extend(facts.warnings)
    result = report.ClusterReport(
        source, tables, findings.find(tables), infos, _engine_label(spec, len(found.ranks)), warnings=warnings
    )
    written: list[Path] = []
    if write:
        written = files.write_output(tables, out_dir, force=force)
        if db_input:
            written.append(files_db.write_db(tables, out_dir, force=force, facts=facts))
        written.append(report.save(result, out_dir, force=force))
    return Analysis(result, written, warnings)


AUTO_LOCAL_BYTES = 256 << 20  # below this much rank data, one process beats starting a Dask cluster


def input_bytes(sources: Sequence[ranks.RankSource]) -> int:
    """What the reductions of local ranks read (:func:`~workbench.core.cluster.reduce.input_files`: a text
    rank's three files, a db rank's dbs, a PROF rank's timeline and analyze files), from their sizes."""
    total = 0
    for src in sources:
        for name in reduce.input_files(src):
            with contextlib.suppress(OSError):
                total += os.stat(name).st_size
    return total


def _resolve_auto(spec: object, sources: Sequence[ranks.RankSource]) -> object:
    """``auto``: the in-process path for a job whose rank data is small (starting a local Dask
    cluster takes seconds, more than reading a few hundred MB), else the local cluster."""
    from workbench.core.cluster.engine import EngineSpec

    if getattr(spec, "kind", None) != "auto":
        return spec
    if len(sources) <= 2 or input_bytes(sources) < AUTO_LOCAL_BYTES:
        return EngineSpec("sync")
    return EngineSpec("local", workers=getattr(spec, "workers", None))


def _inside(out: Path, folder: Path) -> bool:
    try:
        out.resolve().relative_to(folder.resolve())
    except ValueError:
        return False
    return True


def read_existing(folder: str | os.PathLike[str]) -> report.ClusterReport:
    """A report of an existing ``cluster_analysis_output`` (its saved report, else its files)."""
    base = Path(folder)
    saved = base / report.REPORT_NAME
    if saved.is_file():
        return report.load(saved)
    tables = files.read_output(base)
    root = base.parent if base.name == files.OUTPUT_DIR else base
    found = ranks.discover(str(root))
    infos = [report.RankInfo(s.rank, s.path, s.host) for s in found.ranks]
    return report.ClusterReport(str(root), tables, findings.find(tables), infos, "msprof-analyze", from_files=True)


def open_cluster(
    path: str | os.PathLike[str],
    *,
    spec: object | None = None,
    write: bool = True,
    progress: Progress | None = None,
    cancel: CancelToken | None = None,
) -> Analysis:
    """What opening ``path`` as a cluster does (see the module docstring)."""
    existing = output_folder(path)
    if existing is not None:
        saved = read_existing(existing)
        return Analysis(saved, warnings=list(saved.warnings or saved.tables.warnings))
    return analyze(path, write=write, spec=spec, progress=progress, cancel=cancel)
