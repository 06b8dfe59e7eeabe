"""Benchmarks: prints figures, asserts nothing (timed assertions flake on shared machines).

- execution time of every notebook (one at a time, fresh kernel, nothing written),
- build time of the whole site: cold (empty build folder) and warm (a rebuild with no change),
- the ratio of the cold build time to the sum of the notebook execution times: the book renders
  stored outputs, so this ratio says what the build costs beyond executing the notebooks once,
- helper package: reliability_table vs scikit-learn's calibration_curve on 10^6 predictions, and
  per_example_log_loss vs calling log_loss once per example on 10^5 examples.

    python -m tools.bench
"""

from __future__ import annotations

import sys
import tempfile
import time
from pathlib import Path

from .build import build
from .notebooks import execute
from .project import ROOT, notebook_sources


def timed(func, *args, **kwargs) -> float:
    start = time.perf_counter()
    result = func(*args, **kwargs)
    if result not in (None, 0) and not isinstance(result, tuple):
        raise SystemExit(f"{func.__name__} failed")
    return time.perf_counter() - start


def best_of(func, repeat=5) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        func()
        times.append(time.perf_counter() - start)
    return min(times)


def package_benchmarks() -> None:
    import numpy as np
    from sklearn.calibration import calibration_curve
    from sklearn.metrics import log_loss

    from beyond_accuracy.metrics import per_example_log_loss, reliability_table

    rng = np.random.default_rng(0)
    p = rng.uniform(size=1_000_000)
    y = (rng.uniform(size=p.size) < p).astype(int)
    ours = best_of(lambda: reliability_table(y, p, n_bins=10))
    theirs = best_of(lambda: calibration_curve(y, p, n_bins=10))
    print("reliability_table vs calibration_curve, 10^6 predictions, 10 bins (best of 5):")
    print(f"  {ours * 1e3:8.1f} ms  reliability_table (with Wilson intervals and counts)")
    print(f"  {theirs * 1e3:8.1f} ms  calibration_curve")
    print(f"  ratio reliability_table / calibration_curve: {ours / theirs:.2f} (<= 1 means no slower)")

    n, k = 100_000, 10
    proba = rng.dirichlet(np.ones(k), size=n)
    labels = rng.integers(0, k, size=n)
    vectorised = best_of(lambda: per_example_log_loss(labels, proba, labels=np.arange(k)))
    start = time.perf_counter()
    looped = [log_loss(labels[i : i + 1], proba[i : i + 1], labels=np.arange(k)) for i in range(n)]
    loop_time = time.perf_counter() - start
    assert np.allclose(looped, per_example_log_loss(labels, proba, labels=np.arange(k)))
    print("per_example_log_loss vs log_loss called once per example, 10^5 examples, 10 classes:")
    print(f"  {vectorised * 1e3:8.1f} ms  per_example_log_loss (best of 5)")
    print(f"  {loop_time * 1e3:8.1f} ms  a Python loop over log_loss (one run)")
    print(f"  speed-up: {loop_time / vectorised:,.0f}x")


def main() -> int:
    package_benchmarks()
    print("notebook execution (fresh kernel each):")
    total = 0.0
    for path in notebook_sources():
        _, seconds = execute(path, write=False)
        total += seconds
        print(f"  {seconds:7.2f} s  {path.relative_to(ROOT)}")
    print(f"  {total:7.2f} s  total")
    with tempfile.TemporaryDirectory() as tmp:
        cold = timed(build, root=Path(tmp))
        warm = timed(build, root=Path(tmp))
    print("site build, all languages, 2 jobs:")
    print(f"  {cold:7.2f} s  cold (empty build folder)")
    print(f"  {warm:7.2f} s  warm (rebuild, nothing changed)")
    print(f"ratio cold build / notebook execution: {cold / total:.2f}")
    print(f"ratio warm build / cold build:         {warm / cold:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
