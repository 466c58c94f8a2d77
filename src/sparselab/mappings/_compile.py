"""When and how the fused kernels (`_fused.py`) run under torch.compile.

Switches (read at import; tests and the benchmark may set the attributes):
* ``SPARSELAB_COMPILE=0`` disables compilation everywhere (pure eager, exact
  sort-based / Newton solvers).  Default ``1``.
* ``SPARSELAB_COMPILE_BACKEND`` (default ``inductor``): the torch.compile backend; ``aot_eager`` traces the same
  graphs (Dynamo and AOTAutograd, the same guards and recompiles) without generating C++, for debugging.
* ``SPARSELAB_COMPILE_MIN_NUMEL`` (default 32768): smaller inputs run eager;
  compiling pays off only when a call moves real data, and small calls would
  otherwise trigger a compile per shape.
Compiled kernels are used for float32 (and float16/bfloat16, computed in
float32) tensors, outside an enclosing torch.compile trace (there our eager,
graph-break-free code is traced instead).  The first call per kernel and shape
family compiles C++ (tens of seconds on 2 cores); inductor's FX-graph cache
(default on, under /tmp/torchinductor_$USER) makes later processes fast.
If compilation fails (no C++ compiler, ...), we warn once and stay eager; a cached kernel that does not
load (a 0-byte ``.so`` after a Ctrl-C) is deleted and rebuilt first (:func:`run`).
"""
from __future__ import annotations

import os
import re
import warnings

import torch

ENABLED: bool = os.environ.get("SPARSELAB_COMPILE", "1").strip().lower() not in ("0", "false", "no", "off")
MIN_NUMEL: int = int(os.environ.get("SPARSELAB_COMPILE_MIN_NUMEL", "32768"))
BACKEND: str = os.environ.get("SPARSELAB_COMPILE_BACKEND", "inductor").strip() or "inductor"

_compiled: dict = {}
_failed: bool = False


def use_compiled(x: torch.Tensor) -> bool:
    return (
        ENABLED
        and not _failed
        and x.dtype == torch.float32
        and x.numel() >= MIN_NUMEL
        and not torch.compiler.is_compiling()
    )


# Our kernels see a few variants each (float/tensor alpha, shape families);
# the default limit of 8 graphs per function is raised for our calls only.
_RECOMPILE_LIMIT = 64

# A float argument (a fixed alpha's eps) is a constant of its graph: one graph
# per alpha value, with eps folded in.  torch >= 2.6 defaults to
# specialize_float=False: the second alpha recompiles the kernel with eps as a
# symbolic float, that graph is then tried first for every alpha, and the
# fixed-alpha backward ran 8-9x slower (measured;
# benchmarks/probes/bench_alpha_recompile.py).  A sweep sees a handful of alphas, well
# under _RECOMPILE_LIMIT; a learned alpha is a tensor and does not recompile.
SPECIALIZE_FLOAT: bool = True

# Mark the per-batch sizes of the kernels' rows dynamic before the first compile (see rows2d).
MARK_DYNAMIC: bool = True


def rows2d(t: torch.Tensor) -> torch.Tensor:
    """(..., n) -> (R, n): kernels always see 2-D contiguous rows, so a new batch shape is
    a new size, not a new rank or stride (a new graph).

    The sizes that change from batch to batch are marked dynamic before the first call: the row count
    R always (batch x heads x queries, or tokens; marked by :func:`run` on every tensor argument), and the row
    length n of attention scores (a >= 4-D input,
    (B, H, Lq, Lk): n is the key length). Left to torch.compile's automatic dynamic shapes, every kernel compiled
    twice: a static graph for the first batch, a dynamic one at the second shape. The step-0 head statistics of
    a Correia job then compiled the attention kernel twice before training, and each of the first training steps
    compiled its backward and loss kernels twice (8 graphs on CPU, 4 now: tests/tasks/test_compile_counts.py). A
    vocabulary's row length (a 2-D or 3-D loss input) stays static: it never changes within a job."""
    rows = t.reshape(-1, t.shape[-1]).contiguous()
    if MARK_DYNAMIC and t.dim() >= 4 and not torch.compiler.is_compiling():
        torch._dynamo.maybe_mark_dynamic(rows, 1)      # the rows (dim 0) are marked by run()
    return rows


