"""Ascend ▸ System Profiler ▸ Timeline Color: MindStudio's rule "green < a % ≤ yellow < b % ≤ red"
by an API's share of the total API time, two decimals, persisted in the settings."""

from __future__ import annotations

from PySide6.QtWidgets import QCheckBox, QDialog, QDialogButtonBox, QDoubleSpinBox, QFormLayout, QLabel, QWidget

from workbench.core.profiling.timeline_ops import ColorRule


class TimelineColorDialog(QDialog):
    def __init__(self, enabled: bool, a: float, b: float, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(self.tr("Timeline Color"))
        self.enabled = QCheckBox(self.tr("Colour API slices by their share of total API time"), self)
        self.enabled.setChecked(enabled)
        self.a = self._spin(a)
        self.b = self._spin(b)
        self.preview = QLabel(self)
        form = QFormLayout(self)
        form.addRow(self.enabled)
        form.addRow(self.tr("Green below (%):"), self.a)
        form.addRow(self.tr("Red from (%):"), self.b)
        form.addRow(self.preview)
        self.buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok
            | QDialogButtonBox.StandardButton.Cancel
            | QDialogButtonBox.StandardButton.RestoreDefaults,
            self,
        )
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        self.buttons.button(QDialogButtonBox.StandardButton.RestoreDefaults).clicked.connect(self._defaults)
        form.addRow(self.buttons)
        for w in (self.a, self.b):
            w.valueChanged.connect(lambda _v: self._update())
        self._update()

    def _spin(self, value: float) -> QDoubleSpinBox:
        spin = QDoubleSpinBox(self)
        spin.setDecimals(2)
        spin.setRange(0.0, 100.0)
        spin.setSingleStep(0.5)
        spin.setValue(value)
        return spin

    def _defaults(self) -> None:
        self.a.setValue(5.0)
        self.b.setValue(10.0)

    def _update(self) -> None:
        ok = self.a.value() <= self.b.value()
        self.buttons.button(QDialogButtonBox.StandardButton.Ok).setEnabled(ok)
        if ok:
            self.preview.setText(
                self.tr("green < {0}% ≤ yellow < {1}% ≤ red").format(f"{self.a.value():.2f}", f"{self.b.value():.2f}")
            )
        else:
            self.preview.setText(self.tr("The green threshold must not exceed the red one."))

    def rule(self) -> ColorRule:
        return ColorRule(self.a.value(), self.b.value())
