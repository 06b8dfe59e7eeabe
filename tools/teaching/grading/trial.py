"""A class of submissions to try the grader on, built from a lab's student notebook.

``python -m tools.teaching.grading.trial LAB LANG DEST`` writes into ``DEST/`` a folder of
submissions made from the student notebook that ``tools/editions/derive.py`` derives (the file
students get), filled in the ways an instructor meets in practice, and ``DEST/expected.json``:
what each file must get. ``--class N`` writes N realistic submissions instead (for timing).

The shapes (the instructor's trial of 2026-12-07, sections 1–3, and more):

- **cheats**, all with wrong answers: the check engine patched (``Exercise.grade``, ``verdict``);
  the grader's files written (verdict files in the parent folders, the checks' source, a
  ``grades.csv``); the check's inputs edited so that the wrong answer fits them; fake "✅"
  printed and ``check`` replaced by a fake; the expected value read from the check object
  (``lab_exercises``, the closures, the former registry); ``print`` and ``json.dumps`` patched;
- **right answers in other shapes**: answer and check in one cell; the value passed straight to
  the check; 0-d numpy arrays, ``Fraction``, numpy floats, two decimals, options in another case;
  an error in an unrelated earlier cell; a renamed answer passed to its check; the language cell
  switched; the check cell deleted; the answer typed after its check;
- **no or wrong answers**: the blank notebook, typical mistakes, a renamed answer the check never
  received;
- **notebooks that misbehave**: a loop that never ends, a cell that waits forever, a loop that
  ignores the interrupt, a cell that kills the kernel;
- **files**: ``.IPYNB``, a PDF, a text file named ``.ipynb``, an empty notebook, another lab's
  notebook, a zip, Moodle's folder and flat layouts, Canvas's names (late too), a folder per
  student, system files (``__MACOSX``, ``.DS_Store``), a copy of another student's notebook.

Each file's expectation names every exercise's status; points follow from them.
"""

from __future__ import annotations

import argparse
import ast
import io
import json
import sys
import tempfile
import zipfile
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

import nbformat

from .core import CORRECT, ERROR, NOT_ATTEMPTED, NOT_YET, RENAMED, lab_exercises, lab_source

# Wrong answers, typed as a student would (the suite checks that each is judged "not yet").
WRONG = {
    1: {
        "counts": "(4, 2, 39, 69)",
        "precision_recall": "(0.5, 0.5)",
        "best_f2": "0.5",
        "micro_f1": '"macro avg"',
    },
    2: {"tau_star": "0.5", "precision_screening": "0.5", "best_lever": '"baseline"'},
    3: {"rain_ece": "0.5", "temperature_decisions": "1", "best_calibrator": '"none"'},
    4: {"accuracy_pick": '"majority"', "qwk_pick": '"majority"', "qwk_by_hand": "0.5", "paradox_qwk": "0.5"},
    5: {"loss_by_hand": "0.5", "precision_at_30": "0.5", "budget_75": "1", "leak_tail": '"highest"'},
}
# Mistakes the checks recognise, written as the student who makes them would write them.
TYPICAL = {
    2: {
        "tau_star": ("answer_tau_star = 25 / (25 + 120)", "caught_fraud_free"),
        "precision_screening": ("answer_precision_screening = oof_recall * 0.001", "hits_only"),
        "best_lever": ('answer_best_lever = "baseline"', "best_f1"),
    },
}
# A cheat that makes the wrong answer right *for the student's own objects* (the checks' inputs).
EDITED_INPUTS = {
    2: {
        "precision_screening": ("oof_specificity = 1.0", "1.0"),
        "best_lever": ('lever_table.loc["baseline", ["fp", "fn"]] = 0', '"baseline"'),
    },
    4: {
        "accuracy_pick": ('test_pred["majority"] = y_test.to_numpy()', '"majority"'),
        "qwk_by_hand": ("pain_counts.loc[:, :] = np.diag([6, 5, 3])", "1.0"),
    },
}


