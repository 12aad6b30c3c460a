"""What the composition root plugs into the graph package, stdlib only (``workbench.wiring`` imports
it at every start): the PNG renderer, which needs Qt and so lives in the UI."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

# render_png(graph, layout, path): the GUI's renderer (workbench.ui.graph.render)
PngRenderer = Callable[[Any, Any, str], object]
_png_provider: Callable[[], PngRenderer] | None = None


def set_png_renderer(provider: Callable[[], PngRenderer] | None) -> None:
    """``provider()`` returns ``render_png(graph, layout, path)`` (imported only when called)."""
    global _png_provider
    _png_provider = provider


def png_renderer() -> PngRenderer | None:
    return _png_provider() if _png_provider is not None else None
