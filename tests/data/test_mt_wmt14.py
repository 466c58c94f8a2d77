"""WMT14 en-de (Correia et al. 2019, Table 1's en->de column): the ``wmt14`` corpus, its registry entry for the
training data, and the ``data=mt_wmt14`` config that selects it without changing ``data=mt``."""
from __future__ import annotations

import pytest
from hydra import compose, initialize_config_dir
from omegaconf import OmegaConf

from sparselab.data import parallel as par
from sparselab.data.check import get_dataset
from sparselab.errors import MissingDataError
from sparselab.locations import PROJECT_ROOT
from sparselab.engine import resolvers
from sparselab.run import CONF_DIR
from sparselab.data import mt_data as mt
from sparselab.tasks import settings

SHARED = PROJECT_ROOT.parent / "shared" / "data"
needs_shared = pytest.mark.skipif(not (SHARED / "wmt14_en_de").is_dir(), reason="../shared/data/wmt14_en_de absent")
MISSING_TRAIN = r"dataset 'wmt14_en_de_full' not found.*fetch wmt14_en_de_full"


def _cfg(*overrides):
    resolvers.register()
    with initialize_config_dir(version_base="1.3", config_dir=str(CONF_DIR)):
        return compose("config", overrides=["experiment=correia2019/table1_bleu", *overrides])


@needs_shared
def test_offline_dev_and_test_read_aligned_in_both_directions():
    dev = par.read_split("wmt14/dev", "en", "de", SHARED)
    test = par.read_split("wmt14/test", "en", "de", SHARED)
    assert (len(dev), len(test)) == (3000, 3003)                       # newstest2013, newstest2014 (full)
    assert dev.src[0] == "A Republican strategy to counter the re-election of Obama"
    assert (test.src[0], test.tgt[0]) == ("Gutach: Increased safety for pedestrians",
                                          "Gutach: Noch mehr Sicherheit für Fußgänger")
    assert test.files[0][0].endswith("wmt14_en_de/newstest2014.en")
    back = par.read_split("wmt14/test", "de", "en", SHARED)
    assert (back.src, back.tgt) == (test.tgt, test.src)


@pytest.mark.parametrize("root", ["tmp", "shared"])
def test_train_without_the_download_names_the_fetch_command(root, tmp_path):
    where = tmp_path if root == "tmp" else SHARED
    if root == "shared" and not SHARED.is_dir():
        pytest.skip("../shared/data absent")
    with pytest.raises(MissingDataError, match=MISSING_TRAIN):
        par.read_split("wmt14/train", "en", "de", where)


def test_registry_entry_covers_every_training_file_with_https_urls_and_locks():
    ds = get_dataset("wmt14_en_de_full")
    assert ds.status == "complete" and ds.upstream.startswith("https://")
    for f in ds.files:
        assert f.url.startswith("https://www.statmt.org/") and f.url.endswith(".tgz")
        assert f.sha256 == "lock" and f.archive_sha256 == "lock" and f.member == f.path
    source = par.CORPORA["wmt14"].splits["train"]
    assert source.dataset == "wmt14_en_de_full"
    wanted = {p.format(lang=lang) for p in source.paths for lang in ("en", "de")}
    assert wanted == {f.path for f in ds.files}                         # Europarl v7, Common Crawl, NC v9
    assert {f.url.rsplit("/", 1)[1] for f in ds.files} == {
        "training-parallel-europarl-v7.tgz", "training-parallel-commoncrawl.tgz", "training-parallel-nc-v9.tgz"}


@pytest.mark.parametrize("profile", ["smoke", "cpu", "paper"])
def test_mt_wmt14_selects_wmt14_for_en_de_only(profile):
    cfg = _cfg(f"profile={profile}", "data=mt_wmt14")
    base = _cfg(f"profile={profile}", "data=mt")
    d, b = OmegaConf.to_container(cfg.data, resolve=True), OmegaConf.to_container(base.data, resolve=True)
    assert (d["name"], d["pair"]) == ("mt_wmt14", "en-de")
    ende = d["pairs"]["en-de"]
    assert (ende["train"], ende["val"], ende["test"]) == ("wmt14/train", "wmt14/dev", "wmt14/test")
    assert not any(ende["extra_test"].values()) and ende["bpe_joint"]
    assert ende["bpe_merges"] == {"smoke": 300, "cpu": 4000, "paper": 32000}[profile]
    # the other directions and every preprocessing setting are mt.yaml's
    others = {k: v for k, v in d["pairs"].items() if k != "en-de"}
    assert others == {k: v for k, v in b["pairs"].items() if k != "en-de"}
    assert {k: v for k, v in d.items() if k not in ("name", "pair", "pairs")} == \
           {k: v for k, v in b.items() if k not in ("name", "pair", "pairs")}
    assert "wmt14" not in str(b)                                       # data=mt is unchanged


def test_translation_loader_stops_on_the_missing_training_set(tmp_path):
    cfg = _cfg("profile=paper", "data=mt_wmt14", f"data.root={tmp_path}")
    with pytest.raises(MissingDataError, match=MISSING_TRAIN):
        mt.load_data(settings.mt_data(cfg))
