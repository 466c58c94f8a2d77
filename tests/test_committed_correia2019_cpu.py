"""The committed ``reports/correia2019/cpu/`` rebuilds from its own records: a clone has the report folder but no
run directories, and ``--report-only`` must give back the same tables and redraw every figure (issue 21, item 4).

This runs the pipeline's command in-process on a copy of the committed folder, with an empty runs root. The nine
attention-map PNGs are requested but not rendered (rendering them takes a minute of the suite;
``test_reports_correia2019`` renders every figure from hand-made records): the test checks that each committed map
is asked for again, with the maps' data read from the committed records."""
from __future__ import annotations

import shutil
from pathlib import Path

from scripts import PROJECT, load_script

COMMITTED = PROJECT / "reports" / "correia2019" / "cpu"


def files(folder: Path, pattern: str) -> dict[str, str]:
    return {str(p.relative_to(folder)): p.read_text(encoding="utf-8") for p in sorted(folder.glob(pattern))}


def test_report_only_rebuilds_the_committed_cpu_report_from_its_records(tmp_path, monkeypatch, capsys):
    from sparselab.reports.runner import main

    clone = tmp_path / "reports" / "correia2019" / "cpu"
    shutil.copytree(COMMITTED, clone)
    for png in clone.glob("*.png"):
        png.unlink()                                  # every figure must come back from the records
    monkeypatch.setenv("SPARSELAB_RUNS", str(tmp_path / "no_runs"))
    from sparselab.reports.correia2019 import figures as correia2019_figures

    asked = []

    def attention_heads(attn, path, query_tokens, key_tokens, **kw):     # a map: 3 layers x 8 heads
        assert len(attn) == 3 * 8 and len(attn[0]) == len(query_tokens) and len(attn[0][0]) == len(key_tokens)
        asked.append(Path(path).name)
        Path(path).write_bytes(b"")
        return Path(path)

    monkeypatch.setattr(correia2019_figures, "attention_heads", attention_heads)
    mod = load_script("pipelines/correia2019.py", "pipeline_correia2019")
    assert main(mod.report, mod.PLANS, ["--profile", "cpu", "--report-only", "--out", str(clone)]) == 0
    assert "rebuilding from the records committed in" in capsys.readouterr().out
    assert sorted(p.name for p in clone.glob("*.png")) == sorted(p.name for p in COMMITTED.glob("*.png"))
    assert sorted(asked) == sorted(p.name for p in COMMITTED.glob("attention_maps_*.png")) and len(asked) == 9
    for pattern in ("*.md", "*.html", "*.jsonl", "bleu_files/*"):
        expected = files(COMMITTED, pattern)
        assert expected, pattern
        got = files(clone, pattern)
        assert got.keys() == expected.keys(), pattern
        for name in expected:
            assert got[name] == expected[name], name
