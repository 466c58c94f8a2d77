"""A fixed, seeded, script-stratified language subset of CoNLL–SIGMORPHON 2018 task 1.

Used by the inflection `cpu` profile: a multilingual model trained on all 102 medium
languages at CPU scale is capacity-bound, so the profile trains on a subset instead. The rule:

1. eligible: languages of ``all/`` (not the surprise languages) whose train file of the setting
   and whose dev and test files each have at least ``min_lines`` lines, so every language is
   evaluated on a full-size dev and test set;
2. each language's script is the Unicode script of most letters in its training forms;
3. one language per script, drawn with ``random.Random(seed)`` in sorted script order, then the
   remaining slots drawn from the other eligible languages with the same generator.

``python -m sparselab.data.language_sample --setting medium --n 12 --seed 0`` prints the subset;
``conf/data/sigmorphon2018.yaml`` stores the list it printed, and a test checks they agree.
"""
from __future__ import annotations

import argparse
import random
import unicodedata
from collections import Counter, defaultdict
from pathlib import Path

from sparselab.data import sigmorphon as sg


def _count_lines(path: Path) -> int:
    if not path.exists():
        return 0
    with open(path, encoding="utf-8") as fh:
        return sum(1 for line in fh if line.strip())


def script_of(forms) -> str:
    """Unicode script (first word of the character name, e.g. LATIN, CYRILLIC) of most letters."""
    counts = Counter(unicodedata.name(ch, "UNKNOWN").split()[0] for form in forms for ch in form if ch.isalpha())
    return counts.most_common(1)[0][0] if counts else "UNKNOWN"


def eligible(setting: str, root=None, min_lines: int = 1000) -> dict[str, str]:
    """{language: script} for the languages of ``all/`` with full-size train, dev and test files."""
    out = {}
    for lang, folder in sg.languages(setting, root):
        if folder.name != "all":
            continue
        files = {split: folder / (f"{lang}-train-{setting}" if split == "train" else f"{lang}-{split}")
                 for split in ("train", "dev", "test")}
        if min(_count_lines(p) for p in files.values()) < min_lines:
            continue
        out[lang] = script_of(e.form for e in sg.read_file(files["train"], lang))
    return out


def sample(setting: str = "medium", n: int = 12, seed: int = 0, root=None, min_lines: int = 1000) -> list[str]:
    """The subset: one language per script, then a seeded fill; returned sorted."""
    scripts = eligible(setting, root, min_lines)
    if n > len(scripts):
        raise ValueError(f"n={n}: only {len(scripts)} eligible {setting} languages")
    rng = random.Random(seed)
    by_script = defaultdict(list)
    for lang, script in sorted(scripts.items()):
        by_script[script].append(lang)
    chosen = [rng.choice(by_script[s]) for s in sorted(by_script)][:n]
    rest = sorted(set(scripts) - set(chosen))
    chosen += rng.sample(rest, n - len(chosen))
    return sorted(chosen)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--setting", default="medium", choices=sg.SETTINGS)
    ap.add_argument("--n", type=int, default=12)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--min-lines", type=int, default=1000)
    ap.add_argument("--root", default=None)
    args = ap.parse_args(argv)
    langs = sample(args.setting, args.n, args.seed, args.root, args.min_lines)
    scripts = eligible(args.setting, args.root, args.min_lines)
    for lang in langs:
        print(f"{lang}\t{scripts[lang]}")
    print("[" + ", ".join(langs) + "]")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
