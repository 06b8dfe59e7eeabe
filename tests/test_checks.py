"""Self-tests of every lab check: right on the solution, wrong on wrong answers, 'not attempted'
on the placeholder, and never printing the expected value."""

import importlib
import pkgutil

import pytest

import beyond_accuracy.checks as checks_pkg
from beyond_accuracy import LANGUAGES, fmt
from beyond_accuracy.checks import BAD_FORM, CORRECT, NOT_ATTEMPTED, NOT_YET, Checker, Exercise

MODULES = [
    importlib.import_module(f"beyond_accuracy.checks.{m.name}")
    for m in pkgutil.iter_modules(checks_pkg.__path__)
    if not m.name.startswith("_")
]
EXERCISES = [(m.__name__.rsplit(".", 1)[1], ex) for m in MODULES for ex in m.check.exercises.values()]


def test_every_lab_has_checks():
    assert MODULES and all(isinstance(m.check, Checker) for m in MODULES)


@pytest.mark.parametrize("lab, ex", EXERCISES, ids=[f"{lab}.{ex.name}" for lab, ex in EXERCISES])
def test_check_accepts_the_solution_and_rejects_wrong_answers(lab, ex):
    assert ex.grade(ex.solve() if ex.kind != "choice" else sorted(ex.solve())[0]) == CORRECT
    assert ex.grade(...) == NOT_ATTEMPTED
    assert ex.wrong_answers(), f"{lab}.{ex.name} has no wrong examples to self-test with"
    for wrong in ex.wrong_answers():
        assert ex.grade(wrong) in (NOT_YET, BAD_FORM), f"{lab}.{ex.name} accepted the wrong answer {wrong!r}"


def rendered(value):
    if isinstance(value, str):
        return {value}
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        out = {repr(value)}
        if isinstance(value, float):
            out |= {fmt(value, d, lang=lang) for d in (2, 3) for lang in LANGUAGES}
        return out
    return {repr(tuple(value)), repr(list(value))}


@pytest.mark.parametrize("lab, ex", EXERCISES, ids=[f"{lab}.{ex.name}" for lab, ex in EXERCISES])
@pytest.mark.parametrize("lang", LANGUAGES)
def test_feedback_is_localised_and_never_reveals_the_answer(lab, ex, lang):
    expected = ex.solve()
    for answer in (*ex.wrong_answers(), ..., "not a valid answer form" if ex.kind != "choice" else 12):
        text = ex.feedback(answer, lang=lang)
        assert text.split()[0] in {"❌", "✏️", "⚠️"}
        values = [expected] if ex.kind != "choice" else []
        for value in values:
            for shown in rendered(value):
                if len(shown) > 1:
                    assert shown not in text, f"{lab}.{ex.name} feedback reveals {shown!r}"
    assert ex.hint[lang] and ex.form[lang]


def test_checker_prints_feedback(capsys):
    ex = Exercise(
        "double",
        solve=lambda: 4,
        kind="number",
        hint=dict.fromkeys(LANGUAGES, "h"),
        form=dict.fromkeys(LANGUAGES, "a number"),
        wrong_examples=(3,),
    )
    check = Checker(ex)
    check.double(4)
    check.double(5)
    check.double(...)
    check.double("four")
    lines = capsys.readouterr().out.splitlines()
    assert [line.split()[0] for line in lines] == ["✅", "❌", "✏️", "⚠️"]
    with pytest.raises(AttributeError, match="no check named"):
        check.triple(3)


def test_exercise_requires_every_language():
    with pytest.raises(ValueError, match="lacks a hint"):
        Exercise("x", solve=lambda: 1, kind="number", hint={"en": "h"}, form=dict.fromkeys(LANGUAGES, "f"))
    with pytest.raises(ValueError, match="unknown kind"):
        Exercise(
            "x",
            solve=lambda: 1,
            kind="essay",
            hint=dict.fromkeys(LANGUAGES, "h"),
            form=dict.fromkeys(LANGUAGES, "f"),
        )
