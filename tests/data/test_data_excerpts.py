"""The data excerpts shipped in the package (sparselab.data.excerpt): small, each with its note, what smoke reads, and
the same data to the loaders as the full data sets (checked against ../shared/data where it is, as in CI)."""
from __future__ import annotations

import re
import sys
from pathlib import Path

import numpy as np
import pytest

from sparselab.data import excerpt, mulan, parallel, sigmorphon, snli
from sparselab.data.check import PROFILE_NEEDS
from sparselab.data.excerpt import ROOT
from sparselab.locations import PROJECT_ROOT

SHARED = PROJECT_ROOT.parent / "shared" / "data"
needs_shared = pytest.mark.skipif(not SHARED.is_dir(), reason="../shared/data not present (the full data sets)")


def compose(profile: str, experiment: str):
    from hydra import compose as hcompose, initialize_config_dir

    from sparselab.engine import resolvers

    resolvers.register()
    with initialize_config_dir(version_base="1.3", config_dir=str(PROJECT_ROOT / "conf"), job_name="t"):
        return hcompose(config_name="config", overrides=[f"experiment={experiment}", f"profile={profile}"])


def test_excerpts_are_small_and_each_has_its_note():
    assert excerpt.size() < 3.2e6
    for d in sorted(p for p in ROOT.iterdir() if p.is_dir()):
        note = (d / "NOTE.md").read_text()
        assert re.search(r"\*\*Source:\*\* .*[0-9a-f]{40}", note) and "**Licence:**" in note, d.name
        assert f"python -m sparselab.data fetch {d.name}" in note, d.name


@pytest.mark.parametrize("experiment", ["peters2019/table1_medium", "martins2016/table3_snli", "peters2019/table2_mt"])
def test_smoke_reads_the_excerpts_and_the_other_profiles_the_data_root(experiment, monkeypatch):
    monkeypatch.delenv("SPARSELAB_DATA", raising=False)
    assert compose("smoke", experiment).data.root == str(ROOT)
    assert compose("cpu", experiment).data.root is None and compose("paper", experiment).data.root is None


@needs_shared
def test_the_loaders_get_from_the_excerpts_what_smoke_gets_from_the_full_data():
    for root in (ROOT, SHARED):
        assert [lang for lang, _ in sigmorphon.languages("medium", root)][:3] == list(excerpt.SIGMORPHON_LANGS)
    for split in ("train", "dev", "test"):
        assert sigmorphon.load_split("medium", split, ROOT, max_languages=3) == \
            sigmorphon.load_split("medium", split, SHARED, max_languages=3)
    for name in excerpt.MULAN:
        a, b = mulan.load(name, ROOT), mulan.load(name, SHARED)
        assert (a.label_names, a.removed, a.read) == (b.label_names, b.removed, b.read)
        assert np.array_equal(a.splits[0].X_train, b.splits[0].X_train)
        assert np.array_equal(a.splits[0].Y_test, b.splits[0].Y_test)
    for name, n in excerpt.SNLI_LABELLED.items():
        assert snli.read_jsonl(ROOT / "snli_1.0" / name, limit=n) == snli.read_jsonl(SHARED / "snli_1.0" / name, limit=n)
    ids = set(excerpt.SNLI_DEV_IDS)
    dev = [snli.read_jsonl(r / "snli_1.0" / "snli_1.0_dev.jsonl.gz", pair_ids=ids).pairs for r in (ROOT, SHARED)]
    assert dev[0] == dev[1] and len(dev[0]) == 4
    for spec, n in [("multi30k/train", 300), ("multi30k/val", 20), ("multi30k/test2016", 20),
                    ("iwslt2017/test", excerpt.IWSLT_TEST)]:
        a, b = (parallel.read_split(spec, "de", "en", r, empty="drop").head(n) for r in (ROOT, SHARED))
        assert (a.src, a.tgt) == (b.src, b.tgt) and len(a) == n


@needs_shared
@pytest.mark.slow
def test_the_excerpts_rebuild_byte_for_byte(tmp_path):
    for written in excerpt.build(SHARED, tmp_path):
        rel = written.relative_to(tmp_path)
        assert written.read_bytes() == (ROOT / rel).read_bytes(), rel


def test_the_smoke_limits_are_those_the_excerpts_hold():
    mt = compose("smoke", "peters2019/table2_mt").data
    assert (mt.max_train, mt.max_val, mt.max_test, mt.max_extra_test) == (300, 20, 20, excerpt.IWSLT_TEST)
    nli = compose("smoke", "martins2016/table3_snli")
    assert [nli.data[f"max_{s}"] for s in ("train", "dev", "test")] == list(excerpt.SNLI_LABELLED.values())
    assert set(nli.task.examples.dev_pair_ids) == set(excerpt.SNLI_DEV_IDS)
    assert compose("smoke", "peters2019/table1_medium").data.max_languages == len(excerpt.SIGMORPHON_LANGS)


@pytest.mark.slow
@pytest.mark.parametrize("profile", ["cpu", "paper"])
def test_profile_needs_hold_what_the_three_plans_read(profile):
    """`make data PROFILE=…` fetches PROFILE_NEEDS: a superset of what the pipelines' plans read (sparselab.preflight)."""
    from sparselab import preflight

    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    from support import load_script

    read = set()
    for paper in ("martins2016", "peters2019", "correia2019"):
        plan = load_script(f"pipelines/{paper}.py", f"_needs_{paper}").PLANS[profile]
        for experiment, overrides in plan.sweeps:
            for cfg in preflight.job_configs(PROJECT_ROOT / "conf", [f"experiment={experiment}",
                                                                     f"profile={profile}", *overrides]):
                read |= preflight.datasets_of(cfg)
    assert read <= set(PROFILE_NEEDS[profile]), read - set(PROFILE_NEEDS[profile])
