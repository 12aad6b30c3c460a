"""The composition root: plugs the simulated CANN toolkit into core, which does not know it.

``install()`` gives the demo host (``demo``) its toolkit and lists the ``sim`` verb. It is called
by ``workbench.cli.main`` before any verb runs and by the GUI start (``workbench.ui.app``); the
test suite calls it too (``tests/conftest.py``). It imports nothing heavy: the simulated toolkit
is imported only when the demo host is first used, and ``sim``'s module only when that verb runs.
"""

from __future__ import annotations

from pathlib import Path

SIM_VERB_MODULE = "workbench.simtoolkit.cli"
SIM_VERBS = ("sim",)


def demo_toolkit() -> Path:
    """The demo host's simulated toolkit root, installed (or refreshed) on first use."""
    from workbench.simtoolkit.demo import ensure_demo_toolkit

    return ensure_demo_toolkit()


def install() -> None:
    """Wire the simulated toolkit in (idempotent)."""
    from workbench.core import verbs
    from workbench.core.services import demohost

    demohost.set_demo_toolkit_provider(demo_toolkit)
    verbs.add_verb_module(SIM_VERB_MODULE, SIM_VERBS)
