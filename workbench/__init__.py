"""Ascend Workbench: a desktop workbench for Huawei Ascend NPU developers."""

__version__ = "0.1.0"
