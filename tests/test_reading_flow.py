"""Readers and students see the computation, not the bookkeeping: the glue calls that hand numbers
to the prose live in cells tagged remove-cell, and at most 5% of the code lines a reader can see
(every code cell not tagged remove-cell, hidden-by-toggle cells included) are glue calls."""

from __future__ import annotations

import re

import jupytext
import pytest

from tools.project import ROOT, notebook_sources

GLUE_CALL = re.compile(r"^\s*glue\(")
LIMIT = 0.05


def visible_code_lines(path) -> tuple[int, int]:
    """(glue lines, all non-blank lines) of the code cells a reader of the page can see."""
    glue = total = 0
    for cell in jupytext.read(path, fmt="md:myst").cells:
        if cell.cell_type != "code" or "remove-cell" in cell.metadata.get("tags", []):
            continue
        lines = [line for line in cell.source.splitlines() if line.strip()]
        total += len(lines)
        glue += sum(bool(GLUE_CALL.match(line)) for line in lines)
    return glue, total


@pytest.mark.parametrize("path", notebook_sources(), ids=lambda p: str(p.relative_to(ROOT)))
def test_visible_glue_is_at_most_five_percent_of_the_code(path):
    glue, total = visible_code_lines(path)
    assert total > 0
    assert glue <= LIMIT * total, f"{glue} of {total} visible code lines are glue calls"


def test_the_measure_counts_visible_glue(tmp_path):
    page = tmp_path / "page.md"
    page.write_text(
        "---\njupytext:\n  text_representation:\n    format_name: myst\nkernelspec:\n  name: python3\n"
        "  display_name: Python 3\n---\n\n"
        "```{code-cell} ipython3\nx = 1\nglue('x', x)\n```\n\n"
        "```{code-cell} ipython3\n:tags: [remove-cell]\n\nglue('y', 2)\n```\n",
        encoding="utf-8",
    )
    assert visible_code_lines(page) == (1, 2)
