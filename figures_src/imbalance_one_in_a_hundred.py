"""One hundred transactions in a 10 x 10 grid: 99 legitimate and 1 fraud. A model that never
raises an alarm is right 99 times in 100 and finds no fraud at all."""

import matplotlib.pyplot as plt
import numpy as np
from sklearn.metrics import accuracy_score, recall_score

from beyond_accuracy import fmt, plots, term

NAME = "imbalance-one-in-a-hundred"

FRAUD_AT = 46  # the position of the single fraud in the grid (row 4, column 6)


def draw():
    y = np.zeros(100, dtype=int)
    y[FRAUD_AT] = 1
    never_flag = np.zeros(100, dtype=int)
    accuracy = accuracy_score(y, never_flag)
    found = int(recall_score(y, never_flag, zero_division=0) * y.sum())

    rows, cols = np.divmod(np.arange(100), 10)
    is_fraud = y == 1
    with plots.course_style():
        fig, ax = plt.subplots(figsize=(5.2, 6.0), layout="constrained")
        ax.scatter(
            cols[~is_fraud],
            rows[~is_fraud],
            s=150,
            marker="o",
            color=plots.PALETTE["sky"],
            edgecolor="0.3",
            linewidth=0.6,
            label=f"{term('legitimate')} ({fmt(int((~is_fraud).sum()), 0)})",
        )
        ax.scatter(
            cols[is_fraud],
            rows[is_fraud],
            s=330,
            marker="*",
            color=plots.PALETTE["vermillion"],
            edgecolor="black",
            linewidth=0.8,
            label=f"{term('fraud')} ({fmt(int(is_fraud.sum()), 0)})",
        )
        ax.set_xlim(-0.7, 9.7)
        ax.set_ylim(9.7, -0.7)
        ax.set_aspect("equal")
        ax.axis("off")
        ax.set_title(term("one_in_a_hundred_title"), fontsize=12, pad=30)
        ax.legend(loc="lower center", bbox_to_anchor=(0.5, 1.0), ncol=2, frameon=False, fontsize=10)
        verdict = (
            f"{term('never_flag_model')}:\n"
            f"{term('accuracy')} {fmt(accuracy, 0, percent=True)},  "
            f"{term('frauds_found')} {fmt(found, 0)}"
        )
        ax.text(0.5, -0.03, verdict, transform=ax.transAxes, ha="center", va="top", fontsize=10)
    return fig
