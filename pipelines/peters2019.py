"""Peters, Niculae & Martins (2019), "Sparse Sequence-to-Sequence Models": morphological inflection.

Usage: ``python pipelines/peters2019.py --profile {smoke,cpu,paper} [--out DIR] [--report-only] [--jobs N]``

Runs (resumable: finished jobs are skipped) the sweeps ``peters2019/table1_<setting>`` with the
profile's seeds and, where the profile ensembles, ``peters2019/ensemble_<setting>`` (in lanes, ``--jobs N`` under
the parallel launcher, the ensembles run after every other sweep: they load the seeds' models); then the machine
translation sweeps ``peters2019/table2_mt`` (Table 2: α ∈ {1, 1.5, 2} tied for attention and output, per
direction; Figure 4: de-en over attention α with output α 1.5 and over output α with attention α 1.5); then
writes ``reports/peters2019/<profile>/`` (Table 1, sparsity and exactness, Figure 1-style examples; Table 2,
Table 3, Figure 4, Figure 2 autocomplete sets, BLEU files) from the run records only
(``sparselab.reports.peters2019``: one module per artefact, ``report.py`` the front door). Figure 6 (training speed) is a
benchmark: ``make bench-mt-speed PROFILE=<profile>``.
"""
from __future__ import annotations

from sparselab.reports import peters2019 as report
from sparselab.reports.runner import Plan, main


MT = "peters2019/table2_mt"
FIXED_ALPHA = 1.5            # the other α of each Figure 4 grid (the Table 2 1.5-entmax run is the shared point)
# the paper's Figure 4 grid (papers.yaml figure4_alpha_grid_deen)
PAPER_GRID = [1.0, 1.125, 1.25, 1.375, 1.5, 1.625, 1.75, 1.875, 2.0, 2.25]
NO_BUDGET = ("not in the cpu budget (about 20 h of wall time with 2 jobs for the whole plan holds de-en and ja-en, "
             "not the two reverse directions)")
NO_RO_EN = ("no training data offline (WMT16 Europarl v8 + SETIMES2 are not in ../shared; with internet: "
            "`python -m sparselab.data fetch wmt16_ro_en_full`, then the paper profile)")


def _csv(xs) -> str:
    """Sweep values; floats keep their decimal point (``1.0``: α = 1 must reach the mappings as a float, which
    dispatch to the exact softmax / entmax15 / sparsemax; an int would go to bisection)."""
    return ",".join(repr(float(x)) if isinstance(x, float) else str(x) for x in xs)


def mt_plan(pairs: list[str], seeds: list[int], attn_grid: list[float], out_grid: list[float],
            not_run: dict[str, str] | None = None,
            pair_seeds: dict[str, list[int]] | None = None,
            out_seeds: tuple[list[float], list[int]] | None = None) -> tuple[list[tuple[str, list[str]]], dict]:
    """MT sweeps and their report options: Table 2 per direction with the seeds (the experiment sweeps α ∈ {1, 1.5,
    2} itself; ``pair_seeds`` gives a direction other seeds than ``seeds``), then the two Figure 4 grids on de-en
    with the first seed, leaving out α = 1.5 (the Table 2 1.5-entmax run is that point of both grids);
    ``out_seeds`` (output α's, seeds): those points of the output-α grid get these seeds too, so that the curve's
    noise is measured where its claims are decided."""
    pair_seeds = pair_seeds or {}
    same = [p for p in pairs if p not in pair_seeds]
    sweeps = [(MT, [f"data.pair={','.join(same)}", f"seed={_csv(seeds)}"])] if same else []
    sweeps += [(MT, [f"data.pair={p}", f"seed={_csv(pair_seeds[p])}"]) for p in pairs if p in pair_seeds]
    attn = [a for a in attn_grid if a != FIXED_ALPHA]
    out = [a for a in out_grid if a != FIXED_ALPHA]
    if attn:
        sweeps.append((MT, ["data.pair=de-en", f"mapping.alpha={FIXED_ALPHA!r}", f"mapping.attn_alpha={_csv(attn)}",
                            f"seed={seeds[0]}"]))
    if out:
        sweeps.append((MT, ["data.pair=de-en", f"mapping.attn_alpha={FIXED_ALPHA!r}", f"mapping.alpha={_csv(out)}",
                            f"seed={seeds[0]}"]))
    if out_seeds:
        sweeps.append((MT, ["data.pair=de-en", f"mapping.attn_alpha={FIXED_ALPHA!r}",
                            f"mapping.alpha={_csv(out_seeds[0])}", f"seed={_csv(out_seeds[1])}"]))
    options = {"pairs": list(pairs), "seeds": sorted({s for p in pairs for s in pair_seeds.get(p, seeds)}),
               "not_run": dict(not_run or {}), "figure4": {"attn": list(attn_grid), "out": list(out_grid)}}
    if out_seeds:
        options["figure4"]["out_seeds"] = {"alphas": list(out_seeds[0]), "seeds": list(out_seeds[1])}
    return sweeps, options


