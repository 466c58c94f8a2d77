"""Statistics of sparse probability mappings that every task and report shares.

- :mod:`.divergence`  KL and Jensen–Shannon divergences (label proportions)
- :mod:`.sparsity`    support sizes of attention and output distributions (seq2seq)
- :mod:`.heads`       Transformer head density, JS head diversity, learned α per layer (Correia et al. 2019)
- :mod:`.head_roles`  positional, BPE-merging and interrogation heads (Correia et al. 2019, §5.2)
- :mod:`.plateau`     whether a validation curve has stopped improving (MT early stopping and reports)
"""
from .divergence import js_divergence, kl_divergence
from .sparsity import SupportStats, support_size, teacher_forced_sparsity

__all__ = ["js_divergence", "kl_divergence", "SupportStats", "support_size", "teacher_forced_sparsity"]
