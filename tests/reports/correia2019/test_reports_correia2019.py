"""sparselab.reports.correia2019 (+ _runs, _analysis, _heads) in-process, on hand-made run records of
correia2019/table1_bleu and correia2019/output_alpha (no training)."""
from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from sacrebleu.metrics import BLEU
from scipy import stats as st

from sparselab.engine import record
from sparselab.reports.claims import Verdict as V
from sparselab.reports.correia2019 import report as rep
from sparselab.reports.correia2019 import header, table1
from sparselab.reports.correia2019 import analysis as ana
from sparselab.reports.correia2019 import claims
from sparselab.reports.correia2019 import heads
from sparselab.reports.correia2019 import runs as runs_mod
from sparselab.reports.mt_common import BLEU_DIR, mean_std
from support import table, write_translations

REF = {
    "table1_bleu": {"columns": ["de-en IWSLT17", "ja-en KFTT", "ro-en WMT16", "en-de WMT14"],
                    "rows": {"softmax": [29.79, 21.57, 32.7, 26.02], "entmax15": [29.83, 22.13, 33.1, 25.89],
                             "alpha_entmax": [29.9, 21.74, 32.89, 26.93]}},
    "training_speed_vs_softmax": {"entmax15": 0.9, "alpha_entmax": 0.75},
    "positional_head_confidence_median": {"softmax": 0.935, "entmax15": 0.944, "alpha_entmax": 0.959},
    "bpe_merging_score": "no softmax head above 0.80",
    "training": "Transformer-Base",
    "reported_summary": "alpha trajectories first toward softmax",
}
OPTIONS = {"pairs": ["de-en"], "seeds": [0, 1], "output_alpha": True,
           "not_run": {"ja-en": "not run in this profile (budget)", "ro-en": "no training data offline (fetch it)"}}
HYPS = ["a man in an orange hat .", "two dogs play in the snow .", "a girl is running on the beach ."]
REFS = ["a man in an orange hat staring at something .", "two dogs are playing in the snow .",
        "a little girl runs on the beach ."]
NORMALIZERS = {"softmax": {"_target_": "sparselab.mappings.Entmax", "alpha": 1.0},
               "entmax15": {"_target_": "sparselab.mappings.Entmax", "alpha": 1.5},
               "alpha_entmax": {"_target_": "sparselab.mappings.Entmax", "learnable": True, "num_heads": 2,
                                "alpha_init": None}}
LAYERS = 3


def config(variant: str, seed: int, mixed: bool = False) -> dict:
    attn = "alpha_entmax" if variant == "output_alpha" else variant
    norms = {k: NORMALIZERS[attn] for k in ("enc_self", "dec_self", "context")}
    if mixed:
        norms["context"] = NORMALIZERS["softmax"]
    ps = {"train": "multi30k/train", "val": "multi30k/val", "test": "multi30k/test2016", "bpe_merges": 300,
          "bpe_joint": True, "extra_test": {"iwslt17": "iwslt2017/test"}}
    return {"experiment_name": runs_mod.OUTPUT_ALPHA if variant == "output_alpha" else runs_mod.TABLE1,
            "seed": seed, "profile": {"name": "smoke"}, "paths": {"runs": "/somewhere/runs"},
            "mapping": {"alpha": 1.0, "attn_alpha": {"softmax": 1.0, "entmax15": 1.5}.get(attn),
                        "attn_normalizer": NORMALIZERS[attn]},
            "model": {"enc_layers": LAYERS, "dec_layers": LAYERS, "heads": 2, "d_model": 32, "d_ff": 64,
                      "dropout": 0.0, "attn_dropout": 0.0, "tie_output": True, "normalizers": norms,
                      "output_normalizer": ({"_target_": "sparselab.mappings.Entmax", "learnable": True,
                                             "alpha_init": 1.5} if variant == "output_alpha" else None)},
            "data": {"pair": "de-en", "pairs": {"de-en": ps}, "root": "/somewhere/data"},
            "task": {"name": "transformer_translation", "lr": 0.003, "warmup_steps": 10, "alpha_lr": None,
                     "batch_tokens": 512, "early_stopping_patience": 5, "early_stopping_min_delta": 0.1, "beam": 5,
                     "length_norm": 0.0, "max_decode_len": 30},
            "trainer": {"max_steps": 40, "val_check_interval": 10}}


def per_layer(f) -> dict:
    return {str(layer): [f(layer, h) for h in range(2)] for layer in range(LAYERS)}


def head_stats(variant: str) -> dict:
    sparse = variant != "softmax"
    learned = variant in ("alpha_entmax", "output_alpha")
    js_level = {"softmax": 0.1, "entmax15": 0.3, "alpha_entmax": 0.4, "output_alpha": 0.4}[variant]
    conf = {"softmax": 0.9, "entmax15": 0.92}.get(variant, 0.95)
    return {
        # α-entmax: head 1 near dense (0.95), head 0 sparse; 1.5-entmax: every head in between
        "density": {k: per_layer(lambda layer, h: 1.0 if not sparse else 0.95 if learned and h == 1
                                 else 0.3 + 0.2 * h + 0.1 * layer)
                    for k in ("enc_self", "dec_self", "context")},
        # a middle-layer peak (layer 1 of 0-2) for every model
        "js": {k: {str(layer): js_level + (0.1 if layer == 1 else 0.0) for layer in range(LAYERS)}
               for k in ("enc_self", "dec_self", "context")},
        # encoder layer 0 head 1 is a previous-token head (argmax share 0.95, confidence 0.9)
        "positional": {k: {str(layer): {"prev": [0.1, conf if (k, layer) == ("enc_self", 0) else 0.2],
                                        "next": [0.05, 0.1], "next_argmax": [0.1, 0.1],
                                        "prev_argmax": [0.1, 0.95 if (k, layer) == ("enc_self", 0) else 0.2]}
                           for layer in range(LAYERS)} for k in ("enc_self", "dec_self")},
        "bpe_merging": {k: per_layer(lambda layer, h: 0.5 + 0.1 * layer + 0.01 * h + (0.1 if sparse else 0.0))
                        for k in ("enc_self", "dec_self")},
        "bpe_words": {"enc_self": 107, "dec_self": 115},
        "interrogation": {k: per_layer(lambda layer, h: 0.0 if k == "enc_self" else 0.2 * h + 0.1 * layer)
                          for k in ("enc_self", "dec_self")},
        "interrogation_queries": {"enc_self": 0, "dec_self": 4},
        "examples": [{"index": 3, "src": ["Ein", "Hund", "."], "tgt_in": ["<s>", "A", "dog"],
                      "enc_self": [[[[0.5, 0.5, 0.0], [0.0, 1.0, 0.0], [0.2, 0.3, 0.5]]] * 2] * LAYERS,
                      "dec_self": [[[[1.0, 0.0, 0.0], [0.5, 0.5, 0.0], [0.0, 0.0, 1.0]]] * 2] * LAYERS,
                      "context": [[[[0.0, 1.0, 0.0], [1.0, 0.0, 0.0], [0.3, 0.3, 0.4]]] * 2] * LAYERS}],
    }


