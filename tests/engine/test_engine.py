"""The run engine: records, config hashing, resume, failure, W&B fallback, validation."""
from __future__ import annotations

import json
import sys
import types

import pytest
import torch
from hydra import compose, initialize_config_dir
from omegaconf import OmegaConf, open_dict

from sparselab.engine import execute as engine
from sparselab.engine.devices import cpu_kernel
from sparselab.engine import record, resolvers
from sparselab.errors import ConfigError
from sparselab.run import CONF_DIR

resolvers.register()
CALLS: list[dict] = []


def _probe_run(cfg, ctx):
    """A task double that records its calls; the engine is what is under test."""
    CALLS.append({"alpha": cfg.mapping.alpha, "dir": str(ctx.run_dir)})
    if cfg.task.get("fail"):
        raise RuntimeError("probe asked to fail")
    if cfg.task.get("sigterm"):   # what Lightning's loops raise after a SIGTERM
        from lightning.pytorch.utilities.exceptions import SIGTERMException
        raise SIGTERMException(1)
    ctx.samples_seen += 100
    ctx.log_metrics({"loss": 0.5}, 1)
    return {"metrics": {"acc": 0.75, "alpha": float(cfg.mapping.alpha)}, "best": {"l2": 0.1}}


@pytest.fixture(autouse=True)
def probe_task(monkeypatch):
    mod = types.ModuleType("sparselab.tasks.probe")
    mod.run = _probe_run
    monkeypatch.setitem(sys.modules, "sparselab.tasks.probe", mod)
    CALLS.clear()


def make_cfg(*overrides, logger="none"):
    with initialize_config_dir(version_base="1.3", config_dir=str(CONF_DIR)):
        cfg = compose("config", overrides=[f"logger={logger}", *overrides])
    with open_dict(cfg):
        cfg.task = OmegaConf.create({"name": "probe", "objective": "acc"})
    return cfg


def test_finished_record_has_config_metrics_and_environment(tmp_path):
    rec = engine.execute(make_cfg("mapping=entmax15"), tmp_path)
    on_disk = json.loads((tmp_path / "run.json").read_text())
    assert on_disk["status"] == "finished" == rec["status"]
    assert on_disk["metrics"] == {"acc": 0.75, "alpha": 1.5}
    assert on_disk["best"] == {"l2": 0.1}
    assert on_disk["config"]["mapping"]["alpha"] == 1.5
    assert len(on_disk["config_hash"]) == 16
    assert on_disk["versions"]["torch"].startswith("2.13")
    # the record names the device a job would train on: the GPU where there is one
    device = torch.cuda.get_device_name(0) if torch.cuda.is_available() else "cpu"
    assert on_disk["threads"] == 1 and on_disk["device"].startswith(device)
    # the CPU kernels, so that a run that does not reproduce another bit for bit can be told apart by its machine
    assert on_disk["cpu_kernel"] == cpu_kernel(inductor=False) and "aten " in on_disk["cpu_kernel"]
    assert on_disk["samples_seen"] == 100 and on_disk["throughput_samples_per_s"] > 0
    assert on_disk["wall_time_s"] >= 0


def test_resume_skips_finished_and_reruns_changed_config(tmp_path):
    engine.execute(make_cfg("mapping.alpha=1.5"), tmp_path)
    engine.execute(make_cfg("mapping.alpha=1.5"), tmp_path)
    assert len(CALLS) == 1
    engine.execute(make_cfg("mapping.alpha=1.75"), tmp_path)
    assert [c["alpha"] for c in CALLS] == [1.5, 1.75]


def test_hash_ignores_where_and_how_it_is_logged_but_not_alpha():
    base = record.config_hash(make_cfg())
    assert record.config_hash(make_cfg("paths.runs=/elsewhere", "threads=2")) == base
    assert record.config_hash(make_cfg(logger="wandb")) == base
    assert record.config_hash(make_cfg("mapping.alpha=2.0")) != base


@pytest.mark.parametrize("status", ["running", "failed"])
def test_unfinished_record_is_rerun(tmp_path, status):
    cfg = make_cfg()
    record.write(tmp_path, {"status": status, "config_hash": record.config_hash(cfg)})
    engine.execute(cfg, tmp_path)
    assert len(CALLS) == 1 and record.read(tmp_path)["status"] == "finished"


def test_torn_record_counts_as_unfinished(tmp_path):
    (tmp_path / "run.json").write_text('{"status": "finis')
    engine.execute(make_cfg(), tmp_path)
    assert len(CALLS) == 1


def test_an_interrupted_atomic_write_leaves_the_old_file_whole(tmp_path, monkeypatch):
    # what a kill between writing and renaming leaves: the old file, never an empty or half one (fit_done.json, run.json)
    path = tmp_path / "checkpoints" / "fit_done.json"
    record.write_text_atomically(path, '{"steps": 10}')
    monkeypatch.setattr(record.os, "replace", lambda *a: (_ for _ in ()).throw(KeyboardInterrupt))
    with pytest.raises(KeyboardInterrupt):
        record.write_text_atomically(path, '{"steps": 20}')
    assert json.loads(path.read_text()) == {"steps": 10}
    assert [p.name for p in path.parent.iterdir()] == ["fit_done.json"]     # the interrupted write's tmp is removed
    monkeypatch.undo()
    record.write_text_atomically(path, '{"steps": 30}')
    assert json.loads(path.read_text()) == {"steps": 30}
    assert [p.name for p in path.parent.iterdir()] == ["fit_done.json"]


