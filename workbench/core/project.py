"""Projects: a local folder plus ``.ascend-workbench/project.json`` (versioned, migrated).

Opening never overwrites a damaged project file: it raises :class:`ProjectError` naming the file,
the line and what is wrong, and the caller decides (the UI asks before repairing).
"""

from __future__ import annotations

import dataclasses
import datetime as _dt
import json
import os
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from workbench.core.fsutil import atomic_write_text, backup_aside

PROJECT_DIR = ".ascend-workbench"
PROJECT_FILE = "project.json"
SCHEMA_VERSION = 2

APP = "Ascend App"
OPERATOR = "Ascend Operator"
TRAINING = "Ascend Training"
PROJECT_TYPES = (APP, OPERATOR, TRAINING)


class ProjectError(Exception):
    """A project could not be created, opened or saved; the message says which file and why."""


@dataclass
class RemoteMapping:
    host: str = ""  # a CANN machine's name (see the hosts service)
    remote_path: str = ""  # where the project lives on that host


@dataclass
class Project:
    root: Path
    name: str
    type: str = APP
    created: str = ""
    remote: RemoteMapping = field(default_factory=RemoteMapping)
    run_configurations: list[dict[str, Any]] = field(default_factory=list)
    conversions: list[dict[str, Any]] = field(default_factory=list)
    profiling_runs: list[dict[str, Any]] = field(default_factory=list)
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def file(self) -> Path:
        return self.root / PROJECT_DIR / PROJECT_FILE

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "schema_version": SCHEMA_VERSION,
            "name": self.name,
            "type": self.type,
            "created": self.created,
            "remote": dataclasses.asdict(self.remote),
            "run_configurations": self.run_configurations,
            "history": {"conversions": self.conversions, "profiling": self.profiling_runs},
        }
        for key, value in self.extra.items():
            data.setdefault(key, value)
        return data

    def save(self) -> None:
        try:
            atomic_write_text(self.file, json.dumps(self.to_dict(), indent=2, ensure_ascii=False) + "\n")
        except OSError as exc:
            raise ProjectError(f"{self.file}: cannot write the project file: {exc.strerror or exc}") from exc


def detect_type(folder: Path, max_entries: int = 2000) -> str:
    """Guess the project type from a folder's contents, as MindStudio does from Project Path.

    Operator projects carry op definitions (``op_proto``, ``tbe``, ``op_kernel``, ``op_host``
    folders); training projects are Python code importing torch_npu / mindspore / npu_bridge or
    named ``train*.py``; everything else is an inference app (``Ascend App``).
    """
    seen = 0
    training_hits = 0
    for dirpath, dirnames, filenames in os.walk(folder):
        dirnames[:] = [d for d in dirnames if not d.startswith(".")]
        if {"op_proto", "tbe", "op_kernel", "op_host"} & set(dirnames):
            return OPERATOR
        for name in filenames:
            seen += 1
            if seen > max_entries:
                break
            if name.endswith(".py"):
                if name.startswith("train"):
                    training_hits += 1
                    continue
                try:
                    with open(os.path.join(dirpath, name), "rb") as fh:
                        head = fh.read(16384)
                except OSError:
                    continue
                if any(k in head for k in (b"torch_npu", b"import mindspore", b"npu_bridge")):
                    training_hits += 1
        if seen > max_entries:
            break
    return TRAINING if training_hits else APP


def _migrate_0_to_1(raw: dict[str, Any]) -> dict[str, Any]:
    # Drafts wrote "project_type" and a flat "remote_host".
    if "project_type" in raw:
        raw.setdefault("type", raw.pop("project_type"))
    if "remote_host" in raw:
        raw.setdefault("remote", {"host": raw.pop("remote_host"), "remote_path": raw.pop("remote_path", "")})
    return raw


def _migrate_1_to_2(raw: dict[str, Any]) -> dict[str, Any]:
    # v1 kept conversions and profiling runs at the top level; v2 groups them under "history".
    history = raw.setdefault("history", {})
    if "conversions" in raw:
        history.setdefault("conversions", raw.pop("conversions"))
    if "profiling_runs" in raw:
        history.setdefault("profiling", raw.pop("profiling_runs"))
    return raw


MIGRATIONS: dict[int, Callable[[dict[str, Any]], dict[str, Any]]] = {0: _migrate_0_to_1, 1: _migrate_1_to_2}


def _check(cond: bool, file: Path, msg: str) -> None:
    if not cond:
        raise ProjectError(f"{file}: {msg}")


