"""Package listing only; all metadata lives in pyproject.toml.

The top-level ``resources/`` folder (icons, translations, the sample report) is shipped as the
package ``workbench.resources`` so that ``importlib.resources`` finds it in wheels, editable
installs and the PyInstaller bundle alike.
"""
from setuptools import find_packages, setup

setup(
    packages=find_packages(include=["workbench", "workbench.*"]) + ["workbench.resources"],
    package_dir={"workbench.resources": "resources"},
)
