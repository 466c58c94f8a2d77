"""Head statistics of Correia et al. (2019) on hand-built attention maps: density, JS diversity, head roles, α sites."""
from __future__ import annotations

import math

import pytest
import torch
from torch import nn

from sparselab.analysis import head_roles as roles
from sparselab.analysis import heads
from sparselab.mappings import Entmax


def lengths_mask(lengths, L, device):
    return torch.arange(L, device=device)[None, :] < torch.tensor(lengths, device=device)[:, None]


def self_maps(lengths, L, device, causal=False):
    """(B, 2, L, L): head 0 one-hot on the query itself, head 1 uniform over the real (causal) keys; padded query
    rows are NaN (the contract lets them hold anything), padded keys 0."""
    B = len(lengths)
    attn = torch.zeros(B, 2, L, L, device=device)
    for b, n in enumerate(lengths):
        for i in range(n):
            attn[b, 0, i, i] = 1.0
            k = i + 1 if causal else n
            attn[b, 1, i, :k] = 1.0 / k
        attn[b, :, n:, :] = float("nan")
    return attn


# ---------------------------------------------------------------- density
@pytest.mark.parametrize("kind", heads.KINDS)
def test_possible_cells_match_the_formula(kind, device):
    src, tgt = [5, 3, 1], [4, 4, 2]
    Lq, Lk = (7, 7) if kind == "enc_self" else (6, 6) if kind == "dec_self" else (6, 7)
    q = src if kind == "enc_self" else tgt
    k = tgt if kind == "dec_self" else src
    cells = heads.possible_cells(lengths_mask(q, Lq, device), lengths_mask(k, Lk, device), kind)
    expected = {"enc_self": sum(s * s for s in src), "dec_self": sum(t * (t + 1) // 2 for t in tgt),
                "context": sum(s * t for s, t in zip(src, tgt))}[kind]
    assert int(cells.sum()) == expected


@pytest.mark.parametrize("kind", ["enc_self", "dec_self"])
def test_head_density_counts_nonzeros_among_possible_cells(kind, device):
    lengths, L = [3, 2], 3
    causal = kind == "dec_self"
    attn = self_maps(lengths, L, device, causal=causal)
    mask = lengths_mask(lengths, L, device)
    cells = 9 + 4 if kind == "enc_self" else 6 + 3
    nonzero, n = heads.density_counts(attn, mask, mask, kind)
    assert nonzero.tolist() == [5, cells] and int(n) == cells          # identity head: one weight per query
    assert heads.head_density(attn, mask, mask, kind).tolist() == pytest.approx([5 / cells, 1.0])


def test_context_density_and_accumulation(device):
    torch.manual_seed(0)
    src, tgt = [3, 2, 4], [2, 1, 3]
    qm, km = lengths_mask(tgt, 3, device), lengths_mask(src, 4, device)
    attn = torch.rand(3, 4, 3, 4, device=device) * km[:, None, None, :]
    attn[attn < 0.3] = 0.0
    whole = heads.head_density(attn, qm, km, "context")
    metric = heads.HeadDensity(num_heads=4, kind="context").to(device)
    metric.update(attn[:2], qm[:2], km[:2])
    metric.update(attn[2:], qm[2:], km[2:])
    assert torch.allclose(metric.compute(), whole)
    cells = sum(s * t for s, t in zip(src, tgt))
    assert torch.allclose(whole, ((attn > 0) & qm[:, None, :, None]).sum((0, 2, 3)).double() / cells)


def test_density_rejects_bad_input(device):
    m = lengths_mask([2], 2, device)
    with pytest.raises(ValueError, match="kind"):
        heads.head_density(torch.ones(1, 1, 2, 2, device=device), m, m, "cross")
    with pytest.raises(ValueError, match="masks"):
        heads.head_density(torch.ones(1, 1, 2, 3, device=device), m, m, "context")


# ---------------------------------------------------------------- JS diversity
def test_js_is_zero_for_identical_heads_and_one_for_disjoint(device):
    mask = lengths_mask([3, 2], 3, device)
    same = self_maps([3, 2], 3, device)[:, 1:].expand(-1, 4, -1, -1)        # 4 copies of the uniform head
    assert float(heads.js_diversity(same, mask, mask)) == pytest.approx(0.0, abs=1e-12)
    disjoint = torch.zeros(1, 3, 3, 3, device=device)
    for h in range(3):
        disjoint[0, h, :, h] = 1.0                                          # head h looks at token h only
    m1 = lengths_mask([3], 3, device)
    assert float(heads.js_diversity(disjoint, m1, m1)) == pytest.approx(1.0)


def test_js_hand_computed_and_padding_ignored(device):
    # one query, head 0 = (1, 0), head 1 = (1/2, 1/2): JS = [H(3/4, 1/4) - (0 + log 2) / 2] / log 2
    attn = torch.tensor([[[[1.0, 0.0]], [[0.5, 0.5]]]], device=device)
    qm, km = lengths_mask([1], 1, device), lengths_mask([2], 2, device)
    mixed = -(0.75 * math.log(0.75) + 0.25 * math.log(0.25))
    expected = (mixed - math.log(2) / 2) / math.log(2)
    assert float(heads.js_diversity(attn, qm, km)) == pytest.approx(expected)
    # a padded query row (NaN) changes nothing; a second batch of identical heads halves the mean
    padded = torch.cat([attn, torch.full_like(attn, float("nan"))], dim=2)
    assert float(heads.js_diversity(padded, lengths_mask([1], 2, device), km)) == pytest.approx(expected)
    metric = heads.JSDiversity().to(device)
    metric.update(attn, qm, km)
    metric.update(torch.full_like(attn, 0.5), qm, km)
    assert float(metric.compute()) == pytest.approx(expected / 2)
    with pytest.raises(ValueError, match="2 heads"):
        heads.js_diversity(attn[:, :1], qm, km)


# ---------------------------------------------------------------- positional heads
def test_positional_heads(device):
    lengths, L = [4, 3], 4
    mask = lengths_mask(lengths, L, device)
    attn = torch.zeros(2, 3, L, L, device=device)
    for b, n in enumerate(lengths):
        for i in range(n):
            attn[b, 0, i, max(i - 1, 0)] = 1.0          # previous token (the first token: itself)
            attn[b, 1, i, min(i + 1, n - 1)] = 1.0      # next token (the last token: itself)
            attn[b, 2, i, :n] = 1.0 / n                 # uniform
        attn[b, :, n:, :] = float("nan")
    metric = roles.PositionalHeads(num_heads=3).to(device)
    metric.update(attn, mask)
    st = {k: v.tolist() for k, v in metric.compute().items()}
    pairs = 3 + 2
    assert st["prev"] == pytest.approx([1.0, 0.0, (3 / 4 + 2 / 3) / pairs])
    assert st["next"] == pytest.approx([0.0, 1.0, (3 / 4 + 2 / 3) / pairs])
    assert st["prev_argmax"] == pytest.approx([1.0, 0.0, 2 / pairs])    # uniform ties go to key 0: query 1 only
    prev = roles.positional_heads({0: st, 1: {k: [v[0] * 0.95, 0, 0] for k, v in st.items()}}, offset=-1)
    assert [(h["layer"], h["head"]) for h in prev["heads"]] == [(0, 0), (1, 0)]
    assert prev["median_confidence"] == pytest.approx((1.0 + 0.95) / 2)
    nxt = roles.positional_heads({0: st}, offset=1)
    assert [h["head"] for h in nxt["heads"]] == [1] and nxt["median_confidence"] == pytest.approx(1.0)
    assert roles.positional_heads({0: st}, threshold=1.01)["median_confidence"] is None


# ---------------------------------------------------------------- BPE-merging heads
def test_word_ids_join_bpe_pieces_and_hyphens():
    assert roles.word_ids(["das", "Haus@@", "boot", "ist", "gro@@", "ß@@", "artig", "."]) == [0, 1, 1, 2, 3, 3, 3, 4]
    assert roles.word_ids(["well", "@-@", "known", "."]) == [0, 0, 0, 1]
    assert roles.word_ids(["well", "@-@", "known"], hyphen=None) == [0, 1, 2]
    ids = roles.word_id_tensor([["a@@", "b"], ["c"]], 3)
    assert ids.tolist() == [[0, 0, -1], [0, -1, -1]]


def test_bpe_merging_score_on_a_hand_built_map(device):
    pieces = ["das", "Haus@@", "boot", "ist", "gro@@", "ß@@", "artig", "."]
    L = len(pieces) + 1                                    # + EOS: no word
    ids = roles.word_id_tensor([pieces], L)
    attn = torch.eye(L, device=device).repeat(1, 2, 1, 1)  # head 0: every piece looks at itself only
    rows = {1: {1: 0.4, 2: 0.6}, 2: {1: 0.9, 2: 0.1}, 4: {4: 0.5, 5: 0.3, 6: 0.2}, 5: {6: 1.0}}
    for i, row in rows.items():
        attn[0, 1, i] = 0.0
        for j, w in row.items():
            attn[0, 1, i, j] = w
    metric = roles.BPEMerging(num_heads=2).to(device)
    metric.update(attn, ids)
    # Haus|boot: max(0.6, 0.9) = 0.9; groß|artig: max(0.3 + 0.2, 1.0, 0) = 1.0; one-piece words do not count
    assert metric.compute().tolist() == pytest.approx([0.0, (0.9 + 1.0) / 2])
    assert int(metric.words) == 2


# ---------------------------------------------------------------- interrogation heads
def test_interrogation_weight_on_the_question_mark(device):
    batch = [["What", "is", "this", "?"], ["what", "a", "day", "."], ["wh@@", "at", "?", "?"]]
    qword, qmark = roles.question_masks(batch, 4)
    assert qword.tolist() == [[True, False, False, False], [True, False, False, False], [False] * 4]
    attn = torch.zeros(3, 2, 4, 4, device=device)
    attn[:, 0, 0, 3], attn[:, 0, 0, 0] = 0.8, 0.2          # head 0: "what" -> "?" 0.8
    attn[:, 1, 0, 3], attn[:, 1, 0, 1] = 0.1, 0.9
    metric = roles.Interrogation(num_heads=2).to(device)
    metric.update(attn, qword, qmark)
    assert metric.compute().tolist() == pytest.approx([0.8, 0.1])   # sentence 2 has no "?", sentence 3 no word
    assert int(metric.queries) == 1
    de, _ = roles.question_masks([["Warum", "nicht", "?"]], 3, words=roles.QUESTION_WORDS["de"])
    assert de[0].tolist() == [True, False, False]


# ---------------------------------------------------------------- learned α sites
def test_normalizer_site_parses_module_names():
    site = heads.normalizer_site
    assert site("encoder.layers.0.self_attn.normalizer") == ("enc_self", 0)
    assert site("model.decoder.layers.2.self_attn.normalizer") == ("dec_self", 2)
    assert site("decoder.layers.11.context_attn.normalizer") == ("context", 11)
    assert site("decoder.blocks.3.cross_attention.norm") == ("context", 3)
    assert site("output.normalizer") is None
    assert site("enc.0.attn", sites=[(r"enc\.(?P<layer>\d+)", "enc_self")]) == ("enc_self", 0)


class TinyTransformer(nn.Module):
    def __init__(self, heads_=2, layers=2):
        super().__init__()

        def block(*names):
            return nn.ModuleDict({n: nn.ModuleDict({"normalizer": Entmax(learnable=True, num_heads=heads_,
                                                                         alpha_init=1.5)}) for n in names})

        self.encoder = nn.Module()
        self.encoder.layers = nn.ModuleList([block("self_attn") for _ in range(layers)])
        self.decoder = nn.Module()
        self.decoder.layers = nn.ModuleList([block("self_attn", "context_attn") for _ in range(layers)])


def test_learned_alphas_per_kind_and_layer():
    alphas = heads.learned_alphas(TinyTransformer())
    assert list(alphas) == ["enc_self", "dec_self", "context"]
    assert alphas["context"] == {0: pytest.approx([1.5, 1.5]), 1: pytest.approx([1.5, 1.5])}
    assert len(heads.alphas_by_kind(alphas)["enc_self"]) == 4
    bad = nn.ModuleDict({"mystery": Entmax(learnable=True, num_heads=2)})
    with pytest.raises(ValueError, match="mystery"):
        heads.learned_alphas(bad)


# ---------------------------------------------------------------- figures (plain data in, a PNG out)
def test_every_figure_writes_a_png(tmp_path):
    from sparselab.reports.correia2019 import figures as F

    history = [{"step": s, "alpha": {"enc_self/l0": [1.5 - s / 100, 1.6], "enc_self/l1": [1.2, 1.9],
                                     "context/l0": [1.4, 1.3 + s / 100]}} for s in (0, 10, 20)]
    alphas = {"enc_self": [1.1, 1.9, 1.95, 1.2], "dec_self": [1.3, 1.4], "context": [1.5, 1.6]}
    dens = {"1.5-entmax": {"enc_self": {0: [0.3, 0.5], 1: [0.2, 0.4]}, "context": {"0": [0.6, 0.7]}},
            "α-entmax": {"enc_self": {0: [0.1, 0.9], 1: [0.05, 0.8]}, "context": {"0": [0.4, 0.9]}}}
    flat = {label: {k: [v for hs in layers.values() for v in hs] for k, layers in d.items()} for label, d in dens.items()}
    js = {"softmax": {"enc_self": {0: 0.2, 1: 0.3}}, "α-entmax": {"enc_self": {"0": 0.4, "1": 0.5}}}
    attn = self_maps([4], 4, "cpu")[0].numpy()
    paths = [F.alpha_trajectories(history, tmp_path / "fig2.png", title="toy"),
             F.alpha_histograms(alphas, tmp_path / "fig3.png"),
             F.density_histograms(flat, tmp_path / "fig4.png"),
             F.sorted_density(dens, tmp_path / "fig5.png"),
             F.js_per_layer(js, tmp_path / "fig6.png"),
             F.attention_heads(attn, tmp_path / "map.png", list("abcd"), list("abcd"), title="enc_self layer 0")]
    for p in paths:
        data = p.read_bytes()
        assert data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) > 1000, p
    with pytest.raises(ValueError, match="attention type"):
        F.alpha_histograms({"cross": [1.5]}, tmp_path / "bad.png")
    with pytest.raises(ValueError, match="tokens"):
        F.attention_heads(attn, tmp_path / "bad.png", list("abc"), list("abcd"))
