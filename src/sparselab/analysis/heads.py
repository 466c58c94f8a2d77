"""Attention-head statistics of Correia, Niculae & Martins (2019), *Adaptively Sparse Transformers*, §5.

One input contract (the Transformer returns it per layer and attention type): ``attn`` (B, H, Lq, Lk)
probabilities, ``query_mask`` (B, Lq) and ``key_mask`` (B, Lk) bool, True at real tokens. Rows of padded
queries may hold anything (even NaN) and are never read; padded keys and, in ``dec_self``, future keys hold 0.
Attention types (:data:`KINDS`): ``enc_self``, ``dec_self`` (causal) and ``context`` (decoder queries over
encoder keys).

* **Head density** (Figures 4 and 5): the share of nonzero weights of a head, nonzero cells / possible cells,
  summed over sentences; possible cells per sentence are src² (``enc_self``), tgt(tgt+1)/2 (``dec_self``) and
  src·tgt (``context``).
* **Jensen–Shannon head diversity** of a layer (Figure 6): per real query position, with p_j the distribution of
  head j over the keys, JS = [H(mean_j p_j) − mean_j H(p_j)] / log(#heads) (Shannon entropy, so 0 ≤ JS ≤ 1:
  0 when every head attends alike, 1 when the heads put their mass on disjoint keys); averaged over the query
  positions of the validation set.
* **Learned α per attention type and layer** (Figures 2 and 3): :func:`normalizer_site` reads (type, layer)
  off a normalizer's module name, :func:`learned_alphas` collects every learnable
  :class:`sparselab.mappings.Entmax`.

Each statistic has a function over one batch and a torchmetrics ``Metric`` that sums it over batches (on any
device, and across processes under DDP).
"""
from __future__ import annotations

import math
import re
from typing import Iterable, Sequence

import torch
from torch import nn
from torchmetrics import Metric

from sparselab.analysis.head_summary import KINDS
from sparselab.mappings import Entmax


def _check(attn: torch.Tensor, query_mask: torch.Tensor, key_mask: torch.Tensor) -> None:
    if attn.ndim != 4:
        raise ValueError(f"attn: expected (B, H, Lq, Lk), got shape {tuple(attn.shape)}")
    B, _, Lq, Lk = attn.shape
    if tuple(query_mask.shape) != (B, Lq) or tuple(key_mask.shape) != (B, Lk):
        raise ValueError(f"masks: expected query_mask {(B, Lq)} and key_mask {(B, Lk)} for attn {tuple(attn.shape)}, "
                         f"got {tuple(query_mask.shape)} and {tuple(key_mask.shape)}")


def _check_kind(kind: str) -> None:
    if kind not in KINDS:
        raise ValueError(f"kind: expected one of {', '.join(KINDS)}, got {kind!r}")


# ---------------------------------------------------------------- head density
def possible_cells(query_mask: torch.Tensor, key_mask: torch.Tensor, kind: str) -> torch.Tensor:
    """(B, Lq, Lk) bool: the cells a head may put weight on. Real query × real key; ``dec_self`` keeps key j ≤
    query i only (with right padding: tgt(tgt+1)/2 cells per sentence)."""
    _check_kind(kind)
    cells = query_mask[:, :, None] & key_mask[:, None, :]
    if kind == "dec_self":
        if query_mask.shape[1] != key_mask.shape[1]:
            raise ValueError("dec_self: queries and keys are the same target positions, so Lq must equal Lk")
        L = query_mask.shape[1]
        cells = cells & torch.ones(L, L, dtype=torch.bool, device=cells.device).tril()
    return cells


def density_counts(attn, query_mask, key_mask, kind: str) -> tuple[torch.Tensor, torch.Tensor]:
    """``(nonzero (H,), cells ())``: nonzero weights per head among the possible cells, and the number of
    possible cells (the same for every head); sum both over batches for a data set's density."""
    _check(attn, query_mask, key_mask)
    cells = possible_cells(query_mask.to(attn.device), key_mask.to(attn.device), kind)
    nonzero = ((attn > 0) & cells[:, None]).sum((0, 2, 3))
    return nonzero, cells.sum()


def head_density(attn, query_mask, key_mask, kind: str) -> torch.Tensor:
    """(H,) share of nonzero weights per head in this batch: nonzero cells / possible cells."""
    nonzero, cells = density_counts(attn, query_mask, key_mask, kind)
    return nonzero.double() / cells.clamp(min=1)


