"""Deployment: local folder <-> remote folder mappings, a sync plan, and pulling artefacts back.

``compute_plan`` compares each mapping's local tree with the remote tree (size and whole-second
mtime; uploads copy the mtime, so a synced file compares equal next time) and sorts every file
into *new*, *changed*, *remote-only* or *unchanged*. ``sync`` sends only new and changed files.
**Remote-only files are never deleted** — unless the caller passes them in ``delete`` (the user
ticked them in the plan). Excluded globs apply on both sides, so remote outputs in excluded
folders are not even listed.

Mappings live in the project file under ``"deployment": {"mappings": [...]}``.
"""

from __future__ import annotations

import fnmatch
import os
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from workbench.core.services.transport import FileStat, Transport, TransportError, posix_join
from workbench.core.tasks import CancelToken, NullProgress, Progress, ScaledProgress

DEFAULT_EXCLUDES = (".ascend-workbench", ".git", "__pycache__", "*.pyc", ".wbpart-*", ".idea", ".vscode")
NEW, CHANGED, REMOTE_ONLY, UNCHANGED = "new", "changed", "remote-only", "unchanged"


class DeployError(ValueError):
    """A mapping is wrong; the message names the field."""


@dataclass
class Mapping:
    local: str  # a local folder (absolute, or relative to the project root)
    remote: str  # a remote folder (absolute, or relative to the login folder)
    excludes: list[str] = field(default_factory=lambda: list(DEFAULT_EXCLUDES))

    def to_dict(self) -> dict[str, Any]:
        return {"local": self.local, "remote": self.remote, "excludes": list(self.excludes)}

    @classmethod
    def from_dict(cls, raw: Any, where: str) -> Mapping:
        if not isinstance(raw, dict) or not isinstance(raw.get("local"), str) or not isinstance(raw.get("remote"), str):
            raise DeployError(f'{where}: expected {{"local": str, "remote": str, "excludes": [globs]}}')
        excludes = raw.get("excludes", list(DEFAULT_EXCLUDES))
        if not isinstance(excludes, list) or not all(isinstance(x, str) for x in excludes):
            raise DeployError(f"{where}: field 'excludes': expected a list of glob strings")
        if not raw["remote"].strip():
            raise DeployError(f"{where}: field 'remote': expected a remote folder")
        return cls(raw["local"], raw["remote"], excludes)


def is_excluded(rel: str, patterns: Iterable[str]) -> bool:
    """True if ``rel`` (POSIX) or any of its parent folders matches a glob (``a/b`` patterns match
    the whole relative path, plain names match any component)."""
    parts = rel.split("/")
    for pattern in patterns:
        pattern = pattern.strip().rstrip("/")
        if not pattern:
            continue
        if "/" in pattern:
            prefixes = ["/".join(parts[: i + 1]) for i in range(len(parts))]
            if any(fnmatch.fnmatchcase(p, pattern.lstrip("/")) for p in prefixes):
                return True
        elif any(fnmatch.fnmatchcase(p, pattern) for p in parts):
            return True
    return False


@dataclass(frozen=True)
class PlanItem:
    mapping: int
    rel: str
    action: str
    local_size: int | None
    remote_size: int | None

    def to_dict(self) -> dict[str, Any]:
        return {
            "mapping": self.mapping,
            "path": self.rel,
            "action": self.action,
            "local_size": self.local_size,
            "remote_size": self.remote_size,
        }


@dataclass
class Plan:
    mappings: list[Mapping]
    local_roots: list[str]
    items: list[PlanItem]

    def of(self, action: str) -> list[PlanItem]:
        return [i for i in self.items if i.action == action]

    @property
    def to_send(self) -> list[PlanItem]:
        return [i for i in self.items if i.action in (NEW, CHANGED)]

    def to_dict(self) -> dict[str, Any]:
        return {
            "mappings": [m.to_dict() for m in self.mappings],
            "counts": {a: len(self.of(a)) for a in (NEW, CHANGED, REMOTE_ONLY, UNCHANGED)},
            "bytes_to_send": sum(i.local_size or 0 for i in self.to_send),
            "items": [i.to_dict() for i in self.items if i.action != UNCHANGED],
        }


def _local_tree(root: Path, excludes: list[str]) -> dict[str, FileStat]:
    out: dict[str, FileStat] = {}
    for dirpath, dirnames, filenames in os.walk(root):
        rel_dir = Path(dirpath).relative_to(root).as_posix()
        rel_dir = "" if rel_dir == "." else rel_dir
        dirnames[:] = sorted(d for d in dirnames if not is_excluded(posix_join(rel_dir, d), excludes))
        for name in filenames:
            rel = posix_join(rel_dir, name)
            if not is_excluded(rel, excludes):
                st = (Path(dirpath) / name).stat()
                out[rel] = FileStat(st.st_size, st.st_mtime, False)
    return out


