"""Package data of Ascend Workbench: icons, translations and the sample report."""
