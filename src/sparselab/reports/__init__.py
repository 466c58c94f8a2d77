"""Report builders: run records (``run.json``) in, Markdown tables, figures and an HTML index out.

Every number in ``reports/`` comes from the run records that :func:`sparselab.engine.record.find`
returns; nothing here trains, invents or edits a metric.

Shared helpers:

- :mod:`.records`    where the runs live, loading records of one experiment, paths named for readers
- :mod:`.tables`     cell formatting, Markdown tables, best-in-bold, "not run" / "missing run" cells
- :mod:`.reference`  the papers' reported numbers (``shared/reference/papers.yaml``), reference columns only
- :mod:`.figures`    matplotlib set-up and deterministic PNG writing
- :mod:`.index`      provenance, ``runs.jsonl`` config dumps, the browsable ``index.html``
- :mod:`.numbers`    the numbers behind a paper's tables (pinned for the smoke profile by the tests)
- :mod:`.runner`     the one command line behind ``pipelines/<paper>.py`` (run the plan, then report)

- :mod:`.wandb_report` a W&B Report per paper (``wandb-workspaces``; an outline offline)
- :mod:`.mt_common`  what the translation reports share (BLEU cells, signatures, hyp/ref files for sacrebleu)
- :mod:`.sweep`      a table and a PNG per metric for any hand sweep (``python -m sparselab.reports.sweep``)

One module per paper: :mod:`.martins2016` (with :mod:`.martins2016_snli`), :mod:`.peters2019` (with
:mod:`.peters2019_mt`), :mod:`.correia2019` (with :mod:`.correia2019_figures`). Each exposes ``PAPER``,
``ARTIFACTS``, ``write_reports(profile, out, options, runs)`` and ``numbers(runs, profile)``.
"""
