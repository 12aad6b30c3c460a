"""Property-based fuzz of the small formats: acl.json, AIPP config, om JSON, npu-smi text, ssh
config, known_hosts, project.json, settings and hosts.json. Each input is read, or raises the
area's own error naming the file (settings never raise: problems come back as messages)."""

from __future__ import annotations

import itertools
import json
from pathlib import Path

import hypothesis.strategies as st
import paramiko
import pytest
from fuzzkit import deep_json, encodings, feed, json_values, write
from hypothesis import example, given

from workbench.core import project, settings
from workbench.core.atc.aipp import AippError, check_aipp, read_aipp, write_aipp
from workbench.core.atc.modelinfo import ModelInfoError
from workbench.core.atc.structure import from_om_model, om_inputs
from workbench.core.dump.aclconfig import AclConfig, AclConfigError
from workbench.core.dump.omjson import OmJsonError, read_om_json
from workbench.core.services.hosts import HostError, HostStore
from workbench.core.services.knownhosts import HostKeyChecker, HostKeyError, lookup
from workbench.core.services.npusmi import NpuSmiParseError, parse_npu_smi_info
from workbench.core.services.sshconfig import import_ssh_config

_n = itertools.count()


def _scratch(tmp_path: Path) -> Path:
    d = tmp_path / f"x{next(_n)}"
    d.mkdir()
    return d


def json_docs(skeleton: dict | None = None) -> st.SearchStrategy[bytes]:
    """Any JSON value, a skeleton with its fields replaced by any values, or deep nesting; in any
    of the encodings the tools and editors write."""
    docs = [json_values(20)]
    if skeleton:
        docs.append(
            st.fixed_dictionaries({}, optional={k: st.one_of(st.just(v), json_values(8)) for k, v in skeleton.items()})
        )
    text = st.one_of(*docs).map(lambda v: json.dumps(v, ensure_ascii=False, allow_nan=True))
    return st.one_of(text.flatmap(encodings), st.builds(deep_json, st.integers(1, 50000)))


# ----- acl.json

ACL = {
    "dump": {
        "dump_list": [{"model_name": "m", "layer": ["a", "b"]}],
        "dump_path": "/tmp/d",
        "dump_mode": "output",
        "dump_op_switch": "on",
        "dump_data": "tensor",
        "dump_scene": "lite_exception",
        "dump_debug": "off",
    },
    "profiler": {"switch": "on", "output": "/tmp/p", "aic_metrics": "PipeUtilization"},
}


def read_acl(fmt: str, path: Path) -> None:
    def call() -> None:
        cfg = AclConfig.load(path)
        cfg.dump_enabled, cfg.profiler_enabled  # noqa: B018 - what the editor reads first
        cfg.dump_settings()
        cfg.unshown()
        cfg.validate()

    feed(fmt, path, call, (AclConfigError,))


@given(data=json_docs(ACL))
@example(data=json.dumps({"dump": {"dump_list": "x"}}).encode())
@example(data=deep_json(700))  # json.loads takes it; the nesting check recursed (RecursionError before)
@example(data=json.dumps({"dump": {"dump_list": [{"model_name": ["m"], "layer": "x"}]}}).encode())
def test_acl_json(tmp_path: Path, data: bytes) -> None:
    read_acl("acl.json", write(_scratch(tmp_path) / "acl.json", data))


# ----- AIPP config (protobuf text)

AIPP_KEYS = [
    "aipp_mode", "input_format", "src_image_size_w", "src_image_size_h", "csc_switch", "rbuv_swap_switch",
    "crop", "load_start_pos_w", "resize", "resize_output_w", "padding", "mean_chn_0", "min_chn_0",
    "var_reci_chn_0", "matrix_r0c0", "related_input_rank", "max_src_image_size",
]  # fmt: skip
AIPP_VALUES = st.one_of(
    st.sampled_from(["static", "dynamic", "YUV420SP_U8", "RGB888_U8", "true", "false", "1e400", "-1", '"x"', "{", "}"]),
    st.integers(-(2**70), 2**70).map(str),
    st.floats(allow_nan=True).map(repr),
    st.text(max_size=6),
)


@st.composite
def aipp_texts(draw: st.DrawFn) -> bytes:
    lines = []
    for _ in range(draw(st.integers(0, 3))):
        lines.append(draw(st.sampled_from(["aipp_op {", "aipp_op{", "other {", "aipp_op: 1", ""])))
        for _ in range(draw(st.integers(0, 8))):
            lines.append(
                f"  {draw(st.sampled_from(AIPP_KEYS))} {draw(st.sampled_from([':', ': ', '']))}{draw(AIPP_VALUES)}"
            )
        lines.append(draw(st.sampled_from(["}", "", "}}", "# c"])))
    return draw(encodings("\n".join(lines)))