def initial_stats() -> dict:
    """The untrained model: every head dense, JS flat and low, no BPE-merging head."""
    return {"density": {k: per_layer(lambda layer, h: 1.0) for k in ("enc_self", "dec_self", "context")},
            "js": {k: {str(layer): 0.05 for layer in range(LAYERS)} for k in ("enc_self", "dec_self", "context")},
            "bpe_merging": {k: per_layer(lambda layer, h: 0.2) for k in ("enc_self", "dec_self")},
            "bpe_words": {"enc_self": 107, "dec_self": 115}, "interrogation_queries": {"enc_self": 0, "dec_self": 4}}


def alpha_trajectory() -> dict:
    """Every head starts apart (1.4–1.6), falls by 0.2 at step 10, then rises to 0.1 above its start at step 20:
    the paper's pattern, mean 1.5 -> 1.3 -> 1.6."""
    hist = []
    for step, shift in ((0, 0.0), (10, -0.2), (20, 0.1)):
        hist.append({"step": step, "alpha": {f"{k}/l{layer}": [1.4 + 0.05 * layer + 0.1 * h + shift for h in range(2)]
                                             for k in ("enc_self", "dec_self", "context") for layer in range(LAYERS)}})
    return {"every_n_steps": 10, "history": hist}


# encoder α's in two clumps (near 1 and near 2); context and decoder α's in one
LEARNED = {"enc_self": {"0": [1.02, 1.98], "1": [1.05, 1.95], "2": [1.03, 1.97]},
           "dec_self": {"0": [1.4, 1.5], "1": [1.45, 1.55], "2": [1.5, 1.6]},
           "context": {"0": [1.3, 1.5], "1": [1.4, 1.45], "2": [1.5, 1.7]}}


def make_record(run_dir: Path, variant: str, seed: int, n_hyps: int = 3, speed: float = 1000.0,
                stopped: bool = False, mixed: bool = False) -> dict:
    hyps = HYPS[:n_hyps] + REFS[n_hyps:]
    files, scores = write_translations(run_dir, "multi30k-test2016", hyps, REFS)
    efiles, escores = write_translations(run_dir, "iwslt17-iwslt2017-test", HYPS[:1] + REFS[1:], REFS)
    val_acc = 40.0 + n_hyps + seed
    learned = variant in ("alpha_entmax", "output_alpha")
    metrics = {**scores, "bleu_iwslt17": escores["bleu"], "bleu_tok_iwslt17": escores["bleu_tok"],
               "val_acc_best": val_acc, "steps": 30.0, "best_step": 20.0, "train_tgt_tokens_per_s": speed,
               "output_alpha": 1.7 if variant == "output_alpha" else 1.0, "train_time_s": 12.0}
    rec = {"status": "finished", "experiment": config(variant, seed)["experiment_name"],
           "config": config(variant, seed, mixed), "config_hash": f"{variant}-{seed}-{mixed}", "git_commit": "abc",
           "finished_at": "2026-01-01T00:00:00", "threads": 1, "wall_time_s": 60.0, "metrics": metrics,
           "extra": {"pair": "de-en", "tgt_lang": "en", "corpus": "multi30k",
                     "splits": {"train": {"spec": "multi30k/train", "n": 300}, "val": {"spec": "multi30k/val", "n": 20},
                                "test": {"spec": "multi30k/test2016", "n": 3},
                                "extra:iwslt17": {"spec": "iwslt2017/test", "n": 3}},
                     "preprocessing": {"bpe": {"merges_learned": {"joint": 300}}},
                     "history": [{"step": 10, "val_acc": 10.0}, {"step": 20, "val_acc": val_acc},
                                 {"step": 30, "val_acc": val_acc - 1}],
                     "stopped_early": stopped,
                     "bleu_tokenization": "bleu: SacreBLEU tokenize=13a; bleu_tok: tokenize=none",
                     "test": {"spec": "multi30k/test2016", "files": files, "bleu_signature": "nrefs:1|tok:13a",
                              "bleu_tok_signature": "nrefs:1|tok:none"},
                     "extra_test": {"iwslt17": {"spec": "iwslt2017/test", "files": efiles,
                                                "metrics": {**escores, "n": 3.0}}},
                     "alpha_trajectory": alpha_trajectory() if learned else {"every_n_steps": 10, "history": []},
                     "learned_alpha": LEARNED if learned else {},
                     "heads": head_stats(variant), "heads_initial": initial_stats()}}
    record.write(run_dir, rec)
    return rec


