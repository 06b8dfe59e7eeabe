"""Self-tests of the labs' checks and of their engine.

Expected answers come from an independent source: small inputs typed here whose answer is worked
out by hand in a comment, or a computation with another library call. Answers are written as a
student would type them: right, wrong (the plausible mistakes) and malformed (``()``, a short
tuple, NaN, a string, a percentage, a decimal comma). The answer keys' own check cells are
re-checked by nbval and by tests/test_grading.py."""

import math

import numpy as np
import pandas as pd
import pytest

from beyond_accuracy import LANGUAGES, fmt, term
from beyond_accuracy.checks import lab1, lab2, lab3, lab4, lab5
from beyond_accuracy.checks._engine import (
    BAD_FORM,
    CORRECT,
    NOT_ATTEMPTED,
    NOT_YET,
    Checker,
    Exercise,
    Mistake,
    lab_exercises,
    verdict,
)


def texts(*five: str) -> dict[str, str]:
    """One made-up sentence per language, in the order of LANGUAGES (the labs' own texts are in
    the catalogue)."""
    return dict(zip(LANGUAGES, five))


H = texts("h", "h", "h", "h", "h")


def ex(**kw):
    base = {"name": "x", "kind": "number", "expected": lambda: 0.25, "hint": H, "skill": H}
    return Exercise(**{**base, **kw})


# --- the engine, one answer kind at a time ---------------------------------------------------------


def test_number_kind():
    e = ex(decimals=2, proportion=True)
    assert e.grade(0.25).status == CORRECT
    assert e.grade(0.254).status == CORRECT
    assert e.grade(0.256).status == NOT_YET
    assert e.grade(...).status == NOT_ATTEMPTED
    assert e.grade(25) == (BAD_FORM, "percentage", None)
    assert e.grade(250).reason == "range"
    assert e.grade(-0.1).reason == "range"
    assert e.grade((0, 25)).reason == "comma"  # answer = 0,25
    assert e.grade(float("nan")).reason == "type"
    assert e.grade("0.25").reason == "type"
    assert e.grade(True).reason == "type"
    assert e.grade(np.float64(0.25)).status == CORRECT
    assert e.grade(np.float32(0.25)).status == CORRECT and e.grade(1 / 4).status == CORRECT
    assert e.grade(0).status == NOT_YET and e.grade(1).status == NOT_YET  # whole numbers are numbers
    assert e.grade(None).reason == "type" and e.grade(()).reason == "type"
    assert e.grade([0.25]).status == CORRECT and e.grade([0.25, 0.5]).reason == "type"
    assert e.grade(float("inf")).reason == "type"


def test_numbers_kind_checks_length_and_every_element():
    e = ex(kind="numbers", size=2, order="(a, b)", expected=lambda: (0.5, 0.75), decimals=2, proportion=True)
    assert e.grade((0.5, 0.75)).status == CORRECT
    assert e.grade([0.5, 0.75]).status == CORRECT
    assert e.grade(np.array([0.5, 0.75])).status == CORRECT
    assert e.grade((0.5, 0.8)).status == NOT_YET
    assert e.grade((0.75, 0.5)).status == NOT_YET
    assert e.grade(()).reason == "length"
    assert e.grade((0.5,)).reason == "length"
    assert e.grade((0.5, 0.75, 0.1)).reason == "length"
    assert e.grade((0, 5, 0, 75)).reason == "comma"  # (0,5, 0,75)
    assert e.grade((0.5, float("nan"))).reason == "type"
    assert e.grade("0.5, 0.75").reason == "type"
    assert e.grade((50, 75)).reason == "percentage"
    assert e.grade((0.5, ...)).status == NOT_ATTEMPTED
    assert e.grade({0.5, 0.75}).reason == "type"


def test_whole_numbers():
    e = ex(kind="numbers", size=4, whole=True, order="(tp, fp, fn, tn)", expected=lambda: (7, 2, 3, 8))
    assert e.grade((7, 2, 3, 8)).status == CORRECT
    assert e.grade((7.0, 2.0, 3.0, 8.0)).status == CORRECT
    assert e.grade((7, 2, 3)).reason == "length"
    assert e.grade((7.5, 2, 3, 8)).reason == "whole"
    assert e.grade((8, 3, 2, 7)).status == NOT_YET
    one = ex(whole=True, expected=lambda: 12)
    assert one.grade(12).status == CORRECT and one.grade(13).status == NOT_YET
    assert one.grade(np.int64(12)).status == CORRECT and one.grade(12.0).status == CORRECT
    assert one.grade(12.5).reason == "whole" and one.grade("12").reason == "type"
    assert one.grade((1, 2)).reason == "type"  # a whole number has no decimal comma to misread
    assert one.grade(-1).reason == "range"


