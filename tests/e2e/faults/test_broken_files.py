"""Issue 57 items 3, 4 and 10 (sweep output): a broken run.json or checkpoint is named, set aside and recovered
from; an unwritable sweep output folder is one line."""
from __future__ import annotations

import json
import logging
from pathlib import Path

import pytest

from .conftest import error_lines


def _records(root: Path) -> Path:
    """Three hand-made records of one sweep over mapping.alpha; the third's run.json truncated."""
    for i, alpha in enumerate([1.0, 1.5, 2.0]):
        d = root / "smoke" / "demo" / f"{i:016x}"
        d.mkdir(parents=True)
        rec = {"status": "finished", "config": {"mapping": {"alpha": alpha}, "seed": 0}, "metrics": {"acc": 0.5 + i}}
        text = json.dumps(rec)
        (d / "run.json").write_text(text[: len(text) // 2] if i == 2 else text)
    return root


def test_unreadable_run_json_is_listed_under_the_table(tmp_path, capsys):
    from sparselab.reports import sweep

    root = _records(tmp_path / "runs")
    assert sweep.main([str(root), "--by", "mapping.alpha"]) == 0
    md = (root / "sweep" / "sweep.md").read_text()
    assert "## Unreadable run records" in md
    assert "smoke/demo/0000000000000002/run.json`: not valid JSON" in md
    assert "1 failed/running/missing" in capsys.readouterr().out


def test_rerun_sets_an_unreadable_record_aside_and_says_why(tmp_path, caplog):
    from sparselab.engine.execute import _set_aside_unreadable

    run = _records(tmp_path / "runs") / "smoke" / "demo" / "0000000000000002"
    text = (run / "run.json").read_text()
    with caplog.at_level(logging.WARNING, logger="sparselab"):
        _set_aside_unreadable(run)
    assert not (run / "run.json").exists() and (run / "run.json.unreadable").read_text() == text
    assert "its run.json cannot be read (not valid JSON" in caplog.text


def test_unwritable_sweep_output_is_one_line(tmp_path, capsys):
    from sparselab.reports import sweep

    root = _records(tmp_path / "runs")
    blocker = tmp_path / "a_file"
    blocker.write_text("")
    assert sweep.main([str(root), "--by", "mapping.alpha", "--out", str(blocker / "sweep")]) == 2
    err = capsys.readouterr().err
    assert len(error_lines(err)) == 1 and "Traceback" not in err, err


def test_read_only_sweep_output_is_one_line(tmp_path, monkeypatch, capsys):
    """A read-only output folder: chmod 555 for a user; root writes through that, so there the OS's answer to a user
    (EACCES on the first file written) is given by hand."""
    import os

    from sparselab.reports import sweep

    root = _records(tmp_path / "runs")
    out = tmp_path / "read_only"
    out.mkdir()
    if os.geteuid() != 0:
        out.chmod(0o555)
    else:
        real = Path.write_text

        def refuse(self, *args, **kwargs):
            if self.parent == out:
                raise PermissionError(13, "Permission denied", str(self))
            return real(self, *args, **kwargs)

        monkeypatch.setattr(Path, "write_text", refuse)
    try:
        assert sweep.main([str(root), "--by", "mapping.alpha", "--out", str(out)]) == 2
    finally:
        out.chmod(0o755)
    err = capsys.readouterr().err
    assert error_lines(err) == [f"error: cannot write the sweep report into {out}: Permission denied "
                                f"({out / 'sweep.md'}); choose another folder with --out"], err
    assert "Traceback" not in err and not any(out.iterdir())


@pytest.fixture()
def checkpoints(tmp_path):
    import torch

    run = tmp_path / "run"
    (run / "checkpoints").mkdir(parents=True)
    torch.save({"global_step": 4}, run / "hpc_ckpt_1.ckpt")
    torch.save({"global_step": 8, "w": torch.zeros(1000)}, run / "checkpoints" / "last.ckpt")
    last = run / "checkpoints" / "last.ckpt"
    last.write_bytes(last.read_bytes()[:500])        # truncated mid-write: no zip central directory
    return run


def test_truncated_checkpoint_is_moved_aside_and_the_next_one_used(checkpoints, caplog):
    from sparselab.training.loop import resume_checkpoint

    with caplog.at_level(logging.WARNING, logger="sparselab"):
        got = resume_checkpoint(checkpoints / "checkpoints", checkpoints)
    assert got == checkpoints / "hpc_ckpt_1.ckpt"
    assert (checkpoints / "last.ckpt.corrupt").is_file() and not (checkpoints / "checkpoints" / "last.ckpt").exists()
    lines = [r.getMessage() for r in caplog.records if "cannot be read" in r.getMessage()]
    assert len(lines) == 1 and "last.ckpt" in lines[0] and "last.ckpt.corrupt" in lines[0]


def test_no_good_checkpoint_starts_again(checkpoints, caplog):
    from sparselab.training.loop import resume_checkpoint

    (checkpoints / "hpc_ckpt_1.ckpt").write_bytes(b"PK\x03\x04 not a checkpoint")
    with caplog.at_level(logging.WARNING, logger="sparselab"):
        assert resume_checkpoint(checkpoints / "checkpoints", checkpoints) is None
    assert sorted(p.name for p in checkpoints.glob("*.corrupt")) == ["hpc_ckpt_1.ckpt.corrupt", "last.ckpt.corrupt"]
    assert "starts again from step 0" in caplog.text
