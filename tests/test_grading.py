"""The grader (tools/teaching/grading), as an instructor meets it.

Fast tests (``make unit``): how the files of a download are read (Moodle, Canvas, a folder per
student, a zip, system files), what a file that is not a notebook is, how an answer travels out
of a kernel as plain data and is judged by the exercise's own definition exactly as the
notebook's check judges it, and what the grader writes (grades.csv, the summary, the Moodle and
Canvas files, the feedback) in the class's language.

Slow tests (marked ``slow``: they run notebooks): a class of submissions built by
tools/teaching/grading/trial.py from the student notebooks that tools/editions/derive.py makes,
graded as ``make grade`` grades: lab 2 in Italian with every shape (cheats, right answers in other
shapes, blank and wrong, files that are not notebooks, Moodle's and Canvas's layouts), lab 2 in
Italian with the notebooks that loop, wait or kill their kernel (a class of its own, so that
pytest-xdist and `make test SHARD=k/N` can grade it beside the others), lab 4 in Finnish with the
cheats and the right answers' shapes. Every cheat gets no point for its wrong answers, every right answer its points, every
file one row. The time limits count CPU seconds, so a busy machine does not stop a correct cell.
"""

import csv
import hashlib
import io
import json
import zipfile
from fractions import Fraction

import nbformat
import numpy as np
import pandas as pd
import pytest

from beyond_accuracy import LANGUAGES, term
from beyond_accuracy.checks._engine import lab_exercises as definitions
from tools.project import ROOT
from tools.teaching.grading import kernel_side, report, trial
from tools.teaching.grading.core import (
    CORRECT,
    ERROR,
    EXERCISE_STATUSES,
    NOT_NOTEBOOK,
    NOT_YET,
    ROW_STATUSES,
    Event,
    Outcome,
    Row,
    Verdict,
    _report,
    decode,
    grade_folder,
    lab_exercises,
    read_notebook,
)
from tools.teaching.grading.kernel import Limits, isolation
from tools.teaching.grading.submissions import collect

# --------------------------------------------------------------------------------------------------
# Fast: files and students


def _notebook_bytes(source="x = 1"):
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(source)])
    return nbformat.writes(nb).encode()


def test_downloads_of_moodle_canvas_and_folders_name_their_students(tmp_path):
    files = {
        "Anna Rossi_1234567_assignsubmission_file/lab2.ipynb": _notebook_bytes(),
        "Anna Rossi_1234567_assignsubmission_file_/notes.pdf": b"%PDF-1.4",  # Moodle before 3.1: a final _
        "Bruno Bianchi_7654321_assignsubmission_file_lab2.IPYNB": _notebook_bytes(),
        "verdicarla_LATE_123456_7890123_lab2-1.ipynb": _notebook_bytes(),
        "rossianna_223344_5566778_lab2.ipynb": _notebook_bytes(),
        "dario.neri/work/lab2.ipynb": _notebook_bytes(),
        "elena.ipynb": _notebook_bytes(),
        "__MACOSX/._elena.ipynb": b"\x00",
        ".DS_Store": b"\x00",
        "dario.neri/.ipynb_checkpoints/lab2-checkpoint.ipynb": _notebook_bytes(),
    }
    for rel, data in files.items():
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_bytes(data)
    found = collect(tmp_path)
    got = {i.rel: (i.student, i.student_id, i.layout, i.late) for i in found.items}
    assert got == {
        "Anna Rossi_1234567_assignsubmission_file/lab2.ipynb": ("Anna Rossi", "1234567", "moodle", False),
        "Anna Rossi_1234567_assignsubmission_file_/notes.pdf": ("Anna Rossi", "1234567", "moodle", False),
        "Bruno Bianchi_7654321_assignsubmission_file_lab2.IPYNB": (
            "Bruno Bianchi",
            "7654321",
            "moodle",
            False,
        ),
        "verdicarla_LATE_123456_7890123_lab2-1.ipynb": ("verdicarla", "123456", "canvas", True),
        "rossianna_223344_5566778_lab2.ipynb": ("rossianna", "223344", "canvas", False),
        "dario.neri/work/lab2.ipynb": ("dario.neri", "", "folder", False),
        "elena.ipynb": ("elena", "", "file", False),
    }
    assert sorted(found.skipped) == sorted(
        ["__MACOSX/._elena.ipynb", ".DS_Store", "dario.neri/.ipynb_checkpoints/lab2-checkpoint.ipynb"]
    )


