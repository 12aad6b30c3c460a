"""Shared pieces of the dump views: host choice, path rows, and the glue work functions that resolve
a host on the worker thread (the demo host installs its toolkit on first use) before calling core."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtWidgets import QComboBox, QFileDialog, QHBoxLayout, QLineEdit, QPushButton, QWidget

from workbench.core import paths
from workbench.core.dump.omjson import OmModel, read_om_json
from workbench.core.services import demohost
from workbench.core.services.hosts import HostError


def host_items() -> list[tuple[str, str]]:
    """(label, host name): the demo host first, then the configured CANN machines."""
    from workbench.ui.hosts.combo import host_label

    try:
        return [(host_label(h), h.name) for h in demohost.all_hosts()]
    except HostError as exc:
        return [(str(exc), "")]


def fill_hosts(combo: QComboBox) -> None:
    from workbench.ui.hosts.combo import fill_host_combo

    fill_host_combo(combo)


class PathRow(QWidget):
    """A line edit with a Browse… button (a file, a folder, or a file to save)."""

    def __init__(self, mode: str, caption: str, name_filter: str = "", parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.mode, self.caption, self.name_filter = mode, caption, name_filter
        self.edit = QLineEdit(self)
        self.button = QPushButton(self.tr("Browse…"), self)
        self.button.clicked.connect(self.browse)
        lay = QHBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.addWidget(self.edit, 1)
        lay.addWidget(self.button)

    def text(self) -> str:
        return self.edit.text().strip()

    def setText(self, text: str) -> None:  # noqa: N802 - mirrors QLineEdit
        self.edit.setText(text)

    def browse(self) -> None:
        start = self.text() or str(Path.home())
        opts = QFileDialog.Option.DontUseNativeDialog
        if self.mode == "dir":
            chosen = QFileDialog.getExistingDirectory(self, self.caption, start, opts)
        elif self.mode == "save":
            chosen = QFileDialog.getSaveFileName(self, self.caption, start, self.name_filter, options=opts)[0]
        else:
            chosen = QFileDialog.getOpenFileName(self, self.caption, start, self.name_filter, options=opts)[0]
        if chosen:
            self.edit.setText(chosen)
            self.edit.editingFinished.emit()


def om_json_target(om: str) -> Path:
    """Where the om JSON of an .om read on a host is kept (the user's cache folder)."""
    return paths.cache_dir() / "om2json" / (Path(om).stem + ".json")


# ----- work functions (run on worker threads through the context's bridge)
def read_model(path: str, *, progress, cancel) -> OmModel:
    progress.status(f"Reading {Path(path).name}")
    return read_om_json(path)


def model_from_om(host_name: str, om: str, on_host: bool, target: str, prompter, pool, *, progress, cancel) -> OmModel:
    """``atc --mode=1`` on the host (see core ``model_structure``), the JSON kept at ``target``."""
    from workbench.core.atc.structure import model_structure
    from workbench.core.services.ssh import transport_for

    host = demohost.resolve_host(host_name)
    Path(target).parent.mkdir(parents=True, exist_ok=True)
    model_structure(
        om,
        transport_for(host, prompter, pool),
        host.toolkit or None,
        on_host=on_host,
        save_json=target,
        progress=progress,
        cancel=cancel,
    )
    return read_om_json(target)


def compare_on_host(
    host_name: str,
    npu: str,
    golden: str,
    rule: str,
    algorithms: list[str],
    threshold: float,
    on_host: bool,
    prompter,
    pool,
    *,
    progress,
    cancel,
):
    """The host's msaccucmp.py compare (core ``remote_compare``)."""
    from workbench.core.dump.remote import remote_compare
    from workbench.core.services.ssh import transport_for

    host = demohost.resolve_host(host_name)
    return remote_compare(
        transport_for(host, prompter, pool),
        npu,
        golden,
        fusion_rule=rule,
        algorithms=algorithms,
        threshold=threshold,
        on_host=on_host,
        toolkit=host.toolkit or None,
        progress=progress,
        cancel=cancel,
    )
