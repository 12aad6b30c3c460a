"""AIPP config: the real sample read, written back in the same form, and the documented constraints."""

from __future__ import annotations

import re

import pytest

from workbench.core.atc.aipp import AippConfig, AippError, AippOp, check_aipp, parse_aipp, read_aipp, write_aipp


def _pairs(text: str) -> list[tuple[str, str]]:
    """key/value tokens of protobuf text, read independently with a regex."""
    return re.findall(r"([A-Za-z_]\w*)\s*:\s*([^\s{}]+)", text)


def test_real_sample_round_trip(samples):
    path = samples / "atc-aipp-config" / "aipp.config"
    original = path.read_text()
    config = read_aipp(path)
    op = config.ops[0]
    assert (op.aipp_mode, op.input_format, op.src_image_size_w, op.src_image_size_h, op.crop) == (
        "static",
        "RGB888_U8",
        32,
        32,
        False,
    )
    assert op.min_chn[:3] == [123.675, 116.28, 103.53] and op.min_chn[3] is None
    assert op.var_reci_chn[:3] == [0.0171247538316637, 0.0175070028011204, 0.0174291938997821]
    written = write_aipp(config)
    assert written.startswith("aipp_op {\n") and written.rstrip().endswith("}")
    assert _pairs(written) == _pairs(original)  # same keys, same order, same spelling of values
    assert parse_aipp(written) == config
    assert check_aipp(config) == []


def test_dynamic_form_and_unknown_keys_kept():
    text = "aipp_op { aipp_mode : dynamic related_input_rank : 0 max_src_image_size: 260000 support_rotation: false }"
    config = parse_aipp(text)
    assert check_aipp(config) == []
    assert _pairs(write_aipp(config)) == _pairs(text)
    kept = parse_aipp('aipp_op { aipp_mode: static input_format: YUV420SP_U8 future_key: "x y" }')
    assert kept.ops[0].extra == [("future_key", '"x y"')]
    assert 'future_key : "x y"' in write_aipp(kept)


@pytest.mark.parametrize(
    "text, message",
    [
        ("aipp_op { aipp_mode: static crop: maybe }", "(line 1): crop: expected true or false, got 'maybe'"),
        (
            "aipp_op {\n aipp_mode: static\n src_image_size_w: 3.5\n}",
            "(line 3): src_image_size_w: expected a whole number",
        ),
        ("other { }", "expected only 'aipp_op { … }' blocks"),
        ("aipp_op { aipp_mode: static", "never closed"),
        ("", "no 'aipp_op { … }' block"),
    ],
)
def test_bad_files_name_the_line(text, message):
    with pytest.raises(AippError) as err:
        parse_aipp(text, "cfg.aipp")
    assert str(err.value).startswith("cfg.aipp") and message in str(err.value)


def _static(**kw) -> AippConfig:
    return AippConfig([AippOp(aipp_mode="static", input_format="RGB888_U8", **kw)])


@pytest.mark.parametrize(
    "config, field, words",
    [
        (AippConfig([AippOp(aipp_mode="dynamic")]), "aipp_op.max_src_image_size", "requires max_src_image_size"),
        (
            AippConfig([AippOp(aipp_mode="dynamic", max_src_image_size=1000, crop=True)]),
            "aipp_op.crop",
            "only related_input_rank, max_src_image_size and support_rotation",
        ),
        (AippConfig([AippOp(aipp_mode="sometimes")]), "aipp_op.aipp_mode", "static or dynamic"),
        (AippConfig([AippOp(aipp_mode="static")]), "aipp_op.input_format", "requires input_format"),
        (AippConfig([AippOp(aipp_mode="static", input_format="BGR")]), "aipp_op.input_format", "must be one of"),
        (_static(src_image_size_w=5000), "aipp_op.src_image_size_w", "from 0"),
        (
            AippConfig(
                [AippOp(aipp_mode="static", input_format="YUV420SP_U8", src_image_size_w=223, src_image_size_h=224)]
            ),
            "aipp_op.src_image_size_w",
            "even",
        ),
        (
            _static(src_image_size_w=224, src_image_size_h=224, crop=True, load_start_pos_w=100, crop_size_w=200),
            "aipp_op.crop_size_w",
            "exceeds src_image_size_w (224)",
        ),
        (_static(csc_switch=True), "aipp_op.matrix_r0c0", "csc_switch is true"),
        (_static(mean_chn=[0, 300, 0, None]), "aipp_op.mean_chn_1", "from 0 to 255"),
        (_static(var_reci_chn=[1e6, None, None, None]), "aipp_op.var_reci_chn_0", "float16"),
        (_static(resize=True), "aipp_op.resize_output_w", "resize is on"),
        (
            AippConfig(
                [
                    AippOp(aipp_mode="static", input_format="RGB888_U8"),
                    AippOp(aipp_mode="static", input_format="RGB888_U8"),
                ]
            ),
            "aipp_op[1].related_input_rank",
            "both preprocess input 0",
        ),
    ],
)
def test_constraints(config, field, words):
    problems = check_aipp(config)
    assert any(f == field and words in reason for f, reason in problems), problems


def test_context_constraints():
    config = _static(src_image_size_w=224, src_image_size_h=224)
    assert check_aipp(config) == []
    assert any("set to 0" in r for _, r in check_aipp(config, dynamic_image_size=True))
    ranked = AippConfig([AippOp(aipp_mode="static", input_format="RGB888_U8", related_input_rank=1)])
    assert any("out of range" in r for _, r in check_aipp(ranked, model_inputs=1))
    assert check_aipp(ranked, model_inputs=2) == []


@pytest.mark.parametrize("switch", [False, None])
def test_fields_of_a_switched_off_crop_resize_or_padding_are_not_written(switch):
    sizes = {
        "load_start_pos_w": 16,
        "load_start_pos_h": 16,
        "crop_size_w": 192,
        "crop_size_h": 192,
        "resize_output_w": 128,
        "resize_output_h": 128,
        "left_padding_size": 2,
        "right_padding_size": 2,
        "top_padding_size": 4,
        "bottom_padding_size": 4,
    }
    off = _static(src_image_size_w=224, src_image_size_h=224, crop=switch, resize=switch, padding=switch, **sizes)
    keys = [k for k, _ in _pairs(write_aipp(off))]
    assert not set(sizes) & set(keys), keys
    assert ("crop" in keys) == (switch is False) and ("padding" in keys) == (switch is False)
    assert keys[:4] == ["aipp_mode", "input_format", "src_image_size_w", "src_image_size_h"]
    # switched on, every field is written, in the documented order
    on = _static(src_image_size_w=224, src_image_size_h=224, crop=True, resize=True, padding=True, **sizes)
    written = dict(_pairs(write_aipp(on)))
    assert {k: int(written[k]) for k in sizes} == sizes
    assert parse_aipp(write_aipp(on)) == on
