"""Project Explorer dock: the project's folder tree with Ascend artefacts recognised (core.artefacts)."""