class HeadDensity(Metric):
    """:func:`head_density` over many batches: the counts are summed, then divided."""

    full_state_update = False

    def __init__(self, num_heads: int, kind: str, **kwargs):
        super().__init__(**kwargs)
        _check_kind(kind)
        self.kind = kind
        self.add_state("nonzero", torch.zeros(int(num_heads), dtype=torch.long), dist_reduce_fx="sum")
        self.add_state("cells", torch.tensor(0, dtype=torch.long), dist_reduce_fx="sum")

    def update(self, attn, query_mask, key_mask) -> None:
        nonzero, cells = density_counts(attn, query_mask, key_mask, self.kind)
        if nonzero.numel() != self.nonzero.numel():
            raise ValueError(f"attn has {nonzero.numel()} heads, this metric counts {self.nonzero.numel()}")
        self.nonzero += nonzero
        self.cells += cells

    def compute(self) -> torch.Tensor:
        return self.nonzero.double() / self.cells.clamp(min=1)


# ---------------------------------------------------------------- Jensen–Shannon head diversity
def _entropy(p: torch.Tensor) -> torch.Tensor:
    """Shannon entropy (nats) along the last dim, 0 log 0 = 0."""
    return -torch.special.xlogy(p, p).sum(-1)


def js_per_query(attn, query_mask, key_mask) -> torch.Tensor:
    """(B, Lq) normalised JS diversity of the heads at every query position (float64; meaningless at padded
    queries, which :func:`js_diversity` leaves out)."""
    _check(attn, query_mask, key_mask)
    H = attn.shape[1]
    if H < 2:
        raise ValueError("JS head diversity needs at least 2 heads (it is normalised by log #heads)")
    p = attn.double().masked_fill(~key_mask.to(attn.device)[:, None, None, :], 0.0)
    return (_entropy(p.mean(1)) - _entropy(p).mean(1)) / math.log(H)


def js_sums(attn, query_mask, key_mask) -> tuple[torch.Tensor, torch.Tensor]:
    """``(sum of JS over real query positions, their number)``: sum both over batches for a data set's mean."""
    js = js_per_query(attn, query_mask, key_mask)[query_mask.to(attn.device)]
    return js.sum(), torch.tensor(js.numel(), device=js.device)


def js_diversity(attn, query_mask, key_mask) -> torch.Tensor:
    """Mean normalised JS head diversity over the real query positions of this batch (a scalar)."""
    total, n = js_sums(attn, query_mask, key_mask)
    return total / n.clamp(min=1)


class JSDiversity(Metric):
    """:func:`js_diversity` of one layer over many batches: the mean over every real query position."""

    full_state_update = False

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.add_state("total", torch.tensor(0.0, dtype=torch.float64), dist_reduce_fx="sum")
        self.add_state("count", torch.tensor(0, dtype=torch.long), dist_reduce_fx="sum")

    def update(self, attn, query_mask, key_mask) -> None:
        total, n = js_sums(attn, query_mask, key_mask)
        self.total += total.to(self.total.dtype)
        self.count += n

    def compute(self) -> torch.Tensor:
        return self.total / self.count.clamp(min=1)


# ---------------------------------------------------------------- learned α per attention type and layer
# (regex, kind) tried in order on a normalizer's module name; group `layer` is the layer index. Context before
# dec_self: a decoder layer holds both. Pass your own to AlphaTrajectory / learned_alphas for other names.
DEFAULT_SITES: tuple[tuple[str, str], ...] = (
    (r"(?:^|\.)encoder\..*?(?P<layer>\d+)\..*self", "enc_self"),
    (r"(?:^|\.)decoder\..*?(?P<layer>\d+)\..*(?:context|cross|src|enc_dec|encdec)", "context"),
    (r"(?:^|\.)decoder\..*?(?P<layer>\d+)\..*self", "dec_self"),
)
# learnable normalizers that are not attention heads: the output layer's (a learned output / loss α, e.g.
# experiment=correia2019/output_alpha; its final value is the run's ``output_alpha`` metric)
NOT_HEADS: tuple[str, ...] = (r"(?:^|\.)output_normalizer$",)


def normalizer_site(name: str, sites: Sequence[tuple[str, str]] = DEFAULT_SITES) -> tuple[str, int] | None:
    """``(kind, layer)`` of a normalizer from its module name, e.g. ``decoder.layers.2.context_attn.normalizer``
    -> ``("context", 2)``; None when no pattern matches."""
    for pattern, kind in sites:
        m = re.search(pattern, name)
        if m:
            _check_kind(kind)
            return kind, int(m.group("layer"))
    return None


