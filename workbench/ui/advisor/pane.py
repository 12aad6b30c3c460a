"""The Advisor tab: the findings grouped by severity and category; a finding's facts, advice and
evidence beside the list; Show (or a double-click) on an evidence item asks the document to bring it
up (``evidence_activated``); Export writes JSON / HTML / Excel in the UI's language. The result comes
from a task the document runs (``set_running`` / ``set_result`` / ``set_failed``): never computed here."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QT_TRANSLATE_NOOP, QCoreApplication, Qt, Signal
from PySide6.QtGui import QBrush, QColor
from PySide6.QtWidgets import (
    QFileDialog,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QMessageBox,
    QProgressBar,
    QPushButton,
    QSplitter,
    QTableWidget,
    QTableWidgetItem,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from workbench.core.advisor import export
from workbench.core.advisor.model import AdvisorResult, Finding, Severity
from workbench.ui.advisor.texts import tr_advisor

EXPORT_CONTEXT = "AdvisorExport"
# export.LABELS (the exports' fixed words: severities, categories, evidence kinds, headings), for
# pyside6-lupdate; tests/ui/test_advisor_ui.py checks the list matches core's.
EXPORT_LABELS = (
    QT_TRANSLATE_NOOP("AdvisorExport", "High"),
    QT_TRANSLATE_NOOP("AdvisorExport", "Medium"),
    QT_TRANSLATE_NOOP("AdvisorExport", "Low"),
    QT_TRANSLATE_NOOP("AdvisorExport", "Compute"),
    QT_TRANSLATE_NOOP("AdvisorExport", "Scheduling"),
    QT_TRANSLATE_NOOP("AdvisorExport", "Memory"),
    QT_TRANSLATE_NOOP("AdvisorExport", "Communication"),
    QT_TRANSLATE_NOOP("AdvisorExport", "Cluster"),
    QT_TRANSLATE_NOOP("AdvisorExport", "Environment"),
    QT_TRANSLATE_NOOP("AdvisorExport", "Operator"),
    QT_TRANSLATE_NOOP("AdvisorExport", "Slice"),
    QT_TRANSLATE_NOOP("AdvisorExport", "Lane"),
    QT_TRANSLATE_NOOP("AdvisorExport", "Table row"),
    QT_TRANSLATE_NOOP("AdvisorExport", "Step"),
    QT_TRANSLATE_NOOP("AdvisorExport", "Rank"),
    QT_TRANSLATE_NOOP("AdvisorExport", "Link"),
    QT_TRANSLATE_NOOP("AdvisorExport", "Setting"),
    QT_TRANSLATE_NOOP("AdvisorExport", "Advisor findings"),
    QT_TRANSLATE_NOOP("AdvisorExport", "Source"),
    QT_TRANSLATE_NOOP("AdvisorExport", "Findings"),
    QT_TRANSLATE_NOOP("AdvisorExport", "Severity"),
    QT_TRANSLATE_NOOP("AdvisorExport", "Category"),
    QT_TRANSLATE_NOOP("AdvisorExport", "Rule"),
    QT_TRANSLATE_NOOP("AdvisorExport", "Title"),
    QT_TRANSLATE_NOOP("AdvisorExport", "Advice"),
    QT_TRANSLATE_NOOP("AdvisorExport", "Facts"),
    QT_TRANSLATE_NOOP("AdvisorExport", "Evidence"),
    QT_TRANSLATE_NOOP("AdvisorExport", "Kind"),
    QT_TRANSLATE_NOOP("AdvisorExport", "What"),
    QT_TRANSLATE_NOOP("AdvisorExport", "Where"),
    QT_TRANSLATE_NOOP("AdvisorExport", "Start (ns)"),
    QT_TRANSLATE_NOOP("AdvisorExport", "Duration (ns)"),
    QT_TRANSLATE_NOOP("AdvisorExport", "Values"),
    QT_TRANSLATE_NOOP("AdvisorExport", "No findings."),
    QT_TRANSLATE_NOOP("AdvisorExport", "Warnings"),
    QT_TRANSLATE_NOOP("AdvisorExport", "{shown} of {total} items"),
    QT_TRANSLATE_NOOP("AdvisorExport", "Finding"),
    QT_TRANSLATE_NOOP("AdvisorExport", "#"),
    QT_TRANSLATE_NOOP("AdvisorExport", "rank {rank}"),
)
SEVERITY_COLORS = {"high": QColor(192, 57, 43), "medium": QColor(214, 150, 0), "low": QColor(61, 123, 217)}
MARK_COLOR = QColor(230, 126, 34)  # the marks in the views (timeline outline, table rows)
ROLE = Qt.ItemDataRole.UserRole
RANK_COLUMN = 3  # the findings list's "Rank" column (a cluster's rank whose own report a finding is about)


def translate(text: str) -> str:
    """A rule's template (context "Advisor") or one of the exports' fixed words ("AdvisorExport")."""
    done = tr_advisor(text)
    return done if done != text else QCoreApplication.translate(EXPORT_CONTEXT, text)


def finding_title(f: Finding) -> str:
    return f.title(translate)


def rank_text(f: Finding) -> str:
    """ "rank 3" for a finding of one rank of a cluster (its own report), else ""."""
    return export.rank_label(f, translate)


def severity_text(severity: Severity | str) -> str:
    return export.severity_label(severity, translate)


class AdvisorPane(QWidget):
    """``evidence_activated(finding, evidence)``: Show (or a double-click) on an evidence item."""

    evidence_activated = Signal(object, object)

    def __init__(self, parent: QWidget | None = None, inputs=None) -> None:
        super().__init__(parent)
        self.setObjectName("AdvisorPane")
        self.result: AdvisorResult | None = None
        self.inputs = list(inputs or [])  # what the findings were computed from: an export never replaces it
        self.summary = QLabel(self.tr("Running the advisor…"), self)
        self.summary.setObjectName("advisorSummary")
        self.summary.setWordWrap(True)
        self.progress = QProgressBar(self)
        self.progress.setRange(0, 0)
        self.progress.setTextVisible(False)
        self.progress.setFixedWidth(200)
        self.export_buttons: dict[str, QPushButton] = {}
        bar = QHBoxLayout()
        bar.setContentsMargins(4, 4, 4, 4)
        bar.addWidget(self.summary, 1)
        bar.addWidget(self.progress)
        for kind, text in (
            ("json", self.tr("Export JSON…")),
            ("html", self.tr("Export HTML…")),
            ("xlsx", self.tr("Export Excel…")),
        ):
            button = QPushButton(text, self)
            button.setObjectName(f"advisorExport_{kind}")
            button.setEnabled(False)
            button.clicked.connect(lambda _checked=False, k=kind: self.export_dialog(k))
            self.export_buttons[kind] = button
            bar.addWidget(button)

        self.tree = QTreeWidget(self)
        self.tree.setObjectName("advisorFindings")
        self.tree.setHeaderLabels([self.tr("Finding"), self.tr("Category"), self.tr("Evidence"), self.tr("Rank")])
        self.tree.setColumnHidden(RANK_COLUMN, True)  # shown when a finding is about one rank of a cluster
        self.tree.setRootIsDecorated(True)
        self.tree.setAlternatingRowColors(True)
        self.tree.header().setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        self.tree.setMinimumWidth(260)  # the titles stay readable when the pane is narrow (cluster Overview)
        self.tree.header().setStretchLastSection(False)
        self.tree.currentItemChanged.connect(lambda item, _prev: self.show_finding(self._finding_of(item)))

        self.title = QLabel(self)
        self.title.setObjectName("advisorTitle")
        self.title.setWordWrap(True)
        self.title.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        font = self.title.font()
        font.setBold(True)
        font.setPointSizeF(font.pointSizeF() * 1.15)
        self.title.setFont(font)
        self.rule_label = QLabel(self)
        self.rule_label.setStyleSheet("color:#777;")
        self.facts = QTableWidget(0, 2, self)
        self.facts.setObjectName("advisorFacts")
        self.facts.setHorizontalHeaderLabels([self.tr("Fact"), self.tr("Value")])
        self.facts.verticalHeader().hide()
        self.facts.horizontalHeader().setSectionResizeMode(0, QHeaderView.ResizeMode.ResizeToContents)
        self.facts.horizontalHeader().setStretchLastSection(True)
        self.facts.setEditTriggers(QTableWidget.EditTrigger.NoEditTriggers)
        self.advice = QLabel(self)
        self.advice.setObjectName("advisorAdvice")
        self.advice.setWordWrap(True)
        self.advice.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.advice.setStyleSheet("background:#f3f8f3;padding:6px;border-radius:4px;")
        self.evidence_label = QLabel(self)
        self.evidence = QTreeWidget(self)
        self.evidence.setObjectName("advisorEvidence")
        self.evidence.setRootIsDecorated(False)
        self.evidence.setHeaderLabels(
            [self.tr("Kind"), self.tr("What"), self.tr("Where"), self.tr("Start (ns)"), self.tr("Duration")]
        )
        self.evidence.header().setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        self.evidence.header().setStretchLastSection(True)
        self.evidence.itemDoubleClicked.connect(lambda item, _col: self._activate(item))
        self.evidence.currentItemChanged.connect(lambda item, _prev: self._evidence_current(item))
        self.show_button = QPushButton(self.tr("Show"), self)
        self.show_button.setObjectName("advisorShow")
        self.show_button.setToolTip(self.tr("Show the selected evidence item in its view"))
        self.show_button.setEnabled(False)
        self.show_button.clicked.connect(lambda: self._activate(self.evidence.currentItem()))
        self.status = QLabel(self)
        self.status.setObjectName("advisorStatus")
        self.status.setWordWrap(True)

        detail = QWidget(self)
        dl = QVBoxLayout(detail)
        dl.setContentsMargins(6, 0, 0, 0)
        dl.addWidget(self.title)
        dl.addWidget(self.rule_label)
        dl.addWidget(self.facts, 2)
        dl.addWidget(self.advice)
        row = QHBoxLayout()
        row.addWidget(self.evidence_label, 1)
        row.addWidget(self.show_button)
        dl.addLayout(row)
        dl.addWidget(self.evidence, 3)
        dl.addWidget(self.status)
        split = QSplitter(Qt.Orientation.Horizontal, self)
        split.addWidget(self.tree)
        split.addWidget(detail)
        split.setStretchFactor(0, 1)
        split.setStretchFactor(1, 1)
        split.setSizes([480, 520])
        self.split = split
        self._sized = False
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addLayout(bar)
        layout.addWidget(split, 1)
        self.show_finding(None)

    def showEvent(self, event) -> None:  # noqa: N802 - Qt API
        super().showEvent(event)
        if not self._sized and self.width() > 100:  # the list and the details share the width once laid out
            self._sized = True
            self.split.setSizes([self.width() * 9 // 20, self.width() * 11 // 20])

    # --- the result ---------------------------------------------------------------------------------------
    def set_running(self, fraction: Any = None) -> None:
        self.progress.show()
        if fraction is None:
            self.progress.setRange(0, 0)
        else:
            self.progress.setRange(0, 1000)
            self.progress.setValue(int(float(fraction) * 1000))

    def set_failed(self, message: str) -> None:
        self.progress.hide()
        self.summary.setText(self.tr("The advisor could not run: {0}").format(message))
        self.summary.setStyleSheet("color:#933;")

    def task_failed(self, message: str, _error: object = None) -> None:
        """The advisor task's ``failed`` (a slot of this pane, so Qt drops the connection with the pane)."""
        self.set_failed(message)

    def task_cancelled(self) -> None:
        self.set_failed(self.tr("cancelled"))

    def set_result(self, result: AdvisorResult) -> None:
        self.result = result
        self.progress.hide()
        findings = result.sorted()
        counts = export.counts(result)
        if findings:
            self.summary.setText(
                self.tr("Findings: {0} ({1})").format(
                    len(findings), ", ".join(f"{severity_text(s)} {n}" for s, n in counts.items())
                )
            )
        else:
            self.summary.setText(
                self.tr("No findings: none of the {0} rules found a problem.").format(len(result.rules_run))
            )
        if result.warnings:
            self.summary.setToolTip("\n".join(result.warnings))
        for button in self.export_buttons.values():
            button.setEnabled(True)
        self.tree.clear()
        first: QTreeWidgetItem | None = None
        for severity in Severity:
            mine = [f for f in findings if f.severity == severity]
            if not mine:
                continue
            group = QTreeWidgetItem([f"{severity_text(severity)} ({len(mine)})", "", "", ""])
            group.setForeground(0, QBrush(SEVERITY_COLORS[severity.value]))
            font = group.font(0)
            font.setBold(True)
            group.setFont(0, font)
            group.setFlags(group.flags() & ~Qt.ItemFlag.ItemIsSelectable)
            self.tree.addTopLevelItem(group)
            for f in mine:
                total = len(f.evidence) if f.evidence_total is None else f.evidence_total
                item = QTreeWidgetItem(
                    [finding_title(f), export.category_label(f.category, translate), str(total), rank_text(f)]
                )
                item.setData(0, ROLE, f)
                item.setToolTip(0, finding_title(f))
                item.setForeground(0, QBrush(SEVERITY_COLORS[severity.value]))
                group.addChild(item)
                first = first or item
            group.setExpanded(True)
        self.tree.resizeColumnToContents(1)
        ranked = any(f.rank is not None for f in findings)
        self.tree.setColumnHidden(RANK_COLUMN, not ranked)
        if ranked:
            self.tree.resizeColumnToContents(RANK_COLUMN)
        if first is not None:
            self.tree.setCurrentItem(first)
        else:
            self.show_finding(None)

    def findings(self) -> list[Finding]:
        return self.result.sorted() if self.result is not None else []

    def item_of(self, rule: str) -> QTreeWidgetItem | None:
        """The list's item of the first finding of ``rule``."""
        for i in range(self.tree.topLevelItemCount()):
            group = self.tree.topLevelItem(i)
            for k in range(group.childCount() if group is not None else 0):
                child = group.child(k) if group is not None else None
                f = child.data(0, ROLE) if child is not None else None
                if f is not None and f.rule == rule:
                    return child
        return None

    @staticmethod
    def _finding_of(item: QTreeWidgetItem | None) -> Finding | None:
        return item.data(0, ROLE) if item is not None else None

    # --- one finding --------------------------------------------------------------------------------------
    def show_finding(self, f: Finding | None) -> None:
        self.facts.setRowCount(0)
        self.evidence.clear()
        self.show_button.setEnabled(False)
        if f is None:
            self.title.setText(self.tr("Select a finding to see its facts, advice and evidence."))
            self.rule_label.clear()
            self.advice.hide()
            self.evidence_label.clear()
            return
        rank = rank_text(f)
        self.title.setText(" · ".join(t for t in (severity_text(f.severity), rank, finding_title(f)) if t))
        self.title.setStyleSheet(f"color:{SEVERITY_COLORS[f.severity.value].name()};")
        self.rule_label.setText(self.tr("{0} · rule {1}").format(export.category_label(f.category, translate), f.rule))
        lines = f.fact_lines(translate)
        self.facts.setRowCount(len(lines))
        for r, (label, value) in enumerate(lines):
            self.facts.setItem(r, 0, QTableWidgetItem(label))
            self.facts.setItem(r, 1, QTableWidgetItem(value))
        advice = f.advice(translate)
        self.advice.setText(self.tr("What to try: {0}").format(advice) if advice else "")
        self.advice.setVisible(bool(advice))
        total = len(f.evidence) if f.evidence_total is None else f.evidence_total
        if not f.evidence:
            self.evidence_label.setText(self.tr("No evidence items."))
        elif total > len(f.evidence):
            self.evidence_label.setText(
                self.tr("Evidence: the top {0} of {1} items. Double-click or Show: go there.").format(
                    len(f.evidence), total
                )
            )
        else:
            self.evidence_label.setText(self.tr("Evidence: {0} items. Double-click or Show: go there.").format(total))
        for e in f.evidence:
            start = "" if e.start_ns is None else f"{int(e.start_ns):,}"
            dur = "" if e.dur_ns is None else f"{int(e.dur_ns) / 1000:,.3f} us"
            item = QTreeWidgetItem(
                [export.evidence_kind_label(e.kind, translate), e.label, export.where(e), start, dur]
            )
            item.setData(0, ROLE, (f, e))
            self.evidence.addTopLevelItem(item)
        for c, most in ((0, 120), (1, 260), (2, 240), (3, 190), (4, 120)):  # the label first, then where
            self.evidence.resizeColumnToContents(c)
            self.evidence.setColumnWidth(c, min(most, self.evidence.columnWidth(c)))
        self.status.clear()

    def _evidence_current(self, item: QTreeWidgetItem | None) -> None:
        self.show_button.setEnabled(item is not None)

    def _activate(self, item: QTreeWidgetItem | None) -> None:
        if item is None:
            return
        f, e = item.data(0, ROLE)
        self.evidence_activated.emit(f, e)

    def set_status(self, text: str, error: bool = False) -> None:
        self.status.setText(text)
        self.status.setStyleSheet("color:#933;" if error else "")

    # --- export -------------------------------------------------------------------------------------------
    def export_dialog(self, kind: str) -> None:
        if self.result is None:
            return
        filters = {
            "json": self.tr("JSON (*.json)"),
            "html": self.tr("HTML page (*.html)"),
            "xlsx": self.tr("Excel workbook (*.xlsx)"),
        }
        path, _ = QFileDialog.getSaveFileName(
            self,
            self.tr("Export Advisor Findings"),
            f"advisor.{kind}",
            filters[kind],
            options=QFileDialog.Option.DontUseNativeDialog,  # as every file dialog of the workbench
        )
        if not path:
            return
        if "." not in path.rsplit("/", 1)[-1]:
            path += f".{kind}"
        try:
            # the dialog asked before replacing an existing file: the user said yes
            written = export.WRITERS[kind](self.result, path, force=True, translate=translate, inputs=self.inputs)
        except (OSError, ValueError) as exc:
            QMessageBox.warning(self, self.tr("Export Advisor Findings"), str(exc))
            return
        self.set_status(self.tr("Wrote {0}").format(written))
