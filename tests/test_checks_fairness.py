"""Fair checks: each prompt states the precision it wants and its check accepts exactly that; hints
name the mistake made (a count or a row position is not "a percentage"); no attribute chain of
the check object leads to an expected value; points follow the effort an exercise asks for.

Expected answers are worked out by hand in comments, as in tests/test_checks.py."""

import contextlib
import math
import re

import numpy as np
import pandas as pd
import pytest

from beyond_accuracy import LANGUAGES, fmt, term
from beyond_accuracy.checks import _engine, lab1, lab2, lab4, lab5
from beyond_accuracy.checks._engine import (
    BAD_FORM,
    CORRECT,
    EFFORT_POINTS,
    NOT_YET,
    Exercise,
    lab_exercises,
    verdict,
    within,
)

TWO = ("it", "fi")  # every feedback case is read in two languages besides the verdict


def grade(module, name, answer, *inputs, lang="en"):
    return verdict(module.check, name, answer, *inputs, lang=lang)


# --- the tolerance rule: rounded or truncated to the stated decimals ------------------------------


def test_the_tolerance_rule_accepts_rounded_and_truncated_values_only():
    assert within(0.19, 25 / 135, 2) and within(0.18, 25 / 135, 2)  # 0.1852: rounded, truncated
    assert within(0.185, 25 / 135, 2) and within(0.18518, 25 / 135, 2)  # more decimals
    assert not within(0.17, 25 / 135, 2) and not within(0.2, 25 / 135, 2)
    assert within(-0.18, -25 / 135, 2) and not within(-0.17, -25 / 135, 2)  # truncated towards 0
    assert within(0.92, 0.92, 2)  # a value that is its own truncation, whatever the float noise
    assert within(3, 3, None) and not within(3.0001, 3, None)  # counts are exact


def _biopsies():
    # at 0.37: TP 50, FP 4, FN 5, TN 41 -> precision 50/54 = 0.9259, recall 50/55 = 0.9091
    y = np.array([1] * 50 + [1] * 5 + [0] * 4 + [0] * 41)
    p = np.array([0.9] * 50 + [0.1] * 5 + [0.6] * 4 + [0.05] * 41)
    return pd.Series(y), p


def test_lab1_precision_recall_truncated_to_two_decimals_is_right():
    y, p = _biopsies()
    for answer in [(0.92, 0.90), (0.93, 0.91), (0.9259, 0.9091), (50 / 54, 50 / 55)]:
        assert grade(lab1, "precision_recall", answer, y, p)["status"] == CORRECT, answer
    assert grade(lab1, "precision_recall", (0.91, 0.90), y, p)["status"] == NOT_YET
    for lang in TWO:
        assert grade(lab1, "precision_recall", (0.92, 0.9), y, p, lang=lang)["message"].startswith("✅")


def test_lab2_tau_star_truncated_is_right_as_rounded():
    # tau* = 25 / 135 = 0.1852
    for answer in (0.18, 0.19, 25 / 135, np.array(0.18), np.float32(0.185), [0.18], np.array([0.19])):
        assert grade(lab2, "tau_star", answer)["status"] == CORRECT, answer
    assert grade(lab2, "tau_star", 0.17)["status"] == NOT_YET
    for lang in TWO:
        assert grade(lab2, "tau_star", 0.18, lang=lang)["message"] == "✅ " + term("check_correct", lang)


def test_lab5_loss_by_hand_to_the_stated_decimals():
    # -ln 0.2 = 1.6094: 1.61 rounded, 1.60 (= 1.6) truncated
    for answer in (1.6, 1.61, 1.609, -math.log(0.2)):
        assert grade(lab5, "loss_by_hand", answer)["status"] == CORRECT, answer
    assert grade(lab5, "loss_by_hand", 1.7)["status"] == NOT_YET
    assert grade(lab5, "loss_by_hand", 2)["status"] == NOT_YET  # a Python int where a float is asked
    whole_valued = Exercise(
        "x", "number", lambda: 2.0, hint=lab5.loss_by_hand.hint, skill=lab5.loss_by_hand.skill, decimals=2
    )
    assert whole_valued.grade(2).status == CORRECT and whole_valued.grade(np.int64(2)).status == CORRECT
    for lang in TWO:
        assert grade(lab5, "loss_by_hand", 1.6, lang=lang)["message"].startswith("✅")


