"""The bounded mutation campaign: every real CANN sample in ``shared/samples`` (SOURCES.md there)
and the simulator's sample report (``resources/samples``), each mutated ``PER_SAMPLE`` times with
seeded, deterministic mutations (bit flips, truncation, byte insert/delete, chunk duplication,
splice with a sibling file, BOM prefix, CRLF) and fed to its reader: it parses, or raises the
area's error naming the file. ``FUZZ_CAMPAIGN_N`` overrides the count."""

from __future__ import annotations

import os
import random
import shutil
import zlib
from collections.abc import Callable
from pathlib import Path

import pytest
from fuzzkit import MUTATIONS, mutate, write
from test_fuzz_configs import parse_smi, read_acl, read_aipp_file, read_om
from test_fuzz_dump import DUMP, DUMP_NAME, read_dump_file
from test_fuzz_profiling import SIM_TORCH, load_wbreport, open_any

from workbench.core.profiling import tables
from workbench.core.profiling.build import open_report
from workbench.core.profiling.errors import ProfilingDataError
from workbench.core.profiling.storage.saved import save_report

ROOT = Path(__file__).resolve().parents[2]
# the rule of tests/conftest.py: ../shared beside the project root; ASCEND_WORKBENCH_SHARED overrides
SAMPLES = Path(os.environ.get("ASCEND_WORKBENCH_SHARED", ROOT.parent / "shared")) / "samples"
SIM = ROOT / "resources" / "samples"
PER_SAMPLE = int(os.environ.get("FUZZ_CAMPAIGN_N", "48"))


def _table(fmt: str, reader: Callable[[Path], object]) -> Callable[[Path, Path], None]:
    from fuzzkit import feed

    def run(path: Path, _work: Path) -> None:
        feed(fmt, path, lambda: reader(path), (ProfilingDataError,))

    return run


def _as(name: str, run: Callable[[Path, Path], None]) -> Callable[[bytes, Path], None]:
    """Write the mutated bytes under the name the reader expects, then run it."""

    def go(data: bytes, work: Path) -> None:
        run(write(work / name, data), work)

    return go


def _cluster(member: str, sibling: Path) -> Callable[[bytes, Path], None]:
    def go(data: bytes, work: Path) -> None:
        folder = work / "cluster_analysis_output"
        write(folder / member, data)
        other = "cluster_step_trace_time.csv" if member.endswith(".json") else "cluster_communication.json"
        shutil.copy(sibling.parent / other, folder / other)
        open_any("cluster-folder", folder)

    return go


def _text(run: Callable[[str], None]) -> Callable[[bytes, Path], None]:
    return lambda data, _work: run(data.decode("utf-8", errors="replace"))  # as the transport decodes output


def ops_csv(name: str) -> Callable[[bytes, Path], None]:
    def go(data: bytes, work: Path) -> None:
        path = write(work / name, data)
        _table("csv-ops", tables.read_ops)(path, work)
        open_any("csv-ops-report", path)

    return go


def torch_folder(member: str) -> Callable[[bytes, Path], None]:
    """A summary CSV inside a torch_npu report folder (with the simulator's kernel_details)."""

    def go(data: bytes, work: Path) -> None:
        out = work / "r_ascend_pt" / "ASCEND_PROFILER_OUTPUT"
        write(out / member, data)
        shutil.copy(SIM_TORCH / "ASCEND_PROFILER_OUTPUT" / "kernel_details.csv", out / "kernel_details.csv")
        _table(f"csv-{Path(member).stem}", tables.read_table)(out / member, work)
        open_any("torch-folder", out.parent)

    return go


