"""``python -m workbench``: the same entry point as ``ascend-workbench``."""

import sys

from workbench.cli import main

if __name__ == "__main__":
    sys.exit(main())
