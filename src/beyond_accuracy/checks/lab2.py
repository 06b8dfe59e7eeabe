"""Checks of lab 2, "The fraud desk".

Every expected answer is computed from what the check cell passes: the student's out-of-fold
recall and specificity, the student's lever table and the desk's prices. A rerun with another
``SEED`` or other prices is checked against the student's own numbers.

In the lab: ``from beyond_accuracy.checks.lab2 import check``, then
``check.tau_star(answer_tau_star)``.
"""

from __future__ import annotations

from ..catalogue import localised
from ..metrics import cost_threshold
from ._engine import Checker, Exercise, Mistake

# The "tau_star" exercise: the new contract stated in the lab's prompt.
EX_INVESTIGATION = 10  # every investigation, fraud or not
EX_GOODWILL = 15  # extra cost of holding a legitimate customer's payment
EX_MISSED_FRAUD = 120  # a fraud that goes through
# The "precision_screening" exercise: the biopsy model used where one biopsy in a thousand is malignant.
EX_PREVALENCE = 0.001
LEVERS = ("baseline", "tuned_threshold", "class_weights", "smote_pipeline")  # the lever table's rows


def _tau(c_fp=EX_INVESTIGATION + EX_GOODWILL, c_fn=EX_MISSED_FRAUD, c_tp=EX_INVESTIGATION) -> float:
    return cost_threshold(c_fp=c_fp, c_fn=c_fn, c_tp=c_tp)


def _precision_at(recall, specificity, prevalence=EX_PREVALENCE, false_alarm_rate=None) -> float:
    for value in (recall, specificity):
        if not 0 <= float(value) <= 1:
            raise ValueError("pass the out-of-fold recall and specificity, two proportions")
    hits = float(recall) * prevalence
    alarms = (1 - float(specificity) if false_alarm_rate is None else false_alarm_rate) * (1 - prevalence)
    return hits / (hits + alarms)


def _lever_costs(table, costs, n, ignore_tp_cost=False) -> dict[str, float]:
    c_tp = 0.0 if ignore_tp_cost else costs.get("c_tp", 0.0)
    out = {}
    for name in table.index:
        tp, fp, fn = (float(table.loc[name, c]) for c in ("tp", "fp", "fn"))
        tn = n - tp - fp - fn
        out[str(name)] = (
            c_tp * tp + costs["c_fp"] * fp + costs["c_fn"] * fn + costs.get("c_tn", 0.0) * tn
        ) / n
    return out


def _cheapest(table, costs, n, **kw) -> str:
    found = _lever_costs(table, costs, n, **kw)
    return min(found, key=found.get)


def _best_by(column):
    def value(table, costs, n):
        return str(table[column].idxmax())

    return value


tau_star = Exercise(
    name="tau_star",
    kind="number",
    proportion=True,
    decimals=2,  # the prompt: "to two decimals"
    effort="derive",
    expected=lambda: _tau(),
    skill=localised("lab2.tau_star.skill"),
    hint=localised("lab2.tau_star.hint"),
    mistakes=(
        Mistake(
            "caught_fraud_free",
            lambda: _tau(c_tp=0),
            about=localised("lab2.tau_star.caught_fraud_free.about"),
            hint=localised("lab2.tau_star.caught_fraud_free.hint"),
        ),
        Mistake(
            "no_goodwill",
            lambda: _tau(c_fp=EX_INVESTIGATION),
            about=localised("lab2.tau_star.no_goodwill.about"),
            hint=localised("lab2.tau_star.no_goodwill.hint"),
        ),
        Mistake(
            "ratio",
            lambda: (EX_INVESTIGATION + EX_GOODWILL) / EX_MISSED_FRAUD,
            about=localised("lab2.tau_star.ratio.about"),
            hint=localised("lab2.tau_star.ratio.hint"),
        ),
        Mistake(
            "complement",
            lambda: 1 - _tau(),
            about=localised("lab2.tau_star.complement.about"),
            hint=localised("lab2.tau_star.complement.hint"),
        ),
    ),
)

precision_screening = Exercise(
    name="precision_screening",
    kind="number",
    proportion=True,
    decimals=2,  # the prompt: "to two decimals"
    effort="derive",
    inputs=("oof_recall", "oof_specificity"),
    expected=lambda r, s: _precision_at(r, s),
    skill=localised("lab2.precision_screening.skill"),
    hint=localised("lab2.precision_screening.hint"),
    mistakes=(
        Mistake(
            "hits_only",
            lambda r, s: float(r) * EX_PREVALENCE,
            about=localised("lab2.precision_screening.hits_only.about"),
            hint=localised("lab2.precision_screening.hits_only.hint"),
        ),
        Mistake(
            "specificity_as_fpr",
            lambda r, s: _precision_at(r, s, false_alarm_rate=float(s)),
            about=localised("lab2.precision_screening.specificity_as_fpr.about"),
            hint=localised("lab2.precision_screening.specificity_as_fpr.hint"),
        ),
        Mistake(
            "lowest_simulated",
            lambda r, s: _precision_at(r, s, prevalence=0.01),
            about=localised("lab2.precision_screening.lowest_simulated.about"),
            hint=localised("lab2.precision_screening.lowest_simulated.hint"),
        ),
    ),
)

best_lever = Exercise(
    name="best_lever",
    kind="choice",
    options=LEVERS,
    inputs=("lever_table", "COSTS", "len(y_val)"),
    expected=lambda table, costs, n: _cheapest(table, costs, n),
    effort="compute",  # each lever's cost from its counts and the prices
    skill=localised("lab2.best_lever.skill"),
    hint=localised("lab2.best_lever.hint"),
    mistakes=(
        Mistake(
            "best_f1",
            _best_by("f1"),
            about=localised("lab2.best_lever.best_f1.about"),
            hint=localised("lab2.best_lever.best_f1.hint"),
        ),
        Mistake(
            "best_recall",
            _best_by("recall"),
            about=localised("lab2.best_lever.best_recall.about"),
            hint=localised("lab2.best_lever.best_recall.hint"),
        ),
        Mistake(
            "caught_fraud_free",
            lambda table, costs, n: _cheapest(table, costs, n, ignore_tp_cost=True),
            about=localised("lab2.best_lever.caught_fraud_free.about"),
            hint=localised("lab2.best_lever.caught_fraud_free.hint"),
        ),
    ),
)

check = Checker(tau_star, precision_screening, best_lever)

__all__ = ["check"]
