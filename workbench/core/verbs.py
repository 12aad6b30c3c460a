"""Registry of headless CLI verbs (`ascend-workbench <verb> …`), Qt-free.

A module that offers a verb calls ``register_verb(name, help, add_arguments, handler)`` at import
time; ``workbench.cli`` imports the modules listed in ``VERB_MODULES`` and dispatches. Core
modules import this registry, never ``workbench.cli`` (which can start the GUI).
"""
from __future__ import annotations

import argparse
from collections.abc import Callable

AddArguments = Callable[[argparse.ArgumentParser], None]
Handler = Callable[[argparse.Namespace], int]

# verb name -> (help text, function adding the sub-parser's arguments, handler(args) -> exit code)
VERBS: dict[str, tuple[str, AddArguments, Handler]] = {}

# Modules that register verbs when imported (each must be Qt-free).
VERB_MODULES = (
    "workbench.core.profiling.cli",
    "workbench.core.services.cli",
    "workbench.simtoolkit.cli",
    "workbench.core.dump.cli",
    "workbench.core.compare.cli",
    "workbench.core.atc.cli",
    "workbench.core.profiler.cli",
)


def register_verb(name: str, help_text: str, add_arguments: AddArguments, handler: Handler) -> None:
    VERBS[name] = (help_text, add_arguments, handler)
