"""python -m sparselab.reports.sweep: a table and plots for any hand sweep, from its run records alone (issue 23)."""
import statistics
from pathlib import Path

import pandas as pd
import pytest

from sparselab.engine import record
from sparselab.reports import sweep
from support import header_table, section


def _rec(root: Path, name: str, alpha, seed, status="finished", metrics=None, error=None, **extra_cfg):
    cfg = {"seed": seed, "mapping": {"alpha": alpha, "attn_alpha": 1.5}, "paths": {"runs": str(root)},
           "experiment_name": "x/y", **extra_cfg}
    rec = {"status": status, "config": cfg, "metrics": metrics or {}}
    if error:
        rec["error"] = error
    record.write(root / name, rec)


def test_groups_by_config_values_not_folder_names(tmp_path, capsys):
    # folder names that lie about α: the table must follow the stored config
    _rec(tmp_path, "mapping.alpha=2.0,seed=0", 1.0, 0, metrics={"acc": 10.0, "loss": 1.0})
    _rec(tmp_path, "mapping.alpha=2.0,seed=1", 1.0, 1, metrics={"acc": 20.0, "loss": 3.0})
    _rec(tmp_path, "b/mapping.alpha=1.0,seed=0", 2.0, 0, metrics={"acc": 50.0, "loss": 0.5, "note": "text"})
    _rec(tmp_path, "b/mapping.alpha=1.0,seed=1", 2.0, 1, metrics={"acc": 70.0})
    assert sweep.main([str(tmp_path), "--by", "mapping.alpha", "--out", str(tmp_path / "out")]) == 0
    md = (tmp_path / "out" / "sweep.md").read_text()
    rows = {r["mapping.alpha"]: r for r in header_table(md)}
    assert list(rows) == ["1.0", "2.0"]
    assert rows["1.0"]["n"] == "2" and rows["1.0"]["acc"] == "15 ± 7.071" and rows["1.0"]["loss"] == "2 ± 1.414"
    assert rows["2.0"]["acc"] == "60 ± 14.14"
    assert rows["2.0"]["loss"] == "0.5 (n=1)"          # one run lacks the metric; one value has no std
    assert "note" not in md                              # non-numeric metrics are left out
    assert "None." in section(md, "## Failed")
    csv = pd.read_csv(tmp_path / "out" / "sweep.csv")
    assert csv["acc_mean"].tolist() == [15.0, 60.0] and csv["acc_std"][1] == pytest.approx(statistics.stdev([50, 70]))
    assert {p.name for p in (tmp_path / "out").glob("*.png")} == {"acc.png", "loss.png"}
    assert "4 records, 2 groups" in capsys.readouterr().out


def test_failed_running_and_missing_runs_are_listed(tmp_path):
    _rec(tmp_path, "r1", 1.0, 0, metrics={"acc": 10.0})
    _rec(tmp_path, "r2", 1.0, 1, metrics={"acc": 30.0})
    _rec(tmp_path, "r3", 1.5, 0, status="failed", error="ConfigError: mapping.alpha: a|b\nsecond line")
    _rec(tmp_path, "r4", 1.5, 1, status="running")
    _rec(tmp_path, "r5", 2.0, 0, metrics={"acc": 90.0})
    # (2.0, seed 1) never ran: no record at all
    assert sweep.main([str(tmp_path), "--by", "mapping.alpha", "--out", str(tmp_path / "out")]) == 0
    md = (tmp_path / "out" / "sweep.md").read_text()
    rows = {r["mapping.alpha"]: r for r in header_table(md)}
    assert rows["1.0"]["acc"] == "20 ± 14.14" and rows["1.0"]["n"] == "2"
    assert rows["1.5"]["n"] == "0" and rows["1.5"]["acc"] == "–"   # only failed / running runs: no numbers
    assert rows["2.0"]["acc"] == "90" and rows["2.0"]["n"] == "1"
    bad = header_table(section(md, "## Failed, running or missing runs"))
    got = {(r["mapping.alpha"], r["seed"]): r for r in bad}
    assert set(got) == {("1.5", "0"), ("1.5", "1"), ("2.0", "1")}
    assert got[("1.5", "0")]["status"] == "failed" and got[("1.5", "0")]["run"] == "r3"
    assert got[("1.5", "0")]["error"] == "ConfigError: mapping.alpha: a\\|b"   # first line only, | escaped
    assert got[("1.5", "1")]["status"] == "running (or killed)" and got[("1.5", "1")]["run"] == "r4"
    assert got[("2.0", "1")]["status"] == "no record"


