"""Qt-free core of Ascend Workbench: formats, models, services and tasks.

An import-linter contract (pyproject.toml) forbids this package to import PySide6, pyqtgraph or
``workbench.ui``; the test suite also imports it in an interpreter where PySide6 is blocked.
"""
