"""The labs' pages on the reader's site are the labs as students get them (tools/book/build.py):
no solution cell's code, no stored verdict of a check, no output the student edition hides, no
paragraph it leaves out; the answers live in the answer keys (_build/answer-keys/, the instructor
pack). The chapters keep their worked solutions (tests/test_book.py)."""

from __future__ import annotations

import re
from pathlib import Path

import nbformat
import pytest
from bs4 import BeautifulSoup

from tools.book.build import stage
from tools.editions.derive import REMOVE_STUDENT, is_check_cell, lab_page_notebook, tags
from tools.project import ROOT, languages

MIN_RUN = 25  # a run of plain text this long, found on a page, is the same text


def _output_texts(cell) -> list[str]:
    found = []
    for out in cell.get("outputs", []):
        if out.get("output_type") == "stream":
            found.append(out.get("text", ""))
        data = out.get("data", {})
        if "text/html" in data:
            found.append(BeautifulSoup(data["text/html"], "html.parser").get_text("\n"))
        elif "text/plain" in data:
            found.append(data["text/plain"])
    return found


def _runs(text: str, minimum: int = MIN_RUN) -> set[str]:
    """Runs of plain text in Markdown or printed output: split at markup and line breaks,
    whitespace collapsed."""
    parts = re.split(r"[`*_{}$\[\]()|<>#\n]+", text)
    return {" ".join(p.split()) for p in parts if len(" ".join(p.split())) >= minimum}


def _code_lines(source: str) -> set[str]:
    return {" ".join(line.split()) for line in source.splitlines() if len(line.strip()) >= 12}


def hidden_from_students(src: Path, tmp: Path) -> dict[str, set[str]]:
    """What the student edition of an executed lab leaves out and no kept cell shows too:
    {"solution": code lines of solution cells, "verdict": what check cells printed,
    "output": runs of the outputs it clears, "prose": runs of the paragraphs it drops}."""
    nb = nbformat.read(src, as_version=4)
    kept = nbformat.read(lab_page_notebook(src, tmp / src.name), as_version=4)
    kept_text = " ".join(
        " ".join((c.source + "\n" + "\n".join(_output_texts(c))).split()) for c in kept.cells
    )
    hidden = {"solution": set(), "verdict": set(), "output": set(), "prose": set()}
    for cell in nb.cells:
        cell_tags = tags(cell)
        if cell.cell_type == "markdown" and REMOVE_STUDENT in cell_tags:
            hidden["prose"] |= _runs(cell.source)
        if cell.cell_type != "code":
            continue
        if "solution" in cell_tags:
            hidden["solution"] |= _code_lines(cell.source)
        if is_check_cell(cell.source):
            hidden["verdict"] |= {" ".join(t.split()) for t in _output_texts(cell) if t.strip()}
        elif "solution" in cell_tags or "hide-output-student" in cell_tags:
            for text in _output_texts(cell):
                hidden["output"] |= _runs(text, 12)
    return {kind: {t for t in texts if t not in kept_text} for kind, texts in hidden.items()}


def page_leaks(page: Path, hidden: dict[str, set[str]]) -> list[str]:
    """What of ``hidden`` the built page shows (its text, whitespace collapsed), and any "✅"."""
    soup = BeautifulSoup(page.read_text(encoding="utf-8"), "html.parser")
    for tag in soup(["script", "style"]):
        tag.decompose()
    text = " ".join(soup.get_text(" ").split())
    code = " ".join(" ".join(pre.get_text().split()) for pre in soup.find_all("pre"))
    leaks = [
        f"{kind}: {t!r}"
        for kind, texts in hidden.items()
        for t in sorted(texts)
        if t in (code if kind == "solution" else text)
    ]
    if "✅" in text:
        leaks.append("a stored verdict: ✅")
    return leaks


def lab_sources(lang: str) -> list[Path]:
    return sorted((ROOT / "labs" / lang).glob("*.ipynb"))


@pytest.mark.parametrize("lang", languages())
def test_lab_pages_show_no_solution_verdict_or_hidden_output(lang, site, tmp_path):
    checked = {"solution": 0, "verdict": 0, "output": 0, "prose": 0}
    for src in lab_sources(lang):
        page = site / lang / "labs" / lang / f"{src.stem}.html"
        hidden = hidden_from_students(src, tmp_path)
        for kind, texts in hidden.items():
            checked[kind] += len(texts)
        leaks = page_leaks(page, hidden)
        assert not leaks, f"{page.relative_to(site)} shows what students must not see:\n" + "\n".join(leaks)
    assert checked["solution"] >= 10 and checked["verdict"] >= 5 and checked["output"] >= 5, (
        f"{lang}: hardly anything was looked for: {checked}"
    )


@pytest.mark.slow  # stages a whole language (about 20 s)
def test_labs_are_staged_as_students_get_them_and_chapters_keep_solutions(tmp_path):
    """The staged book (before Sphinx): lab notebooks are the student editions, chapters keep
    their {solution} blocks (no Sphinx build)."""
    staged = stage("it", tmp_path)
    for src in lab_sources("it"):
        nb = nbformat.read(staged / "labs" / "it" / src.name, as_version=4)
        assert not [c for c in nb.cells if "solution" in tags(c)], f"{src.name}: a solution cell was staged"
        assert not [c for c in nb.cells if is_check_cell(c.source) and c.get("outputs")], (
            f"{src.name}: a check cell kept its verdict"
        )
        assert "{solution}" not in "\n".join(c.source for c in nb.cells if c.cell_type == "markdown")
    chapters = "\n".join(p.read_text(encoding="utf-8") for p in (staged / "chapters" / "it").glob("*.ipynb"))
    assert "{solution}" in chapters, "the chapters lost their worked solutions"
