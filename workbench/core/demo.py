"""The demo project a first start opens: a project holding the shipped sample reports.

With nothing configured (no recent or last project), the app creates ``data_dir()/demo-project``
once, copies the sample reports from ``workbench.resources/samples`` into its ``reports/`` folder
and opens it, so a newcomer sees a real report at once. An existing demo project is reused; the
user's edits in it are never overwritten (missing samples are copied again, present ones kept).

A sample may be a cluster: a folder of a job's ranks. Its ranks are not reports of their own (they hold
what cluster analysis reads; the Explorer's "Analyse as Cluster" opens the folder), so they are not
listed as reports and never the one a first start shows.
"""

from __future__ import annotations

import shutil
from pathlib import Path

from workbench.core import paths
from workbench.core import project as core_project
from workbench.core.artefacts import classify, is_job_rank

DEMO_NAME = "Ascend Workbench Demo"


def samples_dir() -> Path:
    return paths.resource_path("samples")


def _reports_in(folder: Path) -> list[Path]:
    """Profiling artefacts in ``folder`` or one level below (samples keep a folder per report); the
    ranks of a cluster job's folder are one cluster, not reports: they are left out."""
    found = []
    for p in sorted(folder.iterdir()):
        if p.name.startswith((".", "_")):
            continue
        if classify(p) is not None:
            found.append(p)
        elif p.is_dir():
            found.extend(c for c in sorted(p.iterdir()) if classify(c) is not None and not is_job_rank(c))
    return found


def sample_reports() -> list[Path]:
    """Shipped sample reports (folders or files that classify as profiling artefacts)."""
    base = samples_dir()
    return _reports_in(base) if base.is_dir() else []


def ensure_demo_project() -> tuple[core_project.Project, list[Path]]:
    """Create (or reuse) the demo project; return it and the sample reports inside it."""
    root = paths.data_dir() / "demo-project"
    try:
        project = core_project.open_project(root)
    except core_project.ProjectError:
        if (root / core_project.PROJECT_DIR / core_project.PROJECT_FILE).exists():
            raise  # damaged: let the caller report it, never overwrite
        project = core_project.create_project(root, name=DEMO_NAME, ptype=core_project.APP)
    reports_dir = root / "reports"
    reports_dir.mkdir(exist_ok=True)
    base = samples_dir()
    for entry in sorted(base.iterdir()) if base.is_dir() else []:
        if entry.name.startswith((".", "_")) or entry.suffix == ".py":
            continue
        target = reports_dir / entry.name
        if not target.exists():
            if entry.is_dir():
                shutil.copytree(entry, target)
            else:
                shutil.copy2(entry, target)
    return project, _reports_in(reports_dir)


def first_report(reports: list[Path]) -> Path | None:
    """The report a first start shows: the torch_npu training run (rank 0 of a 2-rank job, with the
    Memory, Communication and Steps views) when the samples hold one, else the first. A rank of a
    cluster job's folder (beside other ranks of its job) is never it: it is part of a cluster."""
    own = [p for p in reports if not is_job_rank(p)]
    for path in own:
        if path.name.endswith("_ascend_pt"):
            return path
    return own[0] if own else None
