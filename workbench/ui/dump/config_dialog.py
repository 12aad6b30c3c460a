"""Ascend ▸ Dump Configuration: edit the dump section of an acl.json for one offline model.

The model (a local om JSON, or an .om read with ``atc --mode=1`` on a CANN machine) gives the op
tree and ``model_name`` (the om JSON's top-level ``name``); ``layer`` is written only for Dump
Option "Several" (the ticked ops). Everything the editor does not manage in the acl.json (other
sections such as ``profiler``, other models, unknown keys) is kept as it was; the JSON that will be
written is shown live with the core's warnings (e.g. dump and profiling both on). An existing
acl.json that is not valid JSON is reported with its line and column and only overwritten when the
user agrees (the damaged file is kept aside as ``acl.json.corrupt``).

The fields show what the file holds (the keys it lacks show the runtime's defaults) and what the
editor has no field for is listed as kept; Save writes only what was changed, so saving an acl.json
as it was opened leaves it JSON-equal (and, when nothing changed at all, not rewritten). The
default dump_path is relative (``dump``): the runtime resolves it against the application's working
folder on the machine it runs on — the deployed project folder on a CANN machine.
"""

from __future__ import annotations

import copy
import dataclasses
import json
import os
from pathlib import Path
from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtGui import QFontDatabase
from PySide6.QtWidgets import (
    QButtonGroup,
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
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
    QSplitter,
    QVBoxLayout,
    QWidget,
)

from workbench.core.dump import aclconfig
from workbench.core.dump.aclconfig import AclConfig, AclConfigError, DumpSettings
from workbench.core.dump.omjson import OmModel
from workbench.core.fsutil import ReadOnlyFile, backup_aside
from workbench.ui.context import AppContext
from workbench.ui.dump import common
from workbench.ui.dump.optree import OpTree


