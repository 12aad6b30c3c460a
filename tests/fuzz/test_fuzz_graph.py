"""Property-based fuzz of the model graph loaders (issue #23): om JSON, ONNX, Caffe prototxt,
TensorFlow pbtxt and binary GraphDef. Each input loads and lays out, or raises GraphError naming
the file (the real om JSON samples go through the same reader in the mutation campaign)."""

from __future__ import annotations

import itertools
import json
import sys
from pathlib import Path

import hypothesis.strategies as st
from fuzzkit import feed, mutated, write
from hypothesis import example, given
from test_fuzz_configs import OM, _om_variants, json_docs

from workbench.core.graph.layout import layout_graph
from workbench.core.graph.load import GraphError, load_graph

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "core"))  # tests/core/graph (a package)

from graph.models import PBTXT, PROTOTXT, graphdef_bytes, onnx_function_and_if  # noqa: E402

_n = itertools.count()


def _scratch(tmp_path: Path) -> Path:
    d = tmp_path / f"g{next(_n)}"
    d.mkdir()
    return d


def read_graph(fmt: str, path: Path) -> None:
    """Load, then lay out what loaded (the layout must take whatever a loader gives)."""

    def call() -> None:
        layout_graph(load_graph(path))

    feed(fmt, path, call, (GraphError,))


def _seed_onnx() -> bytes:
    import tempfile

    with tempfile.TemporaryDirectory() as tmp:
        return onnx_function_and_if(Path(tmp) / "m.onnx").read_bytes()


ONNX_SEED = _seed_onnx()


@given(data=st.one_of(json_docs(OM), _om_variants().map(lambda v: json.dumps(v, allow_nan=True).encode())))
@example(data=json.dumps({**OM, "graph": [{"name": "g", "op": [{"name": "a", "input": ["a:0"]}]}]}).encode())
@example(data=json.dumps({**OM, "graph": [{"name": "g", "op": [{"name": "a", "attr": 3}]}]}).encode())
def test_om_json_graph(tmp_path: Path, data: bytes) -> None:
    read_graph("graph-om", write(_scratch(tmp_path) / "model.json", data))


@given(data=mutated(ONNX_SEED))
def test_onnx_graph(tmp_path: Path, data: bytes) -> None:
    read_graph("graph-onnx", write(_scratch(tmp_path) / "model.onnx", data))


@given(data=mutated(PROTOTXT.encode()))
@example(data=b'layer { name: "a" type: "ReLU" bottom: "a" top: "a" }')
@example(data=b'input_dim: x\ninput: "d"')
@example(data=b'layer { name { x: 1 } type: "ReLU" }')
def test_caffe_graph(tmp_path: Path, data: bytes) -> None:
    read_graph("graph-caffe", write(_scratch(tmp_path) / "net.prototxt", data))


@given(data=mutated(PBTXT.encode()))
@example(data=b'node { name: "a" op: "X" input: "a" input: "a:99" input: ":" }')
@example(data=b'node { name: "a" op: "X" attr { key: "s" value { shape { dim { size: q } } } } }')
@example(data=b'node { name: "a" op: "X" attr { key: { } } }')
def test_tf_text_graph(tmp_path: Path, data: bytes) -> None:
    read_graph("graph-pbtxt", write(_scratch(tmp_path) / "g.pbtxt", data))


@given(data=mutated(graphdef_bytes()))
def test_tf_binary_graph(tmp_path: Path, data: bytes) -> None:
    read_graph("graph-pb", write(_scratch(tmp_path) / "frozen.pb", data))


@given(data=st.binary(max_size=200))
def test_unknown_suffix_sniffing(tmp_path: Path, data: bytes) -> None:
    read_graph("graph-sniff", write(_scratch(tmp_path) / "model.bin", data))
