"""One module per task, named by ``task.name``: its ``run(cfg, ctx)`` builds typed settings from ``cfg`` and returns
the job's result. The engine imports Lightning before a task runs unless its module says ``LIGHTNING = False`` (a
task that fits without it: the import is 3 s of every such job's process)."""
