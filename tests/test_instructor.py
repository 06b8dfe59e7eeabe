"""The instructor's pack (`make instructor`, tools/teaching/instructor.py): per language and lab the student
notebook the buttons open, the answer key, the exercise sheet (when tools/teaching/exercise_sheet.py is
there), and the chapters' slides; all derived, nothing else, nothing twice, the same on a rebuild."""

from __future__ import annotations

import hashlib
import re
import shutil
import zipfile
from pathlib import Path

import nbformat
import pytest

from beyond_accuracy.explorers.quiz import chapters as quiz_chapters
from beyond_accuracy.explorers.quiz import definitions
from beyond_accuracy.language import fmt, term
from tools.book.sphinx.mathml import FONT_FILE, LICENSE_FILE
from tools.editions.derive import answer_key, page_of, publish_path, student_notebook
from tools.project import ROOT, languages
from tools.teaching.instructor import (
    QUIZ_KEY,
    build_pack,
    exercise_sheets,
    key_name,
    lab_number,
    labs,
    quiz_key,
)
from tools.teaching.quiz_export import FORMATS, export, file_name
from tools.teaching.slides import REVEAL_FILES, chapters, deck_html


def expected_files(lang: str, handouts: bool = True) -> set[str]:
    """The pack's files; with ``handouts``, the PDFs of the decks and exercise sheets."""
    files = {"README.md", QUIZ_KEY}
    for src in labs(lang):
        n = lab_number(src.stem)
        files |= {f"lab{n}/{src.name}", f"lab{n}/{key_name(src.stem)}"}
        if exercise_sheets() is not None:
            files.add(f"lab{n}/lab{n}-exercises.md")
    files |= {f"slides/{src.stem}.html" for src in chapters(lang)}
    files |= {f"chapters/{src.stem}.ipynb" for src in chapters(lang)}
    files |= {"slides/favicon.svg"}
    files |= {f"quizzes/{file_name(chapter, form)}" for chapter in quiz_chapters() for form in FORMATS}
    if handouts:
        files |= {f"handouts/slides/{src.stem}.pdf" for src in chapters(lang)}
        if exercise_sheets() is not None:
            files |= {f"handouts/lab{lab_number(src.stem)}-exercises.pdf" for src in labs(lang)}
    reveal = Path(
        str(__import__("importlib").resources.files("sphinx_revealjs").joinpath("_static/revealjs"))
    )
    for rel in REVEAL_FILES:
        path = reveal / rel
        found = [path] if path.is_file() else [p for p in path.rglob("*") if p.is_file()]
        files |= {f"slides/revealjs/{p.relative_to(reveal)}" for p in found}
    files |= {f"slides/revealjs/{name}" for name in (FONT_FILE, LICENSE_FILE)}  # the decks' math font
    return files


@pytest.fixture
def handouts_of(monkeypatch, request):
    """``handouts_of(lang)``: whether the packs built next hold the language's handouts. Printing
    them takes minutes, so the pack's builder copies the ones printed once per run by
    write_handouts (tests/conftest.py: printed_handouts) where this run prints that language's, and
    the handouts builder says it cannot run for the other languages (as without Chromium)."""
    import tools.teaching.handouts as handouts

    def of(lang: str) -> bool:
        from site_build import handout_languages

        if lang in handout_languages() and not handouts.missing():
            printed = request.getfixturevalue("printed_handouts")(lang) / "pdf"

            def copy(lang_, folder):
                assert lang_ == lang
                shutil.copytree(printed, folder)

            monkeypatch.setattr(handouts, "write_handouts", copy)
            return True
        monkeypatch.setattr(handouts, "missing", lambda: f"{lang}: not printed in this run")
        return False

    return of


