"""Translation task: BLEU equals the sacrebleu CLI, forced-decoding candidate sets, token accuracy, smoke run."""
from __future__ import annotations

import json
import os
import sys

import pytest
import torch

from sparselab.data import parallel as par
from sparselab.locations import PROJECT_ROOT
from sparselab.data.text import Vocab
from sparselab.tasks.settings import build_model
from sparselab.decoding.bleu import bleu_scores, write_lines
from sparselab.decoding.translation import forced_candidates
from sparselab.training.translation_module import TokenAccuracy
from support import sacrebleu_cli
import warm

SHARED = PROJECT_ROOT.parent / "shared" / "data"
needs_shared = pytest.mark.skipif(not SHARED.is_dir(), reason="../shared/data not present")


def _perturb(lines):
    """Hypotheses that differ from the references: drop a word of every other line, swap two in every third."""
    out = []
    for i, line in enumerate(lines):
        w = line.split()
        if i % 2 and len(w) > 2:
            del w[1]
        if i % 3 == 0 and len(w) > 3:
            w[0], w[2] = w[2], w[0]
        out.append(" ".join(w))
    return out


@needs_shared
@pytest.mark.parametrize("spec,pair", [("multi30k/test2016", ("de", "en")), ("small_parallel_enja/test", ("en", "ja"))])
def test_our_bleu_equals_sacrebleu_cli(tmp_path, spec, pair):
    from sparselab.data.mt_preprocess import Tokenizer

    sp = par.read_split(spec, *pair, SHARED).head(300)
    pretok = par.corpus_of(spec).pretokenized
    tk = Tokenizer(pair[1], "split" if pretok else "moses")
    ref_tok = [" ".join(tk.tokenize(x)) for x in sp.tgt]
    hyp_tok = _perturb(ref_tok)
    ref_detok = [tk.detokenize(x.split()) for x in ref_tok] if pretok else sp.tgt
    hyp_detok = [tk.detokenize(x.split()) for x in hyp_tok]
    files = {}
    for name, lines in (("detok.hyp", hyp_detok), ("detok.ref", ref_detok), ("tok.hyp", hyp_tok), ("tok.ref", ref_tok)):
        files[name] = tmp_path / f"x.{name}.txt"
        write_lines(files[name], lines)
    s = bleu_scores(hyp_detok, ref_detok, hyp_tok, ref_tok, pair[1])
    detok_tok = "ja-mecab" if pair[1] == "ja" else "13a"
    assert f"tok:{detok_tok}" in s["bleu_signature"] and "tok:none" in s["bleu_tok_signature"]
    assert 20 < s["bleu"] < 100 and 20 < s["bleu_tok"] < 100
    assert sacrebleu_cli(files["detok.ref"], files["detok.hyp"], detok_tok) == round(s["bleu"], 4)
    assert sacrebleu_cli(files["tok.ref"], files["tok.hyp"], "none") == round(s["bleu_tok"], 4)


def _tiny_model(alpha_attn: float, V: int = 12, seed: int = 0):
    torch.manual_seed(seed)
    return build_model({"_target_": "sparselab.models.seq2seq.Seq2Seq", "src_vocab": V, "tgt_vocab": V,
                        "src_pad_id": 0, "tgt_pad_id": 0, "bos_id": 1, "eos_id": 2, "emb_size": 16,
                        "hidden_size": 16, "enc_layers": 1, "dec_layers": 1, "dropout": 0.0,
                        "attention": {"_target_": "sparselab.models.attention.GlobalAttention", "_partial_": True,
                                      "score": "general", "normalizer": {"_target_": "sparselab.mappings.Entmax",
                                                                         "alpha": alpha_attn}}})


@pytest.mark.parametrize("alpha", [1.0, 1.3, 1.5, 2.0])
def test_forced_decoding_candidate_sets_sum_to_one(device, alpha):
    V = 12
    tgt = Vocab([f"w{i}" for i in range(V - 4)], joiner=" ")
    model = _tiny_model(alpha, V).to(device)
    with torch.no_grad():  # sharpen the output layer so that sparse mappings have small supports
        model.out.weight.mul_(8.0)
    steps = forced_candidates(model, alpha, [4, 5, 6, 7], [5, 9, 4, 2], tgt)
    assert [s["gold"] for s in steps] == ["w1", "w5", "w0", "</s>"]
    for s in steps:
        probs = [p for _, p in s["candidates"]]
        assert s["support"] == len(probs) and all(p > 0 for p in probs)
        assert sum(probs) == pytest.approx(1.0, abs=1e-9) and s["shown_mass"] == pytest.approx(1.0, abs=1e-9)
        assert probs == sorted(probs, reverse=True)
        cand = dict(s["candidates"])
        assert s["gold_prob"] == (cand.get(s["gold"], 0.0))
        if alpha == 1.0:
            assert s["support"] == V
    if alpha == 2.0:
        assert min(s["support"] for s in steps) < V
    capped = forced_candidates(model, alpha, [4, 5, 6, 7], [5, 9, 4, 2], tgt, max_candidates=2)
    assert all(len(s["candidates"]) <= 2 and s["shown_mass"] <= 1.0 + 1e-12 for s in capped)


