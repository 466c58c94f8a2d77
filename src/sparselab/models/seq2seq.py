"""LSTM encoder–decoder with Luong global attention and input feeding.

Peters, Niculae & Martins (2019), inflection model: bidirectional LSTM encoder, LSTM decoder,
attention :class:`sparselab.models.attention.GlobalAttention` whose normaliser is a module
(``Entmax(attn_alpha)``, a learned-α ``Entmax(learnable=True)``, softmax), padding masked as ``-inf``
(so padding gets exactly 0); output scores are trained with the α-entmax Fenchel–Young loss (done
by :class:`sparselab.training.seq2seq_module.Seq2SeqModule`).

Built from config with Hydra (``conf/model/lstm_seq2seq.yaml``: ``_target_`` this class); the task
fills in the vocabulary sizes and special ids from its vocabularies. ``attention`` is a factory
``(query_size=, key_size=) -> module`` (a ``_partial_`` config), called after the LSTMs are built so
that parameter initialisation draws from the RNG in the same order whatever the attention.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Union

import torch
from torch import nn

from sparselab.models.attention import GlobalAttention


@dataclass
class DecoderState:
    h: torch.Tensor          # (layers, N, H)
    c: torch.Tensor          # (layers, N, H)
    feed: torch.Tensor       # (N, H) attentional hidden of the previous step (input feeding)
    memory: torch.Tensor     # (N, S, H) encoder outputs
    keys: torch.Tensor       # (N, S, H) memory @ W_a^T (precomputed "general" score projection)
    mask: torch.Tensor       # (N, S) True at real source positions

    def select(self, index: torch.Tensor) -> "DecoderState":
        return DecoderState(self.h[:, index], self.c[:, index], self.feed[index], self.memory[index],
                            self.keys[index], self.mask[index])


AttentionSpec = Union[nn.Module, Callable[..., nn.Module], None]


class Seq2Seq(nn.Module):
    """``src_pad_id``/``tgt_pad_id``: padding of the source/target vocabularies (masked in attention,
    zero embedding); ``bos_id``/``eos_id``: the target vocabulary's start and end symbols (decoding).
    ``attention``: a factory called as ``attention(query_size=H, key_size=H)`` (e.g. a partial of
    :class:`GlobalAttention`), a ready module, or None (general score, softmax)."""

    def __init__(self, src_vocab: int, tgt_vocab: int, *, src_pad_id: int, tgt_pad_id: int, bos_id: int,
                 eos_id: int, emb_size: int = 300, hidden_size: int = 300, enc_layers: int = 2,
                 dec_layers: int = 2, dropout: float = 0.3, attention: AttentionSpec = None):
        super().__init__()
        if hidden_size % 2:
            raise ValueError(f"model.hidden_size={hidden_size} must be even (bidirectional encoder halves)")
        self.hidden_size, self.dec_layers, self.enc_layers = hidden_size, dec_layers, enc_layers
        self.src_pad_id, self.tgt_pad_id = int(src_pad_id), int(tgt_pad_id)
        self.bos_id, self.eos_id = int(bos_id), int(eos_id)
        self.src_emb = nn.Embedding(src_vocab, emb_size, padding_idx=self.src_pad_id)
        self.tgt_emb = nn.Embedding(tgt_vocab, emb_size, padding_idx=self.tgt_pad_id)
        self.encoder = nn.LSTM(emb_size, hidden_size // 2, num_layers=enc_layers, bidirectional=True,
                               batch_first=True, dropout=dropout if enc_layers > 1 else 0.0)
        # a stack of LSTM cells (one call per step is much cheaper than nn.LSTM on length-1 inputs on CPU)
        self.decoder = nn.ModuleList([nn.LSTMCell(emb_size + hidden_size if i == 0 else hidden_size, hidden_size)
                                      for i in range(dec_layers)])
        if attention is None:
            attention = GlobalAttention
        self.attention = attention if isinstance(attention, nn.Module) else \
            attention(query_size=hidden_size, key_size=hidden_size)
        self.out = nn.Linear(hidden_size, tgt_vocab)
        self.drop = nn.Dropout(dropout)

    # ------------------------------------------------------------ encoder
    def encode(self, src: torch.Tensor, src_len: torch.Tensor) -> DecoderState:
        B = src.size(0)
        emb = self.drop(self.src_emb(src))
        packed = nn.utils.rnn.pack_padded_sequence(emb, src_len.cpu(), batch_first=True, enforce_sorted=False)
        out, (h, c) = self.encoder(packed)
        memory, _ = nn.utils.rnn.pad_packed_sequence(out, batch_first=True, total_length=src.size(1))

        def bridge(x):  # (layers*2, B, H/2) -> (dec_layers, B, H): concat directions, reuse the last layers
            x = x.view(self.enc_layers, 2, B, -1).transpose(1, 2).reshape(self.enc_layers, B, -1)
            if self.dec_layers <= self.enc_layers:
                return x[-self.dec_layers:].contiguous()
            return torch.cat([x] + [x[-1:]] * (self.dec_layers - self.enc_layers)).contiguous()

        mask = src != self.src_pad_id
        feed = memory.new_zeros(B, self.hidden_size)
        return DecoderState(bridge(h), bridge(c), feed, memory, self.attention.keys(memory), mask)

    # ------------------------------------------------------------ one decoder step
    def step(self, y_prev: torch.Tensor, state: DecoderState):
        """y_prev (N,) -> logits (N,V), attention (N,S), next state."""
        return self._step(self.drop(self.tgt_emb(y_prev)), state)

    def _step(self, emb: torch.Tensor, state: DecoderState):
        x = torch.cat([emb, state.feed], dim=-1)
        hs, cs = [], []
        for i, cell in enumerate(self.decoder):
            h_i, c_i = cell(x, (state.h[i], state.c[i]))
            hs.append(h_i)
            cs.append(c_i)
            x = self.drop(h_i) if i + 1 < len(self.decoder) else h_i
        h, c = torch.stack(hs), torch.stack(cs)
        # x: (N,H) top decoder layer = the attention query
        feed, attn = self.attention(x, state.keys, state.memory, state.mask)
        logits = self.out(self.drop(feed))
        return logits, attn, DecoderState(h, c, feed, state.memory, state.keys, state.mask)

    def forward(self, src, src_len, tgt_in, return_attn: bool = False):
        """Teacher forcing: logits (B,T,V) (and attention (B,T,S))."""
        state = self.encode(src, src_len)
        emb = self.drop(self.tgt_emb(tgt_in))  # one dropout call for all steps, not one per step
        logits, attns = [], []
        for t in range(tgt_in.size(1)):
            lg, attn, state = self._step(emb[:, t], state)
            logits.append(lg)
            if return_attn:
                attns.append(attn)
        logits = torch.stack(logits, 1)
        return (logits, torch.stack(attns, 1)) if return_attn else logits

    @torch.no_grad()
    def greedy(self, src, src_len, max_len: int) -> torch.Tensor:
        """Argmax decoding (batched), for model selection during training: (B, ≤max_len) token ids."""
        bos, eos = self.bos_id, self.eos_id
        state = self.encode(src, src_len)
        y = torch.full((src.size(0),), bos, dtype=torch.long, device=src.device)
        done = torch.zeros_like(y, dtype=torch.bool)
        out = []
        for _ in range(max_len):
            logits, _, state = self.step(y, state)
            y = logits.argmax(-1).masked_fill(done, eos)
            out.append(y)
            done |= y == eos
            if bool(done.all()):
                break
        return torch.stack(out, 1)
