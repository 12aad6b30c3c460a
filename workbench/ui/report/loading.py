"""The document tab of a report while it loads: what is happening, how far, Cancel — and, for a
big trace, a preview timeline of its first megabytes that can be explored before the load ends."""

from __future__ import annotations

import re
from pathlib import Path

from PySide6.QtWidgets import QHBoxLayout, QLabel, QProgressBar, QPushButton, QVBoxLayout, QWidget

from workbench.ui.elided import ElidedLabel


def _mb(n: int) -> str:
    return f"{n / 1e6:,.0f} MB" if n >= 10e6 else f"{n / 1e6:,.1f} MB"


class ReportLoadingPage(QWidget):
    def __init__(self, path: Path, task, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("ReportLoadingPage")
        self.path, self.task = Path(path), task
        self.preview = None
        self.preview_view = None
        self.user_moved = False
        # long names and paths elide: a loading page never widens the window
        self.title = ElidedLabel(self.tr("Opening {0}").format(self.path.name), self)
        self.title.setStyleSheet("font-size: 14pt; font-weight: 600;")
        self.status = ElidedLabel(self.tr("Starting…"), self)
        self.bar = QProgressBar(self)
        self.bar.setRange(0, 0)  # busy until the first fraction arrives
        self.cancel_button = QPushButton(self.tr("Cancel"), self)
        self.cancel_button.clicked.connect(self.cancel_load)
        row = QHBoxLayout()
        row.addWidget(self.bar, 1)
        row.addWidget(self.cancel_button)
        self.banner = QLabel(self)
        self.banner.setWordWrap(True)
        self.banner.setStyleSheet("background:#e7f1ff;color:#084298;padding:4px;")
        self.banner.hide()
        self.head = QWidget(self)
        head = QVBoxLayout(self.head)
        head.addWidget(self.title)
        head.addWidget(self.status)
        head.addLayout(row)
        self.box = QVBoxLayout(self)
        self.box.addWidget(self.head)
        self.box.addWidget(self.banner)
        self.box.addStretch(1)

    # --- task events ---------------------------------------------------------------------------
    def set_status(self, text: str) -> None:
        """The engine's stage, in the user's language where it is one of the known stages."""
        m = re.match(r"^Reading (.+)$", text)
        if m:
            text = self.tr("Reading {0}").format(m.group(1))
        elif text == "Building the timeline":
            text = self.tr("Building the timeline")
        elif text == "Laying out the timeline":
            text = self.tr("Laying out the timeline")
        self.status.setText(text)

    def set_fraction(self, value) -> None:
        if value is None:
            self.bar.setRange(0, 0)
            return
        self.bar.setRange(0, 1000)
        self.bar.setValue(int(max(0.0, min(1.0, float(value))) * 1000))
        self._update_banner()

    def partial(self, item) -> None:
        if isinstance(item, tuple) and len(item) == 2 and item[0] == "preview":
            self.show_preview(item[1])

    def show_preview(self, preview) -> None:
        """Draw the preview timeline under the progress; it stays usable until the report is ready."""
        from workbench.ui.report.timeline import TimelineView

        if self.preview_view is not None:
            return
        self.preview = preview
        self.preview_view = TimelineView(preview.timeline, self, layout=preview.layout, name_colors=preview.name_colors)
        self.preview_view.viewbox.sigRangeChangedManually.connect(self._moved)
        self.box.takeAt(self.box.count() - 1)  # the stretch
        self.box.addWidget(self.preview_view, 1)
        self.banner.show()
        self._update_banner()

    def _update_banner(self) -> None:
        if self.preview is None:
            return
        pct = self.bar.value() // 10 if self.bar.maximum() else 0  # whole percent, as the bar shows
        self.banner.setText(
            self.tr(
                "Preview: the first {0} of {1} ({2} events). The whole report replaces it when loading "
                "finishes ({3:.0f} % read)."
            ).format(
                _mb(self.preview.preview_bytes),
                _mb(self.preview.source_bytes),
                f"{self.preview.timeline.event_count:,}",
                pct,
            )
        )

    def _moved(self, *_args) -> None:
        self.user_moved = True

    def preview_range(self) -> tuple[float, float] | None:
        """The time range shown in the preview, if the user moved it (else None: fit the whole)."""
        view = self.preview_view
        if view is None or not (self.user_moved or view.zoom_history):
            return None
        return view.x_range()

    # --- closing --------------------------------------------------------------------------------
    def cancel_load(self) -> None:
        self.cancel_button.setEnabled(False)
        self.status.setText(self.tr("Cancelling…"))
        self.task.cancel()

    def closing(self) -> None:
        """The tab is being closed: stop the load."""
        if not self.task.state.finished:
            self.task.cancel()
