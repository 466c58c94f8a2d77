"""LightningModules that wire a plain model to its loss, metrics, optimiser and checkpoints."""
