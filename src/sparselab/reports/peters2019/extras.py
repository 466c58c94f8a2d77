"""The run records committed beside the Peters reports, so that ``--report-only`` rebuilds every file of a report
folder in a clone without run directories.

``runs.jsonl`` (inflection: grid, ensembles, baseline) and ``runs_mt.jsonl`` hold each run's config, hash, metrics
and best (``index.write_configs``); :data:`EXTRAS` beside each holds, joined on the run name, the fields the index
shows (:data:`KEEP`) and the parts of the record's ``extra`` that an artefact reads (:data:`READS`, :data:`SHOWN`),
nothing else: the extras stay small (well under 1 MB for the cpu plan's 35 jobs) and their bytes depend on the
records only (rows and keys sorted). Which runs' examples and autocomplete sentences are shown is the reports'
choice (``report.example_runs``, ``mt.autocomplete_runs``): only those runs keep them.
"""
from __future__ import annotations

from pathlib import Path
from typing import Any, Iterable, Mapping

from ..records import committed_records, keep_only, write_extras as write_rows

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


def kind(rec: Mapping[str, Any]) -> str | None:
    name = rec.get("experiment") or rec.get("config", {}).get("experiment_name") or ""
    return next((k for k in READS if name.startswith(f"peters2019/{k}")), None)


def public_extra(rec: Mapping[str, Any], shown: bool) -> dict[str, Any]:
    """The parts of ``rec["extra"]`` its kind's artefacts read; ``shown``: with those a report shows of it."""
    k, extra = kind(rec), rec.get("extra") or {}
    out = keep_only(extra, READS.get(k, {}))
    if shown and k in SHOWN and SHOWN[k][0] in extra:
        key, spec, n = SHOWN[k]
        out[key] = keep_only(extra[key][:n], spec)
    return out


def write_extras(out: Path, configs: str, recs: Iterable[dict], runs, shown: Iterable[dict] = ()) -> Path:
    """The extras file of ``configs`` (same runs, same order); ``shown``: the runs whose examples or autocomplete
    sentences a report shows."""
    dirs = {r["run_dir"] for r in shown}
    return write_rows(Path(out) / EXTRAS[configs], recs, runs, KEEP, lambda r: public_extra(r, r["run_dir"] in dirs))


def committed(out: Path, runs) -> list[dict]:
    """The records committed in ``out``: each configs file joined with its extras (``records.committed_records``)."""
    return [r for configs, extras in EXTRAS.items()
            for r in committed_records(Path(out) / configs, Path(out) / extras, runs)]
