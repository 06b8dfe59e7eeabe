"""pytest configuration shared by the unit tests and nbval's notebook runs.

Notebooks are executed with one BLAS/OpenMP thread, here as in `make notebooks`
(tools/book/notebooks.py): with two pytest workers on two cores, more threads only compete, and the
same thread count everywhere keeps floating-point results, and so stored outputs, identical.
"""

import os

for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")
