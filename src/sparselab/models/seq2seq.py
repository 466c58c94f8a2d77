"""LSTM encoder–decoder with Luong global attention (general score) and input feeding.

Peters, Niculae & Martins (2019), inflection model: bidirectional LSTM encoder, LSTM decoder,
attention weights ``entmax(scores, attn_alpha)`` with padding masked as ``-inf`` (so padding gets
exactly 0), output scores trained with the α-entmax Fenchel–Young loss (done by the task).
A plain ``nn.Module``; the Lightning wrapper lives in ``sparselab.tasks.inflection_module``.
"""
from __future__ import annotations

from dataclasses import dataclass

import torch
from torch import nn

from sparselab import mappings


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


class Seq2Seq(nn.Module):
    def __init__(self, src_vocab: int, tgt_vocab: int, emb_size: int = 300, hidden_size: int = 300,
                 enc_layers: int = 2, dec_layers: int = 2, dropout: float = 0.3, attn_alpha: float = 1.0):
        super().__init__()
        if hidden_size % 2:
            raise ValueError(f"model.hidden_size={hidden_size} must be even (bidirectional encoder halves)")
        self.hidden_size, self.dec_layers, self.enc_layers = hidden_size, dec_layers, enc_layers
        self.attn_alpha = float(attn_alpha)
        self.src_emb = nn.Embedding(src_vocab, emb_size, padding_idx=0)
        self.tgt_emb = nn.Embedding(tgt_vocab, emb_size, padding_idx=0)
        self.encoder = nn.LSTM(emb_size, hidden_size // 2, num_layers=enc_layers, bidirectional=True,
                               batch_first=True, dropout=dropout if enc_layers > 1 else 0.0)
        # a stack of LSTM cells (one call per step is much cheaper than nn.LSTM on length-1 inputs on CPU)
        self.decoder = nn.ModuleList([nn.LSTMCell(emb_size + hidden_size if i == 0 else hidden_size, hidden_size)
                                      for i in range(dec_layers)])
        self.attn_in = nn.Linear(hidden_size, hidden_size, bias=False)  # general score: h_t^T W_a h_s
        self.attn_out = nn.Linear(2 * hidden_size, hidden_size, bias=False)
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

        mask = src != 0
        feed = memory.new_zeros(B, self.hidden_size)
        return DecoderState(bridge(h), bridge(c), feed, memory, self.attn_in(memory), mask)

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
        q = x                                                        # (N,H) top decoder layer
        # broadcast-multiply-sum rather than bmm: with S ~ 20 and a batch of 100s of rows, bmm's
        # per-matrix overhead made it the largest CPU cost of a training step (measured, fwd+bwd).
        scores = (state.keys * q.unsqueeze(1)).sum(-1)                # (N,S)
        scores = scores.masked_fill(~state.mask, float("-inf"))
        attn = mappings.entmax(scores, self.attn_alpha, dim=-1)
        ctx = (attn.unsqueeze(2) * state.memory).sum(1)
        feed = torch.tanh(self.attn_out(torch.cat([ctx, q], dim=-1)))
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
    def greedy(self, src, src_len, max_len: int, bos: int = 1, eos: int = 2) -> torch.Tensor:
        """Argmax decoding (batched), for model selection during training: (B, ≤max_len) token ids."""
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
