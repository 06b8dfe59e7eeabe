"""Expected cost per transaction of the fraud desk's logistic regression on its validation set,
against the threshold, for a false alarm costing 5 and a missed fraud 500; the minimum is marked
and the threshold given by the formula c_FP / (c_FP + c_FN) is drawn as a vertical line."""

import numpy as np
from _fraud_desk import validation_probabilities

from beyond_accuracy import fmt, plots, term
from beyond_accuracy.metrics import cost_threshold, expected_cost_by_threshold

NAME = "imbalance-expected-cost"

C_FP, C_FN = 5, 500  # a wasted investigation, a missed fraud (euros)
THRESHOLDS = np.round(np.arange(0.001, 0.1005, 0.001), 3)


def cost_table():
    y_val, p_val = validation_probabilities()
    return expected_cost_by_threshold(y_val, p_val, THRESHOLDS, c_fp=C_FP, c_fn=C_FN)


def draw():
    table = cost_table()
    ax = plots.plot_expected_cost(table, label=term("model"))
    best = table.loc[table["cost"].idxmin(), "threshold"]
    ax.lines[-1].set_label(f"{term('minimum')}: {term('threshold')} {fmt(best, 3)}")  # 3 decimals
    tau = cost_threshold(C_FP, C_FN)
    ax.axvline(
        tau, **{**plots.BASELINE, "linestyle": "--"}, label=f"{term('cost_formula_threshold')} {fmt(tau, 4)}"
    )
    ax.set_title(
        f"{term('cost_false_alarm')}: {fmt(C_FP, 0)}   {term('cost_miss')}: {fmt(C_FN, 0)}", fontsize=10
    )
    ax.legend(fontsize=8)
    ax.figure.set_size_inches(6.0, 3.8)
    ax.figure.set_layout_engine("constrained")
    return ax.figure