def torch_json(member: str, reader: Callable[[Path], object]) -> Callable[[bytes, Path], None]:
    """communication(_matrix).json inside a torch_npu report folder (with the simulator's kernel_details)."""

    def go(data: bytes, work: Path) -> None:
        out = work / "r_ascend_pt" / "ASCEND_PROFILER_OUTPUT"
        write(out / member, data)
        shutil.copy(SIM_TORCH / "ASCEND_PROFILER_OUTPUT" / "kernel_details.csv", out / "kernel_details.csv")
        _table(f"json-{Path(member).stem}", reader)(out / member, work)
        open_any("torch-folder", out.parent)

    return go


def prof_rank(member: str) -> Callable[[bytes, Path], None]:
    """A file of the simulator's PROF sample inside a msprof PROF_* rank of a cluster (its device_0/info.json.0,
    analyze/): discovery and the rank's reduction never raise, every warning one line (issue #20)."""

    def go(data: bytes, work: Path) -> None:
        from fuzzkit import feed

        from workbench.core.cluster import merge, ranks, reduce

        prof = work / "job" / MS.split("/")[1]
        write(prof / member, data)
        info = SIM / MS.rsplit("/", 2)[0] / "device_0" / "info.json.0"
        if not (prof / "device_0" / "info.json.0").exists():
            write(prof / "device_0" / "info.json.0", info.read_bytes())
        (prof / "mindstudio_profiler_output").mkdir(exist_ok=True)
        (prof / "analyze").mkdir(exist_ok=True)

        def run() -> None:
            found = ranks.discover(str(prof.parent))
            reds = [reduce.reduce_source(s) for s in found.ranks]
            lines = [*found.warnings, *(w for r in reds for w in r.warnings), *merge.merge(reds).warnings]
            bad = [w for w in lines if "\n" in w or "Traceback" in w]
            assert not bad, bad[:2]

        feed(f"cluster-prof/{Path(member).name.split('_')[0]}", prof / member, run, ())

    return go


def migration_file(name: str) -> Callable[[bytes, Path], None]:
    """One report file of a migration tool (issue #22) damaged inside a copy of the report folder the simulated
    tool wrote for a GPU sample: the folder reads, or raises MigrationReportError naming the file."""

    def go(data: bytes, work: Path) -> None:
        from fuzzkit import feed
        from test_fuzz_migration import _seed, _use

        from workbench.core.migration import reports

        seed = _seed(name)
        folder = Path(shutil.copytree(seed.parent, work / seed.parent.name))
        write(folder / name, data)

        def run() -> None:
            _use(reports.read_report_folder(folder, ("/x",)))

        feed(f"campaign-migration/{name}", folder / name, run, (reports.MigrationReportError,))

    return go


def _om_and_graph(path: Path, _work: Path) -> None:
    """An om JSON read as the op tree and as the model graph (loaded and laid out, issue #23)."""
    from test_fuzz_graph import read_graph

    read_om("om-json", path)
    read_graph("graph-om", path)


