"""Preprocessing page: AIPP on/off and an editor for the ``--insert_op_conf`` file — static or
dynamic mode, input format, source image size, crop, colour-space conversion, per-channel mean /
min / reciprocal variance — with the documented constraints (core ``check_aipp``) shown live on
the page, and the real protobuf-text file previewed and saved by core ``write_aipp``.

The editor keeps every field of the loaded file it has no widget for (resize, padding, unknown
keys) so a file read and saved again keeps them.
"""

from __future__ import annotations

import copy
from pathlib import Path

from PySide6.QtGui import QFontDatabase
from PySide6.QtWidgets import (
    QButtonGroup,
    QCheckBox,
    QComboBox,
    QFileDialog,
    QFormLayout,
    QGridLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QMessageBox,
    QPlainTextEdit,
    QPushButton,
    QRadioButton,
    QVBoxLayout,
    QWidget,
)

from workbench.core.atc import AippConfig, AippError, AippOp, ConversionJob, Issue, read_aipp, write_aipp
from workbench.core.atc import aipp as aipp_rules
from workbench.core.atc.aipp import save_aipp
from workbench.ui.converter.page_base import ConverterPage
from workbench.ui.converter.widgets import FILE_DIALOG, NumberEdit, OptSpin

STATIC_SPINS = (
    "src_image_size_w",
    "src_image_size_h",
    "load_start_pos_w",
    "load_start_pos_h",
    "crop_size_w",
    "crop_size_h",
)
STATIC_BOOLS = ("crop", "csc_switch", "rbuv_swap_switch", "ax_swap_switch")
CHANNEL_LISTS = (("mean_chn", int), ("min_chn", float), ("var_reci_chn", float))
# YUV420SP (JPEG, BT.601 full range) to RGB, as in Huawei's Ascend samples (aipp_yuv.cfg).
YUV_TO_RGB = {"matrix": [256, 0, 359, 256, -88, -183, 256, 454, 0], "input_bias": [0, 128, 128]}


def _bool(checked: bool, before: bool | None) -> bool | None:
    """A check box's value; unchecked stays "not set" when the file did not set it."""
    return True if checked else (False if before is not None else None)


def export_op(op: AippOp) -> AippOp:
    """The op as written: a dynamic op keeps only the dynamic keys, a static one drops them and the
    fields of a crop / resize / padding that is off (core ``effective_op``)."""
    out = aipp_rules.effective_op(op)
    if out.aipp_mode == "dynamic":
        for key, _ in aipp_rules.SCALARS:
            if key not in aipp_rules.DYNAMIC_KEYS:
                setattr(out, key, None)
        for attr, (_, n, _) in aipp_rules.LISTS.items():
            setattr(out, attr, [None] * n)
    else:
        out.max_src_image_size = out.support_rotation = None
    return out


