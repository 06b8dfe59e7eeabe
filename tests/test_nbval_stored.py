"""`make notebooks` on an unchanged tree changes no committed file: under nbval, each notebook's
re-execution is written as tools.book.notebooks writes it and compared byte for byte with the
committed .ipynb (tests/nbval_stored.py). Here: the rewriting reproduces a committed notebook
from its own outputs, a planted difference is named, (slow) nbval fails the notebook's last
cell on a stale image while passing an unchanged notebook, and (slow) `make notebooks`' own
execution, on another machine's thread count, writes a chapter byte for byte as committed."""

from __future__ import annotations

import copy
import os
import shutil
import subprocess
import sys
from pathlib import Path

import nbformat
import pytest
from nbval_stored import difference, rewritten

from tools.project import ROOT

NOTEBOOK = ROOT / "chapters" / "fi" / "03-calibration.ipynb"


def outputs_of(path: Path) -> dict[int, list]:
    """The committed outputs of each code cell, as if a run had just given them."""
    nb = nbformat.read(path, as_version=4)
    return {i: copy.deepcopy(c.outputs) for i, c in enumerate(c for c in nb.cells if c.cell_type == "code")}


def test_a_run_that_gives_the_committed_outputs_writes_the_committed_file():
    outputs = outputs_of(NOTEBOOK)
    assert rewritten(NOTEBOOK, outputs) == NOTEBOOK.read_text(encoding="utf-8")
    assert difference(NOTEBOOK, outputs) is None


def test_a_raw_value_an_image_or_a_count_that_a_run_changes_is_named():
    outputs = outputs_of(NOTEBOOK)
    glued = next(
        (n, o) for n, outs in outputs.items() for o in outs if "beyond_accuracy" in o.get("metadata", {})
    )
    glued[1]["metadata"]["beyond_accuracy"]["raw"] += 1e-12  # a last-digit change nbval does not see
    problem = difference(NOTEBOOK, outputs, "chapters/fi/03-calibration.ipynb")
    assert problem.startswith("chapters/fi/03-calibration.ipynb: cell ") and "outputs" in problem

    outputs = outputs_of(NOTEBOOK)
    number, image = next(
        (n, o) for n, outs in outputs.items() for o in outs if "image/png" in o.get("data", {})
    )
    image["data"]["image/png"] = image["data"]["image/png"][:-8] + "AAAAAAA="
    assert "image/png" in difference(NOTEBOOK, outputs)

    outputs = outputs_of(NOTEBOOK)
    outputs[2] = [nbformat.v4.new_output("stream", name="stdout", text="a\n"), *outputs[2]]
    outputs[2].append(nbformat.v4.new_output("stream", name="stdout", text="b\n"))
    assert difference(NOTEBOOK, outputs)