@pytest.fixture
def runs(tmp_path):
    return make_runs(tmp_path)


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    """The runs of :func:`make_runs` and their reports, written once for the tests that only read them."""
    base = tmp_path_factory.mktemp("correia_built")
    root = make_runs(base)
    rep.write_reports("smoke", base / "report", OPTIONS, root, REF)
    return root, base / "report"


def make_runs(tmp_path):
    """de-en: softmax seeds 0 and 1, 1.5-entmax and α-entmax seed 0, the learned output α seed 0; a run with mixed
    normalizers (left out) and a failed run (ignored)."""
    root = tmp_path / "runs"
    t1 = root / "smoke" / runs_mod.TABLE1
    make_record(t1 / "mapping=softmax,seed=0", "softmax", 0, n_hyps=3, speed=1000.0)
    make_record(t1 / "mapping=softmax,seed=1", "softmax", 1, n_hyps=2, speed=1000.0)
    make_record(t1 / "mapping=entmax15,seed=0", "entmax15", 0, n_hyps=1, speed=900.0, stopped=True)
    make_record(t1 / "mapping=alpha_entmax,seed=0", "alpha_entmax", 0, n_hyps=2, speed=500.0)
    make_record(t1 / "run" / "mixed", "entmax15", 0, mixed=True)
    failed = make_record(t1 / "failed", "alpha_entmax", 1)
    record.write(t1 / "failed", {**failed, "status": "failed"})
    make_record(root / "smoke" / runs_mod.OUTPUT_ALPHA / "mapping=alpha_entmax", "output_alpha", 0, n_hyps=3)
    return root



# ---------------------------------------------------------------- which run is which
def test_variant_of_the_composed_configs_and_the_wandb_grouping():
    """The report and the W&B run set tell the mapping group's three choices and the output-α run apart from
    the configs the runs really get."""
    from hydra import compose, initialize_config_dir
    from omegaconf import OmegaConf

    from sparselab.engine import resolvers
    from sparselab.reports.correia2019 import wandb as correia_wandb
    from sparselab.run import CONF_DIR

    resolvers.register()
    cases = [("correia2019/table1_bleu", m, m) for m in ("softmax", "entmax15", "alpha_entmax")]
    cases.append(("correia2019/output_alpha", "alpha_entmax", "output_alpha"))
    groups = set()
    for experiment, mapping, want in cases:
        with initialize_config_dir(version_base="1.3", config_dir=str(CONF_DIR)):
            cfg = compose("config", overrides=[f"experiment={experiment}", "profile=smoke", f"mapping={mapping}"])
        c = OmegaConf.to_container(cfg, resolve=True)
        assert runs_mod.variant_of({"config": c}) == want, (experiment, mapping)
        flat = OmegaConf.create(c)
        groups.add(tuple(str(OmegaConf.select(flat, k.removeprefix("config.")))
                         for k in correia_wandb.CORREIA_NORMALIZER))
        assert c["task"]["name"] == correia_wandb.CORREIA_TASK
    assert len(groups) == 4


def test_collect_keeps_table1_cells_and_names_the_others(runs):
    recs, others = runs_mod.collect(runs, "smoke")
    assert [(runs_mod.variant_of(r), runs_mod.seed_of(r)) for r in recs] == [
        ("softmax", 0), ("softmax", 1), ("entmax15", 0), ("alpha_entmax", 0), ("output_alpha", 0)]
    assert [Path(r["run_dir"]).name for r in others] == ["mixed"]


# ---------------------------------------------------------------- Table 1
def test_table1_cells_match_the_records_and_the_paper(built):
    runs, out = built
    text = (out / "table1_bleu.md").read_text()
    recs = {(runs_mod.variant_of(r), runs_mod.seed_of(r)): r for r in runs_mod.collect(runs, "smoke")[0]}
    tok = {row[0]: row for row in table(text, "## Tokenized BLEU")}
    soft = [recs[("softmax", s)]["metrics"]["bleu_tok"] for s in (0, 1)]
    assert tok["softmax"][1:3] == [mean_std(soft), "29.79"] and "±" in tok["softmax"][1]
    assert tok["α-entmax"][1:3] == [f"{recs[('alpha_entmax', 0)]['metrics']['bleu_tok']:.2f}", "29.90"]
    assert tok["softmax"][3] == "not run in this profile" and tok["softmax"][5] == "no training data offline"
    assert tok["1.5-entmax"][7] == "not run in this profile" and tok["1.5-entmax"][8] == "25.89"
    assert "downloader" not in text and "not configured" not in text
    learned = tok[runs_mod.LABELS["output_alpha"]]
    assert learned[1] == f"{recs[('output_alpha', 0)]['metrics']['bleu_tok']:.2f}" and learned[2] == "–"
    detok = {row[0]: row for row in table(text, "## Detokenized SacreBLEU")}
    assert detok["1.5-entmax"][1] == f"{recs[('entmax15', 0)]['metrics']['bleu']:.2f}"
    assert "Table 1 scored on `multi30k/test2016` (3 sentences)" in text and "paper: IWSLT17 test" in text
    assert "Left out: 1 finished run(s)" in text and "`smoke/correia2019/table1_bleu/run/mixed`" in text
    assert "/somewhere" not in text and str(out.parent) not in text
    conv = table(text, "## Convergence of each run")
    assert [r[10] for r in conv].count("no: ended at step 30 of the 40 budget (early stopping)") == 1
    assert len(conv) == 5 and "equal budgets: **no**" in text
    # the Table 1 claim, by the paired bootstrap on the files copied beside the report
    assert "## The paper's claims on BLEU (rows of `claims.md`)" in text and \
        "| sparse attention costs no BLEU: 1.5-entmax (§4, Table 1) | de-en: tokenized test BLEU" in text
    # val_acc_best = 40 + n_hyps + seed: softmax (43 + 43) / 2, 1.5-entmax 41, α-entmax 42
    assert ("de-en: the Table 1 models lie within 2.00 points of best validation token accuracy (softmax 43.00, "
            "1.5-entmax 41.00, α-entmax 42.00)") in text
    # speed comes from the side-by-side benchmark only, never from runs that shared the machine
    speed = text.split("## Training speed")[1]
    assert "tokens/s" not in speed and "`speed.md`" in speed


