"""The generic Seq2SeqModule: exact-match metric, LR halving with ReduceLROnPlateau after every validation,
ModelCheckpoint model selection loaded with weights_only=True, EarlyStopping, validation after the last step."""
from __future__ import annotations

import random
from functools import partial

import pytest
import torch
from omegaconf import OmegaConf

from sparselab.data.text import PadCollate, PairDataset, Vocab
from sparselab.engine.context import RunContext
from sparselab.engine.trainer import ValidateOnLastStep, make_trainer
from sparselab.mappings import Entmax
from sparselab.models.attention import GlobalAttention
from sparselab.models.seq2seq import Seq2Seq
from sparselab.training.seq2seq_module import Seq2SeqModule, SequenceAccuracy

EOS, PAD = 2, 0


def _naive_accuracy(pred, gold):
    correct = 0
    for p, g in zip(pred.tolist(), gold.tolist()):
        g = g[: sum(x != PAD for x in g)]
        p = p[: p.index(EOS) + 1] if EOS in p else p
        correct += p == g
    return 100.0 * correct / len(gold)


def test_sequence_accuracy_matches_the_definition(device):
    rnd = random.Random(0)
    m = SequenceAccuracy(eos_id=EOS, pad_id=PAD).to(device)
    preds, golds = [], []
    for _ in range(20):
        B, L, T = rnd.randint(1, 6), rnd.randint(1, 7), rnd.randint(1, 7)
        gold = torch.zeros(B, T, dtype=torch.long)
        pred = torch.randint(2, 5, (B, L))
        for b in range(B):
            n = rnd.randint(1, T)
            gold[b, : n - 1] = torch.randint(3, 5, (n - 1,))
            gold[b, n - 1] = EOS
            if rnd.random() < 0.5:                       # make some predictions right
                k = min(n, L)
                pred[b, :k] = gold[b, :k]
        preds.append(pred)
        golds.append(gold)
        m.update(pred.to(device), gold.to(device))
    total = sum(len(g) for g in golds)
    want = sum(_naive_accuracy(p, g) * len(g) / 100.0 for p, g in zip(preds, golds))
    assert m.compute().item() == pytest.approx(100.0 * want / total)
    assert m.compute().dtype == torch.float64


# ---------------------------------------------------------------- a module with a scripted validation

class Scripted(Seq2SeqModule):
    """Validation loss and accuracy follow a script, one value per validation, so the schedule is known."""

    def __init__(self, model, losses, accs, **kw):
        super().__init__(model, alpha=1.5, lr=1e-3, **kw)
        self.losses, self.accs, self.k = losses, accs, 0
        self.snapshots = []

    def make_metric(self):
        return SequenceAccuracy(eos_id=self.model.eos_id, pad_id=self.model.tgt_pad_id)

    def decode(self, batch):
        return self.model.greedy(batch["src"], batch["src_len"], 3)

    def validation_step(self, batch, batch_idx):
        if batch_idx == 0:
            k = min(self.k, len(self.losses) - 1)
            self.val_loss_sum.update(torch.tensor(self.losses[k], dtype=torch.float64))
            self.val_tokens.update(torch.tensor(1.0))
            n = 20
            good = round(self.accs[k] * n / 100)
            self.val_metric.correct += good
            self.val_metric.total += n
            self.val_metric._update_count += 1
            self.k += 1

    def on_validation_epoch_end(self):
        super().on_validation_epoch_end()
        self.snapshots.append({k: v.detach().clone() for k, v in self.model.state_dict().items()})


def _setup(tmp_path, n_items=10):
    src, tgt = Vocab(list("abcdef")), Vocab(list("abcdef"))
    rnd = random.Random(0)
    pairs = [("".join(rnd.choice("abcdef") for _ in range(4)),) * 2 for _ in range(n_items)]
    ds = PairDataset.from_symbols(pairs, src, tgt)
    dl = torch.utils.data.DataLoader(ds, batch_size=2, collate_fn=PadCollate.from_vocabs(src, tgt))
    torch.manual_seed(0)
    model = Seq2Seq(len(src), len(tgt), src_pad_id=src.pad_id, tgt_pad_id=tgt.pad_id, bos_id=tgt.bos_id,
                    eos_id=tgt.eos_id, emb_size=8, hidden_size=8, enc_layers=1, dec_layers=1, dropout=0.0,
                    attention=partial(GlobalAttention, normalizer=Entmax(learnable=True, alpha_init=1.5)))
    ctx = RunContext(run_dir=tmp_path)
    tcfg = OmegaConf.create({"accelerator": "cpu", "devices": 1, "max_epochs": 10, "max_steps": 10,
                             "log_every_n_steps": 50})
    return model, dl, ctx, tcfg