def test_a_zip_of_submissions_is_read_like_its_folder_and_cannot_write_outside(tmp_path):
    archive = tmp_path / "download.zip"
    with zipfile.ZipFile(archive, "w") as z:
        z.writestr("Anna Rossi_1234567_assignsubmission_file/lab2.ipynb", _notebook_bytes())
        z.writestr("../escape.ipynb", _notebook_bytes())
    found = collect(archive)
    assert [(i.rel, i.student) for i in found.items] == [
        ("Anna Rossi_1234567_assignsubmission_file/lab2.ipynb", "Anna Rossi"),
        ("escape.ipynb", "escape"),
    ]
    assert not (tmp_path.parent / "escape.ipynb").exists()


def test_the_output_folder_inside_the_submissions_is_not_graded(tmp_path):
    (tmp_path / "a.ipynb").write_bytes(_notebook_bytes())
    (tmp_path / "grades").mkdir()
    (tmp_path / "grades" / "grades.csv").write_text("student,file\n")
    assert [i.rel for i in collect(tmp_path, exclude=[tmp_path / "grades"]).items] == ["a.ipynb"]


@pytest.mark.parametrize(
    "name, data, kind",
    [
        ("notes.pdf", b"%PDF-1.7\n...", "pdf"),
        ("lab.zip", b"PK\x03\x04rest", "zip"),
        ("answers.ipynb", b"le risposte: 0,19\n", "text"),
        ("lab.docx", b"\xd0\xcf\x11\xe0\xff\xfe", "other:.docx"),
        ("empty.ipynb", b"  \n", "empty"),
    ],
)
def test_a_file_that_is_not_a_notebook_says_what_it_is_in_every_language(tmp_path, name, data, kind):
    path = tmp_path / name
    path.write_bytes(data)
    with pytest.raises(ValueError, match=kind):
        read_notebook(path)
    for lang in LANGUAGES:
        text = report.kind_text(kind, lang)
        assert text and "{" not in text and text != kind


def test_an_upper_case_extension_is_still_a_notebook(tmp_path):
    path = tmp_path / "LAB2.IPYNB"
    path.write_bytes(_notebook_bytes("answer = 1"))
    assert read_notebook(path).cells[0].source == "answer = 1"


# --------------------------------------------------------------------------------------------------
# Fast: an answer out of a kernel, judged by the exercise's own definition


def _round_trip(value):
    """An answer as the grader gets it: plain JSON text out of the kernel, decoded."""
    return decode(json.loads(json.dumps(kernel_side.plain(value))))


ANSWERS = [
    0.18518518518518517,
    25 / 135,
    Fraction(25, 135),
    np.float64(0.1852),
    np.float32(0.185),
    np.array(0.185),  # a 0-d array
    np.array([0.185]),  # a 1-element array: not a number
    round(25 / 135, 2),
    0.18,
    0.8148148148148149,  # the complement, a recognised mistake
    18.52,  # a percentage
    (0, 185),  # 0,185 typed with a decimal comma
    "0.185",
    True,
    None,
    float("nan"),
    float("inf"),
    ...,
    [0.185, 0.2],
    {"tau": 0.185},
    {0.185},
    b"0.185",
    pd.Series([0.185]),
]


@pytest.mark.parametrize("answer", ANSWERS, ids=repr)
def test_a_number_answer_out_of_the_kernel_gets_the_checks_own_verdict(answer):
    exercise = definitions(2)["tau_star"]
    reference = exercise.reference()
    direct = exercise.grade(answer)
    judged = exercise.judge(_round_trip(answer), reference)
    assert judged == direct, (answer, direct, judged)


def test_a_0d_array_and_a_fraction_are_right_answers():
    exercise = definitions(2)["tau_star"]
    for answer in (np.array(25 / 135), Fraction(25, 135), np.float64(25 / 135), np.sum(np.array([25 / 135]))):
        assert exercise.grade(answer).status == CORRECT
        assert exercise.judge(_round_trip(answer), exercise.reference()).status == CORRECT


