"""Run one command on a host as a work function (for the TaskRunner, the CLI and run configurations).

The heavy lifting (bash wrapper, streaming, process-group kill) is ``Transport.run``; this adds
the status line, ``K=V`` parsing for user input, and the device choice.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from workbench.core.services.transport import RunResult, Transport, check_env_name, describe
from workbench.core.tasks import CancelToken, Progress


def parse_env(assignments: Sequence[str], where: str = "--env") -> dict[str, str]:
    """``["K=V", …]`` -> dict; a bad item raises ValueError naming it and the expected form."""
    env: dict[str, str] = {}
    for item in assignments:
        name, sep, value = item.partition("=")
        if not sep:
            raise ValueError(f"{where} {item!r}: expected NAME=VALUE")
        try:
            env[check_env_name(name)] = value
        except ValueError as exc:
            raise ValueError(f"{where} {item!r}: {exc}") from None
    return env


def parse_devices(text: str, where: str = "--devices") -> list[int]:
    """``"0,1"`` -> [0, 1] (ASCEND_RT_VISIBLE_DEVICES); "" -> []."""
    out: list[int] = []
    for part in filter(None, (p.strip() for p in text.split(","))):
        if not part.isdigit():
            raise ValueError(f"{where} {text!r}: expected device ids like 0,1 (got {part!r})")
        out.append(int(part))
    return out


def run_command(
    transport: Transport,
    argv: Sequence[str],
    *,
    cwd: str | None = None,
    env: Mapping[str, str] | None = None,
    toolkit: str | None = None,
    devices: Sequence[int] | None = None,
    timeout: float | None = None,
    progress: Progress,
    cancel: CancelToken,
) -> RunResult:
    """Work function: run ``argv`` on ``transport`` streaming ``("stdout"|"stderr", line)`` partials."""
    progress.status(f"Running {describe(argv)} on {transport.label}")
    progress.fraction(None)
    result = transport.run(
        argv, cwd=cwd, env=env, toolkit=toolkit, devices=devices, timeout=timeout, progress=progress, cancel=cancel
    )
    progress.status(f"{describe(argv[:1])} exited with status {result.exit_status}")
    return result