def _detached(a: torch.Tensor) -> torch.Tensor:
    """``a.detach()`` with rows2d's dynamic-size marks (an attribute of the tensor object) carried over."""
    d = a.detach()
    for i in getattr(a, "_dynamo_weak_dynamic_indices", ()):
        torch._dynamo.maybe_mark_dynamic(d, i)
    return d


def run(fn, *args):
    """``torch.compile(fn)(*args)``, or None if compilation is unavailable.

    A cached kernel that fails to load (a 0-byte ``.so`` left by a Ctrl-C during a first compile: "file too
    short") is deleted and the call retried once, which rebuilds it; only then do we warn and stay eager."""
    global _failed
    c = _compiled.get((fn, BACKEND))
    if c is None:
        c = _compiled[(fn, BACKEND)] = torch.compile(fn, dynamic=None, backend=BACKEND)
    if not torch.is_grad_enabled():
        # inside our autograd Functions: without this, an input that requires grad (training) and one that does
        # not (validation) compile two graphs of the same kernel
        args = tuple(_detached(a) if isinstance(a, torch.Tensor) else a for a in args)
    if MARK_DYNAMIC:
        # every kernel's tensors are rows first (scores, targets, per-row thresholds): their count changes per batch
        for a in args:
            if isinstance(a, torch.Tensor) and a.dim() >= 1:
                torch._dynamo.maybe_mark_dynamic(a, 0)
    removed: list[str] = []
    while True:
        try:
            with torch._dynamo.config.patch(recompile_limit=_RECOMPILE_LIMIT, specialize_float=SPECIALIZE_FLOAT):
                return c(*args)
        except Exception as e:  # pragma: no cover - depends on the toolchain
            broken = broken_cache_file(e)
            if broken and broken not in removed:
                warnings.warn(f"sparselab.mappings: the cached kernel {broken} does not load ({_first_line(e)}); "
                              "deleting it and compiling again", RuntimeWarning, stacklevel=3)
                os.remove(broken)
                removed.append(broken)
                continue
            _failed = True
            hint = f" (delete {broken}, or the folder {_cache_dir()})" if broken else ""
            warnings.warn(f"sparselab.mappings: torch.compile failed ({type(e).__name__}: {e}){hint}; "
                          "falling back to eager kernels", RuntimeWarning, stacklevel=3)
            return None


def _cache_dir() -> str:
    from torch._inductor.runtime.cache_dir_utils import cache_dir

    return cache_dir()


def _first_line(e: BaseException) -> str:
    return next((line for line in str(e).splitlines() if "file too short" in line or ".so" in line), str(e))[:200]


def broken_cache_file(e: BaseException) -> str | None:
    """The compiled-kernel file under inductor's cache that ``e`` (or an exception it wraps) failed to load."""
    root = os.path.realpath(_cache_dir())
    seen: list[BaseException] = []
    while e is not None and e not in seen:
        seen.append(e)
        if isinstance(e, (ImportError, OSError)) or "BackendCompilerFailed" in type(e).__name__:
            for path in re.findall(r"(/[^\s:'\"]+\.so)\b", str(e)):
                if os.path.realpath(path).startswith(root + os.sep) and os.path.isfile(path):
                    return path
        e = e.__cause__ or e.__context__
    return None


def fix_rows(p: torch.Tensor, z: torch.Tensor, bad: torch.Tensor, exact) -> torch.Tensor:
    """Overwrite the rows flagged ``bad`` (shape (..., 1)) with ``exact(z_rows)``."""
    rows = bad.reshape(-1).nonzero().squeeze(1)
    if rows.numel():
        n = z.shape[-1]
        pf = p.view(-1, n)
        pf[rows] = exact(z.reshape(-1, n)[rows])
    return p


def run_rows(fn, z: torch.Tensor, *args):
    """Run a forward kernel on 2-D rows of ``z`` and give every output back the
    leading shape of ``z`` (full-size outputs) or of its rows (per-row outputs)."""
    out = run(fn, rows2d(z), *args)
    if out is None:
        return None
    lead = z.shape[:-1]
    return tuple(o if o is None else o.reshape(lead + (o.shape[-1],)) for o in out)
