"""Report builders: run records in, Markdown tables, figures and an HTML index out (layout: docs/running.md).

Every number comes from the run records of :func:`sparselab.engine.record.find`; nothing here trains or edits a metric.
One package per paper (runs, one module per artefact with its ``.md`` template, claims, wandb, the front door report);
a paper imports the shared kit, never another paper."""
