"""Cost that grows with the work: threshold_table and expected_cost_by_threshold with
every distinct score as a threshold, as roc_curve uses them, in memory O(n + t), not O(n · t).

Memory is measured with tracemalloc (numpy reports its buffers to it), not time, so the test
does not flake on a busy machine; the timings against roc_curve are in `make bench`."""

import tracemalloc

import numpy as np
import pytest
from sklearn.metrics import roc_curve

from beyond_accuracy.metrics import expected_cost_by_threshold, threshold_table

N = 20_000  # the thresholds × rows matrix of the old implementation: 400 MB per boolean array


def _data(n=N, seed=0):
    rng = np.random.default_rng(seed)
    p = rng.uniform(size=n)
    return (rng.uniform(size=n) < p).astype(int), p


def _peak_mb(func):
    tracemalloc.start()
    try:
        func()
        return tracemalloc.get_traced_memory()[1] / 1e6
    finally:
        tracemalloc.stop()


@pytest.mark.parametrize(
    "build",
    [
        lambda y, p: threshold_table(y, p, np.unique(p)),
        lambda y, p: expected_cost_by_threshold(y, p, np.unique(p), c_fp=1, c_fn=10),
    ],
    ids=["threshold_table", "expected_cost_by_threshold"],
)
def test_memory_is_linear_in_rows_and_thresholds(build):
    y, p = _data()
    peak = _peak_mb(lambda: build(y, p))
    input_mb = (y.nbytes + p.nbytes) / 1e6
    # a table of t = n rows and a dozen columns is ~2 MB; a thresholds x rows matrix would be 400 MB
    assert peak < 10 + 20 * input_mb, f"peak {peak:.0f} MB for {N} rows"


def test_every_distinct_score_agrees_with_roc_curve():
    y, p = _data(5_000, seed=1)
    fpr, tpr, thresholds = roc_curve(y, p, drop_intermediate=False)
    table = threshold_table(y, p, thresholds[1:])  # roc_curve's first threshold is +inf
    np.testing.assert_allclose(table["recall"], tpr[1:])
    np.testing.assert_allclose(1 - table["specificity"], fpr[1:])
