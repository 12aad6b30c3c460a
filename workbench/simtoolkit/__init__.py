"""The simulated CANN toolkit (atc, msprof, npu-smi, msaccucmp, the pyACL runtime) and its realistic data generator.

No Ascend hardware exists here: these programs follow the real tools command lines, messages, exit
codes and output files, and everything they print says they are simulated."""