# Each language's words for "two decimals" and "rounded or truncated", as the lab pages write them.
STATED = {
    "en": ("two decimals", "rounded or truncated"),
    "it": ("due decimali", "troncat"),
    "es": ("dos decimales", "truncad"),
    "pt": ("duas casas decimais", "truncad"),
    "fi": ("kahden desimaalin", "katkaistuna"),
}
COUNT = {"en": "count", "it": "conteggio", "es": "recuento", "pt": "contagem", "fi": "lukumäärä"}


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("lab", [1, 2, 3, 4, 5])
def test_every_prompt_states_the_precision_its_check_accepts(lab, lang):
    from tools.teaching.exercise_sheet import exercise_prompts

    prompts = exercise_prompts(lab, lang)
    for name, exercise in lab_exercises(lab).items():
        if exercise.kind == "choice" or name == "counts":  # counts: "(tp, fp, fn, tn)", four counts
            continue
        prompt = " ".join(prompts[name][-1].split())
        if exercise.whole:
            assert COUNT[lang] in prompt.casefold(), (lab, name, lang)
            continue
        assert exercise.decimals == 2, name  # every number the labs ask for: two decimals
        decimals, how = STATED[lang]
        assert decimals in prompt, (lab, name, lang, prompt)
        if name != "best_f2":  # a threshold of the sweep has exactly two decimals
            assert how in prompt, (lab, name, lang, prompt)


def test_every_number_exercise_states_its_decimals():
    for lab in range(1, 6):
        for name, exercise in lab_exercises(lab).items():
            if exercise.kind != "choice" and not exercise.whole:
                assert exercise.decimals is not None, (lab, name)


# --- hints that match the mistake made ------------------------------------------------------------


def _hunt():
    corrupted = np.zeros(100, dtype=bool)
    corrupted[:29] = True
    corrupted[35] = True
    loss = np.linspace(5, 0.01, 100)  # 29 of the 30 highest losses are corrupted: 29/30 = 0.9667
    return corrupted, loss


def test_a_count_where_a_share_is_asked_is_called_a_count():
    corrupted, loss = _hunt()
    assert grade(lab5, "precision_at_30", 0.96, corrupted, loss)["status"] == CORRECT  # truncated
    assert grade(lab5, "precision_at_30", 0.97, corrupted, loss)["status"] == CORRECT
    wrong = grade(lab5, "precision_at_30", 29, corrupted, loss)
    assert (wrong["status"], wrong["mistake"]) == (NOT_YET, "count")
    assert grade(lab5, "precision_at_30", 96.67, corrupted, loss)["reason"] == "percentage"
    assert grade(lab5, "precision_at_30", 25, corrupted, loss)["reason"] == "range"  # neither
    hint = lab5.precision_at_30.mistakes[[m.key for m in lab5.precision_at_30.mistakes].index("count")].hint
    for lang in TWO:
        message = grade(lab5, "precision_at_30", 29, corrupted, loss, lang=lang)["message"]
        assert message.endswith(hint[lang]) and term("check_reason_percentage", lang) not in message


