"""Options -> the exact msprof command line, per CANN version (expected lines written by hand
from docs/cann-formats.md §1.1), and every generated line accepted by msprof's option parser."""

from __future__ import annotations

import shlex

import pytest

from workbench.core.profiler.command import command_text, export_commands, modern_layout, msprof_command
from workbench.core.profiler.options import ProfilingJob

DEFAULT = ProfilingJob(executable="/w/main.py", executable_type="python", args=["a", "b"])
EVERYTHING = ProfilingJob(
    executable="/w/main",
    args=["--n", "2"],
    aic_mode="sample-based",
    aic_freq=50,
    aic_metrics="Memory",
    task_time="l2",
    msproftx=True,
    ascendcl=False,
    runtime_api=True,
    os_runtime_api=True,
    graph_engine=True,
    aicpu=True,
    sys_hardware_mem=True,
    sys_hardware_mem_freq=20,
    host_sys=["network", "cpu", "disk", "mem"],
    hccl=True,
)
QUIET = ProfilingJob(executable="/w/run me.sh", executable_type="shell", args=["a b"], ai_core=False, task_time="off")


@pytest.mark.parametrize(
    "job, version, expected",
    [
        (
            DEFAULT,
            "8.0.RC1",
            "msprof --output=/out --ascendcl=on --runtime-api=off --task-time=l1 --ai-core=on --aic-mode=task-based "
            "--aic-metrics=PipeUtilization --aicpu=off python3 /w/main.py a b",
        ),
        (
            DEFAULT,
            "6.0.1",
            "msprof --output=/out --ascendcl=on --runtime-api=off --task-time=on --ai-core=on --aic-mode=task-based "
            "--aic-metrics=PipeUtilization --aicpu=off '--application=python3 /w/main.py a b'",
        ),
        (
            EVERYTHING,
            "8.0.RC1",
            "msprof --output=/out --ascendcl=off --runtime-api=on --task-time=l2 --ai-core=on --aic-mode=sample-based "
            "--aic-freq=50 --aic-metrics=Memory --aicpu=on --msproftx=on --sys-hardware-mem=on "
            "--sys-hardware-mem-freq=20 "
            "--host-sys=cpu,mem,disk,network,osrt /w/main --n 2",
        ),
        (
            EVERYTHING,
            "7.0.0",
            "msprof --output=/out --ascendcl=off --runtime-api=on --task-time=on --model-execution=on --hccl=on "
            "--ai-core=on --aic-mode=sample-based --aic-freq=50 --aic-metrics=Memory --aicpu=on --msproftx=on "
            "--sys-hardware-mem=on --sys-hardware-mem-freq=20 --host-sys=cpu,mem,disk,network,osrt /w/main --n 2",
        ),
        (
            EVERYTHING,
            "5.1.RC2",
            "msprof --output=/out --ascendcl=off --runtime-api=on --task-time=on --model-execution=on --hccl=on "
            "--ai-core=on --aic-mode=sample-based --aic-freq=50 --aic-metrics=Memory --aicpu=on --msproftx=on "
            "--sys-hardware-mem=on --sys-hardware-mem-freq=20 --host-sys=cpu,mem,disk,network,osrt "
            "'--application=/w/main --n 2'",
        ),
        (
            QUIET,
            "8.0.RC1",
            "msprof --output=/out --ascendcl=on --runtime-api=off --task-time=off --ai-core=off --aicpu=off "
            "bash '/w/run me.sh' 'a b'",
        ),
        (
            QUIET,
            "5.1.RC2",
            "msprof --output=/out --ascendcl=on --runtime-api=off --task-time=off --ai-core=off --aicpu=off "
            "'--application=bash '\"'\"'/w/run me.sh'\"'\"' '\"'\"'a b'\"'\"''",
        ),
        (
            DEFAULT,
            None,  # unknown version: the newest form
            "msprof --output=/out --ascendcl=on --runtime-api=off --task-time=l1 --ai-core=on --aic-mode=task-based "
            "--aic-metrics=PipeUtilization --aicpu=off python3 /w/main.py a b",
        ),
    ],
)
def test_options_map_to_exact_flags(job, version, expected):
    argv = msprof_command(job, version, output="/out")
    assert command_text(argv) == expected
    assert shlex.split(expected) == argv


def test_old_application_string_splits_back_into_the_app_argv():
    argv = msprof_command(QUIET, "5.1.RC2", output="/out")
    app = argv[-1].partition("=")[2]
    assert shlex.split(app) == ["bash", "/w/run me.sh", "a b"]


@pytest.mark.parametrize("version", ["8.0.RC1", "7.0.0", "6.0.1", "5.1.RC2"])
@pytest.mark.parametrize("job", [DEFAULT, EVERYTHING, QUIET])
def test_simulated_msprof_accepts_every_generated_command(job, version):
    from workbench.simtoolkit.msprof import parse_options, split_argv

    argv = msprof_command(job, version, output="/out")
    opts, app = split_argv(argv[1:])
    params = parse_options(opts)  # raises on an unknown option or a bad value
    if modern_layout(version):
        assert app == job.app_argv()
    else:
        assert shlex.split(params["application"]) == job.app_argv() and app == []


def test_export_step_per_version():
    assert export_commands("/p/PROF_1", "8.0.RC1") == [["msprof", "--export=on", "--output=/p/PROF_1"]]
    assert export_commands("/p/PROF_1", "6.0.1", msprof_py="/t/msprof.py") == [
        ["python3", "/t/msprof.py", "export", "summary", "-dir", "/p/PROF_1"],
        ["python3", "/t/msprof.py", "export", "timeline", "-dir", "/p/PROF_1"],
    ]
    assert export_commands("/p/PROF_1", "6.0.1") == [["msprof", "--export=on", "--output=/p/PROF_1"]]
