"""Baseline comparison on cluster tables (core ``cluster.compare`` and ``cluster compare``): two
generated 8-rank jobs (tp 2, pp 2, dp 2; the same seed), the baseline without a slow rank, the current
one with rank 5 computing slowly and the link 2 -> 3 slow. Rank 5 is the most regressed, its numbers
are the files' own cells; a rank, a step and a column missing on one side are listed as such; two
ranks side by side; the CLI's text, JSON and Excel output, never over a file without --force."""

from __future__ import annotations

import csv
import json
import math
import shutil
import statistics
from pathlib import Path

import pytest

from workbench.cli import main
from workbench.core.cluster import analyze, compare, files
from workbench.core.cluster.compare import ClusterCompareError, compare_clusters, compare_ranks
from workbench.simtoolkit.profdata.clusterjob import write_cluster_job

SLOW_RANK, SLOW_LINK, SEED = 5, (2, 3), 11


@pytest.fixture(scope="module")
def jobs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """The two job folders (not analysed) and their msprof-analyze files written elsewhere."""
    root = tmp_path_factory.mktemp("clusters")
    base, current = root / "base", root / "current"
    write_cluster_job(base, 8, tp=2, pp=2, seed=SEED)
    write_cluster_job(current, 8, tp=2, pp=2, slow_rank=SLOW_RANK, slow_link=SLOW_LINK, seed=SEED)
    analyze.analyze(base, out=root / "base_out")
    analyze.analyze(current, out=root / "current_out")
    return {"base": base, "current": current, "base_out": root / "base_out", "current_out": root / "current_out"}


def csv_cells(folder: Path) -> tuple[list[str], dict[tuple[int, str], list[str]]]:
    """cluster_step_trace_time.csv as text: its header and (rank, step) -> the row's cells."""
    with open(folder / files.STEP_CSV, newline="", encoding="utf-8") as f:
        rows = list(csv.reader(f))
    return rows[0], {(int(r[2]), r[0]): r for r in rows[1:] if r[1] == "rank"}


def opened(path: Path):
    return analyze.open_cluster(path, write=False).report


def test_the_slow_rank_is_the_most_regressed_with_the_files_numbers(jobs):
    base, current = opened(jobs["base_out"]), opened(jobs["current_out"])
    c = compare_clusters(base, current)
    assert c.kind == "clusters" and c.base_source == str(jobs["base"]) and c.current_source == str(jobs["current"])
    assert c.columns == [
        "Computing",
        "Communication(Not Overlapped)",
        "Overlapped",
        "Communication",
        "Free",
        "Stage",
        "Bubble",
        "Communication(Not Overlapped and Exclude Receive)",
        "Preparing",
    ]
    assert [(r.rank, r.step) for r in c.rows] == [(r, s) for r in range(8) for s in ("1", "2")]
    assert not (c.ranks_only_base or c.ranks_only_current or c.steps_only_base or c.rows_only_current)
    # rank 5 regressed, in Computing, and it alone: the others' waits grew as much as every rank's
    assert c.regressed_ranks == [SLOW_RANK]
    top = c.regressions[0]
    assert top.column == "Computing" and top.excess_us > 0.2 * top.base_us
    assert c.rank_means[0].rank == SLOW_RANK
    # every number is the files' own: the change of a cell is the difference of the two CSV cells
    header, b_cells = csv_cells(jobs["base_out"])
    _, c_cells = csv_cells(jobs["current_out"])
    at = header.index("Computing")
    i = c.column_index("Computing")
    for row in c.rows:
        b, cur = float(b_cells[(row.rank, row.step)][at]), float(c_cells[(row.rank, row.step)][at])
        assert (row.base[i], row.current[i], row.diff[i]) == (b, cur, cur - b)
        assert row.ratio[i] == cur / b
    mine = [(float(b_cells[(SLOW_RANK, s)][at]), float(c_cells[(SLOW_RANK, s)][at])) for s in ("1", "2")]
    b_mean, c_mean = statistics.fmean(x for x, _ in mine), statistics.fmean(y for _, y in mine)
    assert (top.base_us, top.current_us, top.diff_us) == (b_mean, c_mean, c_mean - b_mean)
    assert top.diff_us > 2000, "the planted slow rank computes ~30 % longer"
    total = next(t for t in c.totals if t.column == "Computing")
    b_sum = math.fsum(float(r[at]) for r in b_cells.values())
    c_sum = math.fsum(float(r[at]) for r in c_cells.values())
    assert (total.rows, total.base, total.current, total.diff) == (16, b_sum, c_sum, c_sum - b_sum)
    # the findings: the planted rank and link are new problems, nothing was resolved
    f = c.findings
    assert [s.rank for s in f.new_ranks] == [SLOW_RANK] and not f.base.slow_ranks
    assert [(s.src, s.dst, s.transport) for s in f.new_links] == [(*SLOW_LINK, "HCCS")]
    assert not f.resolved_ranks and not f.resolved_links and not f.persisting_ranks
    # the other way round: rank 5 got faster, nothing regressed, its slowness is resolved
    back = compare_clusters(current, base)
    assert back.regressed_ranks == [] and [s.rank for s in back.findings.resolved_ranks] == [SLOW_RANK]