@pytest.mark.parametrize(
    "answer",
    [
        "tuned_threshold",
        "Tuned threshold",
        "TUNED-THRESHOLD",
        "baseline",
        "tuned treshold",
        3,
        ...,
        np.str_("class_weights"),
    ],
    ids=repr,
)
def test_a_choice_answer_out_of_the_kernel_gets_the_checks_own_verdict(answer):
    exercise = definitions(2)["best_lever"]
    table = pd.DataFrame(
        {"tp": [30, 40, 42, 41], "fp": [5, 60, 200, 150], "fn": [20, 10, 8, 9], "f1": [0.7, 0.5, 0.3, 0.35]},
        index=["baseline", "tuned_threshold", "class_weights", "smote_pipeline"],
    )
    table["recall"] = table["tp"] / (table["tp"] + table["fn"])
    inputs = (table, {"c_tp": 10, "c_fp": 25, "c_fn": 120, "c_tn": 0}, 2000)
    assert exercise.judge(_round_trip(answer), exercise.reference(*inputs)) == exercise.grade(answer, *inputs)


def test_the_reference_is_plain_data_for_every_exercise_of_labs_2_and_4():
    """The reference crosses from the answer key's kernel as JSON: it must survive the trip."""
    table = pd.DataFrame({"tp": [1, 2], "fp": [3, 1], "fn": [2, 1], "f1": [0.3, 0.6], "recall": [0.3, 0.6]})
    table.index = ["baseline", "tuned_threshold"]
    exercise = definitions(2)["best_lever"]
    reference = exercise.reference(table, {"c_tp": 10, "c_fp": 25, "c_fn": 120}, 100)
    assert _round_trip(reference.expected) == reference.expected
    assert [(k, _round_trip(v)) for k, v in reference.mistakes] == list(reference.mistakes)
    pain = definitions(4)["qwk_by_hand"]
    counts = pd.DataFrame([[6, 2, 0], [1, 5, 1], [1, 1, 3]])
    value = pain.reference(counts).expected
    assert _round_trip(value) == pytest.approx(value, abs=1e-15)


def test_input_fingerprints_tell_edited_inputs_apart_and_ignore_float_noise():
    table = pd.DataFrame({"tp": [30.0, 40.0], "fp": [5, 60]}, index=["baseline", "tuned_threshold"])
    same = table.copy()
    same.loc["baseline", "tp"] = 30 + 1e-12
    edited = table.copy()
    edited.loc["baseline", "fp"] = 0
    fp = kernel_side.fingerprint
    assert fp((table, 3)) == fp((same, 3))
    assert fp((table, 3)) != fp((edited, 3))
    assert fp((table, 3)) != fp((table, 4))
    assert fp((np.arange(3),)) != fp((np.arange(4),))
    assert fp(({"a": np.zeros(2)},)) == fp(({"a": np.zeros(2)},))


@pytest.mark.parametrize(
    "user_expressions",
    [
        {},
        {"report": {"status": "error", "ename": "NameError"}},
        {"report": {"status": "ok", "data": {"text/plain": "'not json'"}}},
        {"report": {"status": "ok", "data": {"text/plain": "__import__('os')"}}},
        {"report": {"status": "ok", "data": {"text/plain": repr(json.dumps([1, 2]))}}},
        {"report": {"status": "ok", "data": {"text/plain": repr(json.dumps({"calls": [1]}))}}},
        {"report": {"status": "ok", "data": {"text/plain": 42}}},
    ],
)
def test_a_report_the_grader_cannot_read_as_data_is_ignored(user_expressions):
    assert _report(Outcome("ok", user_expressions=user_expressions)) is None


def test_a_report_whose_calls_or_names_are_not_mappings_is_judged_without_failing():
    text = json.dumps(
        {"calls": {"tau_star": "x"}, "answers": {}, "inputs_at_end": {}, "names": {"tau_star": [1, 2]}}
    )
    outcome = Outcome("ok", user_expressions={"report": {"status": "ok", "data": {"text/plain": repr(text)}}})
    data = _report(outcome)
    assert data["calls"] == {} and data["names"] == {}


