"""``python3 …/npu_bridge/convert_tf2npu/main.py``: the simulated TF 1.15 migration tool."""

from workbench.simtoolkit.migration.tf2npu import run

if __name__ == "__main__":
    run(1)
