"""The gzipped test predictions beside a Peters report and their re-scoring (issue 32: any Table 1 cell can be checked
with the shared task's official scorer): written byte-reproducibly, kept when a report is rebuilt from its committed
records, stale ones removed, every per_language.csv row re-scored, and the command's exit codes."""
from __future__ import annotations

import csv
import gzip
from pathlib import Path

import pytest

from sparselab.reports.peters2019 import predictions as pr
from sparselab.reports.peters2019 import rescore
from sparselab.reports.peters2019.per_language import CSV_HEADER
from sparselab.reports.peters2019.runs import key, setting_of

GOLD = {"adyghe": [("a", "ab", "N;SG"), ("b", "bc", "N;PL"), ("c", "cd", "V"), ("d", "de", "V;PST")],
        "greek": [("x", "xy", "N"), ("y", "yz", "V")]}
GUESS = {"adyghe": ["ab", "bX", "cd", "de"], "greek": ["xy", ""]}       # 75.00 and 50.00


def _data_root(tmp: Path) -> Path:
    folder = tmp / "data" / "sigmorphon2018_task1" / "all"
    folder.mkdir(parents=True)
    for lang, rows in GOLD.items():
        text = "".join(f"{l}\t{f}\t{t}\n" for l, f, t in rows)
        for name in (f"{lang}-train-medium", f"{lang}-test"):
            (folder / name).write_text(text, encoding="utf-8")
    return tmp / "data"


def _record(tmp: Path, name: str, seed: int, guesses=GUESS) -> dict:
    run = tmp / "runs" / name
    (run / "predictions").mkdir(parents=True)
    per_language = {}
    for lang, forms in guesses.items():
        (run / "predictions" / f"{lang}-test").write_text(
            "".join(f"{l}\t{g}\t{t}\n" for (l, _, t), g in zip(GOLD[lang], forms)), encoding="utf-8")
        correct = sum(g == f for (_, f, _), g in zip(GOLD[lang], forms))
        per_language[lang] = {"accuracy": 100.0 * correct / len(forms)}
    return {"run_dir": str(run), "config": {"seed": seed, "mapping": {"alpha": 1.5, "attn_alpha": 2.0},
                                            "data": {"setting": "medium"}, "task": {"eval_split": "test"}},
            "extra": {"per_language": per_language, "eval_split": "test"}}


def _report(tmp: Path, recs: list[tuple[str, dict]]) -> Path:
    out = tmp / "report"
    out.mkdir(exist_ok=True)
    pr.write(out, recs, key, setting_of)
    with open(out / "per_language.csv", "w", newline="", encoding="utf-8") as fh:
        w = csv.writer(fh, lineterminator="\n")
        w.writerow(CSV_HEADER)
        for kind, r in recs:
            seed, alphas = {"single": (r["config"]["seed"], (1.5, 2.0)), "ensemble": ("0+1", (1.5, 2.0)),
                            "baseline": ("", ("", ""))}[kind]
            for lang, v in sorted(r["extra"]["per_language"].items()):
                w.writerow(["medium", kind, *alphas, seed, lang, f"{v['accuracy']:.2f}", 0, 0, 0, 0])
    return out


def test_written_reproducibly_kept_on_rebuild_and_stale_removed(tmp_path):
    recs = [("single", _record(tmp_path, "a", 0)), ("ensemble", _record(tmp_path, "e", 0)),
            ("baseline", _record(tmp_path, "b", 0))]
    out = _report(tmp_path, recs)
    files = sorted(p.relative_to(out).as_posix() for p in out.rglob("*.gz"))
    assert files == ["predictions/medium/baseline/adyghe-test.gz", "predictions/medium/baseline/greek-test.gz",
                     "predictions/medium/out1.5-attn2/ensemble/adyghe-test.gz",
                     "predictions/medium/out1.5-attn2/ensemble/greek-test.gz",
                     "predictions/medium/out1.5-attn2/seed0/adyghe-test.gz",
                     "predictions/medium/out1.5-attn2/seed0/greek-test.gz"]
    seed0 = out / "predictions/medium/out1.5-attn2/seed0/adyghe-test.gz"
    assert gzip.decompress(seed0.read_bytes()).decode() == (tmp_path / "runs/a/predictions/adyghe-test").read_text()
    before = seed0.read_bytes()
    pr.write(out, recs, key, setting_of)
    assert seed0.read_bytes() == before                       # no name or time in the gzip header
    # a rebuild from committed records: no run directory here, so the committed files stay
    gone = [(k, {**r, "run_dir": str(tmp_path / "elsewhere" / k)}) for k, r in recs]
    assert pr.write(out, gone, key, setting_of) == []
    assert sorted(p.relative_to(out).as_posix() for p in out.rglob("*.gz")) == files
    # live records that no longer include the ensemble: its files go
    pr.write(out, recs[:1], key, setting_of)
    assert sorted(p.name for p in out.rglob("*.gz")) == ["adyghe-test.gz", "greek-test.gz"]


