"""Non-neural reference systems (no training loop, no torch)."""