class DumpConfigDialog(QDialog):
    def __init__(
        self,
        context: AppContext,
        om_path: str | None = None,
        acl_path: str | None = None,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.context = context
        self.setWindowTitle(self.tr("Dump Configuration"))
        self.resize(1180, 760)
        self.model: OmModel | None = None
        self.cfg = AclConfig({})
        # What the file says (base), what the fields were set to (origin: base plus the defaults
        # proposed for a new dump section) and what the fields read back as right after (shown).
        self._base = DumpSettings(option="none")
        self._origin = DumpSettings(option="none")
        self._shown = DumpSettings(option="none")
        self.load_error: AclConfigError | None = None
        self.task = None
        root = context.project_root()

        # --- the model
        self.model_path = common.PathRow(
            "open", self.tr("Offline Model"), self.tr("Offline models (*.om *.json);;All files (*)"), self
        )
        self.model_path.edit.setPlaceholderText(self.tr("an .om (read on the CANN machine) or its om JSON"))
        self.model_path.edit.editingFinished.connect(self.load_model)
        self.host = QComboBox(self)
        common.fill_hosts(self.host)
        self.on_host = QCheckBox(self.tr("The .om is on the machine"), self)
        self.load_button = QPushButton(self.tr("Load"), self)
        self.load_button.clicked.connect(self.load_model)
        self.model_status = QLabel(self)
        self.model_status.setWordWrap(True)
        self.tree = OpTree(self)
        self.tree.checked_changed.connect(self.refresh)
        self.tree.graph_requested.connect(self.show_in_graph)
        model_box = QGroupBox(self.tr("Offline model"), self)
        mf = QFormLayout(model_box)
        mf.addRow(self.tr("Model:"), self.model_path)
        host_row = QHBoxLayout()
        host_row.addWidget(self.host, 1)
        host_row.addWidget(self.on_host)
        host_row.addWidget(self.load_button)
        mf.addRow(self.tr("CANN machine:"), host_row)
        mf.addRow(self.model_status)
        left = QWidget(self)
        ll = QVBoxLayout(left)
        ll.setContentsMargins(0, 0, 0, 0)
        ll.addWidget(model_box)
        ll.addWidget(self.tree, 1)

        # --- the dump settings
        self.option_group = QButtonGroup(self)
        self.options: dict[str, QRadioButton] = {}
        opt_row = QHBoxLayout()
        for key, text in (("all", self.tr("All")), ("several", self.tr("Several")), ("none", self.tr("None"))):
            rb = QRadioButton(text, self)
            self.options[key] = rb
            self.option_group.addButton(rb)
            opt_row.addWidget(rb)
        opt_row.addStretch(1)
        self.option_group.buttonToggled.connect(self._option_toggled)
        self.mode = QComboBox(self)
        for key, text in zip(aclconfig.DUMP_MODES, (self.tr("Input"), self.tr("Output"), self.tr("All"))):
            self.mode.addItem(text, key)
        self.dump_path = common.PathRow("dir", self.tr("Dump Path"), parent=self)
        self.dump_path.edit.setPlaceholderText(
            self.tr("{0} (written when dumping is turned on)").format(aclconfig.DEFAULT_DUMP_PATH)
        )
        self.dump_path.setToolTip(
            self.tr(
                "Read by the runtime on the machine the application runs on: a relative path is relative to "
                "the application's working folder (the deployed project folder on a CANN machine); "
                "the folder must exist there."
            )
        )
        self.file_ops = QLabel(self)
        self.file_ops.setWordWrap(True)
        self.file_ops.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.data = QComboBox(self)
        self.data.addItem(self.tr("Tensor data"), "tensor")
        self.data.addItem(self.tr("Statistics"), "stats")
        self.stats_box = QWidget(self)
        grid = QGridLayout(self.stats_box)
        grid.setContentsMargins(0, 0, 0, 0)
        self.stats: dict[str, QCheckBox] = {}
        for i, name in enumerate(aclconfig.DUMP_STATS):
            cb = QCheckBox(name, self)
            self.stats[name] = cb
            grid.addWidget(cb, i // 4, i % 4)
        self.op_switch = QCheckBox(self.tr("Dump single-operator calls (dump_op_switch)"), self)
        self.level = QComboBox(self)
        self.level.addItem(self.tr("(not set: the runtime's default)"), None)
        for key, text in zip(aclconfig.DUMP_LEVELS, (self.tr("op"), self.tr("kernel"), self.tr("all"))):
            self.level.addItem(text, key)
        self.step = QLineEdit(self)
        self.step.setPlaceholderText(self.tr("every iteration (e.g. 0|5|10-20)"))
        self.debug = QCheckBox(self.tr("Dump overflowing operators (dump_debug)"), self)
        self.scene = QComboBox(self)
        self.scene.addItem(self.tr("(not set)"), None)
        for key in aclconfig.DUMP_SCENES:
            self.scene.addItem(key, key)
        self.kept = QLabel(self)
        self.kept.setWordWrap(True)
        self.kept.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.acl_path = common.PathRow(
            "save", self.tr("AclConfig File"), self.tr("acl.json (*.json);;All files (*)"), self
        )
        self.acl_path.edit.editingFinished.connect(self.load_acl)
        self.acl_status = QLabel(self)
        self.acl_status.setWordWrap(True)
        self.acl_status.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        form_box = QGroupBox(self.tr("Dump"), self)
        form = QFormLayout(form_box)
        form.addRow(self.tr("AclConfig file:"), self.acl_path)
        form.addRow(self.acl_status)
        self.model_name = QLabel(self)
        self.model_name.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        form.addRow(self.tr("Model name:"), self.model_name)
        form.addRow(self.tr("Dump option:"), opt_row)
        form.addRow(self.file_ops)
        form.addRow(self.tr("Dump mode:"), self.mode)
        form.addRow(self.tr("Dump path:"), self.dump_path)
        form.addRow(self.tr("Dump data:"), self.data)
        form.addRow(self.tr("Statistics:"), self.stats_box)
        form.addRow("", self.op_switch)
        form.addRow(self.tr("Dump level:"), self.level)
        form.addRow(self.tr("Dump steps:"), self.step)
        form.addRow("", self.debug)
        form.addRow(self.tr("Dump scene:"), self.scene)
        form.addRow(self.kept)
        self.issues = QLabel(self)
        self.issues.setWordWrap(True)
        self.preview = QPlainTextEdit(self)
        self.preview.setReadOnly(True)
        self.preview.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
        self.preview.setTabStopDistance(4 * self.preview.fontMetrics().horizontalAdvance(" "))
        right = QWidget(self)
        rl = QVBoxLayout(right)
        rl.setContentsMargins(0, 0, 0, 0)
        rl.addWidget(form_box)
        rl.addWidget(self.issues)
        rl.addWidget(QLabel(self.tr("Resulting acl.json:"), self))
        rl.addWidget(self.preview, 1)
        split = QSplitter(Qt.Orientation.Horizontal, self)
        split.addWidget(left)
        split.addWidget(right)
        split.setSizes([560, 620])

        self.buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Save | QDialogButtonBox.StandardButton.Close, self
        )
        self.buttons.button(QDialogButtonBox.StandardButton.Save).clicked.connect(self.save)

        self.buttons.rejected.connect(self.reject)
        self.status = QLabel(self)
        self.status.setWordWrap(True)
        bottom = QHBoxLayout()
        bottom.addWidget(self.status, 1)
        bottom.addWidget(self.buttons)
        lay = QVBoxLayout(self)
        lay.addWidget(split, 1)
        lay.addLayout(bottom)

        for w in (self.mode, self.data, self.level, self.scene):
            w.currentIndexChanged.connect(self.refresh)
        for cb in [*self.stats.values(), self.op_switch, self.debug]:
            cb.toggled.connect(self.refresh)
        self.dump_path.edit.textChanged.connect(self.refresh)
        self.step.textChanged.connect(self.refresh)

        self.acl_path.setText(acl_path or (str(root / "src" / "acl.json") if root else ""))
        self.load_acl()
        if om_path:
            self.model_path.setText(str(om_path))
            self.load_model()

    # ----- the acl.json

    def keyPressEvent(self, event) -> None:  # noqa: N802 - Qt API
        """Enter in a field finishes that field (the model path: loads it). It never presses the
        dialog's default button, Save, which would write a half acl.json before the model is known."""
        if event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter):
            event.accept()
            return
        super().keyPressEvent(event)

    def load_acl(self) -> None:
        """Read the acl.json (a missing file is a new one) and show its dump settings."""
        path = self.acl_path.text()
        self.load_error = None
        try:
            self.cfg = AclConfig.load(path) if path else AclConfig({})
        except AclConfigError as err:
            self.load_error = err
            self.cfg = AclConfig({}, path)
        if self.load_error is not None:
            where = (
                self.tr("line {0}, column {1}").format(self.load_error.line, self.load_error.column)
                if self.load_error.line
                else ""
            )
            self.acl_status.setText(
                "<span style='color:#c0392b'>"
                + self.tr("{0} cannot be read ({1}): {2}. Saving will ask before replacing it.").format(
                    path, where, _html(str(self.load_error))
                )
                + "</span>"
            )
        elif path and not Path(path).exists():
            self.acl_status.setText(self.tr("{0} does not exist yet: it will be created.").format(path))
        else:
            self.acl_status.setText(
                self.tr("Editing {0}; keys this editor does not manage are kept.").format(path)
                if path
                else self.tr("Choose the acl.json to write.")
            )
        self._show_settings()

    def _show_settings(self) -> None:
        name = self.model.name if self.model else None
        self._base = self.cfg.dump_settings(name)
        s = dataclasses.replace(self._base, layers=list(self._base.layers), dump_stats=list(self._base.dump_stats))
        path = self.acl_path.text()
        if "dump" not in self.cfg.data and (self.load_error is not None or not path or not Path(path).exists()):
            # a new acl.json: MindStudio's default, dumped to the deployed project's dump/ folder
            s.option, s.dump_path = "all", aclconfig.DEFAULT_DUMP_PATH
        self._origin = s
        blockers = [
            self.option_group,
            self.mode,
            self.data,
            self.level,
            self.scene,
            self.op_switch,
            self.debug,
            self.step,
            self.dump_path.edit,
            *self.stats.values(),
        ]
        for w in blockers:
            w.blockSignals(True)
        self.options[s.option].setChecked(True)
        _select(self.mode, s.dump_mode, self.tr("{0} (from the file)"))
        _select(self.data, s.dump_data, self.tr("{0} (from the file)"))
        _select(self.level, s.dump_level, self.tr("{0} (from the file)"))
        _select(self.scene, s.dump_scene, self.tr("{0} (from the file)"))
        for key, cb in self.stats.items():
            cb.setChecked(key in s.dump_stats)
        self.op_switch.setChecked(s.dump_op_switch == "on")
        self.debug.setChecked(s.dump_debug == "on")
        self.step.setText("" if s.dump_step is None else str(s.dump_step))
        self.dump_path.setText(s.dump_path)
        for w in blockers:
            w.blockSignals(False)
        self.tree.set_checkable(s.option == "several")
        if self.model is not None:
            self.tree.set_model(self.model, s.layers)
        self._shown = self._read_fields()
        self._show_kept(name)
        self.refresh()

    def _show_kept(self, name: str | None) -> None:
        """List what the file holds that has no field here (other sections, models, unknown keys)."""
        rows = []
        for where, value in self.cfg.unshown(name):
            text = json.dumps(value, ensure_ascii=False)
            rows.append(f"{_html(where)} = {_html(text if len(text) <= 120 else text[:117] + '…')}")
        self.kept.setText(self.tr("Also in the file, kept as it is:") + "<br>" + "<br>".join(rows) if rows else "")
        self.kept.setVisible(bool(rows))

    # ----- the model
    def load_model(self) -> None:
        path = self.model_path.text()
        if not path or self.task is not None:
            return
        if path.lower().endswith(".om"):
            target = str(common.om_json_target(path))
            self.task = self.context.bridge.start(
                common.model_from_om,
                self.host.currentData(),
                path,
                self.on_host.isChecked(),
                target,
                self.context.prompter,
                self.context.pool,
                title=self.tr("Read {0} with atc --mode=1").format(Path(path).name),
                kind="atc",
            )
        else:
            self.task = self.context.bridge.start(
                common.read_model, path, title=self.tr("Read {0}").format(Path(path).name), kind="dump"
            )
        self.model_status.setText(self.tr("Reading the model…"))
        self.load_button.setEnabled(False)
        self.task.succeeded.connect(self._model_loaded)
        self.task.failed.connect(self._model_failed)
        self.task.finished.connect(self._task_done)

    def _model_loaded(self, model: OmModel) -> None:
        self.model = model
        ops = sum(op.dumped for op in model.ops)
        self.model_status.setText(
            self.tr("{0}: {1} ops ({2} dumped by the runtime), from {3}").format(
                model.name, len(model.ops), ops, model.source
            )
        )
        self._show_settings()

    def graph_model(self) -> str:
        """The model to show as a graph: the om JSON the op tree was read from (for an .om, the one
        ``atc --mode=1`` wrote locally), else the Model field."""
        source = self.model.source if self.model is not None else ""
        if source and Path(source).is_file():
            return source
        return self.model_path.text().strip()

    def show_in_graph(self, name: str) -> bool:
        """Op ``name`` of the op tree centred and selected in the model's graph document."""
        from workbench.ui.graph.links import show_in_graph

        return show_in_graph(self.context, name, self.graph_model() or None, self)

    def _model_failed(self, message: str, _exc: object) -> None:
        self.model_status.setText("<span style='color:#c0392b'>" + _html(message) + "</span>")

    def _task_done(self) -> None:
        self.task = None
        self.load_button.setEnabled(True)

    # ----- the settings
    def _option_toggled(self, _button, checked: bool) -> None:
        if checked:
            self.tree.set_checkable(self.options["several"].isChecked())
            self.refresh()

    def _read_fields(self) -> DumpSettings:
        """The fields as they are now (before falling back to the file's own values)."""
        option = next(k for k, rb in self.options.items() if rb.isChecked())
        return DumpSettings(
            option=option,
            model_name=self.model.name if self.model else self._base.model_name,
            layers=self.tree.checked(),
            dump_path=self.dump_path.text(),
            dump_mode=self.mode.currentData(),
            dump_data=self.data.currentData(),
            dump_stats=[k for k, cb in self.stats.items() if cb.isChecked()],
            dump_op_switch="on" if self.op_switch.isChecked() else "off",
            dump_level=self.level.currentData(),
            dump_step=self.step.text().strip() or None,
            dump_debug="on" if self.debug.isChecked() else None,
            dump_scene=self.scene.currentData(),
        )

    def settings(self) -> DumpSettings:
        """The settings to write: a field left as shown keeps the file's own value (also one the field
        cannot show exactly, e.g. ops the model does not have, or the stats' order)."""
        s = self._read_fields()
        for f in aclconfig.SETTING_FIELDS:
            if f != "layers" and getattr(s, f) == getattr(self._shown, f):
                value = getattr(self._origin, f)
                setattr(s, f, list(value) if isinstance(value, list) else value)
        ticked, origin = s.layers, self._origin.layers
        if ticked == self._shown.layers:
            s.layers = list(origin)
        else:  # the file's order kept, ops not in the tree kept, new ticks appended in model order
            in_tree = set(self.tree.names())
            s.layers = [x for x in origin if x not in in_tree or x in ticked] + [x for x in ticked if x not in origin]
        if s.option != "several":
            s.layers = []
        return s

    def edited(self) -> AclConfig:
        """A copy of the loaded document with the dialog's changes applied."""
        cfg = AclConfig(copy.deepcopy(self.cfg.data), self.cfg.path, self.cfg.indent)
        cfg.apply_dump(self.settings(), self._base)
        return cfg

    def refresh(self, *_args) -> None:
        self.stats_box.setEnabled(self.data.currentData() == "stats")
        s = self.settings()
        self.model_name.setText(s.model_name or self.tr("(load the model to know its name)"))
        listed = self.model is None and s.option == "several" and s.layers
        self.file_ops.setText(self.tr("Ops listed in the file: {0}").format(", ".join(s.layers)) if listed else "")
        self.file_ops.setVisible(bool(listed))
        cfg = self.edited()
        self.preview.setPlainText(cfg.to_text())
        lines = []
        if not s.model_name and s.option != "none":
            lines.append(("error", self.tr("Load the offline model: model_name is its om JSON's top-level name.")))
        if s.option == "several" and not s.layers:
            lines.append(("warning", self.tr("Dump option Several: tick the ops to dump in the tree.")))
        lines += [(i.level, f"{i.field}: {i.message}" if i.field else i.message) for i in cfg.validate(self.model)]
        colours = {"error": "#c0392b", "warning": "#b9770e"}
        self.issues.setText(
            "<br>".join(
                f"<span style='color:{colours.get(level, '#555')}'>"
                f"{self.tr('Error') if level == 'error' else self.tr('Warning')}: "
                f"{_html(text)}</span>"
                for level, text in lines
            )
        )
        self.issues.setVisible(bool(lines))

    # ----- saving
    def save(self) -> bool:
        path = self.acl_path.text()
        if not path:
            self.status.setText(self.tr("Choose the AclConfig file to write."))
            return False
        cfg = self.edited()
        if self.load_error is None and cfg.data == self.cfg.data and Path(path).is_file() and self._is_loaded(path):
            self.status.setText(
                self.tr("Saved {0}").format(path) + self.tr(" (nothing changed: the file was left as it is)")
            )
            return True
        backup = None
        if self.load_error is not None and Path(path).exists():
            if not self.confirm_overwrite(path):
                self.status.setText(self.tr("Not saved: {0} was left unchanged.").format(path))
                return False
            backup = backup_aside(Path(path))
        try:
            Path(path).parent.mkdir(parents=True, exist_ok=True)
            try:
                cfg.save(path)
            except ReadOnlyFile:
                if not self.confirm_read_only(path):
                    self.status.setText(self.tr("Not saved: {0} is read-only and was left unchanged.").format(path))
                    return False
                cfg.save(path, replace_read_only=True)
        except OSError as err:
            if backup is not None and not Path(path).exists():
                os.replace(backup, path)
            self.status.setText(self.tr("Not saved: {0}").format(err))
            return False
        self.cfg, self.load_error = cfg, None
        self._show_settings()  # what the file holds now is what a next Save compares with
        note = self.tr(" (the unreadable file was kept as {0})").format(backup.name) if backup else ""
        self.status.setText(self.tr("Saved {0}").format(path) + note)
        self.acl_status.setText(self.tr("Editing {0}; keys this editor does not manage are kept.").format(path))
        return True

    def _is_loaded(self, path: str) -> bool:
        """Whether ``path`` is the file the shown document was read from."""
        return self.cfg.path is not None and Path(path) == Path(self.cfg.path)

    def confirm_read_only(self, path: str) -> bool:
        answer = QMessageBox.question(
            self,
            self.tr("Replace a read-only file?"),
            self.tr(
                "{0} is read-only: somebody protected it against changes.\n\n"
                "Replace it with the configuration shown anyway? It stays read-only."
            ).format(path),
            QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No,
            QMessageBox.StandardButton.No,
        )
        return answer == QMessageBox.StandardButton.Yes

    def confirm_overwrite(self, path: str) -> bool:
        err = self.load_error
        answer = QMessageBox.question(
            self,
            self.tr("Replace acl.json?"),
            self.tr(
                "{0} is not valid JSON (line {1}, column {2}).\n\nReplace it with the configuration shown? "
                "The current file will be kept as {3}.corrupt."
            ).format(path, err.line if err else "?", err.column if err else "?", Path(path).name),
            QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No,
            QMessageBox.StandardButton.No,
        )
        return answer == QMessageBox.StandardButton.Yes


def _select(combo: QComboBox, value: Any, unknown: str) -> None:
    """Select the item whose data is ``value``; a value the combo does not offer (e.g. a typo in the
    file) is added as an item of its own, so it is shown and kept rather than replaced."""
    for i in range(combo.count() - 1, -1, -1):
        if combo.itemData(i, _EXTRA_ROLE):
            combo.removeItem(i)
    for i in range(combo.count()):
        if combo.itemData(i) == value:
            combo.setCurrentIndex(i)
            return
    combo.addItem(unknown.format(json.dumps(value, ensure_ascii=False)), value)
    combo.setItemData(combo.count() - 1, True, _EXTRA_ROLE)
    combo.setCurrentIndex(combo.count() - 1)


_EXTRA_ROLE = Qt.ItemDataRole.UserRole + 1


def _html(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def open_dump_configuration(
    context: AppContext, parent: QWidget, om_path: str | None = None, acl_path: str | None = None
) -> DumpConfigDialog:
    """Ascend ▸ Dump Configuration…, and "Dump Configuration…" on an .om / om JSON in the explorer."""
    dialog = DumpConfigDialog(context, om_path, acl_path, parent)
    dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
    dialog.show()
    return dialog
