"""Benchmarks: prints figures, asserts nothing (timed assertions flake on shared machines).

- execution time of every notebook (one at a time, fresh kernel, nothing written),
- build time of the whole site: cold (empty build folder) and warm (a rebuild with no change),
- the ratio of the cold build time to the sum of the notebook execution times: the book renders
  stored outputs, so this ratio says what the build costs beyond executing the notebooks once,
- helper package: reliability_table vs scikit-learn's calibration_curve on 10^6 predictions,
  per_example_log_loss vs calling log_loss once per example on 10^5 examples, and
  threshold_table vs roc_curve on 10^6 rows with every distinct score as a threshold (time and
  peak memory, as ratios),
- the figure renderer: every figure script in every language (tools.book.figures),
- the whole test suite (`make test`): its wall time and the CPU seconds of all its processes,
- grading (`make grade`) of a class of 30 submissions of lab 2 made by
  tools/teaching/grading/trial.py: wall time and CPU seconds per submission, as ratios to running
  the lab once (a student's notebook, fresh kernel, as "Run all" does; timed before and after),
- page weight: the bytes and requests of every chapter and lab page of every language and of the
  reader's review's seven page types, as headless Chromium fetches them from the built site
  (tools/maintenance/weight.py; _build/site, built first if missing), and the heaviest page.

    python -m tools.maintenance.bench                          # everything
    python -m tools.maintenance.bench --parts package,figures  # a selection: package figures notebooks build tests grading weight
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path

from tools.book.build import build
from tools.book.notebooks import execute
from tools.project import ROOT, notebook_sources


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


def peak_memory(func) -> float:
    """Peak bytes allocated while ``func`` runs (tracemalloc; numpy reports its buffers to it)."""
    tracemalloc.start()
    try:
        func()
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def scaling_benchmark(n: int = 1_000_000) -> None:
    import numpy as np
    from sklearn.metrics import roc_curve

    from beyond_accuracy.metrics import threshold_table

    rng = np.random.default_rng(0)
    p = rng.uniform(size=n)
    y = (rng.uniform(size=n) < p).astype(int)
    thresholds = np.unique(p)  # every distinct score, as roc_curve(drop_intermediate=False) uses
    ours = best_of(lambda: threshold_table(y, p, thresholds), repeat=3)
    theirs = best_of(lambda: roc_curve(y, p, drop_intermediate=False), repeat=3)
    ours_mem = peak_memory(lambda: threshold_table(y, p, thresholds))
    theirs_mem = peak_memory(lambda: roc_curve(y, p, drop_intermediate=False))
    input_mem = y.nbytes + p.nbytes + thresholds.nbytes
    output_mem = threshold_table(y, p, thresholds).memory_usage(index=False).sum()
    print(f"threshold_table vs roc_curve, {n:,} rows, {len(thresholds):,} thresholds (best of 3):")
    print(f"  {ours * 1e3:8.1f} ms  {ours_mem / 1e6:7.1f} MB peak  threshold_table (9 columns)")
    print(f"  {theirs * 1e3:8.1f} ms  {theirs_mem / 1e6:7.1f} MB peak  roc_curve(drop_intermediate=False)")
    print(f"  ratio of time threshold_table / roc_curve:        {ours / theirs:.2f} (goal <= 2)")
    print(f"  ratio of peak memory threshold_table / roc_curve: {ours_mem / theirs_mem:.2f}")
    print(
        f"  ratio of peak memory threshold_table / input:     {ours_mem / input_mem:.2f} "
        f"(input y, scores, thresholds: {input_mem / 1e6:.1f} MB)"
    )
    print(
        f"  ratio of working memory (peak - the table returned, {output_mem / 1e6:.0f} MB) / input: "
        f"{(ours_mem - output_mem) / input_mem:.2f} (goal <= 2)"
    )


def figure_benchmark() -> None:
    from tools.book.figures import render_all, scripts
    from tools.project import languages

    with tempfile.TemporaryDirectory() as tmp:
        start = time.perf_counter()
        written = render_all(out=Path(tmp))
        seconds = time.perf_counter() - start
    print(
        f"figure renderer, {len(scripts())} scripts x {len(languages())} languages = {len(written)} SVG files:"
    )
    print(f"  {seconds:7.2f} s  tools.book.figures (all figures, all languages)")
    print(f"  {seconds / len(written) * 1e3:7.0f} ms per file")


def test_suite_benchmark(jobs: int = 2) -> None:
    """`make test` (lint, then every test) as CI runs it: its wall time, and the CPU seconds of the
    whole process tree (pytest's workers, the notebook kernels, the site builds), which do not
    depend on what else the machine runs; on ``jobs`` idle cores the wall time is at least their
    share."""
    import resource

    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(
        ["make", "test", f"JOBS={jobs}"], cwd=ROOT, capture_output=True, text=True, env=os.environ.copy()
    )
    seconds = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    summary = (done.stdout.strip().splitlines() or ["(no output)"])[-1]
    print(f"whole test suite (make test, {jobs} jobs):")
    print(f"  {seconds:7.1f} s  wall  {summary}")
    print(f"  {cpu:7.1f} s  CPU (user + system, every process of the run); / {jobs} = {cpu / jobs:.1f} s")


def _cpu_of_children() -> float:
    import resource

    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def _run_lab_once(notebook: Path) -> tuple[float, float]:
    """Wall and CPU seconds of one notebook run as a student runs it (fresh kernel, empty folder)."""
    import nbformat
    from nbclient import NotebookClient

    nb = nbformat.read(notebook, as_version=4)
    with tempfile.TemporaryDirectory() as folder:
        cpu, start = _cpu_of_children(), time.perf_counter()
        NotebookClient(
            nb, timeout=1800, kernel_name="python3", resources={"metadata": {"path": folder}}
        ).execute()
        return time.perf_counter() - start, _cpu_of_children() - cpu


def grading_benchmark(lab: int = 2, lang: str = "it", n: int = 30, jobs: int = 2) -> None:
    """`make grade` on a class of ``n`` submissions, against running the lab once. The wall time
    per submission is the grading's wall time times ``jobs`` over ``n`` (what one submission
    occupies a worker); the CPU seconds (every process: grader, sandboxes, kernels) do not depend
    on the machine's load and include the answer key's one run."""
    from tools.teaching.grading import trial

    with tempfile.TemporaryDirectory() as tmp:
        trial.write(trial.class_of(lab, lang, n), Path(tmp), lab, lang, system_files=False)
        student = Path(tmp) / "submissions" / "student_01.ipynb"
        load = os.getloadavg()[0]
        first = _run_lab_once(student)
        start = time.perf_counter()
        done = subprocess.run(
            [
                sys.executable,
                "-m",
                "tools.teaching.grading",
                f"--lab={lab}",
                f"--lang={lang}",
                f"--submissions={Path(tmp) / 'submissions'}",
                f"--out={Path(tmp) / 'out'}",
                f"--jobs={jobs}",
            ],
            cwd=ROOT,
            capture_output=True,
            text=True,
        )
        wall = time.perf_counter() - start
        if done.returncode:
            raise SystemExit(f"make grade failed: {done.stderr[-2000:]}")
        # the kernels' CPU as the grader measured it (killed sandboxes are not reaped by us)
        timing = json.loads((Path(tmp) / "out" / "timing.json").read_text(encoding="utf-8"))
        cpu = timing["kernels_cpu"] + timing["answer_key"]["cpu"] + timing["grader_cpu"]
        second = _run_lab_once(student)
        load = (load + os.getloadavg()[0]) / 2
    lab_wall, lab_cpu = (first[0] + second[0]) / 2, (first[1] + second[1]) / 2
    per_wall, per_cpu = wall * jobs / n, cpu / n
    print(f"grading, lab {lab} ({lang}), {n} submissions, {jobs} at a time (load average {load:.1f}):")
    print(
        f"  {lab_wall:7.1f} s wall  {lab_cpu:6.1f} s CPU  the lab run once (mean of a run before and after)"
    )
    print(
        f"  {wall:7.1f} s wall  {cpu:6.1f} s CPU  make grade, the whole class (the answer key's run included)"
    )
    print(f"  {per_wall:7.1f} s wall  {per_cpu:6.1f} s CPU  per submission (wall x {jobs} / {n}; CPU / {n})")
    print(
        f"  ratio per submission / lab once: wall {per_wall / lab_wall:.2f}, CPU {per_cpu / lab_cpu:.2f} (goal <= 1.5)"
    )


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


def weight_benchmark() -> None:
    """Page weight of the built reader's site (built first when there is none)."""
    from tools.maintenance.weight import PAGE_TYPES, chapter_and_lab_pages, report, weigh_site
    from tools.project import BUILD

    site = BUILD / "site"
    if not (site / "index.html").exists() and build() != 0:
        raise SystemExit("the site build failed")
    types = weigh_site(site, list(PAGE_TYPES.values()))
    print("page weight, the seven page types (bytes fetched, uncompressed, empty cache):")
    print(report(types, {v: k for k, v in PAGE_TYPES.items()}, top=0))
    pages = weigh_site(site, chapter_and_lab_pages(site))
    print(f"page weight, every chapter and lab page ({len(pages)}), heaviest first:")
    print(report(pages))


