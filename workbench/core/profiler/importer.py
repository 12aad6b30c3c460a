"""Import Result (MindStudio's System Profiler ▸ Import Result): bring existing msprof data in.

The source is a ``PROF_*`` folder, its parent, or a folder of several (e.g. one sub-folder per
rank), on a host (through its transport) or on this machine. Every PROF_* folder up to two levels
down is taken; one that was collected but never exported is exported first when the host's
toolkit is given; only what the views need is copied (:mod:`.fetch`) into
``<results>/<run id>/`` keeping the folders' relative places, and the import is recorded in the
project's history like a run (kind ``imported``).
"""

from __future__ import annotations

import datetime as _dt
import os
import posixpath
from pathlib import Path

from workbench.core.profiler.fetch import FetchError, find_prof_dirs, prepare_prof, staged_download
from workbench.core.profiler.options import ProfilingJob
from workbench.core.profiler.run import IMPORTED, ProfilingRun, finish_run, new_run_id, results_root
from workbench.core.project import Project
from workbench.core.services.toolkit import ToolkitInfo
from workbench.core.services.transport import LocalTransport, Transport
from workbench.core.tasks import CancelToken, NullProgress, Progress, ScaledProgress


def import_result(
    source: str | os.PathLike[str],
    *,
    transport: Transport | None = None,
    toolkit: ToolkitInfo | None = None,
    project: Project | None = None,
    results_dir: str | os.PathLike[str] | None = None,
    host: str = "",
    progress: Progress | None = None,
    cancel: CancelToken | None = None,
) -> ProfilingRun:
    """Work function: import ``source`` (on ``transport``'s machine; this one when None)."""
    progress = progress or NullProgress()
    cancel = cancel or CancelToken()
    transport = transport or LocalTransport()
    src = str(source) if not transport.is_local else str(Path(source).expanduser().absolute())
    src = src.rstrip("/") or "/"
    if not transport.exists(src):
        raise FetchError(f"{transport.label}: {src}: no such folder to import")
    progress.status(f"Looking for PROF_* folders in {src}")
    profs = find_prof_dirs(transport, src)
    if not profs:
        raise FetchError(
            f"{transport.label}: {src}: no PROF_* folder there or up to two levels below "
            "(expected a PROF_* folder, its parent, or a folder of several)"
        )
    prepared = []
    for prof in profs:
        cancel.raise_if_cancelled()
        _layout, pieces = prepare_prof(transport, toolkit, prof, progress=progress, cancel=cancel)
        rel = posixpath.basename(prof) if prof == src else posixpath.relpath(prof, src)
        prepared.append((prof, pieces, rel))
    if results_dir:
        results = Path(results_dir).expanduser().absolute()
    elif project is not None:
        results = results_root(ProfilingJob(), project.root)
    else:
        raise FetchError("import: expected a project or a results folder to import into")
    run_id = new_run_id()
    local_dir = results / run_id
    progress.status(f"Copying {src} to {local_dir}")
    staged_download(transport, prepared, local_dir, progress=ScaledProgress(progress, 0, 0.95), cancel=cancel)
    run = ProfilingRun(
        id=run_id,
        kind=IMPORTED,
        time=_dt.datetime.now().astimezone().isoformat(timespec="seconds"),
        host=host or ("local" if transport.is_local else transport.label),
        cann_version=toolkit.version if toolkit else None,
        toolkit=toolkit.root if toolkit else "",
        remote_dir=src,
        prof_dirs=profs,
    )
    return finish_run(run, local_dir, project, progress)
