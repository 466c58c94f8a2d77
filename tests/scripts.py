"""Load a repository script (a pipeline, a benchmark or a diagnosis: files outside the package) as a module, for tests."""
from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType

PROJECT = Path(__file__).resolve().parents[1]


def load_script(relpath: str, name: str | None = None) -> ModuleType:
    """Execute ``PROJECT/relpath`` as a fresh module named ``name`` (default: its file name)."""
    path = PROJECT / relpath
    spec = importlib.util.spec_from_file_location(name or path.stem, path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def rebuild_report_only(paper: str, committed: Path, records: int, tmp_path: Path, monkeypatch, capsys,
                        redraw: bool = True, planned: int | None = None) -> Path:
    """Rebuild a committed ``reports/<paper>/<profile>/`` in a clone with the pipeline's ``--report-only`` and no run
    directories; check that "N of M planned jobs" has N == ``records`` (no committed record orphaned) and M ==
    ``planned`` (default ``records``: the plan is done, none missing) and, with ``redraw``, that every figure came back (without it the committed PNGs stay in the clone). Returns the
    clone's folder for the caller's byte comparison."""
    import re
    import shutil

    from sparselab.reports.runner import main

    clone = tmp_path / "reports" / paper / committed.name
    shutil.copytree(committed, clone)
    for png in clone.glob("*.png") if redraw else ():
        png.unlink()                                  # every figure must come back from the records
    monkeypatch.setenv("SPARSELAB_RUNS", str(tmp_path / "no_runs"))
    mod = load_script(f"pipelines/{paper}.py", f"pipeline_{paper}")
    assert main(mod.report, mod.PLANS, ["--profile", committed.name, "--report-only", "--out", str(clone)]) == 0
    found = re.search(r"(\d+) of (\d+) planned jobs have a finished record", capsys.readouterr().out)
    assert found and int(found[1]) == records, "every committed record is a job of the plan, found once"
    assert int(found[2]) == (records if planned is None else planned), "the plan's size"
    assert sorted(p.name for p in clone.glob("*.png")) == sorted(p.name for p in committed.glob("*.png"))
    return clone


def rebuild_diagnosis(script: str, stored: Path, tmp_path: Path) -> str:
    """Run a diagnosis report script (``reports/<paper>/diagnosis/...``) on its stored ``.jsonl`` into ``tmp_path``;
    the text it wrote, which a test compares with the committed report beside ``stored``."""
    import subprocess
    import sys

    out = tmp_path / stored.with_suffix(".md").name
    proc = subprocess.run([sys.executable, str(PROJECT / script), str(stored), "--out", str(out)],
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    return out.read_text(encoding="utf-8")


def validations_saved(runs: Path) -> int:
    """Validations recorded in the job's last.ckpt (0 while there is none, or it is being written); read as the
    resumed job reads it, with weights_only=True (no unpickling of arbitrary objects)."""
    import torch

    for p in runs.rglob("checkpoints/last.ckpt"):
        try:
            return len(torch.load(p, map_location="cpu", weights_only=True)["sparselab"]["history"])
        except Exception:
            return 0
    return 0
