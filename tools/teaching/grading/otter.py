"""Otter-grader master notebooks (``otter assign`` format), derived from the labs and their checks.

For instructors who grade on Gradescope: ``python -m tools.teaching.grading.otter LAB LANG DEST`` writes
``DEST/lab<LAB>-<LANG>-master.ipynb``; ``otter assign`` turns it into the student notebook and the
autograder zip. Each checked exercise becomes an otter question whose solution is the lab's
solution cell and whose one test asks the course's check engine for the verdict (so otter grades
exactly as ``make grade`` and the labs' own check cells do).
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import jupytext
import nbformat

from tools.project import first_cell

from .core import lab_exercises, lab_source

CONFIG = """# ASSIGNMENT CONFIG
name: beyond-accuracy-lab{lab}-{lang}
init_cell: false
check_all_cell: false
export_cell: false
run_tests: false
generate:
  pdf: false
  show_stdout: true
requirements: requirements.txt
overwrite_requirements: false
"""


def _raw(text: str):
    return nbformat.v4.new_raw_cell(text)


def _solution_source(source: str) -> str:
    """The lab's solution cell in otter's syntax: the work as a solution block, the answer line
    marked ``# SOLUTION`` so that the student version keeps ``answer_<name> = ...``."""
    tree = ast.parse(source)
    last = tree.body[-1]
    lines = source.rstrip("\n").splitlines()
    if not (isinstance(last, ast.Assign) and last.lineno == last.end_lineno and len(last.targets) == 1):
        return "# BEGIN SOLUTION NO PROMPT\n" + source.rstrip("\n") + "\n# END SOLUTION"
    work = "\n".join(lines[: last.lineno - 1]).strip("\n")
    answer = lines[last.lineno - 1] + "  # SOLUTION"
    return (f"# BEGIN SOLUTION NO PROMPT\n{work}\n# END SOLUTION\n" if work else "") + answer


def master_notebook(lab: int, lang: str):
    """The otter master notebook of a lab in a language."""
    nb = jupytext.read(lab_source(lab, lang))
    exercises = {e["name"]: e for e in lab_exercises(lab, lang)}
    cells = [_raw(CONFIG.format(lab=lab, lang=lang))]
    pending = None  # the exercise whose solution cell came last
    first = True
    for cell in nb.cells:
        if cell.cell_type == "markdown":
            cells.append(nbformat.v4.new_markdown_cell(cell.source))
            continue
        if first:
            cells.append(nbformat.v4.new_code_cell(first_cell(lang)))
            first = False
            continue
        tags = cell.metadata.get("tags", [])
        if "remove-cell" in tags:
            continue
        if "solution" in tags:
            name = next(
                e["name"]
                for e in exercises.values()
                if f"{e['args'][0]} =" in cell.source or f"{e['args'][0]}=" in cell.source
            )
            ex = exercises[name]
            cells += [
                _raw(f"# BEGIN QUESTION\nname: {name}\npoints: {ex['points']}"),
                _raw("# BEGIN SOLUTION"),
                nbformat.v4.new_code_cell(_solution_source(cell.source)),
                _raw("# END SOLUTION"),
            ]
            pending = name
            continue
        if pending and f"check.{pending}(" in cell.source:
            ex = exercises[pending]
            test = nbformat.v4.new_code_cell(
                "from beyond_accuracy.checks._engine import verdict\n\n"
                f"verdict(check, {pending!r}, {', '.join(ex['args'])})['status']"
            )
            test.outputs = [
                nbformat.v4.new_output("execute_result", data={"text/plain": "'correct'"}, execution_count=1)
            ]
            cells += [_raw("# BEGIN TESTS"), test, _raw("# END TESTS"), _raw("# END QUESTION")]
            cells.append(nbformat.v4.new_code_cell(cell.source))
            pending = None
            continue
        cells.append(nbformat.v4.new_code_cell(cell.source))
    master = nbformat.v4.new_notebook(cells=cells)
    master.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    return master


def write_master(lab: int, lang: str, dest: Path) -> Path:
    dest = Path(dest)
    dest.mkdir(parents=True, exist_ok=True)
    path = dest / f"lab{lab}-{lang}-master.ipynb"
    nbformat.write(master_notebook(lab, lang), path)
    # the autograder's environment: the course's helper package (pinned by the instructor's copy)
    (dest / "requirements.txt").write_text("beyond-accuracy\n", encoding="utf-8")
    return path


def main(argv=None) -> int:
    args = argv if argv is not None else sys.argv[1:]
    if len(args) != 3:
        print("usage: python -m tools.teaching.grading.otter LAB LANG DEST", file=sys.stderr)
        return 2
    print(write_master(int(args[0]), args[1], Path(args[2])))
    return 0


if __name__ == "__main__":
    sys.exit(main())