def test_choice_kind():
    e = ex(kind="choice", options=("top", "bottom", "neither"), expected=lambda: "bottom")
    assert e.grade("bottom").status == CORRECT
    assert e.grade("  Bottom ").status == CORRECT
    assert e.grade("top").status == NOT_YET
    assert e.grade("the bottom").reason == "option"
    assert e.grade(1).reason == "type"
    several = ex(kind="choice", options=("a", "b", "c"), expected=lambda: ("a", "b"))
    assert several.grade("b").status == CORRECT and several.grade("c").status == NOT_YET


def test_mistakes_get_their_own_hint_and_never_the_answer():
    hint = texts("swapped", "scambiati", "intercambiados", "trocados", "vaihdettu")
    e = ex(
        kind="numbers",
        size=2,
        order="(a, b)",
        expected=lambda a, b: (a, b),
        mistakes=(Mistake("swapped", lambda a, b: (b, a), hint=hint),),
    )
    assert e.grade((0.2, 0.1), 0.1, 0.2) == (NOT_YET, None, "swapped")
    assert e.grade((0.3, 0.1), 0.1, 0.2) == (NOT_YET, None, None)
    for lang in LANGUAGES:
        assert e.feedback((0.2, 0.1), 0.1, 0.2, lang=lang).endswith(hint[lang])


def test_a_decimal_comma_gets_the_decimal_point_sentence():
    e = ex(kind="numbers", size=2, order="(p, r)", expected=lambda: (0.95, 0.91))
    italian = e.feedback((0, 95, 0, 91), lang="it")  # (0,95, 0,91)
    assert italian.startswith("⚠️") and "0.35, non 0,35" in italian and "virgola" in italian
    for lang in LANGUAGES:
        assert term("check_decimal_point", lang) in e.feedback((0, 95, 0, 91), lang=lang)


def test_checker_hides_the_exercises():
    e = ex()
    check = Checker(e)
    assert dir(check) == ["x"]
    assert not [a for a in dir(check) if "exercise" in a or "solve" in a]
    with pytest.raises(AttributeError, match="no check named"):
        check.exercises  # noqa: B018
    with pytest.raises(AttributeError, match="cannot be changed"):
        check.x = None
    assert verdict(check, "x", 0.25)["status"] == CORRECT
    with pytest.raises(ValueError, match="no exercise named"):
        verdict(check, "y", 0.25)


def test_checker_prints_feedback(capsys):
    check = Checker(ex())
    for answer in (0.25, 0.3, ..., "four"):
        check.x(answer)
    assert [line.split()[0] for line in capsys.readouterr().out.splitlines()] == ["✅", "❌", "✏️", "⚠️"]


def test_exercise_validates_its_definition():
    with pytest.raises(ValueError, match="lacks a hint"):
        ex(hint={"en": "h"})
    with pytest.raises(ValueError, match="unknown kind"):
        ex(kind="essay")
    with pytest.raises(ValueError, match="size of at least 2"):
        ex(kind="numbers")
    with pytest.raises(ValueError, match="at least two options"):
        ex(kind="choice", options=("a",))


# --- the labs' checks, on typed inputs with hand-worked answers ------------------------------------


def grade(module, name, answer, *inputs):
    return verdict(module.check, name, answer, *inputs)


def test_lab1_counts_precision_recall_and_f2():
    # 7 biopsies; threshold 0.37 flags p >= 0.37: TP = 2 (0.9, 0.37), FP = 1 (0.5), FN = 1 (0.1), TN = 3
    y = pd.Series([1, 1, 1, 0, 0, 0, 0])
    p = np.array([0.9, 0.37, 0.1, 0.5, 0.2, 0.05, 0.01])
    assert grade(lab1, "counts", (2, 1, 1, 3), y, p)["status"] == CORRECT
    assert grade(lab1, "counts", (2, 1, 1, 3.0), y, p)["status"] == CORRECT
    assert grade(lab1, "counts", (2, 1, 1, 3), y, p)["points"] == 2
    assert grade(lab1, "counts", (3, 1, 1, 2), y, p)["mistake"] == "sklearn_order"
    assert grade(lab1, "counts", (2, 1, 1, 3), y, p + 0.2)["status"] == NOT_YET  # other inputs, other answer
    assert grade(lab1, "counts", (), y, p)["reason"] == "length"
    assert grade(lab1, "counts", (2, 1), y, p)["reason"] == "length"
    assert grade(lab1, "counts", ..., y, p)["status"] == NOT_ATTEMPTED
    # precision 2/3, recall 2/3; typed by hand with two decimals
    assert grade(lab1, "precision_recall", (0.67, 0.67), y, p)["status"] == CORRECT
    assert grade(lab1, "precision_recall", (66.67, 66.67), y, p)["reason"] == "percentage"
    assert grade(lab1, "precision_recall", (0.5, 0.67), y, p)["mistake"] == "precision_with_fn"  # 2/4
    # F2 by hand on the thresholds 0.3 and 0.6: at 0.3 (TP 2, FP 1, FN 1) F2 = 10/15; at 0.6 (TP 1, FN 2) 5/13
    assert grade(lab1, "best_f2", 0.3, y, p, [0.3, 0.6])["status"] == CORRECT
    assert grade(lab1, "best_f2", 0.6, y, p, [0.3, 0.6])["status"] == NOT_YET
    assert grade(lab1, "best_f2", 30, y, p, [0.3, 0.6])["reason"] == "percentage"


