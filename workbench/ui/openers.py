"""The UI half of the registry of what the workbench can open: one opener per action id.

Core ``workbench.core.artefacts.KINDS`` says, per kind of artefact, which action *Open* is and
which actions its context menu has (plain ids); :data:`OPENERS` maps each id to the function that
does it. ``MainWindow.open_path`` and the project explorer's context menu both go through
:func:`run`. A new format = one core ``Kind`` + (if it needs a new view) one opener here.

Every opener has the same signature ``opener(context, parent, path, view)``: the application
context, the widget a dialog is parented to, the path, and the report view to show (reports only).
The views are imported when first used (start-up stays fast).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from PySide6.QtWidgets import QWidget

from workbench.core import artefacts
from workbench.ui.context import AppContext

Opener = Callable[[AppContext, QWidget, Path, "str | None"], object]


def open_report(context: AppContext, _parent: QWidget, path: Path, view: str | None = None) -> None:
    context.open_report(path, view)


def open_text(context: AppContext, parent: QWidget, path: Path, _view: str | None = None) -> object:
    from workbench.ui.documents.text_view import TextView

    return context.add_document(TextView(path, parent), path.name, str(path))


def convert_model(context: AppContext, parent: QWidget, path: Path, _view: str | None = None) -> object:
    from workbench.ui.converter.wizard import open_model_converter

    return open_model_converter(context, parent, str(path))


def show_model_structure(context: AppContext, _parent: QWidget, path: Path, _view: str | None = None) -> object:
    from workbench.ui.converter.structure_view import open_model_structure

    return open_model_structure(context, str(path))


def dump_configuration(context: AppContext, parent: QWidget, path: Path, _view: str | None = None) -> object:
    from workbench.ui.dump.config_dialog import open_dump_configuration

    return open_dump_configuration(context, parent, str(path))


def edit_dump_config(context: AppContext, parent: QWidget, path: Path, _view: str | None = None) -> object:
    from workbench.ui.dump.config_dialog import open_dump_configuration

    return open_dump_configuration(context, parent, None, str(path))


def open_dump_data(context: AppContext, _parent: QWidget, path: Path, _view: str | None = None) -> object:
    from workbench.ui.dump.data_view import open_dump_data as open_view

    return open_view(context, str(path))


def open_cluster(context: AppContext, _parent: QWidget, path: Path, _view: str | None = None) -> object:
    """The Cluster document of a job's folder of ranks or a cluster_analysis_output (File ▸ Open
    Cluster…, the report picker, the explorer); a saved ``cluster.wbcluster`` re-opens from its folder."""
    from workbench.ui.cluster.document import open_cluster as open_document

    return open_document(context, path.parent if path.is_file() else path)


def open_migration(context: AppContext, parent: QWidget, path: Path, _view: str | None = None) -> object:
    """The Migration Report document of a migration tool's report folder (convert_tf2npu's
    ``report_npu_*``, msFmkTransplt's ``*_msft``): File ▸ Open Report…, the explorer."""
    from workbench.ui.migration.document import open_migration_report

    return open_migration_report(context, path, parent=parent)


def open_model_graph(context: AppContext, _parent: QWidget, path: Path, _view: str | None = None) -> object:
    """The model as a navigable graph (issue #23): ONNX, om JSON, .om (atc --mode=1), prototxt, pb."""
    from workbench.ui.graph.document import open_model_graph as open_document

    return open_document(context, path)


OPENERS: dict[str, Opener] = {
    artefacts.OPEN_REPORT: open_report,
    artefacts.OPEN_TEXT: open_text,
    artefacts.CONVERT_MODEL: convert_model,
    artefacts.SHOW_MODEL_STRUCTURE: show_model_structure,
    artefacts.DUMP_CONFIGURATION: dump_configuration,
    artefacts.EDIT_DUMP_CONFIG: edit_dump_config,
    artefacts.OPEN_DUMP_DATA: open_dump_data,
    artefacts.OPEN_CLUSTER: open_cluster,
    artefacts.OPEN_MIGRATION: open_migration,
    artefacts.OPEN_MODEL_GRAPH: open_model_graph,
}


def run(action: str, context: AppContext, parent: QWidget, path: str | Path, view: str | None = None) -> object:
    """Do ``action`` (an id of core ``artefacts``) on ``path``."""
    return OPENERS[action](context, parent, Path(path), view)
