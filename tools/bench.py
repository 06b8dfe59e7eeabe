"""Benchmarks: prints figures, asserts nothing (timed assertions flake on shared machines).

- execution time of every notebook (one at a time, fresh kernel, nothing written),
- build time of the whole site: cold (empty build folder) and warm (a rebuild with no change),
- the ratio of the cold build time to the sum of the notebook execution times: the book renders
  stored outputs, so this ratio says what the build costs beyond executing the notebooks once.

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


def main() -> int:
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