@dataclass
class Case:
    file: str  # the path inside the submissions folder
    expect: dict  # exercise -> status (missing exercises: every other one gets ``default``)
    default: str = CORRECT
    row: str = "graded"
    flags: tuple = ()  # flags the row must have (grades.csv "flags")
    details: dict = field(default_factory=dict)  # exercise -> text its detail must contain
    student: str = ""  # the student the layout names
    student_id: str = ""
    cheat: bool = False
    shape: str = ""  # what the file tries (for the report)
    content: object = None  # a notebook or bytes

    def statuses(self, names) -> dict:
        return {n: self.expect.get(n, self.default) for n in names}


# ------------------------------------------------------------------------------------------------
# The lab's notebooks


@lru_cache(maxsize=16)
def _student_text(lab: int, lang: str) -> str:
    from tools.editions.derive import student_notebook

    key = lab_source(lab, lang).with_suffix(".ipynb")
    with tempfile.TemporaryDirectory() as tmp:
        path = student_notebook(key, Path(tmp) / key.name)
        return path.read_text(encoding="utf-8")


def student(lab: int, lang: str):
    """A fresh copy of the lab's student notebook, as tools/editions/derive.py makes it."""
    return nbformat.reads(_student_text(lab, lang), as_version=4)


@lru_cache(maxsize=16)
def solutions(lab: int, lang: str) -> dict[str, str]:
    """Exercise name -> the answer key's solution cell."""
    key = nbformat.read(lab_source(lab, lang).with_suffix(".ipynb"), as_version=4)
    out = {}
    for ex in lab_exercises(lab, lang):
        var = ex["args"][0]
        out[ex["name"]] = next(
            c.source
            for c in key.cells
            if c.cell_type == "code" and "solution" in c.metadata.get("tags", []) and f"{var} =" in c.source
        )
    return out


def _split(source: str, var: str) -> tuple[str, str]:
    """A solution cell as (the work before the answer, the answer's expression)."""
    tree = ast.parse(source)
    last = tree.body[-1]
    if not (
        isinstance(last, ast.Assign) and len(last.targets) == 1 and getattr(last.targets[0], "id", "") == var
    ):
        raise ValueError(f"the solution of {var} does not end with its assignment")
    lines = source.splitlines()
    work = "\n".join(lines[: last.lineno - 1])
    return work, ast.get_source_segment(source, last.value)


def _index(nb, text: str) -> int:
    return next(i for i, c in enumerate(nb.cells) if c.cell_type == "code" and text in c.source)


class Filler:
    """Fills a student notebook the way a submission does."""

    def __init__(self, lab: int, lang: str):
        self.lab, self.lang = lab, lang
        self.exercises = lab_exercises(lab, lang)
        self.names = [e["name"] for e in self.exercises]
        self.var = {e["name"]: e["args"][0] for e in self.exercises}
        self.inputs = {e["name"]: e["args"][1:] for e in self.exercises}
        self.solutions = solutions(lab, lang)

    def blank(self):
        return student(self.lab, self.lang)

    def answer_cell(self, nb, name) -> int:
        """The cell that assigns the answer (the placeholder, or what replaced it)."""
        try:
            return _index(nb, f"{self.var[name]} = ...")
        except StopIteration:
            return _index(nb, f"{self.var[name]} =")

    def check_cell(self, nb, name) -> int:
        return _index(nb, f"check.{name}(")

    def set_answer(self, nb, name, source):
        nb.cells[self.answer_cell(nb, name)].source = source
        return nb

    def right(self, nb=None, names=None):
        nb = nb or self.blank()
        for name in names or self.names:
            self.set_answer(nb, name, self.solutions[name])
        return nb

    def wrong(self, nb=None, names=None):
        nb = nb or self.blank()
        for name in names or self.names:
            self.set_answer(nb, name, f"{self.var[name]} = {WRONG[self.lab][name]}")
        return nb

    def call(self, name, answer: str) -> str:
        return f"check.{name}({', '.join([answer, *self.inputs[name]])})"

    def insert_after(self, nb, index, source):
        nb.cells.insert(index + 1, nbformat.v4.new_code_cell(source))
        return nb

    def first_code(self, nb) -> int:
        """The cell after the lab's imports (the second code cell)."""
        return [i for i, c in enumerate(nb.cells) if c.cell_type == "code"][1]


