"""The kernel the languages of a notebook share under nbval (tests/nbval_kernels.py): which
notebooks share one, in which order, and that a language in a shared kernel starts as in a fresh
one, with a planted fault for each part of the reset."""

from __future__ import annotations

import subprocess
import sys
from collections import Counter
from pathlib import Path

import nbformat
import pytest
from nbval_kernels import family, language_rank

from tools.project import ROOT, languages

LANGS = languages()


def test_a_notebooks_languages_are_one_family_and_nothing_else_is():
    assert family("labs/it/03-trust-lab.ipynb::Cell 4") == "labs/*/03-trust-lab.ipynb"
    assert family("chapters/fi/01-confusion-matrix.ipynb") == "chapters/*/01-confusion-matrix.ipynb"
    assert family("chapters/en/01-confusion-matrix.ipynb") == family("chapters/pt/01-confusion-matrix.ipynb")
    assert family("labs/en/01-screening-lab.ipynb") != family("chapters/en/01-confusion-matrix.ipynb")
    for other in (
        "tests/test_metrics.py::test_x",
        "chapters/xx/01-confusion-matrix.ipynb::Cell 0",  # not a course language
        "chapters/en/figures/x.ipynb::Cell 0",
        "docs/en/01-confusion-matrix.ipynb::Cell 0",
        "chapters/en/01-confusion-matrix.md",
    ):
        assert family(other) is None, other


def test_each_language_runs_first_in_a_fresh_kernel_in_turn():
    notebooks = sorted(str(p.relative_to(ROOT)) for p in ROOT.glob("*/*/*.ipynb"))
    families = sorted({family(n) for n in notebooks})
    assert len(families) == 10
    first = Counter()
    for name in families:
        members = [n for n in notebooks if family(n) == name]
        ranks = sorted(language_rank(n, families) for n in members)
        assert ranks == list(range(len(LANGS))), name
        first[next(n for n in members if language_rank(n, families) == 0).split("/")[1]] += 1
    assert first == dict.fromkeys(LANGS, len(families) // len(LANGS))


# Two languages of one notebook, each of whose code cells prints what a fresh kernel started in
# its folder shows: no name left by a run before, the notebook's folder, no open figure.
CELLS = [
    'LANG = "{lang}"',
    'print("x" in dir(), "plt" in dir())',
    "import os\nprint(os.path.basename(os.getcwd()))",
    "import matplotlib\nmatplotlib.use('agg')\nimport matplotlib.pyplot as plt\nprint(len(plt.get_fignums()))",
    "x = 1\nfig = plt.figure()",
]
STORED = ["", "False False\n", "{lang}\n", "0\n", ""]

CONFTEST = """
import sys
sys.path[:0] = [{tests!r}, {root!r}]
import nbval_kernels

FAULT = {fault!r}
if FAULT:
    lines = nbval_kernels.RESET.splitlines()
    nbval_kernels.RESET = "\\n".join(line for line in lines if FAULT not in line) or "pass"


def pytest_configure(config):
    nbval_kernels.install()


def pytest_collection_modifyitems(items):
    items.sort(key=lambda item: item.nodeid.split("/")[1] != "en")  # en first, then it


def pytest_sessionfinish(session):
    print("KERNELS", *nbval_kernels.counts())
    nbval_kernels.stop_shared_kernel()
"""


def _notebook(lang: str):
    nb = nbformat.v4.new_notebook()
    for count, (source, text) in enumerate(zip(CELLS, STORED), start=1):
        cell = nbformat.v4.new_code_cell(source.format(lang=lang), execution_count=count)
        if text:
            cell.outputs = [nbformat.v4.new_output("stream", name="stdout", text=text.format(lang=lang))]
        nb.cells.append(cell)
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    return nb


def _run(tmp_path: Path, fault: str = "") -> subprocess.CompletedProcess:
    for lang in ("en", "it"):
        (tmp_path / "labs" / lang).mkdir(parents=True)
        nbformat.write(_notebook(lang), tmp_path / "labs" / lang / "99-probe.ipynb")
    (tmp_path / "conftest.py").write_text(
        CONFTEST.format(tests=str(ROOT / "tests"), root=str(ROOT), fault=fault), encoding="utf-8"
    )
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:xdist", "-p", "no:cacheprovider", "-s", "-q",
         "--nbval", "--nbval-current-env", "labs"],
        cwd=tmp_path, capture_output=True, text=True, timeout=300,
    )  # fmt: skip


@pytest.mark.slow  # runs nbval on notebooks
def test_the_second_language_runs_in_the_shared_kernel_as_in_a_fresh_one(tmp_path):
    run = _run(tmp_path)
    assert run.returncode == 0, run.stdout[-3000:]
    assert "KERNELS 1 1" in run.stdout, "the second language did not run in the first one's kernel"
    assert "10 passed" in run.stdout


@pytest.mark.slow  # runs nbval on notebooks
@pytest.mark.parametrize(
    ("fault", "cell"),
    [("%reset", "Cell 1"), ("chdir", "Cell 2"), ('close("all")', "Cell 3")],
    ids=["names-kept", "folder-kept", "figures-kept"],
)
def test_a_reset_without_one_of_its_steps_fails_the_second_language(tmp_path, fault, cell):
    run = _run(tmp_path, fault)
    assert run.returncode == 1, run.stdout[-3000:]
    assert f"FAILED labs/it/99-probe.ipynb::{cell}" in run.stdout, run.stdout[-3000:]
    assert run.stdout.count("FAILED") == 1, run.stdout[-3000:]
