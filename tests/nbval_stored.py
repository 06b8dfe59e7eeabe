"""The committed notebooks are what `make notebooks` writes, byte for byte.

nbval executes every chapter and lab again and compares the text of each output with the stored
one; it does not compare images, metadata (the raw values that glue stores) or execution counts. So
here, after the last cell of a notebook has run and passed, the notebook that
tools.book.notebooks would write from this run (`execute`: the .md's cells with these outputs,
consecutive streams merged, stable cell ids, the same metadata) is compared byte for byte with the
committed .ipynb. A stale image, a raw value that differs in its last digits or anything else that
`make notebooks` would rewrite on an unchanged tree fails that cell, naming the one command that
rewrites the notebook. This costs no execution: the outputs are nbval's own.

The outputs are taken as the kernel sent them, before nbval merges the streams of a cell for its
comparison (:func:`install` records them), since `make notebooks` merges only consecutive pieces.
"""

from __future__ import annotations

import copy
from pathlib import Path

import jupytext
import nbformat

from tools.book.notebooks import finish

_current: dict = {}  # the cell nbval is running: {"item": ..., "outputs": [...]}
_runs: dict[Path, dict] = {}  # notebook -> {"outputs": {cell_num: outputs}, "failed": bool}
_wanted: dict[Path, int] = {}  # notebook -> how many of its code cells this run executes


def install() -> None:
    """Record each cell's outputs as the kernel sent them (nbval merges a cell's streams next)."""
    import nbval.plugin

    original = nbval.plugin.coalesce_streams
    if getattr(original, "records_outputs", False):
        return

    def recording(outputs):
        item = _current.get("item")
        if item is not None and outputs is getattr(item, "test_outputs", None):
            _current["outputs"] = copy.deepcopy(list(outputs))
        return original(outputs)

    recording.records_outputs = True
    nbval.plugin.coalesce_streams = recording


def is_cell(item) -> bool:
    return type(item).__name__ == "IPyNbCell" and hasattr(item, "cell_num")


def collected(items) -> None:
    """Note how many cells of each notebook this run executes: the check needs them all."""
    _wanted.clear()
    for item in items:
        if is_cell(item):
            path = Path(item.path)
            _wanted[path] = _wanted.get(path, 0) + 1


def started(item) -> None:
    _current.clear()
    _current["item"] = item


def ran(item, passed: bool) -> None:
    """After a cell: keep its outputs; after the last cell of a notebook that ran whole and
    passed, compare what `make notebooks` would write with the committed file (AssertionError)."""
    path = Path(item.path)
    run = _runs.setdefault(path, {"outputs": {}, "failed": False})
    run["failed"] |= not passed or "outputs" not in _current
    run["outputs"][item.cell_num] = _current.get("outputs", [])
    _current.clear()
    code_cells = sum(c.cell_type == "code" for c in item.parent.nb.cells)
    if len(run["outputs"]) < code_cells or run["failed"] or _wanted.get(path) != code_cells:
        return
    del _runs[path]
    name = path.relative_to(item.config.rootpath).as_posix()
    problem = difference(path, run["outputs"], name)
    if problem:
        from nbval.plugin import NbCellError

        raise NbCellError(
            item.cell_num,
            f"{problem}: `make notebooks` would rewrite the committed notebook (nbval compares only "
            f"the text of the outputs); run `make notebook NB={name.removesuffix('.ipynb')}.md` and "
            "commit the result",
            f"(the whole notebook {name}, re-executed)",
        )


def rewritten(path: Path, outputs: dict[int, list]) -> str:
    """The .ipynb that tools.book.notebooks writes for ``path`` when its code cells give
    ``outputs`` (by code cell number) in a fresh kernel, counted 1, 2, 3... as they run."""
    nb = jupytext.read(path.with_suffix(".md"))
    for number, cell in enumerate((c for c in nb.cells if c.cell_type == "code"), start=1):
        cell.execution_count = number
        cell.outputs = [nbformat.from_dict(copy.deepcopy(out)) for out in outputs[number - 1]]
        for out in cell.outputs:
            if out.output_type == "execute_result":
                out.execution_count = number
    finish(nb)
    text = nbformat.writes(nb)
    return text if text.endswith("\n") else text + "\n"


def difference(path: Path, outputs: dict[int, list], name: str | None = None) -> str | None:
    """Where the notebook this run would write differs from the committed one, or None; ``name``
    is how the message names the notebook (default: its path)."""
    committed = path.read_text(encoding="utf-8")
    fresh = rewritten(path, outputs)
    if fresh == committed:
        return None
    a, b = nbformat.reads(committed, as_version=4), nbformat.reads(fresh, as_version=4)
    rel = name or str(path)
    for i, (old, new) in enumerate(zip(a.cells, b.cells)):
        if old != new:
            what = "outputs" if old.get("outputs") != new.get("outputs") else "cell"
            mimes = sorted(
                {
                    m
                    for o, n in zip(old.get("outputs", []), new.get("outputs", []))
                    if o != n
                    for m in n.get("data", {})
                }
            )
            return (
                f"{rel}: cell {i} ({what}{', ' + ', '.join(mimes) if mimes else ''}) differs from a fresh run"
            )
    return f"{rel}: the notebook (its metadata or its number of cells) differs from a fresh run"