def test_output_alpha_verdict_is_read_from_the_numbers(runs):
    recs = runs_mod.collect(runs, "smoke")[0]
    base = next(r for r in recs if runs_mod.variant_of(r) == "alpha_entmax")["metrics"]["bleu_tok"]
    learned = next(r for r in recs if runs_mod.variant_of(r) == "output_alpha")["metrics"]["bleu_tok"]
    assert learned < base                      # no copied reference line against one: lower BLEU
    (line,) = table1.output_alpha_verdict(recs)
    assert line.startswith("- de-en: the learned output α does not help") and f"{learned - base:+.2f}" in line
    rows = table1.output_alpha_rows(recs)
    assert rows[-1][:5] == ["de-en", "output α (final)", "1 (softmax)", 1, "1.700"]


def test_bleu_files_reproduce_every_bleu(built):
    _, out = built
    text = (out / "table1_bleu.md").read_text()
    rows = table(text, "## Re-checking every BLEU")
    assert len(rows) == 5 * 2 * 2                      # runs x (test, iwslt17) x (detok, tok)
    for stem, bleu, _, tokenize in rows:
        hyp = (out / BLEU_DIR / f"{stem}.hyp.txt").read_text().splitlines()
        ref = (out / BLEU_DIR / f"{stem}.ref.txt").read_text().splitlines()
        assert f"{BLEU(tokenize=tokenize, force=True).corpus_score(hyp, [ref]).score:.2f}" == bleu, stem
    assert (out / BLEU_DIR / "de-en.output_alpha.seed0.iwslt17.tok.hyp.txt").exists()


# ---------------------------------------------------------------- analyses
def test_trajectory_summary_sees_down_then_up_and_monotone():
    s = ana.trajectory_summary(alpha_trajectory()["history"])["all"]
    assert s["first_down"] and s["then_up"] and s["lowest_step"] == 10 and s["share_heads_down_then_up"] == 1.0
    flat = [{"step": t, "alpha": {"enc_self/l0": [1.5 + 0.1 * i, 1.2]}} for i, t in enumerate((0, 10, 20))]
    e = ana.trajectory_summary(flat)["enc_self"]
    assert not e["first_down"] and e["lowest_step"] == 0 and e["share_heads_down_then_up"] == 0.0


def test_bimodality_check():
    two = [1.02, 1.05, 1.03, 1.98, 1.95, 1.97]
    one = [1.4, 1.45, 1.5, 1.5, 1.55, 1.6, 1.5, 1.48]
    assert ana.bimodality_coefficient(two) > ana.BC_UNIFORM > ana.bimodality_coefficient(one)
    assert ana.bimodality_coefficient([1.2, 1.8, 1.5]) is None and ana.bimodality_coefficient([1.5] * 5) is None
    assert ana.is_bimodal(ana.alpha_stats(two)) and not ana.is_bimodal(ana.alpha_stats(one))


def test_analysis_text_states_each_claim_from_the_records(built):
    _, out = built
    text = (out / "analysis.md").read_text()
    assert "The claims these numbers test: `claims.md`." in text and "**holds**" not in text
    claims_md = (out / "claims.md").read_text()
    rows = [line for line in claims_md.splitlines() if line.startswith("| ") and "§" in line]
    assert len(rows) >= 22                            # every claim of §4–5 has its row, tested or not
    assert "| \"most heads first move toward softmax\" (§5, Figure 2) |" in claims_md
    assert "| \"both sparse variants show more diversity than softmax\" (§5, Figure 6) |" in claims_md
    assert "## State of the claims" in claims_md
    per_head = table(text, "## Every head's α")
    assert len(per_head) == 18 and per_head[0] == ["encoder self-attention", "0", "0", "1.400", "1.200 (10)", "1.500",
                                                   "1.020", "-0.380", "fell, then rose"]
    js = {r[0] + r[1]: r for r in table(text, "## Figure 6")}
    assert js["encoder self-attention1"][2:] == ["0.200", "0.400", "0.500", "0.200", "0.300"]
    dens = {(r[0], r[1]): r for r in table(text, "## Figures 4 and 5")}
    assert dens[("softmax", "context attention")][3] == "1.000"


# ---------------------------------------------------------------- the rules, one by one
def _path(*alphas):
    return [{"step": 100 * i, "alpha": {"enc_self/l0": list(a)}} for i, a in enumerate(alphas)]


def _traj_run(*alphas):
    return {"config": config("alpha_entmax", 0), "extra": {"alpha_trajectory": {"history": _path(*alphas)}}}


def test_trajectory_rows_are_a_binomial_test_and_a_count():
    start = [1.2, 1.4, 1.6, 1.8] * 3
    first, then = claims.trajectory_claims([_traj_run(start, [a - 0.2 for a in start], [a - 0.05 for a in start])])
    assert first.verdict is V.HOLDS and first.p == pytest.approx(st.binomtest(12, 12, 0.5).pvalue)
    # back up by 0.15 ≥ τ 0.11; the turn at step 100, where α's lr (peak 0.003, warm-up 10) sums to 0.003 x ~47
    assert abs(ana.alpha_room(0.003, 10, 100) - 0.14) < 0.01
    assert then.verdict is V.HOLDS and then.detail == ("12 of 12 heads (encoder self-attention 12); turn (lowest α) "
                                                       "at step 100 (median; 100–100), α's summed lr there 0.1")
    first, then = claims.trajectory_claims([_traj_run(start, [a + 0.2 for a in start])])
    assert first.verdict is V.FAILS and then.verdict is V.FAILS
    assert claims.trajectory_claims([])[0].verdict is V.UNTESTED
    assert abs(claims.move_threshold(start[:4]) - 0.5 * 0.2236) < 1e-3 and claims.move_threshold([1.5] * 4) == 0.01


