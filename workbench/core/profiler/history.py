"""The project's profiling history: list the runs, re-run one with the same options, delete one.

Deleting removes the local copy and the history entry; the data on the host is removed only
when asked (``on_host=True``), and only for runs this workbench collected (never the folder an
imported result came from). Only the folders the workbench made for the run may go: the run's id
must be one this workbench gives (``YYYYMMDD-HHMMSS-xxxx``), the local folder must be named by it
and lie inside the project (no symlink on the way), the host folder must be an absolute, normal
path named by it. A hand-edited project file cannot make it delete anything else: such an entry
is refused with a message and nothing is removed.
"""

from __future__ import annotations

import posixpath
import re
import shutil
from pathlib import Path
from typing import Any

from workbench.core.profiler.options import ProfilingJob
from workbench.core.profiler.run import COLLECTED, ProfilingRun, profile
from workbench.core.project import Project
from workbench.core.services.toolkit import ToolkitInfo
from workbench.core.services.transport import Transport, TransportError
from workbench.core.tasks import CancelToken, NullProgress, Progress

RUN_ID = re.compile(r"^\d{8}-\d{6}-[0-9a-f]{4}$")  # what run.new_run_id gives


def _own_local_folder(project: Project, run: ProfilingRun) -> Path:
    """The run's local folder, if it is one the workbench made for it; else ValueError."""
    local = run.local_path(project.root)
    root = project.root.resolve()
    where = f"profiling run {run.id!r}: local folder {local}"
    if local.name != run.id:
        raise ValueError(f"{where} is not this run's own folder; not deleting it")
    if local.is_symlink() or any(p.is_symlink() for p in local.parents if p != p.parent and root in p.parents):
        raise ValueError(f"{where} is reached through a symbolic link; not deleting it")
    resolved = local.resolve()
    if resolved == root or root not in resolved.parents:
        raise ValueError(f"{where} is not inside the project {root}; not deleting it (remove it yourself)")
    return local


def _own_remote_folder(run: ProfilingRun) -> str:
    remote = run.remote_dir.rstrip("/")
    if (
        not posixpath.isabs(remote)
        or posixpath.normpath(remote) != remote
        or posixpath.basename(remote) != run.id
        or posixpath.dirname(remote) in ("", "/")
    ):
        raise ValueError(
            f"profiling run {run.id!r}: remote folder {run.remote_dir!r} is not this run's own folder; not deleting it"
        )
    return remote


def list_runs(project: Project) -> list[ProfilingRun]:
    """The project's runs, oldest first (entries that cannot be read are skipped)."""
    runs = []
    for i, raw in enumerate(project.profiling_runs):
        try:
            runs.append(ProfilingRun.from_dict(raw, f"{project.file}: history.profiling[{i}]"))
        except (ValueError, TypeError):
            continue
    return runs


def find_run(project: Project, run_id: str) -> ProfilingRun:
    for run in list_runs(project):
        if run.id == run_id:
            return run
    raise KeyError(f"{project.file}: no profiling run {run_id!r} in the history")


def last_job(project: Project) -> ProfilingJob | None:
    """The options of the project's latest collected run: the wizard starts from them next time
    (host, toolkit path, environment and options remembered, as MindStudio does)."""
    for run in reversed(list_runs(project)):
        if run.kind == COLLECTED:
            try:
                return run.job()
            except ValueError:
                continue
    return None


def rerun(
    project: Project,
    run_id: str,
    transport: Transport,
    toolkit: ToolkitInfo | None = None,
    *,
    progress: Progress | None = None,
    cancel: CancelToken | None = None,
    **kwargs: Any,
) -> ProfilingRun:
    """Work function: profile again with the options of ``run_id`` (a new run is recorded)."""
    job = find_run(project, run_id).job()
    return profile(job, transport, toolkit, project=project, progress=progress, cancel=cancel, **kwargs)


def delete_run(
    project: Project,
    run_id: str,
    *,
    on_host: bool = False,
    transport: Transport | None = None,
    progress: Progress | None = None,
    cancel: CancelToken | None = None,
) -> ProfilingRun:
    """Work function: forget ``run_id`` and remove its local folder (and its host folder when
    ``on_host``; needs ``transport``). Returns the removed entry."""
    progress = progress or NullProgress()
    cancel = cancel or CancelToken()
    run = find_run(project, run_id)
    if not RUN_ID.match(run.id):
        raise ValueError(f"{project.file}: profiling run id {run.id!r} is not one this workbench gives; not deleting")
    local = _own_local_folder(project, run) if run.local_dir else None  # checked before anything goes
    if on_host:
        if run.kind != COLLECTED:
            raise ValueError(f"profiling run {run_id}: an imported result's source on the host is never deleted")
        if transport is None:
            raise ValueError(f"profiling run {run_id}: deleting on the host needs a connection to {run.host}")
        remote = _own_remote_folder(run)
        progress.status(f"Deleting {remote} on {transport.label}")
        result = transport.run(["rm", "-rf", "--", remote], timeout=600, cancel=cancel)
        if not result.ok:
            raise TransportError(f"{transport.label}: deleting {remote} failed: {result.stderr.strip()}")
    if local is not None and local.exists():
        progress.status(f"Deleting {local}")
        shutil.rmtree(local)
    project.profiling_runs = [r for r in project.profiling_runs if not (isinstance(r, dict) and r.get("id") == run_id)]
    project.save()
    return run