def _real_samples() -> list[tuple[str, Callable[[bytes, Path], None]]]:
    s = SAMPLES
    return [
        ("acl-json-dump-samples/acl.json", _as("acl.json", lambda p, w: read_acl("acl.json", p))),
        ("acl-json-torch_npu-exception/acl.json", _as("acl.json", lambda p, w: read_acl("acl.json", p))),
        ("atc-aipp-config/aipp.config", _as("aipp.config", lambda p, w: read_aipp_file("aipp", p))),
        ("atc-om2json-310-cann5.1/model.json", _as("model.json", _om_and_graph)),
        ("atc-om2json-large/test.om.json", _as("test.om.json", _om_and_graph)),
        ("msprof-analyze-cluster/cluster_communication.json",
         _cluster("cluster_communication.json", s / "msprof-analyze-cluster/cluster_communication.json")),
        ("msprof-analyze-cluster/cluster_step_trace_time.csv",
         _cluster("cluster_step_trace_time.csv", s / "msprof-analyze-cluster/cluster_step_trace_time.csv")),
        ("npu-smi/npu-smi-info_310P3_25.3.rc1.txt", _text(lambda t: parse_smi("npu-smi", t))),
        ("npu-smi/npu-smi-info_310_23.0.0.txt", _text(lambda t: parse_smi("npu-smi", t))),
        ("npu-smi/npu-smi-info_910_8card_24.1.0.txt", _text(lambda t: parse_smi("npu-smi", t))),
        ("torch_npu-910B-rank0-comm-mem/communication.json",
         torch_json("communication.json", tables.read_communication)),
        ("torch_npu-910B-rank0-comm-mem/communication_matrix.json",
         torch_json("communication_matrix.json", tables.read_communication_matrix)),
        ("torch_npu-910B-rank0-comm-mem/memory_record.csv", torch_folder("memory_record.csv")),
        ("torch_npu-910B-rank0-comm-mem/npu_module_mem.csv", torch_folder("npu_module_mem.csv")),
        ("torch_npu-910B-rank0-comm-mem/operator_memory.csv", torch_folder("operator_memory.csv")),
        ("torch_npu-910B-rank0-comm-mem/step_trace_time.csv", torch_folder("step_trace_time.csv")),
        ("torch_npu-kernel_details-arith/kernel_details.csv", ops_csv("kernel_details.csv")),
        ("torch_npu-kernel_details-pipe/kernel_details.csv", ops_csv("kernel_details.csv")),
        ("torch_npu-trace_view/trace_view.json", _as("trace_view.json", lambda p, w: open_any("trace-json", p))),
    ]  # fmt: skip


NOT_READ = {"SOURCES.md"}


def read_op_statistic(path: Path) -> object:
    return tables.read_table(path, tables.OP_STATISTIC)


PT = "resnet_torch_npu/" + SIM_TORCH.name + "/ASCEND_PROFILER_OUTPUT/"
MS = "resnet50_msprof_cann8/PROF_000001_20240603093000000_EZPJJQQLJCPJACUZ/mindstudio_profiler_output/"
SIM_SAMPLES: list[tuple[str, Callable[[bytes, Path], None]]] = [
    (PT + "trace_view.json", _as("trace_view.json", lambda p, w: open_any("trace-json", p))),
    (PT + "kernel_details.csv", ops_csv("kernel_details.csv")),
    (PT + "op_statistic.csv", _as("op_statistic.csv", _table("csv-op_statistic", read_op_statistic))),
    (PT + "api_statistic.csv", _as("api_statistic.csv", _table("csv-api_statistic", tables.read_api_statistic))),
    (PT + "step_trace_time.csv", torch_folder("step_trace_time.csv")),
    (PT + "memory_record.csv", torch_folder("memory_record.csv")),
    (PT + "operator_details.csv", torch_folder("operator_details.csv")),
    (MS + "msprof_20240603093002.json", _as("msprof_20240603093002.json", lambda p, w: open_any("trace-json", p))),
    (MS + "msprof_20240603093002.json", prof_rank("mindstudio_profiler_output/msprof_20240603093002.json")),
    (MS.rsplit("/", 2)[0] + "/device_0/info.json.0", prof_rank("device_0/info.json.0")),
    (MS + "op_summary_20240603093002.csv", ops_csv("op_summary_20240603093002.csv")),
    (MS + "api_statistic_20240603093002.csv",
     _as("api_statistic_20240603093002.csv", _table("csv-api_statistic", tables.read_api_statistic))),
    (MS + "npu_mem_20240603093002.csv", _as("npu_mem_20240603093002.csv", _table("csv-memory", tables.read_table))),
]  # fmt: skip


def _sim_wbreport(data: bytes, work: Path) -> None:
    load_wbreport("wbreport", write(work / "sim.wbreport", data))


def _sim_dump(data: bytes, work: Path) -> None:
    read_dump_file("dump-file", write(work / DUMP_NAME, data))


