"""The Peters records: finding them (runs root or committed), splitting them, what the plan says was run.

The extras beside ``runs.jsonl`` / ``runs_mt.jsonl`` keep only what an artefact reads (:data:`READS`, :data:`SHOWN`)."""
from __future__ import annotations

from pathlib import Path
from typing import Any, Iterable, Mapping, Sequence

from sparselab.engine import record

from ..mt_common import pair_of, seed_of
from ..records import committed_records, grouped, keep_only, latest_per_config, load, write_extras as write_rows
from ..tables import seed_mean

PAPER = "peters2019"
ALPHAS = (1.0, 1.5, 2.0)
SETTINGS = ("high", "medium")
KINDS = ("avg", "ens")
EXPERIMENT = "peters2019/table2_mt"
PAIRS = ("de-en", "en-de", "ja-en", "en-ja", "ro-en", "en-ro")
# (papers.yaml row name, α, label) — Table 2 ties attention α to output α
MAPPINGS = (("softmax", 1.0, "softmax (α=1)"), ("entmax15", 1.5, "1.5-entmax"), ("sparsemax", 2.0, "sparsemax (α=2)"))

Config = tuple[float, float]            # (output α, attention α)
Key = tuple[str, float, float]          # (pair, output α, attention α)

CONFIGS, CONFIGS_MT = "runs.jsonl", "runs_mt.jsonl"
EXTRAS = {CONFIGS: "run_extras.jsonl", CONFIGS_MT: "run_extras_mt.jsonl"}
# index.html's provenance (experiment, commit, versions, device, date, wall time); status and date pick the records
KEEP = ("status", "experiment", "git_commit", "versions", "device", "finished_at", "wall_time_s")

# what the artefacts read of each kind of run's ``extra`` (peters2019/<kind>_<setting>, peters2019/table2_mt)
READS: dict[str, Mapping[str, Any]] = {
    # table1.md (header, convergence), sparsity.md (vocabulary), per_language.csv, support and learning-curve figures
    "table1": {"n_train": True, "stopped_early": True, "target_vocab_size": True, "support_histogram": True,
               "per_language": True, "history": {"epoch": True, "val_acc": True, "lr": True}},
    "ensemble": {"members": {"seed": True}, "per_language": True},      # per_language.csv
    "baseline": {"per_language": True},         # table1.md: whether it decoded the languages of the neural runs
    # table2_mt.md (settings, signatures, out-of-domain sets, convergence, BLEU files), table3_sparsity.md (beam
    # statistics per decoded set, vocabulary), mt_learning_curves.png
    "table2_mt": {"corpus": True, "splits": {"*": {"spec": True, "n": True}},
                  "preprocessing": {"bpe": {"merges_learned": True}}, "bleu_tokenization": True, "tgt_lang": True,
                  "test": {"files": True, "bleu_signature": True, "bleu_tok_signature": True},
                  "extra_test": {"*": {"spec": True, "files": True, "metrics": True}}, "stopped_early": True,
                  "target_vocab_size": True, "history": {"step": True, "val_acc": True, "lr": True}},
}
AUTOCOMPLETE = 3          # test sentences autocomplete_examples.md shows of a run
# kept for the runs a report shows them of: (key, spec, how many items); examples.md, autocomplete_examples.md
SHOWN = {"table1": ("examples", True, None),
         "table2_mt": ("autocomplete", {"index": True, "src": True, "ref": True, "steps": True}, AUTOCOMPLETE)}


# ---------------------------------------------------------------- inflection
def setting_of(rec) -> str:
    return record.current_config(rec)["data"]["resource"]


def settings_run(options: Mapping[str, Any]) -> list[str]:
    return list(options.get("settings", []))


def is_run(options: Mapping[str, Any], setting: str, kind: str, cell: Config | None = None) -> bool:
    """Whether the plan runs this column for ``cell`` (``kind`` avg or ens; only ``seeded_cells`` ensembled)."""
    if setting not in settings_run(options) or (kind == "ens" and not options.get("ensemble")):
        return False
    seeded = options.get("seeded_cells")
    return kind == "avg" or cell is None or not seeded or all(x in seeded for x in cell)


def per_setting(runs, profile: str, kind: str, stored: Sequence[dict] | None = None) -> dict[str, list[dict]]:
    """Finished ``peters2019/<kind>_<setting>`` records per setting (``stored``: among these committed ones); ``kind``
    table1, ensemble or baseline (the shared task's non-neural one)."""
    return {s: load(runs, profile, f"{PAPER}/{kind}_{s}", lambda r, s=s: setting_of(r) == s, stored)
            for s in SETTINGS}