PARTS = ("package", "figures", "notebooks", "build", "tests", "grading", "weight")


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--parts", default=",".join(PARTS), help=f"comma-separated, of {', '.join(PARTS)}")
    args = parser.parse_args(argv)
    parts = [p.strip() for p in args.parts.split(",") if p.strip()]
    unknown = sorted(set(parts) - set(PARTS))
    if unknown:
        parser.error(f"unknown parts {unknown}; choose from {', '.join(PARTS)}")
    if "package" in parts:
        package_benchmarks()
        scaling_benchmark()
    if "figures" in parts:
        figure_benchmark()
    total = None
    if "notebooks" in parts:
        print("notebook execution (fresh kernel each):")
        total = 0.0
        for path in notebook_sources():
            _, seconds = execute(path, write=False)
            total += seconds
            print(f"  {seconds:7.2f} s  {path.relative_to(ROOT)}")
        print(f"  {total:7.2f} s  total")
    if "build" in parts:
        with tempfile.TemporaryDirectory() as tmp:
            cold = timed(build, root=Path(tmp))
            warm = timed(build, root=Path(tmp))
        print("site build, all languages, 2 jobs:")
        print(f"  {cold:7.2f} s  cold (empty build folder)")
        print(f"  {warm:7.2f} s  warm (rebuild, nothing changed)")
        if total:
            print(f"ratio cold build / notebook execution: {cold / total:.2f}")
        print(f"ratio warm build / cold build:         {warm / cold:.2f}")
    if "tests" in parts:
        test_suite_benchmark()
    if "grading" in parts:
        grading_benchmark()
    if "weight" in parts:
        weight_benchmark()
    return 0


if __name__ == "__main__":
    sys.exit(main())
