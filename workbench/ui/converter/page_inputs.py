"""Inputs page: the model's inputs read locally (name, dtype, shape), the shapes passed with
``--input_shape`` (``-1`` = dynamic axis), ``--input_format``, ``--input_fp16_nodes`` and the
dynamic gears (batch sizes / image sizes / dims — ATC allows only one; choosing two shows E10009)."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QAbstractItemView,
    QCheckBox,
    QComboBox,
    QFormLayout,
    QGridLayout,
    QGroupBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QPushButton,
    QTableWidget,
    QTableWidgetItem,
    QWidget,
)

from workbench.core.atc import ConversionJob, InputSpec, Issue, ModelInputs
from workbench.core.atc import flags as F
from workbench.core.atc.flags import AtcCheck, parse_shape_spec
from workbench.core.atc.job import parse_batch_sizes, parse_dims, parse_image_sizes
from workbench.ui.converter.page_base import ConverterPage

NAME, DTYPE, MODEL_SHAPE, SHAPE = range(4)
DYNAMIC = (
    ("dynamic_batch_size", parse_batch_sizes, "dynamic_batch_sizes"),
    ("dynamic_image_size", parse_image_sizes, "dynamic_image_sizes"),
    ("dynamic_dims", parse_dims, "dynamic_dims"),
)


def dims_text(dims: list) -> str:
    return ",".join(str(d) for d in dims)


class InputsPage(ConverterPage):
    FIELDS = (
        "input_shape",
        "input_format",
        "input_fp16_nodes",
        "dynamic_batch_size",
        "dynamic_image_size",
        "dynamic_dims",
        "input_shape_range",
    )

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(
            self.tr("Inputs"),
            self.tr("The model's inputs and the shapes ATC compiles for. Use -1 for a dynamic axis."),
            parent,
        )
        self.model_info: ModelInputs | None = None
        self.status = QLabel(self)
        self.status.setWordWrap(True)
        self.table = QTableWidget(0, 4, self)
        self.table.setHorizontalHeaderLabels(
            [self.tr("Name"), self.tr("Data type"), self.tr("Model shape"), self.tr("Shape (--input_shape)")]
        )
        self.table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Stretch)
        self.table.verticalHeader().hide()
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setMinimumHeight(120)
        self.table.itemChanged.connect(self._item_changed)
        add = QPushButton(self.tr("Add Input"), self)
        add.clicked.connect(self.add_row)
        remove = QPushButton(self.tr("Remove"), self)
        remove.clicked.connect(self.remove_row)
        reset = QPushButton(self.tr("Reset from Model"), self)
        reset.setToolTip(self.tr("Fill the table again with the inputs read from the model"))
        reset.clicked.connect(self.reset_from_model)
        self.graph_button = QPushButton(self.tr("Show in Graph"), self)
        self.graph_button.setToolTip(self.tr("Centre and select the selected input in the model's graph"))
        self.graph_button.setEnabled(False)
        self.graph_button.clicked.connect(lambda: self.show_in_graph())
        self.table.currentCellChanged.connect(lambda *_: self._update_graph_button())
        buttons = QHBoxLayout()
        for b in (add, remove, reset, self.graph_button):
            buttons.addWidget(b)
        buttons.addStretch(1)
        self.dynamic_hint = QLabel(self)
        self.dynamic_hint.setWordWrap(True)
        self.dynamic_hint.setStyleSheet("color: #6b7785;")

        self.input_format = QComboBox(self)
        self.input_format.addItem(self.tr("(not set)"), "")
        for fmt in F.ENUMS["input_format"]:
            self.input_format.addItem(fmt, fmt)
        self.input_format.currentIndexChanged.connect(self.notify)
        self.fp16 = QLineEdit(self)
        self.fp16.setPlaceholderText(self.tr("input names separated by ';' (fed as float16)"))
        self.fp16.textChanged.connect(self.notify)
        form = QFormLayout()
        form.addRow(self.tr("Input format:"), self.input_format)
        form.addRow(self.tr("FP16 inputs:"), self.fp16)

        gears = QGroupBox(self.tr("Dynamic shapes (choose one)"), self)
        grid = QGridLayout(gears)
        self.dyn_checks: dict[str, QCheckBox] = {}
        self.dyn_edits: dict[str, QLineEdit] = {}
        labels = {
            "dynamic_batch_size": (self.tr("Dynamic batch sizes"), self.tr("e.g. 1,2,4,8")),
            "dynamic_image_size": (self.tr("Dynamic image sizes"), self.tr("height,width;… e.g. 224,224;448,448")),
            "dynamic_dims": (
                self.tr("Dynamic dims"),
                self.tr("one value per -1 axis, gears separated by ';' e.g. 1,224;2,448 (needs input format ND)"),
            ),
        }
        for row, (flag, _parse, _attr) in enumerate(DYNAMIC):
            check = QCheckBox(labels[flag][0], self)
            edit = QLineEdit(self)
            edit.setPlaceholderText(labels[flag][1])
            edit.setEnabled(False)
            check.toggled.connect(edit.setEnabled)
            check.toggled.connect(self.notify)
            edit.textChanged.connect(self.notify)
            grid.addWidget(check, row, 0)
            grid.addWidget(edit, row, 1)
            self.dyn_checks[flag] = check
            self.dyn_edits[flag] = edit

        self.body.addWidget(self.status)
        self.body.addWidget(self.table, 1)
        self.body.addLayout(buttons)
        self.body.addWidget(self.dynamic_hint)
        self.body.addLayout(form)
        self.body.addWidget(gears)
        self.field_widgets = {
            "input_shape": self.table,
            "input_format": self.input_format,
            "input_fp16_nodes": self.fp16,
            **self.dyn_edits,
        }
        self._filling = False

    # --- the table ---------------------------------------------------------------------------------------
    def _set_row(self, row: int, name: str, dtype: str, model_shape: str, shape: str) -> None:
        for col, text in ((NAME, name), (DTYPE, dtype), (MODEL_SHAPE, model_shape), (SHAPE, shape)):
            item = QTableWidgetItem(text)
            if col in (DTYPE, MODEL_SHAPE):
                item.setFlags(item.flags() & ~Qt.ItemFlag.ItemIsEditable)
            self.table.setItem(row, col, item)

    def add_row(self, name: str = "", shape: str = "") -> None:
        self._filling = True
        row = self.table.rowCount()
        self.table.insertRow(row)
        self._set_row(row, name if isinstance(name, str) else "", "", "", shape)
        self._filling = False
        self.changed.emit()

    def remove_row(self) -> None:
        rows = sorted({i.row() for i in self.table.selectedIndexes()}, reverse=True)
        for row in rows:
            self.table.removeRow(row)
        self.changed.emit()

    def _fill(self, rows: list[tuple[str, str, str, str]]) -> None:
        self._filling = True
        self.table.setRowCount(len(rows))
        for r, values in enumerate(rows):
            self._set_row(r, *values)
        self._filling = False
        self.changed.emit()

    def reset_from_model(self) -> None:
        info = self.model_info
        if info is not None:
            self._fill([(t.name, t.dtype, dims_text(t.shape), dims_text(t.shape)) for t in info.inputs])

    def _item_changed(self, _item: QTableWidgetItem) -> None:
        if not self._filling:
            self.changed.emit()

    def set_cell(self, row: int, column: int, text: str) -> None:
        """Edit a cell as the user would (tests and 'Reset' use it)."""
        self.table.item(row, column).setText(text)

    def rows(self) -> list[tuple[str, str]]:
        """(name, shape text) of every row."""
        out = []
        for r in range(self.table.rowCount()):
            name, shape = self.table.item(r, NAME), self.table.item(r, SHAPE)
            out.append(((name.text() if name else "").strip(), (shape.text() if shape else "").strip()))
        return out

    def _update_graph_button(self) -> None:
        self.graph_button.setEnabled(self.model_info is not None and self.table.currentRow() >= 0)

    def show_in_graph(self) -> bool:
        """The selected row's input centred and selected in the graph of the model read locally."""
        from workbench.ui.converter.page_advanced import show_model_node

        row = self.table.currentRow()
        item = self.table.item(row, NAME) if row >= 0 else None
        return item is not None and show_model_node(self, self.model_info, item.text().strip())

    # --- model -------------------------------------------------------------------------------------------------
    def set_model(self, info: ModelInputs | None, error: str = "", keep: list[InputSpec] | None = None) -> None:
        """Show the inputs read from the model; ``keep``: remembered inputs kept when they name the
        model's inputs (else the table is filled from the model)."""
        self.model_info = info
        self._update_graph_button()
        if info is None:
            self.status.setText(error or self.tr("The model is not read locally: enter its inputs by hand."))
            return
        self.status.setText(
            self.tr("{0}: {1} input(s), {2} output(s), {3} ops.").format(
                info.path.replace("\\", "/").rsplit("/", 1)[-1], len(info.inputs), len(info.outputs), info.op_count
            )
        )
        by_name = {t.name: t for t in info.inputs}
        if keep and all(s.name in by_name for s in keep):
            self._fill(
                [
                    (
                        s.name,
                        by_name[s.name].dtype,
                        dims_text(by_name[s.name].shape),
                        dims_text(s.shape) if s.shape is not None else "",
                    )
                    for s in keep
                ]
            )
        else:
            self.reset_from_model()

    # --- job ---------------------------------------------------------------------------------------------------------
    def apply(self, job: ConversionJob, problems: list[Issue]) -> None:
        dtypes = {t.name: t.dtype for t in self.model_info.inputs} if self.model_info else {}
        for name, shape in self.rows():
            if not name and not shape:
                continue
            if not shape:
                job.inputs.append(InputSpec(name, None, dtypes.get(name, "")))
                continue
            try:
                dims = parse_shape_spec(f"{name}:{shape}")[name] if name else None
            except AtcCheck as exc:
                problems.append(Issue(exc.code, "input_shape", exc.text))
                continue
            if dims is None:
                problems.append(
                    Issue(
                        "E10002",
                        "input_shape",
                        F.message_text(
                            "E10002", f":{shape}", f"The shape of input [:{shape}] has no name", F.SHAPE_FORMAT
                        ),
                    )
                )
                continue
            job.inputs.append(InputSpec(name, dims, dtypes.get(name, "")))
        job.input_format = self.input_format.currentData() or ""
        job.input_fp16_nodes = [n.strip() for n in self.fp16.text().split(";") if n.strip()]
        for flag, parse, attr in DYNAMIC:
            if not self.dyn_checks[flag].isChecked():
                continue
            text = self.dyn_edits[flag].text()
            if not text.strip():
                problems.append(Issue("E10004", flag, F.message_text("E10004", flag)))
                continue
            try:
                setattr(job, attr, parse(text))
            except AtcCheck as exc:
                problems.append(Issue(exc.code, flag, exc.text))
        self._update_hint(job)

    def _update_hint(self, job: ConversionJob) -> None:
        dynamic = [s.name for s in job.inputs if s.shape and -1 in s.shape]
        gears = job.dynamic_batch_sizes or job.dynamic_image_sizes or job.dynamic_dims
        if dynamic and not gears:
            self.dynamic_hint.setText(
                self.tr(
                    "Input(s) {0} keep -1 axes: ATC compiles them as dynamic shapes. Give "
                    "numbers for a static model, or choose gears below."
                ).format(", ".join(dynamic))
            )
        else:
            self.dynamic_hint.setText("")

    def load(self, job: ConversionJob) -> None:
        self._fill([(s.name, s.dtype, "", dims_text(s.shape) if s.shape is not None else "") for s in job.inputs])
        self.input_format.setCurrentIndex(max(0, self.input_format.findData(job.input_format)))
        self.fp16.setText(";".join(job.input_fp16_nodes))
        values = {
            "dynamic_batch_size": ",".join(map(str, job.dynamic_batch_sizes)),
            "dynamic_image_size": ";".join(f"{h},{w}" for h, w in job.dynamic_image_sizes),
            "dynamic_dims": ";".join(",".join(map(str, g)) for g in job.dynamic_dims),
        }
        for flag, text in values.items():
            self.dyn_checks[flag].setChecked(bool(text))
            self.dyn_edits[flag].setText(text)