def learnable_normalizers(module: nn.Module, sites: Sequence[tuple[str, str]] = DEFAULT_SITES,
                          not_heads: Sequence[str] = NOT_HEADS) -> dict[tuple[str, int], tuple[str, Entmax]]:
    """Every learnable attention :class:`Entmax` under ``module``, keyed by ``(kind, layer)``, with its module name.

    Names matching a ``not_heads`` pattern (the output layer's normalizer) are not attention heads and are left
    out. Any other learnable normalizer whose name matches no site pattern, or two at one site, is an error
    (naming them), so a renamed model cannot silently drop heads from the trajectories.
    """
    out: dict[tuple[str, int], tuple[str, Entmax]] = {}
    for name, mod in module.named_modules():
        if not (isinstance(mod, Entmax) and mod.learnable) or any(re.search(p, name) for p in not_heads):
            continue
        site = normalizer_site(name, sites)
        if site is None:
            raise ValueError(f"learned-α normalizer {name!r}: no (attention type, layer) pattern matches its name; "
                             f"patterns: {[p for p, _ in sites]}")
        if site in out:
            raise ValueError(f"learned-α normalizers {out[site][0]!r} and {name!r} both parse as {site}")
        out[site] = (name, mod)
    return dict(sorted(out.items(), key=lambda kv: (KINDS.index(kv[0][0]), kv[0][1])))


@torch.no_grad()
def learned_alphas(module: nn.Module, sites: Sequence[tuple[str, str]] = DEFAULT_SITES
                   ) -> dict[str, dict[int, list[float]]]:
    """``{kind: {layer: [α of each head]}}`` of every learnable normalizer under ``module``."""
    out: dict[str, dict[int, list[float]]] = {}
    for (kind, layer), (_, mod) in learnable_normalizers(module, sites).items():
        out.setdefault(kind, {})[layer] = [float(a) for a in mod.alpha.detach().reshape(-1).cpu()]
    return out


def alphas_by_kind(alphas: dict[str, dict[int, Iterable[float]]]) -> dict[str, list[float]]:
    """Flatten :func:`learned_alphas` to ``{kind: [every head's α]}`` (the data of Figure 3's histograms)."""
    return {kind: [float(a) for layer in sorted(layers) for a in layers[layer]] for kind, layers in alphas.items()}


# ---------------------------------------------------------------- every layer and attention type at once
class HeadStatistics(torch.nn.Module):
    """Head density and JS diversity of every (attention type, layer) of a Transformer, over many batches.

    ``update(maps)`` takes the model's attention maps (an object with ``of(kind) -> [attn per layer]`` and
    ``masks(kind) -> (query_mask, key_mask)``, e.g. :class:`sparselab.models.transformer.AttentionMaps`).
    A ``Module`` of metrics, so that it moves with the LightningModule that owns it."""

    def __init__(self, num_heads: int, enc_layers: int, dec_layers: int, **metric_kwargs):
        """``metric_kwargs`` go to every torchmetrics ``Metric`` (``sync_on_compute=False`` where one process
        computes them alone, e.g. rank 0's evaluation after DDP training)."""
        super().__init__()
        self.layers = {"enc_self": int(enc_layers), "dec_self": int(dec_layers), "context": int(dec_layers)}
        self.density = nn.ModuleDict({f"{k}_{i}": HeadDensity(num_heads, k, **metric_kwargs)
                                      for k, n in self.layers.items() for i in range(n)})
        self.js = nn.ModuleDict({f"{k}_{i}": JSDiversity(**metric_kwargs) for k, n in self.layers.items()
                                 for i in range(n)})

    def reset(self) -> None:
        for m in (*self.density.values(), *self.js.values()):
            m.reset()

    @torch.no_grad()
    def update(self, maps) -> None:
        for kind in self.layers:
            q, k = maps.masks(kind)
            for i, attn in enumerate(maps.of(kind)):
                self.density[f"{kind}_{i}"].update(attn, q, k)
                if attn.shape[1] > 1:
                    self.js[f"{kind}_{i}"].update(attn, q, k)

    def per_head_density(self) -> dict[str, dict[int, list[float]]]:
        """``{kind: {layer: [density of each head]}}``."""
        return {kind: {i: [float(x) for x in self.density[f"{kind}_{i}"].compute()] for i in range(n)}
                for kind, n in self.layers.items()}

    def js_by_layer(self) -> dict[str, dict[int, float]]:
        """``{kind: {layer: mean JS diversity}}`` (empty for single-head models)."""
        return {kind: {i: float(self.js[f"{kind}_{i}"].compute()) for i in range(n)
                       if self.js[f"{kind}_{i}"].update_called}
                for kind, n in self.layers.items()}

    def summary(self) -> dict[str, float]:
        """Scalars to log: ``js/<kind>/l<layer>`` and ``density/<kind>/l<layer>`` (mean over heads)."""
        out = {}
        for kind, layers in self.js_by_layer().items():
            out.update({f"js/{kind}/l{i}": v for i, v in layers.items()})
        for kind, layers in self.per_head_density().items():
            out.update({f"density/{kind}/l{i}": sum(v) / len(v) for i, v in layers.items()})
        return out
