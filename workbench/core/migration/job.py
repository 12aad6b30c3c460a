"""A migration job and the exact command line of each migration tool (docs/cann-formats.md, "Migration tools").

- ``tf1``: ``python3 <tfplugin>/npu_bridge/convert_tf2npu/main.py -i IN -o OUT -r REPORT [-m MAIN]``
- ``tf2``: ``python3 <tfplugin>/npu_device/convert_tf2npu/main.py -i IN -o OUT -r REPORT [-m MAIN]``
- ``pytorch``: ``<toolkit>/tools/ms_fmk_transplt/pytorch_gpu2npu.sh -i IN -o OUT -v VERSION
  [distributed -m MAIN -t MODEL]`` (``distributed`` and its options come last, as the tool wants)

``<tfplugin>`` is the TF Adapter's site-packages: ``<Ascend>/tfplugin/latest/python/site-packages``
beside ``<Ascend>/ascend-toolkit/latest`` unless the job names it (``tool_path``: the tool's full path).
:func:`check_job` gives every refusal the tools themselves make before they start (output or
report inside the input, a main script that is not a .py inside the input, an unknown PyTorch
version) as one line naming the field.
"""

from __future__ import annotations

import os
import posixpath
import shlex
from dataclasses import dataclass, field
from pathlib import Path

FRAMEWORKS = ("tf1", "tf2", "pytorch")
PYTORCH_VERSIONS = ("1.11.0", "2.1.0", "2.2.0", "2.3.1", "2.4.0")  # UNVERIFIED beyond 1.11.0/2.1.0/2.2.0
DEFAULT_PYTORCH_VERSION = "2.1.0"
TF_TOOLS = {
    "tf1": "npu_bridge/convert_tf2npu/main.py",
    "tf2": "npu_device/convert_tf2npu/main.py",
}
PYTORCH_TOOL = "tools/ms_fmk_transplt/pytorch_gpu2npu.sh"
TFPLUGIN_SITE = "tfplugin/latest/python/site-packages"


class JobError(ValueError):
    """A job the tool would refuse: the message names the field and what was expected."""


@dataclass
class MigrationJob:
    framework: str  # tf1 | tf2 | pytorch
    input: str  # the project folder to migrate
    output: str  # the folder the tool writes the migrated copy into (must not be inside input)
    report: str = ""  # TF only: the folder for the reports (default: output); PyTorch writes them into output
    main: str = ""  # the entry script (TF -m; PyTorch: distributed -m), inside input
    pytorch_version: str = DEFAULT_PYTORCH_VERSION
    distributed: bool = False  # PyTorch: single-device GPU script -> multi-device NPU script
    target_model: str = "model"  # PyTorch distributed -t
    tool_path: str = ""  # the tool's full path on the host (default: from the toolkit root)
    extra: list[str] = field(default_factory=list)

    @property
    def report_dir(self) -> str:
        return self.report or self.output


def _inside(parent: str, child: str) -> bool:
    parent = posixpath.normpath(parent.replace("\\", "/"))
    child = posixpath.normpath(child.replace("\\", "/"))
    return child == parent or child.startswith(parent.rstrip("/") + "/")


def check_job(job: MigrationJob) -> None:
    """Raise :class:`JobError` on what the tool refuses (paths as the job gives them: on the host
    for a remote run, local for a local check)."""
    if job.framework not in FRAMEWORKS:
        raise JobError(f"--framework {job.framework!r}: expected one of {', '.join(FRAMEWORKS)}")
    if not job.input:
        raise JobError("--input: the folder of the GPU project to migrate is missing")
    if not job.output:
        raise JobError("--out: the output folder is missing")
    if _inside(job.input, job.output):
        raise JobError(f"--out {job.output}: must not be inside the input folder {job.input} (the tool refuses it)")
    if job.framework != "pytorch" and job.report and _inside(job.input, job.report):
        raise JobError(f"report folder {job.report}: must not be inside the input folder {job.input}")
    if job.main:
        if not job.main.endswith(".py"):
            raise JobError(f"--main {job.main}: expected a Python file (.py)")
        if not _inside(job.input, job.main):
            raise JobError(f"--main {job.main}: expected a file inside the input folder {job.input}")
    if job.framework == "pytorch":
        if job.pytorch_version not in PYTORCH_VERSIONS:
            raise JobError(f"--pytorch-version {job.pytorch_version}: expected one of {', '.join(PYTORCH_VERSIONS)}")
        if job.distributed and not job.main:
            raise JobError("--distributed: needs --main, the entry script of the training")


def tool_path(job: MigrationJob, toolkit_root: str) -> str:
    """The tool on the host: the job's, else from the toolkit root (``…/ascend-toolkit/latest``)."""
    if job.tool_path:
        return job.tool_path
    if job.framework == "pytorch":
        return posixpath.join(toolkit_root, PYTORCH_TOOL)
    ascend = posixpath.dirname(posixpath.dirname(toolkit_root.rstrip("/")))
    return posixpath.join(ascend, TFPLUGIN_SITE, TF_TOOLS[job.framework])


def command(job: MigrationJob, toolkit_root: str) -> list[str]:
    """The exact argv of the job's tool."""
    tool = tool_path(job, toolkit_root)
    if job.framework == "pytorch":
        argv = [tool, "-i", job.input, "-o", job.output, "-v", job.pytorch_version, *job.extra]
        if job.distributed:
            argv += ["distributed", "-m", job.main, "-t", job.target_model or "model"]
        return argv
    argv = ["python3", tool, "-i", job.input, "-o", job.output, "-r", job.report_dir]
    if job.main:
        argv += ["-m", job.main]
    return argv + list(job.extra)


def command_line(job: MigrationJob, toolkit_root: str) -> str:
    return shlex.join(command(job, toolkit_root))


def _holds_python(folder: Path, limit: int | None) -> bool:
    """A .py file in ``folder`` or below; with ``limit``, True once that many entries were seen
    without one (a check as the user types must not walk a whole disk)."""
    seen = 0
    for _root, dirs, files in os.walk(folder):
        if any(f.endswith(".py") for f in files):
            return True
        seen += len(dirs) + len(files)
        if limit is not None and seen >= limit:
            return True
    return False


def check_local_input(path: str | os.PathLike[str], main: str = "", *, limit: int | None = None) -> Path:
    """The local project folder to upload (a folder holding at least one .py), else JobError.
    ``limit``: look at that many entries at most for the .py (the wizard's check as the user types)."""
    p = Path(path).expanduser()
    if not p.is_dir():
        raise JobError(f"--input {path}: expected the folder of a GPU project (it is not a folder)")
    if not _holds_python(p, limit):
        raise JobError(f"--input {path}: no Python (.py) file in this folder: nothing to migrate")
    if main:
        m = (p / main) if not os.path.isabs(main) else Path(main)
        if not m.is_file():
            raise JobError(f"--main {main}: no such file in {path}")
        try:
            m.resolve().relative_to(p.resolve())
        except ValueError:
            raise JobError(f"--main {main}: expected a file inside the input folder {path}") from None
    return p.resolve()
