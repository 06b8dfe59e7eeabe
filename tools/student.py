"""The student edition: the same notebooks and pages with every solution removed.

- In prose (chapters, lab instructions): every ``{solution}`` block of sphinx-exercise is dropped
  before the book is built (hiding them with ``hide_solutions`` crashes on gated solutions,
  sphinx-exercise issue #89).
- In labs: every code cell tagged ``solution`` becomes ``answer_<name> = ...`` placeholders for the
  answers it assigned, and outputs that would show a solution or a verdict are cleared; the
  check cells stay, so students still get feedback.

    python -m tools.student   # student lab notebooks -> _build/student/labs/<lang>/,
                              # student site          -> _build/student-site/
"""

from __future__ import annotations

import ast
import re
import sys
from pathlib import Path

import nbformat

from .project import BUILD, ROOT

_OPEN = re.compile(r"^(?P<fence>`{3,}|:{3,})\{solution\}")


def student_markdown(text: str) -> str:
    """Remove every sphinx-exercise solution block (backtick or colon fenced) from MyST text."""
    out, skipping = [], None
    for line in text.splitlines(keepends=True):
        stripped = line.strip()
        if skipping is None:
            match = _OPEN.match(stripped)
            if match:
                skipping = match.group("fence")
                continue
            out.append(line)
        elif stripped == skipping:
            skipping = None
    if skipping is not None:
        raise ValueError("a {solution} block is not closed")
    return "".join(out)


def answer_names(source: str) -> list[str]:
    """The ``answer*`` variables a solution cell assigns at top level, in order."""
    names = []
    for node in ast.parse(source).body:
        targets = node.targets if isinstance(node, ast.Assign) else [getattr(node, "target", None)]
        for target in targets:
            if isinstance(target, ast.Name) and target.id.startswith("answer") and target.id not in names:
                names.append(target.id)
    return names


def placeholder(source: str) -> str:
    names = answer_names(source)
    if not names:
        raise ValueError("a solution cell must assign at least one answer_<name> variable")
    lines = ["# Your turn: compute the answer, replace ... with it, then run the check below."]
    lines += [f"{name} = ..." for name in names]
    return "\n".join(lines)


def student_notebook(src: Path, dest: Path) -> None:
    nb = nbformat.read(src, as_version=4)
    for cell in nb.cells:
        if cell.cell_type == "markdown":
            cell.source = student_markdown(cell.source)
        elif cell.cell_type == "code":
            tags = cell.metadata.get("tags", [])
            if "solution" in tags:
                cell.source = placeholder(cell.source)
                cell.metadata["tags"] = [t for t in tags if t != "solution"]
                cell.outputs, cell.execution_count = [], None
            elif "check." in cell.source:
                cell.outputs, cell.execution_count = [], None
    dest.parent.mkdir(parents=True, exist_ok=True)
    nbformat.write(nb, dest)


def write_student_labs(out: Path = BUILD / "student") -> list[Path]:
    written = []
    for src in sorted((ROOT / "labs").glob("*/*.ipynb")):
        dest = out / "labs" / src.parent.name / src.name
        student_notebook(src, dest)
        written.append(dest)
    return written


def main() -> int:
    from .build import build

    for path in write_student_labs():
        print(path.relative_to(ROOT))
    return build(student=True)


if __name__ == "__main__":
    sys.exit(main())
