"""The job model: validation names the field, storage round-trips, command parsing, chip groups."""

from __future__ import annotations

import pytest

from workbench.core.profiler import chips
from workbench.core.profiler.options import JobError, ProfilingJob


def test_defaults_are_msprofs():
    job = ProfilingJob(host="h", executable="./main").validate()
    assert (job.ascendcl, job.runtime_api, job.task_time, job.ai_core, job.aic_mode, job.aic_metrics, job.aic_freq) == (
        True,
        False,
        "l1",
        True,
        "task-based",
        "PipeUtilization",
        100,
    )
    assert not any(
        [job.aicpu, job.msproftx, job.os_runtime_api, job.graph_engine, job.sys_hardware_mem, job.hccl, job.host_sys]
    )
    assert job.run_mode == "Remote" and job.deploy


@pytest.mark.parametrize(
    "changes, field",
    [
        ({"host": ""}, "host"),
        ({"executable": " "}, "executable"),
        ({"aic_metrics": "Bogus"}, "aic_metrics"),
        ({"aic_freq": 0}, "aic_freq"),
        ({"sys_hardware_mem_freq": 101}, "sys_hardware_mem_freq"),
        ({"task_time": "l3"}, "task_time"),
        ({"host_sys": ["cpu", "gpu"]}, "host_sys"),
        ({"devices": [-1]}, "devices"),
        ({"env": {"1BAD": "x"}}, "env"),
        ({"run_mode": "Cloud"}, "run_mode"),
        ({"name": "a/b"}, "name"),
    ],
)
def test_validation_names_the_field(changes, field):
    job = ProfilingJob(**{"host": "h", "executable": "./main", **changes})
    with pytest.raises(JobError) as info:
        job.validate()
    assert info.value.field == field and repr(field) in str(info.value)


def test_round_trip_and_unknown_keys_from_a_newer_version():
    job = ProfilingJob(
        host="h",
        executable="m.py",
        executable_type="python",
        args=["1"],
        env={"A": "b"},
        devices=[0, 3],
        host_sys=["cpu", "disk"],
        aic_metrics="MemoryUB",
    )
    raw = job.to_dict()
    assert ProfilingJob.from_dict(raw) == job
    assert ProfilingJob.from_dict({**raw, "future_option": 1}) == job
    with pytest.raises(JobError, match="history: profiling job field 'aic_mode'"):
        ProfilingJob.from_dict({**raw, "aic_mode": "x"}, "history")


@pytest.mark.parametrize(
    "command, kind, exe, args, argv",
    [
        (
            "python3 /opt/app/main.py --n 2",
            "python",
            "/opt/app/main.py",
            ["--n", "2"],
            ["python3", "/opt/app/main.py", "--n", "2"],
        ),
        ("./run.sh a", "shell", "./run.sh", ["a"], ["bash", "./run.sh", "a"]),
        ("bash 'my run.sh'", "shell", "my run.sh", [], ["bash", "my run.sh"]),
        ("./out/main -i x.bin", "binary", "./out/main", ["-i", "x.bin"], ["./out/main", "-i", "x.bin"]),
        ("python3 -u x.py", "binary", "python3", ["-u", "x.py"], ["python3", "-u", "x.py"]),
    ],
)
def test_from_command(command, kind, exe, args, argv):
    job = ProfilingJob.from_command(command, host="h")
    assert (job.executable_type, job.executable, job.args, job.app_argv()) == (kind, exe, args, argv)


def test_from_command_rejects_bad_quoting():
    with pytest.raises(JobError, match="No closing quotation"):
        ProfilingJob.from_command("python3 'x.py")


@pytest.mark.parametrize(
    "soc, has, lacks",
    [
        ("Ascend910B2", {"L2Cache", "MemoryAccess"}, {"PipelineExecuteUtilization"}),
        ("Ascend910_9391", {"L2Cache", "MemoryAccess"}, {"PipelineExecuteUtilization"}),
        ("Ascend310B1", {"L2Cache", "PipelineExecuteUtilization"}, {"MemoryAccess"}),
        ("Ascend910B", set(), {"L2Cache", "MemoryAccess", "PipelineExecuteUtilization"}),  # 910 ProB: classic
        ("Ascend910A", set(), {"L2Cache", "MemoryAccess"}),
        ("Ascend310P3", set(), {"L2Cache", "MemoryAccess"}),
        (None, set(), {"L2Cache", "MemoryAccess"}),
    ],
)
def test_metric_groups_follow_the_chip(soc, has, lacks):
    groups = chips.metric_groups(soc)
    assert set(chips.COMMON_GROUPS) <= set(groups) and has <= set(groups) and not lacks & set(groups)


def test_groups_agree_with_the_simulated_generator():
    """Every group offered for a simulated chip produces PMU columns; the others are refused."""
    from workbench.simtoolkit.profdata.chips import AIC_METRICS, CHIPS, pmu_columns

    for soc, chip in CHIPS.items():
        offered = set(chips.metric_groups(soc))
        assert chips.split_pmu(soc) == chip.split_pmu
        for group in AIC_METRICS:
            if group in offered:
                assert pmu_columns(chip, group)
            else:
                with pytest.raises(ValueError):
                    pmu_columns(chip, group)
