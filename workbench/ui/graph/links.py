"""Cross-links into the model graph (issue #23): other views name an op — a row of the accuracy
comparison, an op of a profiling report, a node of the ATC wizard's pickers, a layer of the dump
configuration — and :func:`show_in_graph` centres and selects it in a graph document.

Which document: the open one of ``model`` (made the current tab; never a second copy), else
``model`` opened as a graph; without a model, any open graph that holds the name (exactly, or as
a fused op's original name); with none, the user picks the model file (Qt's own file dialog).
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QCoreApplication
from PySide6.QtWidgets import QFileDialog, QWidget

from workbench.ui.context import AppContext


def graph_documents(context: AppContext) -> list:
    """The open graph documents (GraphDocument), in tab order."""
    from workbench.ui.graph.document import GraphDocument

    widgets = context.documents() if context.documents is not None else []
    return [w for w in widgets if isinstance(w, GraphDocument)]


def holds(doc, name: str) -> bool:
    """Whether the (loaded) graph of ``doc`` has an op ``name`` (exact, or fused into an om op)."""
    graph = doc.pane.graph
    return graph is not None and (graph.index(name) is not None or bool(graph.by_original_name(name)))


def ask_model_file(parent: QWidget | None, caption: str, start: str = "") -> str:
    """A model file chosen in Qt's own file dialog ("" when cancelled)."""
    from workbench.ui.graph.document import MODEL_FILTER

    path, _ = QFileDialog.getOpenFileName(
        parent,
        caption,
        start,
        QCoreApplication.translate("GraphLinks", "Models ({0});;All files (*)").format(MODEL_FILTER),
        options=QFileDialog.Option.DontUseNativeDialog,
    )
    return path


def show_in_graph(
    context: AppContext, name: str, model: str | Path | None = None, parent: QWidget | None = None
) -> bool:
    """Centre and select op ``name`` in a graph document (see the module docstring). False when
    nothing was shown: no model chosen, the model could not be opened, or its graph has no such op
    (said in the status bar)."""
    from workbench.ui.graph.document import open_model_graph

    name = name.strip()
    if not name:
        return False
    if model:
        doc = open_model_graph(context, model, reveal=name)
        return doc is not None
    for doc in graph_documents(context):
        if holds(doc, name):
            if context.show_document is not None:
                context.show_document(doc)
            return doc.reveal(name)
    root = context.project_root()
    caption = QCoreApplication.translate("GraphLinks", "Choose the Model of {0}").format(name)
    path = ask_model_file(parent, caption, str(root) if root else "")
    if not path:
        return False
    return open_model_graph(context, path, reveal=name) is not None
