"""Task ``inflection_baseline``: the CoNLL–SIGMORPHON 2018 task 1 non-neural baseline as a reference row.

For every language of the data setting (or of ``data.languages``), fits the organisers' prefix/suffix
edit-rule baseline (:mod:`sparselab.baselines.affix_rules`) on that language's ``train-<setting>`` file,
predicts every line of the dev set and of ``task.eval_split``, writes shared-task prediction files to
``predictions/<language>-<split>`` and scores them with :func:`sparselab.data.sigmorphon.score_files`.

Metrics: ``acc`` / ``edit_distance`` on the eval split and ``dev_acc`` / ``dev_edit_distance``, each the
macro-average over languages (as the shared task and ``inflection`` report them); per-language numbers
in ``extra["per_language"]``. ``data.*_per_language`` subsampling does not apply: the baseline is cheap,
so it always uses whole files. ``data.max_languages`` (first N languages, sorted) does.
"""
from __future__ import annotations

import logging
import time

from omegaconf import DictConfig

from sparselab.baselines import affix_rules
from sparselab.data import sigmorphon as sg
from sparselab.engine.context import RunContext
from sparselab.errors import ConfigError

log = logging.getLogger("sparselab")
LIGHTNING = False    # fits without Lightning: the engine does not import it (3 s a process)


def select_languages(cfg: DictConfig) -> list[tuple[str, object]]:
    """(language, folder) pairs of the setting, restricted to ``data.languages`` when it is set."""
    d = cfg.data
    pairs = sg.languages(d.resource, d.get("root"))
    wanted = d.get("languages")
    if wanted:
        wanted = [str(x) for x in wanted]
        have = dict(pairs)
        missing = [x for x in wanted if x not in have]
        if missing:
            raise ConfigError(f"data.languages: {', '.join(missing)} not in the {d.resource} setting; "
                              f"valid: {', '.join(have)}")
        pairs = [p for p in pairs if p[0] in set(wanted)]
    n = int(d.get("max_languages") or 0)
    return pairs[:n] if n > 0 else pairs


def _predict_and_score(model, examples, gold_path, pred_path) -> dict:
    sg.write_predictions(pred_path, examples, model.predict_all(examples))
    return sg.score_files(pred_path, gold_path)


def run(cfg: DictConfig, ctx: RunContext) -> dict:
    setting, eval_split = str(cfg.data.resource), str(cfg.task.eval_split)
    pairs = select_languages(cfg)
    pred_dir = ctx.run_dir / "predictions"
    pred_dir.mkdir(parents=True, exist_ok=True)
    per_lang: dict[str, dict] = {}
    fit_time = predict_time = 0.0
    n_train = n_eval = 0
    for lang, folder in pairs:
        train = sg.read_file(sg.split_file(folder, lang, "train", setting), lang)
        t0 = time.time()
        model = affix_rules.fit(train)
        t1 = time.time()
        scores = {}
        for split in dict.fromkeys(["dev", eval_split]):
            gold = sg.split_file(folder, lang, split, setting)
            scores[split] = _predict_and_score(model, sg.read_file(gold, lang), gold, pred_dir / f"{lang}-{split}")
        predict_time += time.time() - t1
        fit_time += t1 - t0
        n_train += len(train)
        n_eval += scores[eval_split]["n"]
        ev, dev = scores[eval_split], scores["dev"]
        per_lang[lang] = {"accuracy": ev["accuracy"], "edit_distance": ev["edit_distance"], "n": ev["n"],
                          "dev_accuracy": dev["accuracy"], "dev_edit_distance": dev["edit_distance"],
                          "dev_n": dev["n"], "n_train": len(train), "prefixing": model.prefixing}
        log.info("baseline %s/%s: %s %.2f, dev %.2f", setting, lang, eval_split, ev["accuracy"], dev["accuracy"])
    L = max(1, len(per_lang))

    def mean(key: str) -> float:
        return sum(v[key] for v in per_lang.values()) / L

    metrics = {"acc": mean("accuracy"), "edit_distance": mean("edit_distance"),
               "dev_acc": mean("dev_accuracy"), "dev_edit_distance": mean("dev_edit_distance"),
               "n_languages": float(len(per_lang)), "n_eval": float(n_eval), "n_train": float(n_train),
               "fit_time_s": fit_time, "predict_time_s": predict_time}
    extra = {"per_language": per_lang, "eval_split": eval_split, "languages": sorted(per_lang),
             "system": "CoNLL-SIGMORPHON 2018 task 1 non-neural baseline (prefix/suffix edit rules), "
                       "reimplemented from sigmorphon/conll2018 task1/baseline; see sparselab.baselines.affix_rules"}
    return {"metrics": metrics, "best": {}, "extra": extra}
