"""Statistics of sparse probability mappings that every task and report shares."""
from .divergence import js_divergence, kl_divergence
from .sparsity import SupportStats, support_size, teacher_forced_sparsity

__all__ = ["js_divergence", "kl_divergence", "SupportStats", "support_size", "teacher_forced_sparsity"]
