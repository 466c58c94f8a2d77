# sparselab — run `make help` for the targets.
SHELL := /bin/bash
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
# 3 workers on 2 cores: a third keeps the CPUs busy while the others wait on subprocess start-up and file I/O
TEST_WORKERS ?= 3
# The suite's ~250 Python processes read sparselab's and the tests' bytecode instead of compiling it again, also on
# a machine that sets PYTHONDONTWRITEBYTECODE (0.55 CPU-s a job process, 4.5 CPU-s of collection a worker; the caches
# are the git-ignored __pycache__ folders; the installed packages' bytecode comes from `uv pip install --compile-bytecode`)
PYTEST := env -u PYTHONDONTWRITEBYTECODE $(PY) -m pytest
# torch is pinned to the CPU wheel these machines carry; a GPU user installs
# their own torch first (docs/running.md, "Running on a cluster") and `make setup` keeps it.
TORCH_PIN := torch==2.13.0
UV_PIN := uv==0.13.9
PROFILE ?=
# a Hydra launcher for every job of a reproduce-<paper> plan (slurm: one SLURM job each), and overrides of where
# jobs run (SET="hydra.launcher.partition=gpu trainer=ddp trainer.devices=4"): README "Running on a cluster"
LAUNCHER ?=
SET ?=
PYTEST_ARGS ?=
CLUSTER_ARGS = $(if $(LAUNCHER),--launcher $(LAUNCHER)) $(foreach o,$(SET),--set $(o))
# the pipelines' own default: cpu without a GPU, paper with one (sparselab.reports.runner.choose_profile)
DEFAULT_PROFILE = $(shell $(PY) -c "import torch; print('paper' if torch.cuda.is_available() else 'cpu')" 2>/dev/null || echo cpu)
CORREIA_PROFILE = $(or $(PROFILE),$(DEFAULT_PROFILE))
# Offline, reproducible defaults for every target (override on the command line).
export OMP_NUM_THREADS ?= 1
export WANDB_MODE ?= offline
export HF_DATASETS_OFFLINE ?= 1
export HF_HUB_OFFLINE ?= 1
export HF_DATASETS_DISABLE_PROGRESS_BARS ?= 1
export WANDB_SILENT ?= true

.PHONY: help setup test lint test-fast bench-mappings bench-mt-speed bench-transformer-speed reproduce-martins2016 reproduce-peters2019 reproduce-correia2019 rescore-peters2019 wandb-report data data-check clean

help: ## list the targets
	@grep -E '^[a-zA-Z0-9_-]+:.*## ' $(MAKEFILE_LIST) | awk 'BEGIN{FS=":.*## "}{printf "  %-24s %s\n", $$1, $$2}'

# pyproject.toml gives lower bounds (the library's users are never downgraded); the exact versions of the
# pipelines' environment are requirements/lock.txt, a constraints file (torch is pinned here, not there)
LOCK := requirements/lock.txt

$(VENV)/.installed: pyproject.toml $(LOCK)
	@test -x $(PY) || $(PYTHON) -m venv $(VENV)
	@$(VENV)/bin/uv --version >/dev/null 2>&1 || $(VENV)/bin/pip install -q $(UV_PIN)
	@# uv installs in about half of pip's time; it does not read pip's configuration, so pip's find-links (where
	@# these machines keep the CPU wheel of torch) are passed on, and torch's own dependencies follow the lock
	@$(PY) -c "import torch" 2>/dev/null || $(VENV)/bin/uv pip install -q --compile-bytecode --python $(PY) \
		$(foreach l,$(PIP_FIND_LINKS),--find-links $(l)) -c $(LOCK) $(TORCH_PIN)
	$(VENV)/bin/uv pip install -q --compile-bytecode --python $(PY) -c $(LOCK) -e '.[dev,kernels,experiments]'
	@touch $@

setup: $(VENV)/.installed ## create .venv with pinned torch and sparselab[dev,kernels,experiments] at the versions of requirements/lock.txt (idempotent, fast when done)

test: setup lint ## ruff, then the whole test suite (includes the smoke pipelines), on 3 workers (PYTEST_ARGS=--durations=30)
	$(PYTEST) -n $(TEST_WORKERS) --dist loadfile --no-loadscope-reorder $(PYTEST_ARGS)

