"""Thin PySide6 layer: widgets build, bind to core models and forward user actions.

One folder per panel, document, dialog family or wizard; ``bridge.py`` is the only place core tasks
become Qt signals; ``context.py`` is what dialogs get from the application. May use ``workbench.core``
(never the reverse) and Qt; logic belongs in core.
"""