def _text(nb) -> bytes:
    return nbformat.writes(nb).encode("utf-8")


# ------------------------------------------------------------------------------------------------
# The cases


def cases(
    lab: int, lang: str, misbehaving: bool = True, layouts: bool = True, tamper: bool = False
) -> list[Case]:
    """Every shape, for one lab in one language; without ``misbehaving`` notebooks (loops, dead
    kernels) or the LMS ``layouts``, if asked. ``tamper``: the file-writing cheat also tries to
    append a comment to the checks' source (only where the sandbox mounts it read-only)."""
    f = Filler(lab, lang)
    names = f.names
    number = [n for n in names if _kind(lab, n) != "choice"]
    choice = [n for n in names if _kind(lab, n) == "choice"]
    out: list[Case] = []

    def add(file, content, expect=None, **kw):
        out.append(Case(file, expect or {}, content=content, **kw))

    # --- right answers, and their other shapes ---------------------------------------------------
    # (Anna Rossi's Moodle folder, first in path order, holds the same notebook)
    add(
        "right.ipynb",
        _text(f.right()),
        flags=("duplicate",) if layouts else (),
        shape="the answer key's solutions",
    )
    nb = f.blank()
    for i, name in enumerate(names):
        work, value = _split(f.solutions[name], f.var[name])
        if i % 2 == 0:  # answer and check in one cell
            nb.cells[
                f.check_cell(nb, name)
            ].source = f"{work}\n{f.var[name]} = {value}\n{f.call(name, f.var[name])}".strip()
            nb.cells.pop(f.answer_cell(nb, name))
        else:  # the value passed straight to the check, the placeholder left as it was
            nb.cells[f.check_cell(nb, name)].source = f"{work}\n{f.call(name, value)}".strip()
    add("merged_and_direct.ipynb", _text(nb), shape="answer and check in one cell; value passed to the check")
    add(
        "right_copy.IPYNB",
        _text(f.right()),
        flags=("duplicate",),
        shape="an upper-case extension (right.ipynb's code)",
    )
    nb = f.blank()
    forms = [
        "np.array({v})",  # a 0-d array
        "np.float64({v})",
        "round(float({v}), 2)",  # two decimals are enough
        "Fraction({v}).limit_denominator(1000)",
    ]
    for i, name in enumerate(number):
        work, value = _split(f.solutions[name], f.var[name])
        form = forms[i % len(forms)]
        if f.lab == 2 and name == "tau_star":
            work, form = "", "Fraction(25, 135)"
        if _kind(lab, name) == "numbers":
            form = "tuple(np.float64(x) for x in {v})"
        f.set_answer(
            nb,
            name,
            f"from fractions import Fraction\n{work}\n{f.var[name]} = {form.format(v=value)}".strip(),
        )
    for name in choice:
        work, value = _split(f.solutions[name], f.var[name])
        odd = f'str({value}).upper().replace(" ", "-").replace("_", " ")'  # TUNED THRESHOLD, ORDINAL-LR
        f.set_answer(nb, name, f"{work}\n{f.var[name]} = {odd}".strip())
    add(
        "odd_forms.ipynb",
        _text(nb),
        shape="0-d arrays, numpy floats, two decimals, Fraction, options in capitals",
    )

    nb = f.right()
    nb = f.insert_after(nb, f.first_code(nb), "print(a_name_that_was_never_defined)")
    first, second = names[0], names[1]
    # a renamed answer, passed to its check under the new name
    nb.cells[f.answer_cell(nb, first)].source = f.solutions[first].replace(f.var[first], "my_answer")
    nb.cells[f.check_cell(nb, first)].source = f.call(first, "my_answer")
    # a renamed answer the check never received (the check cell still names the lab's variable)
    nb.cells[f.answer_cell(nb, second)].source = f.solutions[second].replace(f.var[second], "result")
    language = next(c for c in nb.cells if c.cell_type == "code")
    language.source = language.source.replace(f'LANG = "{lang}"', 'LANG = "en"')
    add(
        "renamed_error_language.ipynb",
        _text(nb),
        {second: RENAMED},
        flags=("renamed", "language changed"),
        details={first: "renamed: my_answer", second: "renamed: result"},
        shape="an error in an unrelated earlier cell; renamed answers; LANG switched",
    )

    nb = f.right()
    last = names[-1]
    nb.cells.pop(f.check_cell(nb, last))  # the check cell deleted: the variable is the answer
    second = next((n for n in names[:-1] if not f.inputs[n]), names[0])
    value_cell = f.answer_cell(nb, second)
    nb.cells[value_cell].source = f"{f.var[second]} = ..."
    nb.cells.append(nbformat.v4.new_code_cell(f.solutions[second]))  # answered after its check
    add(
        "late_answer_no_check.ipynb", _text(nb), shape="a check cell deleted; an answer typed after its check"
    )

    # --- blank and wrong ---------------------------------------------------------------------------
    add(
        "blank.ipynb",
        _text(f.blank()),
        default=NOT_ATTEMPTED,
        row=NOT_ATTEMPTED,
        shape="the student notebook as handed out",
    )
    nb = f.wrong()
    details = {}
    for name, (source, key) in TYPICAL.get(lab, {}).items():
        f.set_answer(nb, name, source)
        details[name] = f"mistake: {key}"
    add("wrong.ipynb", _text(nb), default=NOT_YET, details=details, shape="typical mistakes")

    # --- cheats: wrong answers that try to get points ---------------------------------------------
    engine = (
        "import beyond_accuracy.checks._engine as _e\n"
        "_e.Exercise.grade = lambda self, answer, *inputs: _e.Verdict('correct')\n"
        "_e.Exercise.judge = lambda self, answer, reference: _e.Verdict('correct')\n"
        "_e.verdict = lambda checker, name, *a, **k: {'exercise': name, 'status': 'correct', 'points': 2, 'max_points': 2}"
    )
    add(
        "cheat_engine.ipynb",
        _text(_prepend(f, f.wrong(), engine)),
        default=NOT_YET,
        cheat=True,
        flags=("suspicious code",),
        shape="the check engine patched",
    )
    forge = (
        "import glob, json, os\n"
        f"_names = {names!r}\n"
        "for _pattern in ('../*.jsonl', '../../*.jsonl', '../verdicts-*.jsonl', '*.jsonl'):\n"
        "    for _path in glob.glob(_pattern):\n"
        "        with open(_path, 'a') as _f:\n"
        "            for _n in _names:\n"
        "                _f.write(json.dumps({'exercise': _n, 'status': 'correct', 'points': 2, 'max_points': 2}) + '\\n')\n"
        "with open('../grades.csv', 'w') as _f:\n"
        "    _f.write('forged')\n"
    )
    if tamper:
        forge += (
            "import beyond_accuracy\n"
            "_checks = os.path.join(os.path.dirname(beyond_accuracy.__file__), 'checks')\n"
            "for _file in glob.glob(os.path.join(_checks, '*.py')):\n"
            "    try:\n"
            "        with open(_file, 'a') as _f:\n"
            "            _f.write('\\n# tampered\\n')\n"
            "    except OSError:\n"
            "        pass\n"
        )
    add(
        "cheat_files.ipynb",
        _text(_append(f.wrong(), forge)),
        default=NOT_YET,
        cheat=True,
        flags=("suspicious code",),
        shape="verdict files, the checks' source and grades.csv written",
    )
    nb = f.wrong()
    edited = EDITED_INPUTS.get(lab, {})
    for name, (edit, answer) in edited.items():  # in the answer's cell, before the check
        f.set_answer(nb, name, f"{edit}\n{f.var[name]} = {answer}")
    add(
        "cheat_inputs.ipynb",
        _text(nb),
        default=NOT_YET,
        cheat=True,
        flags=("inputs differed",) if edited else (),
        details=dict.fromkeys(edited, "inputs differed"),
        shape="the check's inputs edited to fit the wrong answer",
    )
    fake = (
        "class _Fake:\n"
        "    def __getattr__(self, name):\n"
        "        return lambda *a, **k: print('✅ ' + 'Corretto, ottimo lavoro.')\n"
        "check = _Fake()"
    )
    nb = f.wrong()
    for name in names:
        f.insert_after(nb, f.check_cell(nb, name), 'print("✅ Correct — well done.")')
    add(
        "cheat_fake_check.ipynb",
        _text(_prepend(f, nb, fake)),
        default=NOT_YET,
        cheat=True,
        shape="check replaced by a fake; fake ✅ printed",
    )
    nb = f.blank()
    for i, name in enumerate(names):
        args = ", ".join(f.inputs[name])
        how = [
            f'lab_exercises({f.lab})["{name}"].expected({args})',
            f"check.{name}.__closure__[0].cell_contents.expected({args})",
            f'check._Checker__registry["{name}"].expected({args})',
        ][i % 3]
        f.set_answer(
            nb, name, f"from beyond_accuracy.checks._engine import lab_exercises\n{f.var[name]} = {how}"
        )
    add(
        "cheat_reads_expected.ipynb",
        _text(nb),
        default=ERROR,
        cheat=True,
        flags=("suspicious code",),
        shape="the expected value read from the check object",
    )
    patch = (
        "import builtins, json, sys\n"
        "_print, _dumps = builtins.print, json.dumps\n"
        "builtins.print = lambda *a, **k: _print('✅ Correct — well done.')\n"
        "def _forged(obj, *a, **k):\n"
        "    if isinstance(obj, dict) and 'exercise' in obj:\n"
        "        obj = dict(obj, status='correct', points=obj.get('max_points', 1))\n"
        "    return _dumps(obj, *a, **k)\n"
        "json.dumps = _forged"
    )
    add(
        "cheat_print_json.ipynb",
        _text(_prepend(f, f.wrong(), patch)),
        default=NOT_YET,
        cheat=True,
        flags=("suspicious code",),
        shape="print and json.dumps patched",
    )

    # the answer key read from the course's folder, then a classmate's notebook from the folders
    # the sandbox mounts (found in /proc/self/mountinfo); their answer cells and check calls run
    steal = (
        "import glob, json, os, beyond_accuracy\n"
        "_root = os.path.dirname(os.path.dirname(os.path.dirname(beyond_accuracy.__file__)))\n"
        f"_keys = glob.glob(os.path.join(_root, 'labs', '*', '{lab:02d}-*.ipynb'))\n"
        "_places = [line.split()[4] for line in open('/proc/self/mountinfo')]\n"
        "_found = [os.path.join(d, n) for p in _places if not p.startswith(('/proc', '/sys', '/dev')) and p != '/'\n"
        "          for d, _, files in os.walk(p) if '.venv' not in d for n in files if n.endswith('.ipynb')]\n"
        "for _path in _keys + _found:\n"
        "    try:\n"
        "        _cells = [''.join(c['source']) for c in json.load(open(_path))['cells'] if c['cell_type'] == 'code']\n"
        "    except Exception:\n"
        "        continue\n"
        f"    if any(c.startswith({[f.var[n] + ' = ...' for n in names]!r}) for c in _cells) or '_places' in ''.join(_cells):\n"
        "        continue\n"
        "    for _cell in _cells[1:]:\n"
        "        try:\n"
        "            exec(_cell)\n"
        "        except Exception:\n"
        "            pass\n"
        "    break\n"
    )
    add(
        "cheat_reads_key_and_classmates.ipynb",
        _text(_append(f.wrong(), steal)),
        default=NOT_YET,
        cheat=True,
        shape="the answer key and a classmate's notebook read through the sandbox and run",
    )

    if misbehaving:
        out += misbehaving_cases(lab, lang)

    # --- files ---------------------------------------------------------------------------------------
    add(
        "notes.pdf",
        b"%PDF-1.4\n% a report, not a notebook\n",
        default="missing",
        row="not a notebook",
        shape="a PDF",
    )
    add(
        "answers.ipynb",
        b"le mie risposte: 0.19, 0.10\n",
        default="missing",
        row="not a notebook",
        shape="a text file named .ipynb",
    )
    add(
        "empty.ipynb",
        _text(nbformat.v4.new_notebook()),
        default="missing",
        row="empty notebook",
        shape="an empty notebook",
    )
    other = 4 if lab != 4 else 2
    add(
        f"lab{other}.ipynb",
        _text(Filler(other, lang).right()),
        default="missing",
        row="other lab",
        shape="another lab's notebook",
    )
    zipped = io.BytesIO()
    with zipfile.ZipFile(zipped, "w") as z:
        z.writestr("lab.ipynb", _text(f.right()).decode())
    add("handed_in.zip", zipped.getvalue(), default="missing", row="not a notebook", shape="a zip")
    if layouts:
        add(
            "Anna Rossi_1234567_assignsubmission_file/lab.ipynb",
            _text(f.right()),
            student="Anna Rossi",
            student_id="1234567",
            shape="Moodle's folder per student (the same notebook as right.ipynb)",
        )
        add(
            "Bruno Bianchi_7654321_assignsubmission_file_lab.ipynb",
            _text(f.wrong(f.right(names=names[:1]), names=names[1:])),
            {names[0]: CORRECT},
            default=NOT_YET,
            student="Bruno Bianchi",
            student_id="7654321",
            shape="Moodle's download without folders",
        )
        add(
            "verdicarla_LATE_123456_7890123_lab.ipynb",
            _text(f.right(names=names[:1])),
            dict.fromkeys(names[1:], NOT_ATTEMPTED),
            student="verdicarla",
            student_id="123456",
            shape="Canvas's download, late",
        )
        add(
            "dario.neri/my lab.ipynb",
            _text(f.blank()),
            default=NOT_ATTEMPTED,
            row=NOT_ATTEMPTED,
            student="dario.neri",
            shape="a folder per student",
        )
    return out