def test_a_rank_a_step_and_a_column_on_one_side_only(jobs, tmp_path):
    """The baseline's files edited as a user's older run might be: rank 7 missing, rank 3 without
    step 2, no Preparing column. What one side only has is listed, the rest compared."""
    out = tmp_path / "base" / files.OUTPUT_DIR
    shutil.copytree(jobs["base_out"], out)
    (out / "cluster.wbcluster").unlink()
    with open(out / files.STEP_CSV, newline="", encoding="utf-8") as f:
        rows = list(csv.reader(f))
    drop = rows[0].index("Preparing")
    kept = [
        [cell for n, cell in enumerate(r) if n != drop]
        for r in rows
        if not (r[1] == "rank" and (r[2] == "7" or (r[2] == "3" and r[0] == "2")))
    ]
    with open(out / files.STEP_CSV, "w", newline="", encoding="utf-8") as f:
        csv.writer(f).writerows(kept)
    c = compare_clusters(opened(out), opened(jobs["current_out"]))
    assert c.ranks_only_current == [7] and c.ranks_only_base == []
    assert c.rows_only_current == [(3, "2"), (7, "1"), (7, "2")] and c.rows_only_base == []
    assert c.steps_only_base == c.steps_only_current == []
    assert c.columns_only_current == ["Preparing"] and "Preparing" not in c.columns
    assert [(r.rank, r.step) for r in c.rows if r.rank in (3, 7)] == [(3, "1")]
    assert next(m for m in c.rank_means if m.rank == 3).steps == 1
    assert c.regressed_ranks == [SLOW_RANK]
    text = compare.as_text(c)
    assert "ranks only in the current: 7" in text and "columns only in the current: Preparing" in text
    assert "rows only in the current: 3 (rank, step) rows, not compared" in text


def test_two_ranks_side_by_side(jobs):
    report = opened(jobs["current_out"])
    c = compare_ranks(report, 4, SLOW_RANK)
    assert c.kind == "ranks" and (c.base_rank, c.current_rank) == (4, SLOW_RANK)
    header, cells = csv_cells(jobs["current_out"])
    assert [r.step for r in c.rows] == ["1", "2"] and {(r.base_rank, r.rank) for r in c.rows} == {(4, SLOW_RANK)}
    for row in c.rows:
        for i, column in enumerate(c.columns):
            a, b = (
                float(cells[(4, row.step)][header.index(column)]),
                float(cells[(SLOW_RANK, row.step)][header.index(column)]),
            )
            assert (row.base[i], row.current[i], row.diff[i]) == (a, b, b - a), column
    assert c.regressed_ranks == [SLOW_RANK] and c.regressions[0].column == "Computing"
    assert c.regressions[0].cluster_diff_us == 0.0, "two ranks: no cluster median"
    assert [s.rank for s in c.findings.current.slow_ranks] == [SLOW_RANK] and not c.findings.base.slow_ranks
    assert c.findings.new_ranks == [] and c.findings.resolved_ranks == []
    with pytest.raises(ClusterCompareError, match=r"^rank 5: compare two different ranks$"):
        compare_ranks(report, 5, 5)
    with pytest.raises(
        ClusterCompareError, match=r"^rank 9: .* has no cluster_step_trace_time rows of it \(ranks: 0, 1"
    ):
        compare_ranks(report, 4, 9)


