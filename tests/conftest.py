import os

# Tests must not touch the network or a user's W&B account.
os.environ.setdefault("WANDB_MODE", "offline")
os.environ.setdefault("WANDB_SILENT", "true")
os.environ.setdefault("HF_DATASETS_OFFLINE", "1")
os.environ.setdefault("HF_HUB_OFFLINE", "1")
# triton.jit reads TRITON_INTERPRET when it decorates a kernel: set it before any test file (in any xdist worker)
# imports sparselab.kernels, so that on a machine without CUDA the kernels always run in Triton's interpreter.
if not os.path.exists("/dev/nvidia0"):
    os.environ.setdefault("TRITON_INTERPRET", "1")
# Inductor on a 2-core CI machine with 3 workers: its pool of compile workers (one per core) costs each process
# that compiles about 7.6 CPU-s of worker start-up on a cold cache (22.0 against 29.6 CPU-s for one entmax15
# forward and backward); it does not change the generated code. Set before torch is imported; subprocesses inherit
# it. Inductor's precompiled header stays on (its default): on a 2-core AVX-512 EPYC it made a process's forward and
# backward compile cost 2.6 instead of 6.4 CPU-s of g++, and test_mappings_compiled.py 135 instead of 176 CPU-s
# with the header built cold (155 MB under /tmp/torchinductor_$USER, once per machine).
os.environ.setdefault("TORCHINDUCTOR_COMPILE_THREADS", "1")
# Inductor takes the vector ISAs this CPU reports (/proc/cpuinfo) without first compiling a probe program for each
# into every fresh cache folder (3 g++ builds of ATen's vector headers: 6.5 of 15.3 CPU-s of a cold one-kernel
# compile); the kernels it generates are the same bytes (compared on this machine).
os.environ.setdefault("TORCHINDUCTOR_VEC_ISA_OK", "1")
# One CPU thread per worker (and per subprocess, which inherit it; a job sets its own from `threads`): 3 workers with
# torch's default of a thread per core oversubscribe 2 cores, and the OpenMP pools' spin-waiting doubled the CPU time
# (tests/mappings/test_mappings_oracle.py, tests/models, decoding and analysis: 67 CPU-s against 31 with 1 thread).
os.environ.setdefault("OMP_NUM_THREADS", "1")
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("MKL_NUM_THREADS", "1")

import pytest
import torch

# Tests of mappings, models and decoding take the `device` fixture: they run on the CPU always and
# on CUDA too when a GPU is present, so a GPU machine's `make test` exercises the `paper` profile's path.
DEVICES = ["cpu"] + (["cuda"] if torch.cuda.is_available() else [])


@pytest.fixture(params=DEVICES)
def device(request) -> torch.device:
    return torch.device(request.param)


# The files that take longest, longest first (their CPU seconds in a full run with a cold torch.compile cache, as on
# a fresh CI machine, with 3 workers on 2 cores; tests/e2e files that wait on their subprocesses placed by their
# wall time). `make test` runs them before all others (--dist loadfile --no-loadscope-reorder), so that no long
# file starts last and leaves a core idle at the end; the rest keep their collection order.
LONGEST_FIRST = ("test_mappings_fullgraph.py", "test_ddp.py", "test_mappings_compiled.py", "test_resume.py",
                 "test_peters2019_pipeline.py", "test_correia2019_pipeline.py", "test_martins2016_pipeline.py",
                 "test_trust.py", "test_reports_correia2019.py", "test_wandb_panels.py",
                 "test_committed_peters2019_cpu.py", "test_job_ids.py", "test_pipeline_slurm.py", "test_terminal_job.py",
                 "test_kernels_entmax_blocked.py", "test_user_install.py", "test_committed_correia2019_cpu.py",
                 "test_docs.py", "test_errors.py", "test_compile_cache.py", "test_restore.py",
                 "test_mappings_support_size.py", "test_tensorboard.py", "test_data_excerpts.py", "test_configs.py",
                 "test_reports_golden.py", "test_reports_common.py", "test_sigterm.py", "test_mt_translation.py",
                 "test_mappings_reference_failures.py", "test_committed_reports.py", "test_profile_overlays.py",
                 "test_benchmark_order.py", "test_compile_counts.py", "test_kernels_transformer.py",
                 "test_snli_task.py", "test_wandb_media.py", "test_engine.py")


def pytest_collection_modifyitems(items):
    rank = {name: i for i, name in enumerate(LONGEST_FIRST)}
    items.sort(key=lambda item: rank.get(item.path.name, len(rank)))   # stable: the others keep their order
