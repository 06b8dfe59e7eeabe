"""Temperature scaling σ(f/T) for several temperatures: every curve passes through (0, ½), so a
temperature can sharpen or soften the probabilities but never move the point where the model says
one half. A shifted map σ(f − 3), which a temperature cannot produce, is drawn for contrast."""

import matplotlib.pyplot as plt
import numpy as np
from scipy.special import expit

from beyond_accuracy import fmt, plots, term

NAME = "calibration-temperature"

TEMPERATURES = (0.5, 1.0, 2.0, 4.0)
SHIFT = 3.0  # the shift written in the label "shifted_map" of the terminology table


def draw():
    f = np.linspace(-8, 8, 321)
    with plots.course_style():
        fig, ax = plt.subplots(figsize=(6.2, 4.2), layout="constrained")
        for style, t in zip(plots.SERIES, TEMPERATURES):
            ax.plot(
                f,
                expit(f / t),
                color=style["color"],
                linestyle=style["linestyle"],
                marker=style["marker"],
                markevery=40,
                markersize=5,
                label=f"T = {fmt(t, 1)}",
            )
        ax.plot(
            f,
            expit(f - SHIFT),
            color="black",
            linestyle=(0, (1, 1)),
            linewidth=2.2,
            label=term("shifted_map"),
        )
        ax.plot(
            [0],
            [0.5],
            marker="o",
            markersize=11,
            markerfacecolor="none",
            markeredgecolor="black",
            markeredgewidth=1.8,
            linestyle="none",
            zorder=4,
        )
        ax.annotate("(0, ½)", xy=(0, 0.5), xytext=(-52, 12), textcoords="offset points", fontsize=10)
        ax.set_xlabel(term("log_odds_axis"))
        ax.set_ylabel(term("temperature_probability_axis"))
        ax.set_ylim(-0.03, 1.03)
        ax.set_title(term("temperature_title"), fontsize=10)
        ax.legend(loc="upper left", fontsize=8)
        plots.localise_axes(ax)
    return fig
