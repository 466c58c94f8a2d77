"""What the translation reports share: BLEU cells, signatures, curves and the files that let sacrebleu redo BLEU."""
from __future__ import annotations

import shutil
from pathlib import Path
from statistics import mean, stdev
from typing import Any, Callable, Mapping, Sequence

from sacrebleu.metrics import BLEU
from sacrebleu.significance import PairedTest, Result

from sparselab import plots
from sparselab.analysis import plateau
from .tables import MISSING, NONE, NOT_RUN, md_table
from .templates import template

BLEU_DIR = "bleu_files"
text = template(__name__)


def pair_of(rec) -> str:
    return str(rec["config"]["data"]["pair"])


def seed_of(rec) -> int:
    return int(rec["config"]["seed"])


def values(recs: Sequence[dict], metric: str) -> list[float]:
    return [float(r["metrics"][metric]) for r in recs if r["metrics"].get(metric) is not None]


def mean_std(vals: Sequence[float], digits: int = 2) -> str:
    """``m`` for one value, ``m ± s`` (sample std, n−1) for several; ``–`` for none."""
    if not vals:
        return NONE
    if len(vals) == 1:
        return f"{vals[0]:.{digits}f}"
    return f"{mean(vals):.{digits}f} ± {stdev(vals):.{digits}f}"


def bleu_cell(rs: Sequence[dict], status: str | None, metric: str = "bleu_tok") -> str:
    """A BLEU cell: the direction's status when it is not run, else mean ± std over the seeds (missing: none)."""
    if status is not None:
        return status
    vals = values(rs, metric)
    return mean_std(vals) if vals else MISSING


# ---------------------------------------------------------------- BLEU tables: ours per direction beside the paper's
BleuRow = tuple[str, str, Mapping[str, Sequence[dict]]]     # (label, the paper's row in papers.yaml, {direction: runs})


def paper_bleu(ref: Mapping[str, Any], table: str, row: str, pair: str,
               columns: Sequence[str] = ()) -> tuple[float, float | None] | None:
    """(mean, std or None) of the paper's cell in papers.yaml ``table``, None if absent; its columns are "<pair>" or
    "<pair> <corpus>" (``columns`` when it names none), its cells numbers or [mean, std]."""
    t = ref.get(table, {})
    cols = [str(c).split()[0] for c in t.get("columns", columns)]
    cells = t.get("rows", {}).get(row)
    v = cells[cols.index(pair)] if cells and pair in cols else None
    if isinstance(v, (list, tuple)):
        return float(v[0]), float(v[1]) if len(v) > 1 and v[1] is not None else None
    return None if v is None else (float(v), None)


def paper_cell(ref: Mapping[str, Any], table: str, row: str, pair: str, columns: Sequence[str] = ()) -> str:
    """:func:`paper_bleu` as a cell: ``m`` or ``m ± s``, ``–`` when the paper has none."""
    v = paper_bleu(ref, table, row, pair, columns)
    return NONE if v is None else f"{v[0]:.2f}" + (f" ± {v[1]:.2f}" if v[1] is not None else "")


def bleu_header(first: str, pairs: Sequence[str], paper: Callable[[str], str] | None = None) -> list[str]:
    """:func:`bleu_rows`' header; ``paper(pair)``: what the paper's column says in brackets (no such column without)."""
    return [first, *(c for p in pairs for c in ([f"{p} (ours)", f"{p} ({paper(p)})"] if paper else [p]))]


def bleu_rows(rows: Sequence[BleuRow], opts: Mapping[str, Any], metric: str,
              paper: Callable[[str, str], str] | None = None) -> list[list[Any]]:
    """Per row: its label and, per direction, ours (:func:`bleu_cell`) [and ``paper(paper's row, direction)``]."""
    out = []
    for label, paper_row, runs in rows:
        cells = [label]
        for p, rs in runs.items():
            cells.append(bleu_cell(rs, pair_status(opts, p), metric))
            if paper is not None:
                cells.append(paper(paper_row, p))
        out.append(cells)
    return out


def extra_rows(recs, rows: Sequence[BleuRow], joined: bool, opts: Mapping[str, Any] | None = None) -> list[list[Any]]:
    """Out-of-domain sets (e.g. IWSLT17 test for de-en trained on Multi30k): per set and direction with runs on it,
    SacreBLEU and tokenized BLEU per row (``joined``: "detok / tok" in one cell); ``opts``: only the directions run."""
    out = []
    for name in sorted({n for r in recs for n in r.get("extra", {}).get("extra_test", {})}):
        for p in rows[0][2] if rows else ():
            on = [r for _, _, runs in rows for r in runs[p] if name in r["extra"].get("extra_test", {})]
            if not on or (opts is not None and pair_status(opts, p) is not None):
                continue
            spec = on[0]["extra"]["extra_test"][name]
            cells = [(bleu_cell(runs[p], None, f"bleu_{name}"), bleu_cell(runs[p], None, f"bleu_tok_{name}"))
                     for _, _, runs in rows]
            out.append([name, p, f"{spec['spec']} ({int(spec['metrics']['n'])})",
                        *(c for d, t in cells for c in ([f"{d} / {t}"] if joined else [d, t]))])
    return out


