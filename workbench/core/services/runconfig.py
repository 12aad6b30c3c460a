"""Run configurations (per project): what to run, where, with which environment and devices.

Names follow MindStudio's rule: a letter first, then letters, digits, ``-`` or ``_``, at most 64
characters. Mode ``Remote`` deploys the project to the host first and runs there over SSH; mode
``Local`` runs the same command through :class:`LocalTransport` (own process group, same cancel
semantics). Stored as dicts in ``project.run_configurations``.
"""

from __future__ import annotations

import re
from dataclasses import asdict, dataclass, field
from typing import Any

from workbench.core.services.transport import LocalTransport, RunResult, Transport, check_env_name
from workbench.core.tasks import CancelToken, NullProgress, Progress

NAME_RE = re.compile(r"^[A-Za-z][A-Za-z0-9_-]{0,63}$")
REMOTE, LOCAL = "Remote", "Local"


class RunConfigError(ValueError):
    """A run configuration field is wrong; the message names the configuration and field."""


@dataclass
class RunConfiguration:
    name: str
    executable: str
    args: list[str] = field(default_factory=list)
    env: dict[str, str] = field(default_factory=dict)
    mode: str = REMOTE
    host: str = ""  # a CANN machine's name (Remote mode)
    devices: list[int] = field(default_factory=list)
    cwd: str = ""  # default: the deployed folder (Remote) or the project root (Local)
    toolkit: str = ""  # toolkit root or set_env.sh to source (empty: none; the UI fills in the detected one)
    deploy_first: bool = True

    def validate(self) -> RunConfiguration:
        where = f"run configuration {self.name!r}"
        if not NAME_RE.match(self.name or ""):
            raise RunConfigError(
                f"{where}: field 'name': expected a letter first, then letters, digits, '-' or "
                "'_', at most 64 characters"
            )
        if not isinstance(self.executable, str) or not self.executable.strip():
            raise RunConfigError(f"{where}: field 'executable': expected a program or script path")
        if not isinstance(self.args, list) or not all(isinstance(a, str) for a in self.args):
            raise RunConfigError(f"{where}: field 'args': expected a list of strings")
        if not isinstance(self.env, dict):
            raise RunConfigError(f"{where}: field 'env': expected NAME: value pairs")
        for key, value in self.env.items():
            try:
                check_env_name(key)
            except ValueError as exc:
                raise RunConfigError(f"{where}: field 'env': {exc}") from None
            if not isinstance(value, str):
                raise RunConfigError(f"{where}: field 'env': value of {key} must be a string")
        if self.mode not in (REMOTE, LOCAL):
            raise RunConfigError(f"{where}: field 'mode': expected 'Remote' or 'Local', got {self.mode!r}")
        if self.mode == REMOTE and not self.host:
            raise RunConfigError(f"{where}: field 'host': Remote mode needs a CANN machine")
        if not all(isinstance(d, int) and not isinstance(d, bool) and d >= 0 for d in self.devices):
            raise RunConfigError(f"{where}: field 'devices': expected device ids (whole numbers >= 0)")
        return self

    @property
    def argv(self) -> list[str]:
        return [self.executable, *self.args]

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, raw: Any, where: str = "run configuration") -> RunConfiguration:
        if not isinstance(raw, dict):
            raise RunConfigError(f"{where}: expected an object")
        known = set(cls.__dataclass_fields__)
        unknown = sorted(set(raw) - known)
        if unknown:
            raise RunConfigError(f"{where}: unknown field(s) {', '.join(unknown)}")
        try:
            return cls(**raw).validate()
        except TypeError as exc:
            raise RunConfigError(f"{where}: {exc}") from None


def load_run_configurations(project: Any) -> list[RunConfiguration]:
    return [
        RunConfiguration.from_dict(raw, f"{project.file}: run_configurations[{i}]")
        for i, raw in enumerate(project.run_configurations)
    ]


def save_run_configurations(project: Any, configs: list[RunConfiguration]) -> None:
    names = [c.validate().name for c in configs]
    dup = sorted({n for n in names if names.count(n) > 1})
    if dup:
        raise RunConfigError(f"duplicate run configuration name(s): {', '.join(dup)}")
    project.run_configurations = [c.to_dict() for c in configs]
    project.save()


def run_configuration(
    config: RunConfiguration,
    project: Any,
    *,
    transport: Transport | None = None,
    progress: Progress | None = None,
    cancel: CancelToken | None = None,
) -> RunResult:
    """Work function: (deploy, then) run ``config``; output streams as ``(stream, line)`` partials.

    ``transport``: the host's transport for Remote mode (e.g. ``ConnectionPool.get(config.host)``);
    Local mode always uses a :class:`LocalTransport`.
    """
    progress = progress or NullProgress()
    cancel = cancel or CancelToken()
    config.validate()
    cwd = config.cwd or None
    if config.mode == LOCAL:
        target: Transport = LocalTransport()
        cwd = cwd or str(project.root)
    else:
        if transport is None:
            raise RunConfigError(f"run configuration {config.name!r}: Remote mode needs a connection to {config.host}")
        target = transport
        if config.deploy_first:
            from workbench.core.services.deploy import compute_plan, project_mappings, sync

            mappings = project_mappings(project)
            plan = compute_plan(target, mappings, project.root, progress=progress, cancel=cancel)
            sync(target, plan, progress=progress, cancel=cancel)
            cwd = cwd or mappings[0].remote
    progress.status(f"Running {config.name} on {target.label}")
    return target.run(
        config.argv,
        cwd=cwd,
        env=config.env,
        toolkit=config.toolkit or None,
        devices=config.devices or None,
        progress=progress,
        cancel=cancel,
    )
