"""Model page: CANN machine, model file (local or on the host), framework, weight, output name and
folder, ``--soc_version`` (proposed from the host's npu-smi, editable from the known list)."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Signal
from PySide6.QtWidgets import (
    QButtonGroup,
    QComboBox,
    QFileDialog,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QRadioButton,
    QWidget,
)

from workbench.core.atc import ConversionJob, Issue, detect_framework
from workbench.core.atc.flags import FRAMEWORKS, SOC_VERSIONS
from workbench.core.services import demohost
from workbench.ui.converter.page_base import ConverterPage
from workbench.ui.converter.widgets import FILE_DIALOG

MODEL_FILTER = "*.onnx *.pb *.prototxt *.air"


def _row(*widgets: QWidget) -> QHBoxLayout:
    row = QHBoxLayout()
    row.setContentsMargins(0, 0, 0, 0)
    for i, w in enumerate(widgets):
        row.addWidget(w, 1 if i == 0 else 0)
    return row


class ModelPage(ConverterPage):
    FIELDS = ("host", "model", "framework", "weight", "output", "soc_version")
    host_changed = Signal(str)
    model_chosen = Signal()  # a (new) model path was entered: the wizard reads its inputs
    detect_soc_requested = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(
            self.tr("Model"), self.tr("Choose the CANN machine, the model to convert and the target SoC."), parent
        )
        self.host = QComboBox(self)
        self.host_note = QLabel(self)
        self.host_note.setWordWrap(True)
        self.host_note.setStyleSheet("color: #b7791f;")
        self.missing_host = ""  # a host the project names that is not configured (shown in the note)
        self.fill_hosts()
        self.host.currentIndexChanged.connect(self._host_changed)
        self.local = QRadioButton(self.tr("Local file (uploaded to the host)"), self)
        self.on_host = QRadioButton(self.tr("Path on the host"), self)
        self.local.setChecked(True)
        group = QButtonGroup(self)
        group.addButton(self.local)
        group.addButton(self.on_host)
        self.local.toggled.connect(self._location_changed)
        self.model = QLineEdit(self)
        self.model.setPlaceholderText(self.tr("e.g. resnet50.onnx, model.pb, deploy.prototxt, net.air"))
        self.model.textChanged.connect(self._model_text)
        self.model.editingFinished.connect(self._model_entered)
        self.model_browse = QPushButton(self.tr("Browse…"), self)
        self.model_browse.clicked.connect(self._browse_model)
        self.framework = QComboBox(self)
        self.framework.addItem(self.tr("From the file name"), None)
        for code, name in FRAMEWORKS.items():
            self.framework.addItem(f"{name} ({code})", code)
        self.framework.currentIndexChanged.connect(self._framework_changed)
        self.detected = QLabel(self)
        self.weight = QLineEdit(self)
        self.weight.setPlaceholderText(self.tr("Caffe weights (.caffemodel)"))
        self.weight.textChanged.connect(self.notify)
        self.weight_browse = QPushButton(self.tr("Browse…"), self)
        self.weight_browse.clicked.connect(self._browse_weight)
        self.output = QLineEdit(self)
        self.output.textChanged.connect(self.notify)
        self.out_dir = QLineEdit(self)
        self.out_dir.setPlaceholderText(self.tr("the project folder"))
        self.out_dir.textChanged.connect(self.notify)
        out_browse = QPushButton(self.tr("Browse…"), self)
        out_browse.clicked.connect(self._browse_out_dir)
        self.soc = QComboBox(self)
        self.soc.setEditable(True)
        self.soc.addItems(SOC_VERSIONS)
        self.soc.setCurrentIndex(-1)
        self.soc.lineEdit().setPlaceholderText(self.tr("e.g. Ascend310P3"))
        self.soc.currentTextChanged.connect(self._soc_edited)
        self.soc_detect = QPushButton(self.tr("Detect"), self)
        self.soc_detect.setToolTip(self.tr("Read the NPU type with npu-smi info on the chosen machine"))
        self.soc_detect.clicked.connect(self._detect_clicked)
        self.soc_status = QLabel(self)
        self.soc_status.setWordWrap(True)
        self.soc_proposed = ""  # the value last proposed by npu-smi (replaced by the next proposal)

        form = QFormLayout()
        form.addRow(self.tr("CANN machine:"), self.host)
        form.addRow("", self.host_note)
        loc = QHBoxLayout()
        loc.addWidget(self.local)
        loc.addWidget(self.on_host)
        loc.addStretch(1)
        form.addRow(self.tr("Model location:"), loc)
        form.addRow(self.tr("Model file:"), _row(self.model, self.model_browse))
        form.addRow(self.tr("Framework:"), _row(self.framework, self.detected))
        form.addRow(self.tr("Weight file:"), _row(self.weight, self.weight_browse))
        form.addRow(self.tr("Output name:"), self.output)
        form.addRow(self.tr("Output folder:"), _row(self.out_dir, out_browse))
        form.addRow(self.tr("SoC version:"), _row(self.soc, self.soc_detect))
        form.addRow("", self.soc_status)
        self.body.addLayout(form)
        self.body.addStretch(1)
        self.field_widgets = {
            "host": self.host,
            "model": self.model,
            "framework": self.framework,
            "weight": self.weight,
            "output": self.output,
            "soc_version": self.soc,
        }
        self._update_enabled()

    # --- hosts ------------------------------------------------------------------------------------
    def fill_hosts(self) -> None:
        from workbench.ui.hosts.combo import fill_host_combo

        fill_host_combo(self.host)
        self._update_host_note()

    def _update_host_note(self) -> None:
        demo = self.host_name() == demohost.DEMO_NAME
        notes = []
        if self.missing_host:
            text = self.tr("{0} is not a configured CANN machine (Ascend ▸ CANN Machines adds it); choose one here.")
            notes.append(text.format(self.missing_host))
        if demo:
            notes.append(
                self.tr(
                    "Simulated: the demo host runs a simulated CANN toolkit on this computer, for "
                    "trying the workbench. Its .om files do not run on an NPU."
                )
            )
        self.host_note.setText("\n".join(notes))
        self.host_note.setVisible(bool(notes))

    def host_name(self) -> str:
        return self.host.currentData() or ""

    def set_host(self, name: str) -> bool:
        """Select the host ``name``; False (and a note saying so) when it is not configured."""
        index = self.host.findData(name) if name else -1
        self.missing_host = name if name and index < 0 else ""
        if index >= 0:
            self.host.setCurrentIndex(index)
        self._update_host_note()
        return index >= 0

    def _host_changed(self) -> None:
        self.missing_host = ""
        self._update_host_note()
        self.host_changed.emit(self.host_name())
        self.changed.emit()

    # --- soc ----------------------------------------------------------------------------------------
    def propose_soc(
        self,
        proposed: str | None,
        choices: list[str],
        host: str,
        *,
        candidates: list[str] | tuple[str, ...] = (),
        chip: str = "",
        board: bool = False,
        warnings: list[str] | tuple[str, ...] = (),
    ) -> None:
        """npu-smi's answer: the choices (host's spellings first) and, unless the user typed another
        value, the proposed one. ``candidates``: npu-smi cannot tell which of these the chip is (Atlas
        A3 without a board answer): nothing is preselected, the user chooses."""
        current = self.soc.currentText().strip()
        if candidates and current == self.soc_proposed:
            current = ""  # an earlier proposal (another host) is no answer for this one
        self.soc.blockSignals(True)
        self.soc.clear()
        self.soc.addItems(choices)
        self.soc.setEditText(current)
        self.soc.blockSignals(False)
        if proposed and (not current or current == self.soc_proposed):
            self.soc_proposed = proposed
            self.soc.setEditText(proposed)
        elif candidates:
            self.soc_proposed = ""
        if proposed and board:
            text = self.tr("npu-smi on {0} reports {1} (Chip Name and NPU Name of npu-smi info -t board).")
            self.soc_status.setText(text.format(host, proposed))
        elif proposed:
            self.soc_status.setText(self.tr("npu-smi on {0} reports {1}.").format(host, proposed))
        elif candidates:
            text = self.tr(
                "npu-smi on {0} reports {1}, which does not tell the exact SoC version: choose the one of "
                "this machine ({2})."
            )
            lines = [text.format(host, chip, ", ".join(candidates))]
            lines += list(warnings[:1])
            self.soc_status.setText("\n".join(lines))
        else:
            self.soc_status.setText(self.tr("npu-smi on {0} found no NPU; choose the SoC from the list.").format(host))
        self.changed.emit()

    def soc_failed(self, message: str) -> None:
        self.soc_status.setText(self.tr("Could not read the NPU type: {0}").format(message))

    def _detect_clicked(self) -> None:
        self.detect_soc_requested.emit()

    def _soc_edited(self, _text: str) -> None:
        self.changed.emit()

    # --- model ----------------------------------------------------------------------------------------
    def model_path(self) -> str:
        return self.model.text().strip()

    def is_local(self) -> bool:
        return self.local.isChecked()

    def set_model_path(self, path: str) -> None:
        self.model.setText(path)
        self._model_entered()

    def _model_entered(self) -> None:
        """A model was chosen: take the Caffe weight beside it (same name, .caffemodel) if none is set."""
        path = Path(self.model_path())
        if self.is_local() and self.effective_framework() == 0 and not self.weight.text().strip():
            weight = path.with_suffix(".caffemodel")
            if weight.is_file():
                self.weight.setText(str(weight))
        self.model_chosen.emit()

    def _model_text(self, _text: str) -> None:
        fw = detect_framework(self.model_path())
        names = dict(FRAMEWORKS)
        self.detected.setText(
            self.tr("detected: {0} (--framework={1})").format(names[fw], fw)
            if fw is not None
            else self.tr("not detected from the file name")
        )
        self._update_enabled()
        self.changed.emit()

    def _framework_changed(self) -> None:
        self._update_enabled()
        self.changed.emit()

    def effective_framework(self) -> int | None:
        fw = self.framework.currentData()
        return fw if fw is not None else detect_framework(self.model_path())

    def _location_changed(self) -> None:
        self._update_enabled()
        self.model_chosen.emit()
        self.changed.emit()

    def _update_enabled(self) -> None:
        caffe = self.effective_framework() == 0
        self.weight.setEnabled(caffe or bool(self.weight.text()))
        self.weight_browse.setEnabled(caffe and self.is_local())
        self.model_browse.setEnabled(self.is_local())
        stem = Path(self.model_path()).stem if self.model_path() else ""
        self.output.setPlaceholderText(stem or self.tr("the model's file name"))

    def _browse_model(self) -> None:
        path, _ = QFileDialog.getOpenFileName(
            self,
            self.tr("Model File"),
            self.model_path(),
            self.tr("Models ({0});;All files (*)").format(MODEL_FILTER),
            options=FILE_DIALOG,
        )
        if path:
            self.set_model_path(path)

    def _browse_weight(self) -> None:
        path, _ = QFileDialog.getOpenFileName(
            self,
            self.tr("Weight File"),
            self.model_path(),
            self.tr("Caffe weights (*.caffemodel);;All files (*)"),
            options=FILE_DIALOG,
        )
        if path:
            self.weight.setText(path)

    def _browse_out_dir(self) -> None:
        path = QFileDialog.getExistingDirectory(
            self, self.tr("Output Folder"), self.out_dir.text(), QFileDialog.Option.ShowDirsOnly | FILE_DIALOG
        )
        if path:
            self.out_dir.setText(path)

    # --- job ------------------------------------------------------------------------------------------
    def apply(self, job: ConversionJob, problems: list[Issue]) -> None:
        job.host = self.host_name()
        job.model = self.model_path()
        job.model_on_host = not self.is_local()
        job.framework = self.framework.currentData()
        job.weight = self.weight.text().strip() if self.effective_framework() == 0 or self.weight.text() else ""
        job.output_name = self.output.text().strip()
        job.out_dir = self.out_dir.text().strip()
        job.soc_version = self.soc.currentText().strip()

    def load(self, job: ConversionJob) -> None:
        self.set_host(job.host)
        (self.on_host if job.model_on_host else self.local).setChecked(True)
        self.model.setText(job.model)
        self.framework.setCurrentIndex(max(0, self.framework.findData(job.framework)))
        self.weight.setText(job.weight)
        self.output.setText(job.output_name)
        self.out_dir.setText(job.out_dir)
        self.soc.setEditText(job.soc_version)