@pytest.mark.skipif(isolation() != "namespaces", reason="hiding folders needs mount namespaces")
def test_a_submissions_kernel_sees_neither_the_answer_keys_nor_the_classmates_nor_the_checks(tmp_path):
    import subprocess
    import sys

    from tools.teaching.grading.core import submission_sandbox

    classmates = tmp_path / "submissions"
    classmates.mkdir()
    (classmates / "right.ipynb").write_bytes(_notebook_bytes("answer_tau_star = 0.19"))
    code = (
        "import os, sys, beyond_accuracy\n"
        "print(sorted(os.listdir(sys.argv[1])), sorted(os.listdir(sys.argv[2])), "
        "os.path.exists(sys.argv[3]), len([p for p in os.listdir('/proc') if p.isdigit()]) < 5)"
    )
    sandbox = submission_sandbox((classmates,))
    checks = ROOT / "src" / "beyond_accuracy" / "checks" / "lab2.py"
    key = next((ROOT / "labs" / "en").glob("02-*.md"))
    found = subprocess.run(
        [*sandbox.prefix(), sys.executable, "-c", code, str(key.parent.parent), str(classmates), str(checks)],
        capture_output=True,
        text=True,
    )
    assert found.returncode == 0, found.stderr[-500:]
    # labs/ (the answer keys) and the classmates: empty; the checks' source gone; no other process
    assert found.stdout.strip() == "[] [] False True"


def test_a_report_is_read_as_data_only():
    text = json.dumps(
        {"calls": {"tau_star": [{"answer": 0.5}]}, "answers": {}, "inputs_at_end": {}, "names": {}}
    )
    outcome = Outcome("ok", user_expressions={"report": {"status": "ok", "data": {"text/plain": repr(text)}}})
    assert _report(outcome)["calls"]["tau_star"][0]["answer"] == 0.5


def test_the_engine_no_longer_claims_its_answers_are_unreachable():
    from beyond_accuracy.checks import _engine

    assert "nothing public on the check object hands it out" not in _engine.__doc__
    assert "introspection" in _engine.__doc__


# --------------------------------------------------------------------------------------------------
# Fast: what the grader writes, in the class's language


LAB2_TOTAL = sum(e.points for e in definitions(2).values())  # the points follow each exercise's effort


def _rows():
    names = [e["name"] for e in lab_exercises(2, "it")]
    pts = {n: definitions(2)[n].points for n in names}

    def verdicts(**statuses):
        out = []
        for n in names:
            status = statuses.get(n, CORRECT)
            v = Verdict(n, status, pts[n] if status == CORRECT else 0, pts[n])
            if status == NOT_YET:
                v.mistake = "caught_fraud_free" if n == "tau_star" else ""
                v.message = "❌ Non ancora."
            if status == ERROR:
                v.cell, v.error = 17, "NameError: name 'answer_tau_star' is not defined"
            if status == CORRECT:
                v.message = "✅ Corretto, ottimo lavoro."
            out.append(v)
        return out

    anna = Row("Anna Rossi_1234567_assignsubmission_file/lab.ipynb", "Anna Rossi", "1234567", "moodle")
    total = sum(pts.values())
    anna.verdicts, anna.max_total = verdicts(), total
    carla = Row("verdicarla_123456_7890123_lab.ipynb", "verdicarla", "123456", "canvas")
    carla.verdicts, carla.max_total = verdicts(tau_star=NOT_YET), total
    carla.verdicts[0].inputs_differed = True
    dario = Row("dario.neri/lab.ipynb", "dario.neri", "", "folder")
    dario.verdicts, dario.max_total = verdicts(tau_star=ERROR, best_lever=NOT_YET), total
    dario.events = [
        Event("error", 5, 5, "ZeroDivisionError", "division by zero"),
        Event("error", 17, 17, "NameError", "x"),
    ]
    pdf = Row("notes.pdf", "notes", "", "file", status=NOT_NOTEBOOK, detail="pdf")
    pdf.verdicts, pdf.max_total = [Verdict(n, "missing", 0, pts[n]) for n in names], total
    for row in (anna, carla, dario, pdf):
        row.total = sum(v.points for v in row.verdicts)
    return [anna, carla, dario, pdf]


