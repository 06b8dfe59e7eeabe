"""Re-sync and re-execute every chapter and lab notebook.

The MyST Markdown file (.md) is the source. For each one this command
1. makes its first code cell the language cell derived from _config.yml (tools.project.first_cell),
2. executes it top to bottom in a fresh kernel (working directory: the notebook's folder),
3. writes the paired .ipynb with the outputs, which Colab opens, nbval re-checks and the book renders.

    python -m tools.book.notebooks                 # all notebooks, two at a time
    python -m tools.book.notebooks chapters/it/01-confusion-matrix.md ...
    python -m tools.book.notebooks --prose-only PATHS   # Markdown edits only: no execution
"""

from __future__ import annotations

import argparse
import os
import re
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import jupytext
import nbformat
from nbclient import NotebookClient

from tools.project import ROOT, first_cell, language_of, notebook_sources

TIMEOUT = 600

# One BLAS/OpenMP thread per kernel, as in the tests (conftest.py): two notebooks run at once on
# two cores, and the same setting everywhere keeps the stored outputs reproducible.
for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")


_FIRST_CELL = re.compile(r"(```\{code-cell\} ipython3\n(?::[^\n]*\n)*\n?)(.*?)(\n```\n)", re.S)


def sync_first_cell(path: Path) -> bool:
    """Make the first code cell of the .md (and of its paired .ipynb, whose first cell prints
    nothing) the language cell derived from _config.yml; True if anything was rewritten.

    The .md is edited as text, so the rest of the file keeps its exact formatting."""
    text = path.read_text(encoding="utf-8")
    match = _FIRST_CELL.search(text)
    if match is None:
        raise ValueError(f"{path}: a notebook needs the language cell as its first code cell")
    wanted = first_cell(language_of(path))
    changed = False
    if match.group(2) != wanted:
        text = text[: match.start(2)] + wanted + text[match.end(2) :]
        path.write_text(text, encoding="utf-8")
        changed = True
    paired = path.with_suffix(".ipynb")
    if paired.exists():
        nb = nbformat.read(paired, as_version=4)
        code = next(c for c in nb.cells if c.cell_type == "code")
        if code.source != wanted:
            code.source = wanted
            nbformat.write(nb, paired)
            changed = True
    return changed


def merge_streams(outputs: list) -> list:
    """Join consecutive pieces of the same stream: how a print is split depends on timing."""
    merged = []
    for out in outputs:
        if (
            out.output_type == "stream"
            and merged
            and merged[-1].output_type == "stream"
            and merged[-1].name == out.name
        ):
            merged[-1].text += out.text
        else:
            merged.append(out)
    return merged


WIDGET_STATE = "application/vnd.jupyter.widget-state+json"
WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"


def drop_browser_widget_state(nb) -> None:
    """Remove the kernel-side state of the explorers (anywidget models, and the layout models they
    own) from the notebook's widget metadata, and their widget views from the outputs.

    An explorer's output also holds ``text/html`` with everything the static page needs; the stored
    state would only repeat it (the whole JavaScript bundle included), make myst-nb load the
    ipywidgets manager from a CDN, and change at every run (random model ids)."""
    widgets = nb.metadata.get("widgets", {})
    state = widgets.get(WIDGET_STATE, {}).get("state", {})
    dropped = {mid for mid, m in state.items() if m.get("model_module") == "anywidget"}
    for mid in list(dropped):
        for value in state[mid].get("state", {}).values():
            if isinstance(value, str) and value.startswith("IPY_MODEL_"):
                dropped.add(value[len("IPY_MODEL_") :])
    for mid in dropped:
        state.pop(mid, None)
    if WIDGET_STATE in widgets and not state:
        widgets.pop(WIDGET_STATE)
    if "widgets" in nb.metadata and not widgets:
        nb.metadata.pop("widgets")
    for cell in nb.cells:
        for out in cell.get("outputs", []):
            data = out.get("data", {})
            view = data.get(WIDGET_VIEW)
            if view and view.get("model_id") not in state and "text/html" in data:
                data.pop(WIDGET_VIEW)


