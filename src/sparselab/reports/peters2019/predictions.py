"""Table 1's test predictions gzipped beside the report, and their re-scoring with the official ``evalm.py``."""
from __future__ import annotations

import csv
import gzip
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any, Callable, Iterable, Mapping

FOLDER = "predictions"
RESCORED = "rescored.md"
EVALM_URL = ("https://raw.githubusercontent.com/sigmorphon/conll2018/"
             "490e2e0693241f708670d9d1c56803b754fab7cd/task1/evaluation/evalm.py")
EVALM_SHA256 = "033bcc6f4065c00bc8861da996237f1745599d1f6417043be666889e7a231773"

Scorer = Callable[[Path, Path], float]


def folder(setting: str, kind: str, alpha: Any = None, attn_alpha: Any = None, seed: Any = None) -> Path:
    """Where a run's files go: ``kind`` single (``seed<k>``), ensemble or baseline (no α's)."""
    if kind == "baseline":
        return Path(FOLDER) / setting / "baseline"
    member = "ensemble" if kind == "ensemble" else f"seed{int(seed)}"
    return Path(FOLDER) / setting / f"out{float(alpha):g}-attn{float(attn_alpha):g}" / member


def _gzip(src: Path, dst: Path) -> None:
    """Byte-reproducible gzip (no name, mtime 0): the same predictions give the same committed file."""
    dst.parent.mkdir(parents=True, exist_ok=True)
    with open(src, "rb") as fin, open(dst, "wb") as raw, \
            gzip.GzipFile(filename="", mode="wb", fileobj=raw, mtime=0, compresslevel=9) as fout:
        shutil.copyfileobj(fin, fout)


def write(out: Path, runs: Iterable[tuple[str, Mapping[str, Any]]], key: Callable, setting_of: Callable) -> list[Path]:
    """Gzip each run's predictions into ``out``; absent run dirs keep their committed files, stale ones go."""
    out, written, live = Path(out), [], False
    for kind, r in runs:
        src = Path(r["run_dir"]) / FOLDER
        if not src.is_dir():
            continue
        live = True
        a, b = key(r) if kind != "baseline" else (None, None)
        split = (r.get("extra") or {}).get("eval_split") or r["config"]["task"]["eval_split"]
        dst = out / folder(setting_of(r), kind, a, b, r["config"].get("seed", 0))
        for lang in sorted((r.get("extra") or {}).get("per_language", {})):
            _gzip(src / f"{lang}-{split}", dst / f"{lang}-{split}.gz")
            written.append(dst / f"{lang}-{split}.gz")
    if live:
        keep = set(written)
        for p in (out / FOLDER).rglob("*.gz"):
            if p not in keep:
                p.unlink()
    return written


def restore(out: Path, kind: str, rec: Mapping[str, Any], key: Callable, setting_of: Callable) -> int:
    """The inverse of :func:`write` for one run (``sparselab.reports.restore``); how many files."""
    a, b = key(rec) if kind != "baseline" else (None, None)
    src = Path(out) / folder(setting_of(rec), kind, a, b, rec["config"].get("seed", 0))
    dst = Path(rec["run_dir"]) / FOLDER
    n = 0
    for gz in sorted(src.glob("*.gz")) if src.is_dir() else []:
        dst.mkdir(parents=True, exist_ok=True)
        with gzip.open(gz, "rb") as fin, open(dst / gz.name[:-3], "wb") as fout:
            shutil.copyfileobj(fin, fout)
        n += 1
    return n


# ---------------------------------------------------------------- re-scoring
def evalm_script(path: str | Path | None = None) -> Path:
    """The official ``evalm.py``: ``path`` if given (checked against the pinned sha256), else pooch's cached download."""
    import pooch
    if path is not None:
        got = pooch.file_hash(str(path), alg="sha256")
        if got != EVALM_SHA256:
            raise ValueError(f"{path}: sha256 {got} is not that of the official evalm.py ({EVALM_SHA256})")
        return Path(path)
    return Path(pooch.retrieve(EVALM_URL, known_hash=f"sha256:{EVALM_SHA256}", fname="evalm.py",
                               path=pooch.os_cache("sparselab") / "sigmorphon2018_scorer"))