def test_token_accuracy_ignores_padding():
    m = TokenAccuracy(pad_id=0)
    gold = torch.tensor([[5, 6, 2, 0], [7, 2, 0, 0]])
    pred = torch.tensor([[5, 9, 2, 4], [7, 2, 3, 3]])
    m.update(pred, gold)
    assert float(m.compute()) == pytest.approx(100.0 * 4 / 5)


def _env():
    env = dict(os.environ, OMP_NUM_THREADS="1", SPARSELAB_COMPILE="0", WANDB_MODE="offline", WANDB_SILENT="true",
               HYDRA_FULL_ERROR="0", PYTHONPATH=str(PROJECT_ROOT / "src"))
    env.pop("SPARSELAB_DATA", None)
    return env


# The smoke MT run end to end (record, files, BLEU reproduced by the sacrebleu CLI): test_smoke_translation_run in
# tests/e2e/test_peters2019_pipeline.py, on the Peters smoke plan's own Table 2 job at α 1.5 (the same config).


@pytest.mark.slow
def test_misaligned_data_fails_before_training(tmp_path):
    import gzip

    d = tmp_path / "data" / "multi30k" / "task1" / "raw"
    d.mkdir(parents=True)
    for name, n in (("train.de", 5), ("train.en", 5), ("val.de", 4), ("val.en", 3)):
        (d / f"{name}.gz").write_bytes(gzip.compress("".join(f"s{i}\n" for i in range(n)).encode()))
    proc = warm.run([sys.executable, "-m", "sparselab.run", "experiment=peters2019/table2_mt", "profile=smoke",
                           "hydra.mode=RUN", f"paths.runs={tmp_path / 'runs'}", f"data.root={tmp_path / 'data'}",
                           "logger=none"], cwd=PROJECT_ROOT, env=_env(), capture_output=True, text=True, timeout=600)
    assert proc.returncode == 2
    assert f"error: {d / 'val.de.gz'}:4: misaligned parallel files" in proc.stderr
    rec = json.loads(next((tmp_path / "runs").rglob("run.json")).read_text())
    assert rec["status"] == "failed" and "misaligned" in rec["error"]
    assert not list((tmp_path / "runs").rglob("checkpoints"))


@pytest.mark.parametrize("profile,pair,steps,val_every,merges,joint", [
    ("paper", "de-en", 100000, 5000, 32000, True), ("paper", "en-ja", 100000, 10000, 32000, True),
    ("paper", "ro-en", 120000, 10000, 25000, False), ("smoke", "en-de", 30, 10, 300, True),
    ("cpu", "ja-en", 45000, 1500, 4000, True), ("cpu", "de-en", 45000, 750, 4000, True),
])
def test_table2_config_ties_alphas_and_picks_pair_settings(profile, pair, steps, val_every, merges, joint):
    from hydra import compose, initialize_config_dir
    from omegaconf import OmegaConf

    from sparselab.engine import resolvers
    from sparselab.run import CONF_DIR

    resolvers.register()
    with initialize_config_dir(version_base="1.3", config_dir=str(CONF_DIR)):
        cfg = compose("config", overrides=["experiment=peters2019/table2_mt", f"profile={profile}",
                                           f"data.pair={pair}", "mapping.alpha=2.0"])
    c = OmegaConf.to_container(cfg, resolve=True)
    assert c["mapping"]["attn_alpha"] == 2.0 and c["model"]["attention"]["normalizer"]["alpha"] == 2.0
    assert (c["trainer"]["max_steps"], c["trainer"]["val_check_interval"]) == (steps, val_every)
    ps = c["data"]["pairs"][pair]
    assert (ps["bpe_merges"], ps["bpe_joint"]) == (merges, joint)
    if profile == "paper":
        assert (c["model"]["hidden_size"], c["model"]["enc_layers"], c["model"]["dropout"]) == (500, 2, 0.3)
    # issue 20: the paper's halving rule in cpu and paper; cpu stops by patience, counted once learning started
    t = c["task"]
    assert t["lr_rule"] == {"smoke": "best", "cpu": "previous", "paper": "previous"}[profile]
    if profile == "cpu":
        # issue 32: early stopping after 4,500 updates without a 0.25-point gain, in this direction's validations
        assert (t["early_stopping_patience"] * val_every, t["early_stopping_min_delta"]) == (4500, 0.25)
        assert t["early_stopping_start"] == 1.0
    with initialize_config_dir(version_base="1.3", config_dir=str(CONF_DIR)):
        untied = compose("config", overrides=["experiment=peters2019/table2_mt", f"profile={profile}",
                                              "mapping.alpha=1.5", "mapping.attn_alpha=2.0"])
    assert (untied.mapping.alpha, untied.mapping.attn_alpha) == (1.5, 2.0)