def read_aipp_file(fmt: str, path: Path) -> None:
    def call() -> None:
        cfg = read_aipp(path)
        check_aipp(cfg, model_inputs=1)
        write_aipp(cfg)

    feed(fmt, path, call, (AippError,))


@given(data=aipp_texts())
@example(data=b"aipp_op {\n  related_input_rank : 99999999999999999999999\n}\n")
def test_aipp_config(tmp_path: Path, data: bytes) -> None:
    read_aipp_file("aipp", write(_scratch(tmp_path) / "aipp.cfg", data))


# ----- om JSON (atc --mode=1 output; also the fusion rule)

OM = {
    "name": "m",
    "graph": [
        {
            "name": "g",
            "op": [
                {
                    "name": "conv",
                    "type": "Conv2D",
                    "input": ["data:0", "c:-1"],
                    "attr": [{"key": "_datadump_original_op_names", "value": {"list": {"s": ["a"]}}}],
                    "input_desc": [{"dtype": "DT_FLOAT", "shape": {"dim": [1, 3]}, "layout": "NCHW"}],
                    "output_desc": [
                        {
                            "dtype": "DT_FLOAT16",
                            "shape": {"dim": [1, 3]},
                            "attr": [
                                {"key": "origin_shape", "value": {"list": {"i": [1, 3]}}},
                                {"key": "_datadump_origin_name", "value": {"s": "a"}},
                                {"key": "_datadump_origin_output_index", "value": {"i": 0}},
                            ],
                        }
                    ],
                }
            ],
        }
    ],
    "attr": [{"key": "attr_model_out_nodes_name", "value": {"list": {"s": ["conv:0:out"]}}}],
}


def _om_variants() -> st.SearchStrategy[object]:
    """OM with any one subtree (graph, op, desc, attr ...) replaced by any JSON value."""
    import random

    def perturb(node: object, rnd: random.Random, value: object) -> object:
        if rnd.random() < 0.2 or not isinstance(node, (dict, list)) or not node:
            return value
        if isinstance(node, dict):
            k = rnd.choice(sorted(node))
            return {**node, k: perturb(node[k], rnd, value)}
        i = rnd.randrange(len(node))
        return [*node[:i], perturb(node[i], rnd, value), *node[i + 1 :]]

    return st.builds(lambda seed, v: perturb(OM, random.Random(seed), v), st.integers(0, 2**32 - 1), json_values(6))


def read_om(fmt: str, path: Path) -> None:
    def call() -> None:
        model = read_om_json(path)
        from_om_model(model)
        om_inputs(model)

    feed(fmt, path, call, (OmJsonError, ModelInfoError))


OM_KEY_LIST = {**OM, "graph": [{"name": "g", "op": [{"name": "a", "attr": [{"key": ["k"], "value": {"s": "x"}}]}]}]}


@given(
    data=st.one_of(
        json_docs(OM),
        _om_variants().map(lambda v: json.dumps(v, allow_nan=True).encode()).flatmap(lambda b: st.just(b)),
    )
)
@example(data=json.dumps(OM_KEY_LIST).encode())  # unhashable type: 'list' before
@example(data=json.dumps({**OM, "graph": [{"name": "g", "op": 5}]}).encode())
def test_om_json(tmp_path: Path, data: bytes) -> None:
    read_om("om-json", write(_scratch(tmp_path) / "model.json", data))


# ----- npu-smi info text


@st.composite
def npusmi_texts(draw: st.DrawFn) -> str:
    cells = st.one_of(
        st.sampled_from(
            [
                "910B",
                "OK",
                "Warning",
                "NA",
                "0",
                "1",
                "65535",
                "99999999999999999999",
                "3 / 15",
                "0000:C1:00.0",
                "/",
                "",
            ]
        ),
        st.text(max_size=8),
    )
    lines = []
    for _ in range(draw(st.integers(0, 14))):
        kind = draw(st.sampled_from(["row", "sep", "sep2", "ver", "text", "hdr", "proc"]))
        if kind == "row":
            lines.append("| " + " | ".join(draw(st.lists(cells, max_size=8))) + " |")
        elif kind == "sep":
            lines.append("+" + "-" * draw(st.integers(0, 40)) + "+")
        elif kind == "sep2":
            lines.append("+===================+===============+==========+")
        elif kind == "ver":
            lines.append(f"| npu-smi {draw(cells)}  Version: {draw(cells)} |")
        elif kind == "hdr":
            lines.append("| NPU     Name          | Health   | Power(W)  Temp(C)   Hugepages-Usage(page) |")
        elif kind == "proc":
            lines.append("| NPU     Chip          | Process id    | Process name   | Process memory(MB)  |")
        else:
            lines.append(draw(st.text(max_size=20)))
    return "\n".join(lines)