def plan(settings: list[str], seeds: list[int], ensemble: bool, launcher: str | None = None,
         mt: tuple[list, dict] | None = None, more_seeds: tuple[list[float], list[int]] | None = None) -> Plan:
    """Per setting: the shared task's non-neural baseline (the floor), the α grid with the seeds, then
    (if ``ensemble``) the seeds' ensembles; then the MT sweeps (``mt``, from :func:`mt_plan`). ``more_seeds``
    (α's, seeds): the cells of the grid with both α's in α's get these seeds too, and only they are ensembled.
    Sizes and steps live in the configs (conf/{data,model,task}, the experiment files)."""
    sweeps = []
    cells = [f"mapping.alpha={_csv(more_seeds[0])}", f"mapping.attn_alpha={_csv(more_seeds[0])}"] if more_seeds else []
    for setting in settings:
        sweeps.append((f"peters2019/baseline_{setting}", []))
        sweeps.append((f"peters2019/table1_{setting}", [f"seed={','.join(map(str, seeds))}"]))
        if more_seeds:
            sweeps.append((f"peters2019/table1_{setting}", [*cells, f"seed={_csv(more_seeds[1])}"]))
        if ensemble:
            sweeps.append((f"peters2019/ensemble_{setting}", cells))
    options = {"settings": settings, "seeds": sorted(set(seeds) | set(more_seeds[1] if more_seeds else [])),
               "ensemble": ensemble, "baseline": True}
    if more_seeds:
        options["seeded_cells"] = list(more_seeds[0])
    if mt is not None:
        sweeps += mt[0]
        options["mt"] = mt[1]
    # the ensembles load the seeds' saved models: in lanes they wait for every other sweep
    return Plan(sweeps=sweeps, launcher=launcher, options=options,
                last=[f"peters2019/ensemble_{s}" for s in settings] if ensemble else [])


PLANS = {
    # smoke: the cpu plan's shape (seed 0 everywhere, seed 1 and the ensemble for the 4 compared cells); MT de-en
    # (with the IWSLT17 out-of-domain set), 2 points per Figure 4 grid (one of them the Table 2 1.5-entmax run);
    # the ja-mecab BLEU path is covered by tests/tasks/test_mt_translation.py
    "smoke": plan(["medium"], seeds=[0], ensemble=True, more_seeds=([1.0, 2.0], [1]),
                  mt=mt_plan(["de-en"], [0], attn_grid=[1.5, 2.0], out_grid=[1.25, 1.5],
                             not_run={"ro-en": NO_RO_EN, "en-ro": NO_RO_EN})),
    # cpu: seed 0, 1 and 2 and their ensemble in all 9 medium cells (the claims compare every row and column); MT
    # de-en and ja-en, 2 seeds each, each run stopped once its smoothed validation curve and its best gained under
    # 0.25 points in 4,500 updates (at most 45,000; the report's convergence rule), the best validation kept
    # (docs/peters2019.md, the scaling rule); Figure 4's output-α curve on the paper's 10 points at attention α 1.5,
    # seed 0, with seed 1 at 1, 1.375 and 2.25 (where its claims are decided); its attention-α axis on {1, 1.5, 2}.
    "cpu": plan(["medium"], seeds=[0], ensemble=True, launcher="parallel", more_seeds=([1.0, 1.5, 2.0], [1, 2]),
                mt=mt_plan(["de-en", "ja-en"], [0], attn_grid=[1.0, 1.5, 2.0], out_grid=PAPER_GRID,
                           not_run={"ro-en": NO_RO_EN, "en-ro": NO_RO_EN, "en-de": NO_BUDGET, "en-ja": NO_BUDGET},
                           pair_seeds={"de-en": [0, 1], "ja-en": [0, 1]}, out_seeds=([1.0, 1.375, 2.25], [1]))),
    # MT paper: all six directions, 3 seeds; the paper's full Figure 4 grid (one seed)
    "paper": plan(["high", "medium"], seeds=[0, 1, 2], ensemble=True,
                  mt=mt_plan(["de-en", "en-de", "ja-en", "en-ja", "ro-en", "en-ro"], [0, 1, 2],
                             attn_grid=PAPER_GRID, out_grid=PAPER_GRID)),
}

if __name__ == "__main__":
    raise SystemExit(main(report, PLANS, description=__doc__))
