"""The wizard that ends in running a job (Model Converter, GPU → Ascend Migration): the classic style, no
Back on the first page, and the buttons Back, Next, Run (the subclass names it: "Convert", "Run"), Stop
and Close. Run calls :meth:`RunWizard.start_run`; Stop cancels the running task (``self.task``)."""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication
from PySide6.QtWidgets import QWidget, QWizard

from workbench.ui.bridge import QtTask

RUN, STOP = QWizard.WizardButton.CustomButton1, QWizard.WizardButton.CustomButton2


class RunWizard(QWizard):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.task: QtTask | None = None  # the running job's QtTask, None when none runs
        self.setWizardStyle(QWizard.WizardStyle.ClassicStyle)
        self.setOption(QWizard.WizardOption.NoBackButtonOnStartPage, True)
        self.setOption(QWizard.WizardOption.HaveCustomButton1, True)
        self.setOption(QWizard.WizardOption.HaveCustomButton2, True)
        self.setButtonText(STOP, QCoreApplication.translate("RunWizard", "Stop"))
        self.setButtonText(QWizard.WizardButton.CancelButton, QCoreApplication.translate("RunWizard", "Close"))
        self.setButtonLayout(
            [
                QWizard.WizardButton.Stretch,
                QWizard.WizardButton.BackButton,
                QWizard.WizardButton.NextButton,
                RUN,
                STOP,
                QWizard.WizardButton.CancelButton,
            ]
        )
        self.customButtonClicked.connect(self._custom_button)

    def start_run(self) -> None:
        """Run was clicked."""
        raise NotImplementedError

    def _custom_button(self, which: int) -> None:
        # customButtonClicked delivers an int; PySide6's WizardButton is a Python enum (never == an int)
        button = QWizard.WizardButton(which)
        if button == RUN:
            self.start_run()
        elif button == STOP and self.task is not None:
            self.task.cancel()
