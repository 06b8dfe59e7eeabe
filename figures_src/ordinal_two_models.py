"""The two age-band models of chapter 4's opening, one person per band: model A is always one band
off, model B is right once in five and otherwise answers the farthest band. Each row is a person;
the circle is the actual band and the arrow ends at the model's answer."""

import matplotlib.pyplot as plt
import numpy as np
from sklearn.metrics import accuracy_score, mean_absolute_error

from beyond_accuracy import fmt, plots, term

NAME = "ordinal-two-models"

BANDS = ["18–29", "30–39", "40–49", "50–69", "70+"]
ACTUAL = np.array([1, 2, 3, 4, 5])  # one person in each band (ranks 1 to 5)
MODEL_A = np.array([2, 3, 4, 5, 4])  # always one band off
MODEL_B = np.array([5, 5, 3, 1, 1])  # right for the middle band, otherwise the farthest band


def _panel(ax, predicted, title_key, style):
    rows = np.arange(1, len(ACTUAL) + 1)
    for row, a, p in zip(rows, ACTUAL, predicted):
        if a != p:
            ax.annotate(
                "",
                xy=(p, row),
                xytext=(a, row),
                arrowprops={
                    "arrowstyle": "-|>",
                    "color": style["color"],
                    "linewidth": 1.6,
                    "linestyle": style["linestyle"],
                    "shrinkA": 6,
                    "shrinkB": 4,
                },
            )
    ax.plot(
        ACTUAL,
        rows,
        linestyle="none",
        marker="o",
        markersize=10,
        markerfacecolor="white",
        markeredgecolor="black",
        markeredgewidth=1.4,
        label=term("ord_actual_band"),
    )
    ax.plot(
        predicted,
        rows,
        linestyle="none",
        marker=style["marker"],
        markersize=7,
        color=style["color"],
        markeredgecolor="black",
        label=term("ord_model_answer"),
    )
    accuracy = accuracy_score(ACTUAL, predicted)
    mae = mean_absolute_error(ACTUAL, predicted)
    ax.set_title(
        f"{term(title_key)}\n{term('accuracy')} {fmt(accuracy, 1)} · "
        f"{term('ord_mean_error_bands')} {fmt(mae, 1)}",
        fontsize=10,
        loc="left",
    )
    ax.set_yticks(rows, [str(r) for r in rows])
    ax.set_ylim(len(rows) + 0.6, 0.4)
    ax.set_ylabel(term("ord_person"))
    ax.grid(axis="y", visible=False)


def draw():
    fig, (ax_a, ax_b) = plt.subplots(2, 1, figsize=(6.4, 5.6), sharex=True, layout="constrained")
    _panel(ax_a, MODEL_A, "ord_model_a", plots.SERIES[0])
    _panel(ax_b, MODEL_B, "ord_model_b", plots.SERIES[1])
    ax_b.set_xticks(range(1, len(BANDS) + 1), BANDS)
    ax_b.set_xlim(0.5, len(BANDS) + 0.5)
    ax_b.set_xlabel(term("ord_age_band"))
    ax_a.legend(loc="upper left", bbox_to_anchor=(1.0, 1.0), fontsize=8, frameon=False)
    return fig
