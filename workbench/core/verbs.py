"""Registry of headless CLI verbs (`ascend-workbench <verb> …`), Qt-free.

A module that offers a verb calls ``register_verb(name, help, add_arguments, handler)`` at import
time; ``workbench.cli`` imports the modules listed in ``VERB_MODULES`` and dispatches. Core
modules import this registry, never ``workbench.cli`` (which can start the GUI). Modules outside
core (the simulated toolkit's ``sim``) are added by the composition root, ``workbench.wiring``,
with :func:`add_verb_module`.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable, Iterable

AddArguments = Callable[[argparse.ArgumentParser], None]
Handler = Callable[[argparse.Namespace], int]

# verb name -> (help text, function adding the sub-parser's arguments, handler(args) -> exit code)
VERBS: dict[str, tuple[str, AddArguments, Handler]] = {}

# Modules that register verbs when imported (each must be Qt-free); add_verb_module adds more.
VERB_MODULES = [
    "workbench.core.profiling.cli",
    "workbench.core.services.cli",
    "workbench.core.dump.cli",
    "workbench.core.compare.cli",
    "workbench.core.atc.cli",
    "workbench.core.profiler.cli",
    "workbench.core.cluster.cli",
    "workbench.core.advisor.cli",
    "workbench.core.migration.cli",
]

# Which module registers each verb: ``ascend-workbench <verb>`` imports only that one (a CLI call
# then pays for what it uses, not for paramiko + pandas + every other verb). A test keeps this in
# step with what the modules register.
VERB_HOMES = {
    "report": "workbench.core.profiling.cli",
    "host": "workbench.core.services.cli",
    "remote": "workbench.core.services.cli",
    "deploy": "workbench.core.services.cli",
    "dump-config": "workbench.core.dump.cli",
    "dump": "workbench.core.dump.cli",
    "accuracy": "workbench.core.dump.cli",
    "compare": "workbench.core.compare.cli",
    "convert": "workbench.core.atc.cli",
    "model": "workbench.core.atc.cli",
    "profile": "workbench.core.profiler.cli",
    "cluster": "workbench.core.cluster.cli",
    "advise": "workbench.core.advisor.cli",
    "migrate": "workbench.core.migration.cli",
}


# verb name -> (its default action, every action it has): ``<verb> X …`` where X is none of its actions
# and no option means ``<verb> <default> X …`` (``migrate HOST --framework …`` is ``migrate run HOST …``)
DEFAULT_ACTIONS: dict[str, tuple[str, tuple[str, ...]]] = {}


def register_verb(
    name: str,
    help_text: str,
    add_arguments: AddArguments,
    handler: Handler,
    default_action: tuple[str, tuple[str, ...]] | None = None,
) -> None:
    VERBS[name] = (help_text, add_arguments, handler)
    if default_action is not None:
        DEFAULT_ACTIONS[name] = default_action


def with_default_action(argv: list[str]) -> list[str]:
    """``argv`` (verb first) with the verb's default action put in where the user left it out."""
    default = DEFAULT_ACTIONS.get(argv[0]) if argv else None
    if default is None or len(argv) < 2 or argv[1].startswith("-") or argv[1] in default[1]:
        return argv
    return [argv[0], default[0], *argv[1:]]


def add_verb_module(module: str, verbs: Iterable[str]) -> None:
    """List ``module`` (Qt-free, registering ``verbs`` when imported) beside core's verb modules."""
    if module not in VERB_MODULES:
        VERB_MODULES.append(module)
    for name in verbs:
        VERB_HOMES[name] = module


def run_guarded(run: Handler, args: argparse.Namespace, bad_input: tuple[type[BaseException], ...] = ()) -> int:
    """Run a verb's body the way every verb must end: a message on stderr, never a traceback.

    ``bad_input`` errors and unreadable files exit 2 ("error: …"); a cancelled job and anything
    unexpected exit 1.
    """
    import sys

    from workbench.core.tasks import Cancelled

    try:
        return run(args)
    except BrokenPipeError:  # `… | head`: the reader left; end quietly, as cat does
        import os

        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1
    except bad_input as exc:
        sys.stderr.write(f"error: {exc}\n")
        return 2
    except OSError as exc:
        sys.stderr.write(f"error: {getattr(exc, 'filename', '') or ''}: {exc.strerror or exc}\n")
        return 2
    except Cancelled:
        sys.stderr.write("cancelled\n")
        return 1
    except Exception as exc:  # noqa: BLE001 - the CLI reports, never dumps a traceback
        # One line on stderr; the traceback goes to the log file (made only now: a CLI run that
        # goes well never touches the log folder).
        import logging

        from workbench.core.logs import log_dir, setup_logging

        line = f"internal error: {type(exc).__name__}: {exc}"
        log_path = setup_logging("cli")
        if log_path is not None:
            logging.getLogger(__name__).error("internal error in %s", getattr(run, "__qualname__", run), exc_info=exc)
            sys.stderr.write(f"{line} (details in {log_path})\n")
        else:
            sys.stderr.write(f"{line} (no details: cannot write a log file in {log_dir()})\n")
        return 1
