"""pytest configuration shared by the unit tests and nbval's notebook runs.

Notebooks are executed with one BLAS/OpenMP thread, here as in `make notebooks`
(tools/book/notebooks.py): with two pytest workers on two cores, more threads only compete, and the
same thread count everywhere keeps floating-point results, and so stored outputs, identical.
"""

import os

import pytest

for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_make_scheduler(config, log):
    """nbval runs a notebook's cells in order, in one kernel: with pytest-xdist's default
    ``--dist load`` (``pytest -n 2 --nbval chapters/*/02-imbalance.ipynb``) the cells of one notebook
    would be shared out between the workers, and each worker's later cells fail on the names that
    the other's cells define. With nbval, a notebook goes to one worker, as with ``--dist loadfile``
    (``make test``'s ``--dist loadscope`` has its own scheduler, in tests/conftest.py)."""
    nbval = config.getoption("nbval", False) or config.getoption("nbval_lax", False)
    if nbval and config.getoption("dist") in ("load", "worksteal"):
        from xdist.scheduler import LoadFileScheduling

        return LoadFileScheduling(config, log)
    return None
