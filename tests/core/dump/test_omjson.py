"""The op tree of real atc --mode=1 JSON samples."""

from __future__ import annotations

import json

import pytest

from workbench.core.dump.omjson import OmJsonError, read_om_json


@pytest.mark.parametrize("rel", ["atc-om2json-310-cann5.1/model.json", "atc-om2json-large/test.om.json"])
def test_real_samples(samples, rel):
    raw = json.loads((samples / rel).read_text())
    model = read_om_json(samples / rel)
    assert model.name == raw["name"]
    expected = [(op["name"], op["type"]) for g in raw["graph"] for op in g["op"]]
    assert [(op.name, op.type) for op in model.ops] == expected
    assert [op.index for op in model.ops] == list(range(len(expected)))


def test_fusion_attributes_of_the_large_sample(samples):
    model = read_om_json(samples / "atc-om2json-large/test.om.json")
    assert model.name == "tdnn"
    op = model.op("trans_TransData_4")
    assert op is not None and op.output_descs[0].origin_name == "Conv_52"
    conv = next(o for o in model.ops if o.type == "Conv2D")
    raw = next(
        o
        for o in json.loads((samples / "atc-om2json-large/test.om.json").read_text())["graph"][0]["op"]
        if o["name"] == conv.name
    )["output_desc"][0]
    origin = next(a["value"]["list"]["i"] for a in raw["attr"] if a["key"] == "origin_shape")
    d = conv.output_descs[0]
    assert (d.layout, d.dtype, d.shape, d.origin_shape) == (
        raw["layout"],
        raw["dtype"],
        tuple(raw["shape"]["dim"]),
        tuple(origin),
    )
    assert d.layout == "NC1HWC0"
    assert not model.op("feats").dumped and conv.dumped
    assert model.op("trans_Cast_0").inputs == ["feats:0"]


def test_bad_files(tmp_path):
    p = tmp_path / "m.json"
    p.write_text('{"name": "x", "graph": 3}')
    with pytest.raises(OmJsonError, match="field 'graph': expected a list"):
        read_om_json(p)
    p.write_text('{"name": "x",\n "graph": [}')
    with pytest.raises(OmJsonError, match="line 2, column 12"):
        read_om_json(p)
