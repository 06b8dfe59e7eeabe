"""Re-sync and re-execute the chapter and lab notebooks.

The MyST Markdown file (.md) is the source, and the English .md is the source of every language's
code. For each selected notebook this command
1. copies the code cells of the English .md into it (a translation differs only in its first code
   cell; cells the English page added or removed are added or removed after the nearest code cell),
2. makes its first code cell the language cell derived from _config.yml (tools.project.first_cell),
3. executes it top to bottom in a fresh kernel (working directory: the notebook's folder),
4. writes the paired .ipynb with the outputs, which Colab opens, nbval re-checks and the book renders.

    python -m tools.book.notebooks                 # all notebooks, two at a time (make notebooks)
    python -m tools.book.notebooks chapters/en/02-imbalance.md             # one (make notebook NB=...)
    python -m tools.book.notebooks chapters/en/02-imbalance.md --languages all   # ... in every language
    python -m tools.book.notebooks chapters/en/02-imbalance.md --languages it,es # ... in these
    python -m tools.book.notebooks --prose-only [PATHS]  # Markdown edits only: no execution (make prose)
    python -m tools.book.notebooks --code-only [PATHS]   # copy the English code only (make code)

A path that is not a notebook source (a .ipynb, a misspelt path) is refused: nothing runs.
"""

from __future__ import annotations

import argparse
import difflib
import os
import re
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import jupytext
import nbformat
from jupytext.myst import get_parser
from nbclient import NotebookClient

from tools.project import ROOT, first_cell, language_of, languages, notebook_sources, reference_language

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
    finish(nb)
    if write:
        nbformat.write(nb, path.with_suffix(".ipynb"))
    return path, seconds


def finish(nb) -> None:
    """What an executed notebook is stored as: no explorer state, consecutive pieces of a stream
    joined, stable cell ids, no jupytext or interpreter metadata (tests/nbval_stored.py checks
    that the committed notebooks are exactly this, from a run of nbval)."""
    drop_browser_widget_state(nb)
    for i, cell in enumerate(nb.cells):
        cell.id = f"cell-{i:03d}"  # stable ids: re-executing changes only what really changed
        if cell.cell_type == "code":
            cell.outputs = merge_streams(cell.outputs)
    nb.metadata.pop("jupytext", None)
    nb.metadata["language_info"] = {"name": "python"}  # no interpreter version: stable files


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
        raise ValueError(f"{rel(path)}: code cells were added or removed")
    for new, old in zip(new_code, old_code, strict=True):
        if new.source != old.source or new.metadata.get("tags") != old.metadata.get("tags"):
            raise ValueError(f"{rel(path)}: a code cell changed")
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


# --- code written once: the English code cells in every language -------------------------------


def code_cells(text: str) -> list[tuple[int, int]]:
    """The line spans ``[start, end)`` of the code cells of a MyST notebook's text, each from its
    ```` ```{code-cell} ```` line to its closing fence: the blocks jupytext reads as code cells
    (found with jupytext's own Markdown parser)."""
    return [
        (token.map[0], token.map[1])
        for token in get_parser().parse(text)
        if token.type == "fence" and token.level == 0 and token.info.startswith("{code-cell}")
    ]


def english_source(path: Path) -> Path:
    """The English (reference-language) source of a notebook in any language."""
    path = Path(path)
    return path.parent.parent / reference_language() / path.name