def test_lab1_answers_as_a_student_types_them():
    # 8 biopsies at 0.37: flagged 0.9, 0.37 (sick), 0.5, 0.4 (healthy); missed 0.1:
    # TP 2, FP 2, FN 1, TN 3, precision 2/4, recall 2/3; at 0.5 TP 1, FP 1, FN 2, TN 4
    y = pd.Series([1, 1, 1, 0, 0, 0, 0, 0])
    p = np.array([0.9, 0.37, 0.1, 0.5, 0.4, 0.05, 0.01, 0.02])
    from sklearn.metrics import confusion_matrix

    tn, fp, fn, tp = confusion_matrix(y, p >= 0.37).ravel()  # numpy integers, as a student gets them
    right = [(2, 2, 1, 3), [2, 2, 1, 3], (2.0, 2.0, 1.0, 3.0), np.array([2, 2, 1, 3]), (tp, fp, fn, tn)]
    for answer in right:
        assert grade(lab1, "counts", answer, y, p)["status"] == CORRECT, answer
    assert grade(lab1, "counts", confusion_matrix(y, p >= 0.37).ravel(), y, p)["mistake"] == "sklearn_order"
    assert grade(lab1, "counts", (2, 1, 2, 3), y, p)["mistake"] == "fp_fn_swapped"
    assert grade(lab1, "counts", (1, 1, 2, 4), y, p)["mistake"] == "default_threshold"
    assert grade(lab1, "counts", (2, 2, 1, 4), y, p)["status"] == NOT_YET
    malformed = [
        ((), "length"),
        ((2,), "length"),
        ((2, 2), "length"),
        ((2, 2, 1), "length"),
        ((2, 2, 1, 3, 8), "length"),
        ("2, 2, 1, 3", "type"),
        ((2, 2, 1, float("nan")), "type"),
        ((2, 2, 1, "3"), "type"),
        ((2.5, 2, 1, 3), "whole"),
        ((2, -2, 1, 3), "range"),
        (np.array([[2, 2], [1, 3]]), "type"),
        ({2, 1, 3}, "type"),
    ]
    for answer, reason in malformed:
        verdict_ = grade(lab1, "counts", answer, y, p)
        assert (verdict_["status"], verdict_["reason"]) == (BAD_FORM, reason), answer
    assert grade(lab1, "counts", (2, 2, ..., 3), y, p)["status"] == NOT_ATTEMPTED
    pr_right = [
        (0.5, 0.67),
        (0.5, 2 / 3),
        [np.float32(0.5), np.float64(0.667)],
        (tp / (tp + fp), tp / (tp + fn)),
    ]
    for answer in pr_right:
        assert grade(lab1, "precision_recall", answer, y, p)["status"] == CORRECT, answer
    assert grade(lab1, "precision_recall", (0.67, 0.5), y, p)["mistake"] == "swapped"
    assert grade(lab1, "precision_recall", (0.4, 0.67), y, p)["mistake"] == "precision_with_fn"  # 2/5
    assert grade(lab1, "precision_recall", (0.5, 0.33), y, p)["mistake"] == "default_threshold"
    assert grade(lab1, "precision_recall", (0.5, 0.66), y, p)["status"] == CORRECT  # 2/3 truncated
    assert grade(lab1, "precision_recall", (0.5, 0.65), y, p)["status"] == NOT_YET  # 0.017 off
    for answer, reason in [
        ((50, 66.7), "percentage"),
        ((0, 5, 0, 67), "comma"),
        ((0.5,), "length"),
        ((), "length"),
    ]:
        assert grade(lab1, "precision_recall", answer, y, p)["reason"] == reason, answer
    # F2 on the sweep 0.3, 0.35, 0.5: 0.3 and 0.35 flag the same four (tied, the lowest counts); at 0.5, 5/14
    sweep = [0.3, 0.35, 0.5]
    assert grade(lab1, "best_f2", 0.3, y, p, sweep)["status"] == CORRECT
    assert grade(lab1, "best_f2", np.float64(0.3), y, p, sweep)["status"] == CORRECT
    assert grade(lab1, "best_f2", 0.35, y, p, sweep)["mistake"] == "highest_tie"
    assert grade(lab1, "best_f2", 0.5, y, p, sweep)["mistake"] == "default_threshold"
    assert grade(lab1, "best_f2", (0, 3), y, p, sweep)["reason"] == "comma"
    assert grade(lab1, "best_f2", "0.3", y, p, sweep)["reason"] == "type"


