"""The simulated torch + torch_npu runtime (workbench.simtoolkit.torchsim): what ``import torch`` gives a
script after sourcing the simulated toolkit's set_env.sh, the kernels its ops launch, msprof profiling
the script's own ops (not a canned workload), and torch_npu.profiler's ``*_ascend_pt`` output.

Every script runs in its own interpreter (the installed packages replace ``torch`` in sys.modules)."""

from __future__ import annotations

import csv
import json
import shlex
import shutil
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest
from _toolkit_shell import in_toolkit_shell

SAMPLES = Path(__file__).resolve().parents[3] / "resources" / "samples"
BANNER = "[simulated] torch/torch_npu runtime of the Ascend Workbench simulated toolkit"
PY = shlex.quote(sys.executable)
RUN_ARGS = "train.py --epochs 1 --batch-size 8 --dummy 16"  # 2 steps of the sample's ResNet-18

STEP = """\
import torch
import torch_npu
import torch.nn as nn

torch.manual_seed(0)
torch.npu.set_device(0)
model = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1, bias=False), nn.BatchNorm2d(8), nn.ReLU(),
                      nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(8, 4)).npu()
opt = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
x, y = torch.randn(2, 3, 8, 8).npu(), torch.randint(0, 4, (2,)).npu()
loss = nn.CrossEntropyLoss()(model(x), y)
opt.zero_grad()
loss.backward()
opt.step()
print("loss", round(loss.item(), 4), torch.__version__, torch_npu.__version__)
"""


def _bash(prefix: Path, script: str, cwd: Path, **extra: str) -> subprocess.CompletedProcess:
    return in_toolkit_shell(prefix, script, cwd, timeout=300, **extra)


def _kernels(log: Path) -> list[dict]:
    events = [json.loads(line) for line in log.read_text().splitlines()]
    return [e for e in events if e["event"] == "torch_kernel"]


@pytest.fixture(scope="module")
def migrated(sim_prefixes, tmp_path_factory) -> Path:
    """The GPU sample after the simulated PyTorch GPU2Ascend (what the migration journey deploys)."""
    root = tmp_path_factory.mktemp("migrated")
    shutil.copytree(SAMPLES / "gpu_pytorch_trainer", root / "gpu_pytorch_trainer")
    (root / "out").mkdir()
    tool = f"{sim_prefixes['8.0.RC1']}/ascend-toolkit/latest/tools/ms_fmk_transplt/pytorch_gpu2npu.sh"
    r = _bash(sim_prefixes["8.0.RC1"], f"{tool} -i gpu_pytorch_trainer -o out -v 2.1.0", root)
    assert r.returncode == 0, r.stderr
    out = root / "out" / "gpu_pytorch_trainer_msft"
    assert "import torch_npu" in (out / "train.py").read_text()
    return out


def test_import_is_labelled_simulated_and_prints_nothing_on_stdout(sim_prefixes, tmp_path):
    r = _bash(sim_prefixes["8.0.RC1"], f"{PY} -c 'import torch, torch_npu, torch.nn.functional as F'", tmp_path)
    assert r.returncode == 0, r.stderr
    assert r.stdout == ""
    assert r.stderr.splitlines() == [BANNER], "one banner line on stderr, like the other simulated tools"
    r = _bash(
        sim_prefixes["8.0.RC1"],
        f"{PY} -c 'import torch, torch_npu; print(torch.__version__, torch_npu.__version__, torch.npu.is_available(),"
        f' torch.npu.device_count(), torch.device("npu:1"), torch_npu.__doc__.split(chr(10))[0])\'',
        tmp_path,
    )
    assert r.stdout.split(" ", 5) == [
        "2.1.0+simulated",
        "2.1.0.post3+simulated",
        "True",
        "2",
        "npu:1",
        "Simulated torch_npu (Ascend Workbench's simulated toolkit): NOT Huawei's torch_npu.\n",
    ]