def test_grades_summary_feedback_and_lms_files_in_the_class_language(tmp_path):
    roster = tmp_path / "roster.csv"
    roster.write_text(
        "First name,Surname,Email address,ID number\n"
        "Anna,Rossi,anna.rossi@uni.it,S1\nCarla,Verdi,carla.verdi@uni.it,S2\n"
        "Dario,Neri,dario.neri@uni.it,S3\nElena,Bruni,elena.bruni@uni.it,S4\n",
        encoding="utf-8",
    )
    out = tmp_path / "out"
    report.write_all(_rows(), 2, "it", out, roster=roster, wall=100.0, jobs=2, limits=Limits())
    with open(out / "grades.csv", encoding="utf-8") as f:
        rows = {r["file"]: r for r in csv.DictReader(f)}
    assert len(rows) == 4
    assert rows["notes.pdf"]["status"] == NOT_NOTEBOOK and "PDF" in rows["notes.pdf"]["reason"]
    assert rows["verdicarla_123456_7890123_lab.ipynb"]["tau_star_detail"] == "mistake: caught_fraud_free"
    assert "inputs differed" in rows["verdicarla_123456_7890123_lab.ipynb"]["flags"]
    dario = rows["dario.neri/lab.ipynb"]
    assert dario["tau_star"] == ERROR and dario["tau_star_detail"].startswith("cell [17]: NameError")
    assert "[5] ZeroDivisionError" in dario["reason"] and "[17]" not in dario["reason"]  # said per exercise
    summary = (out / "summary.md").read_text(encoding="utf-8")
    assert "Laboratorio 2: riepilogo della classe" in summary
    assert "una frode intercettata considerata gratuita (1)" in summary  # the mistake, as the check names it
    assert "Bruni" in summary  # on the roster, no file
    assert "Elena Bruni" in (out / "summary.html").read_text(encoding="utf-8")
    with open(out / "summary.csv", encoding="utf-8") as f:
        tau = next(r for r in csv.DictReader(f) if r["exercise"] == "tau_star")
    assert (tau["correct"], tau["not_yet"], tau["error"], tau["mistakes"]) == (
        "1",
        "1",
        "1",
        "caught_fraud_free: 1",
    )
    with open(out / "moodle-grades.csv", encoding="utf-8") as f:
        moodle = list(csv.DictReader(f))
    assert list(moodle[0])[:4] == ["Identifier", "Full name", "Email address", "Grade"]
    anna = next(r for r in moodle if r["Full name"] == "Anna Rossi")
    assert (anna["Identifier"], anna["Email address"], anna["Grade"]) == (
        "Participant 1234567",
        "anna.rossi@uni.it",
        str(LAB2_TOTAL),
    )
    assert next(r for r in moodle if r["Full name"] == "Elena Bruni")["Grade"] == ""
    with open(out / "canvas-grades.csv", encoding="utf-8") as f:
        canvas = list(csv.reader(f))
    assert canvas[0] == ["Student", "ID", "SIS User ID", "SIS Login ID", "Section", "Laboratorio 2"]
    assert canvas[1][0] == "Points Possible" and canvas[1][5] == str(LAB2_TOTAL)
    carla = next(r for r in canvas if r[0] == "Verdi, Carla")
    assert (carla[1], carla[2], carla[5]) == (
        "123456",
        "S2",
        str(LAB2_TOTAL - definitions(2)["tau_star"].points),
    )
    feedback = (out / "feedback" / "dario-neri.md").read_text(encoding="utf-8")
    assert "La cella [17] ha dato l’errore NameError" in feedback
    assert "Alcune celle hanno dato errori: [5] ZeroDivisionError" in feedback
    html = (out / "feedback" / "dario-neri.html").read_text(encoding="utf-8")
    assert (
        html.startswith("<!DOCTYPE html>") and '<html lang="it">' in html and "<code>tau_star</code>" in html
    )


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_status_and_grading_sentence_exists_in_every_language(lang):
    for status in set(EXERCISE_STATUSES) | set(ROW_STATUSES):
        assert report.status_label(status, lang, cell=3)
    for key in (
        "grade_hint_missing",
        "grade_hint_error",
        "grade_hint_time_cpu",
        "grade_hint_time_idle",
        "grade_hint_time_total",
        "grade_hint_kernel_died",
        "grade_hint_stopped",
        "grade_note_inputs",
        "grade_note_renamed",
        "grade_hint_renamed",
        "grade_errors_elsewhere",
        "grade_language_changed",
        "grade_not_notebook",
        "grade_summary_time",
        "grade_lms_title",
    ):
        assert term(key, lang)


# --------------------------------------------------------------------------------------------------
# Slow: a class graded as `make grade` grades it

# CPU seconds, not wall-clock seconds: a correct cell of labs 2 and 4 uses a few CPU seconds however
# busy the machine is; the loop and the wait in the trial are stopped by these limits.
TEST_LIMITS = Limits(cell_cpu=30, idle=20, total_cpu=900, total_wall=5400, start=900, grace=30)
CHECKS = ROOT / "src" / "beyond_accuracy" / "checks"


def _checks_digest():
    return hashlib.sha256(b"".join(p.read_bytes() for p in sorted(CHECKS.glob("*.py")))).hexdigest()


