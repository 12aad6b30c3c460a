"""What the journeys share: the CANN machine's simulated toolkit, the tiny model and the app."""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np

CANN, SOC, DEVICES = "8.0.RC1", "Ascend310P3", 2
HOST = "atlas"  # the CANN machine's name in the app
MODEL = "tinynet"
# the real CANN samples (tests/conftest.py's rule: ../shared/samples beside the repo, or the env var)
SAMPLES = Path(os.environ.get("ASCEND_WORKBENCH_SHARED", Path(__file__).resolve().parents[4] / "shared")) / "samples"
ACL_SAMPLES = sorted(SAMPLES.rglob("acl*.json"))


# A pyACL inference app as the real samples are written (set_env.sh puts the toolkit's acl on PYTHONPATH):
# the runtime reads acl.json at acl.init and writes the model dump it asks for when the model executes.
APP = """\
import os
import sys

import acl

ACL_JSON = "./src/acl.json"
MODEL_PATH = "./{model}.om"
DEVICE_ID = 0


def check(ret, what):
    if ret != 0:
        print("inference app: %s failed, ret=%d" % (what, ret), file=sys.stderr, flush=True)
        sys.exit(1)


print("inference app: loading", MODEL_PATH, *sys.argv[1:], flush=True)
check(acl.init(ACL_JSON) if os.path.isfile(ACL_JSON) else acl.init(), "acl.init")
check(acl.rt.set_device(DEVICE_ID), "acl.rt.set_device")
model_id, ret = acl.mdl.load_from_file(MODEL_PATH)
check(ret, "acl.mdl.load_from_file")
inputs, outputs = acl.mdl.create_dataset(), acl.mdl.create_dataset()
check(acl.mdl.execute(model_id, inputs, outputs), "acl.mdl.execute")
check(acl.mdl.destroy_dataset(inputs), "acl.mdl.destroy_dataset")
check(acl.mdl.destroy_dataset(outputs), "acl.mdl.destroy_dataset")
check(acl.mdl.unload(model_id), "acl.mdl.unload")
check(acl.rt.reset_device(DEVICE_ID), "acl.rt.reset_device")
check(acl.finalize(), "acl.finalize")
print("inference app: done", flush=True)
"""


def tiny_conv_onnx(path: Path) -> Path:
    """A tiny conv net built with onnx.helper: images[1,3,16,16] → Conv → Relu → Conv → Relu → GAP."""
    import onnx
    from onnx import TensorProto, helper, numpy_helper

    rng = np.random.default_rng(3)
    inits = [
        numpy_helper.from_array(rng.standard_normal((4, 3, 3, 3)).astype(np.float32), "conv1.weight"),
        numpy_helper.from_array(rng.standard_normal(4).astype(np.float32), "conv1.bias"),
        numpy_helper.from_array(rng.standard_normal((8, 4, 3, 3)).astype(np.float32), "conv2.weight"),
    ]
    nodes = [
        helper.make_node("Conv", ["images", "conv1.weight", "conv1.bias"], ["c1"], name="conv1", pads=[1] * 4),
        helper.make_node("Relu", ["c1"], ["r1"], name="relu1"),
        helper.make_node("Conv", ["r1", "conv2.weight"], ["c2"], name="conv2", pads=[1] * 4),
        helper.make_node("Relu", ["c2"], ["r2"], name="relu2"),
        helper.make_node("GlobalAveragePool", ["r2"], ["features"], name="gap"),
    ]
    graph = helper.make_graph(
        nodes,
        MODEL,
        [helper.make_tensor_value_info("images", TensorProto.FLOAT, [1, 3, 16, 16])],
        [helper.make_tensor_value_info("features", TensorProto.FLOAT, [1, 8, 1, 1])],
        inits,
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])
    onnx.checker.check_model(model)
    onnx.save(model, str(path))
    return path


def om_model(om: Path):
    from workbench.core.dump.omjson import parse_om_json
    from workbench.simtoolkit.omfile import read_om

    return parse_om_json(read_om(om)["om_json"], str(om))