def test_lab1_micro_f1_is_the_accuracy_row():
    y_true = np.array([0, 0, 0, 0, 1, 1, 2, 2, 2, 2])
    y_pred = np.array([0, 0, 0, 1, 1, 2, 2, 2, 2, 0])
    assert grade(lab1, "micro_f1", "accuracy", y_true, y_pred)["status"] == CORRECT
    assert grade(lab1, "micro_f1", "macro avg", y_true, y_pred)["mistake"] == "macro"
    assert grade(lab1, "micro_f1", "micro avg", y_true, y_pred)["reason"] == "option"


def test_lab2_exercises():
    # tau* = (25 - 0) / ((25 - 0) + (120 - 10)) = 25 / 135
    assert grade(lab2, "tau_star", 25 / 135)["status"] == CORRECT
    assert grade(lab2, "tau_star", 0.19)["status"] == CORRECT  # by hand, two decimals
    assert grade(lab2, "tau_star", 18.52)["reason"] == "percentage"
    assert grade(lab2, "tau_star", 1 - 25 / 135)["mistake"] == "complement"
    assert grade(lab2, "tau_star", 25 / 145)["mistake"] == "caught_fraud_free"
    assert grade(lab2, "tau_star", (0, 19))["reason"] == "comma"
    # recall 0.9, specificity 0.99 at prevalence 0.001: 0.0009 / (0.0009 + 0.01 * 0.999)
    right = 0.0009 / (0.0009 + 0.00999)
    assert grade(lab2, "precision_screening", right, 0.9, 0.99)["status"] == CORRECT
    assert grade(lab2, "precision_screening", 0.0009, 0.9, 0.99)["status"] == NOT_YET
    # two levers, 100 transactions; costs per transaction: a = (5*8 + 5*20 + 200*2)/100 = 5.4,
    # b = (5*9 + 5*60 + 200*1)/100 = 5.45, so "a" even though "b" has the higher recall
    table = pd.DataFrame(
        {"tp": [8, 9], "fp": [20, 60], "fn": [2, 1], "recall": [0.8, 0.9], "f1": [0.4, 0.2]},
        index=["baseline", "class_weights"],
    )
    costs = {"c_fp": 5, "c_tp": 5, "c_fn": 200, "c_tn": 0}
    assert grade(lab2, "best_lever", "baseline", table, costs, 100)["status"] == CORRECT
    assert grade(lab2, "best_lever", "class_weights", table, costs, 100)["mistake"] == "best_recall"
    assert grade(lab2, "best_lever", "the threshold", table, costs, 100)["reason"] == "option"