def from_dict(root: Path, raw: dict[str, Any], file: Path) -> Project:
    version = raw.get("schema_version", 0)
    _check(
        isinstance(version, int) and not isinstance(version, bool) and version >= 0,
        file,
        f"field 'schema_version' must be a whole number >= 0, got {version!r}",
    )
    _check(
        version <= SCHEMA_VERSION,
        file,
        f"written by a newer Ascend Workbench (schema {version}; this build reads up to {SCHEMA_VERSION})",
    )
    while version < SCHEMA_VERSION:
        raw = MIGRATIONS[version](dict(raw))
        version += 1
    name = raw.get("name", root.name)
    _check(isinstance(name, str) and name.strip() != "", file, f"field 'name' must be a non-empty string, got {name!r}")
    ptype = raw.get("type", APP)
    _check(
        ptype in PROJECT_TYPES,
        file,
        f"field 'type' must be one of {', '.join(repr(t) for t in PROJECT_TYPES)}, got {ptype!r}",
    )
    remote = raw.get("remote", {}) or {}
    _check(isinstance(remote, dict), file, f"field 'remote' must be an object, got {type(remote).__name__}")
    for key in ("host", "remote_path"):
        value = remote.get(key) or ""  # null reads as not set
        _check(
            isinstance(value, str), file, f"field 'remote.{key}' must be a string, got {type(value).__name__} {value!r}"
        )
    history = raw.get("history", {}) or {}
    _check(isinstance(history, dict), file, f"field 'history' must be an object, got {type(history).__name__}")
    runs = raw.get("run_configurations", [])
    _check(isinstance(runs, list), file, "field 'run_configurations' must be a list")
    for key in ("conversions", "profiling"):
        value = history.get(key, [])
        _check(isinstance(value, list), file, f"field 'history.{key}' must be a list, got {type(value).__name__}")
    known = {"schema_version", "name", "type", "created", "remote", "run_configurations", "history"}
    return Project(
        root=root,
        name=name,
        type=ptype,
        created=str(raw.get("created", "")),
        remote=RemoteMapping(host=remote.get("host") or "", remote_path=remote.get("remote_path") or ""),
        run_configurations=runs,
        conversions=list(history.get("conversions", [])),
        profiling_runs=list(history.get("profiling", [])),
        extra={k: v for k, v in raw.items() if k not in known},
    )


def open_project(folder: str | os.PathLike[str]) -> Project:
    root = Path(folder).expanduser().resolve()
    if not root.is_dir():
        raise ProjectError(f"{root}: the project folder does not exist")
    file = root / PROJECT_DIR / PROJECT_FILE
    if not file.exists():
        raise ProjectError(
            f"{root}: not an Ascend Workbench project (no {PROJECT_DIR}/{PROJECT_FILE}); "
            f"use New Project to create one from this folder"
        )
    try:
        text = file.read_text(encoding="utf-8-sig")  # a BOM (Windows editors) is no error
    except (OSError, UnicodeDecodeError) as exc:
        raise ProjectError(f"{file}: cannot read the project file: {exc}") from exc
    try:
        raw = json.loads(text)
    except json.JSONDecodeError as exc:
        raise ProjectError(f"{file}: line {exc.lineno}, column {exc.colno}: not valid JSON ({exc.msg})") from exc
    except RecursionError:
        raise ProjectError(f"{file}: nested too deeply to be a project file") from None
    _check(isinstance(raw, dict), file, f"expected a JSON object at the top level, got {type(raw).__name__}")
    return from_dict(root, raw, file)


def create_project(folder: str | os.PathLike[str], name: str | None = None, ptype: str | None = None) -> Project:
    """Create a project in ``folder`` (made if missing; an existing folder keeps its files).

    Refuses to replace an existing project file. The type is detected from the contents when
    not given.
    """
    root = Path(folder).expanduser().resolve()
    file = root / PROJECT_DIR / PROJECT_FILE
    if file.exists():
        raise ProjectError(f"{file}: a project already exists here; open it instead")
    try:
        root.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise ProjectError(f"{root}: cannot create the project folder: {exc.strerror or exc}") from exc
    if not os.access(root, os.W_OK | os.X_OK):
        raise ProjectError(f"{root}: the folder is not writable; choose a folder you can write to")
    if ptype is not None and ptype not in PROJECT_TYPES:
        raise ProjectError(f"{root}: unknown project type {ptype!r}; expected one of {', '.join(PROJECT_TYPES)}")
    project = Project(
        root=root,
        name=name or root.name,
        type=ptype or detect_type(root),
        created=_dt.datetime.now(_dt.timezone.utc).isoformat(timespec="seconds"),
    )
    project.save()
    return project


def repair_project(folder: str | os.PathLike[str]) -> tuple[Project, Path | None]:
    """Replace a damaged project file by a fresh one, keeping the damaged one beside it."""
    root = Path(folder).expanduser().resolve()
    kept = backup_aside(root / PROJECT_DIR / PROJECT_FILE)
    return create_project(root), kept
