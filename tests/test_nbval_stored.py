"""`make notebooks` on an unchanged tree changes no committed file: under nbval, each notebook's
re-execution is written as tools.book.notebooks writes it and compared byte for byte with the
committed .ipynb (tests/nbval_stored.py). Here: the rewriting reproduces a committed notebook
from its own outputs, a planted difference is named, and (slow) nbval fails the notebook's last
cell on a stale image while passing an unchanged notebook."""

from __future__ import annotations

import copy
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
