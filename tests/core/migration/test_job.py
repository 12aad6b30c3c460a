"""MigrationJob: the exact command line per tool and the refusals the tools make themselves."""

from __future__ import annotations

import pytest

from workbench.core.migration.job import JobError, MigrationJob, check_job, check_local_input, command, command_line

ROOT = "/usr/local/Ascend/ascend-toolkit/latest"


def test_tf1_command_line_is_convert_tf2npu_of_npu_bridge():
    job = MigrationJob("tf1", "/w/in/proj", "/w/out", report="/w/rep", main="/w/in/proj/train.py")
    check_job(job)
    assert command(job, ROOT) == [
        "python3",
        "/usr/local/Ascend/tfplugin/latest/python/site-packages/npu_bridge/convert_tf2npu/main.py",
        "-i", "/w/in/proj", "-o", "/w/out", "-r", "/w/rep", "-m", "/w/in/proj/train.py",
    ]  # fmt: skip


def test_tf2_uses_npu_device_and_report_defaults_to_output():
    job = MigrationJob("tf2", "/w/in/proj", "/w/out")
    assert command_line(job, ROOT) == (
        "python3 /usr/local/Ascend/tfplugin/latest/python/site-packages/npu_device/convert_tf2npu/main.py "
        "-i /w/in/proj -o /w/out -r /w/out"
    )


def test_pytorch_command_puts_distributed_last():
    single = MigrationJob("pytorch", "/w/in/proj", "/w/out", pytorch_version="2.1.0")
    assert command(single, ROOT) == [f"{ROOT}/tools/ms_fmk_transplt/pytorch_gpu2npu.sh", "-i", "/w/in/proj",
                                     "-o", "/w/out", "-v", "2.1.0"]  # fmt: skip
    multi = MigrationJob("pytorch", "/w/in/proj", "/w/out", main="/w/in/proj/train.py", distributed=True,
                         target_model="net")  # fmt: skip
    check_job(multi)
    assert command(multi, ROOT)[7:] == ["distributed", "-m", "/w/in/proj/train.py", "-t", "net"]


def test_a_given_tool_path_wins():
    job = MigrationJob("tf1", "/w/in", "/w/out", tool_path="/opt/tfa/npu_bridge/convert_tf2npu/main.py")
    assert command(job, ROOT)[1] == "/opt/tfa/npu_bridge/convert_tf2npu/main.py"


@pytest.mark.parametrize(
    ("job", "words"),
    [
        (MigrationJob("tf1", "/w/in", "/w/in/out"), "--out /w/in/out: must not be inside the input folder /w/in"),
        (MigrationJob("tf1", "/w/in", "/w/in"), "must not be inside the input folder"),
        (MigrationJob("tf2", "/w/in", "/w/out", report="/w/in/rep"), "report folder /w/in/rep: must not be inside"),
        (
            MigrationJob("pytorch", "/w/in", "/w/out", pytorch_version="1.5.0"),
            "--pytorch-version 1.5.0: expected one of",
        ),
        (MigrationJob("pytorch", "/w/in", "/w/out", distributed=True), "--distributed: needs --main"),
        (
            MigrationJob("tf1", "/w/in", "/w/out", main="/w/other/train.py"),
            "--main /w/other/train.py: expected a file inside",
        ),
        (
            MigrationJob("tf1", "/w/in", "/w/out", main="/w/in/train.sh"),
            "--main /w/in/train.sh: expected a Python file",
        ),
        (MigrationJob("mxnet", "/w/in", "/w/out"), "--framework 'mxnet': expected one of tf1, tf2, pytorch"),
    ],
)
def test_refusals_name_the_field(job, words):
    with pytest.raises(JobError, match=None) as exc:
        check_job(job)
    assert words in str(exc.value)
    assert "\n" not in str(exc.value)


def test_a_sibling_folder_with_the_input_as_prefix_is_not_inside():
    check_job(MigrationJob("tf1", "/w/in", "/w/in_npu"))  # "/w/in_npu" starts with "/w/in" but is beside it


def test_local_input_checks(tmp_path):
    with pytest.raises(JobError, match="it is not a folder"):
        check_local_input(tmp_path / "missing")
    (tmp_path / "empty").mkdir()
    with pytest.raises(JobError, match=r"no Python \(\.py\) file"):
        check_local_input(tmp_path / "empty")
    (tmp_path / "p").mkdir()
    (tmp_path / "p" / "a.py").write_text("x = 1\n")
    assert check_local_input(tmp_path / "p", "a.py") == (tmp_path / "p").resolve()
    with pytest.raises(JobError, match="--main b.py: no such file"):
        check_local_input(tmp_path / "p", "b.py")
