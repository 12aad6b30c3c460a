"""Deployment: local folder <-> remote folder mappings, a sync plan, and pulling artefacts back.

``compute_plan`` compares each mapping's local tree with the remote tree (size and whole-second
mtime; uploads copy the mtime, so a synced file compares equal next time) and sorts every file
into *new*, *changed*, *remote-only*, *unchanged*, *conflict* or *changed-on-host*; an empty
local folder (``dump/`` for the runtime's output) with no remote counterpart is a *new-folder*
entry (``Plan.folders``).
``sync`` creates those folders and sends only new and changed files; a file that cannot be sent
does not stop the others: the :class:`SyncResult` lists it, and :class:`SyncFailed` (carrying
the result) is raised at the end. ``SyncResult.summary()`` is the one line to show the user.
**Remote-only files are never deleted** — unless the caller passes them in ``delete`` (the user
ticked them in the plan). Excluded globs apply on both sides, so remote outputs in excluded
folders are not even listed.

**A host edit is never overwritten unless the user ticks it** (``overwrite``). Every sync records
what it sent (and what it found equal) per host and remote folder in the project's
``.ascend-workbench/deploy-state.json``: the local size and mtime, and the host copy's size and
mtime right after the upload. The next plan compares both sides with that record, as two-way
tools (Unison, MindStudio's "changed remotely" check) do:

* host copy as recorded, local edited -> *changed* (sent);
* host copy edited since the upload, local as recorded -> *changed-on-host* (not sent);
* both edited -> *conflict* (not sent);
* both edited to the same size and mtime -> *unchanged*.

Without a record for a file (first deploy, a folder that is no project) the rule of
``rsync --update`` applies: a host copy newer than the local one is a *conflict* and not sent; an
older one is *changed* and replaced. ``sync`` also checks each changed file's host copy again right
before replacing it, so an edit made after the plan was computed is held back too.

Mappings live in the project file under ``"deployment": {"mappings": [...]}``.
"""

from __future__ import annotations

import fnmatch
import json
import logging
import os
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from workbench.core.fsutil import atomic_write_text
from workbench.core.project import PROJECT_DIR
from workbench.core.services.transport import ConnectionLost, FileStat, Transport, TransportError, posix_join, reason
from workbench.core.tasks import CancelToken, NullProgress, Progress, ScaledProgress

log = logging.getLogger(__name__)

