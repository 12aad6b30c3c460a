"""Package listing and the optional C extension; all metadata lives in pyproject.toml.

The top-level ``resources/`` folder (icons, translations, the sample report) is shipped as the
package ``workbench.resources`` so that ``importlib.resources`` finds it in wheels, editable
installs and the PyInstaller bundle alike.
"""

from setuptools import Extension, find_packages, setup

setup(
    packages=find_packages(include=["workbench", "workbench.*"]) + ["workbench.resources"],
    package_dir={"workbench.resources": "resources"},
    # The timeline loader's compiled scanner (plain CPython C API). Optional: without a compiler
    # the install still succeeds and the loader uses its pure-Python path.
    ext_modules=[
        Extension(
            "workbench.core.profiling.timeline._fastscan",
            ["workbench/core/profiling/timeline/_fastscan.c"],
            optional=True,
        )
    ],
)
