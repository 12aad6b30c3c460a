"""The ATC Model Converter wizard and the model structure document."""

from workbench.ui.converter.structure_view import ModelStructureView, open_model_structure
from workbench.ui.converter.wizard import ConverterWizard, open_model_converter

__all__ = ["ConverterWizard", "ModelStructureView", "open_model_converter", "open_model_structure"]
