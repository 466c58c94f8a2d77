"""Report builders: run records (``run.json``) in, Markdown tables, figures and an HTML index out.

Every number in ``reports/`` comes from the run records that :func:`sparselab.engine.record.find`
returns; nothing here trains, invents or edits a metric.

Shared helpers:

- :mod:`.records`    where the runs live, loading records of one experiment, paths named for readers
- :mod:`.tables`     cell formatting, Markdown tables, best-in-bold, "not run" / "missing run" cells
- :mod:`.reference`  the papers' reported numbers (``shared/reference/papers.yaml``), reference columns only
- :mod:`.index`      provenance, ``runs.jsonl`` config dumps, the browsable ``index.html``
- :mod:`.numbers`    the numbers behind a paper's tables (pinned for the smoke profile by the tests)
- :mod:`.runner`     the one command line behind ``pipelines/<paper>.py`` (run the plan, then report)

- :mod:`.wandb_report` builds, outlines and publishes a paper's W&B Report (``wandb-workspaces``; an outline
  offline) from the panels of its ``<paper>/wandb.py``
- :mod:`.mt_common`  what the translation reports share (BLEU cells, signatures, hyp/ref files for sacrebleu,
  a direction's status in the plan, its settings rows)
- :mod:`.profile_diff` what a profile changes against the paper profile, in words
- :mod:`.sweep`      a table and a PNG per metric for any hand sweep (``python -m sparselab.reports.sweep``)

Matplotlib set-up and deterministic PNG writing are :mod:`sparselab.plots` (the tasks draw with it too).

One package per paper, each laid out alike: ``runs.py`` (its records), one module per artefact with its prose in
the ``.md`` template beside it (:mod:`.templates`), ``claims.py``, ``wandb.py`` (its W&B panels) and the front door
``report.py``, which only orchestrates: :mod:`.martins2016`, :mod:`.peters2019`, :mod:`.correia2019`. A paper imports the kit, never another
paper. Each package exposes its front door's ``PAPER``, ``ARTIFACTS``, ``write_reports(profile, out, options,
runs)`` and ``numbers(runs, profile)``.
"""