def test_a_row_position_where_a_threshold_is_asked_gets_its_own_hint():
    # the lab's answer cell: sweep["f2"].idxmax() on a table indexed 0, 1, 2 gives a row position.
    # Two sick (0.9, 0.8), eight healthy at 0.25: at 0.2 TP 2, FP 8, F2 = 10/18; at 0.3 and 0.5
    # TP 2, FP 0, F2 = 1 (tied, the lowest counts: 0.3, row 1); at 0.95 nothing is flagged.
    y = pd.Series([1, 1] + [0] * 8)
    p = np.array([0.9, 0.8] + [0.25] * 8)
    sweep = [0.2, 0.3, 0.5, 0.95]
    assert grade(lab1, "best_f2", 0.3, y, p, sweep)["status"] == CORRECT
    wrong = grade(lab1, "best_f2", np.int64(1), y, p, sweep)
    assert (wrong["status"], wrong["mistake"]) == (NOT_YET, "row_position")
    assert grade(lab1, "best_f2", 30, y, p, sweep)["reason"] == "percentage"  # 30 % is 0.3
    hint = lab1.best_f2.mistakes[-1].hint
    for lang in TWO:
        message = grade(lab1, "best_f2", 1, y, p, sweep, lang=lang)["message"]
        assert message.endswith(hint[lang]) and term("check_reason_percentage", lang) not in message
    # the review's "2": a sweep whose best F2 is in row 2
    assert grade(lab1, "best_f2", 2, y, p, [0.1, 0.2, 0.3, 0.95])["mistake"] == "row_position"


def test_a_kappa_typed_as_a_percentage_is_told_so():
    pain = pd.DataFrame([[6, 2, 0], [1, 5, 1], [1, 1, 3]], index=["a", "b", "c"], columns=["a", "b", "c"])
    kappa = 1 - 2.25 / 5.95  # 0.6218, worked out by hand in tests/test_checks.py
    assert grade(lab4, "qwk_by_hand", 62.18, pain)["reason"] == "hundredfold"
    assert grade(lab4, "qwk_by_hand", kappa, pain)["status"] == CORRECT
    paradox = lab4.paradox_qwk.reference().expected
    assert grade(lab4, "paradox_qwk", round(paradox * 100, 2))["reason"] == "hundredfold"
    for lang in TWO:
        message = grade(lab4, "qwk_by_hand", 62.18, pain, lang=lang)["message"]
        assert term("check_reason_hundredfold", lang) in message
        assert term("check_form_between", lang).format(low=fmt(-1, 0, lang=lang), high="1") in message
        assert term("check_decimal_point", lang) not in message


def test_two_mistakes_close_together_name_the_nearer():
    # recall 0.9, specificity 0.99 at prevalence 0.001:
    # hits only 0.0009; specificity used as the false-alarm rate 0.0009 / (0.0009 + 0.99 * 0.999) = 0.000909
    as_fpr = 0.0009 / (0.0009 + 0.99 * 0.999)
    assert grade(lab2, "precision_screening", as_fpr, 0.9, 0.99)["mistake"] == "specificity_as_fpr"
    assert grade(lab2, "precision_screening", 0.0009, 0.9, 0.99)["mistake"] == "hits_only"
    hint = dict(lab2.precision_screening.mistakes[1].hint)
    for lang in TWO:
        assert grade(lab2, "precision_screening", as_fpr, 0.9, 0.99, lang=lang)["message"].endswith(
            hint[lang]
        )


def test_the_decimal_comma_sentence_only_for_a_decimal_comma():
    table = pd.DataFrame(
        {"tp": [8, 9], "fp": [20, 60], "fn": [2, 1], "recall": [0.8, 0.9], "f1": [0.4, 0.2]},
        index=["baseline", "class_weights"],
    )
    costs = {"c_fp": 5, "c_tp": 5, "c_fn": 200, "c_tn": 0}
    misspelled = grade(lab2, "best_lever", "tuned_treshold", table, costs, 100)
    assert (misspelled["status"], misspelled["reason"]) == (BAD_FORM, "option")
    comma = grade(lab2, "tau_star", "0,19")
    assert (comma["status"], comma["reason"]) == (BAD_FORM, "comma")
    for lang in TWO:
        message = grade(lab2, "best_lever", "tuned_treshold", table, costs, 100, lang=lang)["message"]
        assert term("check_decimal_point", lang) not in message
        assert all(f'"{option}"' in message for option in lab2.LEVERS)  # which options exist
        assert term("check_decimal_point", lang) in grade(lab2, "tau_star", "0,19", lang=lang)["message"]
        assert term("check_decimal_point", lang) not in grade(lab2, "tau_star", "0.19.", lang=lang)["message"]