def test_consecutive_pieces_of_a_stream_are_joined_as_make_notebooks_joins_them():
    outputs = outputs_of(NOTEBOOK)
    number, stream = next(
        (n, i) for n, outs in outputs.items() for i, o in enumerate(outs) if o.output_type == "stream"
    )
    text = outputs[number][stream]["text"]
    head, tail = text[: len(text) // 2], text[len(text) // 2 :]
    outputs[number][stream : stream + 1] = [
        nbformat.v4.new_output("stream", name="stdout", text=head),
        nbformat.v4.new_output("stream", name="stdout", text=tail),
    ]
    assert difference(NOTEBOOK, outputs) is None


CONFTEST = """
import importlib.util
import sys

sys.path[:0] = [{tests!r}, {root!r}]
spec = importlib.util.spec_from_file_location("course_tests_conftest", {conftest!r})
module = importlib.util.module_from_spec(spec)
spec.loader.exec_module(module)
globals().update({{k: v for k, v in vars(module).items() if k.startswith("pytest_")}})
"""

PROBE = """---
jupytext:
  text_representation:
    extension: .md
    format_name: myst
    format_version: 0.13
kernelspec:
  display_name: Python 3
  language: python
  name: python3
---

# Probe

```{code-cell} ipython3
LANG = "en"
```

```{code-cell} ipython3
import matplotlib
import matplotlib.pyplot as plt
from beyond_accuracy import glue

glue("third", 1 / 3)
print("a line")
fig, ax = plt.subplots(figsize=(2, 2))
_ = ax.plot([0, 1], [0, 1])
```
"""


@pytest.mark.slow  # executes a notebook, then runs nbval on it
def test_nbval_fails_a_notebook_that_make_notebooks_would_rewrite(tmp_path):
    from tools.book.notebooks import execute

    source = tmp_path / "labs" / "en" / "99-probe.md"
    source.parent.mkdir(parents=True)
    source.write_text(PROBE, encoding="utf-8")
    execute(source)
    conftest = CONFTEST.format(
        tests=str(ROOT / "tests"), root=str(ROOT), conftest=str(ROOT / "tests" / "conftest.py")
    )
    (tmp_path / "conftest.py").write_text(conftest, encoding="utf-8")
    shutil.copy2(ROOT / "tests" / "nbval_sanitize.cfg", tmp_path / "sanitize.cfg")

    def nbval():
        return subprocess.run(
            [sys.executable, "-m", "pytest", "-p", "no:xdist", "-p", "no:cacheprovider", "-q",
             "--nbval", "--nbval-current-env", "labs/en/99-probe.ipynb"],
            cwd=tmp_path, capture_output=True, text=True, timeout=300,
        )  # fmt: skip

    unchanged = nbval()
    assert unchanged.returncode == 0 and "2 passed" in unchanged.stdout, unchanged.stdout[-3000:]

    ipynb = source.with_suffix(".ipynb")
    nb = nbformat.read(ipynb, as_version=4)
    figure = next(o for o in nb.cells[-1].outputs if "image/png" in o.get("data", {}))
    figure["data"]["image/png"] = figure["data"]["image/png"].replace("A", "B", 1)  # a stale image
    nbformat.write(nb, ipynb)
    stale = nbval()
    assert stale.returncode == 1, stale.stdout[-3000:]
    assert "FAILED labs/en/99-probe.ipynb::Cell 1" in stale.stdout
    assert "image/png" in stale.stdout and "make notebook NB=labs/en/99-probe.md" in stale.stdout


# Chapter 1: two PNG figures and 175 glued numbers, the cheapest notebook to execute (~20 CPU-s).
REPRESENTATIVE = ROOT / "chapters" / "en" / "01-confusion-matrix.md"


@pytest.mark.slow  # executes one chapter
def test_make_notebooks_with_two_blas_threads_rewrites_no_byte_of_an_unchanged_notebook(tmp_path):
    """nbval re-executes every notebook with one BLAS thread and checks the bytes (above); here the
    command that `make notebooks` runs (tools.book.notebooks.execute) re-executes a copy of a
    chapter with two BLAS/OpenMP threads, as another machine would, and the .ipynb it writes must be
    the committed one, byte for byte: glued raw values rounded, figures deterministic."""
    copy_md = tmp_path / "chapters" / "en" / REPRESENTATIVE.name
    copy_md.parent.mkdir(parents=True)
    shutil.copy2(REPRESENTATIVE, copy_md)
    committed = REPRESENTATIVE.with_suffix(".ipynb")
    env = {**os.environ, "OPENBLAS_NUM_THREADS": "2", "OMP_NUM_THREADS": "2", "MKL_NUM_THREADS": "2"}
    run = "import sys; from pathlib import Path; from tools.book.notebooks import execute; execute(Path(sys.argv[1]))"
    subprocess.run(
        [sys.executable, "-c", run, str(copy_md)], cwd=ROOT, env=env, check=True, timeout=900,
        capture_output=True,
    )  # fmt: skip
    fresh = copy_md.with_suffix(".ipynb")
    if fresh.read_bytes() != committed.read_bytes():
        name = committed.relative_to(ROOT).as_posix()
        problem = difference(committed, outputs_of(fresh), name) or f"{name}: differs from a fresh run"
        pytest.fail(f"{problem} (two BLAS threads): run `make notebook NB={name[:-6]}.md` and commit it")
