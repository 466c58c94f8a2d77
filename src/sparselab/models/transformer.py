"""Transformer encoder–decoder whose every attention block takes a normalizer module.

Vaswani et al. (2017), with the change of Correia, Niculae & Martins (2019), "Adaptively Sparse
Transformers": in each head of each attention block (encoder self, decoder self, context),

    p = normalizer(q k^T / sqrt(d_k))        (masked keys at -inf, so they get exactly 0),

where ``normalizer`` is softmax (``Entmax(1.0)``), 1.5-entmax (``Entmax(1.5)``) or α-entmax with
a learned α per head (``Entmax(learnable=True, num_heads=H)``: α = clamp(1 + sigmoid(a), 1.01, 2)).

Layers are pre-norm (LayerNorm before each sub-layer, one more after the last layer), as in
OpenNMT-py, which the authors trained with; sinusoidal positions; embeddings scaled by sqrt(d).

``normalizers`` maps each attention type to a *prototype* module; every layer gets its own deep copy,
re-initialised (``reset_parameters``), so a learned α is one parameter set per layer and type,
drawn independently (a ~ N(0, 1) in the paper) -- 6 layers x 3 types x 8 heads = 144 α in Base.

Decoding is incremental: :meth:`step` runs one target position through the decoder with each
layer's self-attention keys/values of the earlier positions cached (exact, since decoder
self-attention is causal), and the context keys/values computed once per source.
"""
from __future__ import annotations

import copy
import math
from dataclasses import dataclass

import torch
from torch import nn

from sparselab.mappings import Entmax

ATTENTION_TYPES = ("enc_self", "dec_self", "context")


# How an attention block computes its output (``model.attention_impl``):
#   materialized  the score tensor, the normalizer module, then @ v (the probabilities exist: attention maps, head
#                 statistics, any normalizer);
#   fused         one fused kernel per block where it applies and the probabilities are not asked for:
#                 α-entmax with 1 < α <= 2, fixed or learned per head (``sparselab.kernels.entmax_attention``,
#                 key rows up to ``sparselab.kernels.MAX_KEYS``), softmax (``scaled_dot_product_attention``);
#                 anything else stays materialized;
#   auto          fused in CUDA training, materialized otherwise (CPU, evaluation, decoding, attention maps).
ATTENTION_IMPLS = ("auto", "fused", "materialized")


def fused_alpha(normalizer: nn.Module):
    """The α a fused kernel computes ``normalizer`` with: 1.0 (softmax: SDPA), a float in (1, 2], or the learned
    per-head tensor (its clamp range inside (1, 2]); None where only the materialised path computes it
    (another module, α outside (1, 2], a capped iteration count ``n_iter``)."""
    if not isinstance(normalizer, Entmax) or normalizer.n_iter is not None or normalizer.dim not in (-1, 3):
        return None
    if not normalizer.learnable:
        a = normalizer.fixed_alpha
        return a if a == 1.0 or 1.0 < a <= 2.0 else None
    if not (1.0 < normalizer.alpha_min and normalizer.alpha_max <= 2.0):
        return None
    return normalizer.alpha