def copy_code(path: Path, write: bool = True) -> list[str]:
    """Make the code cells of a translated .md those of its English .md, all but the first (the
    language cell), options and tags included; the prose is kept as it is. Cells that the English
    page has and the translation lacks are added right after the translation's cell that precedes
    them; cells it no longer has are removed. Returns what changed, one line each (nothing for an
    English page or a translation whose code is already the English code)."""
    path = Path(path)
    english = english_source(path)
    if path.resolve() == english.resolve():
        return []
    ours_text = path.read_text(encoding="utf-8")
    ours_lines, theirs_lines = ours_text.split("\n"), english.read_text(encoding="utf-8").split("\n")
    ours, theirs = code_cells(ours_text), code_cells("\n".join(theirs_lines))
    if not ours or not theirs:
        raise ValueError(f"{path}: a notebook needs the language cell as its first code cell")

    def block(lines, span):
        return "\n".join(lines[span[0] : span[1]])

    mine = [block(ours_lines, span) for span in ours[1:]]
    wanted = [block(theirs_lines, span) for span in theirs[1:]]
    edits: list[tuple[int, int, list[str]]] = []  # (start, end, replacement) over ours_lines
    notes: list[str] = []
    matcher = difflib.SequenceMatcher(None, mine, wanted, autojunk=False)
    for op, i1, i2, j1, j2 in matcher.get_opcodes():
        if op == "equal":
            continue
        pairs = min(i2 - i1, j2 - j1)
        for k in range(pairs):
            start, end = ours[1 + i1 + k]
            edits.append((start, end, theirs_lines[theirs[1 + j1 + k][0] : theirs[1 + j1 + k][1]]))
        if pairs:
            notes.append(f"code cell {', '.join(str(1 + i1 + k) for k in range(pairs))} copied")
        if j2 - j1 > pairs:  # cells the English page added: after the translation's preceding cell
            after = ours[i1 + pairs][1]
            new = []
            for j in range(j1 + pairs, j2):
                new += ["", *theirs_lines[theirs[1 + j][0] : theirs[1 + j][1]]]
            edits.append((after, after, new))
            notes.append(
                f"{j2 - j1 - pairs} code cell(s) added after code cell {i1 + pairs} "
                "(move them to their place in the prose)"
            )
        for k in range(i1 + pairs, i2):  # cells the English page removed, with a blank line after
            start, end = ours[1 + k]
            end += end < len(ours_lines) and not ours_lines[end].strip()
            edits.append((start, end, []))
        if i2 - i1 > pairs:
            notes.append(f"{i2 - i1 - pairs} code cell(s) removed")
    if edits and write:
        for start, end, lines in sorted(edits, key=lambda e: (e[0], e[1]), reverse=True):
            ours_lines[start:end] = lines
        path.write_text("\n".join(ours_lines), encoding="utf-8")
    return notes


# --- which notebooks --------------------------------------------------------------------------------


def rel(path: Path) -> str:
    path = Path(path).resolve()
    return path.relative_to(ROOT).as_posix() if path.is_relative_to(ROOT) else str(path)


def selected(paths: list[Path], langs: str | None) -> list[Path]:
    """The notebook sources that ``paths`` name (all of them if none), in the languages ``langs``
    names ("all", or codes separated by commas or spaces; default: each path's own). Raises
    ValueError, naming the path and what to give instead, for anything that is not a notebook
    source: nothing runs on a path it does not know."""
    known = notebook_sources()
    by_path = {p.resolve(): p for p in known}
    wanted_langs = None
    if langs:
        wanted_langs = languages() if langs.strip() == "all" else re.split(r"[,\s]+", langs.strip())
        unknown = [lang for lang in wanted_langs if lang not in languages()]
        if unknown:
            raise ValueError(
                f"unknown language {', '.join(unknown)}: choose among {' '.join(languages())} or all"
            )
    problems = []
    chosen = []
    for given in paths:
        path = Path(given).resolve()
        if path in by_path:
            chosen.append(by_path[path])
            continue
        if path.suffix == ".ipynb" and path.with_suffix(".md").resolve() in by_path:
            problems.append(
                f"{given}: the .ipynb is written from its source; give {rel(path.with_suffix('.md'))}"
            )
        elif path.exists():
            problems.append(f"{given}: not a chapter or lab notebook (a .md with a jupytext header)")
        else:
            names = [rel(p) for p in known]
            guess = difflib.get_close_matches(str(given), names, n=1, cutoff=0.6)
            problems.append(f"{given}: no such notebook" + (f"; did you mean {guess[0]}?" if guess else ""))
    if problems:
        raise ValueError("\n".join(problems))
    if not paths:
        chosen = list(known) if wanted_langs is None else [p for p in known if language_of(p) in wanted_langs]
    elif wanted_langs is not None:
        chosen = [p.parent.parent / lang / p.name for p in chosen for lang in wanted_langs]
        missing = [rel(p) for p in chosen if p.resolve() not in by_path]
        if missing:
            raise ValueError(f"no such notebook: {', '.join(missing)}")
    return list(dict.fromkeys(chosen))


