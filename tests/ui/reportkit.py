"""What the report-tab tests share: the real 910B sample as a torch_npu output, File ▸ Open Report…
through Qt's own dialog, a click on a document tab, the rows a FrameTable shows, a click on a row."""

from __future__ import annotations

import shutil
from pathlib import Path

from PySide6.QtCore import QCoreApplication, QPoint, Qt, QTimer
from PySide6.QtGui import QContextMenuEvent
from PySide6.QtWidgets import QApplication, QFileDialog, QMenu

from workbench.ui.report.document import ReportDocument

SAMPLE = "torch_npu-910B-rank0-comm-mem"


def sample_run(tmp_path: Path, samples: Path) -> Path:
    """The sample copied as ``rank0_ascend_pt/ASCEND_PROFILER_OUTPUT`` (samples are read-only)."""
    root = tmp_path / "rank0_ascend_pt"
    shutil.copytree(samples / SAMPLE, root / "ASCEND_PROFILER_OUTPUT")
    for path in (root / "ASCEND_PROFILER_OUTPUT").iterdir():
        path.chmod(0o644)
    return root


def open_report(qtbot, user, window, path: Path) -> ReportDocument:
    """File ▸ Open Report…, the path typed into Qt's own file dialog, Enter; the document once ready."""
    label = QCoreApplication.translate("MainWindow", "Open Report…")  # the window's language
    entry = next(p for p in window.menu_entries() if p.count("/") == 1 and p.endswith("/" + label))  # File ▸
    with user.answering(QFileDialog, user.typing_path(path)):
        user.trigger(window, entry)
    qtbot.waitUntil(
        lambda: isinstance(window.documents.currentWidget(), ReportDocument) and window.documents.currentWidget().ready,
        timeout=30000,
    )
    return window.documents.currentWidget()


def tab_titles(doc) -> list[str]:
    return [doc.tabs.tabText(i) for i in range(doc.tabs.count())]


def click_tab(qtbot, doc, title: str) -> None:
    bar = doc.tabs.tabBar()
    index = tab_titles(doc).index(title)
    qtbot.mouseClick(bar, Qt.MouseButton.LeftButton, pos=bar.tabRect(index).center())
    qtbot.waitUntil(lambda: doc.tabs.currentIndex() == index, timeout=5000)


def open_tab(qtbot, user, window, path: Path, title: str, tab: str):
    """Open the report, click the tab titled ``title``; the document and the tab's pane once shown."""
    doc = open_report(qtbot, user, window, path)
    click_tab(qtbot, doc, title)
    holder = getattr(doc, tab)
    qtbot.waitUntil(lambda: holder.widget is not None and holder.widget.isVisible(), timeout=20000)
    return doc, holder.widget


def table(frame_table) -> list[dict[str, str]]:
    """What a FrameTable shows: header -> cell text, per visible row."""
    model = frame_table.model
    headers = [model.headerData(c, Qt.Orientation.Horizontal) for c in range(model.columnCount())]
    return [{h: model.index(r, c).data() for c, h in enumerate(headers)} for r in range(model.rowCount())]


def click_row(qtbot, view, row: int) -> None:
    index = view.model().index(row, 0)
    view.scrollTo(index)
    qtbot.mouseClick(view.viewport(), Qt.MouseButton.LeftButton, pos=view.visualRect(index).center())


def right_click(qtbot, viewport, pos: QPoint) -> None:
    """A right-click and the context-menu event the window system follows it with (QTest sends none)."""
    qtbot.mouseClick(viewport, Qt.MouseButton.RightButton, pos=pos)
    QApplication.sendEvent(viewport, QContextMenuEvent(QContextMenuEvent.Reason.Mouse, pos, viewport.mapToGlobal(pos)))


def choose_in_menu(qtbot, text: str, found: list) -> None:
    """Trigger the entry ``text`` of the context menu that opens next."""
    menu = QApplication.activePopupWidget()
    if not isinstance(menu, QMenu):
        QTimer.singleShot(20, lambda: choose_in_menu(qtbot, text, found))
        return
    found.append([a.text() for a in menu.actions()])
    action = next(a for a in menu.actions() if a.text() == text)
    menu.hide()
    action.trigger()
