"""Advanced page: ``--output_type`` (one for all outputs or per output), ``--out_nodes`` picked from
the graph, ``--precision_mode``, ``--op_select_implmode``, ``--log``, ``--enable_small_channel``,
the working folder on the host, and any other documented flag as ``name=value`` (checked against
ATC's flag list by validation)."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QHBoxLayout,
    QHeaderView,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QPlainTextEdit,
    QPushButton,
    QTableWidget,
    QVBoxLayout,
    QWidget,
)

from workbench.core.atc import ConversionJob, Issue, ModelInputs
from workbench.core.atc import flags as F
from workbench.core.atc.job import MANAGED_FLAGS
from workbench.ui.converter.page_base import ConverterPage
from workbench.ui.converter.widgets import mark

# Flags the wizard's own fields set: an extra line naming one is refused (set it on its page).
FIELD_FLAGS = (
    "weight",
    "framework",
    "output",
    "soc_version",
    "input_format",
    "input_shape",
    "dynamic_batch_size",
    "dynamic_image_size",
    "dynamic_dims",
    "input_fp16_nodes",
    "insert_op_conf",
    "out_nodes",
    "output_type",
    "precision_mode",
    "op_select_implmode",
    "log",
    "enable_small_channel",
)
ALL_OUTPUTS, PER_OUTPUT = "all", "per"


def _combo(parent: QWidget, values: tuple[str, ...], unset: str) -> QComboBox:
    box = QComboBox(parent)
    box.addItem(unset, "")
    for v in values:
        box.addItem(v, v)
    return box


def node_name(output: str) -> str:
    """The node of a ``node:index`` output (the text itself when it has no index)."""
    node, sep, index = output.strip().rpartition(":")
    return node if sep and node and index.isdigit() else output.strip()


class OutNodePicker(QDialog):
    """A searchable, checkable list of the graph's ``node:index`` outputs; ``show_node(name)``: the
    Show in Graph button's action on the current entry's node."""

    def __init__(
        self,
        candidates: list[str],
        chosen: list[str],
        parent: QWidget | None = None,
        show_node: Callable[[str], object] | None = None,
    ) -> None:
        super().__init__(parent)
        self.show_node = show_node
        self.setWindowTitle(self.tr("Output Nodes"))
        self.search = QLineEdit(self)
        self.search.setPlaceholderText(self.tr("Search nodes"))
        self.search.setClearButtonEnabled(True)
        self.search.textChanged.connect(self._filter)
        self.list = QListWidget(self)
        for name in dict.fromkeys(chosen + candidates):
            item = QListWidgetItem(name, self.list)
            item.setFlags(item.flags() | Qt.ItemFlag.ItemIsUserCheckable)
            item.setCheckState(Qt.CheckState.Checked if name in chosen else Qt.CheckState.Unchecked)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel, self)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        self.graph_button = QPushButton(self.tr("Show in Graph"), self)
        self.graph_button.setToolTip(self.tr("Centre and select the current entry's node in the model's graph"))
        self.graph_button.setEnabled(False)
        self.graph_button.setVisible(show_node is not None)
        self.graph_button.clicked.connect(lambda: self.show_current())
        self.list.currentItemChanged.connect(
            lambda *_: self.graph_button.setEnabled(self.list.currentItem() is not None)
        )
        layout = QVBoxLayout(self)
        layout.addWidget(self.search)
        layout.addWidget(self.list, 1)
        layout.addWidget(self.graph_button, 0, Qt.AlignmentFlag.AlignLeft)
        layout.addWidget(buttons)
        self.resize(380, 420)

    def _filter(self, text: str) -> None:
        for i in range(self.list.count()):
            item = self.list.item(i)
            item.setHidden(text.lower() not in item.text().lower())

    def show_current(self) -> None:
        item = self.list.currentItem()
        if item is not None and self.show_node is not None:
            self.show_node(node_name(item.text()))

    def chosen(self) -> list[str]:
        return [
            self.list.item(i).text()
            for i in range(self.list.count())
            if self.list.item(i).checkState() == Qt.CheckState.Checked
        ]


class AdvancedPage(ConverterPage):
    FIELDS = (
        "output_type",
        "out_nodes",
        "precision_mode",
        "op_select_implmode",
        "log",
        "enable_small_channel",
        "extra",
    )

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(self.tr("Advanced"), self.tr("Outputs, precision, logging and any other ATC flag."), parent)
        self.model_info: ModelInputs | None = None
        self.output_mode = QComboBox(self)
        self.output_mode.addItem(self.tr("One type for all outputs"), ALL_OUTPUTS)
        self.output_mode.addItem(self.tr("A type per output"), PER_OUTPUT)
        self.output_mode.currentIndexChanged.connect(self._output_mode_changed)
        self.output_type = _combo(self, F.OUTPUT_TYPES, self.tr("(model default)"))
        self.output_type.currentIndexChanged.connect(self.notify)
        self.per_output = QTableWidget(0, 2, self)
        self.per_output.setHorizontalHeaderLabels([self.tr("Output (node:index)"), self.tr("Type")])
        self.per_output.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Stretch)
        self.per_output.verticalHeader().hide()
        self.per_output.setMaximumHeight(130)
        self.add_output = QPushButton(self.tr("Add"), self)
        self.add_output.clicked.connect(self._add_output_clicked)
        self.remove_output = QPushButton(self.tr("Remove"), self)
        self.remove_output.clicked.connect(self._remove_output)
        self.out_nodes = QLineEdit(self)
        self.out_nodes.setPlaceholderText(self.tr("node:index;node:index (default: the model's outputs)"))
        self.out_nodes.textChanged.connect(self.notify)
        pick = QPushButton(self.tr("Pick…"), self)
        pick.setToolTip(self.tr("Choose output nodes from the model's graph"))
        pick.clicked.connect(self.pick_out_nodes)
        self.pick_button = pick
        self.precision = _combo(self, F.ENUMS["precision_mode"], self.tr("(ATC default)"))
        self.precision.currentIndexChanged.connect(self.notify)
        self.implmode = _combo(self, F.ENUMS["op_select_implmode"], self.tr("(ATC default)"))
        self.implmode.currentIndexChanged.connect(self.notify)
        self.log = _combo(self, F.LOG_LEVELS, self.tr("(ATC default)"))
        self.log.currentIndexChanged.connect(self.notify)
        self.small_channel = QComboBox(self)
        self.small_channel.addItem(self.tr("(not set)"), None)
        self.small_channel.addItem(self.tr("0 — off"), False)
        self.small_channel.addItem(self.tr("1 — on (inputs with few channels, e.g. images with AIPP)"), True)
        self.small_channel.currentIndexChanged.connect(self.notify)
        self.remote_dir = QLineEdit(self)
        self.remote_dir.setPlaceholderText(
            self.tr("default: <project's remote folder>/atc or ~/ascend-workbench/atc/…")
        )
        self.remote_dir.textChanged.connect(self.notify)
        self.extra = QPlainTextEdit(self)
        self.extra.setPlaceholderText(
            self.tr("one flag per line, e.g.\nfusion_switch_file=fusion.cfg\nop_debug_level=1")
        )
        self.extra.setMaximumHeight(90)
        self.extra.setToolTip(
            self.tr("Documented ATC flags: {0}").format(
                ", ".join(f for f in F.FLAGS if f not in MANAGED_FLAGS and f not in FIELD_FLAGS)
            )
        )
        self.extra.textChanged.connect(self.notify)

        form = QFormLayout()
        form.addRow(self.tr("Output type:"), self.output_mode)
        form.addRow("", self.output_type)
        per = QHBoxLayout()
        per.addWidget(self.per_output, 1)
        side = QVBoxLayout()
        side.addWidget(self.add_output)
        side.addWidget(self.remove_output)
        side.addStretch(1)
        per.addLayout(side)
        form.addRow("", per)
        nodes = QHBoxLayout()
        nodes.addWidget(self.out_nodes, 1)
        nodes.addWidget(pick)
        form.addRow(self.tr("Output nodes:"), nodes)
        form.addRow(self.tr("Precision mode:"), self.precision)
        form.addRow(self.tr("Op implementation mode:"), self.implmode)
        form.addRow(self.tr("Log level:"), self.log)
        form.addRow(self.tr("Small-channel optimisation:"), self.small_channel)
        form.addRow(self.tr("Working folder on the host:"), self.remote_dir)
        form.addRow(self.tr("Other flags:"), self.extra)
        self.body.addLayout(form)
        self.body.addStretch(1)
        self.field_widgets = {
            "output_type": self.output_type,
            "out_nodes": self.out_nodes,
            "precision_mode": self.precision,
            "op_select_implmode": self.implmode,
            "log": self.log,
            "enable_small_channel": self.small_channel,
            "extra": self.extra,
        }
        self._output_mode_changed()

    def owns(self, field: str) -> bool:
        """Its own fields and any other flag (those set as extra flags)."""
        return super().owns(field) or field not in FIELD_FLAGS

    def show_state(self, issues: list[Issue], command_line: str) -> None:
        super().show_state(issues, command_line)
        mark(self.extra, [i for i in issues if i.field not in self.field_widgets or i.field == "extra"])

    # --- outputs ----------------------------------------------------------------------------------------
    def candidates(self) -> list[str]:
        """``node:index`` of every node output in the model (empty when the model is not read)."""
        if self.model_info is None:
            return []
        return [f"{n}:{i}" for n, count in self.model_info.node_outputs.items() for i in range(count)]

    def set_model(self, info: ModelInputs | None) -> None:
        self.model_info = info
        self.pick_button.setEnabled(info is not None)
        for r in range(self.per_output.rowCount()):
            self._fill_node_combo(self.per_output.cellWidget(r, 0))

    def _fill_node_combo(self, box: QComboBox) -> None:
        text = box.currentText()
        box.blockSignals(True)
        box.clear()
        box.addItems(self.candidates())
        box.setEditText(text)
        box.blockSignals(False)

    def add_output_row(self, node: str = "", typ: str = "FP16") -> None:
        row = self.per_output.rowCount()
        self.per_output.insertRow(row)
        box = QComboBox(self)
        box.setEditable(True)
        self._fill_node_combo(box)
        box.setEditText(node)
        box.currentTextChanged.connect(self.notify)
        kind = QComboBox(self)
        kind.addItems(F.OUTPUT_TYPES)
        kind.setCurrentText(typ)
        kind.currentIndexChanged.connect(self.notify)
        self.per_output.setCellWidget(row, 0, box)
        self.per_output.setCellWidget(row, 1, kind)
        self.changed.emit()

    def _add_output_clicked(self) -> None:
        self.add_output_row()

    def _remove_output(self) -> None:
        row = self.per_output.currentRow()
        if row < 0:
            row = self.per_output.rowCount() - 1
        if row >= 0:
            self.per_output.removeRow(row)
            self.changed.emit()

    def _output_mode_changed(self) -> None:
        per = self.output_mode.currentData() == PER_OUTPUT
        self.output_type.setVisible(not per)
        for w in (self.per_output, self.add_output, self.remove_output):
            w.setVisible(per)
        if per and self.per_output.rowCount() == 0:
            self.add_output_row()
        self.changed.emit()

    def pick_out_nodes(self) -> None:
        chosen = [n.strip() for n in self.out_nodes.text().split(";") if n.strip()]
        dialog = OutNodePicker(self.candidates(), chosen, self, show_node=self.show_in_graph)
        if dialog.exec():
            self.out_nodes.setText(";".join(dialog.chosen()))

    def show_in_graph(self, node: str) -> bool:
        """Open the wizard's model as a graph (or its open graph) with ``node`` centred and selected."""
        return show_model_node(self, self.model_info, node)

    # --- job ------------------------------------------------------------------------------------------------
    def apply(self, job: ConversionJob, problems: list[Issue]) -> None:
        if self.output_mode.currentData() == PER_OUTPUT:
            for r in range(self.per_output.rowCount()):
                node = self.per_output.cellWidget(r, 0).currentText().strip()
                if node:
                    job.output_types[node] = self.per_output.cellWidget(r, 1).currentText()
        else:
            job.output_type = self.output_type.currentData() or ""
        job.out_nodes = [n.strip() for n in self.out_nodes.text().split(";") if n.strip()]
        job.precision_mode = self.precision.currentData() or ""
        job.op_select_implmode = self.implmode.currentData() or ""
        job.log = self.log.currentData() or ""
        job.enable_small_channel = self.small_channel.currentData()
        job.remote_dir = self.remote_dir.text().strip()
        for number, line in enumerate(self.extra.toPlainText().splitlines(), 1):
            if not line.strip():
                continue
            name, eq, value = line.strip().partition("=")
            name = name.strip().lstrip("-")
            if not eq or not name:
                problems.append(
                    Issue(
                        "WB-UNKNOWN-FLAG",
                        "extra",
                        self.tr("Other flags, line {0}: expected name=value, got '{1}'").format(number, line.strip()),
                    )
                )
            elif name in FIELD_FLAGS:
                problems.append(
                    Issue(
                        "WB-DUPLICATE-FLAG",
                        "extra",
                        self.tr("Other flags, line {0}: --{1} has its own field in the wizard; set it there").format(
                            number, name
                        ),
                    )
                )
            else:
                job.extra[name] = value.strip()

    def load(self, job: ConversionJob) -> None:
        self.output_mode.setCurrentIndex(1 if job.output_types else 0)
        self.output_type.setCurrentIndex(max(0, self.output_type.findData(job.output_type)))
        self.per_output.setRowCount(0)
        for node, typ in job.output_types.items():
            self.add_output_row(node, typ)
        self.out_nodes.setText(";".join(job.out_nodes))
        self.precision.setCurrentIndex(max(0, self.precision.findData(job.precision_mode)))
        self.implmode.setCurrentIndex(max(0, self.implmode.findData(job.op_select_implmode)))
        self.log.setCurrentIndex(max(0, self.log.findData(job.log)))
        self.small_channel.setCurrentIndex({None: 0, False: 1, True: 2}[job.enable_small_channel])
        self.remote_dir.setText(job.remote_dir)
        self.extra.setPlainText("\n".join(f"{k}={v}" for k, v in job.extra.items()))


def show_model_node(page: ConverterPage, info: ModelInputs | None, node: str) -> bool:
    """``node`` of the model read locally (``info``) centred and selected in its graph document."""
    context = getattr(page.wizard(), "context", None)
    if info is None or context is None or not node:
        return False
    from workbench.ui.graph.links import show_in_graph

    return show_in_graph(context, node, info.path, page)
