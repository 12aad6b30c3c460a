"""Small widgets shared by the converter wizard's pages: the issue box, the command preview, an
optional-int spin box and a number field whose empty text means "not set"."""

from __future__ import annotations

import html

from PySide6.QtCore import QCoreApplication, Qt, Signal
from PySide6.QtGui import QFontDatabase
from PySide6.QtWidgets import QFileDialog, QLabel, QLineEdit, QSpinBox, QWidget

from workbench.core.atc import Issue, explain

# The converter's file dialogs are Qt's own (as everywhere in the workbench): the same on every desktop.
FILE_DIALOG = QFileDialog.Option.DontUseNativeDialog
ERROR_STYLE = "border: 1px solid #d9534f; border-radius: 2px;"
WARNING_STYLE = "border: 1px solid #e0a800; border-radius: 2px;"


def issue_html(issue: Issue, with_help: bool = True) -> str:
    """One issue as rich text: code, message and (optionally) the explanation and the fix."""
    colour = "#c0392b" if issue.severity == "error" else "#b7791f"
    if issue.severity == "error":
        kind = QCoreApplication.translate("Converter", "Error")
    else:
        kind = QCoreApplication.translate("Converter", "Warning")
    why = QCoreApplication.translate("Converter", "Why:")
    fix = QCoreApplication.translate("Converter", "Fix:")
    text = (
        f"<p style='margin:2px 0'><b style='color:{colour}'>{html.escape(issue.code)}</b> "
        f"<span style='color:{colour}'>{kind}</span>: {html.escape(issue.message)}"
    )
    if with_help:
        ex = explain(issue.code, issue.message)
        text += f"<br><small><i>{why}</i> {html.escape(ex.text)}<br><i>{fix}</i> {html.escape(ex.fix)}</small>"
    return text + "</p>"


class IssueBox(QLabel):
    """The issues of one page (code, message, explanation, fix); hidden when there are none."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWordWrap(True)
        self.setTextFormat(Qt.TextFormat.RichText)
        self.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.setStyleSheet("QLabel { background: #fff6f4; border: 1px solid #f0c2b8; padding: 4px; }")
        self.issues: list[Issue] = []
        self.hide()

    def set_issues(self, issues: list[Issue]) -> None:
        self.issues = list(issues)
        self.setText("".join(issue_html(i) for i in issues))
        self.setVisible(bool(issues))

    def codes(self) -> list[str]:
        return [i.code for i in self.issues]


class CommandPreview(QLabel):
    """The exact atc command line, in a fixed-width font, selectable (shown at the foot of every page)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWordWrap(True)
        self.setTextFormat(Qt.TextFormat.PlainText)
        self.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
        self.setStyleSheet("QLabel { background: #f4f6f8; color: #1f2d3d; border: 1px solid #d5dbe1; padding: 4px; }")


class OptSpin(QSpinBox):
    """A spin box whose lowest value means "not set" (None), shown as a dash."""

    def __init__(self, maximum: int = 100_000, minimum: int = 0, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setRange(minimum - 1, maximum)
        self.setSpecialValueText("—")
        self.setValue(minimum - 1)
        self.setAccelerated(True)

    def opt_value(self) -> int | None:
        return None if self.value() == self.minimum() else self.value()

    def set_opt_value(self, value: int | None) -> None:
        self.setValue(self.minimum() if value is None else int(value))


class NumberEdit(QLineEdit):
    """A number field (int or float) where empty text is "not set"; ``parsed()`` raises ValueError."""

    value_changed = Signal()

    def __init__(self, kind: type = float, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.kind = kind
        self.setPlaceholderText("—")
        self.setMaximumWidth(180)
        self.textChanged.connect(self._text_changed)

    def _text_changed(self, _text: str) -> None:
        self.value_changed.emit()

    def parsed(self) -> int | float | None:
        text = self.text().strip()
        return None if not text else self.kind(text)

    def set_number(self, value: int | float | None) -> None:
        self.setText("" if value is None else repr(value) if isinstance(value, float) else str(value))
        self.setCursorPosition(0)


def mark(widget: QWidget, issues: list[Issue]) -> None:
    """Outline a field that has an error (red) or warning (amber) and put the messages in its tooltip."""
    if not issues:
        widget.setStyleSheet("")
        widget.setToolTip(widget.property("base_tooltip") or "")
        return
    if widget.property("base_tooltip") is None:
        widget.setProperty("base_tooltip", widget.toolTip())
    error = any(i.severity == "error" for i in issues)
    cls = widget.metaObject().className()
    widget.setStyleSheet(f"{cls} {{ {ERROR_STYLE if error else WARNING_STYLE} }}")
    widget.setToolTip("\n".join(f"{i.code}: {i.message}" for i in issues))
