"""PROF_* folders on a host: find them, export them when needed, download only what the views need.

What the views need (docs/cann-formats.md §1.3; what :mod:`workbench.core.profiling.detect` reads):

* CANN 7/8: ``PROF_*/mindstudio_profiler_output/`` (the raw ``host/data`` and ``device_N/data``
  can be gigabytes and are never read);
* CANN 5/6: ``PROF_*/device_N/summary/`` + ``device_N/timeline/`` (+ ``host/summary`` and
  ``host/timeline`` where present);
* both: the info files (``host/info.json``, ``host/start_info``, ``host/end_info``,
  ``device_N/info.json.N``, ``start_info.N``, ``end_info.N``, ``sample.json``).

Downloads land in a hidden ``.<name>.part`` folder renamed into place when complete, so an
interrupted download never looks like a finished run.
"""

from __future__ import annotations

import posixpath
import re
import shutil
from dataclasses import dataclass
from pathlib import Path

from workbench.core.profiler.command import MODERN_OUTPUT, MSPROF_PY, export_commands
from workbench.core.services.toolkit import ToolkitInfo
from workbench.core.services.transport import Transport, TransportError, posix_join
from workbench.core.tasks import CancelToken, Progress, ScaledProgress

HOST_INFO = ("info.json", "start_info", "end_info")
DEVICE_INFO = re.compile(r"^(info\.json|start_info|end_info)(\.\d+)?$|^sample\.json$")
DEVICE_DIR = re.compile(r"^device_\d+$")
LEGACY_DIRS = ("summary", "timeline")


class FetchError(TransportError):
    """A PROF_* folder could not be found, exported or downloaded; the message says which and why."""


@dataclass(frozen=True)
class Piece:
    rel: str  # POSIX path inside the PROF_* folder
    size: int  # bytes (a folder: the sum of its files)
    is_dir: bool


def find_prof_dirs(transport: Transport, path: str, depth: int = 2) -> list[str]:
    """PROF_* folders at ``path`` (itself, its children, or deeper up to ``depth`` levels), sorted."""
    path = path.rstrip("/") or "/"
    if posixpath.basename(path).startswith("PROF_") and transport.is_dir(path):
        return [path]
    if depth <= 0 or not transport.is_dir(path):
        return []
    found: list[str] = []
    for name in transport.listdir(path):
        if name.startswith("."):
            continue
        child = posix_join(path, name)
        if name.startswith("PROF_"):
            if transport.is_dir(child):
                found.append(child)
        elif depth > 1 and transport.is_dir(child):
            found += find_prof_dirs(transport, child, depth - 1)
    return sorted(found)


def _dir_size(transport: Transport, path: str) -> int:
    return sum(st.size for st in transport.list_tree(path).values() if not st.is_dir)


def needed_pieces(transport: Transport, prof: str) -> tuple[str | None, list[Piece]]:
    """(layout, pieces): layout ``"modern"``, ``"legacy"`` or None when nothing exported is there."""
    names = transport.listdir(prof)
    devices = [n for n in names if DEVICE_DIR.match(n) and transport.is_dir(posix_join(prof, n))]
    pieces: list[Piece] = []
    layout = None
    if MODERN_OUTPUT in names and transport.listdir(posix_join(prof, MODERN_OUTPUT)):
        layout = "modern"
        pieces.append(Piece(MODERN_OUTPUT, _dir_size(transport, posix_join(prof, MODERN_OUTPUT)), True))
    else:
        for parent in [*devices, "host"]:
            for sub in LEGACY_DIRS:
                rel = f"{parent}/{sub}"
                if transport.is_dir(posix_join(prof, rel)):
                    pieces.append(Piece(rel, _dir_size(transport, posix_join(prof, rel)), True))
        if any(p.rel.startswith("device_") and p.rel.endswith("/summary") for p in pieces):
            layout = "legacy"
    if layout is None:
        return None, []
    if "host" in names and transport.is_dir(posix_join(prof, "host")):
        for name in transport.listdir(posix_join(prof, "host")):
            if name in HOST_INFO:
                pieces.append(Piece(f"host/{name}", transport.stat(posix_join(prof, f"host/{name}")).size, False))
    for dev in devices:
        for name in transport.listdir(posix_join(prof, dev)):
            if DEVICE_INFO.match(name):
                pieces.append(Piece(f"{dev}/{name}", transport.stat(posix_join(prof, f"{dev}/{name}")).size, False))
    return layout, pieces