def test_lr_halves_after_each_non_improving_validation_and_best_state_is_kept(tmp_path):
    model, dl, ctx, tcfg = _setup(tmp_path)          # 5 batches per epoch, validate every 2, stop at step 10
    losses = [1.0, 0.9, 0.95, 0.8, 0.85, 0.9]
    accs = [10.0, 30.0, 20.0, 30.0, 25.0, 5.0]
    module = Scripted(model, losses, accs, ctx=ctx)
    cbs = module.callbacks(tmp_path / "ckpt")
    trainer = make_trainer(tcfg, ctx, callbacks=[*cbs, ValidateOnLastStep()], num_sanity_val_steps=0,
                           val_check_interval=2)
    trainer.fit(module, dl, dl)
    steps = [h["step"] for h in module.history]
    # within-epoch checks at batches 2 and 4 of each 5-batch epoch, plus the last step (10) by ValidateOnLastStep
    assert steps == [2, 4, 7, 9, 10]
    # ReduceLROnPlateau(factor .5, patience 0) on val_loss (compared with its best), stepped right after each
    # within-epoch validation; the validation after the last step takes no LR decision (training is over)
    assert [h["lr"] for h in module.history] == [1e-3, 1e-3, 5e-4, 5e-4, 5e-4]
    assert [h["val_loss"] for h in module.history] == losses[:5]
    # best by val_acc (first of the ties) is the state ModelCheckpoint kept; it loads with weights_only=True
    assert module.best_score == 30.0 and module.best_epoch == 0
    assert cbs[0].best_model_path.endswith("best.ckpt")
    assert module.load_best(cbs[0])
    best = module.snapshots[1]
    assert all(torch.equal(v, best[k]) for k, v in module.model.state_dict().items())
    assert not torch.equal(module.model.attention.normalizer.a, module.snapshots[-1]["attention.normalizer.a"])


def test_early_stopping_on_the_task_metric(tmp_path):
    model, dl, ctx, tcfg = _setup(tmp_path)
    tcfg.max_steps = 100
    module = Scripted(model, [1.0] * 50, [10.0, 20.0, 15.0, 5.0, 30.0] + [0.0] * 45, ctx=ctx)
    cbs = module.callbacks(tmp_path / "ckpt", early_stopping_patience=2)
    trainer = make_trainer(tcfg, ctx, callbacks=[*cbs, ValidateOnLastStep()], num_sanity_val_steps=0,
                           val_check_interval=2)
    trainer.fit(module, dl, dl)
    # patience 2: two validations without improving on 20 -> stop; the later 30 is never seen
    assert [h["val_acc"] for h in module.history] == [10.0, 20.0, 15.0, 5.0]
    assert cbs[1].stopping_reason.name != "NOT_STOPPED"
    assert module.best_score == 20.0


def test_checkpointing_is_off_without_a_checkpoint_callback(tmp_path):
    _, _, ctx, tcfg = _setup(tmp_path)
    assert make_trainer(tcfg, ctx).checkpoint_callback is None


def test_early_stopping_takes_its_min_delta(tmp_path):
    """A run must improve dev accuracy by more than min_delta to reset the patience (issue 12)."""
    from lightning.pytorch.callbacks import EarlyStopping

    module = Seq2SeqModule.__new__(Seq2SeqModule)   # callbacks() reads only metric_name / metric_mode
    cbs = Seq2SeqModule.callbacks(module, tmp_path, early_stopping_patience=5, early_stopping_min_delta=0.1)
    stop = [c for c in cbs if isinstance(c, EarlyStopping)]
    assert len(stop) == 1 and stop[0].patience == 5 and abs(float(stop[0].min_delta) - 0.1) < 1e-12
    assert not [c for c in Seq2SeqModule.callbacks(module, tmp_path) if isinstance(c, EarlyStopping)]