class AippPage(ConverterPage):
    FIELDS = ("insert_op_conf",)
    PREFIXES = ("aipp_op",)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(
            self.tr("Preprocessing (AIPP)"),
            self.tr(
                "Let the AI Core convert and normalise images before the model: written as the --insert_op_conf file."
            ),
            parent,
        )
        self._ops: list[AippOp] = [AippOp(input_format="RGB888_U8")]
        self._index = 0
        self._loading = False
        self.enabled = QCheckBox(self.tr("Insert AIPP preprocessing (--insert_op_conf)"), self)
        self.enabled.toggled.connect(self._update_enabled)
        self.edit_here = QRadioButton(self.tr("Edit the configuration here"), self)
        self.use_file = QRadioButton(self.tr("Use an existing file:"), self)
        self.edit_here.setChecked(True)
        group = QButtonGroup(self)
        group.addButton(self.edit_here)
        group.addButton(self.use_file)
        self.edit_here.toggled.connect(self._update_enabled)
        self.file = QLineEdit(self)
        self.file.setPlaceholderText(self.tr("an AIPP .cfg file"))
        self.file.textChanged.connect(self.notify)
        self.file_browse = QPushButton(self.tr("Browse…"), self)
        self.file_browse.clicked.connect(self._browse_file)
        self.file_edit = QPushButton(self.tr("Edit It Here"), self)
        self.file_edit.setToolTip(self.tr("Load the file into the editor (the file itself is not changed)"))
        self.file_edit.clicked.connect(self.load_file_into_editor)
        source = QGridLayout()
        source.addWidget(self.edit_here, 0, 0, 1, 4)
        source.addWidget(self.use_file, 1, 0)
        source.addWidget(self.file, 1, 1)
        source.addWidget(self.file_browse, 1, 2)
        source.addWidget(self.file_edit, 1, 3)

        self.editor = QWidget(self)
        self._build_editor()
        self.preview_file = QPlainTextEdit(self)
        self.preview_file.setReadOnly(True)
        self.preview_file.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
        self.preview_file.setMinimumHeight(120)
        self.preview_file.setMaximumHeight(180)
        self.save_button = QPushButton(self.tr("Save As…"), self)
        self.save_button.setToolTip(self.tr("Save the configuration as an AIPP file (protobuf text)"))
        self.save_button.clicked.connect(self._save_dialog)
        file_box = QGroupBox(self.tr("File preview"), self)
        fl = QHBoxLayout(file_box)
        fl.addWidget(self.preview_file, 1)
        fl.addWidget(self.save_button)

        self.body.addWidget(self.enabled)
        self.body.addLayout(source)
        self.body.addWidget(self.editor)
        self.body.addWidget(file_box)
        self.body.addStretch(1)
        self._load_op()
        self._update_enabled()

    # --- building -------------------------------------------------------------------------------------
    def _spin(self, maximum: int = 100_000, minimum: int = 0) -> OptSpin:
        spin = OptSpin(maximum, minimum, self)
        spin.setMinimumWidth(80)
        spin.setMaximumWidth(110)
        spin.valueChanged.connect(self._edited)
        return spin

    def _check(self, text: str) -> QCheckBox:
        box = QCheckBox(text, self)
        box.toggled.connect(self._edited)
        return box

    def _build_editor(self) -> None:
        self.op_select = QComboBox(self)
        self.op_select.currentIndexChanged.connect(self._select_op)
        add_op = QPushButton(self.tr("Add Op"), self)
        add_op.setToolTip(self.tr("Another aipp_op block, for another model input"))
        add_op.clicked.connect(self.add_op)
        self.remove_op_button = QPushButton(self.tr("Remove Op"), self)
        self.remove_op_button.clicked.connect(self.remove_op)
        self.mode = QComboBox(self)
        for m in aipp_rules.MODES:
            self.mode.addItem(m, m)
        self.mode.currentIndexChanged.connect(self._edited)
        self.rank = self._spin(64)
        self.rank.setToolTip(self.tr("related_input_rank: the model input (0-based) this op preprocesses"))
        top = QFormLayout()
        ops_row = QHBoxLayout()
        ops_row.addWidget(self.op_select, 1)
        ops_row.addWidget(add_op)
        ops_row.addWidget(self.remove_op_button)
        top.addRow(self.tr("AIPP op:"), ops_row)
        top.addRow(self.tr("Mode:"), self.mode)
        top.addRow(self.tr("Model input (related_input_rank):"), self.rank)

        self.dynamic_box = QGroupBox(self.tr("Dynamic AIPP (parameters given at run time)"), self)
        self.max_src = self._spin(2_000_000_000)
        self.rotation = self._check(self.tr("support_rotation"))
        dl = QFormLayout(self.dynamic_box)
        dl.addRow(self.tr("max_src_image_size (bytes):"), self.max_src)
        dl.addRow("", self.rotation)

        self.static_box = QWidget(self)
        self.input_format = QComboBox(self)
        self.input_format.addItem(self.tr("(not set)"), "")
        for fmt in aipp_rules.INPUT_FORMATS:
            self.input_format.addItem(fmt, fmt)
        self.input_format.currentIndexChanged.connect(self._edited)
        self.spins = {k: self._spin() for k in STATIC_SPINS}
        image_box = QGroupBox(self.tr("Source image"), self)
        image = QFormLayout(image_box)
        image.addRow(self.tr("Input format:"), self.input_format)
        image.addRow(self.tr("Width (src_image_size_w):"), self.spins["src_image_size_w"])
        image.addRow(self.tr("Height (src_image_size_h):"), self.spins["src_image_size_h"])
        self.crop = QGroupBox(self.tr("Crop"), self)
        self.crop.setCheckable(True)
        self.crop.setChecked(False)
        self.crop.toggled.connect(self._edited)
        cl = QGridLayout(self.crop)
        for r, (label, a, b) in enumerate(
            (
                (self.tr("start (w, h):"), "load_start_pos_w", "load_start_pos_h"),
                (self.tr("size (w, h):"), "crop_size_w", "crop_size_h"),
            )
        ):
            cl.addWidget(QLabel(label, self), r, 0)
            cl.addWidget(self.spins[a], r, 1)
            cl.addWidget(self.spins[b], r, 2)
        self.csc = QGroupBox(self.tr("Colour-space conversion (csc_switch)"), self)
        self.csc.setCheckable(True)
        self.csc.setChecked(False)
        self.csc.toggled.connect(self._edited)
        self.matrix = [self._spin(100_000, -100_000) for _ in range(9)]
        self.input_bias = [self._spin(100_000, -100_000) for _ in range(3)]
        self.output_bias = [self._spin(100_000, -100_000) for _ in range(3)]
        self.rbuv = self._check(self.tr("rbuv_swap_switch"))
        self.ax = self._check(self.tr("ax_swap_switch"))
        preset = QPushButton(self.tr("YUV420SP → RGB"), self)
        preset.setToolTip(
            self.tr(
                "Fill the matrix and input biases for JPEG-decoded YUV420SP (BT.601 full range) "
                "to RGB, as in Huawei's samples"
            )
        )
        preset.clicked.connect(self.preset_yuv_to_rgb)
        ml = QGridLayout(self.csc)
        ml.addWidget(QLabel(self.tr("matrix"), self), 0, 0)
        for i, spin in enumerate(self.matrix):
            ml.addWidget(spin, i // 3, 1 + i % 3)
        ml.addWidget(QLabel(self.tr("input bias"), self), 3, 0)
        ml.addWidget(QLabel(self.tr("output bias"), self), 4, 0)
        for i in range(3):
            ml.addWidget(self.input_bias[i], 3, 1 + i)
            ml.addWidget(self.output_bias[i], 4, 1 + i)
        ml.addWidget(self.rbuv, 5, 1)
        ml.addWidget(self.ax, 5, 2)
        ml.addWidget(preset, 5, 3)
        chn = QGroupBox(self.tr("Normalisation per channel: (pixel − mean − min) × var_reci"), self)
        gl = QGridLayout(chn)
        self.channels: dict[str, list[NumberEdit]] = {}
        for c, (attr, kind) in enumerate(CHANNEL_LISTS):
            gl.addWidget(QLabel(attr, self), 0, c + 1)
            edits = []
            for i in range(aipp_rules.CHANNELS):
                edit = NumberEdit(kind, self)
                edit.value_changed.connect(self._edited)
                gl.addWidget(edit, i + 1, c + 1)
                edits.append(edit)
            self.channels[attr] = edits
        for i in range(aipp_rules.CHANNELS):
            gl.addWidget(QLabel(self.tr("channel {0}").format(i), self), i + 1, 0)
        left = QVBoxLayout()
        left.addWidget(image_box)
        left.addWidget(self.crop)
        left.addStretch(1)
        sl = QGridLayout(self.static_box)
        sl.setContentsMargins(0, 0, 0, 0)
        sl.addLayout(left, 0, 0)
        sl.addWidget(self.csc, 0, 1)
        sl.addWidget(chn, 1, 0, 1, 2)
        layout = QFormLayout(self.editor)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addRow(top)
        layout.addRow(self.dynamic_box)
        layout.addRow(self.static_box)

    # --- ops ---------------------------------------------------------------------------------------------
    def _refresh_op_list(self) -> None:
        self._loading = True
        self.op_select.clear()
        for i, op in enumerate(self._ops):
            self.op_select.addItem(self.tr("aipp_op {0} (input {1})").format(i + 1, op.related_input_rank or 0))
        self.op_select.setCurrentIndex(self._index)
        self.remove_op_button.setEnabled(len(self._ops) > 1)
        self._loading = False

    def _select_op(self, index: int) -> None:
        if self._loading or index < 0:
            return
        self._index = index
        self._load_op()
        self.changed.emit()

    def add_op(self) -> None:
        ranks = {op.related_input_rank or 0 for op in self._ops}
        self._ops.append(
            AippOp(
                related_input_rank=next(r for r in range(len(ranks) + 1) if r not in ranks), input_format="RGB888_U8"
            )
        )
        self._index = len(self._ops) - 1
        self._load_op()
        self.changed.emit()

    def remove_op(self) -> None:
        if len(self._ops) > 1:
            del self._ops[self._index]
            self._index = max(0, self._index - 1)
            self._load_op()
            self.changed.emit()

    def _load_op(self) -> None:
        """Fill the editor from the current op."""
        op = self._ops[self._index]
        self._loading = True
        self.mode.setCurrentIndex(max(0, self.mode.findData(op.aipp_mode or "static")))
        self.rank.set_opt_value(op.related_input_rank)
        self.max_src.set_opt_value(op.max_src_image_size)
        self.rotation.setChecked(bool(op.support_rotation))
        self.input_format.setCurrentIndex(max(0, self.input_format.findData(op.input_format or "")))
        for key, spin in self.spins.items():
            spin.set_opt_value(getattr(op, key))
        self.crop.setChecked(bool(op.crop))
        self.csc.setChecked(bool(op.csc_switch))
        self.rbuv.setChecked(bool(op.rbuv_swap_switch))
        self.ax.setChecked(bool(op.ax_swap_switch))
        for spins, values in (
            (self.matrix, op.matrix),
            (self.input_bias, op.input_bias),
            (self.output_bias, op.output_bias),
        ):
            for spin, v in zip(spins, values):
                spin.set_opt_value(v)
        for attr, _ in CHANNEL_LISTS:
            for edit, v in zip(self.channels[attr], getattr(op, attr)):
                edit.set_number(v)
        self._loading = False
        self._refresh_op_list()
        self._mode_visibility()
        self._map_fields()

    def _map_fields(self) -> None:
        widgets: dict[str, QWidget] = {
            "aipp_mode": self.mode,
            "related_input_rank": self.rank,
            "max_src_image_size": self.max_src,
            "input_format": self.input_format,
            "crop": self.crop,
            **self.spins,
        }
        widgets.update({k: s for k, s in zip(aipp_rules.MATRIX_KEYS, self.matrix)})
        widgets.update({f"input_bias_{i}": s for i, s in enumerate(self.input_bias)})
        widgets.update({f"output_bias_{i}": s for i, s in enumerate(self.output_bias)})
        for attr, _ in CHANNEL_LISTS:
            widgets.update({f"{attr}_{i}": e for i, e in enumerate(self.channels[attr])})
        prefix = f"aipp_op[{self._index}]." if len(self._ops) > 1 else "aipp_op."
        conf = self.file if self.use_file.isChecked() else self.enabled
        self.field_widgets = {"insert_op_conf": conf, **{prefix + k: w for k, w in widgets.items()}}

    def _mode_visibility(self) -> None:
        dynamic = self.mode.currentData() == "dynamic"
        self.dynamic_box.setVisible(dynamic)
        self.static_box.setVisible(not dynamic)

    def _edited(self, *_args) -> None:
        if self._loading:
            return
        self._mode_visibility()
        self.changed.emit()

    def preset_yuv_to_rgb(self) -> None:
        self._loading = True
        self.input_format.setCurrentIndex(self.input_format.findData("YUV420SP_U8"))
        for spin, v in zip(self.matrix, YUV_TO_RGB["matrix"]):
            spin.set_opt_value(v)
        for spin, v in zip(self.input_bias, YUV_TO_RGB["input_bias"]):
            spin.set_opt_value(v)
        self.csc.setChecked(True)
        self._loading = False
        self.changed.emit()

    # --- reading the widgets ---------------------------------------------------------------------------------
    def _op_from_widgets(self, problems: list[Issue]) -> AippOp:
        """The current op with the editor's values (fields without a widget kept from the file)."""
        base = self._ops[self._index]
        op = copy.deepcopy(base)
        op.aipp_mode = self.mode.currentData()
        op.related_input_rank = self.rank.opt_value()
        op.max_src_image_size = self.max_src.opt_value()
        op.support_rotation = _bool(self.rotation.isChecked(), base.support_rotation)
        op.input_format = self.input_format.currentData() or None
        for key, spin in self.spins.items():
            setattr(op, key, spin.opt_value())
        for key, box in (
            ("crop", self.crop),
            ("csc_switch", self.csc),
            ("rbuv_swap_switch", self.rbuv),
            ("ax_swap_switch", self.ax),
        ):
            setattr(op, key, _bool(box.isChecked(), getattr(base, key)))
        op.matrix = [s.opt_value() for s in self.matrix]
        op.input_bias = [s.opt_value() for s in self.input_bias]
        op.output_bias = [s.opt_value() for s in self.output_bias]
        prefix = f"aipp_op[{self._index}]." if len(self._ops) > 1 else "aipp_op."
        for attr, kind in CHANNEL_LISTS:
            values = []
            for i, edit in enumerate(self.channels[attr]):
                try:
                    values.append(edit.parsed())
                except ValueError:
                    what = self.tr("a whole number") if kind is int else self.tr("a number")
                    problems.append(
                        Issue(
                            "E10052",
                            f"{prefix}{attr}_{i}",
                            self.tr("AIPP configuration is invalid. Reason: {0}_{1}: expected {2}, got {3}.").format(
                                attr, i, what, edit.text()
                            ),
                        )
                    )
                    values.append(getattr(base, attr)[i])
            setattr(op, attr, values)
        return op

    def config(self, problems: list[Issue] | None = None) -> AippConfig:
        """The edited configuration as it is written to the file."""
        problems = problems if problems is not None else []
        self._ops[self._index] = self._op_from_widgets(problems)
        return AippConfig([export_op(op) for op in self._ops])

    def set_config(self, config: AippConfig) -> None:
        self._ops = [copy.deepcopy(op) for op in config.ops] or [AippOp()]
        self._index = 0
        self._load_op()
        self.changed.emit()

    # --- files ---------------------------------------------------------------------------------------------------
    def _start_folder(self) -> str:
        """Where the file dialogs start without a file: the folder the .om lands in (the project's)."""
        wizard = self.wizard()
        default = getattr(wizard, "default_aipp_path", None)
        return str(Path(default()).parent) if default is not None else ""

    def _browse_file(self) -> None:
        path, _ = QFileDialog.getOpenFileName(
            self,
            self.tr("AIPP File"),
            self.file.text().strip() or self._start_folder(),
            self.tr("AIPP configuration (*.cfg *.config *.txt);;All files (*)"),
            options=FILE_DIALOG,
        )
        if path:
            self.file.setText(path)
            self.use_file.setChecked(True)

    def load_file_into_editor(self) -> bool:
        try:
            config = read_aipp(self.file.text().strip())
        except AippError as exc:
            QMessageBox.warning(self, self.tr("AIPP File"), str(exc))
            return False
        self.set_config(config)
        self.edit_here.setChecked(True)
        return True

    def save_file(self, path: str | Path) -> None:
        save_aipp(self.config(), path)

    def _save_dialog(self) -> None:
        wizard = self.wizard()
        start = getattr(wizard, "default_aipp_path", lambda: "insert_op.cfg")()
        path, _ = QFileDialog.getSaveFileName(
            self,
            self.tr("Save AIPP File"),
            start,
            self.tr("AIPP configuration (*.cfg);;All files (*)"),
            options=FILE_DIALOG,
        )
        if not path:
            return
        try:
            self.save_file(path)
        except OSError as exc:
            QMessageBox.warning(self, self.tr("Save AIPP File"), str(exc))

    # --- job ------------------------------------------------------------------------------------------------
    def _update_enabled(self) -> None:
        on = self.enabled.isChecked()
        here = self.edit_here.isChecked()
        for w in (self.edit_here, self.use_file):
            w.setEnabled(on)
        for w in (self.file, self.file_browse, self.file_edit):
            w.setEnabled(on and not here)
        self.editor.setEnabled(on and here)
        self.save_button.setEnabled(on and here)
        for w in (self.file, self.enabled):
            w.setStyleSheet("")
        self._map_fields()
        self.changed.emit()

    def apply(self, job: ConversionJob, problems: list[Issue]) -> None:
        config = self.config(problems)
        if self.edit_here.isChecked():
            self.preview_file.setPlainText(write_aipp(config))
        else:
            path = self.file.text().strip()
            try:
                self.preview_file.setPlainText(Path(path).read_text(encoding="utf-8") if path else "")
            except (OSError, UnicodeDecodeError) as exc:
                self.preview_file.setPlainText(str(exc))
        job.aipp = self.enabled.isChecked()
        if not job.aipp:
            return
        if self.edit_here.isChecked():
            job.aipp_config = config
        else:
            job.aipp_file = self.file.text().strip()

    def load(self, job: ConversionJob) -> None:
        self.enabled.setChecked(job.aipp)
        self.file.setText(job.aipp_file)
        (self.use_file if job.aipp_file else self.edit_here).setChecked(True)
        if job.aipp_config is not None:
            self.set_config(job.aipp_config)