@pytest.mark.slow  # the exercise sheets execute each lab's answer key
@pytest.mark.parametrize("lang", languages())
def test_the_pack_holds_exactly_what_the_command_derives(lang, editions, tmp_path, handouts_of):
    printed = handouts_of(lang)
    out = tmp_path / "instructor"
    (out / lang / "lab9").mkdir(parents=True)
    (out / lang / "lab9" / "stale.ipynb").write_text("{}")  # from an earlier run: must go
    archive = build_pack(lang, out, editions / "publish", editions / "answer-keys")
    folder = out / lang
    files = {str(p.relative_to(folder)) for p in folder.rglob("*") if p.is_file()}
    assert files == expected_files(lang, handouts=printed)

    for src in labs(lang):
        n = lab_number(src.stem)
        fresh = tmp_path / "fresh"
        assert (folder / f"lab{n}" / src.name).read_bytes() == student_notebook(
            src, fresh / "s.ipynb"
        ).read_bytes()
        published = publish_path(page_of(src), editions / "publish")  # the file the buttons open
        assert (folder / f"lab{n}" / src.name).read_bytes() == published.read_bytes()
        assert (folder / f"lab{n}" / key_name(src.stem)).read_bytes() == answer_key(
            src, fresh / "k.ipynb"
        ).read_bytes()
        sheet = exercise_sheets()
        if sheet is not None:
            assert (folder / f"lab{n}" / f"lab{n}-exercises.md").read_text(encoding="utf-8") == sheet(n, lang)
        assert f"slides/{src.stem.split('-')[0]}-" in (folder / "README.md").read_text(encoding="utf-8")
    for src in chapters(lang):
        assert (folder / "slides" / f"{src.stem}.html").read_text(encoding="utf-8") == deck_html(src)
        assert (folder / "chapters" / src.name).read_bytes() == student_notebook(
            src, tmp_path / "fresh" / src.name
        ).read_bytes(), f"{src.name}: the pack's chapter notebook is not its student edition"
    assert (folder / QUIZ_KEY).read_text(encoding="utf-8") == quiz_key(lang)
    assert f"`{QUIZ_KEY}`" in (folder / "README.md").read_text(encoding="utf-8")
    for chapter in quiz_chapters():
        for form in FORMATS:
            assert (folder / "quizzes" / file_name(chapter, form)).read_bytes() == export(chapter, lang, form)
    readme = (folder / "README.md").read_text(encoding="utf-8")
    for name in files:
        if name.startswith(("quizzes/", "handouts/")):
            assert f"`{name}`" in readme, f"the README does not list {name}"

    digests = [hashlib.sha256(p.read_bytes()).hexdigest() for p in folder.rglob("*") if p.is_file()]
    assert len(digests) == len(set(digests)), "a file is in the pack twice"

    with zipfile.ZipFile(archive) as zf:
        assert sorted(zf.namelist()) == sorted(f"{lang}/{f}" for f in files)
        assert zf.read(f"{lang}/README.md") == (folder / "README.md").read_bytes()
    again = build_pack(lang, tmp_path / "again", editions / "publish", editions / "answer-keys")
    assert again.read_bytes() == archive.read_bytes(), "a rebuild of the pack differs"


def _items(key: str) -> list[tuple[str, str]]:
    """The quiz key read back: (kind, text) for every question, right option, wrong option and
    feedback line, in order."""
    found = []
    for line in key.splitlines():
        if line[:1].isdigit() and ". " in line:
            found.append(("question", line.split(". ", 1)[1]))
        elif line.startswith("   - ✔ **"):
            found.append(("right", line[len("   - ✔ **") : line.rindex("** (")]))
        elif line.startswith("   - ✘ "):
            found.append(("wrong", line[len("   - ✘ ") :]))
        elif line.startswith("     "):
            found.append(("feedback", line.strip()))
    return found


@pytest.mark.parametrize("lang", languages())
def test_the_quiz_key_is_the_definitions(lang):
    """Read from the stored definitions (data/quizzes/*.json), not through the code that writes
    the key: every question in order, its right option marked, every option's feedback."""
    expected = []
    for stored in definitions().values():
        for q in stored["questions"]:
            expected.append(("question", q["prompt"][lang]))
            for o in q["options"]:
                text = (
                    o["text"][lang]
                    if "text" in o
                    else term("quiz_true" if o["value"] else "quiz_false", lang)
                )
                expected.append(("right" if o["correct"] else "wrong", text))
                expected.append(("feedback", o["feedback"][lang]))
    key = quiz_key(lang)
    assert _items(key) == expected
    assert key.count("✔") == sum(len(s["questions"]) for s in definitions().values())
    for chapter in definitions():
        title = next(
            line
            for line in (ROOT / "chapters" / lang / f"{chapter}.md").read_text().splitlines()
            if line.startswith("# ")
        )
        assert f"#{title}" in key, f"{chapter}: its title heads its part of the key"


# ---------------------------------------------------------------------------------------------
# The exercise sheets: plain Markdown, self-contained


@pytest.fixture
def sheet_without_answers(monkeypatch):
    """``sheet_markdown`` with a stand-in answer (the answers need the answer keys run: the pack
    test above covers them); what these tests read is the rest of the sheet."""
    from collections import defaultdict

    from tools.teaching import exercise_sheet

    monkeypatch.setattr(exercise_sheet, "_answers", lambda lab: defaultdict(lambda: 0.5))
    return exercise_sheet.sheet_markdown


@pytest.mark.slow  # reads and converts every lab in every language
@pytest.mark.parametrize("lang", languages())
def test_exercise_sheets_are_plain_markdown_with_glued_numbers(lang, sheet_without_answers):
    from tools.editions.derive import raw_myst

    for lab in range(1, 6):
        sheet = sheet_without_answers(lab, lang)
        assert not raw_myst(sheet), f"lab {lab} ({lang}): raw MyST in the sheet: {raw_myst(sheet)}"
        assert "{glue" not in sheet and "{doc}" not in sheet and ":::" not in sheet
    # lab 2's first exercise quotes the number of benign biopsies, glued in the lab
    nb = nbformat.read(ROOT / "labs" / lang / "02-fraud-desk-lab.ipynb", as_version=4)
    from tools.editions.derive import glue_texts

    sheet = sheet_without_answers(2, lang)
    assert glue_texts(nb)["n_benign"] in sheet and "n_benign" not in sheet