def test_a_training_step_records_its_forward_backward_and_optimizer_kernels(sim_prefixes, tmp_path):
    (tmp_path / "step.py").write_text(STEP)
    log = tmp_path / "runtime.jsonl"
    r = _bash(sim_prefixes["8.0.RC1"], f"{PY} step.py", tmp_path, ASCEND_SIM_RUNTIME_LOG=str(log))
    assert r.returncode == 0, r.stderr
    assert r.stdout.startswith("loss ") and r.stdout.split()[2:] == ["2.1.0+simulated", "2.1.0.post3+simulated"]
    kernels = _kernels(log)
    types = [k["type"] for k in kernels]
    forward = ["Conv2D", "BNTrainingReduce", "BNTrainingUpdate", "Relu", "AdaptiveAvgPool2d", "MatMulV2"]
    assert types[: len(forward)] == forward
    assert types[len(forward) : len(forward) + 4] == ["LogSoftmaxV2", "NLLLoss", "NLLLossGrad", "LogSoftmaxGrad"]
    # backward, last op first: the linear's grads, the pool's, ReluGrad, the batch norm's, the filter's
    back = types[len(forward) + 4 :]
    assert back.index("ReluGrad") < back.index("BNTrainingUpdateGrad") < back.index("Conv2DBackpropFilter")
    assert "Conv2DBackpropInput" not in types, "the input image needs no gradient"
    assert types.count("ApplyMomentum") == 5, "one update per parameter (conv, bn weight and bias, linear's two)"
    conv = kernels[0]
    assert (
        conv["core"] == "AI_CORE" and conv["acl_api"] == "aclnnConvolution" and conv["torch_op"] == "aten::convolution"
    )
    assert [t["shape"] for t in conv["inputs"]] == [[2, 3, 8, 8], [8, 3, 3, 3]]
    assert conv["outputs"] == [{"shape": [2, 8, 8, 8], "dtype": "FLOAT", "format": "NCHW"}]
    assert {k["core"] for k in kernels if k["type"] == "Relu"} == {"AI_VECTOR_CORE"}


def test_without_torch_npu_there_is_no_npu_and_no_cuda(sim_prefixes, tmp_path):
    """The unmigrated GPU trainer on the simulated CANN machine stops where it would on a machine without
    CUDA; no kernel is reported."""
    gpu = shutil.copytree(SAMPLES / "gpu_pytorch_trainer", tmp_path / "gpu")
    log = tmp_path / "runtime.jsonl"
    r = _bash(sim_prefixes["8.0.RC1"], f"{PY} {RUN_ARGS}", gpu, ASCEND_SIM_RUNTIME_LOG=str(log))
    assert r.returncode == 1
    assert "torch.cuda.set_device(local_rank)" in r.stderr
    assert r.stderr.rstrip().endswith("AssertionError: Torch not compiled with CUDA enabled"), r.stderr
    assert not log.exists() or not _kernels(log)
    r = _bash(sim_prefixes["8.0.RC1"], f"{PY} -c 'import torch; torch.device(\"npu:0\")'", tmp_path)
    assert "RuntimeError: Expected one of cpu, cuda, meta device type at start of device string: npu:0" in r.stderr


def test_the_migrated_sample_trains_and_reports_its_accuracy_ops_on_ai_cpu(sim_prefixes, migrated, tmp_path):
    log = tmp_path / "runtime.jsonl"
    r = _bash(sim_prefixes["8.0.RC1"], f"{PY} {RUN_ARGS}", migrated, ASCEND_SIM_RUNTIME_LOG=str(log))
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()
    assert lines[0].startswith("epoch 0 step 0 loss ") and lines[-1].startswith(
        "epoch 0 done: 16 images, train accuracy "
    )
    assert (migrated / "resnet18_cifar10.pth").is_file(), "torch.save wrote the checkpoint"
    kernels = _kernels(log)
    aicpu = Counter(k["type"] for k in kernels if k["core"] == "AI_CPU")
    assert aicpu == {"Equal": 2, "Cast": 2, "ReduceSum": 2}, "the accuracy's int64 compare and sum, every step"
    equal = next(k for k in kernels if k["type"] == "Equal")
    assert [t["dtype"] for t in equal["inputs"]] == ["INT64", "INT64"] and equal["inputs"][0]["shape"] == [8]
    counts = Counter(k["type"] for k in kernels)
    assert counts["Conv2D"] == 2 * 20 and counts["ApplyMomentum"] == 2 * 62, "ResNet-18: 20 convolutions, 62 params"
    casts = [k for k in kernels if k["type"] == "Cast" and k["core"] != "AI_CPU"]
    assert casts and {k["outputs"][0]["dtype"] for k in casts} == {"FLOAT16", "FLOAT"}, "autocast's casts"


