"""Entry script of the PyInstaller bundle: the same main() as `ascend-workbench`."""

import sys

from workbench.cli import main

if __name__ == "__main__":
    sys.exit(main())