def _alpha_run(start: list[float], end: list[float]) -> dict:
    n = len(start)
    return {"extra": {"alpha_trajectory": {"history": [{"step": 0, "alpha": {"enc_self/l0": start}}]},
                      "learned_alpha": {"enc_self": {"0": end}}}} if n else {}


def test_bimodality_by_the_bc_interval_and_the_step_0_control_by_a_paired_bootstrap():
    rng = np.random.default_rng(1)
    start = list(1.5 + 0.05 * rng.standard_normal(32))            # one clump at step 0
    two = [1.05 + 0.01 * (i % 3) for i in range(16)] + [1.95 - 0.01 * (i % 3) for i in range(16)]
    enc, _, _, ours, modes = claims.bimodality_claims([_alpha_run(start, two)])
    assert enc.verdict is V.HOLDS and enc.ci[0] > ana.BC_UNIFORM
    assert ours.ours and ours.verdict is V.HOLDS and ours.ci[0] > 0              # BC rose on the same heads
    assert modes.verdict is V.HOLDS and modes.detail == "upper 1.94, lower 1.06"
    enc, _, _, ours, modes = claims.bimodality_claims([_alpha_run(start, start)])
    assert enc.verdict is not V.HOLDS and ours.verdict is V.INCONCLUSIVE and modes.verdict is V.UNTESTED
    run = _alpha_run(start, two)
    run["extra"]["learned_alpha"] = {"context": {"0": two}}
    run["extra"]["alpha_trajectory"]["history"][0]["alpha"] = {"context/l0": start}
    assert claims.bimodality_claims([run])[2].verdict is V.FAILS                 # context: bimodal, paper unimodal


def _heads_run(js_end, js0=None, density=None, density0=None) -> dict:
    e = {"heads": {"js": {"enc_self": js_end}}}
    if js0 is not None:
        e["heads_initial"] = {"js": {"enc_self": js0}}
    if density is not None:
        e["heads"]["density"] = {"enc_self": {"0": density}}
        e["heads_initial"] = {**e.get("heads_initial", {}), "density": {"enc_self": {"0": density0}}}
    return {"extra": e}


def test_js_sentence_as_written_by_a_sign_test_and_ours_against_step_0():
    soft0, soft = {"0": 0.02, "1": 0.02, "2": 0.02}, {"0": 0.1, "1": 0.1, "2": 0.1}
    sparse0, sparse = {"0": 0.22, "1": 0.22, "2": 0.22}, {"0": 0.28, "1": 0.4, "2": 0.28}
    runs = {"softmax": [_heads_run(soft, soft0)] * 2, "entmax15": [_heads_run(sparse, sparse0)] * 2}
    higher, ours, peak = claims.js_claims(runs)
    assert higher.p == pytest.approx(st.binomtest(3, 3, 0.5).pvalue) and higher.verdict is V.INCONCLUSIVE  # 3 layers
    assert ours.ours and ours.estimate == pytest.approx((-0.02 + 0.10 - 0.02) / 3)
    assert peak.verdict is V.HOLDS or peak.verdict is V.INCONCLUSIVE
    more = {"softmax": [_heads_run({str(i): 0.1 for i in range(6)}, {str(i): 0.1 for i in range(6)})] * 2,
            "entmax15": [_heads_run({str(i): 0.2 + 0.01 * i for i in range(6)}, {str(i): 0.3 for i in range(6)})] * 2}
    higher, ours, _ = claims.js_claims(more)
    assert higher.verdict is V.HOLDS and ours.verdict is V.FAILS       # higher than softmax, less than at step 0


def test_density_rows_paired_over_heads():
    dense0 = [1.0] * 8
    alpha = [0.95, 0.97, 0.2, 0.3, 0.92, 0.25, 0.99, 0.3]
    fixed = [0.5, 0.55, 0.6, 0.45, 0.5, 0.52, 0.58, 0.48]
    runs = {"entmax15": [_heads_run({}, {}, fixed, dense0)], "alpha_entmax": [_heads_run({}, {}, alpha, dense0)]}
    paper, ours = claims.density_claims(runs)[:2]
    assert paper.verdict is V.HOLDS and ours.verdict is V.HOLDS
    runs["alpha_entmax"] = [_heads_run({}, {}, [0.5, 0.6] * 4, dense0)]
    assert claims.density_claims(runs)[0].verdict is V.FAILS               # no near-dense mode


def _bpe_run(scores: list[float], scores0: list[float]) -> dict:
    """One run whose encoder self-attention layer 0 has these BPE-merging scores (0 multi-piece words: none)."""
    return {"extra": {"heads": {"bpe_merging": {"enc_self": {"0": scores}}, "bpe_words": {"enc_self": 50}},
                      "heads_initial": {"bpe_merging": {"enc_self": {"0": scores0}}}}}


def test_bpe_rows_the_papers_definition_untested_and_ours_labelled():
    low = [0.2] * 8
    runs = {"softmax": [_bpe_run([0.337] + low[1:], low)], "entmax15": [_bpe_run([0.83, 0.86] + low[2:], low)],
            "alpha_entmax": [_bpe_run([0.89, 0.9] + low[2:], low)]}
    rows = claims.role_claims(runs, REF)
    paper, ours = rows[1], rows[2]
    assert paper.verdict is V.UNTESTED and "1-token clusters" in paper.reason and not paper.ours
    assert ours.ours and ours.verdict is V.HOLDS
    runs["entmax15"] = [_bpe_run([0.83] + low[1:], low)]
    assert claims.role_claims(runs, REF)[2].verdict is V.FAILS
    assert claims.paper_bpe_threshold(REF) == 0.8


