"""Task ``transformer_translation``: Correia, Niculae & Martins (2019), the adaptively sparse Transformer.

The same task as ``translation`` (:mod:`sparselab.tasks.translation`), which picks the Transformer's
LightningModule by ``task.name``. This module exists because the engine finds a task's code by its name
(``sparselab.tasks.<task.name>``) and ``conf/task/transformer_translation.yaml`` keeps the name: renaming the
task would change the identity of every finished Correia job (a rename now takes an identity migration:
identity.task_renamed in sparselab.engine.identity.MIGRATIONS, docs/running.md).
"""
from sparselab.tasks.translation import run

__all__ = ["run"]