def export_prof(
    transport: Transport, toolkit: ToolkitInfo | None, prof: str, *, progress: Progress, cancel: CancelToken
) -> None:
    """Run the export step of ``toolkit``'s CANN version on a collected but unexported PROF_* folder."""
    if toolkit is None or not toolkit.has("msprof"):
        raise FetchError(
            f"{transport.label}: {prof} holds no exported data ({MODERN_OUTPUT}/ or device_N/summary/) "
            "and no CANN toolkit with msprof was given to export it"
        )
    msprof_py = posix_join(toolkit.root, MSPROF_PY)
    commands = export_commands(
        prof,
        toolkit.version,
        msprof=toolkit.tools["msprof"] or "msprof",
        msprof_py=msprof_py if transport.exists(msprof_py) else None,
    )
    for argv in commands:
        cancel.raise_if_cancelled()
        progress.status(f"Exporting {posixpath.basename(prof)} on {transport.label}")
        result = transport.run(argv, toolkit=toolkit.set_env, progress=progress, cancel=cancel)
        if not result.ok:
            tail = " / ".join((result.stdout + result.stderr).strip().splitlines()[-3:])
            raise FetchError(f"{transport.label}: exporting {prof} failed with status {result.exit_status}: {tail}")


def prepare_prof(
    transport: Transport, toolkit: ToolkitInfo | None, prof: str, *, progress: Progress, cancel: CancelToken
) -> tuple[str, list[Piece]]:
    """The pieces to download from ``prof``, exporting it first when it has no exported data."""
    layout, pieces = needed_pieces(transport, prof)
    if layout is None:
        export_prof(transport, toolkit, prof, progress=progress, cancel=cancel)
        layout, pieces = needed_pieces(transport, prof)
    if layout is None:
        raise FetchError(
            f"{transport.label}: {prof}: no exported profiling data after the export step "
            f"(expected {MODERN_OUTPUT}/ or device_N/summary/)"
        )
    return layout, pieces


def download_pieces(
    transport: Transport, jobs: list[tuple[str, list[Piece], Path]], *, progress: Progress, cancel: CancelToken
) -> None:
    """Download each (remote PROF folder, pieces, local PROF folder) with one overall fraction."""
    total = sum(p.size for _, pieces, _ in jobs for p in pieces) or 1
    done = 0
    for prof, pieces, local in jobs:
        for piece in pieces:
            cancel.raise_if_cancelled()
            target = local / piece.rel
            target.parent.mkdir(parents=True, exist_ok=True)
            progress.status(f"Downloading {posixpath.basename(prof)}/{piece.rel}")
            transport.get(
                posix_join(prof, piece.rel),
                target,
                progress=ScaledProgress(progress, done / total, (done + piece.size) / total),
                cancel=cancel,
            )
            done += piece.size
    progress.fraction(1.0)


def staged_download(
    transport: Transport,
    jobs: list[tuple[str, list[Piece], str]],
    dest: Path,
    *,
    progress: Progress,
    cancel: CancelToken,
) -> Path:
    """Download into ``dest`` (must not exist): each job's ``local`` is a path relative to ``dest``."""
    if dest.exists():
        raise FileExistsError(f"{dest}: already exists; refusing to overwrite a previous result")
    staging = dest.with_name(f".{dest.name}.part")
    shutil.rmtree(staging, ignore_errors=True)
    staging.mkdir(parents=True)
    try:
        download_pieces(
            transport, [(prof, pieces, staging / rel) for prof, pieces, rel in jobs], progress=progress, cancel=cancel
        )
        staging.rename(dest)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise
    return dest
