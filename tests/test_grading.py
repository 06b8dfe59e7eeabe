"""Grading synthetic submissions made from lab 1's student notebook, and the otter files.

One grading run covers: all answers right, all wrong (typed as a student would), blank (with a
printed fake "✅ Correct", which must not count), one that raises in the middle, one that sleeps
past the time limit, a text file renamed .ipynb, an empty notebook, the answer key itself and a
right submission whose language cell was changed (graded with the lab's own)."""

import csv
import shutil
import subprocess
import sys

import nbformat
import pytest

from tools.editions.derive import student_notebook
from tools.project import ROOT
from tools.teaching.grading.core import grade_folder, lab_exercises

KEY = ROOT / "labs" / "en" / "01-screening-lab.ipynb"
WRONG = {
    "answer_counts": "answer_counts = (4, 2, 39, 69)",
    "answer_precision_recall": "answer_precision_recall = (0.5, 0.5)",
    "answer_best_f2": "answer_best_f2 = 0.5",
    "answer_micro_f1": 'answer_micro_f1 = "macro avg"',
}


def _solutions():
    nb = nbformat.read(KEY, as_version=4)
    return [c.source for c in nb.cells if "solution" in c.metadata.get("tags", [])]


def _filled(student, sources):
    nb = nbformat.read(student, as_version=4)
    it = iter(sources)
    for cell in nb.cells:
        if cell.cell_type == "code" and cell.source.lstrip().startswith("#") and "= ..." in cell.source:
            cell.source = next(it)
    return nb


def _insert_after_check(nb, name, source):
    i = next(i for i, c in enumerate(nb.cells) if f"check.{name}(" in c.source)
    nb.cells.insert(i + 1, nbformat.v4.new_code_cell(source))
    return nb


@pytest.fixture(scope="module")
def grades(tmp_path_factory):
    folder = tmp_path_factory.mktemp("submissions")
    student = folder.parent / "student.ipynb"
    student_notebook(KEY, student)
    names = [e["args"][0] for e in lab_exercises(1, "en")]
    right = _filled(student, _solutions())
    nbformat.write(right, folder / "right.ipynb")
    nbformat.write(_filled(student, [WRONG[n] for n in names]), folder / "wrong.ipynb")
    blank = nbformat.read(student, as_version=4)
    blank.cells.append(nbformat.v4.new_code_cell('print("✅ Correct — well done.")'))
    nbformat.write(blank, folder / "blank.ipynb")
    nbformat.write(
        _insert_after_check(_filled(student, _solutions()), "precision_recall", "1 / 0"),
        folder / "raises.ipynb",
    )
    nbformat.write(
        _insert_after_check(_filled(student, _solutions()), "counts", "import time\ntime.sleep(600)"),
        folder / "sleeps.ipynb",
    )
    relanguaged = _filled(student, _solutions())
    language_cell = next(c for c in relanguaged.cells if c.cell_type == "code")
    language_cell.source = 'LANG = "it"  # the student switched the lab to Italian'
    nbformat.write(relanguaged, folder / "language.ipynb")
    (folder / "text.ipynb").write_text("my answers: 39, 2, 4, 69\n", encoding="utf-8")
    nbformat.write(nbformat.v4.new_notebook(), folder / "empty.ipynb")
    shutil.copy(KEY, folder / "key.ipynb")
    out = folder.parent / "out"
    path = grade_folder(folder, 1, "en", out=out, jobs=2, cell_timeout=20, notebook_timeout=400)
    with open(path, encoding="utf-8") as f:
        rows = {row["file"]: row for row in csv.DictReader(f)}
    return rows, out


EXERCISES = ["counts", "precision_recall", "best_f2", "micro_f1"]


def statuses(row):
    return [row[name] for name in EXERCISES]


def test_every_submission_has_a_row(grades):
    rows, _ = grades
    assert sorted(rows) == sorted(
        [
            "right.ipynb",
            "wrong.ipynb",
            "blank.ipynb",
            "raises.ipynb",
            "sleeps.ipynb",
            "text.ipynb",
            "empty.ipynb",
            "key.ipynb",
            "language.ipynb",
        ]
    )


def test_right_answers_and_the_answer_key_get_full_marks(grades):
    rows, _ = grades
    for name in ("right.ipynb", "key.ipynb"):
        assert statuses(rows[name]) == ["correct"] * 4, rows[name]
        assert rows[name]["total"] == rows[name]["max_total"] == "4"


def test_wrong_and_blank(grades):
    rows, _ = grades
    assert statuses(rows["wrong.ipynb"]) == ["not yet"] * 4
    assert rows["wrong.ipynb"]["total"] == "0"
    assert statuses(rows["blank.ipynb"]) == ["not attempted"] * 4  # the printed "✅" does not count


def test_bad_submissions_get_a_reason(grades):
    rows, out = grades
    assert statuses(rows["raises.ipynb"]) == ["correct"] * 4
    assert "ZeroDivisionError" in rows["raises.ipynb"]["reason"]
    assert statuses(rows["sleeps.ipynb"]) == ["correct", "not attempted", "not attempted", "not attempted"]
    assert "time limit" in rows["sleeps.ipynb"]["reason"]
    assert rows["text.ipynb"]["reason"].startswith("not a notebook")
    assert rows["empty.ipynb"]["reason"] == "empty notebook"
    assert statuses(rows["language.ipynb"]) == ["correct"] * 4  # graded with the lab's own language cell
    assert "language cell changed" in rows["language.ipynb"]["reason"]
    feedback = (out / "feedback" / "wrong.md").read_text(encoding="utf-8")
    assert "Not yet" in feedback and "Points: 0 / 4" in feedback
    assert "39" not in (out / "feedback" / "blank.md").read_text(encoding="utf-8")


def test_otter_assign_and_run_give_full_marks(tmp_path):
    otter = shutil.which("otter", path=str(ROOT / ".venv" / "bin")) or shutil.which("otter")
    if otter is None:
        pytest.skip("otter-grader is not installed")
    from tools.teaching.grading.otter import write_master

    master = write_master(1, "en", tmp_path)
    subprocess.run([otter, "assign", master.name, "dist"], cwd=tmp_path, check=True, capture_output=True)
    student = (tmp_path / "dist" / "student" / master.name).read_text(encoding="utf-8")
    assert "answer_counts = ..." in student and "flagged_037 =" not in student
    zipped = next((tmp_path / "dist" / "autograder").glob("*.zip"))
    (tmp_path / "run").mkdir()
    subprocess.run(
        [
            otter,
            "run",
            "-a",
            str(zipped),
            "-o",
            str(tmp_path / "run"),
            str(tmp_path / "dist" / "autograder" / master.name),
        ],
        check=True,
        capture_output=True,
    )
    import json

    results = json.loads((tmp_path / "run" / "results.json").read_text(encoding="utf-8"))
    scores = {t["name"]: (t.get("score"), t.get("max_score")) for t in results["tests"] if "score" in t}
    assert scores == dict.fromkeys(EXERCISES, (1.0, 1.0)), scores
    assert sys.executable