def test_lab3_exercises():
    rain = pd.DataFrame({"forecast": [0.1, 0.4, 0.7], "days": [50, 250, 100], "rainy": [10, 95, 88]})
    # gaps 0.1, 0.02, 0.18 weighted by 50, 250, 100 of 400 days: (5 + 5 + 18) / 400 = 0.07;
    # unweighted, (0.1 + 0.02 + 0.18) / 3 = 0.1
    assert grade(lab3, "rain_ece", 28 / 400, rain)["status"] == CORRECT
    assert grade(lab3, "rain_ece", 0.074, rain)["status"] == CORRECT
    assert grade(lab3, "rain_ece", 0.10, rain)["mistake"] == "unweighted"
    assert grade(lab3, "rain_ece", 0.08, rain)["status"] != CORRECT
    assert grade(lab3, "rain_ece", 7, rain)["reason"] == "percentage"
    # observed shares 0.2, 0.38, 0.88: signed gaps +0.1, -0.02, +0.18, weighted (5 - 5 + 18) / 400
    assert grade(lab3, "rain_ece", 18 / 400, rain)["mistake"] == "signed"
    assert grade(lab3, "rain_ece", 0.18, rain)["mistake"] == "largest_gap"
    assert grade(lab3, "rain_ece", np.float32(0.07), rain)["status"] == CORRECT
    assert grade(lab3, "rain_ece", (0, 7), rain)["reason"] == "comma"  # 0,07 typed with a comma
    before = np.array([0.1, 0.25, 0.6, 0.15])
    after = np.array([0.21, 0.3, 0.55, 0.19])  # at 0.2 only the first changes
    assert grade(lab3, "temperature_decisions", 1, before, after)["status"] == CORRECT
    assert grade(lab3, "temperature_decisions", 0, before, after)["mistake"] == "at_half"
    assert grade(lab3, "temperature_decisions", 1.5, before, after)["reason"] == "whole"
    assert (
        grade(lab3, "temperature_decisions", 3, before, after)["mistake"] == "flagged_after"
    )  # >= 0.2 after
    assert grade(lab3, "temperature_decisions", np.int64(1), before, after)["status"] == CORRECT
    assert grade(lab3, "temperature_decisions", 1.0, before, after)["status"] == CORRECT
    assert grade(lab3, "temperature_decisions", "1", before, after)["reason"] == "type"
    y = np.array([1, 0, 1, 0])
    probs = {
        ("naive Bayes", "temperature"): np.array([0.6, 0.4, 0.6, 0.4]),
        ("naive Bayes", "sigmoid"): np.array([0.9, 0.1, 0.8, 0.2]),
        ("naive Bayes", "isotonic"): np.array([1.0, 0.5, 0.5, 0.0]),
    }
    # Brier: temperature 0.16, sigmoid 0.025, isotonic 0.125
    assert grade(lab3, "best_calibrator", "sigmoid", y, probs)["status"] == CORRECT
    assert grade(lab3, "best_calibrator", "isotonic", y, probs)["status"] == NOT_YET
    assert grade(lab3, "best_calibrator", "platt", y, probs)["reason"] == "option"


def test_lab4_exercises():
    pain = pd.DataFrame([[6, 2, 0], [1, 5, 1], [1, 1, 3]], index=["a", "b", "c"], columns=["a", "b", "c"])
    # by hand: W = (i - j)^2 / 4, so sum W*O = 0.25 * (2 + 1 + 1 + 1) + 1 * 1 = 2.25;
    # E = outer(rows (8, 7, 5), columns (8, 8, 4)) / 20, so sum W*E = 0.8 + 1.6 + 0.7 + 0.35 + 2 + 0.5 = 5.95
    by_hand = 1 - 2.25 / 5.95
    assert grade(lab4, "qwk_by_hand", by_hand, pain)["status"] == CORRECT
    assert grade(lab4, "qwk_by_hand", 0.62, pain)["status"] == CORRECT
    assert grade(lab4, "qwk_by_hand", 0.7, pain)["mistake"] == "accuracy"
    # unweighted: observed agreement 14/20 = 0.7, by chance (64 + 56 + 20) / 400 = 0.35
    assert grade(lab4, "qwk_by_hand", (0.7 - 0.35) / 0.65, pain)["mistake"] == "unweighted"
    # linear W = |i - j| / 2: sum W*O = 0.5 * 5 + 1 = 3.5; sum W*E = 0.5 * 9.4 + 3.6 = 8.3
    assert grade(lab4, "qwk_by_hand", 1 - 3.5 / 8.3, pain)["mistake"] == "linear"
    assert grade(lab4, "qwk_by_hand", 62, pain)["reason"] == "hundredfold"  # a kappa, not a percentage
    assert grade(lab4, "qwk_by_hand", 45, pain)["reason"] == "range"
    y = np.array([1, 2, 3, 4, 5, 5])
    preds = {
        "majority": np.full(6, 5),
        "ordinal LR": np.array([1, 2, 3, 4, 4, 5]),
        "multinomial LR": np.array([2, 2, 4, 4, 5, 5]),
    }
    assert grade(lab4, "accuracy_pick", "ordinal LR", y, preds)["status"] == CORRECT
    assert grade(lab4, "qwk_pick", "ordinal LR", y, preds)["status"] == CORRECT
    assert grade(lab4, "qwk_pick", "majority", y, preds)["status"] == NOT_YET
    assert grade(lab4, "qwk_pick", "ordinal", y, preds)["reason"] == "option"


