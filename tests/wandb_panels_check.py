"""What tests/test_wandb_panels.py checks of a paper's W&B report, on offline runs made elsewhere too: every panel
reads a key that the runs of its run sets logged (test_martins2016_pipeline.py checks it on its plan's own runs)."""
from __future__ import annotations

import ast
import json
import re
import subprocess
import sys
from pathlib import Path

import wandb_workspaces.reports.v2 as wr

from sparselab.reports import wandb_report as W


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
    runs = [_Run(dir=d, values=_config_values(d)) for d in sorted(run_dirs)]
    if report is not None:
        sets = [rs for b in report.blocks if isinstance(b, wr.PanelGrid) for rs in b.runsets]
        runs = [r for r in runs if any(matches(rs, r) for rs in sets)]
    return runs


def panel_problems(report, runs: list[dict]) -> list[str]:
    """Every panel of ``report`` whose key no run of its run sets logged ([] when every panel reads one)."""
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


