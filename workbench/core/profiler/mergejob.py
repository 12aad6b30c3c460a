"""Merge Reports (MindStudio: Input directory, Output directory, Output name).

MindStudio writes ``{name}_{device}_{model}_{iter}.json``; here the engine's merge
(:func:`workbench.core.profiling.merge.merge_reports`) combines every PROF_* folder of the input
directory (up to two levels down) — tables concatenated per device, statistics recomputed,
timelines combined — and the result is saved as ``<output>/<name>.wbreport``, which
``open_report`` opens like any report.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

from workbench.core.artefacts import SAVED_REPORT_SUFFIX
from workbench.core.profiler.fetch import find_prof_dirs
from workbench.core.services.transport import LocalTransport
from workbench.core.tasks import CancelToken, NullProgress, Progress, ScaledProgress

NAME_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,127}$")


class MergeError(ValueError):
    """A Merge Reports field is wrong; the message names it."""


def merge_inputs(input_dir: str | os.PathLike[str]) -> list[Path]:
    """The PROF_* folders Merge Reports would combine."""
    folder = Path(input_dir).expanduser().absolute()
    if not folder.is_dir():
        raise MergeError(f"Input directory {folder}: no such folder")
    profs = [Path(p) for p in find_prof_dirs(LocalTransport(), str(folder))]
    if not profs:
        raise MergeError(f"Input directory {folder}: no PROF_* folder there or up to two levels below")
    return profs


def merge_reports_to(
    input_dir: str | os.PathLike[str],
    output_dir: str | os.PathLike[str],
    output_name: str,
    *,
    overwrite: bool = False,
    progress: Progress | None = None,
    cancel: CancelToken | None = None,
) -> Path:
    """Work function: merge the input directory's reports into ``<output_dir>/<output_name>.wbreport``."""
    from workbench.core.profiling.merge import merge_reports
    from workbench.core.profiling.storage.saved import save_report

    progress = progress or NullProgress()
    cancel = cancel or CancelToken()
    name = output_name[: -len(SAVED_REPORT_SUFFIX)] if output_name.endswith(SAVED_REPORT_SUFFIX) else output_name
    if not NAME_RE.match(name):
        raise MergeError(
            f"Output name {output_name!r}: expected letters, digits, '.', '_' or '-' "
            "(at most 128, starting with a letter or digit)"
        )
    out_dir = Path(output_dir).expanduser().absolute()
    out = out_dir / (name + SAVED_REPORT_SUFFIX)
    if out.exists() and not overwrite:
        raise MergeError(f"Output {out}: already exists; choose another name or allow overwriting")
    inputs = merge_inputs(input_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    merged = merge_reports(inputs, progress=ScaledProgress(progress, 0, 0.8), cancel=cancel)
    cancel.raise_if_cancelled()
    return save_report(merged, out, progress=ScaledProgress(progress, 0.8, 1.0), cancel=cancel)