def test_lab4_paradox_against_a_simulation():
    rng = np.random.default_rng(0)
    truth = rng.choice(3, size=200_000, p=[0.7, 0.2, 0.1])
    move = rng.random(truth.size) < 0.2
    step = np.where(rng.random(truth.size) < 0.5, -1, 1)
    grade_ = np.where(move, np.clip(truth + step, 0, 2), truth)  # a move off the edge stays put
    from sklearn.metrics import cohen_kappa_score

    simulated = cohen_kappa_score(truth, grade_, weights="quadratic")
    assert grade(lab4, "paradox_qwk", simulated)["status"] == CORRECT
    assert grade(lab4, "paradox_qwk", 0.9)["status"] == NOT_YET


def test_lab5_exercises():
    assert grade(lab5, "loss_by_hand", 1.61)["status"] == CORRECT
    assert grade(lab5, "loss_by_hand", math.log10(5))["mistake"] == "log10"
    assert grade(lab5, "loss_by_hand", -1.61)["mistake"] == "sign"
    corrupted = np.zeros(100, dtype=bool)
    corrupted[:20] = True
    loss = np.linspace(5, 0.01, 100)  # the corrupted images have the 20 highest losses
    assert grade(lab5, "precision_at_30", 20 / 30, corrupted, loss)["status"] == CORRECT
    assert grade(lab5, "precision_at_30", 1.0, corrupted, loss)["mistake"] == "k10"
    assert grade(lab5, "precision_at_30", 66.7, corrupted, loss)["reason"] == "percentage"
    # 75 % of 20 is 15 wrong labels, the 15th at k = 15
    assert grade(lab5, "budget_75", 15, corrupted, loss)["status"] == CORRECT
    assert grade(lab5, "budget_75", 14, corrupted, loss)["mistake"] == "zero_based"
    assert grade(lab5, "budget_75", 16, corrupted, loss)["mistake"] == "target_80"
    leaked = np.zeros(300, dtype=bool)
    leaked[-100:] = True
    loss_leaky = np.linspace(3, 0, 300)  # the leaked images have the lowest losses
    assert grade(lab5, "leak_tail", "bottom", leaked, loss_leaky)["status"] == CORRECT
    assert grade(lab5, "leak_tail", "top", leaked, loss_leaky)["status"] == NOT_YET


@pytest.mark.parametrize("module", [lab1, lab2, lab3, lab4, lab5], ids=lambda m: m.__name__.rsplit(".")[-1])
@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_exercise_speaks_every_language(module, lang):
    for exercise in lab_exercises(int(module.__name__[-1])).values():
        assert exercise.hint[lang] and exercise.skill[lang] and exercise.form_text(lang)
        assert all(m.hint[lang] for m in exercise.mistakes)
        text = exercise.message(exercise.grade(...), lang)
        assert text.startswith("✏️") and fmt(0.5, 3, lang=lang) not in text


# --- found by mutation testing (make mutation): boundaries, messages and the verdict's fields -------


def test_number_form_boundaries():
    p = ex(proportion=True, expected=lambda: 0.0)
    assert p.grade(0).status == CORRECT  # 0 and 1 are proportions
    assert p.grade(-1e-9).status == CORRECT  # float noise below 0 is still 0
    one = ex(proportion=True, decimals=2, expected=lambda: 1.0)
    assert one.grade(1 + 1e-9).status == CORRECT
    assert ex(proportion=True, expected=lambda: 0.015).grade(1.5) == (BAD_FORM, "percentage", None)  # 1.5 %
    assert one.grade(100).reason == "percentage"  # 100 % is 1
    assert one.grade(101).reason == "range" and p.grade(1.5).reason == "range"
    assert p.grade(-0.5).reason == "range"
    whole = ex(whole=True, expected=lambda: 3)
    assert whole.grade(3.5) == (BAD_FORM, "whole", None)
    assert whole.grade(-3) == (BAD_FORM, "range", None)


def test_tolerance_is_inclusive_at_float_noise():
    assert ex(expected=lambda: 0.0).grade(1e-9).status == CORRECT
    assert ex(expected=lambda: 0.0).grade(1e-8).status == NOT_YET
    pair = ex(kind="numbers", size=2, order="(a, b)", expected=lambda: (0.0, 0.0))
    assert pair.grade((1e-9, 0.0)).status == CORRECT
    assert pair.grade((0.0, 1e-8)).status == NOT_YET