def test_every_row_rescored_and_a_disagreement_found(tmp_path):
    root = _data_root(tmp_path)
    out = _report(tmp_path, [("single", _record(tmp_path, "a", 0)), ("ensemble", _record(tmp_path, "e", 0)),
                             ("baseline", _record(tmp_path, "b", 0, {"adyghe": ["ab", "bc", "cd", "dX"],
                                                                    "greek": ["xy", "yz"]}))])
    rows = pr.rescore(out, pr.builtin, root)
    assert [(r["kind"], r["language"], r["accuracy"], r["rescored"], r["agrees"]) for r in rows] == [
        ("single", "adyghe", "75.00", "75.00", True), ("single", "greek", "50.00", "50.00", True),
        ("ensemble", "adyghe", "75.00", "75.00", True), ("ensemble", "greek", "50.00", "50.00", True),
        ("baseline", "adyghe", "75.00", "75.00", True), ("baseline", "greek", "100.00", "100.00", True)]
    # a report whose csv says something its prediction file does not
    text = (out / "per_language.csv").read_text().replace("50.00", "51.00", 1)
    (out / "per_language.csv").write_text(text)
    assert [r["agrees"] for r in pr.rescore(out, pr.builtin, root)] == [True, False, True, True, True, True]


def test_a_subsampled_run_is_scored_against_the_gold_lines_it_decoded(tmp_path):
    root = _data_root(tmp_path)
    out = _report(tmp_path, [("single", _record(tmp_path, "a", 0, {"adyghe": ["ab", "bc"], "greek": ["xy"]}))])
    assert [(r["rescored"], r["agrees"]) for r in pr.rescore(out, pr.builtin, root)] == [("100.00", True),
                                                                                         ("100.00", True)]


def test_the_official_scorer_is_run_and_its_output_read(tmp_path):
    """evalm.py itself is not on this machine (pooch fetches it where GitHub is reachable, and the closing note of
    issue 32 gives its run on the cpu report); a script printing what it prints stands in, to test the subprocess and
    the parsing of its "acccuracy" line."""
    stand_in = tmp_path / "evalm.py"
    stand_in.write_text("import sys\nprint('acccuracy:\\t12.50\\nlevenshtein:\\t0.93')\n")
    assert pr.official(stand_in)(tmp_path / "g", tmp_path / "d") == 12.5
    with pytest.raises(ValueError, match="sha256"):
        pr.evalm_script(stand_in)              # a local copy must be the official file


def test_rescore_command_exit_codes(tmp_path, capsys):
    root = _data_root(tmp_path)
    assert rescore.main([str(tmp_path / "nothing")]) == 2
    assert capsys.readouterr().err.startswith("error: ")
    out = _report(tmp_path, [("single", _record(tmp_path, "a", 0))])
    assert rescore.main([str(out), "--scorer", "builtin", "--data-root", str(root)]) == 0
    text = (out / "predictions" / "rescored.md").read_text()
    assert "**2 of 2** rows" in text and "sigmorphon.score_files" in text
    (out / "per_language.csv").write_text((out / "per_language.csv").read_text().replace("75.00", "70.00"))
    assert rescore.main([str(out), "--scorer", "builtin", "--data-root", str(root)]) == 1
    assert "**1 of 2** rows" in (out / "predictions" / "rescored.md").read_text()
    assert rescore.main([str(out), "--scorer", "builtin", "--data-root", str(tmp_path / "no-data")]) == 2
    assert capsys.readouterr().err.count("error: ") == 1


def test_pinned_scorer_url_names_a_commit():
    assert "/490e2e0693241f708670d9d1c56803b754fab7cd/task1/evaluation/evalm.py" in pr.EVALM_URL
    assert len(pr.EVALM_SHA256) == 64 and int(pr.EVALM_SHA256, 16) > 0