# --- nothing public hands out the expected value ----------------------------------------------------


def _reachable(obj, depth=0, seen=None):
    """Everything an attribute chain a student would try reaches from ``obj``: closures, defaults,
    ``__dict__``, slots, ``__wrapped__``, ``__self__``."""
    seen = set() if seen is None else seen
    if id(obj) in seen or depth > 6:
        return
    seen.add(id(obj))
    yield obj
    children = []
    for cell in getattr(obj, "__closure__", None) or ():
        children.append(cell.cell_contents)
    for name in ("__defaults__", "__kwdefaults__", "__wrapped__", "__self__", "__func__"):
        value = getattr(obj, name, None)
        if value is not None:
            children.append(value)
    children += list(getattr(obj, "__dict__", {}).values()) if not isinstance(obj, type) else []
    for slot in getattr(type(obj), "__slots__", ()):
        for name in (slot, f"_{type(obj).__name__}{slot}"):
            with contextlib.suppress(AttributeError):
                children.append(object.__getattribute__(obj, name))
    for child in children:
        if isinstance(child, (tuple, list)):
            for item in child:
                yield from _reachable(item, depth + 1, seen)
        elif isinstance(child, dict):
            for item in child.values():
                yield from _reachable(item, depth + 1, seen)
        else:
            yield from _reachable(child, depth + 1, seen)


@pytest.mark.parametrize("module", [lab1, lab2, lab4, lab5], ids=lambda m: m.__name__[-4:])
def test_no_attribute_chain_of_the_check_reaches_an_exercise(module):
    check = module.check
    for name in dir(check):
        function = getattr(check, name)
        found = [
            o
            for o in _reachable(function)
            if isinstance(o, Exercise) or callable(getattr(o, "expected", None))
        ]
        assert not found, (name, found)
        assert all(isinstance(c.cell_contents, str) for c in function.__closure__)
    assert not [o for o in _reachable(check) if isinstance(o, (Exercise, dict))]
    with pytest.raises(AttributeError):
        check._Checker__registry  # noqa: B018
    assert not hasattr(_engine, "exercises_of")


def test_the_engine_docstring_says_what_is_not_protected():
    doc = " ".join(_engine.__doc__.split())
    assert "*not* a secret" in doc and "Grading does not rely on them" in doc and "__globals__" in doc


# --- points follow the effort -----------------------------------------------------------------------


def test_points_follow_the_effort_in_every_lab():
    assert EFFORT_POINTS == {"read": 1, "compute": 2, "derive": 3}
    four = lab_exercises(4)
    assert four["qwk_by_hand"].points > four["qwk_pick"].points == four["accuracy_pick"].points == 1
    assert lab_exercises(2)["tau_star"].points > lab_exercises(2)["best_lever"].points
    # as the README says: lab 2 is 3 + 3 + 2, lab 4 is 1 + 1 + 3 + 3
    assert {n: e.points for n, e in lab_exercises(2).items()} == {
        "tau_star": 3,
        "precision_screening": 3,
        "best_lever": 2,
    }
    assert sorted(e.points for e in four.values()) == [1, 1, 3, 3]
    for lab in range(1, 6):
        for name, exercise in lab_exercises(lab).items():
            assert exercise.points == EFFORT_POINTS[exercise.effort], (lab, name)
            if exercise.kind == "choice":
                assert exercise.effort in ("read", "compute"), (lab, name)


def test_the_grader_reads_the_same_points_and_tolerance():
    from tools.teaching.grading.core import exercise_definitions

    for lab in range(1, 6):
        assert exercise_definitions(lab) == lab_exercises(lab)
    reference = _engine.Reference(25 / 135, ())
    assert lab_exercises(2)["tau_star"].judge(0.18, reference).status == CORRECT
    assert lab_exercises(2)["tau_star"].judge(np.array(0.18), reference).status == CORRECT


def test_the_exercise_sheet_states_the_decimals():
    text = term("sheet_tolerance", "it").format(decimals=2)
    assert re.search(r"troncata a 2 decimali", text)