def _bleu_files(folder: Path, stem: str, hyps: list[str], refs: list[str]) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / f"{stem}.tok.hyp.txt").write_text("".join(h + "\n" for h in hyps), encoding="utf-8")
    (folder / f"{stem}.tok.ref.txt").write_text("".join(r + "\n" for r in refs), encoding="utf-8")


def test_table1_rows_non_inferiority_on_the_combined_bootstrap(tmp_path):
    refs = [f"sentence {i} has the words w{i} and v{i} in it ." for i in range(60)]
    worse = [f"sentence {i} x y z ." for i in range(60)]
    stem = lambda r, s: f"de-en.{runs_mod.variant_of(r)}.seed{runs_mod.seed_of(r)}.{s}"  # noqa: E731

    def rec(variant, seed, bleu):
        return {"config": config(variant, seed), "metrics": {"bleu_tok": bleu}}

    folder = tmp_path / "one"
    for v, h in (("softmax", refs), ("entmax15", worse), ("alpha_entmax", refs)):
        _bleu_files(folder, f"de-en.{v}.seed0.test", h, refs)
    recs = [rec("softmax", 0, 100.0), rec("entmax15", 0, 10.0), rec("alpha_entmax", 0, 100.0)]
    ent, alpha, higher = claims.bleu_claims(folder, recs, stem, REF)
    assert ent.verdict is V.FAILS and ent.estimate < -50 and "1 seed" in ent.test
    assert alpha.verdict is V.HOLDS and alpha.estimate == 0          # identical output: no loss, zero variance
    assert higher.verdict is V.FAILS
    (folder / "de-en.alpha_entmax.seed0.test.tok.hyp.txt").unlink()
    assert claims.bleu_claims(folder, recs, stem, REF)[0].label.startswith("untested (BLEU files missing")


# ---------------------------------------------------------------- convergence and the scaling rule
def _curve(values, every=250):
    return [{"step": every * (i + 1), "val_acc": v} for i, v in enumerate(values)]


def test_convergence_rule_trend_and_record():
    from sparselab.reports.mt_common import convergence

    rising = _curve([50 + 0.1 * i for i in range(20)])                     # +0.8 over the last 2,000 steps
    c = convergence(rising)
    assert c["stopped"] is False and abs(c["trend"] - 0.8) < 1e-9 and abs(c["record"] - 0.8) < 1e-9
    flat = _curve([60.0, 60.2, 59.9, 60.1] * 5)                            # a plateau with noise
    assert convergence(flat)["stopped"] is True
    peak = _curve([60.0] * 16 + [60.5, 60.0, 60.0, 60.0])                  # a late record of +0.5
    assert convergence(peak)["record"] == 0.5 and convergence(peak)["stopped"] is False
    assert convergence(_curve([1.0, 2.0]))["stopped"] is None and convergence([])["stopped"] is None


def test_budget_verdict_and_equal_budgets():
    def rec(variant, seed, curve, steps, stopped=False):
        c = config(variant, seed)
        c["trainer"]["max_steps"] = 5000
        return {"config": c, "metrics": {"steps": float(steps)}, "extra": {"history": curve, "stopped_early": stopped}}

    flat = _curve([60.0, 60.2, 59.9, 60.1] * 5)
    recs = [rec(v, 0, flat, 5000) for v in ("softmax", "entmax15", "alpha_entmax")]
    assert all(table1.budget_verdict(r)["why"] == "yes" for r in recs)
    lines = table1.equal_budget_lines(recs)
    assert lines[0].startswith("one step budget and one schedule") and "(the same for every run)" in lines[1]
    assert lines[3].startswith("equal budgets: **yes**")
    recs[1] = rec("entmax15", 0, flat[:12], 3000, stopped=True)
    assert table1.budget_verdict(recs[1])["why"] == "no: ended at step 3000 of the 5000 budget (early stopping)"
    assert table1.equal_budget_lines(recs)[3].startswith("equal budgets: **no**")
    recs[1] = rec("entmax15", 0, _curve([50 + 0.1 * i for i in range(20)]), 5000)
    assert table1.budget_verdict(recs[1])["why"] == "no: still improving at the budget"


def test_scaling_rule_of_the_cpu_profile():
    """The cpu Table 1 config states the scaling rule with no deviation: warm-up 10 % as the paper profile's, α at
    the model's learning rate (its room over the budget computed from the schedule), one fixed budget."""
    from hydra import compose, initialize_config_dir
    from omegaconf import OmegaConf

    from sparselab.run import CONF_DIR

    with initialize_config_dir(version_base="1.3", config_dir=str(CONF_DIR)):
        c = compose("config", overrides=["experiment=correia2019/table1_bleu", "profile=cpu", "data.pair=de-en"])
    cpu = {k: OmegaConf.to_container(c[k], resolve=True) for k in ("task", "trainer", "model", "data")}
    lines = header.scaling_rule(cpu, header.paper_profile_config())
    text = "\n".join(lines)
    assert "warm-up: 1,200 steps = 10% of the step budget, the paper profile's fraction (20,000 of 200,000)" in text
    assert "the same optimiser, schedule and peak learning rate as every other weight" in text
    assert "every 250 steps, 48 validations in the budget (paper profile every 5,000 of 200,000: 40)" in text
    assert "one fixed step budget for the three models, no early stopping" in text
    assert "corpus multi30k instead of the paper's" in text and "heads 8 (paper 8)" in text
    # the room Adam gives α: 1e-3 x (600 over the warm-up + ~5,190 after it)
    assert abs(ana.alpha_room(1e-3, 1200, 12000) - 5.79) < 0.02