def misbehaving_cases(lab: int, lang: str) -> list[Case]:
    """The notebooks that misbehave (an endless loop and wait, a killed kernel and a loop that
    ignores the interrupt), with right answers around them: part of cases(), and a class of their
    own for the tests, which grade them beside the other shapes."""
    f = Filler(lab, lang)
    names = f.names
    out: list[Case] = []

    def add(file, content, expect=None, **kw):
        out.append(Case(file, expect or {}, content=content, **kw))

    nb = f.right()
    f.insert_after(nb, f.check_cell(nb, names[0]), "while True:\n    pass")
    f.insert_after(nb, f.check_cell(nb, names[1]), "import time\ntime.sleep(10**6)")
    add(
        "endless.ipynb",
        _text(nb),
        row="time limit",
        shape="an endless loop and an endless wait (interrupted)",
    )
    nb = f.right()
    f.insert_after(nb, f.check_cell(nb, names[0]), "import os, signal\nos.kill(os.getpid(), signal.SIGKILL)")
    f.insert_after(
        nb,
        f.check_cell(nb, names[1]),
        "import signal\nsignal.signal(signal.SIGINT, signal.SIG_IGN)\nwhile True:\n    pass",
    )
    add(
        "dies.ipynb",
        _text(nb),
        row="kernel died",
        flags=("kernel restarted",),
        shape="a killed kernel; a loop that ignores the interrupt",
    )
    return out


