"""Every Peters inflection run's accuracy and edit distance per language (``per_language.csv``)."""
from __future__ import annotations

import csv
from pathlib import Path
from typing import Any

from .runs import SETTINGS, key

CSV_HEADER = ["setting", "kind", "output_alpha", "attention_alpha", "seed", "language", "accuracy",
              "edit_distance", "n", "exact_share", "single_share"]


def per_language_rows(train, ens, baseline=None) -> list[list[Any]]:
    """One row per run and language; the baseline's (kind ``baseline``) have no α's, no seed, no beam shares."""
    runs = []       # (setting, kind, output α, attention α, seed, record)
    for kind, src in (("single", train), ("ensemble", ens)):
        for s in SETTINGS:
            for r in sorted(src[s], key=lambda r: (key(r), int(r["config"]["seed"]))):
                seed = r["config"]["seed"] if kind == "single" else "+".join(
                    str(m["seed"]) for m in r["extra"].get("members", []))
                runs.append((s, kind, *key(r), seed, r))
    runs += [(s, "baseline", "", "", "", r) for s in SETTINGS for r in (baseline or {}).get(s, [])]
    return [[s, kind, a, b, seed, lang, f"{v['accuracy']:.2f}", f"{v['edit_distance']:.4f}", v["n"],
             *(("", "") if kind == "baseline" else (f"{v['exact_share']:.4f}", f"{v['single_share']:.4f}"))]
            for s, kind, a, b, seed, r in runs for lang, v in sorted(r["extra"].get("per_language", {}).items())]


def write_per_language_csv(path: Path, train, ens, baseline=None) -> Path:
    with open(path, "w", newline="", encoding="utf-8") as fh:
        w = csv.writer(fh, lineterminator="\n")
        w.writerow(CSV_HEADER)
        w.writerows(per_language_rows(train, ens, baseline))
    return Path(path)
