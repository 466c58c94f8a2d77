"""What the fused kernels take, decidable from shapes alone (no triton import, no device read)."""
from __future__ import annotations

# The short-row kernel holds a whole key row in registers (the threshold needs the whole row), padded to the next
# power of two (>= 16) by masking: it takes rows up to SHORT_ROW_KEYS keys. Longer rows go to the blocked kernel
# (a threshold pass over key blocks, then flash-style passes over the non-zero blocks), which has no row limit of
# its own; MAX_KEYS bounds it where its int32 index arithmetic (row · stride, the block mask) stays exact at B · H up
# to 256 and D up to 128 (the dropout counter (b·h·Lq + i)·Lk + j wraps past 2^31 probabilities: the same bits
# forward and backward, drawn from a shorter cycle).
SHORT_ROW_KEYS = 256
MAX_KEYS = 131072
MAX_HEAD_DIM = 256


def supports(lk: int, head_dim: int) -> bool:
    """Whether the fused kernels take a key row of ``lk`` keys and heads of ``head_dim`` dims."""
    return 0 < lk <= MAX_KEYS and 0 < head_dim <= MAX_HEAD_DIM