class MultiHeadAttention(nn.Module):
    """Scaled dot-product attention over ``heads`` heads with a normalizer module over the keys.

    ``forward(query (B,Lq,d), kv (B,Lk,d), key_mask, causal, need_probs) -> (out (B,Lq,d), probs (B,H,Lq,Lk))``;
    ``key_mask`` (B,Lk) is boolean, True where a key may be attended; ``causal``: query i attends keys j <= i.
    ``probs`` is None when ``need_probs`` is False and a fused kernel ran (``attention_impl``).
    ``attn_dropout`` drops attention probabilities in training (zeros stay zero)."""

    def __init__(self, d_model: int, heads: int, normalizer: nn.Module, attn_dropout: float = 0.0,
                 attention_impl: str = "auto"):
        super().__init__()
        if d_model % heads:
            raise ValueError(f"model.d_model={d_model} must be divisible by model.heads={heads}")
        if attention_impl not in ATTENTION_IMPLS:
            raise ValueError(f"model.attention_impl: expected one of {', '.join(ATTENTION_IMPLS)}, "
                             f"got {attention_impl!r}")
        self.heads, self.d_k = int(heads), d_model // heads
        self.q = nn.Linear(d_model, d_model)
        self.k = nn.Linear(d_model, d_model)
        self.v = nn.Linear(d_model, d_model)
        self.out = nn.Linear(d_model, d_model)
        self.normalizer = normalizer
        self.drop = nn.Dropout(attn_dropout)
        self.attention_impl = attention_impl

    def _split(self, x: torch.Tensor) -> torch.Tensor:          # (B,L,d) -> (B,H,L,d_k)
        return x.view(x.size(0), x.size(1), self.heads, self.d_k).transpose(1, 2)

    def keys_values(self, kv: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        return self._split(self.k(kv)), self._split(self.v(kv))

    def fused_alpha_for(self, q: torch.Tensor, lk: int):
        """The normalizer's α when a fused kernel computes this call (see ``ATTENTION_IMPLS``), else None."""
        if self.attention_impl == "materialized" or (self.attention_impl == "auto"
                                                      and not (q.is_cuda and self.training)):
            return None
        alpha = fused_alpha(self.normalizer)
        if alpha is None or isinstance(alpha, float) and alpha == 1.0:
            return alpha
        from sparselab import kernels

        return alpha if kernels.available() and kernels.supports(lk, self.d_k) else None

    def _fused(self, q, k, v, key_mask, causal, alpha):
        p_drop = self.drop.p if self.training else 0.0
        if isinstance(alpha, float) and alpha == 1.0:
            mask = None if key_mask is None else key_mask[:, None, None, :]
            if causal and mask is not None:
                mask = mask & torch.ones(q.size(2), k.size(2), dtype=torch.bool, device=q.device).tril()
            return nn.functional.scaled_dot_product_attention(q, k, v, attn_mask=mask, dropout_p=p_drop,
                                                              is_causal=causal and mask is None)
        from sparselab.kernels import entmax_attention

        if isinstance(alpha, torch.Tensor) and alpha.dim() == 0:
            alpha = alpha.expand(self.heads)
        return entmax_attention(q, k, v, alpha, key_padding_mask=key_mask, causal=causal, dropout_p=p_drop)

    def attend(self, query: torch.Tensor, k: torch.Tensor, v: torch.Tensor, key_mask: torch.Tensor | None = None,
               causal: bool = False, need_probs: bool = True):
        q = self._split(self.q(query))
        alpha = None if need_probs else self.fused_alpha_for(q, k.size(2))
        if alpha is not None:
            ctx, probs = self._fused(q, k, v, key_mask, causal, alpha), None
        else:
            scores = (q / math.sqrt(self.d_k)) @ k.transpose(-1, -2)
            mask = None if key_mask is None else key_mask[:, None, None, :]
            if causal:
                tri = torch.ones(q.size(2), k.size(2), dtype=torch.bool, device=q.device).tril()
                mask = tri[None, None] if mask is None else tri[None, None] & mask
            if mask is not None:
                scores = scores.masked_fill(~mask, float("-inf"))
            probs = self.normalizer(scores)
            ctx = self.drop(probs) @ v
        ctx = ctx.transpose(1, 2).reshape(query.size(0), query.size(1), -1)
        return self.out(ctx), probs

    def forward(self, query, kv, key_mask=None, causal=False, need_probs=True):
        k, v = self.keys_values(kv)
        return self.attend(query, k, v, key_mask, causal, need_probs)


class FeedForward(nn.Sequential):
    def __init__(self, d_model: int, d_ff: int, dropout: float):
        super().__init__(nn.Linear(d_model, d_ff), nn.ReLU(), nn.Dropout(dropout), nn.Linear(d_ff, d_model))


class EncoderLayer(nn.Module):
    def __init__(self, d_model, heads, d_ff, dropout, attn_dropout, normalizer, attention_impl="auto"):
        super().__init__()
        self.self_attn = MultiHeadAttention(d_model, heads, normalizer, attn_dropout, attention_impl)
        self.ff = FeedForward(d_model, d_ff, dropout)
        self.norm_attn, self.norm_ff = nn.LayerNorm(d_model), nn.LayerNorm(d_model)
        self.drop = nn.Dropout(dropout)

    def forward(self, x, key_mask, need_probs=True):
        y = self.norm_attn(x)
        a, p = self.self_attn(y, y, key_mask, need_probs=need_probs)
        x = x + self.drop(a)
        return x + self.drop(self.ff(self.norm_ff(x))), p


class DecoderLayer(nn.Module):
    def __init__(self, d_model, heads, d_ff, dropout, attn_dropout, self_normalizer, context_normalizer,
                 attention_impl="auto"):
        super().__init__()
        self.self_attn = MultiHeadAttention(d_model, heads, self_normalizer, attn_dropout, attention_impl)
        self.context_attn = MultiHeadAttention(d_model, heads, context_normalizer, attn_dropout, attention_impl)
        self.ff = FeedForward(d_model, d_ff, dropout)
        self.norm_self, self.norm_ctx, self.norm_ff = (nn.LayerNorm(d_model) for _ in range(3))
        self.drop = nn.Dropout(dropout)

    def forward(self, x, self_kv, self_key_mask, causal, ctx_kv, ctx_key_mask, need_probs=True):
        """``self_kv``: the self-attention keys/values of every position this query may see (the whole
        prefix in teacher forcing, causal; cached + new in incremental decoding, not causal)."""
        a, p_self = self.self_attn.attend(self.norm_self(x), *self_kv, self_key_mask, causal, need_probs)
        x = x + self.drop(a)
        c, p_ctx = self.context_attn.attend(self.norm_ctx(x), *ctx_kv, ctx_key_mask, False, need_probs)
        x = x + self.drop(c)
        return x + self.drop(self.ff(self.norm_ff(x))), p_self, p_ctx


def sinusoid_positions(n: int, d: int) -> torch.Tensor:
    """PE[pos, 2i] = sin(pos / 10000^(2i/d)), PE[pos, 2i+1] = cos(...) (Vaswani et al. 2017)."""
    pos = torch.arange(n, dtype=torch.float32).unsqueeze(1)
    div = torch.exp(torch.arange(0, d, 2, dtype=torch.float32) * (-math.log(10000.0) / d))
    pe = torch.zeros(n, d)
    pe[:, 0::2] = torch.sin(pos * div)
    pe[:, 1::2] = torch.cos(pos * div)[:, : d // 2]
    return pe


def _fresh_copy(prototype: nn.Module) -> nn.Module:
    """A deep copy of ``prototype`` with its parameters drawn again (``reset_parameters`` where the
    module has one), so that copies do not share one random draw."""
    m = copy.deepcopy(prototype)
    for sub in m.modules():
        if hasattr(sub, "reset_parameters"):
            sub.reset_parameters()
    return m


@dataclass
class AttentionMaps:
    """Per attention type, one (B,H,Lq,Lk) tensor per layer; ``src_mask`` (B,S), ``tgt_mask`` (B,T)."""
    enc_self: list[torch.Tensor]
    dec_self: list[torch.Tensor]
    context: list[torch.Tensor]
    src_mask: torch.Tensor
    tgt_mask: torch.Tensor

    def of(self, kind: str) -> list[torch.Tensor]:
        return getattr(self, kind)

    def masks(self, kind: str) -> tuple[torch.Tensor, torch.Tensor]:
        """(query_mask, key_mask) of an attention type."""
        return {"enc_self": (self.src_mask, self.src_mask), "dec_self": (self.tgt_mask, self.tgt_mask),
                "context": (self.tgt_mask, self.src_mask)}[kind]


@dataclass
class TransformerState:
    """Beam-search state for N hypotheses: the encoder output and source mask, each decoder layer's
    context keys/values (fixed) and self-attention keys/values of the positions decoded so far."""
    memory: torch.Tensor                                   # (N,S,d)
    src_mask: torch.Tensor                                 # (N,S)
    ctx_kv: list[tuple[torch.Tensor, torch.Tensor]]        # per layer, each (N,H,S,d_k)
    self_kv: list[tuple[torch.Tensor, torch.Tensor]]       # per layer, each (N,H,t,d_k)

    def select(self, index: torch.Tensor) -> "TransformerState":
        return TransformerState(self.memory[index], self.src_mask[index],
                                [(k[index], v[index]) for k, v in self.ctx_kv],
                                [(k[index], v[index]) for k, v in self.self_kv])

    @property
    def length(self) -> int:
        return self.self_kv[0][0].size(2) if self.self_kv else 0


class Transformer(nn.Module):
    """``forward(src, src_len, tgt_in, return_attn=False) -> logits (B,T,V)`` (and :class:`AttentionMaps`);
    ``encode``/``step`` for beam search (the interface of :class:`sparselab.models.seq2seq.Seq2Seq`).

    ``normalizers``: ``{"enc_self": module, "dec_self": module, "context": module}`` prototypes (missing
    types: softmax). ``tie_output``: the output projection shares the target embedding matrix.
    ``output_normalizer``: optional output mapping with parameters (e.g. ``Entmax(learnable=True)``).
    ``attention_impl``: ``auto`` | ``fused`` | ``materialized``, how attention blocks compute (``ATTENTION_IMPLS``):
    the same function either way, so it is machinery, not part of a job's identity."""

    def __init__(self, src_vocab: int, tgt_vocab: int, *, src_pad_id: int, tgt_pad_id: int, bos_id: int,
                 eos_id: int, d_model: int = 512, heads: int = 8, enc_layers: int = 6, dec_layers: int = 6,
                 d_ff: int = 2048, dropout: float = 0.1, attn_dropout: float = 0.0,
                 normalizers: dict[str, nn.Module] | None = None, tie_output: bool = True, max_positions: int = 1024,
                 output_normalizer: nn.Module | None = None, attention_impl: str = "auto"):
        super().__init__()
        normalizers = dict(normalizers or {})
        unknown = sorted(set(normalizers) - set(ATTENTION_TYPES))
        if unknown:
            raise ValueError(f"model.normalizers: unknown attention type(s) {unknown}; valid: {', '.join(ATTENTION_TYPES)}")
        proto = {t: normalizers.get(t) if normalizers.get(t) is not None else Entmax(1.0) for t in ATTENTION_TYPES}
        self.d_model, self.heads = int(d_model), int(heads)
        self.src_pad_id, self.tgt_pad_id = int(src_pad_id), int(tgt_pad_id)
        self.bos_id, self.eos_id = int(bos_id), int(eos_id)
        self.src_emb = nn.Embedding(src_vocab, d_model, padding_idx=self.src_pad_id)
        self.tgt_emb = nn.Embedding(tgt_vocab, d_model, padding_idx=self.tgt_pad_id)
        for emb in (self.src_emb, self.tgt_emb):   # N(0, d^-1/2): with the sqrt(d) scale, unit-variance inputs
            nn.init.normal_(emb.weight, 0.0, d_model ** -0.5)
            nn.init.zeros_(emb.weight[emb.padding_idx])
        self.register_buffer("positions", sinusoid_positions(max_positions, d_model), persistent=False)
        self.attention_impl = attention_impl
        self.encoder = nn.ModuleList([EncoderLayer(d_model, heads, d_ff, dropout, attn_dropout,
                                                   _fresh_copy(proto["enc_self"]), attention_impl)
                                      for _ in range(enc_layers)])
        self.decoder = nn.ModuleList([DecoderLayer(d_model, heads, d_ff, dropout, attn_dropout,
                                                   _fresh_copy(proto["dec_self"]), _fresh_copy(proto["context"]),
                                                   attention_impl)
                                      for _ in range(dec_layers)])
        self.enc_norm, self.dec_norm = nn.LayerNorm(d_model), nn.LayerNorm(d_model)
        self.out = nn.Linear(d_model, tgt_vocab, bias=False)
        if tie_output:
            self.out.weight = self.tgt_emb.weight
        self.drop = nn.Dropout(dropout)
        # the output mapping when it has parameters (a learned output α, beyond the paper); the loss and the
        # beam search read its α. None: the output α is a setting of the training (mapping.alpha).
        self.output_normalizer = output_normalizer

    def _embed(self, emb: nn.Embedding, ids: torch.Tensor, start: int = 0) -> torch.Tensor:
        pos = self.positions[start: start + ids.size(1)]
        return self.drop(emb(ids) * math.sqrt(self.d_model) + pos)

    # ------------------------------------------------------------ encoder
    def _encode(self, src: torch.Tensor, need_probs: bool = True):
        src_mask = src != self.src_pad_id
        x = self._embed(self.src_emb, src)
        probs = []
        for layer in self.encoder:
            x, p = layer(x, src_mask, need_probs)
            probs.append(p)
        return self.enc_norm(x), src_mask, probs

    def encode(self, src: torch.Tensor, src_len: torch.Tensor | None = None) -> TransformerState:
        memory, src_mask, _ = self._encode(src)
        ctx_kv = [layer.context_attn.keys_values(memory) for layer in self.decoder]
        empty = memory.new_zeros(memory.size(0), self.heads, 0, self.d_model // self.heads)
        return TransformerState(memory, src_mask, ctx_kv, [(empty, empty) for _ in self.decoder])

    # ------------------------------------------------------------ teacher forcing
    def forward(self, src, src_len, tgt_in, return_attn: bool = False):
        # without return_attn no block needs its probabilities: a fused kernel may compute it (attention_impl)
        memory, src_mask, enc_probs = self._encode(src, need_probs=return_attn)
        tgt_mask = tgt_in != self.tgt_pad_id
        x = self._embed(self.tgt_emb, tgt_in)
        dec_probs, ctx_probs = [], []
        for layer in self.decoder:
            y = layer.norm_self(x)
            x, p_self, p_ctx = layer(x, layer.self_attn.keys_values(y), tgt_mask, True,
                                     layer.context_attn.keys_values(memory), src_mask, need_probs=return_attn)
            dec_probs.append(p_self)
            ctx_probs.append(p_ctx)
        logits = self.out(self.dec_norm(x))
        if not return_attn:
            return logits
        return logits, AttentionMaps(enc_probs, dec_probs, ctx_probs, src_mask, tgt_mask)

    # ------------------------------------------------------------ one decoder step
    def step(self, y_prev: torch.Tensor, state: TransformerState):
        """y_prev (N,) -> logits (N,V), context attention of the last layer averaged over heads (N,S),
        next state (with this position's self-attention keys/values appended)."""
        t = state.length
        x = self._embed(self.tgt_emb, y_prev.unsqueeze(1), start=t)
        new_kv, p_ctx = [], None
        for layer, (k_old, v_old), ctx_kv in zip(self.decoder, state.self_kv, state.ctx_kv):
            k_new, v_new = layer.self_attn.keys_values(layer.norm_self(x))
            kv = (torch.cat([k_old, k_new], 2), torch.cat([v_old, v_new], 2))
            x, _, p_ctx = layer(x, kv, None, False, ctx_kv, state.src_mask)
            new_kv.append(kv)
        logits = self.out(self.dec_norm(x))[:, 0]
        attn = p_ctx[:, :, 0].mean(1)
        return logits, attn, TransformerState(state.memory, state.src_mask, state.ctx_kv, new_kv)
