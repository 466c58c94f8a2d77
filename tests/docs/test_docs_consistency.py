"""The README, the paper pages and `make help` say what the code does (issues 18 and 35)."""
from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

from support import load_script

PROJECT = Path(__file__).resolve().parents[2]
README = (PROJECT / "README.md").read_text(encoding="utf-8")


def section(title: str) -> str:
    return README.split(f"## {title}\n", 1)[1].split("\n## ", 1)[0]


def page(name: str) -> str:
    return (PROJECT / "docs" / f"{name}.md").read_text(encoding="utf-8")


def page_row(name: str, label: str) -> str:
    """The row of a page's profile table that starts with ``label``."""
    (row,) = [line for line in page(name).splitlines() if line.startswith(f"| {label} |")]
    return row


@pytest.mark.skipif(shutil.which("make") is None, reason="make not installed")
def test_make_help_names_both_parts_of_the_peters_target():
    out = subprocess.run(["make", "-s", "help"], cwd=PROJECT, capture_output=True, text=True, check=True).stdout
    (line,) = [x for x in out.splitlines() if x.split()[:1] == ["reproduce-peters2019"]]
    assert "inflection" in line and "translation" in line


def test_quick_start_shows_the_smoke_cpu_and_paper_commands_with_their_times():
    block = section("Quick start").split("```bash\n", 1)[1].split("```", 1)[0]
    commands = [line for line in block.splitlines() if line.startswith("make reproduce-peters2019")]
    assert len(commands) == 3
    smoke, full, paper = commands
    assert "PROFILE=smoke" in smoke and re.search(r"\d+ min", smoke)
    assert "PROFILE" not in full.split("#")[0] and "hours" in full
    assert "PROFILE=paper" in paper


def test_peters_cpu_time_is_the_committed_runs_time():
    """The page's and the README's cpu time of issue 32's plan come from the committed records: the inflection grid's
    fit time (a resumed job's counts from its last resume, so the sum is a lower bound) and the MT runs' training
    time (kept across resumes)."""
    import json

    def stored(name):
        path = PROJECT / "reports" / "peters2019" / "cpu" / name
        return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
    grid = [r["metrics"]["fit_time_s"] / 60 for r in stored("runs.jsonl")
            if r["config"]["experiment_name"] == "peters2019/table1_medium"]
    mt = [r["metrics"]["train_time_s"] / 3600 for r in stored("runs_mt.jsonl")]
    row = page_row("peters2019", "time measured")
    assert (f"{len(grid)} inflection runs of {min(grid):.0f}–{max(grid):.0f} min each "
            f"(at least {sum(grid) / 60:.1f} h of job time)") in row, row
    assert f"{len(mt)} MT runs of {min(mt):.1f}–{max(mt):.1f} h of training each ({sum(mt):.1f} h)" in row, row
    quick = " ".join(section("Quick start").split())
    assert f"at least {sum(grid) / 60 + sum(mt):.0f} h of job time" in quick, quick


def test_correia_cpu_time_is_the_committed_runs_training_time():
    import json

    row = page_row("correia2019", "time measured")
    lines = (PROJECT / "reports" / "correia2019" / "cpu" / "runs.jsonl").read_text(encoding="utf-8").splitlines()
    hours = [json.loads(line)["metrics"]["train_time_s"] / 3600 for line in lines]
    # the page's cpu time is the committed records' training time, not an estimate
    assert f"{len(hours)} runs of {min(hours):.1f}–{max(hours):.1f} h each" in row, row
    assert f"({sum(hours):.1f} h of job time)" in row, row


def test_hand_martins_smoke_command_runs_the_smoke_plan_lengths():
    mod = load_script("pipelines/martins2016.py", "martins_pipeline")
    (plan_lengths,) = [o for exp, overrides in mod.PLANS["smoke"].sweeps if exp == mod.F3 for o in overrides
                       if o.startswith("data.length=")]
    # the hand sweep of Figure 3 in the smoke profile (a command continued over two lines) in docs/running.md
    text = page("running").replace("\\\n", " ")
    (command,) = [line for line in text.splitlines()
                  if "experiment=martins2016/figure3_label_proportions profile=smoke" in line and "-m " in line]
    assert plan_lengths in command.split()
    assert "2 lengths" in page_row("martins2016", "Figure 3") and len(plan_lengths.split(",")) == 2
