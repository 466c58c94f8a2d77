"""W&B reports of every paper, built offline with wandb-workspaces: their panels, the outline, the command."""
from __future__ import annotations

import pytest
import wandb_workspaces.reports.v2 as wr
from wandb_workspaces import expr

from sparselab.reports import wandb_report as W

# (paper, panel title, the metrics it plots as the outline names them)
EXPECTED = [
    ("martins2016", "micro-F1 by dataset and loss", "micro_f1"),
    ("martins2016", "macro-F1 by dataset and loss", "macro_f1"),
    ("martins2016", "K=10: MSE vs length", "config.data.length summary.mse"),
    ("martins2016", "K=50: JS vs length", "config.data.length summary.js"),
    ("martins2016", "SNLI test accuracy by attention and L2", "test_acc"),
    ("martins2016", "attended premise words vs L2", "config.task.l2 summary.attended_words"),
    ("peters2019", "accuracy vs attention α", "config.mapping.attn_alpha summary.acc"),
    ("peters2019", "accuracy vs output α", "config.mapping.alpha summary.acc"),
    ("peters2019", "attended positions vs attention α", "config.mapping.attn_alpha summary.attn_support"),
    ("peters2019", "output support vs output α", "config.mapping.alpha summary.out_support"),
    ("peters2019", "BLEU vs α", "config.mapping.alpha summary.bleu"),
    ("peters2019", "dev accuracy (learning curves)", "trainer/global_step val_acc"),
    ("correia2019", "test tokenized BLEU by normalizer", "bleu_tok"),
    ("correia2019", "test SacreBLEU by normalizer", "bleu"),
    ("correia2019", "validation loss", "trainer/global_step val_loss"),
    ("correia2019", "validation accuracy", "trainer/global_step val_acc"),
    ("correia2019", "test tokenized BLEU vs output α", "summary.output_alpha summary.bleu_tok"),
    ("correia2019", "α: encoder self-attention", "trainer/global_step regex ^alpha/enc_self/.*"),
    ("correia2019", "α: context attention", "trainer/global_step regex ^alpha/context/.*"),
    ("correia2019", "JS: decoder self-attention", "trainer/global_step regex ^js/dec_self/.*"),
    ("correia2019", "head density: encoder self-attention", "trainer/global_step regex ^density/enc_self/.*"),
]


@pytest.mark.parametrize("paper", list(W.PAPERS))
def test_each_paper_builds_offline_with_its_panels(paper):
    report = W.build(paper, profile="smoke", entity="team", project="proj")
    assert isinstance(report, wr.Report) and report.title.endswith("(smoke)")
    got = {d["title"]: " ".join(filter(None, [d["x"], d["y"]])) for d in W.panels(report)}
    expected = {title: keys for p, title, keys in EXPECTED if p == paper}
    assert expected and {t: got.get(t) for t in expected} == expected
    for grid in (b for b in report.blocks if isinstance(b, wr.PanelGrid)):
        for rs in grid.runsets:
            assert (rs.entity, rs.project) == ("team", "proj")
            assert "Config(\"profile.name\") == 'smoke'" in rs.filters
            assert expr.expr_to_filters(rs.filters).filters      # the filter string parses (offline, no API)


def test_alpha_metric_regex_matches_what_alpha_trajectory_logs():
    import re

    report = W.build("correia2019")
    regexes = [p.metric_regex for b in report.blocks if isinstance(b, wr.PanelGrid) for p in b.panels
               if isinstance(p, wr.LinePlot) and p.metric_regex and p.metric_regex.startswith("^alpha/")]
    logged = [f"alpha/{k}/l0/h3" for k in ("enc_self", "dec_self", "context")]
    assert [[bool(re.match(r, m)) for m in logged] for r in regexes] == [[True, False, False], [False, True, False],
                                                                          [False, False, True]]


def test_command_offline_writes_the_outline(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("WANDB_MODE", "offline")
    monkeypatch.setattr(W, "publish", lambda r: pytest.fail("offline must not publish"))
    assert W.main(["peters2019", "--profile", "smoke", "--out", str(tmp_path)]) == 0
    text = (tmp_path / "wandb_report.md").read_text()
    assert text.startswith("# W&B report: Peters") and "| ScatterPlot | BLEU vs α | `config.mapping.alpha` |" in text
    assert "run set **peters2019/table1_medium**" in text
    assert "not published" in capsys.readouterr().out


def test_command_online_publishes_or_says_why_not(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("WANDB_MODE", "online")
    monkeypatch.setattr(W, "publish", lambda r: f"https://wandb.example/{r.entity}/{r.project}/reports/x")
    assert W.main(["correia2019", "--entity", "team", "--out", str(tmp_path)]) == 0
    assert "https://wandb.example/team/sparselab/reports/x" in capsys.readouterr().out

    def not_logged_in(report):
        raise Exception("not logged in to W&B")

    monkeypatch.setattr(W, "publish", not_logged_in)
    assert W.main(["correia2019", "--entity", "team", "--out", str(tmp_path)]) == 1
    assert "not logged in" in capsys.readouterr().err and (tmp_path / "wandb_report.md").exists()


def test_unknown_paper_is_refused():
    with pytest.raises(ValueError, match="martins2016"):
        W.build("vaswani2017")
    with pytest.raises(SystemExit):
        W.main(["vaswani2017"])

