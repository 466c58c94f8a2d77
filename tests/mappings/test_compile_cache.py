"""A broken compile-cache entry does not stick (issue 36): a 0-byte kernel ``.so`` in inductor's cache, as a Ctrl-C
during a first torch.compile leaves, is deleted and rebuilt by the next process instead of sending it to eager.

Two processes share a fresh cache folder: the first compiles a small kernel through ``_compile.run``, the test
truncates the cached ``.so`` files, the second must still run compiled and leave a rebuilt, non-empty file.
"""
from __future__ import annotations

import os
import subprocess
import sys

import pytest

from sparselab.mappings import _compile

pytestmark = [pytest.mark.slow, pytest.mark.skipif(not _compile.ENABLED, reason="SPARSELAB_COMPILE=0")]

KERNEL = """
import warnings, torch
from sparselab.mappings import _compile
warnings.simplefilter("always")
def kernel(x):
    return torch.relu(x) * 2 + 1
x = torch.randn(64, 16)
out = _compile.run(kernel, x)
print("compiled" if out is not None and torch.equal(out, torch.relu(x) * 2 + 1) else "eager")
"""


def compile_once(cache):
    env = {**os.environ, "TORCHINDUCTOR_CACHE_DIR": str(cache), "OMP_NUM_THREADS": "1"}
    return subprocess.run([sys.executable, "-c", KERNEL], capture_output=True, text=True, env=env, timeout=600)


def test_truncated_cached_kernel_is_rebuilt(tmp_path):
    first = compile_once(tmp_path)
    assert first.stdout.split() == ["compiled"], first.stderr[-2000:]
    loaded = sorted(tmp_path.rglob("*.main.so"))  # the kernel module a cache hit loads
    assert loaded, sorted(p.name for p in tmp_path.rglob("*.so"))
    for so in loaded:
        so.write_bytes(b"")  # what a Ctrl-C while it was being written leaves

    second = compile_once(tmp_path)
    assert second.stdout.split() == ["compiled"], second.stderr[-2000:]
    assert "file too short" in second.stderr and "deleting it and compiling again" in second.stderr
    assert "falling back to eager" not in second.stderr
    assert all(so.stat().st_size > 0 for so in loaded)


def test_broken_cache_file_is_named_from_the_error(tmp_path, monkeypatch):
    monkeypatch.setenv("TORCHINDUCTOR_CACHE_DIR", str(tmp_path))
    so = tmp_path / "io" / "cio.main.so"
    so.parent.mkdir()
    so.write_bytes(b"")
    wrapped = RuntimeError("backend='inductor' raised")
    wrapped.__cause__ = ImportError(f"{so}: file too short")
    assert _compile.broken_cache_file(wrapped) == str(so)
    assert _compile.broken_cache_file(ImportError("/elsewhere/x.so: file too short")) is None  # not ours to delete
