"""What more than one test file needs: the project's folders, loading a script (a pipeline, a benchmark or a
diagnosis: files outside the package) as a module, rebuilding a committed report, reading a checkpoint's
validations, the links of a report's index.html, the cells of a Markdown table, the papers' reference numbers, and
the smoke numbers against their fixture (to what the machine guarantees, :func:`smoke_diff`), and translation
files as the MT tasks write them."""
from __future__ import annotations

import ast
import importlib.util
import json
import math
import re
import subprocess
import sys
from html.parser import HTMLParser
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, Callable
from urllib.parse import unquote, urlsplit

import pytest

from sparselab.reports import numbers
from sparselab.reports.reference import REFERENCE

if TYPE_CHECKING:    # torch and W&B's report API are imported where they are used: most test files need neither
    import wandb_workspaces.reports.v2 as wr

PROJECT = Path(__file__).resolve().parents[1]
SMOKE_FIXTURE = PROJECT / "tests" / "fixtures" / "smoke_metrics.json"


# ---------------------------------------------------------------- scripts and committed reports
def load_script(relpath: str, name: str | None = None) -> ModuleType:
    """Execute ``PROJECT/relpath`` as a fresh module named ``name`` (default: its file name)."""
    path = PROJECT / relpath
    spec = importlib.util.spec_from_file_location(name or path.stem, path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def rebuild_report_only(paper: str, committed: Path, records: int, tmp_path: Path, monkeypatch, capsys,
                        redraw: bool = True, planned: int | None = None) -> Path:
    """Rebuild a committed ``reports/<paper>/<profile>/`` in a clone with the pipeline's ``--report-only`` and no run
    directories; check that "N of M planned jobs" has N == ``records`` (no committed record orphaned) and M ==
    ``planned`` (default ``records``: the plan is done, none missing) and, with ``redraw``, that every figure came back (without it the committed PNGs stay in the clone). Returns the
    clone's folder for the caller's byte comparison."""
    import re
    import shutil

    from sparselab.reports.runner import main

    clone = tmp_path / "reports" / paper / committed.name
    shutil.copytree(committed, clone)
    for png in clone.glob("*.png") if redraw else ():
        png.unlink()                                  # every figure must come back from the records
    monkeypatch.setenv("SPARSELAB_RUNS", str(tmp_path / "no_runs"))
    mod = load_script(f"pipelines/{paper}.py", f"pipeline_{paper}")
    assert main(mod.report, mod.PLANS, ["--profile", committed.name, "--report-only", "--out", str(clone)]) == 0
    found = re.search(r"(\d+) of (\d+) planned jobs have a finished record", capsys.readouterr().out)
    assert found and int(found[1]) == records, "every committed record is a job of the plan, found once"
    assert int(found[2]) == (records if planned is None else planned), "the plan's size"
    assert sorted(p.name for p in clone.glob("*.png")) == sorted(p.name for p in committed.glob("*.png"))
    return clone


def rebuild_diagnosis(script: str, stored: Path, tmp_path: Path) -> str:
    """Run a diagnosis report script (``reports/<paper>/diagnosis/...``) on its stored ``.jsonl`` into ``tmp_path``;
    the text it wrote, which a test compares with the committed report beside ``stored``."""
    import sys

    import warm

    out = tmp_path / stored.with_suffix(".md").name
    proc = warm.run([sys.executable, str(PROJECT / script), str(stored), "--out", str(out)],
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    return out.read_text(encoding="utf-8")


def validations_saved(runs: Path) -> int:
    """Validations recorded in the job's last.ckpt (0 while there is none, or it is being written); read as the
    resumed job reads it, with weights_only=True (no unpickling of arbitrary objects)."""
    import torch

    for p in runs.rglob("checkpoints/last.ckpt"):
        try:
            return len(torch.load(p, map_location="cpu", weights_only=True)["sparselab"]["history"])
        except Exception:
            return 0
    return 0


# ---------------------------------------------------------------- report files
class _Links(HTMLParser):
    def __init__(self):
        super().__init__()
        self.links: list[str] = []

    def handle_starttag(self, tag, attrs):
        self.links += [v for k, v in attrs if k in ("href", "src") and v]


def links(index: Path) -> list[str]:
    """The href and src values of ``index`` that name a file (no in-page anchors, no web addresses)."""
    parser = _Links()
    parser.feed(Path(index).read_text(encoding="utf-8"))
    return [v for v in parser.links if not v.startswith("#") and not urlsplit(v).scheme]


def broken_links(index: Path) -> list[str]:
    """The links of ``index`` whose target (relative to its folder) does not exist."""
    base = Path(index).parent
    return [v for v in links(index) if not (base / unquote(urlsplit(v).path)).exists()]


def table(text: str, heading: str | None = None) -> list[list[str]]:
    """Cells of the first Markdown table after ``heading`` (or of the first table)."""
    if heading:
        text = text.split(heading, 1)[1]
    lines = []
    for line in text.splitlines():
        if line.startswith("|"):
            lines.append(line)
        elif lines:
            break
    return [[c.strip() for c in line.strip().strip("|").split("|")] for line in lines[2:]]


def sacrebleu_cli(ref: Path, hyp: Path, tok: str) -> float:
    """The BLEU the sacrebleu command line prints for ``hyp`` against ``ref`` (4 decimals)."""
    cmd = [sys.executable, "-m", "sacrebleu", str(ref), "-i", str(hyp), "-m", "bleu", "-b", "-w", "4", "-tok", tok]
    if tok == "none":
        cmd.append("--force")
    out = subprocess.run(cmd, capture_output=True, text=True, check=True).stdout
    return float(out.strip())


def header_table(md: str) -> list[dict[str, str]]:
    """The first Markdown table of ``md`` as a list of {header: cell}."""
    lines = md.splitlines()
    start = next(i for i, ln in enumerate(lines) if ln.startswith("| "))
    rows = []
    for ln in lines[start:]:
        if not ln.startswith("|"):
            break
        rows.append([c.strip() for c in re.split(r"(?<!\\)\|", ln.strip()[1:-1])])   # an escaped \| stays in its cell
    return [dict(zip(rows[0], r)) for r in rows[2:]]


def section(md: str, title: str) -> str:
    return md.split(title, 1)[1]


def mean_std(cell: str) -> tuple[float, float | None]:
    mean, _, std = cell.partition(" ± ")
    return float(mean), (float(std) if std else None)


needs_reference = pytest.mark.skipif(not REFERENCE.exists(),
                                     reason=f"{REFERENCE} absent: the papers' numbers are not shipped")


# ---------------------------------------------------------------- smoke numbers
# Fresh smoke numbers against the fixture (SMOKE_FIXTURE), to what the machine guarantees.
# 
# The fixture records the CPU kernels it was taken on (``_kernel``, :func:`sparselab.engine.devices.cpu_kernel`).
# On those kernels a 1-thread torch fit is bit-reproducible, so every number must match to 1e-6 (or to the
# optimiser's tolerance that a caller passes for scipy fits, whose BLAS thread pool and core type are not part of
# the kernel string). On other kernels (another CPU generation: AVX2 against AVX-512 with AMX, measured) the torch
# fits sum in another order, and training turns that rounding into discrete changes: one attended position in 355,
# one decoded character (a Peters smoke edit distance moved by 0.1 to 0.6). No tolerance is guaranteed there, so
# torch-trained rows are checked for what holds anywhere: the same rows and metrics, each finite. A machine with a
# CUDA GPU counts as other kernels whatever its CPU: the smoke jobs run with ``trainer.accelerator=auto``, so they
# train on the GPU there.


def smoke_diff(paper: str, got: dict, torch_fit: Callable[[str], bool], abs_tol: float | Callable[[str], float] = 1e-6,
         fixture: Path = SMOKE_FIXTURE) -> list[str]:
    """[] when ``got`` agrees with the fixture's ``paper`` numbers; ``torch_fit(row)``: the row comes from a torch
    training run (kernel-dependent); ``abs_tol``: the tolerance of every row on the fixture's kernels, and of the
    other rows on any kernels."""
    import torch

    from sparselab.engine.devices import cpu_kernel

    stored = json.loads(fixture.read_text())
    want = stored[paper]
    if stored.get("_kernel") == cpu_kernel() and not torch.cuda.is_available():
        return numbers.diff(got, want, abs_tol=abs_tol)
    out = numbers.diff({r: v for r, v in got.items() if not torch_fit(r)},
                       {r: v for r, v in want.items() if not torch_fit(r)}, abs_tol=abs_tol)
    for row in sorted({r for r in (*got, *want) if torch_fit(r)}):
        if row not in got or row not in want:
            out.append(f"{row}: {'missing' if row in want else 'unexpected row'}")
        elif set(got[row]) != set(want[row]):
            out.append(f"{row}: metrics {sorted(got[row])}, expected {sorted(want[row])}")
        else:
            out += [f"{row}: {m} = {v!r} is not finite" for m, v in got[row].items() if not math.isfinite(v)]
    return out


# ---------------------------------------------------------------- W&B panels
# What tests/reports/test_wandb_panels.py checks of a paper's W&B report, on offline runs made elsewhere too: every panel
# reads a key that the runs of its run sets logged (test_martins2016_pipeline.py checks it on its plan's own runs).
class _Run(dict):
    """An offline run; its logged ``keys`` are read on first use (a ``wandb`` process each, about 1 s: a panel is
    satisfied by the first run that logged its key, so most runs of a plan are never read)."""

    def __missing__(self, key):
        if key != "keys":
            raise KeyError(key)
        self["keys"] = logged_keys(self["dir"])
        return self["keys"]


def logged_keys(run_dir: str | Path) -> dict[str, set[str]]:
    """``{key: kinds}`` of what an offline W&B run (``.../wandb/offline-run-*``) logged, read back from its
    ``.wandb`` file with ``wandb leet inspect --json`` (the CLI's record dump). Kinds: ``config`` (every leaf of
    the run config, dotted), ``summary``, ``history`` (any key logged over steps), and the media type of a
    history value (``image-file``, ``histogram``, ``table-file``). Media values come flattened in the dump
    (``<key>._type``, ``<key>.path``, ...) and are read back as their key."""
    exe = Path(sys.executable).with_name("wandb")
    cmd = [str(exe)] if exe.exists() else [sys.executable, "-m", "wandb"]
    out = subprocess.run([*cmd, "leet", "inspect", "--json", str(run_dir)], capture_output=True, text=True,
                         check=True, timeout=120).stdout
    keys: dict[str, set[str]] = {}

    def add(key: str, kind: str) -> None:
        keys.setdefault(key, set()).add(kind)

    def config(d: dict, prefix: str = "") -> None:
        for k, v in d.items():
            if isinstance(v, dict) and v and not k.startswith("_"):
                config(v, f"{prefix}{k}.")
            elif not k.startswith("_"):
                add(f"{prefix}{k}", "config")

    for line in out.splitlines():
        rec = json.loads(line)
        kind = rec.get("type")
        if kind == "run":
            config((rec["run"].get("config") or {}).get("update") or {})
        elif kind == "config":
            config(rec["config"].get("update") or {})
        elif kind in ("history", "summary"):
            item = rec[kind].get("item") or rec[kind].get("update") or {}
            # the dump flattens a media value into "<key>._type", "<key>.path", ...: one key of that media type
            media = {k[: -len("._type")]: v for k, v in item.items() if k.endswith("._type")}
            for k in item:
                base = next((m for m in media if k.startswith(m + ".")), None)
                if not k.startswith("_") and base is None:
                    add(k, kind)
            for k, v in media.items():
                add(k, kind)
                add(k, str(v))
    return keys


def offline_runs(run_dirs, report=None) -> list[dict]:
    """``[{"dir", "values", "keys"}]`` of the offline runs ``run_dirs`` (``.../wandb/offline-run-*``); with ``report``,
    only the runs some run set of its panel grids selects."""
    import wandb_workspaces.reports.v2 as wr

    runs = [_Run(dir=d, values=_config_values(d)) for d in sorted(run_dirs)]
    if report is not None:
        sets = [rs for b in report.blocks if isinstance(b, wr.PanelGrid) for rs in b.runsets]
        runs = [r for r in runs if any(matches(rs, r) for rs in sets)]
    return runs


def panel_problems(report, runs: list[dict]) -> list[str]:
    """Every panel of ``report`` whose key no run of its run sets logged ([] when every panel reads one)."""
    import wandb_workspaces.reports.v2 as wr

    grids = [b for b in report.blocks if isinstance(b, wr.PanelGrid)]
    assert grids and sum(len(g.panels) for g in grids) >= 10
    return [m for g in grids for m in missing_keys(g, runs)]


def logs_every_media_kind(runs: list[dict]) -> bool:
    """An image, a histogram and a table among the runs' logged keys, and their files in the offline runs."""
    kinds: dict[str, set] = {"image-file": set(), "histogram": set(), "table-file": set()}
    for r in runs:
        for k, ks in r["keys"].items():
            for kind in ks & kinds.keys():
                kinds[kind].add(k)
        if all(kinds.values()):
            break
    assert all(kinds.values()), kinds
    # the files behind them are in the offline runs, ready for `wandb sync`
    media = [p for r in runs for p in (r["dir"] / "files" / "media").rglob("*") if p.is_file()]
    assert any(p.suffix == ".png" for p in media) and any(p.name.endswith(".table.json") for p in media)
    return True


def _config_values(run_dir: Path) -> dict:
    """The flat config of the job (its run record, beside the wandb folder), and its W&B group."""
    from sparselab.reports.sweep import flatten

    rec = json.loads((run_dir.parents[1] / "run.json").read_text())
    return {**flatten(rec["config"]), "Group": rec["config"]["experiment_name"]}


TERM = re.compile(r"""(Metric|Config)\("([^"]+)"\) == ('[^']*'|[-0-9.eE]+|True|False|None)""")


def matches(runset: wr.Runset, run: dict) -> bool:
    """Whether a run passes the run set's filter: a conjunction of ``Metric("Group") == …`` / ``Config(k) == v``
    terms, as ``wandb_report`` builds them (anything else in the filter is a failure of this test)."""
    terms = TERM.findall(runset.filters)
    rest = TERM.sub("", runset.filters).replace("and", "").strip()
    assert terms and not rest, f"filter not understood by this test: {runset.filters!r}"
    return all(run["values"].get(name) == ast.literal_eval(value) for _, name, value in terms)


def missing_keys(grid: wr.PanelGrid, runs: list[dict]) -> list[str]:
    """Panels of ``grid`` reading a key that none of the grid's runs logged, as ``title: where key``."""
    from sparselab.reports import wandb_report as W

    selected = [r for r in runs if any(matches(rs, r) for rs in grid.runsets)]
    if not selected:
        return [f"run sets {[rs.name for rs in grid.runsets]}: no smoke run matches"]
    bad = []
    for panel in grid.panels:
        for where, key in W.panel_keys(panel):
            if where == "regex":
                ok = any(re.search(key, k) and "history" in kinds for r in selected for k, kinds in r["keys"].items())
            else:
                ok = any(where in r["keys"].get(key, ()) for r in selected)
            if not ok:
                bad.append(f"{W.describe(panel)['title']}: {where} {key}")
    return bad


# ---------------------------------------------------------------- translation files, as the MT tasks write them
def write_translations(run_dir: Path, name: str, hyps: list[str], refs: list[str],
                       tokenize: str = "13a") -> tuple[dict, dict]:
    """The four translation files of one test set under ``run_dir/translations``, and the BLEU the task would
    compute from them with sacrebleu (``bleu`` with ``tokenize``, ``bleu_tok`` on the tokenized text)."""
    from sacrebleu.metrics import BLEU

    files = {}
    for kind, lines in (("detok.hyp", hyps), ("detok.ref", refs), ("tok.hyp", hyps), ("tok.ref", refs)):
        p = run_dir / "translations" / f"{name}.{kind}.txt"
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
        files[kind] = f"translations/{name}.{kind}.txt"
    score = {tok: BLEU(tokenize=tok, force=True).corpus_score(hyps, [refs]).score for tok in {tokenize, "none"}}
    return files, {"bleu": score[tokenize], "bleu_tok": score["none"]}
