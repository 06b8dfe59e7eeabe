"""The exercise sheet of a lab, for the instructor pack: ``sheet_markdown(lab, lang)``.

For each checked exercise, in the lab's order and the language asked for: what it asks (the lab's
own heading and prompt, read from the source, never written twice), the skill it tests, its
points, the answer at the lab's default settings (computed by the checks from the answer key's own
objects: the answer key is run once per lab, as a submission) and the mistakes the check
recognises with the hint each gets.

    python -m tools.teaching.exercise_sheet 3 it    # prints the sheet of lab 3 in Italian
"""

from __future__ import annotations

import sys
from functools import lru_cache

import jupytext

from beyond_accuracy import fmt, term
from beyond_accuracy.checks._engine import lab_exercises as exercise_definitions
from tools.teaching.grading.core import answer_key_values, lab_exercises, lab_source


@lru_cache(maxsize=8)
def _answers(lab: int) -> dict:
    # the code, and so the answers, are the same in every language: run the English answer key
    return answer_key_values(lab, "en")


def exercise_prompts(lab: int, lang: str) -> dict[str, str]:
    """Exercise name -> its heading and prompt, as written in the lab (Markdown)."""
    nb = jupytext.read(lab_source(lab, lang))
    names = {e["args"][0]: e["name"] for e in lab_exercises(lab, lang)}
    out = {}
    for i, cell in enumerate(nb.cells):
        if cell.cell_type != "code" or "solution" not in cell.metadata.get("tags", []):
            continue
        name = next(n for var, n in names.items() if f"{var} =" in cell.source)
        parts = []
        for previous in reversed(nb.cells[:i]):
            if previous.cell_type != "markdown":
                continue
            text = "\n" + previous.source
            if "\n### " in text:
                parts.insert(0, text[text.rindex("\n### ") + 1 :])
                break
            parts.insert(0, previous.source)
        out[name] = "\n\n".join(p.strip() for p in parts)
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
        prompt = prompts[ex.name]
        heading, _, body = prompt.partition("\n")
        lines += [f"## {heading.lstrip('#').strip()} (`{ex.name}`)", ""]
        lines += [f"**{term('sheet_asks', lang)}**", "", body.strip(), ""]
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