def test_what_counts_as_a_sequence_answer():
    pair = ex(kind="numbers", size=2, order="(a, b)", expected=lambda: (0.5, 0.75), proportion=True)
    assert pair.grade(iter([0.5, 0.75])).reason == "type"  # no length: not a tuple of answers
    assert pair.grade(np.array([[0.5, 0.75]])).reason == "type"  # a 1 x 2 table, not a tuple
    # a 0-d array (np.array(0.25), np.sum of an array) is its one number, as it prints
    assert ex(proportion=True).grade(np.array(0.25)).status == CORRECT
    assert ex(kind="choice", options=("a", "b"), expected=lambda: "a").grade(np.array("a")).status == CORRECT
    assert pair.grade((np.array(0.5), np.float64(0.75))).status == CORRECT


def test_choice_ignores_case_spaces_hyphens_and_underscores():
    e = ex(kind="choice", options=("class_weights", "re-sampling"), expected=lambda: "class_weights")
    assert e.grade("class weights").status == CORRECT
    assert e.grade("Class-Weights").status == CORRECT
    assert e.grade("re sampling").status == NOT_YET
    assert e.grade("re_sampling").status == NOT_YET
    assert e.grade("classweights").reason == "option"
    assert ex(kind="choice", options=("a", "b"), expected=lambda: "a").grade("A").status == CORRECT


def test_form_text_of_each_kind_in_the_language_asked():
    assert ex().form_text("en") == "one number, written as a Python number (for example 0.35)."
    assert ex(proportion=True).form_text("it") == (
        "una sola proporzione tra 0 e 1, scritta come numero Python (per esempio 0.35)."
    )
    assert ex().form_text("it") == "un solo numero, scritto come numero Python (per esempio 0.35)."
    assert ex(whole=True).form_text("it") == "un solo numero intero (per esempio 12)."
    numbers = ex(kind="numbers", size=3, order="(tp, fp, fn)", expected=lambda: (1, 2, 3))
    assert numbers.form_text("it") == "una tupla di 3 numeri, nell’ordine (tp, fp, fn)."
    assert (
        ex(kind="numbers", size=2, order="(a, b)", whole=True, expected=lambda: (1, 2)).form_text("en")
        == "a tuple of 2 whole numbers, in the order (a, b)."
    )
    choice = ex(kind="choice", options=("top", "bottom"), expected=lambda: "top")
    assert choice.form_text("it") == 'una delle opzioni "top", "bottom", come stringa tra virgolette.'


def test_verdict_fields_and_points():
    check = Checker(ex(effort="derive"), ex(name="y", expected=lambda a: a))
    assert verdict(check, "x", 0.25) == {
        "exercise": "x",
        "status": CORRECT,
        "reason": None,
        "mistake": None,
        "points": 3,
        "max_points": 3,
        "message": "✅ Correct — well done.",
    }
    wrong = verdict(check, "x", 0.3, lang="it")
    assert (wrong["points"], wrong["max_points"]) == (0, 3)
    assert wrong["message"].startswith("❌ Non ancora.")
    assert verdict(check, "x", "0.25")["points"] == 0
    assert verdict(check, "y", 0.7, 0.7)["status"] == CORRECT


def test_check_functions_pass_the_inputs_and_say_what_they_do(capsys):
    check = Checker(ex(name="share", expected=lambda a, b: a / b))
    check.share(0.5, 1, 2)
    check.share(0.5, 1, 4)
    assert [line.split()[0] for line in capsys.readouterr().out.splitlines()] == ["✅", "❌"]
    assert check.share.__name__ == "share"
    assert check.share.__doc__ == "Check your answer to the exercise 'share': run the cell as it is."
    assert repr(Checker(ex(name="a"), ex(name="b"))) == "<checks: a, b>"


def test_definition_and_lookup_errors_say_what_is_wrong():
    check = Checker(ex(name="a"), ex(name="b"))
    with pytest.raises(AttributeError, match="^no check named 'c'; the checks are a, b$"):
        check.c  # noqa: B018
    with pytest.raises(ValueError, match="^no exercise named 'c'; the exercises are a, b$"):
        verdict(check, "c", 0.25)
    with pytest.raises(ValueError, match=r"^two exercises share a name: \['a', 'a'\]$"):
        Checker(ex(name="a"), ex(name="a"))
    with pytest.raises(ValueError, match=r"^exercise 'x' lacks a hint in \['it', 'es', 'pt', 'fi'\]$"):
        ex(hint={"en": "h"})
    with pytest.raises(ValueError, match=r"^exercise 'x' lacks a skill in \['fi'\]$"):
        ex(skill={"en": "s", "it": "s", "es": "s", "pt": "s"})
    with pytest.raises(ValueError, match=r"^mistake 'm' lacks a hint in \['es', 'pt', 'fi'\]$"):
        Mistake("m", lambda: 0, hint={"en": "h", "it": "h"})
    with pytest.raises(
        ValueError, match=r"^exercise 'x': effort must be one of \('read', 'compute', 'derive'\)$"
    ):
        ex(effort="hard")
    for decimals in (-1, 1.5, 7):
        with pytest.raises(
            ValueError, match="^exercise 'x': decimals must be a whole number from 0 to 6, or None$"
        ):
            ex(decimals=decimals)
    with pytest.raises(ValueError, match="^exercise 'x': a count is exact; it takes no decimals$"):
        ex(whole=True, decimals=0)
    twice = (Mistake("m", lambda: 0, hint=H), Mistake("m", lambda: 1, hint=H))
    with pytest.raises(ValueError, match="^exercise 'x': two mistakes share a key$"):
        ex(mistakes=twice)
    two = ex(kind="choice", options=("yes", "no"), expected=lambda: "yes")  # two options are enough
    assert two.grade("no").status == NOT_YET