def compute_plan(
    transport: Transport,
    mappings: list[Mapping],
    project_root: str | os.PathLike[str] = ".",
    *,
    progress: Progress | None = None,
    cancel: CancelToken | None = None,
) -> Plan:
    """Work function: compare each mapping's trees (files only) and return the plan."""
    progress = progress or NullProgress()
    cancel = cancel or CancelToken()
    items: list[PlanItem] = []
    roots: list[str] = []
    for index, m in enumerate(mappings):
        cancel.raise_if_cancelled()
        local_root = Path(project_root) / m.local
        if not local_root.is_dir():
            raise DeployError(f"mapping {index + 1}: local folder {local_root} does not exist")
        roots.append(str(local_root))
        progress.status(f"Comparing {local_root} with {transport.label}:{m.remote}")
        local = _local_tree(local_root, m.excludes)
        remote = (
            {
                rel: st
                for rel, st in transport.list_tree(m.remote).items()
                if not st.is_dir and not is_excluded(rel, m.excludes)
            }
            if transport.exists(m.remote)
            else {}
        )
        for rel in sorted(set(local) | set(remote)):
            lo, re_ = local.get(rel), remote.get(rel)
            if re_ is None:
                action = NEW
            elif lo is None:
                action = REMOTE_ONLY
            elif lo.size != re_.size or int(lo.mtime) != int(re_.mtime):
                action = CHANGED
            else:
                action = UNCHANGED
            items.append(PlanItem(index, rel, action, lo.size if lo else None, re_.size if re_ else None))
    return Plan(list(mappings), roots, items)


def sync(
    transport: Transport,
    plan: Plan,
    *,
    delete: Iterable[PlanItem] = (),
    progress: Progress | None = None,
    cancel: CancelToken | None = None,
) -> dict[str, Any]:
    """Work function: send new and changed files; delete only the remote-only items in ``delete``."""
    progress = progress or NullProgress()
    cancel = cancel or CancelToken()
    sending = plan.to_send
    total = sum(i.local_size or 0 for i in sending) or 1
    done = 0
    for item in sending:
        cancel.raise_if_cancelled()
        m = plan.mappings[item.mapping]
        local = Path(plan.local_roots[item.mapping]) / item.rel
        progress.partial(("deploy", f"{item.action}: {item.rel}"))
        transport.put(
            local,
            posix_join(m.remote, item.rel),
            progress=ScaledProgress(progress, done / total, (done + (item.local_size or 0)) / total),
            cancel=cancel,
        )
        done += item.local_size or 0
    deleted = []
    for item in delete:
        if item.action != REMOTE_ONLY or item not in plan.items:
            raise DeployError(f"{item.rel}: only remote-only files listed in the plan can be deleted")
        cancel.raise_if_cancelled()
        transport.remove(posix_join(plan.mappings[item.mapping].remote, item.rel))
        progress.partial(("deploy", f"deleted: {item.rel}"))
        deleted.append(item.rel)
    progress.fraction(1.0)
    return {
        "sent": [i.rel for i in sending],
        "bytes_sent": sum(i.local_size or 0 for i in sending),
        "deleted": deleted,
        "kept_remote_only": [i.rel for i in plan.of(REMOTE_ONLY) if i.rel not in deleted],
    }


def pull(
    transport: Transport,
    mapping: Mapping,
    remote_rel: str,
    project_root: str | os.PathLike[str] = ".",
    *,
    progress: Progress | None = None,
    cancel: CancelToken | None = None,
) -> Path:
    """Work function: bring a remote artefact (file or folder under the mapping) back to the same
    relative place in the local folder; returns the local path."""
    if remote_rel.startswith("/") or ".." in remote_rel.split("/"):
        raise DeployError(f"{remote_rel}: expected a path relative to the remote folder {mapping.remote}")
    local = Path(project_root) / mapping.local / remote_rel
    if not transport.exists(posix_join(mapping.remote, remote_rel)):
        raise TransportError(f"{transport.label}: {posix_join(mapping.remote, remote_rel)} does not exist")
    local.parent.mkdir(parents=True, exist_ok=True)
    if transport.is_dir(posix_join(mapping.remote, remote_rel)):
        local.mkdir(parents=True, exist_ok=True)
        for rel, st in sorted(transport.list_tree(posix_join(mapping.remote, remote_rel)).items()):
            if not st.is_dir:
                (local / rel).parent.mkdir(parents=True, exist_ok=True)
                transport.get(
                    posix_join(posix_join(mapping.remote, remote_rel), rel),
                    local / rel,
                    progress=progress,
                    cancel=cancel,
                )
        return local
    transport.get(posix_join(mapping.remote, remote_rel), local, progress=progress, cancel=cancel)
    return local


# --- project storage --------------------------------------------------------------------------


def project_mappings(project: Any) -> list[Mapping]:
    """The project's mappings; with none configured, the project root -> its remote path (or
    ``ascend-workbench/<name>`` under the login folder)."""
    raw = (
        project.extra.get("deployment", {}).get("mappings")
        if isinstance(project.extra.get("deployment"), dict)
        else None
    )
    if raw:
        return [Mapping.from_dict(r, f"{project.file}: deployment.mappings[{i}]") for i, r in enumerate(raw)]
    remote = project.remote.remote_path or f"ascend-workbench/{project.name}"
    return [Mapping(".", remote)]


def set_project_mappings(project: Any, mappings: list[Mapping]) -> None:
    project.extra["deployment"] = {"mappings": [m.to_dict() for m in mappings]}
