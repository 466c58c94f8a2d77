"""What the papers' figures show, logged at every validation: a Lightning callback.

:class:`ValidationMedia` keeps the first validation batch of the run (the same sentences at every validation:
the validation loaders are not shuffled) and, after each validation (not the sanity check), runs the model once
on it and logs to the trainer's loggers, through :mod:`sparselab.engine.media` (W&B or TensorBoard):

* **Transformer** (Correia et al. 2019; a model with ``heads``): ``alpha_hist/<kind>`` (every learned head α of
  that attention type, Figure 3), ``density_hist/<kind>`` (every head's density over the whole validation set
  when the module keeps :class:`~sparselab.analysis.heads.HeadStatistics` as ``head_stats`` and runs in one
  process, else over the
  batch; Figures 4-5), and ``attention/maps``: the last layer's heads of the first sentence, one row per
  attention type. The α of every head over steps is :class:`~sparselab.training.alpha_trajectory.AlphaTrajectory`.
* **LSTM seq2seq** (Peters et al. 2019): ``attn_support_hist`` (attended source positions per target token),
  ``out_support_hist`` (tokens with nonzero probability under entmax(logits, α) per target token), and
  ``attention/maps`` of the first sentences; a learned attention α as ``alpha/<module name>``.
* **SNLI** (Martins & Astudillo 2016; a batch with ``premise``): ``attended_words_hist`` (premise words with
  nonzero weight per pair); a learned attention α as ``alpha/<module name>``.

Nothing runs without a logger (``logger=none``). The cost is one forward of a few sentences and one picture built
with numpy (no plotting figure) per validation, logged as one W&B row; there are no per-step media.
"""
from __future__ import annotations

import lightning as L
import torch

from sparselab import mappings
from sparselab.analysis.heads import KINDS, head_density, learnable_normalizers
from sparselab.data.text import to_device
from sparselab.engine import media


def _first(batch: dict, n: int) -> dict:
    """The first ``n`` items of a batch, on the CPU (what the callback keeps between validations)."""
    return {k: (v[:n].detach().cpu().clone() if torch.is_tensor(v) and v.dim() > 0 else v) for k, v in batch.items()}


def _trim(batch: dict, key: str, len_key: str) -> None:
    """Cut padding columns beyond the longest item left (the recurrent encoders pack by length)."""
    if key in batch and len_key in batch:
        batch[key] = batch[key][:, : int(batch[len_key].max())]


