"""File ▸ New Project: name, location and type (detected from an existing folder's contents)."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QWidget,
)

from workbench.core import project as core_project
from workbench.ui.labels import project_type_label


class NewProjectDialog(QDialog):
    def __init__(self, default_location: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(self.tr("New Project"))
        self.name = QLineEdit(self)
        self.name.setPlaceholderText(self.tr("e.g. resnet50_inference"))
        self.location = QLineEdit(default_location, self)
        browse = QPushButton(self.tr("Browse…"), self)
        browse.clicked.connect(self._browse)
        loc_row = QHBoxLayout()
        loc_row.addWidget(self.location, 1)
        loc_row.addWidget(browse)
        self.type = QComboBox(self)
        for ptype in core_project.PROJECT_TYPES:
            self.type.addItem(project_type_label(ptype), ptype)
        self.hint = QLabel(self)
        self.hint.setWordWrap(True)
        self.folder_label = QLabel(self)
        self.folder_label.setWordWrap(True)
        form = QFormLayout(self)
        form.addRow(self.tr("Project name:"), self.name)
        form.addRow(self.tr("Location:"), loc_row)
        form.addRow(self.tr("Project folder:"), self.folder_label)
        form.addRow(self.tr("Project type:"), self.type)
        form.addRow("", self.hint)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel, self)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        form.addRow(buttons)
        self.ok_button = buttons.button(QDialogButtonBox.StandardButton.Ok)
        self.name.textChanged.connect(self._update)
        self.location.textChanged.connect(self._update)
        self._update()
        self.resize(560, self.sizeHint().height())

    def folder(self) -> Path:
        return Path(self.location.text()).expanduser() / self.name.text().strip()

    def project_type(self) -> str:
        return self.type.currentData()

    def _browse(self) -> None:
        path = QFileDialog.getExistingDirectory(self, self.tr("Project Location"), self.location.text())
        if path:
            self.location.setText(path)

    def _update(self) -> None:
        name = self.name.text().strip()
        ok = bool(name) and "/" not in name
        self.ok_button.setEnabled(ok)
        folder = self.folder()
        self.folder_label.setText(str(folder) if name else "")
        if ok and folder.is_dir() and any(folder.iterdir()):
            detected = core_project.detect_type(folder)
            self.type.setCurrentIndex(core_project.PROJECT_TYPES.index(detected))
            self.hint.setText(
                self.tr(
                    "The folder exists: its files are kept and the type was detected from its contents ({0})."
                ).format(project_type_label(detected))
            )
        else:
            self.hint.setText("")
