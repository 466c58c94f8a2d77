"""End to end: the smoke profile of pipelines/correia2019.py (the Table 1 sweep of three normalizers on de-en,
then every report file), and the numbers of table1_bleu.md against the run records."""
from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path

import pytest

from support import broken_links
from support import needs_reference
import warm

PROJECT = Path(__file__).resolve().parents[2]


def _table(text: str, heading: str) -> dict[str, list[str]]:
    lines = []
    for line in text.split(heading, 1)[1].splitlines():
        if line.startswith("|"):
            lines.append(line)
        elif lines:
            break
    rows = [[c.strip() for c in line.strip().strip("|").split("|")] for line in lines[2:]]
    return {r[0]: r for r in rows}


@needs_reference
@pytest.mark.slow
def test_smoke_pipeline(tmp_path):
    # W&B disabled and no torch.compile, as in test_peters2019_pipeline.py (each path is tested elsewhere)
    env = dict(os.environ, SPARSELAB_RUNS=str(tmp_path / "runs"), WANDB_MODE="disabled", SPARSELAB_COMPILE="0",
               OMP_NUM_THREADS="1",
               HF_DATASETS_OFFLINE="1", HF_HUB_OFFLINE="1")
    out = tmp_path / "report"
    # the speed benchmark (here --quick) before the sweeps, into the report folder, as `make reproduce-correia2019`
    # has the pipeline do (--benchmark; its order is tests/e2e/faults/test_benchmark_order.py)
    proc = warm.run([sys.executable, "benchmarks/bench_transformer_speed.py", "--profile", "smoke", "--quick",
                           "--device", "auto", "--breakdown", "never", "--threads", "1", "--out", str(out / "speed.md")],
                          cwd=PROJECT, env=env, capture_output=True, text=True, timeout=900)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    proc = warm.run([sys.executable, "pipelines/correia2019.py", "--profile", "smoke", "--out", str(out)],
                          cwd=PROJECT, env=env, capture_output=True, text=True, timeout=1800)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]

    from sparselab.reports.correia2019 import report as rep
    from sparselab.reports import mt_common
    from sparselab.reports.correia2019.runs import LABELS, collect, variant_of
    from sparselab.reports.tables import NONE

    for _, name, _ in rep.ARTIFACTS:
        assert (out / name).exists() and (out / name).stat().st_size > 0, name
    for variant in ("softmax", "entmax15", "alpha_entmax"):
        for kind in ("enc_self", "dec_self", "context"):
            assert (out / f"attention_maps_{variant}_{kind}.png").exists(), (variant, kind)
    recs, others = collect(tmp_path / "runs", "smoke")
    assert sorted(variant_of(r) for r in recs) == ["alpha_entmax", "entmax15", "output_alpha", "softmax"]
    assert not others
    out_alpha = next(r for r in recs if variant_of(r) == "output_alpha")
    assert 1.01 <= out_alpha["metrics"]["output_alpha"] <= 2.0 and out_alpha["extra"]["learned_alpha"]

    text = (out / "table1_bleu.md").read_text()
    tok, detok = _table(text, "## Tokenized BLEU"), _table(text, "## Detokenized SacreBLEU")
    for r in recs:
        label = LABELS[variant_of(r)]
        assert tok[label][1] == f"{r['metrics']['bleu_tok']:.2f}", label
        assert detok[label][1] == f"{r['metrics']['bleu']:.2f}", label
        paper = mt_common.paper_bleu(rep.reference(rep.PAPER), "table1_bleu", variant_of(r), "de-en")  # None: no row
        assert tok[label][2] == (NONE if variant_of(r) == "output_alpha" else f"{paper[0]:.2f}"), label
        assert tok[label][7] == "not run in this profile"
    assert "en-de: not run — not run in this profile (WMT14 training data" in text and "downloader" not in text
    assert "Profile: **smoke**" in text and "`multi30k/test2016`" in text and "iwslt17" in text
    # every BLEU file pair is there for the sacrebleu CLI: 4 runs x (test, iwslt17) x (detok, tok) x (hyp, ref)
    assert len(list((out / "bleu_files").iterdir())) == 32
    # the α-entmax run recorded its trajectory, which the analysis reads
    assert "| 0 | all heads |" in (out / "analysis.md").read_text()
    index = (out / "index.html").read_text()
    assert "<img src='figure2_alpha_trajectories.png'" in index and str(tmp_path) not in index
    assert "href='speed.md'" in index and "ratio to softmax" in index
    assert broken_links(out / "index.html") == []            # every link of the index opens a file (issue 18)
    # a clone: the report directory as committed, no run directories -> the same files, every figure redrawn; another
    # process rebuilding every byte is also the check that the reports are deterministic given the records
    before = {p.name: p.read_text() for p in out.glob("*.md")}
    written = {p.relative_to(out): p.read_bytes() for p in out.rglob("*") if p.is_file() and p.suffix != ".png"}
    clone = tmp_path / "clone" / "report"
    shutil.copytree(out, clone)
    for p in clone.glob("*.png"):
        p.unlink()
    proc = warm.run([sys.executable, "pipelines/correia2019.py", "--profile", "smoke", "--out", str(clone),
                           "--report-only"], cwd=PROJECT, env={**env, "SPARSELAB_RUNS": str(tmp_path / "clone" / "runs")},
                          capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert "reports rebuilt from the committed runs.jsonl and run_extras.jsonl (4 runs)" in proc.stdout
    assert {p.relative_to(clone): p.read_bytes() for p in clone.rglob("*") if p.is_file() and p.suffix != ".png"} \
        == written and before
    assert sorted(p.name for p in clone.glob("*.png")) == sorted(p.name for p in out.glob("*.png"))
    # every head's α at step 0 and at the end, and the untrained model's head statistics, in the records
    alpha = next(r for r in recs if variant_of(r) == "alpha_entmax")
    assert alpha["extra"]["heads_initial"]["density"] and "## Every head's α, step 0 and end" in before["analysis.md"]


def test_paper_plan_runs_the_four_columns_with_the_papers_validation_intervals():
    """The `paper` plan includes en-de (WMT14, data=mt_wmt14) and each direction validates as the paper: every 5k
    steps for de-en and ja-en, every 10k for ro-en and en-de; no plan or report says en-de lacks a downloader."""
    from hydra import compose, initialize_config_dir
    from omegaconf import OmegaConf

    from sparselab.engine import resolvers
    from sparselab.run import CONF_DIR

    sys.path.insert(0, str(PROJECT))
    from pipelines import correia2019 as pipe

    paper = pipe.PLANS["paper"]
    assert paper.options["pairs"] == ["de-en", "ja-en", "ro-en", "en-de"] and not paper.options["not_run"]
    assert "data.pair=de-en,ja-en,ro-en,en-de" in paper.sweeps[0][1]
    resolvers.register()
    want = {"de-en": 5000, "ja-en": 5000, "ro-en": 10000, "en-de": 10000}
    for pair, every in want.items():
        with initialize_config_dir(version_base="1.3", config_dir=str(CONF_DIR)):
            cfg = compose("config", overrides=[f"experiment={pipe.TABLE1}", "profile=paper", f"data.pair={pair}"])
        c = OmegaConf.to_container(cfg, resolve=True)
        assert c["trainer"]["val_check_interval"] == every, pair
    assert c["data"]["pairs"]["en-de"]["train"] == "wmt14/train"
    for plan in pipe.PLANS.values():
        assert not any("downloader" in reason for reason in plan.options["not_run"].values())
    assert not pipe.PLANS["cpu"].options["output_alpha"]