def _graded(tmp_path_factory, lab, lang, misbehaving=False, layouts=False, stopped_only=False):
    dest = tmp_path_factory.mktemp(f"lab{lab}-{lang}")
    tamper = isolation() == "namespaces"  # the checks' source is read-only only in that sandbox
    before = _checks_digest()
    if stopped_only:
        chosen = trial.misbehaving_cases(lab, lang)
    else:
        chosen = trial.cases(lab, lang, misbehaving=misbehaving, layouts=layouts, tamper=tamper)
    expected = trial.write(chosen, dest, lab, lang, system_files=not stopped_only)
    out = dest / "out"
    log = []
    grade_folder(dest / "submissions", lab, lang, out=out, jobs=2, limits=TEST_LIMITS, progress=log.append)
    assert _checks_digest() == before, "a submission changed the checks' source"
    with open(out / "grades.csv", encoding="utf-8") as f:
        rows = {r["file"]: r for r in csv.DictReader(f)}
    return {
        "expected": json.loads(expected.read_text(encoding="utf-8")),
        "expected_path": expected,
        "rows": rows,
        "out": out,
        "log": log,
    }


@pytest.fixture(scope="module")
def grades(tmp_path_factory):
    """Lab 2 in Italian, every shape but the notebooks that misbehave (tests/conftest.py starts the
    tests of "grades", "graded" and "any_class" first)."""
    return _graded(tmp_path_factory, 2, "it", layouts=True)


@pytest.fixture(scope="module")
def grades_stopped(tmp_path_factory):
    """Lab 2 in Italian: the notebooks that loop, wait or kill their kernel, with right answers
    around them (a unit of work of its own: tests/conftest.py's OWN_UNITS)."""
    return _graded(tmp_path_factory, 2, "it", stopped_only=True)


@pytest.fixture(scope="module")
def grades_fi(tmp_path_factory):
    """Lab 4 in Finnish: the cheats, the right answers' shapes, the files that are not notebooks."""
    return _graded(tmp_path_factory, 4, "fi", misbehaving=False, layouts=False)


@pytest.fixture(params=["grades", "grades_fi"])
def graded(request):
    """Each class with the cheats and the right answers' shapes."""
    return request.getfixturevalue(request.param)


@pytest.fixture(params=["grades", "grades_fi", "grades_stopped"])
def any_class(request):
    """Each class."""
    return request.getfixturevalue(request.param)


@pytest.fixture(params=["grades_stopped"])
def stopped(request):
    """The class of notebooks that misbehave (its tests' ids name it: tests/conftest.py's OWN_UNITS)."""
    return request.getfixturevalue(request.param)


@pytest.mark.slow
def test_every_file_gets_exactly_one_row_and_progress_is_printed(any_class):
    assert sorted(any_class["rows"]) == sorted(any_class["expected"]["files"])
    log = any_class["log"]
    assert log[0].startswith("grading lab ") and log[-1].startswith("wrote ")
    assert len([line for line in log if line.startswith("[")]) == len(any_class["rows"])  # one per file


@pytest.mark.slow
def test_every_cheat_gets_no_point_for_its_wrong_answers(graded):
    cheats = {f: e for f, e in graded["expected"]["files"].items() if e["cheat"]}
    assert len(cheats) == 7
    for file in cheats:
        row = graded["rows"][file]
        assert row["total"] == "0", (file, row)


@pytest.mark.slow
def test_right_answers_in_every_shape_get_their_points(graded):
    shapes = [
        "right.ipynb",
        "merged_and_direct.ipynb",
        "odd_forms.ipynb",
        "late_answer_no_check.ipynb",
        "right_copy.IPYNB",
    ]
    for file in shapes:
        row = graded["rows"][file]
        assert row["total"] == row["max_total"], (file, row)


@pytest.mark.slow
def test_each_file_gets_the_statuses_points_flags_and_details_expected(any_class):
    assert trial.compare(any_class["expected_path"], any_class["out"] / "grades.csv") == []


@pytest.mark.slow
def test_feedback_speaks_the_class_language_and_never_gives_an_answer_away(graded):
    lang = graded["expected"]["lang"]
    feedback = graded["out"] / "feedback"
    wrong = (feedback / "wrong.md").read_text(encoding="utf-8")
    assert term("check_not_yet", lang) in wrong and term("hint", lang) in wrong
    everything = "".join(p.read_text(encoding="utf-8") for p in feedback.glob("*.md"))
    for value in ("0.1851", "0.185", "0,185", "0.1023", "0.102"):  # lab 2's expected answers
        assert value not in everything
    assert len(list(feedback.glob("*.html"))) == len(graded["rows"])