DEFAULT_EXCLUDES = (".ascend-workbench", ".git", "__pycache__", "*.pyc", ".wbpart-*", ".idea", ".vscode")
NEW, CHANGED, REMOTE_ONLY, UNCHANGED = "new", "changed", "remote-only", "unchanged"
NEW_FOLDER = "new-folder"  # an empty local folder that does not exist on the host yet
SKIPPED_LINK = "skipped-link"  # a symbolic link in the project: never followed, never sent
CONFLICT = "conflict"  # edited on the host since the last sync and locally too: not sent unless ticked
CHANGED_ON_HOST = "changed-on-host"  # edited on the host since the last sync, not locally: not sent unless ticked
HELD_BACK = (CONFLICT, CHANGED_ON_HOST)
STATE_FILE = "deploy-state.json"  # in the project's .ascend-workbench/: what each sync sent
STATE_SCHEMA = 1


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
    local_mtime: float | None = None
    remote_mtime: float | None = None

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
    items: list[PlanItem]  # files: new, changed, remote-only, unchanged, conflict, changed-on-host
    folders: list[PlanItem] = field(default_factory=list)  # NEW_FOLDER: empty local folders to create
    links: list[PlanItem] = field(default_factory=list)  # SKIPPED_LINK: symbolic links left out
    project_root: str = ""  # where the sync history lives (its .ascend-workbench/ folder)
    host: str = ""  # the transport's label: the history is kept per host and remote folder

    def of(self, action: str) -> list[PlanItem]:
        where = {NEW_FOLDER: self.folders, SKIPPED_LINK: self.links}.get(action, self.items)
        return [i for i in where if i.action == action]

    @property
    def to_send(self) -> list[PlanItem]:
        return [i for i in self.items if i.action in (NEW, CHANGED)]

    @property
    def held_back(self) -> list[PlanItem]:
        """Conflicts and files changed on the host: sent only when the caller passes them in ``overwrite``."""
        return [i for i in self.items if i.action in HELD_BACK]

    def to_dict(self) -> dict[str, Any]:
        actions = (NEW, CHANGED, REMOTE_ONLY, UNCHANGED, NEW_FOLDER, SKIPPED_LINK, CONFLICT, CHANGED_ON_HOST)
        return {
            "mappings": [m.to_dict() for m in self.mappings],
            "counts": {a: len(self.of(a)) for a in actions},
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
    conflicts_not_sent: list[str] = field(default_factory=list)  # changed on the host: left as they are

    def counts(self) -> dict[str, int]:
        """Numbers for a translated summary: sent, folders_created, deleted, kept, conflicts, failed."""
        return {
            "sent": len(self.sent),
            "folders_created": len(self.folders_created),
            "deleted": len(self.deleted),
            "kept": len(self.kept_remote_only),
            "conflicts": len(self.conflicts_not_sent),
            "failed": len(self.failed),
        }

    def summary(self) -> str:
        """E.g. "3 sent, 1 folder created, 2 kept (only on the host), 2 conflicts not sent, 0 failed"."""
        c = self.counts()
        parts = [
            f"{c['sent']} sent",
            f"{c['folders_created']} folder{'' if c['folders_created'] == 1 else 's'} created",
        ]
        if c["deleted"]:
            parts.append(f"{c['deleted']} deleted")
        parts.append(f"{c['kept']} kept (only on the host)")
        if c["conflicts"]:
            parts.append(f"{c['conflicts']} conflict{'' if c['conflicts'] == 1 else 's'} not sent")
        parts.append(f"{c['failed']} failed")
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
            "conflicts_not_sent": list(self.conflicts_not_sent),
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


# --- sync history ----------------------------------------------------------------------------


def state_file(project_root: str | os.PathLike[str]) -> Path:
    """Where the sync history of a project lives: ``<root>/.ascend-workbench/deploy-state.json``."""
    return Path(project_root) / PROJECT_DIR / STATE_FILE


def _number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def load_state(project_root: str | os.PathLike[str]) -> dict[str, Any]:
    """The sync history as stored (unknown keys kept); a missing file is an empty history. A
    damaged one raises :class:`DeployError` naming the file, the field and what was expected."""
    file = state_file(project_root)
    fix = "fix it, or delete it to forget the deployment history"
    try:
        text = file.read_text(encoding="utf-8-sig")
    except FileNotFoundError:
        return {"schema_version": STATE_SCHEMA, "targets": []}
    except (OSError, UnicodeDecodeError) as exc:
        raise DeployError(f"{file}: cannot read the deployment history: {reason(exc)}") from None
    try:
        raw = json.loads(text)
    except json.JSONDecodeError as exc:
        raise DeployError(f"{file}: line {exc.lineno}, column {exc.colno}: not valid JSON ({exc.msg}); {fix}") from None
    except RecursionError:
        raise DeployError(f"{file}: nested too deeply to be a deployment history; {fix}") from None

    def check(cond: bool, msg: str) -> None:
        if not cond:
            raise DeployError(f"{file}: {msg}; {fix}")

    check(isinstance(raw, dict), f"expected a JSON object at the top level, got {type(raw).__name__}")
    version = raw.get("schema_version")
    check(
        isinstance(version, int) and not isinstance(version, bool) and version >= 1,
        f"field 'schema_version' must be a whole number >= 1, got {version!r}",
    )
    if version > STATE_SCHEMA:
        raise DeployError(
            f"{file}: written by a newer Ascend Workbench (schema {version}; this build reads up to "
            f"{STATE_SCHEMA}); deploy with that version, or delete the file to forget the deployment history"
        )
    targets = raw.setdefault("targets", [])
    check(isinstance(targets, list), f"field 'targets' must be a list, got {type(targets).__name__}")
    for i, t in enumerate(targets):
        where = f"targets[{i}]"
        check(isinstance(t, dict), f"field '{where}' must be an object, got {type(t).__name__}")
        for key in ("host", "remote"):
            check(isinstance(t.get(key), str), f"field '{where}.{key}' must be a string, got {t.get(key)!r}")
        files = t.setdefault("files", {})
        check(isinstance(files, dict), f"field '{where}.files' must be an object, got {type(files).__name__}")
        for rel, entry in files.items():
            check(isinstance(entry, dict), f"field '{where}.files[{rel!r}]' must be an object")
            for key in ("size", "mtime", "remote_size", "remote_mtime"):
                check(
                    _number(entry.get(key)),
                    f"field '{where}.files[{rel!r}].{key}' must be a number, got {entry.get(key)!r}",
                )
    return raw


def _target(state: dict[str, Any], host: str, remote: str, create: bool = False) -> dict[str, Any] | None:
    for t in state["targets"]:
        if t["host"] == host and t["remote"] == remote:
            return t
    if not create:
        return None
    t = {"host": host, "remote": remote, "files": {}}
    state["targets"].append(t)
    return t


def _record(size: int, mtime: float, remote: FileStat | None) -> dict[str, Any]:
    return {
        "size": size,
        "mtime": mtime,
        "remote_size": remote.size if remote else size,
        "remote_mtime": remote.mtime if remote else mtime,
    }


def _same(size: int | None, mtime: float | None, other_size: Any, other_mtime: Any) -> bool:
    return size == other_size and mtime is not None and int(mtime) == int(other_mtime)


def _classify(lo: FileStat | None, re_: FileStat | None, seen: dict[str, Any] | None) -> str:
    """The action for one file from its local and host stat and what the last sync recorded."""
    if re_ is None:
        return NEW
    if lo is None:
        return REMOTE_ONLY
    if _same(lo.size, lo.mtime, re_.size, re_.mtime):
        return UNCHANGED
    if seen is None:  # no history: rsync --update (a newer host copy is not replaced)
        return CONFLICT if int(re_.mtime) > int(lo.mtime) else CHANGED
    host_edited = not _same(re_.size, re_.mtime, seen["remote_size"], seen["remote_mtime"])
    local_edited = not _same(lo.size, lo.mtime, seen["size"], seen["mtime"])
    if not host_edited:
        return CHANGED if local_edited else UNCHANGED
    return CONFLICT if local_edited else CHANGED_ON_HOST


def compute_plan(
    transport: Transport,
    mappings: list[Mapping],
    project_root: str | os.PathLike[str],
    *,
    progress: Progress | None = None,
    cancel: CancelToken | None = None,
) -> Plan:
    """Work function: compare each mapping's trees (files; empty local folders missing on the host)
    with each other and with the last sync's record, and return the plan."""
    progress = progress or NullProgress()
    cancel = cancel or CancelToken()
    items: list[PlanItem] = []
    folders: list[PlanItem] = []
    roots: list[str] = []
    links: list[PlanItem] = []
    project = Path(project_root).resolve()
    state = load_state(project_root)
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
        history = (_target(state, transport.label, m.remote) or {}).get("files", {})
        for rel in sorted(set(local) | set(remote)):
            lo, re_ = local.get(rel), remote.get(rel)
            action = _classify(lo, re_, history.get(rel))
            items.append(
                PlanItem(
                    index,
                    rel,
                    action,
                    lo.size if lo else None,
                    re_.size if re_ else None,
                    lo.mtime if lo else None,
                    re_.mtime if re_ else None,
                )
            )
    return Plan(list(mappings), roots, items, folders, links, str(project_root), transport.label)


def _save_history(plan: Plan, records: dict[int, dict[str, dict[str, Any] | None]]) -> None:
    """Merge what this sync sent / found equal (``None``: forget the file) into the history file.
    Only a project (a folder with ``.ascend-workbench/``) keeps one."""
    if not plan.project_root or not (Path(plan.project_root) / PROJECT_DIR).is_dir():
        return
    state = load_state(plan.project_root)
    state["schema_version"] = STATE_SCHEMA
    for index, m in enumerate(plan.mappings):
        in_plan = {i.rel for i in plan.items if i.mapping == index}
        target = _target(state, plan.host, m.remote, create=True)
        assert target is not None
        files = {rel: e for rel, e in target["files"].items() if rel in in_plan}  # both sides gone: forget
        for rel, entry in records.get(index, {}).items():
            if entry is None:
                files.pop(rel, None)
            else:
                files[rel] = {**files.get(rel, {}), **entry}
        target["files"] = files
        target["local"] = m.local
    atomic_write_text(state_file(plan.project_root), json.dumps(state, indent=1, ensure_ascii=False) + "\n")


def sync(
    transport: Transport,
    plan: Plan,
    *,
    delete: Iterable[PlanItem] = (),
    overwrite: Iterable[PlanItem] = (),
    progress: Progress | None = None,
    cancel: CancelToken | None = None,
) -> SyncResult:
    """Work function: create the plan's new folders, send new and changed files (and the
    conflicts / files changed on the host listed in ``overwrite``: the user ticked them), delete
    only the remote-only items in ``delete``. A file that fails does not stop the others; if any
    failed, :class:`SyncFailed` is raised at the end (a lost connection or a cancel stops at once).
    What was sent is recorded in the project's history, also when the sync stops early."""
    progress = progress or NullProgress()
    cancel = cancel or CancelToken()
    delete = list(delete)
    overwrite = list(overwrite)
    for item in delete:
        if item.action != REMOTE_ONLY or item not in plan.items:
            raise DeployError(f"{item.rel}: only remote-only files listed in the plan can be deleted")
    for item in overwrite:
        if item.action not in HELD_BACK or item not in plan.items:
            raise DeployError(f"{item.rel}: only conflicts listed in the plan can be overwritten")
    result = SyncResult()
    records: dict[int, dict[str, dict[str, Any] | None]] = {}
    for item in plan.of(UNCHANGED):
        assert item.local_size is not None and item.local_mtime is not None
        remote = FileStat(item.remote_size or 0, item.remote_mtime or 0.0, False)
        records.setdefault(item.mapping, {})[item.rel] = _record(item.local_size, item.local_mtime, remote)

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

    def hold_back(item: PlanItem, why: str) -> None:
        result.conflicts_not_sent.append(item.rel)
        progress.partial(("deploy", f"{item.action}: {item.rel}: {why}"))

    def edited_since_plan(target: str, item: PlanItem) -> bool:
        """A changed file's host copy was edited after the plan was computed (one stat)."""
        try:
            now = transport.stat(target)
        except FileNotFoundError:
            return False
        return not _same(now.size, now.mtime, item.remote_size, item.remote_mtime)

    def send(item: PlanItem, local: Path, target: str, scaled: Progress) -> None:
        st = local.stat()  # before the upload: what is recorded is at most older than what was sent
        transport.put(local, target, progress=scaled, cancel=cancel)
        try:
            after: FileStat | None = transport.stat(target)
        except ConnectionLost:
            raise
        except (OSError, TransportError):
            after = None  # the upload copied size and mtime: record those
        records.setdefault(item.mapping, {})[item.rel] = _record(st.st_size, st.st_mtime, after)

    try:
        for item in plan.folders:
            cancel.raise_if_cancelled()
            target = posix_join(plan.mappings[item.mapping].remote, item.rel)
            progress.partial(("deploy", f"{NEW_FOLDER}: {item.rel or '.'}"))
            if attempt(item.rel, lambda target=target: transport.mkdir(target, parents=True)):
                result.folders_created.append(item.rel)
        ticked = set(overwrite)
        for item in plan.held_back:
            if item not in ticked:
                hold_back(item, "not sent (changed on the host since the last sync; tick it to overwrite)")
        sending = [i for i in plan.items if i.action in (NEW, CHANGED) or i in ticked]
        total = sum(i.local_size or 0 for i in sending) or 1
        done = 0
        for item in sending:
            cancel.raise_if_cancelled()
            m = plan.mappings[item.mapping]
            local = Path(plan.local_roots[item.mapping]) / item.rel
            target = posix_join(m.remote, item.rel)
            if item.action == CHANGED and edited_since_plan(target, item):
                hold_back(item, "not sent (changed on the host after the plan was computed)")
                done += item.local_size or 0
                continue
            progress.partial(("deploy", f"{item.action}: {item.rel}"))
            scaled = ScaledProgress(progress, done / total, (done + (item.local_size or 0)) / total)
            if attempt(
                item.rel,
                lambda item=item, local=local, target=target, scaled=scaled: send(item, local, target, scaled),
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
                records.setdefault(item.mapping, {})[item.rel] = None
    except BaseException:
        try:
            _save_history(plan, records)
        except (OSError, DeployError) as exc:
            log.warning("%s: the deployment history was not updated: %s", state_file(plan.project_root), exc)
        raise
    try:
        _save_history(plan, records)
    except (OSError, DeployError) as exc:
        result.failed.append(
            (str(state_file(plan.project_root)), f"the deployment history was not updated: {reason(exc)}")
        )
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
    section = project.extra.get("deployment")
    if section is not None and not isinstance(section, dict):
        raise DeployError(
            f"{project.file}: field 'deployment': expected {{\"mappings\": [...]}}, got {type(section).__name__}"
        )
    raw = (section or {}).get("mappings")
    if raw is not None and not isinstance(raw, list):
        raise DeployError(
            f"{project.file}: field 'deployment.mappings': expected a list of mappings, got {type(raw).__name__}"
        )
    if raw:
        return [Mapping.from_dict(r, f"{project.file}: deployment.mappings[{i}]") for i, r in enumerate(raw)]
    remote = project.remote.remote_path or f"ascend-workbench/{project.name}"
    return [Mapping(".", remote)]


def set_project_mappings(project: Any, mappings: list[Mapping]) -> None:
    project.extra["deployment"] = {"mappings": [m.to_dict() for m in mappings]}
