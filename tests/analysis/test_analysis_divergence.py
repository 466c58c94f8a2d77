"""sparselab.analysis.js_divergence / kl_divergence on every available device."""
from __future__ import annotations

import math

import torch

from sparselab.analysis import js_divergence, kl_divergence
from sparselab.mappings import sparsemax


def test_js_bounds_symmetry_and_sparse_inputs(device):
    p = torch.tensor([[1.0, 0.0, 0.0], [0.5, 0.5, 0.0], [0.2, 0.3, 0.5]], dtype=torch.float64, device=device)
    q = torch.tensor([[0.0, 1.0, 0.0], [0.5, 0.5, 0.0], [0.5, 0.3, 0.2]], dtype=torch.float64, device=device)
    js = js_divergence(p, q)
    assert js.device.type == device.type
    assert math.isclose(js[0].item(), math.log(2), rel_tol=1e-12)   # disjoint supports: the maximum
    assert js[1].item() == 0.0                                      # equal distributions
    assert torch.allclose(js, js_divergence(q, p))                  # symmetric
    m = 0.5 * (p[2] + q[2])
    want = 0.5 * (p[2] * (p[2] / m).log()).sum() + 0.5 * (q[2] * (q[2] / m).log()).sum()
    assert torch.isclose(js[2], want)


def test_kl_is_finite_where_p_is_sparse_and_js_works_batched(device):
    x = torch.randn(4, 5, 7, dtype=torch.float64, device=device)
    p, q = sparsemax(x), sparsemax(x.flip(-1))
    assert torch.isfinite(js_divergence(p, q)).all() and js_divergence(p, q).shape == (4, 5)
    assert (kl_divergence(p, p) == 0).all()
    assert (js_divergence(p, q, dim=1) >= 0).all()