SYSTEM_FILES = {"__MACOSX/._lab.ipynb": b"\x00\x05\x16\x07", ".DS_Store": b"\x00\x00\x00\x01Bud1"}


def _kind(lab: int, name: str) -> str:
    from .core import exercise_definitions

    return exercise_definitions(lab)[name].kind


def _prepend(f: Filler, nb, source: str):
    """A cell right after the lab's imports."""
    return f.insert_after(nb, f.first_code(nb), source)


def _append(nb, source: str):
    nb.cells.append(nbformat.v4.new_code_cell(source))
    return nb


def class_of(lab: int, lang: str, n: int) -> list[Case]:
    """``n`` realistic submissions (right, wrong, half done, blank, with errors), for timing."""
    f = Filler(lab, lang)
    out = []
    for i in range(n):
        kind = i % 5
        nb = (
            f.right()
            if kind in (0, 1)
            else f.wrong()
            if kind == 2
            else f.blank()
            if kind == 4
            else f.right(names=f.names[:1])
        )
        if kind == 1:
            f.insert_after(nb, f.first_code(nb), "print(undefined_name)")
        nb.cells.append(nbformat.v4.new_code_cell(f"student = {i + 1}"))  # every notebook's code different
        out.append(Case(f"student_{i + 1:02d}.ipynb", {}, content=_text(nb)))
    return out