def notebook_command(paths: list[Path]) -> str:
    """The make command that re-executes ``paths`` (one notebook, in one or more languages)."""
    names = sorted({Path(p).name: None for p in paths})
    if len(names) != 1:
        return "make notebooks"
    langs = sorted({language_of(p) for p in paths}, key=languages().index)
    english = english_source(Path(paths[0]))
    if len(langs) == 1:
        return f"make notebook NB={rel(Path(paths[0]).parent.parent / langs[0] / names[0])}"
    if langs == languages():
        return f"make notebook NB={rel(english)} ALL=1"
    return f'make notebook NB={rel(english)} LANGS="{" ".join(langs)}"'


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("paths", nargs="*", type=Path, help="notebook sources (.md); default: all")
    parser.add_argument("-j", "--jobs", type=int, default=2)
    parser.add_argument(
        "-l",
        "--languages",
        help='each path in these languages: "all" or codes such as "it,es" (default: as given)',
    )
    what = parser.add_mutually_exclusive_group()
    what.add_argument(
        "--prose-only",
        action="store_true",
        help="copy changed Markdown into the .ipynb without executing (refuses if code changed)",
    )
    what.add_argument(
        "--code-only",
        action="store_true",
        help="copy the English code cells into the translations' .md, execute nothing "
        "(an English path: into all its translations)",
    )
    args = parser.parse_args(argv)
    try:
        paths = selected(args.paths, args.languages)
        if args.code_only and args.paths and not args.languages:  # an English page: its translations
            english = [p for p in paths if language_of(p) == reference_language()]
            paths = list(dict.fromkeys([*paths, *selected(english, "all")]))
    except ValueError as exc:
        parser.exit(2, f"{parser.prog}: {exc}\nnothing was run.\n")
    if args.prose_only:
        failed = []
        for p in paths:
            try:
                if sync_prose(p):
                    print(f"prose synced: {rel(p)}")
            except ValueError as exc:
                failed.append(p)
                print(f"{exc}", file=sys.stderr)
        if failed:
            print(f"re-execute instead: {notebook_command(failed)}", file=sys.stderr)
        return 1 if failed else 0
    copied = []
    for p in paths:
        notes = copy_code(p)
        if notes:
            copied.append(p)
            print(f"code copied from {rel(english_source(p))}: {rel(p)} ({'; '.join(notes)})")
    if args.code_only:
        if copied:
            print(f"now re-execute what changed: {notebook_command(copied)}")
        return 0
    for p in paths:
        if sync_first_cell(p):
            print(f"language cell updated: {rel(p)}")
    failed = 0
    with ProcessPoolExecutor(max_workers=args.jobs) as pool:
        futures = {p: pool.submit(execute, p) for p in paths}
        for p, fut in futures.items():
            try:
                _, seconds = fut.result()
                print(f"{seconds:6.1f} s  {rel(p)}")
            except Exception as exc:  # report every failing notebook, then fail
                failed += 1
                print(f"FAILED  {rel(p)}: {exc}", file=sys.stderr)
    behind = sorted(
        {
            q
            for p in paths
            for q in notebook_sources(None)
            if q.name == p.name
            and q.parent.parent == p.parent.parent
            and q not in paths
            and copy_code(q, False)
        }
    )
    if behind:
        print(
            f"the code of {', '.join(rel(q) for q in behind)} is no longer the English code: "
            f"{notebook_command(behind)}"
        )
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