def test_cli_text_and_json_without_writing_into_the_clusters(jobs, capsys):
    before = sorted(p.relative_to(jobs["base"]) for p in jobs["base"].rglob("*"))
    assert main(["cluster", "compare", str(jobs["base"]), str(jobs["current"])]) == 0
    text = capsys.readouterr().out
    lines = text.splitlines()
    assert lines[0] == f"baseline: {jobs['base']}" and lines[1] == f"current:  {jobs['current']}"
    assert lines[2] == "compared: 8 ranks, 2 steps, 16 rows, 9 columns (us)"
    regressed = lines[lines.index(next(x for x in lines if x.startswith("regressed ranks"))) + 1]
    assert regressed.startswith(f"  rank {SLOW_RANK}: Computing +") and "excess +" in regressed
    assert f"  slow rank {SLOW_RANK}: Computing " in text and "  slow link 2 -> 3 (HCCS): " in text
    assert "resolved: none" in text
    assert sorted(p.relative_to(jobs["base"]) for p in jobs["base"].rglob("*")) == before, "nothing written"
    assert not (jobs["current"] / files.OUTPUT_DIR).exists()

    assert main(["cluster", "compare", str(jobs["base"]), str(jobs["current_out"]), "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["regressed_ranks"] == [SLOW_RANK] and doc["written"] is None
    assert doc["regressions"][0]["column"] == "Computing"
    header, b_cells = csv_cells(jobs["base_out"])
    _, c_cells = csv_cells(jobs["current_out"])
    at = header.index("Computing")
    for row in doc["rows"]:
        b, c = float(b_cells[(row["rank"], row["step"])][at]), float(c_cells[(row["rank"], row["step"])][at])
        assert row["diff"]["Computing"] == c - b
    assert [s["rank"] for s in doc["findings"]["new_slow_ranks"]] == [SLOW_RANK]
    assert [(s["src"], s["dst"]) for s in doc["findings"]["new_slow_links"]] == [SLOW_LINK]


def test_cli_xlsx_never_over_a_file_without_force(jobs, tmp_path, capsys):
    from openpyxl import load_workbook

    out = tmp_path / "cmp.xlsx"
    base, current = str(jobs["base_out"]), str(jobs["current_out"])
    assert main(["cluster", "compare", base, current, "--out", str(out)]) == 0
    assert capsys.readouterr().out.splitlines()[-1] == f"wrote {out}"
    book = load_workbook(out, read_only=True)
    assert book.sheetnames == [
        "ClusterTimeCompareSummary",
        "RankMeans",
        "ColumnTotals",
        "RegressedRanks",
        "Findings",
        "Unmatched",
        "Sources",
        "Warnings",
    ]
    summary = list(book["ClusterTimeCompareSummary"].iter_rows(values_only=True))
    assert summary[0][:6] == ("rank", "step", "Computing", "ComputingBase", "ComputingDiff", "ComputingRatio")
    header, b_cells = csv_cells(jobs["base_out"])
    _, c_cells = csv_cells(jobs["current_out"])
    at = header.index("Computing")
    five = next(r for r in summary[1:] if r[:2] == (SLOW_RANK, "1"))
    b, c = float(b_cells[(SLOW_RANK, "1")][at]), float(c_cells[(SLOW_RANK, "1")][at])
    assert five[2:4] == (c, b)
    assert five[4] == pytest.approx(c - b, rel=1e-15, abs=0), "openpyxl writes 16 significant digits"
    assert list(book["RegressedRanks"].iter_rows(values_only=True))[1][:2] == (SLOW_RANK, "Computing")
    book.close()
    stamp = out.read_bytes()

    assert main(["cluster", "compare", base, current, "--out", str(out)]) == 2
    err = capsys.readouterr().err
    assert err == f"error: {out}: exists; pass --force to replace it\n"
    assert out.read_bytes() == stamp
    assert main(["cluster", "compare", base, current, "--out", str(out), "--force"]) == 0
    capsys.readouterr()
    assert load_workbook(out, read_only=True).sheetnames[0] == "ClusterTimeCompareSummary"
    assert main(["cluster", "compare", base, current, "--out", str(tmp_path / "cmp.csv")]) == 2
    assert capsys.readouterr().err == f"error: --out {tmp_path / 'cmp.csv'}: expected an .xlsx file name\n"


def test_cli_bad_paths_are_one_line_errors(jobs, tmp_path, capsys):
    missing = tmp_path / "missing"
    assert main(["cluster", "compare", str(missing), str(jobs["current_out"])]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith(f"error: {missing}: ") and "not a folder" in err
    empty = tmp_path / "empty"
    empty.mkdir()
    assert main(["cluster", "compare", str(jobs["base_out"]), str(empty), "--out", str(tmp_path / "x.xlsx")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith(f"error: {empty}: no rank folders") and "Traceback" not in err
    assert not (tmp_path / "x.xlsx").exists()
