"""The common frame of every converter page: scrollable content, the page's issues and the live
atc command line at the foot.

A page writes its widgets into a :class:`ConversionJob` (``apply``), fills them from one
(``load``), and shows the issues whose field it owns. Text that cannot even be parsed (a shape
``1,x``) is reported by ``apply`` as an :class:`Issue` with ATC's code, like validation does.
"""

from __future__ import annotations

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QFrame, QLabel, QScrollArea, QVBoxLayout, QWidget, QWizardPage

from workbench.core.atc import ConversionJob, Issue, ModelInputs
from workbench.ui.converter.widgets import CommandPreview, IssueBox, mark


class ConverterPage(QWizardPage):
    changed = Signal()  # any edit: the wizard re-validates and updates every preview
    FIELDS: tuple[str, ...] = ()  # issue fields (flag names) shown on this page
    PREFIXES: tuple[str, ...] = ()

    def __init__(self, title: str, subtitle: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setTitle(title)
        self.setSubTitle(subtitle)
        self.content = QWidget(self)
        self.body = QVBoxLayout(self.content)
        self.body.setContentsMargins(0, 0, 6, 0)
        scroll = QScrollArea(self)
        scroll.setWidgetResizable(True)
        scroll.setFrameShape(QFrame.Shape.NoFrame)
        scroll.setWidget(self.content)
        self.issue_box = IssueBox(self)
        self.preview = CommandPreview(self)
        self.preview_label = QLabel(self.tr("atc command:"), self)
        self.elsewhere = QLabel(self)
        self.elsewhere.setWordWrap(True)
        self.elsewhere.setStyleSheet("color: #c0392b;")
        self.elsewhere.hide()
        layout = QVBoxLayout(self)
        layout.addWidget(scroll, 1)
        layout.addWidget(self.issue_box)
        layout.addWidget(self.elsewhere)
        layout.addWidget(self.preview_label)
        layout.addWidget(self.preview)
        self.field_widgets: dict[str, QWidget] = {}
        self.issues: list[Issue] = []

    def notify(self, *_args: object) -> None:
        """Slot for any widget signal: the page changed."""
        self.changed.emit()

    def owns(self, field: str) -> bool:
        return field in self.FIELDS or bool(self.PREFIXES) and field.startswith(self.PREFIXES)

    # --- overridden by the pages ------------------------------------------------------------------
    def apply(self, job: ConversionJob, problems: list[Issue]) -> None:
        """Write this page's values into ``job``; append unparsable input to ``problems``."""

    def load(self, job: ConversionJob) -> None:
        """Fill the widgets from ``job`` (the remembered values)."""

    def set_model(self, info: ModelInputs | None) -> None:
        """The model as read locally (None: not read / not readable)."""

    # --- shown by the wizard after every change -----------------------------------------------------
    def show_state(self, issues: list[Issue], command_line: str) -> None:
        self.issues = list(issues)
        self.issue_box.set_issues(issues)
        self.preview.setText(command_line)
        for name, widget in self.field_widgets.items():
            mark(widget, [i for i in issues if i.field == name])

    def show_elsewhere(self, where: list[tuple[str, list[str]]]) -> None:
        """Errors on other pages: (page title, codes), so a disabled Convert is never a mystery."""
        text = "; ".join(f"{title} ({', '.join(dict.fromkeys(codes))})" for title, codes in where)
        self.elsewhere.setText(self.tr("Errors on other pages: {0}").format(text) if where else "")
        self.elsewhere.setVisible(bool(where))

    def codes(self) -> list[str]:
        return [i.code for i in self.issues]