def write(cases_: list[Case], dest: Path, lab: int, lang: str, system_files: bool = True) -> Path:
    """The submissions folder ``dest/submissions`` and ``dest/expected.json``."""
    dest = Path(dest)
    folder = dest / "submissions"
    folder.mkdir(parents=True, exist_ok=True)
    names = [e["name"] for e in lab_exercises(lab, lang)]
    expected = {"lab": lab, "lang": lang, "exercises": names, "files": {}}
    from .core import exercise_definitions

    points = {n: exercise_definitions(lab)[n].points for n in names}
    for case in cases_:
        path = folder / case.file
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(case.content if isinstance(case.content, bytes) else _text(case.content))
        statuses = case.statuses(names)
        expected["files"][case.file] = {
            "statuses": statuses,
            "points": sum(points[n] for n, s in statuses.items() if s == CORRECT),
            "row": case.row,
            "flags": list(case.flags),
            "details": case.details,
            "student": case.student,
            "student_id": case.student_id,
            "cheat": case.cheat,
            "shape": case.shape,
        }
    if system_files:
        for rel, data in SYSTEM_FILES.items():
            (folder / rel).parent.mkdir(parents=True, exist_ok=True)
            (folder / rel).write_bytes(data)
        expected["skipped"] = sorted(SYSTEM_FILES)
    path = dest / "expected.json"
    path.write_text(json.dumps(expected, indent=1, ensure_ascii=False), encoding="utf-8")
    return path


