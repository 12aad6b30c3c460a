"""``python3 …/npu_device/convert_tf2npu/main.py``: the simulated TF 2.6 migration tool."""

from workbench.simtoolkit.migration.tf2npu import run

if __name__ == "__main__":
    run(2)
