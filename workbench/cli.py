"""Command line: ``ascend-workbench`` starts the GUI; ``ascend-workbench <verb> …`` runs headless.

Headless verbs call the same core services the GUI uses and never import Qt. Exit codes: 0 ok,
2 bad input (message on stderr), 1 unexpected failure.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from workbench import __version__, wiring
from workbench.core.verbs import (  # noqa: F401 - re-exported
    VERB_HOMES,
    VERB_MODULES,
    VERBS,
    register_verb,
    with_default_action,
)


def _load_verbs(only: str | None = None) -> None:
    """Import the modules that register headless verbs (each is Qt-free): the one that registers
    ``only``, or all of them."""
    import importlib

    for module in [VERB_HOMES[only]] if only in VERB_HOMES else VERB_MODULES:
        try:
            importlib.import_module(module)
        except ModuleNotFoundError as exc:
            if not exc.name or not module.startswith(exc.name):
                raise


def _gui_parser() -> argparse.ArgumentParser:
    import textwrap

    text = (
        "Ascend Workbench: a desktop workbench for Huawei Ascend NPU developers. "
        "Run without arguments to open the window; run 'ascend-workbench <verb> --help' for headless commands: "
        + ", ".join(sorted(VERB_HOMES))
        + "."
    )
    parser = argparse.ArgumentParser(
        prog="ascend-workbench",
        # wrapped here, never inside a verb's name (argparse breaks "dump-config" at its hyphen)
        description=textwrap.fill(text, width=79, break_on_hyphens=False),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action="version", version=f"ascend-workbench {__version__}")
    parser.add_argument(
        "--screenshot", metavar="OUT.png", help="start, lay out, render the main window to OUT.png and exit"
    )
    parser.add_argument(
        "--open",
        metavar="PATH",
        action="append",
        default=[],
        help="open a project folder, a report or a file at start (repeatable)",
    )
    parser.add_argument(
        "--view",
        choices=["timeline", "events", "statistics", "aicore", "summary"],
        help="with --open REPORT: the report view to show (for screenshots)",
    )
    parser.add_argument("--lang", metavar="LANG", choices=["en", "zh_CN"], help="user interface language for this run")
    parser.add_argument(
        "--size", metavar="WxH", default="1400x900", help="window size for --screenshot (default 1400x900)"
    )
    parser.add_argument(
        "--no-demo", action="store_true", help="do not open the demo project and sample report on a first start"
    )
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    if getattr(sys, "frozen", False):  # the bundled app: a local Dask worker process re-runs this executable
        import multiprocessing

        multiprocessing.freeze_support()
    argv = list(sys.argv[1:] if argv is None else argv)
    wiring.install()  # the simulated toolkit: the demo host and the `sim` verb
    if argv and argv[0] in VERB_HOMES:
        _load_verbs(argv[0])  # only the module of this verb: --version, --help and the GUI import none
    if argv and argv[0] in VERBS:
        argv = with_default_action(argv)
        help_text, add_arguments, handler = VERBS[argv[0]]
        parser = argparse.ArgumentParser(prog=f"ascend-workbench {argv[0]}", description=help_text)
        add_arguments(parser)
        args = parser.parse_args(argv[1:])
        return handler(args)
    args = _gui_parser().parse_args(argv)
    from workbench.ui.app import run_gui  # Qt is imported only here

    return run_gui(args)


if __name__ == "__main__":
    sys.exit(main())
