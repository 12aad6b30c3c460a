"""The cluster analysis's warning lines in the UI's language: core's templates and the UI's marked
strings are the same list, real warnings of the core match a template, and in zh_CN they read Chinese."""

from __future__ import annotations

from pathlib import Path

from workbench.core.cluster import merge, ranks, reduce
from workbench.core.cluster.texts import WARNING_TEMPLATES
from workbench.core.profiling.views import match_template
from workbench.ui.cluster import texts


def test_the_ui_marks_exactly_cores_templates() -> None:
    assert tuple(texts.WARNING_LABELS) == WARNING_TEMPLATES


def _real_warnings(tmp_path: Path) -> list[str]:
    job = tmp_path / "job"
    for name, rank, output in (
        ("a_1_1_ascend_pt", "x", True),
        ("a_2_1_ascend_pt", None, True),
        ("a_3_1_ascend_pt", 3, False),
    ):
        folder = job / name
        folder.mkdir(parents=True)
        if rank is not None:
            (folder / f"profiler_info_{rank}.json").write_text("{}")
        if output:
            (folder / "ASCEND_PROFILER_OUTPUT").mkdir()
    for stamp in ("20240101000000000", "20240202000000000"):
        folder = job / f"w_{stamp}_ascend_pt"
        (folder / "ASCEND_PROFILER_OUTPUT").mkdir(parents=True)
        (folder / "profiler_info_0.json").write_text("{}")
    found = ranks.discover(str(job))
    lines = list(found.warnings) + ranks.discover(str(tmp_path / "missing")).warnings
    rank = found.ranks[0]
    out = Path(rank.path) / "ASCEND_PROFILER_OUTPUT"
    lines += reduce.reduce_rank(0, rank.path).warnings  # no step file, no communication files
    (out / "step_trace_time.csv").write_text("Step,Computing\n1,abc\n")
    (out / "communication.json").write_text("{")
    (out / "communication_matrix.json").write_text('{"step1": 5, "step2": {"p2p": []}}')
    lines += reduce.reduce_rank(0, rank.path).warnings
    (out / "step_trace_time.csv").write_text("Computing\n1\n")
    (out / "communication.json").write_text("[1]")
    lines += reduce.reduce_rank(0, rank.path).warnings
    (out / "step_trace_time.csv").write_text("")
    lines += reduce.reduce_rank(0, rank.path).warnings
    (out / "step_trace_time.csv").write_bytes(b"Step,Computing\n1,\xff\n")
    lines += reduce.reduce_rank(0, rank.path).warnings
    red = reduce.RankReduction(1, "/r1")
    red.steps, red.step_header = [("1", [1.0])], ["Computing"]
    red.distributed_args = {"world_size": 3, "tensor_model_parallel_size": 2}
    red.matrix = {
        "step1": {"collective": {"allReduce-total@7": {"0-1": {"Transit Size(MB)": 1, "Transit Time(ms)": 1}}}}
    }
    red.parallel_group_info = {"g": {"global_ranks": [1, 4]}}
    lines += merge.merge([red]).warnings
    return lines


def test_real_warnings_of_the_core_match_a_template_and_read_chinese(tmp_path: Path, zh_window) -> None:
    lines = _real_warnings(tmp_path)
    assert len(lines) >= 14
    unmatched = [line for line in lines if match_template(line, WARNING_TEMPLATES) is None]
    assert unmatched == []
    shown = [texts.warning_text(line) for line in lines]
    assert all(s != line for s, line in zip(shown, lines)), [s for s, line in zip(shown, lines) if s == line]
    assert any("不是数字；按 0 处理" in s for s in shown)