@pytest.mark.slow
def test_a_renamed_answer_and_an_error_elsewhere_are_named(grades):
    row = grades["rows"]["renamed_error_language.ipynb"]
    assert "renamed: my_answer" in row["precision_screening_detail"] and row["precision_screening"] == CORRECT
    assert row["tau_star"] == "renamed" and "renamed: result" in row["tau_star_detail"]
    feedback = (grades["out"] / "feedback" / "renamed-error-language.md").read_text(encoding="utf-8")
    assert "`answer_tau_star`" in feedback and "`result`" in feedback
    assert "NameError" in row["reason"]


@pytest.mark.slow
def test_endless_and_dying_notebooks_are_stopped_and_their_later_answers_count(stopped):
    endless = stopped["rows"]["endless.ipynb"]
    assert endless["status"] == "time limit" and endless["total"] == endless["max_total"]
    assert (
        "s di calcolo" in endless["reason"] and "s di attesa" in endless["reason"]
    )  # the two limits, in Italian
    dies = stopped["rows"]["dies.ipynb"]
    assert dies["status"] == "kernel died" and dies["total"] == dies["max_total"]
    assert "Il kernel si è arrestato" in dies["reason"]


@pytest.mark.slow
def test_the_lms_files_name_the_students_of_moodle_and_canvas(grades):
    with open(grades["out"] / "moodle-grades.csv", encoding="utf-8") as f:
        moodle = {r["Full name"]: r for r in csv.DictReader(f)}
    assert moodle["Anna Rossi"]["Identifier"] == "Participant 1234567" and moodle["Anna Rossi"][
        "Grade"
    ] == str(LAB2_TOTAL)
    with open(grades["out"] / "canvas-grades.csv", encoding="utf-8") as f:
        canvas = {r[0]: r for r in csv.reader(f)}
    assert canvas["verdicarla"][1] == "123456"
    summary = (grades["out"] / "summary.md").read_text(encoding="utf-8")
    assert "__MACOSX/._lab.ipynb" in summary and "cheat_inputs.ipynb" in summary


@pytest.mark.slow  # derives lab 2's student notebook and writes a class: make test, not make unit
def test_the_trial_class_is_built_from_the_student_notebook(tmp_path):
    """The suite's files come from tools/editions/derive.py's student notebook, not from copies."""
    dest = tmp_path / "class"
    trial.write(trial.cases(2, "it", misbehaving=False), dest, 2, "it")
    blank = nbformat.read(dest / "submissions" / "blank.ipynb", as_version=4)
    assert nbformat.writes(blank) == nbformat.writes(trial.student(2, "it"))
    expected = json.loads((dest / "expected.json").read_text(encoding="utf-8"))
    assert expected["exercises"] == ["precision_screening", "tau_star", "best_lever"]
    assert {f for f, e in expected["files"].items() if e["cheat"]} == {
        "cheat_engine.ipynb",
        "cheat_files.ipynb",
        "cheat_inputs.ipynb",
        "cheat_fake_check.ipynb",
        "cheat_reads_expected.ipynb",
        "cheat_print_json.ipynb",
        "cheat_reads_key_and_classmates.ipynb",
    }
    with zipfile.ZipFile(io.BytesIO((dest / "submissions" / "handed_in.zip").read_bytes())) as z:
        assert z.namelist() == ["lab.ipynb"]


@pytest.mark.slow
def test_without_a_sandbox_the_judgement_still_happens_outside_the_kernel(grades, tmp_path):
    """Where `unshare` is not allowed (some containers, Ubuntu's restricted user namespaces) the
    kernel runs unsandboxed: a patched engine, print or json still give nothing. (Not the cheat that
    writes files: unsandboxed, it could write the course's own files.)"""
    from tools.teaching.grading.core import Sandbox, grade_file

    folder = grades["out"].parent / "submissions"
    for name, points in (
        ("cheat_engine.ipynb", 0),
        ("cheat_print_json.ipynb", 0),
        ("right.ipynb", LAB2_TOTAL),
    ):
        row = grade_file(folder / name, 2, "it", limits=TEST_LIMITS, sandbox=Sandbox(level="none"))
        assert (row.status, row.total) == ("graded", points), (name, row)
