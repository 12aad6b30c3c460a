"""GPU → Ascend migration (issue #22): the wizard (``wizard.py``), the Migration Report document
(``document.py``) and its side-by-side diff (``diff_view.py``); the core is ``workbench.core.migration``."""