def collect(runs, profile: str, stored: Sequence[dict] | None = None
            ) -> tuple[dict[str, list[dict]], dict[str, list[dict]]]:
    """Finished training and ensemble records per setting (``stored``: among these committed ones)."""
    return per_setting(runs, profile, "table1", stored), per_setting(runs, profile, "ensemble", stored)


def same_languages(baseline: Sequence[dict], train: Sequence[dict]) -> bool:
    """Whether the baseline decoded exactly the languages and eval split of the neural runs."""
    langs = {tuple(sorted(r["extra"].get("per_language", {}))) for r in [*baseline, *train]}
    splits = {r["config"]["task"]["eval_split"] for r in [*baseline, *train]}
    return len(langs) == 1 and len(splits) == 1


def best_key(g: Mapping[Any, list[dict]]) -> Any:
    """The configuration with the best mean dev accuracy (never test: the paper picks on dev)."""
    return max(sorted(g), key=lambda k: seed_mean(g[k], "val_acc_best") or -1)


def by_config(recs) -> dict[Config, list[dict]]:
    return grouped(recs, key, seed_of)


def trained(train) -> list[dict]:
    return [r for s in SETTINGS for r in train[s]]


# ---------------------------------------------------------------- translation
def alphas(rec) -> Config:
    m = rec["config"]["mapping"]
    return float(m["alpha"]), float(m["attn_alpha"])


key = alphas        # an inflection run's cell


def mt_key(rec) -> Key:
    return (pair_of(rec), *alphas(rec))


def curve_label(rec) -> str:
    a, b = alphas(rec)
    return f"out α={a:g}, attn α={b:g}, seed {seed_of(rec)}"


def bleu_file_stem(rec, set_name: str) -> str:
    """The name of a run's hypothesis and reference files in ``bleu_files/`` (``<pair>.alpha<a>-attn<b>.seed<s>.<set>``)."""
    a, b = alphas(rec)
    return f"{pair_of(rec)}.alpha{a:g}-attn{b:g}.seed{seed_of(rec)}.{set_name}"


def collect_mt(runs, profile: str, stored: Sequence[dict] | None = None) -> list[dict]:
    """Finished ``peters2019/table2_mt`` records (``stored``: among these), one per config hash (the latest)."""
    return sorted(latest_per_config(load(runs, profile, EXPERIMENT, stored=stored)),
                  key=lambda r: (mt_key(r), seed_of(r), r["run_dir"]))


def by_key(recs) -> dict[Key, list[dict]]:
    return grouped(recs, mt_key, seed_of)


def table2_records(recs) -> list[dict]:
    """The runs behind Table 2: attention α = output α ∈ {1, 1.5, 2}."""
    tied = {a for _, a, _ in MAPPINGS}
    return [r for r in recs if alphas(r)[0] == alphas(r)[1] and alphas(r)[0] in tied]


def mt_options(options: Mapping[str, Any]) -> dict[str, Any]:
    return dict(options.get("mt") or {})


# ---------------------------------------------------------------- committed beside a report
def kind(rec: Mapping[str, Any]) -> str | None:
    name = rec.get("experiment") or rec.get("config", {}).get("experiment_name") or ""
    return next((k for k in READS if name.startswith(f"peters2019/{k}")), None)


def public_extra(rec: Mapping[str, Any], shown: bool) -> dict[str, Any]:
    """The parts of ``rec["extra"]`` its kind's artefacts read; ``shown``: with those a report shows of it."""
    k, extra = kind(rec), rec.get("extra") or {}
    out = keep_only(extra, READS.get(k, {}))
    if shown and k in SHOWN and SHOWN[k][0] in extra:
        name, spec, n = SHOWN[k]
        out[name] = keep_only(extra[name][:n], spec)
    return out


def write_extras(out: Path, configs: str, recs: Iterable[dict], runs, shown: Iterable[dict] = ()) -> Path:
    """The extras of ``configs``; ``shown``: the runs whose examples a report shows."""
    dirs = {r["run_dir"] for r in shown}
    return write_rows(Path(out) / EXTRAS[configs], recs, runs, KEEP, lambda r: public_extra(r, r["run_dir"] in dirs))


def committed(out: Path, runs) -> list[dict]:
    """The records committed in ``out``: each configs file joined with its extras (``records.committed_records``)."""
    return [r for configs, extras in EXTRAS.items()
            for r in committed_records(Path(out) / configs, Path(out) / extras, runs)]
