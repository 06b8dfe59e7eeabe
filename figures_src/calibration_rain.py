"""Reliability diagram of the rain forecaster: three groups of forecasts (0.2 on 100 days, 0.5 on
200 days, 0.8 on 100 days) against the observed share of rainy days, with the diagonal of perfect
calibration and each group's gap drawn as a vertical segment."""

import matplotlib.pyplot as plt
import numpy as np

from beyond_accuracy import fmt, plots, term
from beyond_accuracy.metrics import reliability_table

NAME = "calibration-rain"

FORECASTS = (0.2, 0.5, 0.8)
DAYS = (100, 200, 100)
RAINY = (18, 130, 84)


def rain_data():
    p = np.repeat(FORECASTS, DAYS)
    y = np.concatenate([np.r_[np.ones(r), np.zeros(d - r)] for d, r in zip(DAYS, RAINY)])
    return y, p


def draw():
    y, p = rain_data()
    table = reliability_table(y, p)
    with plots.course_style():
        fig, ax = plt.subplots(figsize=(5.2, 4.9), layout="constrained")
        ax.plot([0, 1], [0, 1], label=term("perfect_calibration"), **plots.BASELINE)
        for k, row in enumerate(table.itertuples()):
            ax.plot(
                [row.mean_predicted, row.mean_predicted],
                [row.mean_predicted, row.fraction_positive],
                color=plots.PALETTE["vermillion"],
                linestyle="--",
                linewidth=2,
                label=term("calibration_gap") if k == 0 else None,
            )
            gap = row.fraction_positive - row.mean_predicted
            ax.annotate(
                f"{term('calibration_gap')} {fmt(abs(gap), 2)}\n{fmt(int(row.count), 0)} {term('forecasts')}",
                xy=(row.mean_predicted, (row.mean_predicted + row.fraction_positive) / 2),
                xytext=(10, 0),
                textcoords="offset points",
                va="center",
                fontsize=8.5,
            )
        ax.plot(
            table["mean_predicted"],
            table["fraction_positive"],
            linestyle="none",
            marker="o",
            markersize=9,
            color=plots.PALETTE["blue"],
            markeredgecolor="black",
            label=term("forecast_groups"),
            zorder=3,
        )
        ax.set_xlim(-0.02, 1.02)
        ax.set_ylim(-0.02, 1.02)
        ax.set_aspect("equal")
        ax.set_xlabel(term("rain_forecast_axis"))
        ax.set_ylabel(term("rainy_share_axis"))
        ax.legend(loc="upper left", fontsize=8.5)
        plots.localise_axes(ax)
    return fig