def test_failure_is_recorded_and_raised(tmp_path):
    cfg = make_cfg()
    with open_dict(cfg):
        cfg.task.fail = True
    with pytest.raises(RuntimeError, match="probe asked to fail"):
        engine.execute(cfg, tmp_path)
    rec = record.read(tmp_path)
    assert rec["status"] == "failed" and "probe asked to fail" in rec["error"]


def test_a_sigterm_is_recorded_as_interrupted_not_failed(tmp_path):
    """kill or a scheduler's preemption stops the job, it did not fail: the record says 'interrupted' (it resumes
    from its last validation either way) and the run ends as Ctrl-C ends it."""
    cfg = make_cfg()
    with open_dict(cfg):
        cfg.task.sigterm = True
    with pytest.raises(engine.JobInterrupted):
        engine.execute(cfg, tmp_path)
    assert record.read(tmp_path)["status"] == "interrupted"


def test_a_ctrl_c_during_lightnings_import_is_an_interruption(monkeypatch):
    """A Ctrl-C that lands while Lightning is being imported (seen under load: the job exited 1 with an
    AttributeError from the half-initialised package) is an interruption: the check reads, it never imports."""
    # importing the module that defines SIGTERMException now raises, as the half-initialised package did
    monkeypatch.setitem(sys.modules, "lightning.pytorch.utilities.exceptions", None)
    assert engine._interrupted(KeyboardInterrupt()) is True
    assert engine._interrupted(RuntimeError("a failure")) is False


@pytest.mark.parametrize("key,value,problem", [("mapping.alpha", 0, "must be > 0"),
                                               ("mapping.attn_alpha", "nan", "must not be NaN"),
                                               ("mapping.alpha", "abc", "expected a number > 0"),
                                               ("mapping.alpha", "inf", "must be finite")])
def test_invalid_alpha_names_the_key(tmp_path, key, value, problem):
    """The mappings' own rule (check_alpha_float) decides, with the config key in the message."""
    with pytest.raises(ConfigError, match=key.replace(".", r"\.") + ": " + problem):
        engine.execute(make_cfg(f"{key}={value}"), tmp_path)
    assert CALLS == []
    assert record.read(tmp_path) is None  # refused before anything is written (issue 18 item 8)


def test_alpha_below_one_passes_validation(tmp_path):
    """0 < alpha < 1 (the dense Tsallis maps) is a valid mapping.alpha, as in the mappings."""
    engine.execute(make_cfg("mapping.alpha=0.75"), tmp_path)
    assert [c["alpha"] for c in CALLS] == [0.75]


def test_unknown_task_lists_valid_ones(tmp_path):
    cfg = make_cfg()
    cfg.task.name = "nope"
    with pytest.raises(ConfigError, match="valid tasks:"):
        engine.execute(cfg, tmp_path)


def test_wandb_offline_run_and_key_never_recorded(tmp_path, monkeypatch):
    secret = "0123456789abcdef0123456789abcdef01234567"
    monkeypatch.setenv("WANDB_API_KEY", secret)
    engine.execute(make_cfg(logger="wandb"), tmp_path)
    assert list(tmp_path.glob("wandb/offline-run-*")), "offline W&B run directory missing"
    for f in tmp_path.rglob("*"):
        if f.is_file() and f.stat().st_size < 5_000_000:
            assert secret not in f.read_text(errors="ignore"), f"API key leaked into {f}"


def test_wandb_online_without_key_falls_back_to_offline(tmp_path, monkeypatch, caplog, recwarn):
    monkeypatch.delenv("WANDB_API_KEY", raising=False)
    monkeypatch.setenv("WANDB_DIR", str(tmp_path))
    monkeypatch.setenv("HOME", str(tmp_path))  # no ~/.netrc key
    cfg = make_cfg("logger.mode=online", logger="wandb")
    with caplog.at_level("WARNING", logger="sparselab"):
        rec = engine.execute(cfg, tmp_path)
    # said once: one log line, no Python warning repeating it (issue 18, item 13)
    assert len([r for r in caplog.records if "logging offline instead" in r.getMessage()]) == 1
    assert not [w for w in recwarn if "logging offline instead" in str(w.message)]
    assert rec["status"] == "finished"
    assert list(tmp_path.glob("wandb/offline-run-*"))


def test_by_profile_resolver():
    cfg = make_cfg("profile=smoke", "+probe_width=${by_profile:8,64,300}")
    assert cfg.probe_width == 8
    cfg = make_cfg("profile=paper", "+probe_width=${by_profile:8,64,300}")
    assert cfg.probe_width == 300
