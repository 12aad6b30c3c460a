"""Install the Qt translators for the chosen language (zh_CN ships with the app)."""

from __future__ import annotations

from PySide6.QtCore import QLibraryInfo, QLocale, QTranslator
from PySide6.QtWidgets import QApplication

from workbench.core.paths import resource_path

SUPPORTED = ("en", "zh_CN")


def effective_language(setting: str) -> str:
    """'' follows the system locale: Chinese locales get zh_CN, everything else English."""
    if setting in SUPPORTED:
        return setting
    return "zh_CN" if QLocale.system().name().startswith("zh") else "en"


def install_translators(app: QApplication, language: str) -> list[QTranslator]:
    """Load our catalogue and Qt's own (standard buttons) for ``language``; keep the returned
    translators alive as long as the app."""
    installed: list[QTranslator] = []
    if language == "en":
        return installed
    ours = QTranslator(app)
    if ours.load(str(resource_path("translations", f"workbench_{language}.qm"))):
        app.installTranslator(ours)
        installed.append(ours)
    qt_dir = QLibraryInfo.path(QLibraryInfo.LibraryPath.TranslationsPath)
    for base in ("qtbase",):
        qt = QTranslator(app)
        if qt.load(f"{base}_{language}", qt_dir):
            app.installTranslator(qt)
            installed.append(qt)
    QLocale.setDefault(QLocale(language))
    return installed
