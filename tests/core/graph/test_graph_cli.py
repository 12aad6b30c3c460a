"""``ascend-workbench model graph MODEL [--layout-json OUT] [--svg OUT] [--png OUT] [--force]``: counts,
files, one line and exit 2 for a bad file; an .om read with atc --mode=1 on the demo host."""

from __future__ import annotations

import json

import pytest

from workbench.cli import main


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_counts_and_files(capsys, tmp_path, synth300):
    lj, svg = tmp_path / "l.json", tmp_path / "g.svg"
    code, out, err = run(capsys, "model", "graph", str(synth300), "--layout-json", str(lj), "--svg", str(svg))
    assert code == 0, err
    lines = out.splitlines()
    assert lines[0] == "graph: synth_300 (onnx)"
    assert lines[1].startswith("nodes: 302  edges: ") and "groups: " in lines[1]
    assert lines[2].startswith("layout: ") and " layers, " in lines[2]
    assert lines[3:] == [f"wrote: {lj}", f"wrote: {svg}"]
    assert json.loads(lj.read_text())["nodes"] and svg.read_text().startswith("<?xml")
    # an existing output: refused without --force, before any work; replaced with it
    code, out, err = run(capsys, "model", "graph", str(synth300), "--svg", str(svg))
    assert code == 2 and out == "" and err.strip() == f"ascend-workbench: {svg}: exists; pass --force to replace it"
    code, _, err = run(capsys, "model", "graph", str(synth300), "--svg", str(svg), "--force", "--json")
    assert code == 0, err


def test_json_output_of_an_om_json_sample(capsys, samples):
    code, out, err = run(capsys, "model", "graph", str(samples / "atc-om2json-310-cann5.1/model.json"), "--json")
    assert code == 0, err
    data = json.loads(out)
    assert data["format"] == "om" and data["nodes"] == 19 and data["edges"] == 21
    assert data["layout"]["width"] > 0 and data["layout"]["layers"] > 1 and data["written"] == []


@pytest.mark.parametrize(
    "name,data",
    [("bad.onnx", b"nope"), ("x.json", b'{"graph": []}'), ("net.prototxt", b"layer {"), ("g.pb", b"\xff\xff")],
)
def test_a_bad_file_exits_2_with_one_line(capsys, tmp_path, name, data):
    p = tmp_path / name
    p.write_bytes(data)
    code, out, err = run(capsys, "model", "graph", str(p))
    assert code == 2 and out == ""
    assert len(err.strip().splitlines()) == 1 and str(p) in err and "Traceback" not in err


def test_an_output_over_the_model_is_refused(capsys, synth300):
    code, _, err = run(capsys, "model", "graph", str(synth300), "--svg", str(synth300), "--force")
    assert code == 2 and "is an input of this command" in err
    assert synth300.read_bytes()[:2] != b"<?"


def test_png_through_the_registered_renderer(capsys, tmp_path, synth300, monkeypatch):
    from workbench import wiring

    # the composition root registers the GUI's renderer at every start: here first a build without one
    monkeypatch.setattr(wiring, "png_renderer", lambda: None)
    png = tmp_path / "g.png"
    code, out, err = run(capsys, "model", "graph", str(synth300), "--png", str(png))
    assert code == 2 and "--png" in err and "not available" in err and len(err.strip().splitlines()) == 1
    calls = []

    def render(graph, layout, path):
        calls.append((graph.name, len(layout.items), str(path)))
        png.write_bytes(b"\x89PNG")

    monkeypatch.setattr(wiring, "png_renderer", lambda: render)
    code, out, err = run(capsys, "model", "graph", str(synth300), "--png", str(png))
    assert code == 0, err
    assert calls == [("synth_300", 302, str(png))] and f"wrote: {png}" in out


def test_an_om_is_read_with_atc_on_the_demo_host(capsys, tmp_path):
    from atc_models import SIM_SOC, small_cnn

    model = small_cnn(tmp_path / "cnn.onnx")
    code, out, err = run(
        capsys,
        *("convert", "--host", "demo", "--model", str(model), "--soc-version", SIM_SOC),
        *("--input-shape", "images:1,3,32,32", "--out", str(tmp_path / "out"), "--json"),
    )
    assert code == 0, err
    om = json.loads(out)["om_path"]
    code, out, err = run(capsys, "model", "graph", om, "--host", "demo", "--json")
    assert code == 0, err
    assert "atc --mode=1 on demo" in err
    data = json.loads(out)
    assert data["format"] == "om" and data["source"] == om and data["nodes"] > 5 and data["edges"] >= data["nodes"] - 2