def test_speed_md_must_name_the_table1_model(runs, tmp_path):
    recs = runs_mod.collect(runs, "smoke")[0]
    line = ("- model: Transformer, 3 encoder / 3 decoder layers, {} heads, d 32, FF 64, dropout 0.0; joint vocabulary "
            "300 (tied output: True); the normalizer in every attention block, softmax output (cross-entropy) in all "
            "three; α-entmax learns {} α's\n")
    assert table1.speed_model_check(tmp_path, recs) == ""                     # no speed.md: nothing to say
    (tmp_path / "speed.md").write_text(line.format(2, 18))                 # 2 heads x (3 + 2 x 3) layers
    assert table1.speed_model_check(tmp_path, recs).endswith("measured the Table 1 model (3 + 3 layers, 2 heads, d 32, "
                                                          "FF 64, 18 α's).")
    (tmp_path / "speed.md").write_text(line.format(4, 36))
    assert table1.speed_model_check(tmp_path, recs).startswith("**`speed.md` is stale**: it measured 3 + 3 layers, 4 heads")


# ---------------------------------------------------------------- head roles
def test_head_roles_against_the_paper(runs):
    recs = runs_mod.collect(runs, "smoke")[0]
    text = heads.head_roles_text("smoke", OPTIONS, recs, REF)
    pos = table(text, "## Positional heads")
    prev_enc = [r for r in pos if r[2].startswith("encoder") and r[3] == "previous"]
    assert [r[4:7] for r in prev_enc] == [["1 of 6", c, m] for c, m in (("0.900", "0.935"), ("0.900", "0.935"),
                                                                          ("0.920", "0.944"), ("0.950", "0.959"))]
    assert prev_enc[0][7] == "l0 h1: argmax share 0.950, mean weight 0.900"
    assert "- α-entmax: 1 previous-token heads, median confidence 0.950 (paper 0.959)" in text
    bpe = table(text, "## BPE-merging heads")
    assert bpe[0][3:5] == ["107", "l2 h1 0.710, l2 h0 0.700"]
    ask = table(text, "## Interrogation heads")
    assert ask[0][3:5] == ["0", "no question sentences in the validation set"]
    assert ask[1][3:5] == ["4", "l2 h1 0.400, l1 h1 0.300"]


# ---------------------------------------------------------------- every file
def test_write_reports_writes_every_artefact_deterministically(runs, tmp_path):
    out = tmp_path / "report"
    recs = rep.write_reports("smoke", out, OPTIONS, runs, REF)
    assert len(recs) == 5
    for _, name, _ in rep.ARTIFACTS:
        assert name == table1.SPEED or (out / name).stat().st_size > 0, name
    maps = sorted(p.name for p in out.glob("attention_maps_*.png"))
    assert len(maps) == 9 and "attention_maps_alpha_entmax_context.png" in maps
    assert len((out / "runs.jsonl").read_text().splitlines()) == 6          # the 5 cells and the left-out run
    assert len((out / runs_mod.EXTRAS).read_text().splitlines()) == 6
    assert "/somewhere/data" not in (out / "runs.jsonl").read_text()
    assert "test tokenized BLEU by normalizer" in (out / "wandb_report.md").read_text()
    index = (out / "index.html").read_text()
    assert "href='speed.md'" not in index and "<img src='figure6_js_per_layer.png'" in index
    assert str(tmp_path) not in index
    before = {p.name: p.read_text() for p in out.glob("*.md")}
    (out / "speed.md").write_text("# speed\n")
    rep.write_reports("smoke", out, OPTIONS, runs, REF)
    after = {p.name: p.read_text() for p in out.glob("*.md") if p.name != "speed.md"}
    # the one change: table1_bleu.md says that this speed.md names no model (it must name the Table 1 model)
    note = " `speed.md` names no model: re-measure it (`make bench-transformer-speed PROFILE=<profile>`)."
    assert note in after["table1_bleu.md"] and after.pop("table1_bleu.md").replace(note, "") == before.pop(
        "table1_bleu.md")
    assert before == after
    assert "href='speed.md'" in (out / "index.html").read_text()


def test_figures_not_allowed_by_the_records_are_not_left_stale(runs, tmp_path):
    out = tmp_path / "report"
    rep.write_reports("smoke", out, OPTIONS, runs, REF)
    assert (out / "figure2_alpha_trajectories.png").exists()
    for d in (runs / "smoke").rglob("run.json"):
        rec = json.loads(d.read_text())
        if runs_mod.variant_of(rec) in ("alpha_entmax", "output_alpha"):
            d.unlink()
    rep.write_reports("smoke", out, OPTIONS, runs, REF)
    assert not (out / "figure2_alpha_trajectories.png").exists()
    assert not (out / "figure3_alpha_histograms.png").exists()
    assert not list(out.glob("attention_maps_alpha_entmax_*.png"))
    text = (out / "analysis.md").read_text()
    assert "`figure2_alpha_trajectories.png` not drawn: no α-entmax run with an α trajectory" in text
    assert "**untested (no α-entmax run with a recorded trajectory)**" in (out / "claims.md").read_text()
    assert "learned output α" not in (out / "table1_bleu.md").read_text().split("## Tokenized BLEU")[1]


# ---------------------------------------------------------------- --report-only from the committed files alone
def test_committed_files_rebuild_every_report_without_run_directories(runs, tmp_path):
    """A clone holds the report directory but no runs: writing the reports again from ``runs.jsonl`` +
    ``run_extras.jsonl`` gives the same Markdown, HTML and BLEU files and redraws every figure."""
    import shutil

    out = tmp_path / "report"
    rep.write_reports("smoke", out, OPTIONS, runs, REF)
    clone = tmp_path / "clone" / "report"
    shutil.copytree(out, clone)
    for p in clone.glob("*.png"):
        p.unlink()                                   # must be redrawn from the committed records
    recs = rep.write_reports("smoke", clone, OPTIONS, tmp_path / "clone" / "runs", REF)
    assert len(recs) == 5
    names = lambda d, pat: sorted(p.name for p in d.glob(pat))  # noqa: E731
    assert names(clone, "*.png") == names(out, "*.png") and len(names(out, "*.png")) == 6 + 9
    for pat in ("*.md", "*.jsonl", "*.html", f"{BLEU_DIR}/*"):
        assert names(clone, pat) == names(out, pat), pat
        for name in names(out, pat):
            assert (clone / pat.rsplit("/", 1)[0] / name if "/" in pat else clone / name).read_text() == \
                (out / pat.rsplit("/", 1)[0] / name if "/" in pat else out / name).read_text(), name
    # what the committed file holds: every head's α at every recorded step, the head statistics at the end
    rows = [json.loads(x) for x in (out / runs_mod.EXTRAS).read_text().splitlines()]
    alpha = next(r for r in rows if r["run"].endswith("mapping=alpha_entmax,seed=0"))
    assert alpha["extra"]["alpha_trajectory"] == alpha_trajectory()
    assert alpha["extra"]["learned_alpha"] == LEARNED and "positional" in alpha["extra"]["heads"]
    assert "host" not in alpha and "pid" not in alpha