def campaign(label: str, data: bytes, other: bytes, run: Callable[[bytes, Path], None], work: Path) -> None:
    """``PER_SAMPLE`` seeded mutations of ``data``: every mutation kind at least once, then drawn."""
    rnd = random.Random(zlib.crc32(label.encode()))
    failures: list[str] = []
    for i in range(PER_SAMPLE):
        kind = MUTATIONS[i] if i < len(MUTATIONS) else None
        name, mutated = mutate(data, rnd, other, kind)
        folder = work / f"m{i}"
        folder.mkdir()
        try:
            run(mutated, folder)
        except AssertionError as exc:
            failures.append(f"{label} #{i} ({name}): {str(exc).splitlines()[0]}")
        shutil.rmtree(folder, ignore_errors=True)
    assert not failures, f"{len(failures)} of {PER_SAMPLE} mutations failed:\n" + "\n".join(failures[:8])


def _sibling(path: Path) -> bytes:
    """Another file of the same kind for splicing (the file itself if it has no sibling)."""
    same = sorted(p for p in path.parent.parent.glob(f"*/*{path.suffix}") if p != path and p.is_file())
    return same[0].read_bytes() if same else path.read_bytes()


@pytest.mark.parametrize("rel,run", _real_samples(), ids=[r for r, _ in _real_samples()])
def test_real_sample_mutations(tmp_path: Path, rel: str, run) -> None:
    if not SAMPLES.is_dir():
        pytest.skip(f"real CANN samples not present at {SAMPLES}")
    path = SAMPLES / rel
    assert path.is_file(), f"{path}: listed in the campaign but missing from the samples"
    campaign(rel, path.read_bytes(), _sibling(path), run, tmp_path)


def test_every_real_sample_is_in_the_campaign() -> None:
    if not SAMPLES.is_dir():
        pytest.skip(f"real CANN samples not present at {SAMPLES}")
    listed = {r for r, _ in _real_samples()}
    present = {str(p.relative_to(SAMPLES)) for p in SAMPLES.rglob("*") if p.is_file() and p.name not in NOT_READ}
    assert present <= listed, f"samples without a campaign entry: {sorted(present - listed)}"


@pytest.mark.parametrize("rel,run", SIM_SAMPLES, ids=[r.rsplit("/", 1)[-1] for r, _ in SIM_SAMPLES])
def test_simulator_output_mutations(tmp_path: Path, rel: str, run) -> None:
    path = SIM / rel
    campaign(rel, path.read_bytes(), _sibling(path), run, tmp_path)


def test_simulator_saved_report_mutations(tmp_path: Path) -> None:
    out = save_report(open_report(SIM_TORCH, use_cache=False), tmp_path / "sim.wbreport")
    campaign("sim.wbreport", out.read_bytes(), b"", _sim_wbreport, tmp_path)


def test_dump_file_mutations(tmp_path: Path) -> None:
    campaign("dump", DUMP, b"", _sim_dump, tmp_path)


# The migration tools' report files (seeded as tests/fuzz/test_fuzz_migration.py seeds(): one run of each simulated
# tool on the GPU samples), each through reports.read_report_folder.
MIGRATION_FILES = (
    "success_report.txt",
    "failed_report.txt",
    "api_brief_report.txt",
    "api_analysis_report.xlsx",
    "change_list.csv",
    "unsupported_api.csv",
    "msFmkTranspltlog.txt",
)


@pytest.mark.parametrize("name", MIGRATION_FILES)
def test_migration_report_mutations(tmp_path: Path, name: str) -> None:
    from test_fuzz_migration import PT_NAMES, TF_NAMES, _seed

    assert set(MIGRATION_FILES) == set(TF_NAMES + PT_NAMES), "every report file the migration fuzz seeds"
    seed = _seed(name)
    siblings = sorted(p for p in seed.parent.glob(f"*{seed.suffix}") if p != seed and p.is_file())
    other = siblings[0].read_bytes() if siblings else seed.read_bytes()
    campaign(f"migration/{name}", seed.read_bytes(), other, migration_file(name), tmp_path)
