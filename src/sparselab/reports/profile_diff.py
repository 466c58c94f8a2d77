"""Where the runs of one profile differ from what another profile (by default ``paper``) would run."""
from __future__ import annotations

from typing import Any, Iterable, Mapping, Sequence

from omegaconf import DictConfig, ListConfig, OmegaConf

from sparselab.engine import identity

GROUPS = ("task", "data", "model")


def compose(experiment: str, profile: str) -> DictConfig:
    """The resolved job config of ``experiment`` under ``profile``, with its ``hydra`` node."""
    from hydra import compose as hydra_compose, initialize_config_dir

    from sparselab.engine import resolvers
    from sparselab.run import CONF_DIR

    resolvers.register()
    with initialize_config_dir(version_base="1.3", config_dir=str(CONF_DIR), job_name="profile_diff"):
        return hydra_compose("config", overrides=[f"experiment={experiment}", f"profile={profile}"],
                             return_hydra_config=True)


def _norm(v: Any) -> Any:
    """A comparable, hashable form: numbers as floats, lists as tuples."""
    if isinstance(v, (list, tuple, ListConfig)):
        return tuple(_norm(x) for x in v)
    if isinstance(v, bool) or v is None:
        return v
    try:
        return float(v)
    except (TypeError, ValueError):
        return str(v)


def _leaves(node: Any, prefix: str = "") -> Iterable[tuple[str, Any]]:
    if isinstance(node, Mapping):
        for k, v in node.items():
            yield from _leaves(v, f"{prefix}.{k}" if prefix else str(k))
    else:
        yield prefix, node


def _get(cfg: Mapping, key: str) -> Any:
    for part in key.split("."):
        if not isinstance(cfg, Mapping) or part not in cfg:
            return None
        cfg = cfg[part]
    return cfg


def _show(values: Iterable[Any]) -> str:
    def one(v):
        if isinstance(v, tuple):
            return "[" + ", ".join(one(x) for x in v) + "]"
        return f"{v:g}" if isinstance(v, float) else str(v)

    vals = sorted(values, key=lambda v: (str(type(v)), v))
    return one(vals[0]) if len(vals) == 1 else "{" + ", ".join(one(v) for v in vals) + "}"


def differences(recs: Sequence[Mapping], other: DictConfig) -> list[str]:
    """``key: ours X, <other profile> Y`` for every key of :data:`GROUPS` that differs."""
    if not recs:
        return []
    other_name = other.profile.name
    # the hydra node resolves only inside a Hydra run (hydra.run.dir needs HydraConfig): read the sweep literally
    params = OmegaConf.to_container(other.hydra.sweeper.params or {}, resolve=False)
    job = OmegaConf.to_container(OmegaConf.masked_copy(other, [k for k in other if k != "hydra"]), resolve=True)
    out = []
    # where a job reads its data from (the smoke profile: the shipped excerpts) is not a difference of the job
    ignore = identity.machinery_keys()
    skip = lambda k: any(k == i or k.startswith(i + ".") for i in ignore)  # noqa: E731
    for key, spec in sorted(params.items()):
        ours = {_norm(_get(r["config"], key)) for r in recs}
        theirs = {_norm(x.strip()) for x in str(spec).split(",")}      # a basic-sweeper spec a,b,c
        if ours != theirs and not skip(key):
            out.append(f"`{key}`: {_show(ours)} here, {_show(theirs)} in the {other_name} profile")
    for group in GROUPS:
        for key, theirs in _leaves(job.get(group) or {}, group):
            if key in params or skip(key):
                continue
            ours = {_norm(_get(r["config"], key)) for r in recs}
            if ours != {_norm(theirs)}:
                out.append(f"`{key}`: {_show(ours)} here, {_show({_norm(theirs)})} in the {other_name} profile")
    return out


def profile_lines(experiment: str, recs: Sequence[Mapping], profile: str) -> list[str]:
    """The header lines: every difference from the ``paper`` profile, or that there is none."""
    if not recs or profile == "paper":
        return []
    diffs = differences(recs, compose(experiment, "paper"))
    if not diffs:
        return ["- This profile runs exactly what the paper profile runs (config and sweep compared).", ""]
    return ["- Differences from the paper profile (config and sweep compared): " + "; ".join(diffs) + ".", ""]
