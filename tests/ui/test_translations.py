"""zh_CN stays complete, the shipped .qm matches the .ts, and Chinese renders with a real font."""

from __future__ import annotations

import importlib.util
import tempfile
from pathlib import Path

from PySide6.QtGui import QFont, QFontDatabase, QFontMetrics

from workbench.core import artefacts, project

ROOT = Path(__file__).resolve().parents[2]


def _i18n():
    spec = importlib.util.spec_from_file_location("wb_i18n", ROOT / "packaging" / "i18n.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_every_ui_string_has_a_zh_cn_translation():
    missing = _i18n().check()
    assert not missing, (
        "strings without zh_CN translation (run packaging/i18n.py update, translate, release):\n" + "\n".join(missing)
    )


def test_shipped_qm_is_compiled_from_the_ts():
    i18n = _i18n()
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "x.qm"
        i18n.release(out)
        assert out.read_bytes() == i18n.QM.read_bytes(), "run: python packaging/i18n.py release"


def test_core_labels_are_marked_for_translation():
    from workbench.ui import labels

    assert set(artefacts.LABELS.values()) == set(labels.ARTEFACT_LABELS)
    assert set(project.PROJECT_TYPES) == set(labels.PROJECT_TYPE_LABELS)
    from workbench.core.profiling import views

    assert set(views.STATISTICS) == set(labels.STATISTICS_LABELS)
    assert set(views.SUMMARY_LABELS) == set(labels.SUMMARY_LABELS)
    from workbench.ui.report.document import COLLECT_HINT_TEXTS

    # a hint with words besides its command line (a parenthesis) is translated; a bare command is not
    assert {h for h in views.COLLECT_HINT.values() if "(" in h} == set(COLLECT_HINT_TEXTS)


def test_chinese_window_and_font(qtbot):
    from workbench.ui import i18n
    from workbench.ui.app import build_window, create_app

    app, settings, problems = create_app("zh_CN")
    try:
        win = build_window(settings, problems, [], restore=False, demo=False)
        qtbot.addWidget(win)
        titles = [a.text() for a in win.menuBar().actions()]
        assert titles == ["文件(&F)", "昇腾(&A)", "视图(&V)", "帮助(&H)"]
        assert win.docks["ProjectExplorerDock"].windowTitle() == "工程资源管理器"
        assert "Ascend/System Profiler/New Profiling…" not in win.menu_entries()
        assert "昇腾(A)/系统性能分析/新建性能分析…" in win.menu_entries()
        families = QFontDatabase.families(QFontDatabase.WritingSystem.SimplifiedChinese)
        assert families, "no CJK font installed (fonts-wqy-microhei)"
        metrics = QFontMetrics(QFont(families[0]))
        assert all(metrics.inFontUcs4(ord(ch)) for ch in "工程资源管理器昇腾")
        win._quitting = True
        win.close()
    finally:
        for tr in getattr(app, "_wb_translators", []):
            app.removeTranslator(tr)
        app._wb_translators = i18n.install_translators(app, "en")
