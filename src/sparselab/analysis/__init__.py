"""Statistics of sparse probability mappings that every task and report shares."""
from .divergence import js_divergence, kl_divergence

__all__ = ["js_divergence", "kl_divergence"]
