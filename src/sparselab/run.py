"""Entry point: ``python -m sparselab.run experiment=<paper>/<artifact> profile=<smoke|cpu|paper> [overrides]``.

Add ``-m`` to sweep by hand (``-m mapping.alpha=1,1.5,2``); experiment configs
that sweep by themselves set ``hydra.mode: MULTIRUN``.
"""
from __future__ import annotations

import logging
import os
import sys
from pathlib import Path

import hydra
from hydra.core.hydra_config import HydraConfig
from omegaconf import DictConfig

from sparselab.engine import resolvers
from sparselab.engine.overrides import check_overrides

CONF_DIR = Path(os.environ.get("SPARSELAB_CONF", Path(__file__).resolve().parents[2] / "conf"))

resolvers.register()


def _quiet_lightning() -> None:
    # `import lightning` installs its own handlers; under Hydra every line would print twice.
    for name in list(logging.root.manager.loggerDict):
        if name.startswith("lightning") or name.startswith("pytorch_lightning"):
            lg = logging.getLogger(name)
            lg.handlers.clear()
            lg.propagate = True


@hydra.main(version_base="1.3", config_path=str(CONF_DIR), config_name="config")
def main(cfg: DictConfig):
    import lightning  # noqa: F401 - import first so its handlers exist to be cleared

    _quiet_lightning()
    from sparselab.engine.execute import execute

    run_dir = Path(HydraConfig.get().runtime.output_dir)
    rec = execute(cfg, run_dir, interactive=sys.stderr.isatty())
    objective = cfg.task.get("objective")
    if objective and objective in rec.get("metrics", {}):
        return rec["metrics"][objective]
    return None


if __name__ == "__main__":
    check_overrides(CONF_DIR, sys.argv[1:])
    main()
