"""The README and `make help` say what the code does (issue 18, item 12)."""
from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

from scripts import load_script

PROJECT = Path(__file__).resolve().parents[1]
README = (PROJECT / "README.md").read_text(encoding="utf-8")


def section(title: str) -> str:
    return README.split(f"## {title}\n", 1)[1].split("\n## ", 1)[0]


def table_row(command: str) -> str:
    (row,) = [line for line in README.splitlines() if line.startswith(f"| `{command}` |")]
    return row


@pytest.mark.skipif(shutil.which("make") is None, reason="make not installed")
def test_make_help_names_both_parts_of_the_peters_target():
    out = subprocess.run(["make", "-s", "help"], cwd=PROJECT, capture_output=True, text=True, check=True).stdout
    (line,) = [x for x in out.splitlines() if x.split()[:1] == ["reproduce-peters2019"]]
    assert "inflection" in line and "translation" in line


def test_quick_start_shows_the_smoke_command_first_then_the_full_one_with_their_times():
    block = section("Quick start").split("```bash\n", 1)[1].split("```", 1)[0]
    commands = [line for line in block.splitlines() if line.startswith("make reproduce-peters2019")]
    assert len(commands) == 2
    smoke, full = commands
    assert "PROFILE=smoke" in smoke and re.search(r"\d+ min", smoke)
    assert "PROFILE" not in full.split("#")[0] and "10 h" in full
    # the measured parts of the cpu time, as the table's Peters rows say (inflection: 7.8 h of job time; translation:
    # 35–112 min per job)
    assert "7.8 h of" in section("Quick start") and "35–112 min" in section("Quick start")
    assert "7.8 h of job time" in table_row("make reproduce-peters2019")
    assert "35–112 min per job" in [r for r in README.splitlines()
                                    if r.startswith("| `make reproduce-peters2019` (transl")][0]


def test_correia_cpu_cell_does_not_contradict_itself():
    row = table_row("make reproduce-correia2019")
    # either it was run (a measured time) or not yet (said once), never both
    measured = "min per job" in row or "measured (" in row.lower()
    assert measured != ("not yet run" in row), row


def test_hand_martins_smoke_command_runs_the_smoke_plan_lengths():
    mod = load_script("pipelines/martins2016.py", "martins_pipeline")
    (plan_lengths,) = [o for exp, overrides in mod.PLANS["smoke"].sweeps if exp == mod.F3 for o in overrides
                       if o.startswith("data.length=")]
    # the README's hand sweep of Figure 3 in the smoke profile (a command continued over two lines)
    text = README.replace("\\\n", " ")
    (command,) = [line for line in text.splitlines()
                  if "experiment=martins2016/figure3_label_proportions profile=smoke" in line]
    assert plan_lengths in command.split()
    assert "2 lengths" in table_row("make reproduce-martins2016") and len(plan_lengths.split(",")) == 2