def official(evalm: Path) -> Scorer:
    """Task-1 accuracy (%) printed by ``python evalm.py --guess G --gold D --task 1``."""
    def score(guess: Path, gold: Path) -> float:
        res = subprocess.run([sys.executable, str(evalm), "--guess", str(guess), "--gold", str(gold), "--task", "1"],
                             capture_output=True, text=True, check=True)
        m = re.search(r"^ac+uracy:\s*([0-9.]+)", res.stdout, re.M)    # the script prints "acccuracy"
        if m is None:
            raise ValueError(f"{evalm}: no accuracy line in its output: {res.stdout!r}")
        return float(m.group(1))
    return score


def builtin(guess: Path, gold: Path) -> float:
    """Our scorer (``sigmorphon.score_files``), for a machine that cannot fetch the official one."""
    from sparselab.data import sigmorphon as sg
    return sg.score_files(guess, gold)["accuracy"]


def gold_file(setting: str, lang: str, split: str, root=None) -> Path:
    from sparselab.data import sigmorphon as sg
    return sg.split_file(dict(sg.languages(setting, root))[lang], lang, split, setting)


def data_root_of(report: Path) -> str | None:
    """The data root of the profile named in the report's ``runs.jsonl`` (which redacts the path itself)."""
    import json

    from ..profile_diff import compose
    with open(Path(report) / "runs.jsonl", encoding="utf-8") as fh:
        cfg = json.loads(fh.readline())["config"]
    return compose(cfg["experiment_name"], cfg["profile"]["name"]).data.root


def _plain(path: Path, tmp: Path, n: int | None = None) -> tuple[Path, int]:
    """``path`` uncompressed into ``tmp`` (its first ``n`` lines), and its number of lines."""
    opener = gzip.open if path.suffix == ".gz" else open
    with opener(path, "rt", encoding="utf-8") as fh:
        lines = fh.readlines()[:n]
    dst = tmp / (path.name.removesuffix(".gz") + (".gold" if n is not None else ".guess"))
    dst.write_text("".join(lines), encoding="utf-8")
    return dst, len(lines)


def rescore(report: Path, scorer: Scorer, root=None) -> list[dict[str, Any]]:
    """One row per ``per_language.csv`` row: reported accuracy, the scorer's, and whether they agree."""
    report, rows = Path(report), []
    with open(report / "per_language.csv", encoding="utf-8") as fh:
        reported = list(csv.DictReader(fh))
    with tempfile.TemporaryDirectory() as tmp:
        for row in reported:
            where = report / folder(row["setting"], row["kind"], row["output_alpha"], row["attention_alpha"],
                                    row["seed"])
            files = sorted(where.glob(f"{row['language']}-*.gz"))
            if len(files) != 1:
                raise FileNotFoundError(f"{where}: expected one {row['language']}-<split>.gz, found {len(files)}")
            split = files[0].name.removesuffix(".gz")[len(row["language"]) + 1:]
            guess, n = _plain(files[0], Path(tmp))
            gold, _ = _plain(gold_file(row["setting"], row["language"], split, root), Path(tmp), n)
            got = scorer(guess, gold)
            rows.append({**row, "file": str(files[0].relative_to(report)), "rescored": f"{got:.2f}",
                         "agrees": f"{got:.2f}" == row["accuracy"]})
    return rows


def rescored_text(rows: list[dict[str, Any]], scorer_name: str) -> str:
    from ..tables import md_table
    bad = [r for r in rows if not r["agrees"]]
    head = (f"# Test predictions re-scored\n\nScorer: {scorer_name}. Each row of `per_language.csv` against its "
            f"gzipped prediction file under `{FOLDER}/` and the gold file of the data root (its first lines where the "
            f"run decoded a subsample). Agreement at 2 decimals: **{len(rows) - len(bad)} of {len(rows)}** rows.\n\n")
    return head + md_table(
        ["setting", "kind", "output α", "attention α", "seed", "language", "reported", "re-scored", "agrees", "file"],
        [[r["setting"], r["kind"], r["output_alpha"], r["attention_alpha"], r["seed"], r["language"], r["accuracy"],
          r["rescored"], "yes" if r["agrees"] else "**no**", f"`{r['file']}`"] for r in rows])