def test_committed_rows_must_pair_up(built, tmp_path):
    import shutil

    out = shutil.copytree(built[1], tmp_path / "report")
    assert runs_mod.committed(tmp_path / "nowhere", tmp_path / "runs") == []
    lines = (out / runs_mod.EXTRAS).read_text().splitlines()
    (out / runs_mod.EXTRAS).write_text("\n".join(lines[1:]) + "\n")
    with pytest.raises(ValueError, match="no row for run"):
        runs_mod.committed(out, tmp_path / "runs")


# ---------------------------------------------------------------- the α rule and its control
def _lr(rec: dict, alpha_lr) -> dict:
    return {**rec, "config": {**rec["config"], "task": {**rec["config"]["task"], "alpha_lr": alpha_lr}}}


def test_the_alpha_rule_splits_its_runs_from_the_control_and_names_their_files(tmp_path):
    root = make_runs(tmp_path)
    t1 = root / "smoke" / runs_mod.TABLE1
    base = record.read(t1 / "mapping=alpha_entmax,seed=0")
    record.write(t1 / "rule", {**_lr(base, 0.0104), "config_hash": "rule"})
    recs, others = runs_mod.collect(root, "smoke", 0.0104)
    rule = [r for r in recs if runs_mod.variant_of(r) == "alpha_entmax"]
    assert [runs_mod.alpha_lr_of(r) for r in rule] == [0.0104]
    # the output-α run learns α at lr = lr too: not under the rule, and no control either (only α-entmax is)
    controls = runs_mod.alpha_lr_controls(others, 0.0104)
    assert [r["config_hash"] for r in controls] == ["alpha_entmax-0-False"]
    assert not any(runs_mod.variant_of(r) == "output_alpha" for r in recs)
    # no rule: the run at α lr = lr is the cell, the other one is left out, and nothing is a control
    recs, others = runs_mod.collect(root, "smoke")
    assert [r["config_hash"] for r in recs if runs_mod.variant_of(r) == "alpha_entmax"] == ["alpha_entmax-0-False"]
    assert "rule" in {r["config_hash"] for r in others} and runs_mod.alpha_lr_controls(others, None) == []
    assert rep.bleu_file_stem(rule[0], "test") == "de-en.alpha_entmax.alpha_lr0.0104.seed0.test"
    assert rep.bleu_file_stem(controls[0], "test") == "de-en.alpha_entmax.seed0.test"
    assert rep.bleu_file_stem(_lr(recs[0], 0.0104), "test") == "de-en.softmax.seed0.test"   # no α: no α lr


def test_the_alpha_rule_side_experiment_by_standard_tests(tmp_path):
    from sparselab.reports.correia2019 import alpha_rule

    refs = [f"sentence {i} has the words w{i} and v{i} in it ." for i in range(60)]
    worse = [f"sentence {i} has the words w{i} in it ." for i in range(60)]

    def rec(seed, alpha_lr, acc, moved):
        r = _lr({"config": config("alpha_entmax", seed)}, alpha_lr)
        hist = [{"step": 0, "alpha": {"enc_self/l0": [1.4, 1.6]}},
                {"step": 10, "alpha": {"enc_self/l0": [1.4 + moved, 1.6 - moved]}}]
        return {**r, "metrics": {"bleu_tok": 50.0, "bleu": 49.0 + seed, "val_acc_best": acc},
                "extra": {"alpha_trajectory": {"history": hist}}}

    rule = [rec(0, 0.0104, 60.0, 0.3), rec(1, 0.0104, 60.2, 0.32)]
    control = [rec(0, None, 60.1, 0.05), rec(1, None, 60.3, 0.06)]
    for r in [*rule, *control]:
        _bleu_files(tmp_path, rep.bleu_file_stem(r, "test"), refs if r in rule else worse, refs)
    found = {r.quantity: r for r in alpha_rule.rows(tmp_path, rule, control, rep.bleu_file_stem)}
    bleu, acc, moved = (found["tokenized test BLEU"], found["best validation token accuracy"],
                        found["mean |α − α₀| at the end, every head"])
    assert bleu.test.estimate > 5 and bleu.test.ci[0] > 0 and not bleu.within_noise    # the hypotheses differ
    assert acc.test.estimate == pytest.approx(-0.1) and acc.within_noise                # Welch over the seeds
    assert acc.test.p == pytest.approx(st.ttest_ind([60.0, 60.2], [60.1, 60.3], equal_var=False).pvalue)
    assert moved.test.estimate == pytest.approx(0.255) and moved.margin is None
    text = alpha_rule.text(list(found.values()), 0.0104)
    assert "| tokenized test BLEU |" in text and "**differs**" in text and "within the seed noise" in text
    line = alpha_rule.summary(list(found.values()), 0.0104)
    assert "α moved 0.310 on average against 0.055" in line and "(differs)" in line
    assert alpha_rule.rows(tmp_path, rule, [], rep.bleu_file_stem) == []