def _output_of(lab_path: Path, starts: str) -> str:
    nb = nbformat.read(lab_path, as_version=4)
    cell = next(c for c in nb.cells if c.cell_type == "code" and c.source.startswith(starts))
    return next(o["data"]["text/plain"] for o in cell.outputs if "text/plain" in o.get("data", {}))


@pytest.mark.slow  # reads and converts every lab in every language
@pytest.mark.parametrize("lang", languages())
def test_exercise_sheets_hold_the_tables_their_exercises_refer_to(lang, sheet_without_answers):
    """'The table above' (lab 2's lever table, lab 4's model table) and 'their matrix below'
    (lab 4's pain matrix) are in the sheet, where the lab shows them."""
    lab2 = ROOT / "labs" / lang / "02-fraud-desk-lab.ipynb"
    lab4 = ROOT / "labs" / lang / "04-ordinal-lab.ipynb"
    sheet2, sheet4 = sheet_without_answers(2, lang), sheet_without_answers(4, lang)
    levers = _output_of(lab2, "levers = {")
    assert levers.rstrip() in sheet2
    assert sheet2.index(levers.rstrip()) < sheet2.index("`best_lever`") + 2000
    matrix = _output_of(lab4, "pain_levels = ")
    section = sheet4[sheet4.index("(`qwk_by_hand`)") :]
    asks = section.index(term("sheet_asks", lang))
    assert asks < section.index(matrix.rstrip()), "the pain matrix comes after the prompt, as in the lab"
    board = _output_of(lab4, "class RoundedRegression")
    accuracy = sheet4[sheet4.index("(`accuracy_pick`)") :]
    assert accuracy.index(board.rstrip()) < accuracy.index(term("sheet_asks", lang))
    assert "✅" not in sheet2 + sheet4, "a check's verdict is not a table the exercise refers to"


# ---------------------------------------------------------------------------------------------
# The pack's README: the week by week plan and the grading guide


@pytest.mark.parametrize("lang", languages())
def test_the_pack_readme_plans_the_weeks_and_guides_the_grading(lang, editions, tmp_path, monkeypatch):
    import tools.teaching.handouts
    from tools.teaching.grading.core import EXERCISE_STATUSES
    from tools.teaching.grading.report import status_label
    from tools.teaching.instructor import ROW_MEANINGS
    from tools.teaching.lab_times import prose_words, read_grading, read_times

    # the handouts' place in the README is tested with the pack above; printing them takes minutes
    monkeypatch.setattr(tools.teaching.handouts, "missing", lambda: "not printed in this test")
    build_pack(lang, tmp_path, editions / "publish", editions / "answer-keys")
    text = (tmp_path / lang / "README.md").read_text(encoding="utf-8")
    times = read_times()
    rows = [line for line in text.splitlines() if line.startswith("| ") and "slides/" in line]
    assert len(rows) == len(chapters(lang)) == 5
    for row, chapter in zip(rows, chapters(lang), strict=True):
        n = int(chapter.stem.split("-")[0])
        lab = next(src for src in labs(lang) if lab_number(src.stem) == n)
        student = nbformat.read(editions / "publish" / "labs" / lang / lab.name, as_version=4)
        for part in (
            f"`chapters/{chapter.stem}.ipynb`",
            f"`slides/{chapter.stem}.html`",
            f"`lab{n}/{lab.name}`",
            f"{fmt(float(times[n]['wall_seconds']), digits=0, lang=lang)} s",
            fmt(prose_words(student), digits=0, lang=lang),
        ):
            assert part in row, f"{lang} week {n}: {part!r} not in {row!r}"
    grading = read_grading()
    assert f"{fmt(float(grading['per_submission_seconds']), digits=0, lang=lang)} s" in text
    for status in [*EXERCISE_STATUSES, *ROW_MEANINGS]:
        assert f"**{status_label(status, lang, cell='n')}**" in text, f"{lang}: status {status!r} unexplained"
    for word in ("make grade LAB=", "`LAB`", "`LANG`", "`SUBMISSIONS`", "`OUT`", "`ROSTER`", "Moodle",
                 "Canvas", "summary.md", "moodle-grades.csv", "canvas-grades.csv", "feedback/",
                 "`answer_<name>`", "`check.`", "`handouts/`", "`quizzes/`"):  # fmt: skip
        assert word in text, f"{lang}: the README does not mention {word}"
    assert not re.search(r"\{[a-z_]+\}", text), f"{lang}: a placeholder was left unfilled"


def test_lab_times_were_measured_for_every_lab_with_every_check_right():
    from tools.teaching.grading.core import LABS, lab_exercises
    from tools.teaching.lab_times import read_grading, read_times

    times = read_times()
    assert sorted(times) == list(LABS)
    for lab, row in times.items():
        assert (ROOT / row["notebook"]).exists()
        assert int(row["checks"]) == int(row["checks_correct"]) == len(lab_exercises(lab, row["lang"])), (
            f"lab {lab}: not every check printed ✅ in the measured run"
        )
        assert 0 < float(row["kernel_cpu_seconds"]) <= float(row["wall_seconds"]) < 900
    grading = read_grading()
    assert int(grading["submissions"]) >= 4 and float(grading["per_submission_seconds"]) > 0