def test_paper_rule_halves_only_when_the_loss_rises_over_the_previous_validation(tmp_path):
    """lr_rule="previous" (Peters et al. 2019): compare with the previous validation, not the best (issue 20)."""
    model, dl, ctx, tcfg = _setup(tmp_path)
    tcfg.max_steps = 100
    # 1.0 -> 0.9 (down) -> 0.95 (up: halve) -> 0.92 (down, still above the best 0.9: ReduceLROnPlateau would halve)
    # -> 0.91 (down) -> 0.93 (up: halve)
    losses = [1.0, 0.9, 0.95, 0.92, 0.91, 0.93, 0.8]
    module = Scripted(model, losses, [10.0] * 7, ctx=ctx, lr_rule="previous")
    trainer = make_trainer(tcfg, ctx, callbacks=module.callbacks(tmp_path / "ckpt"), num_sanity_val_steps=0,
                           val_check_interval=2, max_steps=15)
    trainer.fit(module, dl, dl)
    assert [h["lr"] for h in module.history[:6]] == [1e-3, 1e-3, 5e-4, 5e-4, 5e-4, 2.5e-4]
    assert module.lr_halvings() == 2

    best = Scripted(model, losses, [10.0] * 7, ctx=ctx)          # the old rule on the same losses
    trainer = make_trainer(tcfg, ctx, callbacks=best.callbacks(tmp_path / "ckpt2"), num_sanity_val_steps=0,
                           val_check_interval=2, max_steps=15)
    trainer.fit(best, dl, dl)
    assert [h["lr"] for h in best.history[:6]] == [1e-3, 1e-3, 5e-4, 2.5e-4, 1.25e-4, 6.25e-5]

    constant = Scripted(model, losses, [10.0] * 7, ctx=ctx, lr_rule="constant")    # the diagnosis' control
    trainer = make_trainer(tcfg, ctx, callbacks=constant.callbacks(tmp_path / "ckpt3"), num_sanity_val_steps=0,
                           val_check_interval=2, max_steps=15)
    trainer.fit(constant, dl, dl)
    assert [h["lr"] for h in constant.history[:6]] == [1e-3] * 6 and constant.lr_halvings() == 0
    with pytest.raises(ValueError, match="lr_rule"):
        Scripted(model, losses, [10.0], ctx=ctx, lr_rule="sometimes")


def test_early_stopping_patience_counts_only_once_the_run_has_started_to_learn(tmp_path):
    """A run on its initial plateau is not stopped (issue 20); patience counts from the first validation more than
    early_stopping_start points above the first one."""
    model, dl, ctx, tcfg = _setup(tmp_path)
    tcfg.max_steps = 100
    accs = [0.0, 0.0, 5.0, 0.0, 0.0, 0.0, 10.0, 20.0, 20.0, 20.0, 40.0]
    module = Scripted(model, [1.0] * len(accs), accs, ctx=ctx)
    cbs = module.callbacks(tmp_path / "ckpt", early_stopping_patience=2, early_stopping_start=6.0)
    trainer = make_trainer(tcfg, ctx, callbacks=[*cbs, ValidateOnLastStep()], num_sanity_val_steps=0,
                           val_check_interval=2)
    trainer.fit(module, dl, dl)
    # 6 validations on the plateau (5 is not more than 6 above 0) do not count; from 10: 20, then two without
    # improving -> stop
    assert [h["val_acc"] for h in module.history] == accs[:10]
    assert cbs[1].stopping_reason.name != "NOT_STOPPED" and cbs[1].started and cbs[1].first == 0.0
    # without the start rule the same script stops on the plateau
    module = Scripted(model, [1.0] * len(accs), accs, ctx=ctx)
    cbs = module.callbacks(tmp_path / "ckpt2", early_stopping_patience=2)
    trainer = make_trainer(tcfg, ctx, callbacks=[*cbs, ValidateOnLastStep()], num_sanity_val_steps=0,
                           val_check_interval=2)
    trainer.fit(module, dl, dl)
    assert len(module.history) == 5            # 0, 0, 5, then two without improving