class ValidationMedia(L.Callback):
    def __init__(self, n_examples: int = 2, max_heads: int = 8):
        self.n, self.max_heads = int(n_examples), int(max_heads)
        self.batch: dict | None = None

    def on_validation_batch_end(self, trainer, pl_module, outputs, batch, batch_idx, dataloader_idx=0):
        if self.batch is None and batch_idx == 0 and dataloader_idx == 0 and trainer.loggers \
                and isinstance(batch, dict):
            self.batch = _first(batch, self.n)
            for key, len_key in (("src", "src_len"), ("premise", "premise_len"), ("hypothesis", "hypothesis_len")):
                _trim(self.batch, key, len_key)
            if "tgt_out" in self.batch:   # cut the target side to its longest item as well
                keep = int((self.batch["tgt_out"] != pl_module.pad_id).sum(1).max()) if hasattr(pl_module, "pad_id") \
                    else self.batch["tgt_out"].size(1)
                self.batch["tgt_in"], self.batch["tgt_out"] = self.batch["tgt_in"][:, :keep], self.batch["tgt_out"][:, :keep]

    @torch.no_grad()
    def on_validation_epoch_end(self, trainer, pl_module):
        if trainer.sanity_checking or not trainer.loggers or self.batch is None:
            return
        model = getattr(pl_module, "model", pl_module)
        was_training = model.training
        model.eval()
        try:
            batch = to_device(self.batch, pl_module.device)
            if "premise" in batch:
                items = self._nli(model, batch)
            elif hasattr(model, "heads"):
                items = self._transformer(pl_module, model, batch, trainer.world_size)
            elif "tgt_in" in batch:
                items = self._seq2seq(pl_module, model, batch)
            else:
                items = {}
        finally:
            model.train(was_training)
        media.log_media(trainer.loggers, items, int(trainer.global_step))

    # ---- per model kind: {key: Histogram | Picture | float}
    def _transformer(self, pl_module, model, b, world_size: int = 1) -> dict:
        _, maps = model(b["src"], b["src_len"], b["tgt_in"], return_attn=True)
        items: dict = {}
        by_kind: dict[str, list[float]] = {}
        for (kind, _), (_, mod) in learnable_normalizers(model).items():
            by_kind.setdefault(kind, []).extend(float(a) for a in mod.alpha.detach().reshape(-1).cpu())
        items.update({f"alpha_hist/{kind}": media.Histogram(alphas) for kind, alphas in by_kind.items()})
        # Under DDP only rank 0 logs media: computing the module's synced statistics here would be a collective
        # that the other ranks never join. The batch's own density then stands in for them.
        stats = getattr(pl_module, "head_stats", None) if world_size == 1 else None
        if stats is not None:
            density = {k: [d for layer in v.values() for d in layer] for k, v in stats.per_head_density().items()}
        else:
            density = {k: [float(d) for attn in maps.of(k) for d in head_density(attn, *maps.masks(k), k)]
                       for k in KINDS}
        items.update({f"density_hist/{kind}": media.Histogram(v) for kind, v in density.items()})
        src_n, tgt_n = int(maps.src_mask[0].sum()), int(maps.tgt_mask[0].sum())
        cut = {"enc_self": (src_n, src_n), "dec_self": (tgt_n, tgt_n), "context": (tgt_n, src_n)}
        rows = [[h.cpu().numpy() for h in maps.of(k)[-1][0, : self.max_heads, : cut[k][0], : cut[k][1]]]
                for k in KINDS]
        items["attention/maps"] = media.Picture(media.heatmap_grid(rows), caption=(
            "last layer, first validation sentence; rows: " + ", ".join(KINDS) + "; columns: heads"))
        return items

    def _seq2seq(self, pl_module, model, b) -> dict:
        logits, attn = model(b["src"], b["src_len"], b["tgt_in"], return_attn=True)
        pad = getattr(pl_module, "pad_id", getattr(model, "tgt_pad_id", 0))
        keep = b["tgt_out"] != pad
        alpha = pl_module.output_alpha() if hasattr(pl_module, "output_alpha") else getattr(pl_module, "alpha", 1.0)
        probs = mappings.entmax(logits.float(), alpha if torch.is_tensor(alpha) else float(alpha), dim=-1)
        rows = [[attn[i, : int(keep[i].sum()), : int(b["src_len"][i])].cpu().numpy()] for i in range(attn.size(0))]
        return {"attn_support_hist": media.Histogram((attn > 0).sum(-1)[keep].cpu().numpy()),
                "out_support_hist": media.Histogram((probs > 0).sum(-1)[keep].cpu().numpy()),
                "attention/maps": media.Picture(media.heatmap_grid(rows), caption=(
                    "one row per validation item: target (down) × source (across)")),
                **self._learned_alpha(model)}

    def _nli(self, model, b) -> dict:
        _, p = model(b["premise"], b["premise_len"], b["hypothesis"], b["hypothesis_len"])
        items = {} if p is None else {"attended_words_hist": media.Histogram((p > 0).sum(-1).cpu().numpy())}
        return {**items, **self._learned_alpha(model)}

    @staticmethod
    def _learned_alpha(model) -> dict:
        return {f"alpha/{name}": float(mod.alpha.detach().reshape(-1)[0]) for name, mod in model.named_modules()
                if isinstance(mod, mappings.Entmax) and mod.learnable}


def for_run(ctx) -> list:
    """The media callback when the run has a Lightning logger (W&B or TensorBoard), else none."""
    return [ValidationMedia()] if ctx.lightning_logger() is not None else []