def execute(path: Path, write: bool = True) -> tuple[Path, float]:
    """Execute the .md and (unless write=False) write its paired .ipynb; returns (path, seconds)."""
    path = Path(path)
    nb = jupytext.read(path)
    start = time.perf_counter()
    NotebookClient(
        nb,
        timeout=TIMEOUT,
        kernel_name="python3",
        resources={"metadata": {"path": str(path.parent)}},
        record_timing=False,
    ).execute()
    seconds = time.perf_counter() - start
    drop_browser_widget_state(nb)
    for i, cell in enumerate(nb.cells):
        cell.id = f"cell-{i:03d}"  # stable ids: re-executing changes only what really changed
        if cell.cell_type == "code":
            cell.outputs = merge_streams(cell.outputs)
    nb.metadata.pop("jupytext", None)
    nb.metadata["language_info"] = {"name": "python"}  # no interpreter version: stable files
    if write:
        nbformat.write(nb, path.with_suffix(".ipynb"))
    return path, seconds


def sync_prose(path: Path) -> bool:
    """Copy the Markdown cells of the .md into its .ipynb without executing anything. Markdown
    cells may be edited, split, joined or tagged; the code cells must be the same, in the same
    order, with the same tags (else ValueError: outputs may change, re-execute instead), and keep
    their stored outputs. Returns True if the .ipynb was rewritten."""
    path = Path(path)
    source = jupytext.read(path)
    target_path = path.with_suffix(".ipynb")
    target = nbformat.read(target_path, as_version=4)
    old_code = [c for c in target.cells if c.cell_type == "code"]
    new_code = [c for c in source.cells if c.cell_type == "code"]
    if len(old_code) != len(new_code):
        raise ValueError(f"{path}: code cells were added or removed; re-execute it instead")
    for new, old in zip(new_code, old_code, strict=True):
        if new.source != old.source or new.metadata.get("tags") != old.metadata.get("tags"):
            raise ValueError(f"{path}: a code cell changed; re-execute it instead")
    code = iter(old_code)
    cells = []
    for cell in source.cells:
        if cell.cell_type == "code":
            cells.append(next(code))
        else:
            cell = nbformat.v4.new_markdown_cell(cell.source, metadata=dict(cell.metadata))
            cells.append(cell)
    for i, cell in enumerate(cells):
        cell.id = f"cell-{i:03d}"
    if [(c.cell_type, c.source, c.metadata) for c in cells] == [
        (c.cell_type, c.source, c.metadata) for c in target.cells
    ]:
        return False
    target.cells = cells
    nbformat.write(target, target_path)
    return True


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("paths", nargs="*", type=Path)
    parser.add_argument("-j", "--jobs", type=int, default=2)
    parser.add_argument(
        "--prose-only",
        action="store_true",
        help="copy changed Markdown into the .ipynb without executing (refuses if code changed)",
    )
    args = parser.parse_args(argv)
    paths = [p.resolve() for p in args.paths if p.resolve() in set(notebook_sources())] or notebook_sources()
    if args.prose_only:
        for p in paths:
            if sync_prose(p):
                print(f"prose synced: {p.relative_to(ROOT)}")
        return 0
    for p in paths:
        if sync_first_cell(p):
            print(f"language cell updated: {p.relative_to(ROOT)}")
    failed = 0
    with ProcessPoolExecutor(max_workers=args.jobs) as pool:
        futures = {p: pool.submit(execute, p) for p in paths}
        for p, fut in futures.items():
            try:
                _, seconds = fut.result()
                print(f"{seconds:6.1f} s  {p.relative_to(ROOT)}")
            except Exception as exc:  # report every failing notebook, then fail
                failed += 1
                print(f"FAILED  {p.relative_to(ROOT)}: {exc}", file=sys.stderr)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
