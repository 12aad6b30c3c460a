"""Planted problems: what the advisor must find (issue #21), put into a generated torch_npu run on purpose.

``python -m workbench.simtoolkit.profdata torch OUT --plant NAME[,NAME...]`` and
``write_torch_npu(..., plants=...)``. A plant is registered by the module of its subject (its ``register``
call below names the hook point) and changes the run at one of four points:

- ``workload``: the op sequence before scheduling (``Workload -> Workload``): e.g. an op moved to AI CPU;
- ``run``: the scheduled run before anything is written (``Run -> None``, in place): e.g. host gaps;
- ``comm``: the rank's communication operators (``list[CommOp] -> list[CommOp]``): e.g. small packets;
- ``meta``: the ``profiler_metadata.json`` document (``dict -> None``, in place): e.g. environment settings.

Every plant's one-line description is in :data:`PLANTS` (the CLI's help and the tests read it). The
subjects' modules (``problems_compute``, ``problems_host``) import this one to register; ``torchnpu``
imports them, so every plant is known wherever a run is written.
"""

from __future__ import annotations

from collections.abc import Callable, Collection
from typing import Any

PLANTS: dict[str, str] = {}  # name -> what it plants
_HOOKS: dict[str, dict[str, Callable[..., Any]]] = {"workload": {}, "run": {}, "comm": {}, "meta": {}}


def register(name: str, point: str, description: str) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """Decorator: ``fn`` plants problem ``name`` at hook ``point`` (workload | run | comm | meta)."""

    def add(fn: Callable[..., Any]) -> Callable[..., Any]:
        if point not in _HOOKS:
            raise ValueError(f"plant {name}: unknown hook point {point!r}")
        _HOOKS[point][name] = fn
        PLANTS[name] = description
        return fn

    return add


def check(plants: Collection[str]) -> None:
    """ValueError naming the first unknown plant (and the known ones)."""
    for name in plants:
        if name not in PLANTS:
            known = ", ".join(sorted(PLANTS)) or "none"
            raise ValueError(f"--plant: {name!r} is not a known problem (known: {known})")


def apply(point: str, plants: Collection[str], value: Any) -> Any:
    """Run the plants of ``point`` named in ``plants`` over ``value``, in the order given. workload and
    comm hooks return the new value; run and meta hooks change it in place (and return None)."""
    for name in plants:
        fn = _HOOKS[point].get(name)
        if fn is None:
            continue
        out = fn(value)
        if out is not None:
            value = out
    return value