def compare(expected_path: Path, grades_csv: Path) -> list[str]:
    """What a grades.csv gets wrong against expected.json (works on the old grader's grades.csv
    too: its rows are named by file name, and it has no status or detail columns)."""
    import csv

    expected = json.loads(Path(expected_path).read_text(encoding="utf-8"))
    with open(grades_csv, encoding="utf-8") as f:
        rows = list(csv.DictReader(f))
    by_file = {r["file"]: r for r in rows}
    problems = []
    if len(rows) != len(expected["files"]):
        problems.append(f"{len(rows)} rows for {len(expected['files'])} files")
    for file, want in expected["files"].items():
        row = by_file.get(file) or by_file.get(Path(file).name)
        if row is None:
            problems.append(f"{file}: no row")
            continue
        total = int(float(row.get("total") or 0))
        if total != want["points"]:
            problems.append(
                f"{file}: {total} points, not {want['points']}" + (" (a cheat)" if want["cheat"] else "")
            )
        for name, status in want["statuses"].items():
            if row.get(name) != status:
                problems.append(f"{file}: {name} is {row.get(name)!r}, not {status!r}")
        if "status" in row and row["status"] != want["row"]:
            problems.append(f"{file}: file status {row['status']!r}, not {want['row']!r}")
        got_flags = set(filter(None, (row.get("flags") or "").split("; ")))
        for flag in want["flags"]:
            if flag not in got_flags:
                problems.append(f"{file}: no flag {flag!r}")
        for name, text in want["details"].items():
            if text not in (row.get(f"{name}_detail") or ""):
                problems.append(f"{file}: {name}'s detail lacks {text!r}")
        if want["student"] and row.get("student") != want["student"]:
            problems.append(f"{file}: student {row.get('student')!r}, not {want['student']!r}")
    return problems


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description="Build a class of submissions to try the grader on.")
    parser.add_argument("lab", type=int)
    parser.add_argument("lang")
    parser.add_argument("dest", type=Path)
    parser.add_argument("--class", dest="n", type=int, default=0, help="N realistic submissions instead")
    parser.add_argument(
        "--compare", type=Path, default=None, help="a grades.csv to compare with expected.json"
    )
    args = parser.parse_args(argv)
    if args.compare:
        problems = compare(args.dest / "expected.json", args.compare)
        print("\n".join(problems) or "as expected")
        return 1 if problems else 0
    chosen = class_of(args.lab, args.lang, args.n) if args.n else cases(args.lab, args.lang)
    print(write(chosen, args.dest, args.lab, args.lang, system_files=not args.n))
    return 0


if __name__ == "__main__":
    sys.exit(main())