def test_msprof_profiles_the_scripts_own_ops_and_the_advisor_names_its_int64_op(sim_prefixes, migrated, tmp_path):
    from workbench.core.advisor.run import advise
    from workbench.core.profiling.build import open_report

    r = _bash(sim_prefixes["8.0.RC1"], f"msprof --output={tmp_path / 'prof'} {PY} {RUN_ARGS}", migrated)
    assert r.returncode == 0, r.stderr
    assert "epoch 0 done: 16 images" in r.stdout, "the script's own output"
    assert (
        f"[simulated CANN toolkit] profiling the ops {migrated / 'train.py'} ran on the simulated torch_npu" in r.stderr
    )
    assert "canned" not in r.stderr
    (prof,) = (tmp_path / "prof").glob("PROF_*")
    (summary,) = prof.glob("mindstudio_profiler_output/op_summary_*.csv")
    with summary.open(newline="") as f:
        rows = list(csv.DictReader(f))
    types = Counter(row["OP Type"] for row in rows)
    assert types["Conv2D"] == 40 and types["ApplyMomentum"] == 124 and types["BNTrainingUpdateGrad"] == 40
    assert not {"MatMulV3", "FlashAttentionScore"} & set(types), "no canned transformer op"
    equal = [row for row in rows if row["OP Type"] == "Equal"]
    assert [(row["Task Type"], row["Input Data Types"], row["Input Shapes"]) for row in equal] == [
        ("AI_CPU", "INT64;INT64", '"8;8"')
    ] * 2
    findings = advise(open_report(prof)).sorted()
    titles = [f.title() for f in findings if f.rule == "compute.aicpu_dtype"]
    assert any(t.startswith("Equal runs on AI CPU with INT64 data (2 tasks") for t in titles), titles


def test_msprof_over_a_script_that_launches_no_kernel_writes_no_prof(sim_prefixes, tmp_path):
    (tmp_path / "idle.py").write_text("import torch\nimport torch_npu\nprint('no work')\n")
    r = _bash(sim_prefixes["8.0.RC1"], f"msprof --output=prof {PY} idle.py", tmp_path)
    assert r.returncode == 0, r.stderr
    assert "launched no kernel on the NPU: no device data, no PROF_* folder written" in r.stderr
    assert not list((tmp_path / "prof").glob("PROF_*"))


def test_torch_npu_profiler_writes_the_ascend_pt_layout_of_the_recorded_steps(sim_prefixes, tmp_path):
    from workbench.core.profiling.build import open_report

    script = STEP.replace(
        "loss = nn.CrossEntropyLoss()(model(x), y)\nopt.zero_grad()\nloss.backward()\nopt.step()\n",
        """\
prof = torch_npu.profiler.profile(
    activities=[torch_npu.profiler.ProfilerActivity.CPU, torch_npu.profiler.ProfilerActivity.NPU],
    schedule=torch_npu.profiler.schedule(wait=1, warmup=0, active=2, repeat=1),
    on_trace_ready=torch_npu.profiler.tensorboard_trace_handler("./tb"),
    experimental_config=torch_npu.profiler._ExperimentalConfig(profiler_level=torch_npu.profiler.ProfilerLevel.Level1),
)
with prof:
    for _ in range(4):
        loss = nn.CrossEntropyLoss()(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        prof.step()
""",
    )
    (tmp_path / "prof.py").write_text(script)
    r = _bash(sim_prefixes["8.0.RC1"], f"{PY} prof.py", tmp_path)
    assert r.returncode == 0, r.stderr
    (folder,) = (tmp_path / "tb").iterdir()
    assert folder.name.endswith("_ascend_pt") and f"_{folder.name.split('_')[-3]}_" in folder.name
    out = folder / "ASCEND_PROFILER_OUTPUT"
    assert {"kernel_details.csv", "op_statistic.csv", "trace_view.json", "step_trace_time.csv"} <= {
        p.name for p in out.iterdir()
    }
    with (out / "kernel_details.csv").open(newline="") as f:
        rows = list(csv.DictReader(f))
    per_step = Counter(row["Step Id"] for row in rows)
    assert set(per_step) == {"1", "2"} and per_step["1"] == per_step["2"], "the two active steps, the same ops"
    assert {"Conv2D", "Conv2DBackpropFilter", "ReluGrad", "ApplyMomentum"} <= {row["Type"] for row in rows}
    info = json.loads((folder / "profiler_info.json").read_text())
    assert info["simulated"] is True
    report = open_report(folder)
    assert "Conv2D" in set(report.ops["type"].astype(str))
