"""Tests that compare with the papers' published numbers need ``../shared/reference/papers.yaml`` (CI has it; a bare
clone does not): they skip with this one-line reason elsewhere."""
import pytest

from sparselab.reports.reference import REFERENCE

needs_reference = pytest.mark.skipif(not REFERENCE.exists(),
                                     reason=f"{REFERENCE} absent: the papers' numbers are not shipped")