def parse_smi(fmt: str, text: str) -> None:
    def call() -> None:
        info = parse_npu_smi_info(text, source="host1: npu-smi info")
        info.to_json()
        for d in info.devices:
            d.soc_version, d.soc_versions, d.healthy  # noqa: B018 - what the host view shows

    feed(fmt, "host1: npu-smi info", call, (NpuSmiParseError,))


@given(text=npusmi_texts())
def test_npusmi_text(text: str) -> None:
    parse_smi("npu-smi", text)


# ----- ssh config, known_hosts

SSH_KEYS = ["Host", "HostName", "User", "Port", "IdentityFile", "ProxyJump", "Match", "Include", "ProxyCommand", "="]


@st.composite
def ssh_configs(draw: st.DrawFn) -> bytes:
    values = st.one_of(
        st.sampled_from(
            ["a", "b.example", "*", "!x", "99999999999999999999", "-1", "none", "%h:%p", '"q q"', "~/k", ""]
        ),
        st.text(max_size=8),
    )
    lines = [
        f"{draw(st.sampled_from(['', '  ', chr(9)]))}{draw(st.sampled_from(SSH_KEYS))}"
        f"{draw(st.sampled_from([' ', '=', ' = ']))}{draw(values)}"
        for _ in range(draw(st.integers(0, 10)))
    ]
    return draw(encodings("\n".join(lines)))


@given(data=ssh_configs())
@example(data=b"Host a\n  Port 99999999999999999999\n")
@example(data=b"Host a\n  HostName \xd6\xd0\n")
def test_ssh_config(tmp_path: Path, data: bytes) -> None:
    path = write(_scratch(tmp_path) / "config", data)
    feed("ssh-config", path, lambda: import_ssh_config(path), (HostError,))


@pytest.fixture(scope="module")
def server_key() -> paramiko.PKey:
    return paramiko.RSAKey.generate(1024)


@st.composite
def known_hosts_files(draw: st.DrawFn, key_b64: str) -> bytes:
    host = st.sampled_from(["h", "[h]:2222", "h,other", "!h", "*", "|1|abc|def", "|1|!!|??", "|1|", "[h]:x", "h?"])
    key_type = st.sampled_from(["ssh-rsa", "ssh-ed25519", "", "x"])
    key = st.one_of(st.just(key_b64), st.text(max_size=8))
    marker = st.sampled_from(["", "@revoked ", "@cert-authority ", "@x "])
    lines = [
        f"{draw(marker)}{draw(host)} {draw(key_type)} {draw(key)}"
        if draw(st.booleans())
        else draw(st.text(max_size=20))
        for _ in range(draw(st.integers(0, 6)))
    ]
    return draw(encodings("\n".join(lines)))


def test_known_hosts(tmp_path: Path, server_key: paramiko.PKey) -> None:
    @given(data=known_hosts_files(server_key.get_base64()))
    def run(data: bytes) -> None:
        folder = _scratch(tmp_path)
        path = write(folder / "known_hosts", data)

        def call() -> None:
            lookup([path], "h", 2222)
            checker = HostKeyChecker(files=[path], app_file=folder / "app_known_hosts")
            checker.preferred_key_types("h", 22)
            checker.check("h", "h", 22, server_key, accept=lambda info: True)

        feed("known_hosts", path, call, (HostKeyError,))

    run()


# ----- project.json, settings, hosts.json

PROJECT = {"schema_version": 1, "name": "p", "type": "profiling", "history": [], "remotes": []}
SETTINGS = {"schema_version": 1, "max_recent": 10, "timeline_color_a": 5.0, "timeline_color_b": 10.0, "recent": {}}
HOSTS = {"schema_version": 1, "hosts": [{"name": "a", "hostname": "h", "port": 22, "user": "u", "auth": "auto"}]}


@given(data=json_docs(PROJECT))
def test_project_json(tmp_path: Path, data: bytes) -> None:
    root = _scratch(tmp_path)
    path = write(root / project.PROJECT_DIR / project.PROJECT_FILE, data)
    feed("project.json", path, lambda: project.open_project(root), (project.ProjectError,))


@given(data=json_docs(SETTINGS))
def test_settings_json(tmp_path: Path, data: bytes) -> None:
    """settings.load never raises: a bad file is defaults plus messages naming it."""
    path = write(_scratch(tmp_path) / "settings.json", data)

    def call() -> None:
        _, problems = settings.load(path)
        for p in problems:
            assert str(path) in p or "settings" in p, p

    feed("settings", path, call, ())


@given(data=json_docs(HOSTS))
@example(data=b'{"schema_version": 1, "hosts": [{"name": "\xd6\xd0", "hostname": "h"}]}')
def test_hosts_json(tmp_path: Path, data: bytes) -> None:
    path = write(_scratch(tmp_path) / "hosts.json", data)
    feed("hosts.json", path, lambda: HostStore(path).load(), (HostError,))
