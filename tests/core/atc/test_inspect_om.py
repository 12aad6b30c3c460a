"""``ascend-workbench model inspect`` on an offline model: an .om made by the simulated atc is read
with ``atc --mode=1`` on a host (the demo host, or the project's CANN machine through the real
sshd) and gives the same inputs, outputs and op count as its om JSON; an om JSON is known by its
content whatever it is called (the real om2json sample)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from atc_models import SIM_SOC

from workbench.cli import main
from workbench.core.project import create_project

SAMPLE = "atc-om2json-310-cann5.1"


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def converted(capsys, model: Path, out: Path) -> Path:
    """An .om made by the simulated atc on the demo host."""
    code, stdout, err = run(
        capsys,
        *("convert", "--host", "demo", "--model", str(model), "--soc-version", SIM_SOC),
        *("--input-shape", "images:1,3,32,32", "--out", str(out), "--json"),
    )
    assert code == 0, err
    return Path(json.loads(stdout)["om_path"])


def test_inspect_an_om_gives_what_its_om_json_gives(capsys, tmp_path, cnn):
    om = converted(capsys, cnn, tmp_path / "out")
    code, text, err = run(capsys, "model", "inspect", str(om))
    assert code == 0, err
    assert text.splitlines() == [
        "inputs:",
        "  images  float32  [1,3,32,32]",
        "outputs:",
        "  logits  float32  [1,10]",
        f"ops: {text.splitlines()[-1].split()[-1]}",
    ]
    assert "atc --mode=1 on demo" in err  # no project: the demo host
    code, as_json, err = run(capsys, "model", "inspect", str(om), "--host", "demo", "--json")
    assert code == 0, err
    data = json.loads(as_json)
    assert data["file"] == str(om) and data["framework"] == 5
    assert data["op_types"]["Data"] == 1 and data["op_types"]["NetOutput"] == 1 and data["op_types"]["Conv2D"] == 2

    # the om JSON atc --mode=1 writes, kept under a name that says nothing: the same answer
    kept = tmp_path / "exported.json"
    assert run(capsys, "model", "structure", str(om), "--host", "demo", "--save-json", str(kept))[0] == 0
    code, again, err = run(capsys, "model", "inspect", str(kept))
    assert code == 0, err
    assert again == text
    assert {**json.loads(run(capsys, "model", "inspect", str(kept), "--json")[1]), "file": str(om)} == data


def test_inspect_the_real_om_json_sample(capsys, tmp_path, samples):
    copy = tmp_path / "sub_model_graph.json"
    shutil.copyfile(samples / SAMPLE / "model.json", copy)
    code, text, err = run(capsys, "model", "inspect", str(copy))
    assert code == 0, err
    assert text.splitlines() == [
        "inputs:",
        "  boxes_all  float32  [1000,80,4]",
        "  scores_all  float32  [1000,80]",
        "outputs:",
        "  output0  float32  [100,4]",
        "  output2  float32  [100]",
        "  output1  int64  [100,1]",
        "ops: 19",
    ]


def test_a_json_that_is_no_om_json_is_refused_in_one_line(capsys, tmp_path):
    other = tmp_path / "settings.json"
    other.write_text('{"theme": "dark"}')
    code, out, err = run(capsys, "model", "inspect", str(other))
    assert code == 2 and out == ""
    assert err.strip() == (
        f"ascend-workbench: {other}: not an om JSON (atc --mode=1 output: an object with 'graph' and its 'op' list)"
    )
    missing = tmp_path / "gone.om"
    code, _out, err = run(capsys, "model", "inspect", str(missing), "--host", "demo")
    assert code == 2 and err.strip().endswith(f"{missing}: no such .om file")


@pytest.fixture
def lb_host(ssh_home, sshd_server, sim_prefix):
    """A configured CANN machine ``lb``: the real sshd with the simulated toolkit."""
    from workbench.core.services.hosts import HostStore

    HostStore().add(sshd_server.host("lb", toolkit=str(sim_prefix)))
    return ssh_home


def test_an_om_in_a_project_is_read_on_the_projects_host(capsys, tmp_path, cnn, lb_host, sshd_server):
    project = create_project(tmp_path / "proj")
    project.remote.host = "lb"
    project.save()
    om = converted(capsys, cnn, project.root / "models")
    code, text, err = run(capsys, "model", "inspect", str(om))
    assert code == 0, err
    user, port = sshd_server.user, sshd_server.port
    assert f"[Running atc --mode=1 on lb ({user}@127.0.0.1:{port})]" in err, "read over SSH on the project's host"
    assert "  images  float32  [1,3,32,32]" in text.splitlines()
    # the structure takes the same host when none is given
    code, ops, err = run(capsys, "model", "structure", str(om), "--search", "relu")
    assert code == 0 and "atc --mode=1 on lb" in err
    assert [line.split("\t")[0] for line in ops.splitlines()] == ["relu1", "relu2"]