def test_translation_stops_by_the_mt_reports_convergence_rule(tmp_path):
    """Issue 32: the translation task stops at the first validation where the MT report's rule says the run has
    stopped improving (2-validation smoothed trend and record both below min_delta over patience × cadence
    updates), not where Lightning's patience counter runs out: gains below min_delta never reset that counter, so
    it stopped a de-en run whose smoothed curve was still rising."""
    from sparselab.reports.peters2019 import convergence
    from sparselab.training.plateau_stopping import PlateauStopping
    from sparselab.training.transformer_module import TransformerModule
    from sparselab.training.translation_module import TranslationModule

    assert TranslationModule.early_stopping is PlateauStopping
    assert TransformerModule.early_stopping is not PlateauStopping      # Correia's report judges a fixed window

    class PlateauScripted(Scripted):
        early_stopping = PlateauStopping

    model, dl, ctx, tcfg = _setup(tmp_path)
    tcfg.max_steps = 100
    # rising 5 points per validation (3 of them: 15, not more than min_delta 15), then flat
    accs = [0.0, 50.0, 55.0, 60.0, 65.0, 70.0, 75.0, 80.0] + [80.0] * 10
    runs = {}
    for name, cls in (("lightning", Scripted), ("plateau", PlateauScripted)):
        module = cls(model, [1.0] * len(accs), accs, ctx=ctx)
        cbs = module.callbacks(tmp_path / name, early_stopping_patience=3, early_stopping_min_delta=15.0)
        trainer = make_trainer(tcfg, ctx, callbacks=[*cbs, ValidateOnLastStep()], num_sanity_val_steps=0,
                               val_check_interval=2, check_val_every_n_epoch=None)
        trainer.fit(module, dl, dl)
        assert cbs[1].stopping_reason.name == "PATIENCE_EXHAUSTED"
        runs[name] = module.history
    # Lightning's counter: 55, 60, 65 are each within 15 of the best 50 -> stops at step 10, still rising
    assert [h["step"] for h in runs["lightning"]][-1] == 10
    # the rule: at step 16 the smoothed curve still gained 15 over 6 updates; at step 18 it gained 12.5 -> stop
    assert [h["step"] for h in runs["plateau"]] == list(range(2, 20, 2))
    rec = {"config": {"trainer": {"val_check_interval": 2},
                      "task": {"early_stopping_patience": 3, "early_stopping_min_delta": 15.0}},
           "extra": {"history": runs["plateau"]}}
    assert convergence.plateau_window(rec) == (6, 2)
    conv = convergence.convergence_of(rec)
    assert conv["stopped"] is True and conv["trend"] == 12.5 and conv["record"] == 10.0
    assert convergence.convergence_of({**rec, "extra": {"history": runs["plateau"][:-1]}})["stopped"] is False


def test_plateau_stopping_needs_a_step_cadence_and_a_higher_is_better_metric():
    from sparselab.training.plateau_stopping import PlateauStopping

    with pytest.raises(ValueError, match="better when higher"):
        PlateauStopping(monitor="val_loss", mode="min", patience=3)
    stop = PlateauStopping(monitor="val_acc", mode="max", patience=3, min_delta=0.25)
    stop._trainer = type("T", (), {"val_check_interval": 1.0})()
    with pytest.raises(ValueError, match="every N training steps"):
        stop.window_steps()
    stop._trainer.val_check_interval = 750
    assert stop.window_steps() == 2250 and stop.gain == 0.25
    # a run checkpointed under EarlyStoppingAfterStart resumes its start flag into PlateauStopping
    from sparselab.training.seq2seq_module import EarlyStoppingAfterStart
    old = EarlyStoppingAfterStart(monitor="val_acc", mode="max", patience=3, start_delta=1.0)
    assert stop.state_key == old.state_key
    old.started, old.first = True, 55.5
    resumed = PlateauStopping(monitor="val_acc", mode="max", patience=3, start_delta=1.0)
    resumed.load_state_dict(old.state_dict())
    assert resumed.started and resumed.first == 55.5
