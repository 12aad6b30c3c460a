"""The composition root: plugs the simulated CANN toolkit into core, which does not know it.

``install()`` gives the demo host (``demo``) its toolkit, lists the ``sim`` verb and gives
``model graph --png`` the GUI's renderer. It is called
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


def png_renderer():  # noqa: ANN201 - workbench.ui.graph.render.render_png
    """The GUI's PNG renderer of a laid-out graph (``model graph --png``): Qt, imported only when used."""
    from workbench.ui.graph.render import render_png

    return render_png


def install() -> None:
    """Wire the simulated toolkit in (idempotent)."""
    from workbench.core import verbs
    from workbench.core.graph import hooks as graph_hooks
    from workbench.core.services import demohost

    demohost.set_demo_toolkit_provider(demo_toolkit)
    graph_hooks.set_png_renderer(png_renderer)
    verbs.add_verb_module(SIM_VERB_MODULE, SIM_VERBS)
