"""sparselab: sparse probability mappings for torch (``sparselab.mappings``, ``sparselab.kernels``; torch alone)
and, with ``pip install "sparselab[experiments]"``, the experiment pipeline that reproduces their papers."""
from ._extras import install as _install_extras_finder

_install_extras_finder()