def test_keys_pooled_inside_a_group_are_named(tmp_path):
    _rec(tmp_path, "a", 1.0, 0, metrics={"acc": 1.0}, task={"loss": "x"})
    _rec(tmp_path, "b", 1.0, 0, metrics={"acc": 3.0}, task={"loss": "y"})
    assert sweep.main([str(tmp_path), "--by", "mapping.alpha", "--out", str(tmp_path / "out")]) == 0
    md = (tmp_path / "out" / "sweep.md").read_text()
    assert "Rows pool runs that also differ in: `task.loss` (x, y)" in md
    assert "paths.runs" not in md


def test_two_keys_and_metric_selection(tmp_path):
    for i, (a, b) in enumerate([(1.0, "u"), (1.0, "v"), (2.0, "u"), (2.0, "v")]):
        _rec(tmp_path, f"r{i}", a, 0, metrics={"acc": float(i), "loss": 0.0}, task={"loss": b})
    assert sweep.main([str(tmp_path), "--by", "mapping.alpha", "--by", "task.loss", "--metric", "acc",
                       "--out", str(tmp_path / "out")]) == 0
    rows = header_table((tmp_path / "out" / "sweep.md").read_text())
    assert [(r["mapping.alpha"], r["task.loss"], r["acc"]) for r in rows] == [
        ("1.0", "u", "0"), ("1.0", "v", "1"), ("2.0", "u", "2"), ("2.0", "v", "3")]
    assert "loss" not in rows[0] and [p.name for p in (tmp_path / "out").glob("*.png")] == ["acc.png"]


@pytest.mark.parametrize("case", ["unknown_by", "unknown_metric", "empty", "absent"])
def test_user_errors_are_one_line_exit_2(tmp_path, capsys, case):
    _rec(tmp_path / "runs", "a", 1.0, 0, metrics={"acc": 1.0})
    _rec(tmp_path / "runs", "b", 1.5, 1, metrics={"acc": 2.0})
    (tmp_path / "empty").mkdir()
    argv, want = {
        "unknown_by": ([str(tmp_path / "runs"), "--by", "mapping.alfa"],
                       "error: --by mapping.alfa: not a config key of these runs; keys that vary across the 2 "
                       "records: mapping.alpha, seed"),
        "unknown_metric": ([str(tmp_path / "runs"), "--by", "mapping.alpha", "--metric", "bleu"],
                           "error: --metric bleu: not a metric of the finished runs; they have: acc"),
        "empty": ([str(tmp_path / "empty"), "--by", "mapping.alpha"],
                  f"error: {tmp_path / 'empty'}: no run records (run.json) under this folder"),
        "absent": ([str(tmp_path / "nope"), "--by", "mapping.alpha"], f"error: {tmp_path / 'nope'}: no such folder"),
    }[case]
    assert sweep.main(argv) == 2
    err = capsys.readouterr().err
    assert err.splitlines() == [want]
    assert not (tmp_path / "runs" / "sweep").exists()


# The sweep command on real smoke records: test_real_smoke_alpha_sweep_table_matches_records in
# tests/e2e/test_peters2019_pipeline.py, on the Peters smoke plan's Table 1 runs.


def test_a_metric_constant_over_the_runs_is_tabled_not_plotted(tmp_path):
    # n_languages is a count of the data, the same in every run: its plot would be a flat line (issue 35)
    for i, (alpha, acc) in enumerate([(1.0, 10.0), (1.5, 30.0), (2.0, 20.0)]):
        _rec(tmp_path, f"r{i}", alpha, 0, metrics={"acc": acc, "n_languages": 3})
    assert sweep.main([str(tmp_path), "--by", "mapping.alpha", "--out", str(tmp_path / "out")]) == 0
    md = (tmp_path / "out" / "sweep.md").read_text()
    assert [p.name for p in (tmp_path / "out").glob("*.png")] == ["acc.png"]
    assert "so not plotted: `n_languages`." in md and [r["n_languages"] for r in header_table(md)] == ["3"] * 3
