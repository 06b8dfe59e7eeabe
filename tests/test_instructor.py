"""The instructor's pack (`make instructor`, tools/teaching/instructor.py): per language and lab the student
notebook the buttons open, the answer key, the exercise sheet (when tools/teaching/exercise_sheet.py is
there), and the chapters' slides; all derived, nothing else, nothing twice, the same on a rebuild."""

from __future__ import annotations

import hashlib
import zipfile
from pathlib import Path

import pytest

from beyond_accuracy.explorers.quiz import definitions
from beyond_accuracy.language import term
from tools.editions.derive import answer_key, page_of, student_notebook
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
from tools.teaching.slides import REVEAL_FILES, chapters, deck_html


def expected_files(lang: str) -> set[str]:
    files = {"README.md", QUIZ_KEY}
    for src in labs(lang):
        n = lab_number(src.stem)
        files |= {f"lab{n}/{src.name}", f"lab{n}/{key_name(src.stem)}"}
        if exercise_sheets() is not None:
            files.add(f"lab{n}/lab{n}-exercises.md")
    files |= {f"slides/{src.stem}.html" for src in chapters(lang)}
    reveal = Path(
        str(__import__("importlib").resources.files("sphinx_revealjs").joinpath("_static/revealjs"))
    )
    for rel in REVEAL_FILES:
        path = reveal / rel
        found = [path] if path.is_file() else [p for p in path.rglob("*") if p.is_file()]
        files |= {f"slides/revealjs/{p.relative_to(reveal)}" for p in found}
    return files


@pytest.mark.slow  # the exercise sheets execute each lab's answer key
@pytest.mark.parametrize("lang", languages())
def test_the_pack_holds_exactly_what_the_command_derives(lang, editions, tmp_path):
    out = tmp_path / "instructor"
    (out / lang / "lab9").mkdir(parents=True)
    (out / lang / "lab9" / "stale.ipynb").write_text("{}")  # from an earlier run: must go
    archive = build_pack(lang, out, editions / "publish", editions / "answer-keys")
    folder = out / lang
    files = {str(p.relative_to(folder)) for p in folder.rglob("*") if p.is_file()}
    assert files == expected_files(lang)

    for src in labs(lang):
        n = lab_number(src.stem)
        fresh = tmp_path / "fresh"
        assert (folder / f"lab{n}" / src.name).read_bytes() == student_notebook(
            src, fresh / "s.ipynb"
        ).read_bytes()
        assert (folder / f"lab{n}" / key_name(src.stem)).read_bytes() == answer_key(
            src, fresh / "k.ipynb"
        ).read_bytes()
        sheet = exercise_sheets()
        if sheet is not None:
            assert (folder / f"lab{n}" / f"lab{n}-exercises.md").read_text(encoding="utf-8") == sheet(n, lang)
        assert f"slides/{src.stem.split('-')[0]}-" in (folder / "README.md").read_text(encoding="utf-8")
    for src in chapters(lang):
        assert (folder / "slides" / f"{src.stem}.html").read_text(encoding="utf-8") == deck_html(src)
    assert (folder / QUIZ_KEY).read_text(encoding="utf-8") == quiz_key(lang)
    assert f"`{QUIZ_KEY}`" in (folder / "README.md").read_text(encoding="utf-8")

    digests = [hashlib.sha256(p.read_bytes()).hexdigest() for p in folder.rglob("*") if p.is_file()]
    assert len(digests) == len(set(digests)), "a file is in the pack twice"

    with zipfile.ZipFile(archive) as zf:
        assert sorted(zf.namelist()) == sorted(f"{lang}/{f}" for f in files)
        assert zf.read(f"{lang}/README.md") == (folder / "README.md").read_bytes()
    again = build_pack(lang, tmp_path / "again", editions / "publish", editions / "answer-keys")
    assert again.read_bytes() == archive.read_bytes(), "a rebuild of the pack differs"


@pytest.mark.slow  # the exercise sheets execute each lab's answer key
def test_the_student_notebook_of_the_pack_is_the_published_one(editions, tmp_path):
    src = ROOT / "labs" / "pt" / "03-trust-lab.ipynb"
    build_pack("pt", tmp_path, editions / "publish", editions / "answer-keys")
    published = editions / "publish" / "labs" / "pt" / src.name
    assert (tmp_path / "pt" / "lab3" / src.name).read_bytes() == published.read_bytes()
    assert page_of(src).lang == "pt"


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
