"""What the fused kernel takes, decidable from shapes alone (no triton import, no device read)."""
from __future__ import annotations

# The longest key row one program holds in registers: the threshold needs the whole row. The kernel pads
# a row to the next power of two (>= 16) by masking; callers pass any Lk up to this.
MAX_KEYS = 256
MAX_HEAD_DIM = 256


def supports(lk: int, head_dim: int) -> bool:
    """Whether the fused kernel takes a key row of ``lk`` keys and heads of ``head_dim`` dims."""
    return 0 < lk <= MAX_KEYS and 0 < head_dim <= MAX_HEAD_DIM
