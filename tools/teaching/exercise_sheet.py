"""The exercise sheet of a lab, for the instructor pack: ``sheet_markdown(lab, lang)``.

For each checked exercise, in the lab's order and the language asked for: what it asks (the lab's
own heading and prompt, read from the executed notebook, never written twice, in plain Markdown:
glued numbers resolved as the notebooks' editions resolve them), the tables and matrices the
exercise refers to (the text output of the lab's cells: what the lab printed before the exercise
from the objects the check reads, and what it prints between the prompt's paragraphs), the skill it tests, its
points, the answer at the lab's default settings (computed by the checks from the answer key's own
objects: the answer key is run once per lab, as a submission) and the mistakes the check
recognises with the hint each gets.

    python -m tools.teaching.exercise_sheet 3 it    # prints the sheet of lab 3 in Italian
"""

from __future__ import annotations

import re
import sys
from functools import lru_cache

import nbformat

from beyond_accuracy import fmt, term
from beyond_accuracy.checks._engine import lab_exercises as exercise_definitions
from tools.editions.derive import KEY, Converter, glue_texts, is_check_cell, is_glue_output, page_of
from tools.teaching.grading.core import _assigned, answer_key_values, lab_exercises, lab_source


@lru_cache(maxsize=8)
def _answers(lab: int) -> dict:
    # the code, and so the answers, are the same in every language: run the English answer key
    return answer_key_values(lab, "en")


_NAME = re.compile(r"[A-Za-z_]\w*")


def _text_outputs(cell) -> list[str]:
    """What a code cell printed or displayed as text (a table's text/plain, not its figures)."""
    found = []
    for out in cell.get("outputs", []):
        if is_glue_output(out):
            continue
        if out.get("output_type") == "stream":
            found.append(out.get("text", ""))
        elif "text/plain" in out.get("data", {}) and not any(k.startswith("image/") for k in out["data"]):
            text = out["data"]["text/plain"]
            if not (text.startswith("<") and text.endswith(">")):  # a widget's or an object's repr
                found.append(text)
    return [t.rstrip() for t in found if t.strip()]


def _block(cell) -> str:
    """A code cell's text output as fenced blocks; nothing for a check cell (its verdict)."""
    if is_check_cell(cell.source):
        return ""
    outputs = _text_outputs(cell)
    return "\n\n".join("```text\n" + text + "\n```" for text in outputs)


def _section(nb, solution: int) -> tuple[int, list[int]]:
    """The exercise's heading cell (the last ``### `` heading above its solution cell) and the
    cells from it to the solution."""
    for i in range(solution - 1, -1, -1):
        cell = nb.cells[i]
        if cell.cell_type == "markdown" and ("\n" + cell.source).find("\n### ") >= 0:
            return i, list(range(i, solution))
    raise ValueError("an exercise without a ### heading above its solution cell")


def exercise_prompts(lab: int, lang: str) -> dict[str, tuple[str, str, str]]:
    """Exercise name -> (heading, what the lab shows before the exercise, the prompt), in plain
    Markdown (glue resolved from the executed notebook, as the notebooks' editions do it). The
    prompt keeps the lab's order: its paragraphs, and the text output of the code cells between
    them (the matrix "below"); what the lab showed before the heading and the exercise reads
    (the table "above": the last output of a cell naming one of the check's inputs) comes first."""
    src = lab_source(lab, lang).with_suffix(".ipynb")
    nb = nbformat.read(src, as_version=4)
    converter = Converter(page_of(src, nb), KEY, glue_texts(nb), nb)
    exercises = {e["args"][0]: e for e in lab_exercises(lab, lang)}
    out = {}
    for i, cell in enumerate(nb.cells):
        if cell.cell_type != "code" or "solution" not in cell.metadata.get("tags", []):
            continue
        var = next(v for v in exercises if f"{v} =" in cell.source)
        entry = exercises[var]
        start, cells = _section(nb, i)
        parts = []
        for j in cells:
            c = nb.cells[j]
            if "remove-cell" in c.metadata.get("tags", []):
                continue
            if c.cell_type == "markdown":
                text = c.source
                if j == start:
                    text = text[("\n" + text).rindex("\n### ") :]
                parts.append(converter.convert(text).strip())
            elif c.cell_type == "code" and _block(c):
                parts.append(_block(c))
        heading, _, first = parts[0].partition("\n")
        parts[0] = first.strip()
        inputs = set(_NAME.findall(" ".join(entry["args"][1:])))
        before = set()
        for name in inputs:
            code = [j for j in range(start) if nb.cells[j].cell_type == "code" and _block(nb.cells[j])]
            made = [j for j in code if name in _assigned(nb.cells[j].source)]
            named = [j for j in code if name in _NAME.findall(nb.cells[j].source)]
            before |= {found[-1] for found in (made, named) if found}  # where it was made, last shown
        shown = "\n\n".join(_block(nb.cells[j]) for j in sorted(before))
        out[entry["name"]] = (heading.lstrip("#").strip(), shown, "\n\n".join(p for p in parts if p))
    return out


def _show(value, lang: str) -> str:
    if isinstance(value, str):
        return f'`"{value}"`'
    if isinstance(value, (tuple, list)):
        if all(isinstance(v, str) for v in value):
            return " / ".join(f'`"{v}"`' for v in value)
        return "(" + "; ".join(_show(v, lang) for v in value) + ")"
    if float(value) == round(float(value)):
        return fmt(int(round(float(value))), lang=lang)
    return fmt(float(value), digits=4, lang=lang)


def sheet_markdown(lab: int, lang: str) -> str:
    registry = exercise_definitions(int(lab))
    prompts = exercise_prompts(lab, lang)
    answers = _answers(lab)
    lines = [f"# {term('sheet_title', lang).format(lab=lab)}", ""]
    for entry in lab_exercises(lab, lang):
        ex = registry[entry["name"]]
        heading, shown, body = prompts[ex.name]
        lines += [f"## {heading} (`{ex.name}`)", ""]
        if shown:
            lines += [f"**{term('sheet_shown', lang)}**", "", shown, ""]
        lines += [f"**{term('sheet_asks', lang)}**", "", body, ""]
        lines += [f"**{term('sheet_skill', lang)}:** {ex.skill[lang]}", ""]
        lines += [f"**{term('sheet_points', lang)}:** {ex.points}", ""]
        answer = _show(answers[ex.name], lang)
        if ex.decimals is not None:
            answer += f" ({term('sheet_tolerance', lang).format(decimals=ex.decimals)})"
        lines += [f"**{term('sheet_answer', lang)}:** {answer}", ""]
        lines += [f"**{term('sheet_mistakes', lang)}**", ""]
        for mistake in ex.mistakes:
            about = mistake.about.get(lang) or mistake.key
            lines.append(f"- *{about}*: {mistake.hint[lang]}")
        lines.append(f"- *{term('sheet_other', lang)}*: {ex.hint[lang]}")
        lines.append("")
    return "\n".join(lines)


def main(argv=None) -> int:
    args = argv if argv is not None else sys.argv[1:]
    if len(args) != 2:
        print("usage: python -m tools.teaching.exercise_sheet LAB LANG", file=sys.stderr)
        return 2
    print(sheet_markdown(int(args[0]), args[1]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
