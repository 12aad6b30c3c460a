"""The outcome of a conversion: the success line and the .om, the warnings (W11001 …), and on
failure every error with its code, message, ATC's own cause/solution lines, a plain explanation
and the likely fix (the core error explainer)."""

from __future__ import annotations

import html

from PySide6.QtWidgets import QTextBrowser, QWidget

from workbench.core.atc import ConversionResult, Diagnostic, Issue


class ResultPanel(QTextBrowser):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setOpenExternalLinks(False)
        self.setMinimumHeight(120)
        self.codes: list[str] = []
        self.hide()

    def _diagnostic(self, d: Diagnostic, colour: str) -> str:
        ex = d.explanation
        why, fix = self.tr("Why:"), self.tr("Fix:")
        details = "".join(f"<br><span style='color:#6b7785'>{html.escape(line)}</span>" for line in d.details)
        return (
            f"<p><b style='color:{colour}'>{html.escape(d.code)}</b> {html.escape(d.message)}{details}<br>"
            f"<i>{why}</i> {html.escape(ex.text)}<br><i>{fix}</i> {html.escape(ex.fix)}</p>"
        )

    def show_result(self, result: ConversionResult) -> None:
        self.codes = [d.code for d in result.errors + result.warnings]
        if result.ok:
            title = self.tr("Conversion succeeded")
            where = self.tr("Took {0} s on {1}.").format(f"{result.duration_s:.1f}", result.host)
            model = self.tr("Model:")
            head = (
                f"<h3 style='color:#2e7d32'>{html.escape(title)}</h3>"
                f"<p>{html.escape(model)} <code>{html.escape(result.om_path or '')}</code><br>"
                f"{html.escape(where)}</p>"
            )
        else:
            title = self.tr("Conversion failed")
            where = self.tr("atc exited with status {0} on {1}. Every error is listed below.").format(
                result.exit_status, result.host
            )
            head = f"<h3 style='color:#c0392b'>{html.escape(title)}</h3><p>{html.escape(where)}</p>"
        body = "".join(self._diagnostic(d, "#c0392b") for d in result.errors)
        if result.warnings:
            warnings = self.tr("Warnings")
            body += f"<h4>{warnings}</h4>" + "".join(self._diagnostic(d, "#b7791f") for d in result.warnings)
        self.setHtml(head + body)
        self.show()

    def show_issues(self, issues: list[Issue]) -> None:
        """Validation refused the job (nothing was sent to the host)."""
        self.codes = [i.code for i in issues]
        title = self.tr("Not converted: fix these first")
        diags = "".join(self._diagnostic(Diagnostic(i.code, i.message), "#c0392b") for i in issues)
        self.setHtml(f"<h3 style='color:#c0392b'>{html.escape(title)}</h3>{diags}")
        self.show()

    def show_message(self, title: str, message: str, ok: bool = False) -> None:
        self.codes = []
        colour = "#2e7d32" if ok else "#c0392b"
        self.setHtml(f"<h3 style='color:{colour}'>{html.escape(title)}</h3><p>{html.escape(message)}</p>")
        self.show()