def tokenization_lines(recs) -> list[str]:
    """How each target language's two BLEUs are tokenized, with the SacreBLEU signatures, from the records."""
    seen: dict[tuple, dict[str, None]] = {}      # the pairs of each (tokenization, signatures), in first-seen order
    for r in recs:
        e = r.get("extra", {})
        t = e.get("test", {})
        k = (e.get("bleu_tokenization"), t.get("bleu_signature"), t.get("bleu_tok_signature"))
        seen.setdefault(k, {})[pair_of(r)] = None
    return [f"- **{', '.join(pairs)}**: {how}. SacreBLEU signature (detokenized): `{sig}`; tokenized: `{sig_tok}`"
            for (how, sig, sig_tok), pairs in seen.items()]


def curve_summary(hist: Sequence[Mapping[str, Any]]) -> str:
    """``first → best (step) → last`` validation token accuracy."""
    accs = [(h.get("step"), h.get("val_acc")) for h in hist if h.get("val_acc") is not None]
    if not accs:
        return NONE
    best = max(accs, key=lambda sa: sa[1])
    return f"{accs[0][1]:.2f} → {best[1]:.2f} (step {best[0]}) → {accs[-1][1]:.2f}"


# ---------------------------------------------------------------- convergence: has a run stopped improving?
PLATEAU_STEPS = 2000     # the window at the end of a run in which it must have stopped improving
SMOOTH = 4               # validations averaged into one point of the smoothed curve
PLATEAU_GAIN = 0.25      # points of validation token accuracy: a smaller gain over the window counts as none


def convergence(hist: Sequence[Mapping[str, Any]], window: int = PLATEAU_STEPS, smooth: int = SMOOTH,
                gain: float = PLATEAU_GAIN) -> dict[str, Any]:
    """:func:`sparselab.analysis.plateau.convergence` (the task's stopping rule) with the kit's defaults."""
    return plateau.convergence(hist, window=window, smooth=smooth, gain=gain)


def convergence_rule(window: int = PLATEAU_STEPS, smooth: int = SMOOTH, gain: float = PLATEAU_GAIN) -> str:
    """The rule of :func:`convergence` in words, for a report."""
    return text("convergence_rule", window=window, smooth=smooth, gain=gain)


def plot_learning_curves(path: Path, recs: Sequence[dict], label: Callable[[dict], str],
                         title: str = "learning curves") -> Path:
    """Validation token accuracy against step, one panel per direction: how close each run got to converging."""
    pairs = sorted({pair_of(r) for r in recs}) or ["(no runs)"]
    plt = plots.pyplot()
    fig, axes = plt.subplots(1, len(pairs), figsize=(5.5 * len(pairs), 4), squeeze=False)
    for ax, pair in zip(axes[0], pairs):
        for r in sorted((r for r in recs if pair_of(r) == pair), key=label):
            h = [(x["step"], x["val_acc"]) for x in r.get("extra", {}).get("history", [])
                 if x.get("val_acc") is not None]
            if h:
                ax.plot(*zip(*h), marker=".", label=label(r))
        ax.set(xlabel="training step", ylabel="validation token accuracy (%)", title=f"{title}, {pair}")
        if ax.get_legend_handles_labels()[0]:
            ax.legend(fontsize=7)
    fig.tight_layout()
    return plots.save(fig, path)


def run_sets(rec) -> list[tuple[str, dict, Mapping[str, Any]]]:
    """(set name, files, metrics) for the test set and every extra test set of a run."""
    e = rec.get("extra", {})
    test = [("test", e["test"]["files"], rec["metrics"])] if e.get("test", {}).get("files") else []
    return test + [(name, x["files"], x.get("metrics", {})) for name, x in sorted(e.get("extra_test", {}).items())
                   if x.get("files")]


