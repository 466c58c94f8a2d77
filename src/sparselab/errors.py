"""The user's config mistake, as an exception every layer may raise.

A leaf module (it imports nothing of ours), so that the data layer can raise :class:`ConfigError`
without importing the engine: ``sparselab.engine.errors`` imports ``sparselab.data.errors`` to list
the user errors, and the data layer importing ``sparselab.engine.errors`` back made an import circle.
``sparselab.engine.errors`` re-exports it.
"""
from __future__ import annotations


class ConfigError(ValueError):
    """A config value that cannot work; the message starts with the key (``mapping.alpha: …``)."""
