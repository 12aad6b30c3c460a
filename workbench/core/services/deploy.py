"""Deployment: local folder <-> remote folder mappings, a sync plan, and pulling artefacts back.

``compute_plan`` compares each mapping's local tree with the remote tree (size and whole-second
mtime; uploads copy the mtime, so a synced file compares equal next time) and sorts every file
into *new*, *changed*, *remote-only* or *unchanged*; an empty local folder (``dump/`` for the
runtime's output) with no remote counterpart is a *new-folder* entry (``Plan.folders``).
``sync`` creates those folders and sends only new and changed files; a file that cannot be sent
does not stop the others: the :class:`SyncResult` lists it, and :class:`SyncFailed` (carrying
the result) is raised at the end. ``SyncResult.summary()`` is the one line to show the user.
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

from workbench.core.services.transport import ConnectionLost, FileStat, Transport, TransportError, posix_join, reason
from workbench.core.tasks import CancelToken, NullProgress, Progress, ScaledProgress

DEFAULT_EXCLUDES = (".ascend-workbench", ".git", "__pycache__", "*.pyc", ".wbpart-*", ".idea", ".vscode")
NEW, CHANGED, REMOTE_ONLY, UNCHANGED = "new", "changed", "remote-only", "unchanged"
NEW_FOLDER = "new-folder"  # an empty local folder that does not exist on the host yet
SKIPPED_LINK = "skipped-link"  # a symbolic link in the project: never followed, never sent


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
    items: list[PlanItem]  # files: new, changed, remote-only, unchanged
    folders: list[PlanItem] = field(default_factory=list)  # NEW_FOLDER: empty local folders to create
    links: list[PlanItem] = field(default_factory=list)  # SKIPPED_LINK: symbolic links left out

    def of(self, action: str) -> list[PlanItem]:
        where = {NEW_FOLDER: self.folders, SKIPPED_LINK: self.links}.get(action, self.items)
        return [i for i in where if i.action == action]

    @property
    def to_send(self) -> list[PlanItem]:
        return [i for i in self.items if i.action in (NEW, CHANGED)]

    def to_dict(self) -> dict[str, Any]:
        return {
            "mappings": [m.to_dict() for m in self.mappings],
            "counts": {a: len(self.of(a)) for a in (NEW, CHANGED, REMOTE_ONLY, UNCHANGED, NEW_FOLDER, SKIPPED_LINK)},
            "bytes_to_send": sum(i.local_size or 0 for i in self.to_send),
            "items": [i.to_dict() for i in self.items if i.action != UNCHANGED]
            + [i.to_dict() for i in self.folders]
            + [i.to_dict() for i in self.links],
        }


@dataclass
class SyncResult:
    """What ``sync`` did; ``summary()`` is the line the Deployment dialog and ``deploy`` show."""

    sent: list[str] = field(default_factory=list)
    bytes_sent: int = 0
    folders_created: list[str] = field(default_factory=list)
    deleted: list[str] = field(default_factory=list)
    kept_remote_only: list[str] = field(default_factory=list)
    failed: list[tuple[str, str]] = field(default_factory=list)  # (path, one-line reason)

    def counts(self) -> dict[str, int]:
        """Numbers for a translated summary: sent, folders_created, deleted, kept, failed."""
        return {
            "sent": len(self.sent),
            "folders_created": len(self.folders_created),
            "deleted": len(self.deleted),
            "kept": len(self.kept_remote_only),
            "failed": len(self.failed),
        }

    def summary(self) -> str:
        """E.g. "3 sent, 1 folder created, 2 kept (only on the host), 0 failed"."""
        c = self.counts()
        parts = [
            f"{c['sent']} sent",
            f"{c['folders_created']} folder{'' if c['folders_created'] == 1 else 's'} created",
        ]
        if c["deleted"]:
            parts.append(f"{c['deleted']} deleted")
        parts += [f"{c['kept']} kept (only on the host)", f"{c['failed']} failed"]
        text = ", ".join(parts)
        if self.failed:
            path, why = self.failed[0]
            more = f" (and {len(self.failed) - 1} more)" if len(self.failed) > 1 else ""
            text += f": {path}: {why}{more}"
        return text

    __str__ = summary

    def to_dict(self) -> dict[str, Any]:
        return {
            "sent": list(self.sent),
            "bytes_sent": self.bytes_sent,
            "folders_created": list(self.folders_created),
            "deleted": list(self.deleted),
            "kept_remote_only": list(self.kept_remote_only),
            "failed": [{"path": p, "error": e} for p, e in self.failed],
            "summary": self.summary(),
        }


class SyncFailed(TransportError):
    """Some files could not be sent (the others were); ``result`` says which, ``str()`` is its summary."""

    def __init__(self, label: str, result: SyncResult) -> None:
        super().__init__(f"{label}: deployment incomplete: {result.summary()}")
        self.result = result


def _local_tree(root: Path, excludes: list[str]) -> tuple[dict[str, FileStat], list[str], list[str]]:
    """(files, folders, symbolic links) under ``root`` that are not excluded, as POSIX relative
    paths. Links, to files or folders, are never followed: what they point at may lie outside the
    project (a key, a home folder); they are listed so the plan can say they were left out."""
    out: dict[str, FileStat] = {}
    folders: list[str] = []
    links: list[str] = []
    for dirpath, dirnames, filenames in os.walk(root):
        rel_dir = Path(dirpath).relative_to(root).as_posix()
        rel_dir = "" if rel_dir == "." else rel_dir
        kept = []
        for d in sorted(dirnames):
            rel = posix_join(rel_dir, d)
            if is_excluded(rel, excludes):
                continue
            if (Path(dirpath) / d).is_symlink():
                links.append(rel)
            else:
                kept.append(d)
        dirnames[:] = kept
        folders.extend(posix_join(rel_dir, d) for d in dirnames)
        for name in filenames:
            rel = posix_join(rel_dir, name)
            if is_excluded(rel, excludes):
                continue
            path = Path(dirpath) / name
            if path.is_symlink():
                links.append(rel)
                continue
            st = path.lstat()
            out[rel] = FileStat(st.st_size, st.st_mtime, False)
    return out, folders, links


def _empty_folders(files: Iterable[str], folders: list[str]) -> list[str]:
    """The folders holding no (non-excluded) file and no other folder: sending files creates every
    other folder, these must be created on their own. "" (the mapping root) when it is empty."""
    used: set[str] = set()
    for rel in [*files, *folders]:
        parts = rel.split("/")
        used.update("/".join(parts[:i]) for i in range(len(parts)))  # every proper parent, "" included
    return [d for d in ["", *folders] if d not in used]


def compute_plan(
    transport: Transport,
    mappings: list[Mapping],
    project_root: str | os.PathLike[str],
    *,
    progress: Progress | None = None,
    cancel: CancelToken | None = None,
) -> Plan:
    """Work function: compare each mapping's trees (files; empty local folders missing on the host)
    and return the plan."""
    progress = progress or NullProgress()
    cancel = cancel or CancelToken()
    items: list[PlanItem] = []
    folders: list[PlanItem] = []
    roots: list[str] = []
    links: list[PlanItem] = []
    project = Path(project_root).resolve()
    for index, m in enumerate(mappings):
        cancel.raise_if_cancelled()
        local_root = Path(project_root) / m.local
        if not local_root.is_dir():
            raise DeployError(f"mapping {index + 1}: local folder {local_root} does not exist")
        resolved = local_root.resolve()
        if resolved != project and project not in resolved.parents:
            raise DeployError(
                f"mapping {index + 1}: local folder {m.local!r} is outside the project {project}; "
                "only the project's own folders are deployed"
            )
        roots.append(str(local_root))
        progress.status(f"Comparing {local_root} with {transport.label}:{m.remote}")
        local, local_dirs, local_links = _local_tree(local_root, m.excludes)
        links += [PlanItem(index, rel, SKIPPED_LINK, None, None) for rel in local_links]
        remote_root_exists = transport.exists(m.remote)
        tree = transport.list_tree(m.remote) if remote_root_exists else {}
        remote = {rel: st for rel, st in tree.items() if not st.is_dir and not is_excluded(rel, m.excludes)}
        remote_dirs = {rel for rel, st in tree.items() if st.is_dir} | ({""} if remote_root_exists else set())
        for rel in _empty_folders(local, local_dirs):
            if rel not in remote_dirs:
                folders.append(PlanItem(index, rel, NEW_FOLDER, None, None))
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
    return Plan(list(mappings), roots, items, folders, links)


def sync(
    transport: Transport,
    plan: Plan,
    *,
    delete: Iterable[PlanItem] = (),
    progress: Progress | None = None,
    cancel: CancelToken | None = None,
) -> SyncResult:
    """Work function: create the plan's new folders, send new and changed files, delete only the
    remote-only items in ``delete``. A file that fails does not stop the others; if any failed,
    :class:`SyncFailed` is raised at the end (a lost connection or a cancel stops at once)."""
    progress = progress or NullProgress()
    cancel = cancel or CancelToken()
    delete = list(delete)
    for item in delete:
        if item.action != REMOTE_ONLY or item not in plan.items:
            raise DeployError(f"{item.rel}: only remote-only files listed in the plan can be deleted")
    result = SyncResult()

    def attempt(rel: str, fn: Any) -> bool:
        try:
            fn()
            return True
        except (ConnectionLost, DeployError):
            raise
        except (OSError, TransportError) as exc:
            result.failed.append((rel or ".", reason(exc)))
            progress.partial(("deploy", f"failed: {rel or '.'}: {reason(exc)}"))
            return False

    for item in plan.folders:
        cancel.raise_if_cancelled()
        target = posix_join(plan.mappings[item.mapping].remote, item.rel)
        progress.partial(("deploy", f"{NEW_FOLDER}: {item.rel or '.'}"))
        if attempt(item.rel, lambda target=target: transport.mkdir(target, parents=True)):
            result.folders_created.append(item.rel)
    sending = plan.to_send
    total = sum(i.local_size or 0 for i in sending) or 1
    done = 0
    for item in sending:
        cancel.raise_if_cancelled()
        m = plan.mappings[item.mapping]
        local = Path(plan.local_roots[item.mapping]) / item.rel
        progress.partial(("deploy", f"{item.action}: {item.rel}"))
        scaled = ScaledProgress(progress, done / total, (done + (item.local_size or 0)) / total)
        if attempt(
            item.rel,
            lambda local=local, m=m, item=item, scaled=scaled: transport.put(
                local, posix_join(m.remote, item.rel), progress=scaled, cancel=cancel
            ),
        ):
            result.sent.append(item.rel)
            result.bytes_sent += item.local_size or 0
        done += item.local_size or 0
    for item in delete:
        cancel.raise_if_cancelled()
        target = posix_join(plan.mappings[item.mapping].remote, item.rel)
        if attempt(item.rel, lambda target=target: transport.remove(target)):
            progress.partial(("deploy", f"deleted: {item.rel}"))
            result.deleted.append(item.rel)
    result.kept_remote_only = [i.rel for i in plan.of(REMOTE_ONLY) if i.rel not in result.deleted]
    progress.fraction(1.0)
    if result.failed:
        raise SyncFailed(transport.label, result)
    return result


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