def test_bad_form_verdicts_of_each_kind():
    number = ex(proportion=True)
    assert number.grade((0, 25)) == (BAD_FORM, "comma", None)  # 0,25
    assert number.grade((0.25, 0.5)) == (BAD_FORM, "type", None)  # two numbers where one is asked
    assert number.grade((0, 2, 5)).reason == "type"
    assert ex(whole=True, expected=lambda: 35).grade((0, 35)).reason == "type"  # no decimals to mistype
    pair = ex(kind="numbers", size=2, order="(a, b)", expected=lambda: (0.5, 0.75))
    assert pair.grade(0.5) == (BAD_FORM, "type", None)
    choice = ex(kind="choice", options=("top", "bottom"), expected=lambda: "top")
    assert choice.grade(0) == (BAD_FORM, "type", None)
    assert choice.grade("middle") == (BAD_FORM, "option", None)
    with pytest.raises(ValueError, match="^lab must be a whole number from 1 to 5, got 6$"):
        lab_exercises(6)


def test_a_mistake_that_cannot_be_computed_does_not_hide_the_next_one():
    hint = texts("half", "metà", "mitad", "metade", "puolet")
    e = ex(mistakes=(Mistake("boom", lambda: 1 / 0, hint=H), Mistake("half", lambda: 0.125, hint=hint)))
    assert e.grade(0.125) == (NOT_YET, None, "half")


# The Italian texts of the catalogue's terms.csv (src/beyond_accuracy/data/strings/), typed here: each message in the language asked.
IT_FORM = "La risposta non ha la forma attesa: un solo numero, scritto come numero Python (per esempio 0.35)."
IT_POINT = "In Python i decimali si scrivono con il punto, non con la virgola: 0.35, non 0,35."


def test_every_message_in_the_language_asked():
    hint = texts("h", "metà del valore", "h", "h", "h")
    e = ex(
        hint=texts("h", "rileggi la definizione", "h", "h", "h"),
        mistakes=(Mistake("half", lambda: 0.125, hint=hint),),
    )
    assert e.feedback(0.25, lang="it") == "✅ Corretto, ottimo lavoro."
    assert e.feedback(..., lang="it") == (
        "✏️ Esercizio non ancora svolto: sostituisci i puntini (...) con la tua risposta ed esegui di "
        "nuovo la cella."
    )
    assert e.feedback(0.5, lang="it") == "❌ Non ancora. Suggerimento: rileggi la definizione"
    assert e.feedback(0.125, lang="it") == "❌ Non ancora. Suggerimento: metà del valore"
    assert e.feedback("0.25", lang="it") == f"⚠️ {IT_FORM}"  # type: no reason to add, no comma in it
    assert e.feedback((0, 25), lang="it") == (
        f"⚠️ {IT_FORM} Sembra una virgola decimale: in Python 0,35 sono due numeri, 0 e 35. {IT_POINT}"
    )
    proportion = ex(proportion=True).feedback(25, lang="it")
    assert "Sembra una percentuale: scrivila come proporzione tra 0 e 1 (35% è 0.35)." in proportion
    pair = ex(kind="numbers", size=2, order="(a, b)", expected=lambda: (0.5, 0.75)).feedback(
        (0.5,), lang="it"
    )
    assert "La tupla non ha il numero di valori richiesto." in pair
    choice = ex(kind="choice", options=("a", "b"), expected=lambda: "a").feedback("c", lang="it")
    assert "Copia una delle opzioni esattamente come è scritta nell’elenco." in choice
    whole = ex(whole=True, expected=lambda: 3).feedback(3.5, lang="it")
    assert whole == (
        "⚠️ La risposta non ha la forma attesa: un solo numero intero (per esempio 12). "
        "Un conteggio non ha decimali."
    )
