"""sparselab.tasks.snli: config checks, the statistics it records, and a bad data line through the CLI."""
from __future__ import annotations

import gzip
import json
import os
import sys

import pytest
from hydra import compose, initialize_config_dir
from omegaconf import OmegaConf

from sparselab.data.snli import Pair, Split
from sparselab.engine import resolvers
from sparselab.errors import ConfigError
from sparselab.run import CONF_DIR
from sparselab.data import snli_data
from sparselab.tasks import settings
from sparselab.tasks import snli as task

import warm

resolvers.register()
PROJECT = CONF_DIR.parent


def job(profile: str, *overrides: str):
    with initialize_config_dir(version_base="1.3", config_dir=str(CONF_DIR)):
        cfg = compose("config", overrides=["experiment=martins2016/table3_snli", f"profile={profile}", *overrides],
                      return_hydra_config=True)
    return cfg


def test_each_variant_gets_its_normaliser_and_typos_list_the_valid_ones():
    cfg = job("smoke")
    assert settings.nli_normalizer(OmegaConf.merge(cfg.task, {"attention": "none"})) is None
    assert settings.nli_normalizer(OmegaConf.merge(cfg.task, {"attention": "sparse"})) == {
        "_target_": "sparselab.mappings.Entmax", "alpha": 2.0}
    assert settings.nli_normalizer(OmegaConf.merge(cfg.task, {"attention": "learned"}))["learnable"] is True
    with pytest.raises(ConfigError, match="task.attention='sparsemax' is unknown; valid: none, logistic, soft, sparse, "
                                          "entmax15, learned"):
        settings.nli_normalizer(OmegaConf.merge(cfg.task, {"attention": "sparsemax"}))


@pytest.mark.parametrize("profile, train, vectors, lower", [
    ("smoke", "snli_1.0/snli_1.0_train_0.01.jsonl.gz", "glove_6b_50d", True),
    ("cpu", "snli_1.0/snli_1.0_train_0.01.jsonl.gz", "glove_6b_50d", True),
    ("paper", "snli_1.0_full/snli_1.0/snli_1.0_train.jsonl", "glove_840b_300d", False),
])
def test_profiles_pick_data_and_vectors(profile, train, vectors, lower):
    cfg = job(profile)
    assert cfg.data.splits.train == train and cfg.data.vectors == vectors and cfg.data.lowercase is lower
    assert cfg.model.hidden_size == (32 if profile == "smoke" else 100) and cfg.model.dropout == 0.1
    assert cfg.task.lr == 3e-4 and cfg.get("mapping") is None
    assert cfg.hydra.sweeper.params["task.l2"] == "0,1e-4,3e-4,1e-3"


def pair(prem, hyp, label=0):
    return Pair("p", tuple(prem), tuple(hyp), label, 1)


def test_oov_rates_accuracy_and_attention_statistics():
    splits = {"train": Split("train", [pair(["a", "b"], ["zz"])]), "test": Split("test", [pair(["a"], ["a", "q"], 1)])}
    oov = snli_data.oov_stats(splits, lambda w: w in {"a", "b"})
    assert oov["train"] == {"tokens": 3, "oov_tokens": 1, "oov_token_rate": 1 / 3, "types": 3, "oov_types": 1,
                            "oov_type_rate": 1 / 3}
    assert oov["test"]["oov_token_rate"] == 1 / 3 and oov["test"]["types"] == 2
    assert task.accuracy([0, 0], [pair("a", "b", 0), pair("a", "b", 1)]) == 50.0
    stats = task.attention_stats([[0.5, 0.5, 0.0], [1.0], None])
    assert stats == {"attended_words": 1.5, "premise_words": 2.0, "max_weight": 0.75}
    assert task.attention_stats([None, None]) == {}


def test_reductions_name_the_low_data_setting():
    cfg = job("cpu")
    splits = {"train": Split("train", [pair("a", "b")] * 5498, dropped=4, lines=5502),
              "dev": Split("dev", []), "test": Split("test", [])}
    red = snli_data.reductions(settings.snli_data(cfg), splits, "glove_6b_50d")
    assert red == ["low-data: 5,498 training pairs (5,502 lines read) instead of SNLI's 550,152",
                   "vectors glove_6b_50d instead of GloVe 840B 300d"]
    full = {**splits, "train": Split("train", [], lines=550152)}
    assert snli_data.reductions(settings.snli_data(job("paper")), full, "glove_840b_300d") == []


@pytest.mark.slow
def test_a_malformed_line_stops_the_run_with_file_and_line(tmp_path):
    data = tmp_path / "data" / "snli_1.0"
    data.mkdir(parents=True)
    good = json.dumps({"gold_label": "neutral", "sentence1_binary_parse": "( a b )",
                       "sentence2_binary_parse": "( c d )", "pairID": "x"})
    for name, lines in (("snli_1.0_train_0.01.jsonl.gz", [good, good, '{"gold_label": "neutral"']),
                        ("snli_1.0_dev.jsonl.gz", [good]), ("snli_1.0_test.jsonl.gz", [good])):
        (data / name).write_bytes(gzip.compress(("\n".join(lines) + "\n").encode()))
    env = {**os.environ, "OMP_NUM_THREADS": "1", "HYDRA_FULL_ERROR": "0"}
    env.pop("SPARSELAB_DATA", None)
    proc = warm.run([sys.executable, "-m", "sparselab.run", "experiment=martins2016/table3_snli", "profile=smoke",
                           "hydra.mode=RUN", f"paths.runs={tmp_path / 'runs'}", f"data.root={tmp_path / 'data'}",
                           "logger=none"], cwd=PROJECT, env=env, capture_output=True, text=True, timeout=180)
    assert proc.returncode == 2, proc.stderr[-2000:]
    assert f"error: {data / 'snli_1.0_train_0.01.jsonl.gz'}:3: not valid JSON" in proc.stderr
    rec = json.loads(next((tmp_path / "runs").rglob("run.json")).read_text())
    assert rec["status"] == "failed" and ":3: not valid JSON" in rec["error"]
