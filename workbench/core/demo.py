"""The demo project a first start opens: a project holding the shipped sample reports.

With nothing configured (no recent or last project), the app creates ``data_dir()/demo-project``
once, copies the sample reports from ``workbench.resources/samples`` into its ``reports/`` folder
and opens it, so a newcomer sees a real report at once. An existing demo project is reused; the
user's edits in it are never overwritten (missing samples are copied again, present ones kept).
"""
from __future__ import annotations

import importlib.resources as ir
import shutil
from pathlib import Path

from workbench.core import paths
from workbench.core import project as core_project
from workbench.core.artefacts import classify

DEMO_NAME = "Ascend Workbench Demo"


def samples_dir() -> Path:
    return Path(str(ir.files("workbench.resources").joinpath("samples")))


def sample_reports() -> list[Path]:
    """Shipped sample reports (folders or files that classify as profiling artefacts)."""
    base = samples_dir()
    if not base.is_dir():
        return []
    return sorted(p for p in base.iterdir() if not p.name.startswith((".", "_")) and classify(p) is not None)


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
    copied = []
    for sample in sample_reports():
        target = reports_dir / sample.name
        if not target.exists():
            if sample.is_dir():
                shutil.copytree(sample, target)
            else:
                shutil.copy2(sample, target)
        copied.append(target)
    return project, copied
