"""The per-example loss -log p as a function of the probability the model gives to the true class,
with the region of confident mistakes shaded and the four emails of the chapter's hand computation
marked on the curve."""

import matplotlib.pyplot as plt
import numpy as np

from beyond_accuracy import plots, term

NAME = "errors-loss-curve"

# Probability given to the true class of the four emails computed by hand in the chapter.
HAND_P_TRUE = [0.90, 0.20, 0.60, 0.01]
CONFIDENT = 0.1  # below this the model gave the true class less than one chance in ten


def draw():
    p = np.linspace(0.004, 1.0, 500)
    fig, ax = plt.subplots(figsize=(6.0, 3.8), layout="constrained")
    ax.axvspan(
        0,
        CONFIDENT,
        facecolor=plots.PALETTE["vermillion"],
        alpha=0.15,
        hatch="//",
        edgecolor=plots.PALETTE["vermillion"],
        linewidth=0,
    )
    ax.plot(
        p, -np.log(p), color=plots.PALETTE["blue"], linestyle="-", linewidth=2, label=term("per_example_loss")
    )
    hand = np.array(HAND_P_TRUE)
    ax.plot(
        hand,
        -np.log(hand),
        linestyle="none",
        marker="D",
        markersize=7,
        color=plots.PALETTE["orange"],
        markeredgecolor="black",
        label=term("hand_examples"),
    )
    ax.annotate(
        term("confident_mistakes"),
        xy=(CONFIDENT / 2, 5.2),
        xytext=(0.2, 5.0),
        fontsize=9,
        va="center",
        arrowprops={"arrowstyle": "->", "color": "0.3"},
    )
    ax.set_xlim(0, 1.0)
    ax.set_ylim(0, 5.6)
    ax.set_xlabel(term("prob_true_class"))
    ax.set_ylabel(term("loss_axis"))
    ax.legend(fontsize=8, loc="center right")
    plots.localise_axes(ax)
    return fig