lint: setup ## ruff check of the whole tree (rules: [tool.ruff] in pyproject.toml)
	$(PY) -m ruff check .

test-fast: setup ## the tests without the end-to-end smoke pipelines
	$(PYTEST) -n $(TEST_WORKERS) --dist loadfile --no-loadscope-reorder -m "not slow" $(PYTEST_ARGS)

bench-mappings: setup ## benchmark the mappings against softmax and the entmax package (2 threads)
	OMP_NUM_THREADS=2 $(PY) benchmarks/bench_mappings.py

bench-mt-speed: setup ## Figure 6: NMT training speed, softmax vs exact 1.5-entmax vs bisection (PROFILE=smoke|cpu|paper, default cpu)
	OMP_NUM_THREADS=2 $(PY) benchmarks/bench_mt_speed.py --profile $(or $(PROFILE),cpu) \
		--out reports/peters2019/$(or $(PROFILE),cpu)/figure6_speed.md

bench-transformer-speed: setup ## Correia 2019: Transformer training speed, softmax vs 1.5-entmax vs α-entmax (PROFILE=smoke|cpu|paper, default cpu)
	OMP_NUM_THREADS=2 $(PY) benchmarks/bench_transformer_speed.py --profile $(or $(PROFILE),cpu) \
		--out reports/correia2019/$(or $(PROFILE),cpu)/speed.md

reproduce-martins2016: setup ## Martins & Astudillo 2016 tables/figures: make reproduce-martins2016 PROFILE=smoke|cpu|paper
	$(PY) pipelines/martins2016.py $(if $(PROFILE),--profile $(PROFILE)) $(CLUSTER_ARGS)

reproduce-peters2019: setup ## Peters et al. 2019 inflection (Table 1) and translation (Tables 2-3, Figure 4): make reproduce-peters2019 PROFILE=smoke|cpu|paper
	$(PY) pipelines/peters2019.py $(if $(PROFILE),--profile $(PROFILE)) $(CLUSTER_ARGS)

# --benchmark: the pipeline runs the speed benchmark after its data check and before the sweeps (a machine not yet
# busy with training), with its progress on the terminal, into the report folder it builds (never the committed
# reports/ folder unasked); under LAUNCHER it is skipped: it would time the machine that submits, e.g. a login node
reproduce-correia2019: setup ## Correia et al. 2019 adaptively sparse Transformer (+ its speed benchmark): make reproduce-correia2019 PROFILE=smoke|cpu|paper
	$(PY) pipelines/correia2019.py --profile $(CORREIA_PROFILE) --benchmark $(CLUSTER_ARGS)

rescore-peters2019: setup ## re-score a Peters report's test predictions with the shared task's official evalm.py (fetched): make rescore-peters2019 PROFILE=cpu [EVALM=path]
	$(PY) -m sparselab.reports.peters2019.rescore reports/peters2019/$(or $(PROFILE),cpu) $(if $(EVALM),--evalm $(EVALM))

wandb-report: setup ## W&B report of a paper's runs (outline offline, published online): make wandb-report PAPER=peters2019 PROFILE=cpu [ENTITY=… PROJECT=…]
	$(PY) -m sparselab.reports.wandb_report $(or $(PAPER),$(error PAPER=martins2016|peters2019|correia2019 is required)) --profile $(or $(PROFILE),cpu) $(if $(ENTITY),--entity $(ENTITY)) $(if $(PROJECT),--project $(PROJECT))

data: setup ## fetch what a profile reads ahead of time (a cluster's login node): make data PROFILE=cpu|paper (default cpu; smoke reads the shipped excerpts)
	$(PY) -m sparselab.data fetch --profile $(or $(PROFILE),cpu)

data-check: setup ## verify the datasets a profile reads against their checksums: make data-check PROFILE=smoke|cpu|paper (default cpu)
	$(PY) -m sparselab.data check --profile $(or $(PROFILE),cpu)

clean: ## remove run directories and caches (keeps .venv and reports/)
	rm -rf runs multirun outputs wandb .pytest_cache