def copy_bleu_files(out: Path, recs, stem: Callable[[dict, str], str], copy: bool = True) -> list[list[Any]]:
    """Copy each run's hyp/ref files into ``out/bleu_files/`` (emptied first); one row per (run, set, kind).

    ``copy=False``: committed records without run directories; the rows name the files already there."""
    d = Path(out) / BLEU_DIR
    if copy and d.exists():
        shutil.rmtree(d)
    d.mkdir(parents=True, exist_ok=True)
    rows = []
    for r in recs:
        tok = "ja-mecab" if r.get("extra", {}).get("tgt_lang") == "ja" else "13a"
        for set_name, files, metrics in run_sets(r):
            name = stem(r, set_name)
            for kind, metric, tokenize in (("detok", "bleu", tok), ("tok", "bleu_tok", "none")):
                hyp, refp = files.get(f"{kind}.hyp"), files.get(f"{kind}.ref")
                if not hyp or not refp:
                    continue
                dst_h, dst_r = d / f"{name}.{kind}.hyp.txt", d / f"{name}.{kind}.ref.txt"
                src_h, src_r = (Path(r["run_dir"]) / hyp, Path(r["run_dir"]) / refp) if copy else (dst_h, dst_r)
                if not (src_h.exists() and src_r.exists()):
                    where = "the run directory" if copy else BLEU_DIR
                    rows.append([f"{name}.{kind}", metrics.get(metric), f"files missing in {where}", ""])
                    continue
                if copy:
                    shutil.copyfile(src_h, dst_h)
                    shutil.copyfile(src_r, dst_r)
                cmd = (f"sacrebleu {BLEU_DIR}/{name}.{kind}.ref.txt -i {BLEU_DIR}/{name}.{kind}.hyp.txt "
                       f"-tok {tokenize}{' --force' if tokenize == 'none' else ''} -w 2 -b")
                rows.append([f"{name}.{kind}", metrics.get(metric), f"`{cmd}`", tokenize])
    return rows


def bleu_cli_section(file_rows: Sequence[Sequence[Any]] | None, pattern: str) -> str:
    """The section listing :func:`copy_bleu_files`' rows; ``pattern``: the file names. Empty without rows."""
    if not file_rows:
        return ""
    return ("\n" + text("bleu_cli", dir=BLEU_DIR, pattern=pattern) + "\n\n"
            + md_table(["files", "BLEU (record)", "command", "tokenize"], file_rows))


def paired_bootstrap(ref: Path, hyps: Sequence[Path]) -> tuple[str, list[Result]]:
    """sacrebleu's paired bootstrap (as the CLI's ``--paired-bs``) on tokenized BLEU; the first file is the baseline."""
    def lines(path: Path) -> list[str]:
        return Path(path).read_text(encoding="utf-8").splitlines()

    test = PairedTest([(str(h), lines(h)) for h in hyps], {"BLEU": BLEU(tokenize="none", force=True)},
                      [lines(ref)], test_type="bs")
    signatures, scores = test()
    return signatures["BLEU"].format(), list(scores["BLEU"])


def pair_status(opts: Mapping[str, Any], pair: str) -> str | None:
    """None when the profile runs ``pair``; else its cells' text: the plan's reason up to its first parenthesis."""
    if pair in opts.get("pairs", []):
        return None
    reason = (opts.get("not_run") or {}).get(pair)
    return reason.split(" (")[0].strip() if reason else NOT_RUN


def settings_section(recs, between: str = "") -> str:
    """The translation tables' top: the settings per direction, ``between``, and how BLEU is computed."""
    sr = settings_rows(recs)
    head = "" if not sr else ("Per direction (from the run configs and records; sizes are sentence pairs):\n\n"
                              + md_table(["direction", "corpus", "train", "validation", "test (reported)",
                                          "extra test sets", "BPE merges", "validation", "max steps",
                                          "early stopping"], sr) + "\n")
    return (head + between + "How BLEU is computed (from the records):\n\n"
            + ("\n".join(tokenization_lines(recs)) or "- no runs") + "\n\n")


def settings_rows(recs) -> list[list[Any]]:
    """One row per direction run: corpora and sizes, BPE, validation schedule and stopping, from the configs."""
    rows = []
    for p in dict.fromkeys(map(pair_of, recs)):
        r = next(x for x in recs if pair_of(x) == p)
        c, e = r["config"], r.get("extra", {})
        d, tr, t = c["data"], c["trainer"], c["task"]
        ps = d["pairs"][p]
        sp = e.get("splits", {})
        n = lambda role: f"{sp[role]['spec']} ({sp[role]['n']})" if role in sp else NONE  # noqa: E731
        extras = ", ".join(f"{role.split(':', 1)[1]}: {n(role)}" for role in sorted(sp)
                           if role.startswith("extra:")) or NONE
        bpe = e.get("preprocessing", {}).get("bpe", {})
        merges = bpe.get("merges_learned") or {}
        learned = ", ".join(f"{k} {v}" for k, v in merges.items())
        patience = t.get("early_stopping_patience")
        delta, start = float(t.get("early_stopping_min_delta") or 0.0), float(t.get("early_stopping_start") or 0.0)
        stop = (f"patience {patience} validations" + (f", improvement > {delta:g} points" if delta else "")
                + (f", counted once more than {start:g} point(s) above the first validation" if start else "")
                if patience is not None else "none (step cap)")
        rows.append([p, e.get("corpus", NONE), n("train"), n("val"), n("test"), extras,
                     f"{ps['bpe_merges']} {'joint' if ps['bpe_joint'] else 'separate'} (learned: {learned or '?'})",
                     f"every {tr.get('val_check_interval')} steps", tr.get("max_steps"), stop])
    return rows
